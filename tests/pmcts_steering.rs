//! Portfolio MCTS's opt-in steering fields on Tribes (issue 29): `rollout=weighted`,
//! `expand=weighted`, `final=weighted` (`tie`), `persona` and `style` parse and name bad
//! values; the weighted rollout sampler draws only scripts of weight; the weighted final
//! move plays the highest-weighted proposal when every child is tied; the strength dial
//! `epsilon` plays only proposals of weight at 1 and as the default at 0; the dial `blunder`
//! plays as the default at 0 and at 1 swaps the searched move for another of its style key;
//! the persona term changes nothing when every weight is equal and makes a personality whose
//! attack scripts weigh more attack more; every field is deterministic for a seed.

use std::sync::Arc;

use playstyles::agent::{Agent, Assignment, Portfolio, SearchSupport};
use playstyles::agents::build_agent;
use playstyles::arena::play_match;
use playstyles::game::{Game, Turn};
use playstyles::games::tribes::{Action, ActionKind, State, TribesGame, builtin};
use playstyles::rng::{Rng, derive_rng};

use crate::support::errors::config_field;

/// Every field together, at half strength.
const ALL: &str = "pmcts(budget=80,rollout=weighted,expand=weighted,final=weighted,tie=0.1,\
                   persona=0.5,style=0.5,weights=[spawn.strongest=1,spawn.cheapest=0])";

#[test]
fn steering_fields_parse_and_bad_values_name_the_field() {
    let game = TribesGame::default();
    for s in [
        "pmcts(rollout=weighted)",
        "pmcts(expand=weighted,final=weighted,tie=0,persona=0,style=0)",
        "pmcts(expand=random,final=best,style=1,persona=2.5)",
        ALL,
    ] {
        assert!(build_agent(&game, s).is_ok(), "{s}");
    }
    let field = |s: &str| config_field(build_agent(&game, s));
    assert_eq!(field("pmcts(rollout=weigthed)"), "rollout");
    assert_eq!(field("pmcts(expand=best)"), "expand");
    assert_eq!(field("pmcts(expand=1)"), "expand");
    assert_eq!(field("pmcts(final=mean)"), "final");
    assert_eq!(field("pmcts(tie=-0.1)"), "tie");
    assert_eq!(field("pmcts(tie=inf)"), "tie");
    assert_eq!(field("pmcts(persona=-1)"), "persona");
    assert_eq!(field("pmcts(persona=x)"), "persona");
    assert_eq!(field("pmcts(style=1.5)"), "style");
    assert_eq!(field("pmcts(style=-0.5)"), "style");
    assert_eq!(field("pmcts(epsilon=1.01)"), "epsilon");
    assert_eq!(field("pmcts(epsilon=-0.1)"), "epsilon");
    assert_eq!(field("pmcts(epsilon=nan)"), "epsilon");
    assert_eq!(field("pmcts(blunder=1.5)"), "blunder");
    assert_eq!(field("pmcts(blunder=-1)"), "blunder");
}

#[test]
fn steered_searches_are_deterministic_for_a_seed() {
    let game = TribesGame::default();
    for spec in [
        ALL,
        "pmcts(budget=80,rollout=weighted,persona=1)",
        "pmcts(budget=80,expand=weighted,pruning=true)",
        "pmcts(budget=80,expand=weighted,final=weighted,epsilon=0.5)",
        "pmcts(budget=80,expand=weighted,final=weighted,blunder=0.5)",
    ] {
        assert_eq!(actions_of(&game, spec), actions_of(&game, spec), "{spec}");
    }
}

/// The states of a game between two rule-based agents, every `step`-th one.
fn some_states(game: &TribesGame, step: usize) -> Vec<State> {
    let level = builtin::level(builtin::SEEDS[0]).unwrap();
    let mut agents: Vec<Box<dyn Agent<TribesGame>>> = vec![
        build_agent(game, "rule").unwrap(),
        build_agent(game, "rule").unwrap(),
    ];
    let mut states = Vec::new();
    let mut s = game.new_initial_state(&level, 1);
    let mut rng = derive_rng(7, &[1]);
    let mut i = 0;
    while !game.is_terminal(&s) && states.len() < 40 {
        if i % step == 0 {
            states.push(s.clone());
        }
        let p = match game.turn(&s) {
            playstyles::game::Turn::Player(p) => p,
            playstyles::game::Turn::Terminal => break,
        };
        let a = agents[p].act(game, &s, &mut rng).unwrap();
        game.apply(&mut s, a);
        i += 1;
    }
    states
}

/// The Tribes portfolio through the trait's default methods only.
struct Plain(Arc<dyn Portfolio<TribesGame>>);

impl Portfolio<TribesGame> for Plain {
    fn script_names(&self) -> &[&'static str] {
        self.0.script_names()
    }

    fn assignments(
        &self,
        game: &TribesGame,
        state: &State,
        rng: &mut Rng,
        out: &mut Vec<Assignment<Action>>,
    ) {
        self.0.assignments(game, state, rng, out);
    }
}

#[test]
fn weighted_samples_come_only_from_scripts_of_weight_and_fall_back_to_uniform() {
    let game = TribesGame::default();
    let table = game.portfolio();
    let plain: Arc<dyn Portfolio<TribesGame>> = Arc::new(Plain(table.clone()));
    let names = table.script_names();
    let keep = ["move.to_own_city", "end_turn.first", "spawn.cheapest"];
    let one_hot: Vec<f64> = names
        .iter()
        .map(|n| if keep.contains(n) { 1.0 } else { 0.0 })
        .collect();
    let zeros = vec![0.0; names.len()];
    let mut rng = derive_rng(11, &[]);
    let mut buf = Vec::new();
    let (mut kept, mut fallback) = (0, 0);
    for portfolio in [&table, &plain] {
        for s in some_states(&game, 7) {
            for _ in 0..20 {
                if let Some(a) =
                    portfolio.sample_weighted(&game, &s, None, &one_hot, &mut rng, &mut buf)
                {
                    // A script of weight 0 is drawn only when no script of weight proposes.
                    if one_hot[a.script as usize] == 0.0 {
                        let mut all = Vec::new();
                        portfolio.assignments(&game, &s, &mut rng.clone(), &mut all);
                        assert!(
                            all.iter().all(|p| one_hot[p.script as usize] == 0.0),
                            "drew {} although a kept script proposed",
                            names[a.script as usize]
                        );
                        fallback += 1;
                    } else {
                        kept += 1;
                    }
                }
                let any = portfolio.sample_weighted(&game, &s, None, &zeros, &mut rng, &mut buf);
                assert!(any.is_some(), "all-zero weights draw uniformly");
            }
        }
    }
    assert!(
        kept > 10 * fallback.max(1),
        "kept {kept}, fallback {fallback}"
    );
}

/// (`expand=weighted` makes sure the highest-weighted proposal is among the expanded children.)
#[test]
fn with_every_child_tied_the_weighted_final_move_plays_the_highest_weighted_proposal() {
    let game = TribesGame::default();
    let table = game.portfolio();
    let weights = "weights=[spawn.strongest=1,spawn.defensive=0,spawn.cheapest=0,\
                   spawn.fastest=0,spawn.max_hp=0,spawn.range=0]";
    let mut agent = build_agent(
        &game,
        &format!("pmcts(budget=60,expand=weighted,final=weighted,tie=1,{weights})"),
    )
    .unwrap();
    let w = |script: u16| match table.script_names()[script as usize] {
        "spawn.strongest" => 1.0,
        n if n.starts_with("spawn.") => 0.0,
        _ => 0.5,
    };
    let mut rng = derive_rng(5, &[]);
    let mut checked = 0;
    for s in some_states(&game, 3) {
        let mut props = Vec::new();
        table.assignments(&game, &s, &mut rng.clone(), &mut props);
        if props.len() < 2 {
            continue;
        }
        let a = agent.act(&game, &s, &mut rng).unwrap();
        let best = props
            .iter()
            .map(|p| w(p.script) * p.value)
            .fold(f64::NEG_INFINITY, f64::max);
        let played = props
            .iter()
            .filter(|p| p.action == a)
            .map(|p| w(p.script) * p.value)
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(played, best, "played {a:?}");
        checked += 1;
    }
    assert!(checked > 5, "{checked}");
}

/// The actions of a game (match seed `seed`) of `spec` as player 0 against
/// `mcts(budget=80)` on the built-in level of `level`, showing `observer` every step.
fn against_mcts(
    game: &TribesGame,
    level: u64,
    spec: &str,
    seed: u64,
    observer: impl FnMut(&State, Action),
) -> Vec<Action> {
    let level = builtin::level(level).unwrap();
    let mut agents: Vec<Box<dyn Agent<TribesGame>>> = vec![
        build_agent(game, spec).unwrap(),
        build_agent(game, "mcts(budget=80)").unwrap(),
    ];
    play_match(game, &level, &mut agents, seed, observer)
        .unwrap()
        .actions
}

/// The actions of a game of `spec` against MCTS on the fourth built-in level.
fn actions_of(game: &TribesGame, spec: &str) -> Vec<Action> {
    against_mcts(game, builtin::SEEDS[3], spec, 3, |_, _| {})
}

#[test]
fn epsilon_zero_plays_as_the_default_and_one_plays_only_proposals_of_weight() {
    let game = TribesGame::default();
    let base = "pmcts(budget=80,expand=weighted,final=weighted";
    assert_eq!(
        actions_of(&game, &format!("{base})")),
        actions_of(&game, &format!("{base},epsilon=0)")),
    );
    assert_ne!(
        actions_of(&game, &format!("{base})")),
        actions_of(&game, &format!("{base},epsilon=0.5)")),
    );
    // At 1 every decision is an instinct: a proposal drawn by w·v, so never one of weight 0
    // while one of weight proposes.
    let table = game.portfolio();
    let zero = [
        "spawn.strongest",
        "spawn.defensive",
        "spawn.cheapest",
        "spawn.fastest",
    ];
    let weights: Vec<String> = zero.iter().map(|n| format!("{n}=0")).collect();
    let mut agent = build_agent(
        &game,
        &format!("pmcts(budget=80,epsilon=1,weights=[{}])", weights.join(",")),
    )
    .unwrap();
    let w = |script: u16| {
        if zero.contains(&table.script_names()[script as usize]) {
            0.0
        } else {
            0.5
        }
    };
    let mut rng = derive_rng(9, &[]);
    let mut checked = 0;
    for s in some_states(&game, 2) {
        let mut props = Vec::new();
        table.assignments(&game, &s, &mut rng.clone(), &mut props);
        if props.len() < 2 || props.iter().all(|p| w(p.script) * p.value == 0.0) {
            continue;
        }
        let a = agent.act(&game, &s, &mut rng).unwrap();
        let played = props
            .iter()
            .filter(|p| p.action == a)
            .map(|p| w(p.script) * p.value)
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(played > 0.0, "played {a:?} of weight 0");
        checked += 1;
    }
    assert!(checked > 5, "{checked}");
}

#[test]
fn blunder_zero_plays_as_the_default_and_one_swaps_within_the_style_key() {
    let game = TribesGame::default();
    let base = "pmcts(budget=80,expand=weighted,final=weighted";
    assert_eq!(
        actions_of(&game, &format!("{base})")),
        actions_of(&game, &format!("{base},blunder=0)")),
    );
    // At 1 every searched move is swapped after the same search: for another legal action of
    // its style key (a spawn of the same unit, any other move, …) whenever there is one.
    let mut searched = build_agent(&game, &format!("{base})")).unwrap();
    let mut blundered = build_agent(&game, &format!("{base},blunder=1)")).unwrap();
    let (mut swapped, mut kept) = (0, 0);
    let mut legal = Vec::new();
    for (i, s) in some_states(&game, 3).iter().enumerate() {
        let rng = derive_rng(11, &[i as u64]);
        let best = searched.act(&game, s, &mut rng.clone()).unwrap();
        let played = blundered.act(&game, s, &mut rng.clone()).unwrap();
        assert_eq!(
            game.style_key(played),
            game.style_key(best),
            "{best:?} -> {played:?}"
        );
        game.legal_actions(s, &mut legal);
        let others = legal
            .iter()
            .any(|&a| a != best && game.style_key(a) == game.style_key(best));
        if legal.len() > 1 && others {
            assert_ne!(played, best);
            swapped += 1;
        } else {
            kept += 1;
        }
    }
    assert!(swapped > 5 && kept > 0, "{swapped} swapped, {kept} kept");
}

/// ATTACK actions the first player plays in games of `spec` against MCTS on two built-in levels.
fn attacks_of(game: &TribesGame, spec: &str) -> usize {
    [builtin::SEEDS[0], builtin::SEEDS[3]]
        .iter()
        .map(|&level| {
            let mut n = 0;
            against_mcts(game, level, spec, 5, |s, a| {
                if game.turn(s) == Turn::Player(0) && a.kind == ActionKind::Attack {
                    n += 1;
                }
            });
            n
        })
        .sum()
}

#[test]
fn the_persona_term_is_silent_for_equal_weights_and_steers_attacks_by_their_weight() {
    let game = TribesGame::default();
    let base = "pmcts(budget=120,expand=weighted,final=weighted";
    // Every weight 0.5: each path's mean weight is the centre, so the term adds 0 everywhere.
    assert_eq!(
        actions_of(&game, &format!("{base})")),
        actions_of(&game, &format!("{base},persona=3)")),
    );
    let weights = |w: f64| {
        let names = [
            "attack.closest",
            "attack.weakest",
            "attack.max_damage",
            "attack.strongest",
        ];
        let list: Vec<String> = names.iter().map(|n| format!("{n}={w}")).collect();
        format!("{base},persona=3,weights=[{}])", list.join(","))
    };
    let (low, high) = (
        attacks_of(&game, &weights(0.0)),
        attacks_of(&game, &weights(1.0)),
    );
    assert!(
        high > 2 * low + 5,
        "attacks: {low} at weight 0, {high} at weight 1"
    );
}
