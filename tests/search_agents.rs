//! The search agents on Tribes: whole games with legal actions, a winning capture, one-script
//! portfolios, the unpruning schedule, agent specs.

use std::sync::Arc;

use playstyles::agent::{Agent, AgentSpec, Assignment, Portfolio, SearchSupport};
use playstyles::agents::compat::SearchCompat;
use playstyles::agents::portfolio_mcts::{PmctsParams, PortfolioMcts};
use playstyles::agents::{build_agent, build_agent_from};
use playstyles::arena::play_match;
use playstyles::error::Error;
use playstyles::game::{Game, Outcome, Turn};
use playstyles::games::tribes::state::NONE;
use playstyles::games::tribes::{
    Action, Compat, State, TribeKind, TribesGame, TribesRules, UnitStatus, builtin,
};
use playstyles::rng::{Rng, derive_rng};

use crate::support::errors::config_field;

fn agent(game: &TribesGame, spec: &str) -> Box<dyn Agent<TribesGame>> {
    build_agent(game, spec).unwrap()
}

#[test]
fn every_agent_finishes_whole_games_on_all_25_levels_with_legal_actions() {
    let game = TribesGame::default();
    let specs = [
        "random",
        "end_turn",
        "rule",
        "osla(budget=30)",
        "mcts(budget=30)",
        "rhea(budget=30,length=5)",
        "pmcts(bias=false,pruning=false,budget=30)",
        "pmcts(bias=true,pruning=false,budget=30)",
        "pmcts(bias=true,pruning=true,budget=30)",
    ];
    let mut buf = Vec::new();
    for (i, seed) in builtin::SEEDS.iter().enumerate() {
        let level = builtin::level(*seed).unwrap();
        let a = specs[i % specs.len()];
        let b = specs[(i + 4) % specs.len()];
        let mut agents = vec![agent(&game, a), agent(&game, b)];
        let mut illegal = None;
        let record = play_match(&game, &level, &mut agents, i as u64, |s, act| {
            game.legal_actions(s, &mut buf);
            if illegal.is_none() && !buf.contains(&act) {
                illegal = Some(format!("{act:?} at round {}", s.tick));
            }
        })
        .unwrap();
        assert_eq!(illegal, None, "{a} vs {b} on {seed}");
        assert!(
            record.outcome.is_some(),
            "{a} vs {b} on {seed} did not finish"
        );
    }
}

/// A state where tribe 0's warrior stands, fresh, on tribe 1's capital (its only city), with
/// no stars to spend: capturing wins at once.
fn capture_in_reach(game: &TribesGame) -> State {
    let level = builtin::level(builtin::SEEDS[0]).unwrap();
    let mut s = game.new_initial_state(&level, 3);
    assert_eq!(s.tribes[0].kind, TribeKind::XinXi);
    let enemy_capital = s.cities[s.tribes[1].capital as usize].tile as usize;
    // Remove the enemy warrior from its capital and put ours there.
    let enemy = s.tiles[enemy_capital].unit as usize;
    s.tiles[enemy_capital].unit = NONE;
    s.units[enemy].alive = false;
    s.tribes[1].score -= s.units[enemy].points as i32;
    let ours = (0..s.units.len())
        .find(|&u| s.units[u].alive && s.units[u].tribe == 0)
        .unwrap();
    let from = s.units[ours].pos as usize;
    s.tiles[from].unit = NONE;
    s.tiles[enemy_capital].unit = ours as u8;
    s.units[ours].pos = enemy_capital as u16;
    s.units[ours].status = UnitStatus::Fresh;
    s.tribes[0].stars = 0;
    s
}

#[test]
fn mcts_takes_an_available_capital_capture_that_wins_the_game() {
    let game = TribesGame::default();
    for seed in 0..5u64 {
        let mut s = capture_in_reach(&game);
        let mut mcts = agent(&game, "mcts(budget=300)");
        let mut rng = derive_rng(seed, &[1]);
        while game.turn(&s) == Turn::Player(0) {
            let a = mcts.act(&game, &s, &mut rng).unwrap();
            game.apply(&mut s, a);
        }
        assert_eq!(game.outcome(&s), Some(Outcome::win(0, 2)), "seed {seed}");
    }
}

/// The Tribes portfolio restricted to one script.
struct OneScript {
    inner: Arc<dyn Portfolio<TribesGame>>,
    script: u16,
}

impl Portfolio<TribesGame> for OneScript {
    fn script_names(&self) -> &[&'static str] {
        self.inner.script_names()
    }

    fn assignments(
        &self,
        game: &TribesGame,
        state: &State,
        rng: &mut Rng,
        out: &mut Vec<Assignment<Action>>,
    ) {
        self.inner.assignments(game, state, rng, out);
        out.retain(|a| a.script == self.script);
    }
}

#[test]
fn a_one_script_portfolio_plays_exactly_that_script() {
    let game = TribesGame::default();
    let portfolio = game.portfolio();
    for name in ["research.naval", "spawn.cheapest", "move.offensively"] {
        let script = portfolio
            .script_names()
            .iter()
            .position(|n| *n == name)
            .unwrap() as u16;
        let one = Arc::new(OneScript {
            inner: portfolio.clone(),
            script,
        });
        let params = PmctsParams {
            budget: 50,
            ..PmctsParams::default()
        };
        let mut agent = PortfolioMcts::new(
            params,
            game.knowledge(),
            one.clone(),
            vec![],
            SearchCompat::Intended,
        );
        let level = builtin::level(builtin::SEEDS[1]).unwrap();
        let mut s = game.new_initial_state(&level, 9);
        let mut rng = derive_rng(4, &[2]);
        let mut proposals = Vec::new();
        let mut checked = 0;
        for _ in 0..400 {
            if game.is_terminal(&s) {
                break;
            }
            let mut probe = rng.clone();
            one.assignments(&game, &s, &mut probe, &mut proposals);
            let a = agent.act(&game, &s, &mut rng).unwrap();
            if !proposals.is_empty() {
                assert!(
                    proposals.iter().any(|p| p.action == a),
                    "{name}: played {a:?}, the script proposed {:?}",
                    proposals.iter().map(|p| p.action).collect::<Vec<_>>()
                );
                checked += 1;
            }
            game.apply(&mut s, a);
        }
        assert!(checked > 0, "{name} never proposed anything");
    }
}

#[test]
fn the_unpruning_schedule_matches_the_spec_table() {
    // Spec §15.5: T = ⌊n·2⌋, k_init = max(1, ⌊n·0.5⌋), A = ⌊T·1.5⌋, limit ⌊A·1.3^k⌋.
    let p = PmctsParams::reference();
    for (n, k_init, t, a) in [
        (1, 1, 2, 3),
        (2, 1, 4, 6),
        (5, 2, 10, 15),
        (10, 5, 20, 30),
        (7, 3, 14, 21),
    ] {
        let s = p.unpruning(n);
        assert_eq!((s.k_init, s.t, s.a), (k_init, t, a), "n = {n}");
    }
    // A = 30: 30·1.3 = 39, 30·1.69 = 50.7 → 50, 30·2.197 = 65.91 → 65.
    let thresholds: Vec<u32> = (1..=3).map(|k| p.unprune_threshold(30, k)).collect();
    assert_eq!(thresholds, [39, 50, 65]);
}

#[test]
fn agent_specs_round_trip_and_bad_specs_name_the_field() {
    let game = TribesGame::default();
    for s in [
        "mcts(budget=2000)",
        "pmcts(bias=true,pruning=true,weights=[spawn.defensive=1,research.naval=0.25])",
        "rhea(budget=500,length=10,mutation=0.2)",
        "pmcts(rollout=exact,budget=100)",
    ] {
        let spec = AgentSpec::parse(s).unwrap();
        assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec);
        assert!(build_agent_from(&game, spec).is_ok(), "{s}");
    }
    let field = |s: &str| config_field(build_agent(&game, s));
    assert_eq!(field("mcts(budget=0)"), "budget");
    assert_eq!(field("mcts(budgett=5)"), "budgett");
    assert_eq!(field("pmcts(weights=[spawn.nope=1])"), "weights");
    assert_eq!(field("pmcts(weights=[spawn.defensive=-1])"), "weights");
    assert_eq!(field("rhea(mutation=2)"), "mutation");
    assert_eq!(field("alphago"), "agents");
    assert_eq!(field("pmcts(bias=maybe)"), "bias");
    assert_eq!(field("pmcts(rollout=greedy)"), "rollout");
    // A depth beyond u32 is an error, not a silent wrap-around.
    assert_eq!(field("mcts(depth=4294967296)"), "depth");
    assert_eq!(field("pmcts(depth=4294967296)"), "depth");
}

#[test]
fn agent_specs_also_come_from_toml_tables() {
    let game = TribesGame::default();
    let v: toml::Value = toml::from_str(
        r#"agent = { name = "pmcts", bias = true, pruning = false, budget = 100, weights = { "spawn.defensive" = 1.0 } }"#,
    )
    .unwrap();
    let spec = AgentSpec::from_toml(&v["agent"], "agent").unwrap();
    assert_eq!(spec.name(), "pmcts");
    assert!(build_agent_from(&game, spec).is_ok());
    let bad: toml::Value = toml::from_str(r#"agent = { bias = true }"#).unwrap();
    match AgentSpec::from_toml(&bad["agent"], "agent") {
        Err(Error::Config { field, .. }) => assert_eq!(field, "agent.name"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn search_agents_are_deterministic_for_a_seed() {
    let game = TribesGame::default();
    let level = builtin::level(builtin::SEEDS[2]).unwrap();
    for spec in [
        "mcts(budget=100)",
        "rhea(budget=100)",
        "pmcts(budget=100)",
        "osla",
    ] {
        let run = || {
            let mut agents = vec![agent(&game, spec), agent(&game, "rule")];
            play_match(&game, &level, &mut agents, 5, |_, _| {})
                .unwrap()
                .actions
        };
        assert_eq!(run(), run(), "{spec}");
    }
}

/// In the Java search, a node selects child 0 until its first pruning, so without pruning no
/// selection value is ever computed and progressive bias changes nothing: P-MCTS and P-MCTS(B)
/// play the same games (as the paper's 65.6 % and 65.4 % suggest). Under the intended search
/// the bias does change the play.
#[test]
fn without_pruning_the_java_bias_changes_nothing_and_the_intended_bias_does() {
    let level = builtin::level(builtin::SEEDS[4]).unwrap();
    let play = |game: &TribesGame, spec: &str| {
        let mut agents = vec![agent(game, spec), agent(game, "mcts(budget=60)")];
        play_match(game, &level, &mut agents, 9, |_, _| {})
            .unwrap()
            .actions
    };
    let plain = "pmcts(bias=false,pruning=false,budget=60)";
    let biased = "pmcts(bias=true,pruning=false,budget=60)";
    let java = TribesGame::new(TribesRules {
        compat: Compat::Java,
        ..Default::default()
    });
    assert_eq!(play(&java, plain), play(&java, biased));
    let intended = TribesGame::default();
    assert_ne!(play(&intended, plain), play(&intended, biased));
}

#[test]
fn the_agent_benchmark_times_decisions_and_counts_the_decisions_of_a_game() {
    let game = TribesGame::default();
    let levels: Vec<_> = builtin::all().into_iter().map(|(_, l)| l).take(1).collect();
    let set = playstyles::bench::AgentBenchSet::SEARCH;
    let b = playstyles::bench::bench_agents(&game, &set, &levels, 1, 5).unwrap();
    assert_eq!(b.games, 1);
    assert!(b.states > 0, "{b:?}");
    let m = |name: &str| b.get(name).unwrap_or_else(|| panic!("{name} in {b:?}"));
    for name in ["mcts_ms", "rhea_ms", "pmcts_pu_ms", "pmcts_vs_mcts_game_s"] {
        assert!(m(name).is_finite() && m(name) > 0.0, "{b:?}");
    }
    // Each agent chose at least one action per round it played, END_TURN included.
    assert!(m("game_rounds") >= 1.0, "{b:?}");
    assert!(m("pmcts_game_decisions") >= m("game_rounds") - 1.0, "{b:?}");
    assert!(m("mcts_game_decisions") >= m("game_rounds") - 1.0, "{b:?}");
    let table = b.to_table();
    for key in ["mcts_ms", "pmcts_game_decisions", "game_rounds"] {
        assert!(table.contains(key), "{table}");
    }
}

#[test]
fn the_agent_benchmark_seats_as_many_agents_as_the_level_has_players() {
    use playstyles::bench::{AgentBenchSet, bench_agents};
    use playstyles::games::puerto_rico::PuertoRicoGame;
    use playstyles::kit::GameKit;
    let game = PuertoRicoGame::with_rules(Default::default());
    let levels = [PuertoRicoGame::load_level("3p").unwrap()];
    let set = AgentBenchSet {
        warmup: "sa0",
        warmup_games: 2,
        turn_starts: false,
        phase: Some(0),
        every: 3,
        decisions: &[("sa0_us", "sa0"), ("random_ms", "random")],
        first_decisions: true,
        games: &[
            &[("sa0", "sa0"), ("sa0", "sa0"), ("sa0", "sa0")],
            &[("random", "random"), ("sa0", "sa0"), ("sa0", "sa0")],
        ],
        game_unit: "ms",
    };
    let b = bench_agents(&game, &set, &levels, 3, 1).unwrap();
    assert_eq!(b.games, 6, "{b:?}");
    assert!(b.states > 0, "{b:?}");
    let m = |name: &str| b.get(name).unwrap_or_else(|| panic!("{name} in {b:?}"));
    for name in [
        "sa0_us",
        "random_ms",
        "sa0_first_us",
        "random_first_ms",
        "sa0_vs_sa0_vs_sa0_game_ms",
        "random_vs_sa0_vs_sa0_game_ms",
    ] {
        assert!(m(name).is_finite() && m(name) > 0.0, "{name}: {b:?}");
    }
    // Several whole-game sets: each one's decisions and rounds under its own name.
    assert!(m("sa0_vs_sa0_vs_sa0_game_rounds") >= 1.0, "{b:?}");
    assert!(m("random_vs_sa0_vs_sa0_random_decisions") >= 1.0, "{b:?}");
    assert!(m("random_vs_sa0_vs_sa0_sa0_decisions") >= 1.0, "{b:?}");
    assert_eq!(b.get("game_rounds"), None, "{b:?}");
    // A set seating fewer agents than the level has players is refused.
    let two = AgentBenchSet {
        games: &[&[("sa0", "sa0"), ("sa0", "sa0")]],
        ..set
    };
    // The error names the flag that chose the level, `--level`.
    match bench_agents(&game, &two, &levels, 1, 1) {
        Err(playstyles::Error::Config { field, .. }) => assert_eq!(field, "level"),
        other => panic!("{other:?}"),
    }
}

/// A three-player game of one decision each for players 0 and 1 (player 2 never moves):
/// player 0 takes `Right`, which ends the game with `right`, or `Left`, after which player 1
/// chooses between `left_a` and `left_b`.
struct ThreeSeats {
    info: playstyles::game::GameInfo,
    left_a: Outcome,
    left_b: Outcome,
    right: Outcome,
}

/// Where a [`ThreeSeats`] game is: 0 at the start, 1 after `Left`, then the finished games
/// 2 (`Right`), 3 (`Left`, a) and 4 (`Left`, b).
#[derive(Clone, Debug, PartialEq)]
struct Spot(u8);

impl ThreeSeats {
    /// Outcomes given as ranks of seats 0, 1, 2.
    fn new(left_a: [u8; 3], left_b: [u8; 3], right: [u8; 3]) -> Self {
        ThreeSeats {
            info: playstyles::game::GameInfo {
                name: "three_seats",
                min_players: 3,
                max_players: 3,
                actor_classes: &["player"],
                action_kinds: &["choose"],
                phases: &["play"],
                stats: &[],
                action_labels: &[],
                chance: false,
                hidden_information: false,
            },
            left_a: Outcome::from_ranks(&left_a).unwrap(),
            left_b: Outcome::from_ranks(&left_b).unwrap(),
            right: Outcome::from_ranks(&right).unwrap(),
        }
    }
}

impl Game for ThreeSeats {
    type Level = ();
    type State = Spot;
    /// At the start 0 is `Left` and 1 `Right`; after `Left`, 0 is a and 1 is b.
    type Action = u8;

    fn info(&self) -> &playstyles::game::GameInfo {
        &self.info
    }
    fn new_initial_state(&self, _: &(), _: u64) -> Spot {
        Spot(0)
    }
    fn num_players(&self, _: &Spot) -> usize {
        3
    }
    fn turn(&self, s: &Spot) -> Turn {
        match s.0 {
            0 => Turn::Player(0),
            1 => Turn::Player(1),
            _ => Turn::Terminal,
        }
    }
    fn round(&self, s: &Spot) -> u32 {
        u32::from(s.0 >= 2)
    }
    fn legal_actions(&self, s: &Spot, out: &mut Vec<u8>) {
        out.clear();
        if s.0 < 2 {
            out.extend([0, 1]);
        }
    }
    fn actor(&self, s: &Spot, _: u8) -> playstyles::game::Actor {
        playstyles::game::Actor {
            class: 0,
            id: u32::from(s.0),
        }
    }
    fn action_kind(&self, _: u8) -> u8 {
        0
    }
    fn ends_turn(&self, _: u8) -> bool {
        true
    }
    fn apply(&self, s: &mut Spot, a: u8) {
        s.0 = match (s.0, a) {
            (0, 0) => 1,
            (0, _) => 2,
            (_, a) => 3 + a,
        };
    }
    fn outcome(&self, s: &Spot) -> Option<Outcome> {
        match s.0 {
            2 => Some(self.right),
            3 => Some(self.left_a),
            4 => Some(self.left_b),
            _ => None,
        }
    }
    fn score(&self, _: &Spot, _: playstyles::game::Player) -> f64 {
        0.0
    }
}

/// Values a finished game by the player's utility (so that the Java leaf value, which adds
/// no terminal bonus, sees the outcome too); 0 before the end.
struct UtilityKnowledge;

impl playstyles::agent::Knowledge<ThreeSeats> for UtilityKnowledge {
    fn evaluate(&self, g: &ThreeSeats, _: &Spot, s: &Spot, p: playstyles::game::Player) -> f64 {
        g.outcome(s).map_or(0.0, |o| o.utility(p))
    }
}

/// Proposes every legal action (value 0.5).
struct EveryAction;

impl Portfolio<ThreeSeats> for EveryAction {
    fn script_names(&self) -> &[&'static str] {
        &["any"]
    }
    fn assignments(&self, g: &ThreeSeats, s: &Spot, _: &mut Rng, out: &mut Vec<Assignment<u8>>) {
        let mut legal = Vec::new();
        g.legal_actions(s, &mut legal);
        out.clear();
        out.extend(legal.into_iter().map(|action| Assignment {
            action,
            script: 0,
            value: 0.5,
        }));
    }
}

/// Player 0's first choice by MCTS and by Portfolio MCTS (with and without pruning), under
/// both compatibility modes, for seeds 0..5.
fn first_choices(game: &ThreeSeats) -> Vec<(String, u8)> {
    use playstyles::agents::mcts::{Mcts, MctsParams};
    let knowledge = Arc::new(UtilityKnowledge);
    let mut choices = Vec::new();
    for compat in [SearchCompat::Intended, SearchCompat::Java] {
        let mut agents: Vec<Box<dyn Agent<ThreeSeats>>> = vec![Box::new(Mcts::new(
            MctsParams {
                budget: 400,
                ..MctsParams::default()
            },
            knowledge.clone(),
            compat,
        ))];
        for pruning in [false, true] {
            if compat == SearchCompat::Java && !pruning {
                continue; // the Java P-MCTS without pruning always takes child 0
            }
            let params = PmctsParams {
                budget: 400,
                pruning,
                ..PmctsParams::default()
            };
            let p = PortfolioMcts::new(
                params,
                knowledge.clone(),
                Arc::new(EveryAction),
                vec![],
                compat,
            );
            agents.push(Box::new(p));
        }
        for agent in &mut agents {
            for seed in 0..5 {
                let a = agent
                    .act(game, &Spot(0), &mut derive_rng(seed, &[7]))
                    .unwrap();
                choices.push((format!("{} {compat:?} seed {seed}", agent.name()), a));
            }
        }
    }
    choices
}

/// With three players, player 1 maximises its own value (max^n), not the opposite of player
/// 0's. After `Left`, player 1 can win (a: player 0 second) or make player 0 last while
/// coming second itself (b). A search that let player 1 minimise player 0's value would see
/// `Left` as a last place and take `Right` (a shared second place, utility −0.5 > −1);
/// max^n expects player 1 to take its win and player 0 to come second (utility 0 > −0.5).
#[test]
fn with_three_players_each_player_maximises_its_own_value() {
    let spares_me = ThreeSeats::new([2, 1, 3], [3, 2, 1], [2, 2, 1]);
    for (who, a) in first_choices(&spares_me) {
        assert_eq!(
            a, 0,
            "{who} took Right, as if player 1 would hurt player 0 rather than win"
        );
    }
    // The control: when player 1's own best is to make player 0 last, `Right` is better.
    let hurts_me = ThreeSeats::new([2, 3, 1], [3, 1, 2], [2, 2, 1]);
    for (who, a) in first_choices(&hurts_me) {
        assert_eq!(
            a, 1,
            "{who} took Left, as if player 1 would spare player 0 at its own cost"
        );
    }
}
