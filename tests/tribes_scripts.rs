//! The Tribes portfolio scripts and the rule-based agent: names, legality and value range of
//! every proposal on states from seeded games over the 25 built-in levels, what the spawn and
//! research scripts claim to pick, and the rule-based agent against a random one.

use std::collections::HashSet;

use playstyles::agent::{Agent, Assignment, Portfolio};
use playstyles::agents::RandomAgent;
use playstyles::arena::play_match;
use playstyles::game::{Game, GroupedActions};
use playstyles::games::tribes::ai::scripts::{
    RESEARCH_BRANCHES, SCRIPT_NAMES, SCRIPTS, ScriptCtx, ScriptScratch, script_id, scripts_for,
};
use playstyles::games::tribes::ai::{EVOLVED_WEIGHTS, RuleBasedAgent, TribesPortfolio};
use playstyles::games::tribes::{
    Action, ActionKind, Building, Compat, Level, State, TribesGame, TribesRules, UnitStats, builtin,
};
use playstyles::rng::{Rng, derive_rng};
use rand::RngExt;

fn game(compat: Compat) -> TribesGame {
    TribesGame::new(TribesRules {
        compat,
        ..Default::default()
    })
}

fn levels() -> Vec<Level> {
    builtin::all().into_iter().map(|(_, l)| l).collect()
}

/// Plays a game on `level`: with probability `greed` the rule-based agent's action, else a
/// uniform legal one; calls `visit` on every state reached before the game ends.
fn visit_game(
    game: &TribesGame,
    level: &Level,
    seed: u64,
    greed: f64,
    mut visit: impl FnMut(&State, &mut Rng),
) {
    let mut rng = derive_rng(seed, &[11]);
    let mut s = game.new_initial_state(level, seed);
    let mut rule = RuleBasedAgent::new();
    let mut legal = Vec::new();
    for step in 0.. {
        assert!(step < 100_000, "runaway game on {} seed {seed}", level.name);
        if game.is_terminal(&s) {
            return;
        }
        visit(&s, &mut rng);
        let a = if rng.random_bool(greed) {
            rule.act(game, &s, &mut rng).unwrap()
        } else {
            game.legal_actions(&s, &mut legal);
            legal[rng.random_range(0..legal.len())]
        };
        game.apply(&mut s, a);
    }
}

#[test]
fn script_names_are_unique_dotted_lower_case_and_grouped_by_kind() {
    let names = TribesPortfolio.script_names();
    assert_eq!(names, &SCRIPT_NAMES[..]);
    let unique: HashSet<_> = names.iter().collect();
    assert_eq!(unique.len(), names.len());
    for name in names {
        let (action, style) = name.split_once('.').expect(name);
        let ok = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c == '_');
        assert!(ok(action) && ok(style), "{name}");
    }
    assert!(SCRIPTS.windows(2).all(|w| w[0].kind <= w[1].kind));
    for (id, s) in SCRIPTS.iter().enumerate() {
        assert!(scripts_for(s.kind).contains(&id), "{}", s.name);
    }
    assert!(scripts_for(ActionKind::Destroy).is_empty());
    assert!(scripts_for(ActionKind::Disband).is_empty());
    for w in EVOLVED_WEIGHTS {
        assert!(script_id(w).is_some(), "{w}");
    }
    for name in [
        "build.monument",
        "move.to_diverge",
        "attack.max_damage",
        "end_turn.first",
    ] {
        assert!(script_id(name).is_some(), "{name}");
    }
}

/// Checks the portfolio's proposals for one state; returns the (actor, kind) groups that had
/// scripts but got no proposal.
fn check_assignments(
    game: &TribesGame,
    s: &State,
    rng: &mut Rng,
    out: &mut Vec<Assignment<Action>>,
    grouped: &mut GroupedActions<Action>,
) -> Vec<(ActionKind, Vec<Action>)> {
    TribesPortfolio.assignments(game, s, rng, out);
    game.grouped_actions(s, grouped);
    let legal: HashSet<Action> = grouped.actions.iter().copied().collect();
    let mut seen = HashSet::new();
    for a in out.iter() {
        assert!(legal.contains(&a.action), "illegal proposal {a:?}");
        assert!((0.0..=1.0).contains(&a.value), "value out of range: {a:?}");
        assert_eq!(SCRIPTS[a.script as usize].kind, a.action.kind, "{a:?}");
        let actor = game.actor(s, a.action);
        assert!(seen.insert((actor, a.action)), "duplicate proposal {a:?}");
    }
    let mut silent = Vec::new();
    for g in &grouped.groups {
        let kind = ActionKind::from_index(g.kind as usize).unwrap();
        let proposed = out
            .iter()
            .any(|a| game.actor(s, a.action) == g.actor && a.action.kind == kind);
        if !scripts_for(kind).is_empty() && !proposed {
            silent.push((kind, grouped.group(g).to_vec()));
        }
        if scripts_for(kind).is_empty() {
            assert!(!proposed, "{kind:?} has no script but was proposed");
        }
    }
    silent
}

/// Groups the scripts may leave without a proposal: roads (only roads that extend the
/// capital's network, none once every city is connected), builds of temples, monuments only
/// and, under Java compatibility, builds the defective base scripts drop.
fn may_be_silent(java: bool, kind: ActionKind, actions: &[Action]) -> bool {
    match kind {
        ActionKind::BuildRoad => true,
        ActionKind::Build => {
            java || actions.iter().all(|a| {
                let b = a.building();
                b.is_temple() || b.is_monument()
            })
        }
        _ => false,
    }
}

#[test]
fn proposals_are_legal_in_range_unique_and_cover_every_scripted_kind() {
    let mut out = Vec::new();
    let mut grouped = GroupedActions::default();
    let mut kinds_seen = HashSet::new();
    let mut states = 0;
    for compat in [Compat::Intended, Compat::Java] {
        let g = game(compat);
        let java = compat == Compat::Java;
        for (i, level) in levels().iter().enumerate() {
            for (seed, greed) in [(i as u64, 0.0), (100 + i as u64, 0.8)] {
                visit_game(&g, level, seed, greed, |s, rng| {
                    states += 1;
                    for (kind, acts) in check_assignments(&g, s, rng, &mut out, &mut grouped) {
                        assert!(
                            may_be_silent(java, kind, &acts),
                            "{compat:?} {} seed {seed}: no proposal for {kind:?} among {acts:?}",
                            level.name
                        );
                    }
                    kinds_seen.extend(out.iter().map(|a| a.action.kind));
                });
            }
        }
    }
    assert!(states > 10_000, "only {states} states");
    for kind in [
        ActionKind::Build,
        ActionKind::Spawn,
        ActionKind::LevelUp,
        ActionKind::ResearchTech,
        ActionKind::Move,
        ActionKind::Attack,
        ActionKind::Capture,
        ActionKind::EndTurn,
        ActionKind::BuildRoad,
        ActionKind::ResourceGathering,
    ] {
        assert!(kinds_seen.contains(&kind), "{kind:?} never proposed");
    }
}

/// Runs every script of `kind` directly on each (actor, kind) group of the states of a few
/// games, with `check(script name, group, proposal)`.
fn on_groups(kind: ActionKind, mut check: impl FnMut(&str, &[Action], Option<(Action, f64)>)) {
    let g = game(Compat::Intended);
    let mut grouped = GroupedActions::default();
    let mut scratch = ScriptScratch::default();
    let mut groups = 0;
    for (i, level) in levels().iter().enumerate() {
        visit_game(&g, level, 500 + i as u64, 0.7, |s, rng| {
            g.grouped_actions(s, &mut grouped);
            let mut ctx = ScriptCtx::new(&g, s, &mut scratch);
            for grp in grouped.groups.iter().filter(|x| x.kind == kind as u8) {
                groups += 1;
                let acts = grouped.group(grp);
                for id in scripts_for(kind) {
                    let p = (SCRIPTS[id].run)(&mut ctx, acts, rng);
                    check(SCRIPTS[id].name, acts, p);
                }
            }
        });
    }
    assert!(groups > 100, "only {groups} {kind:?} groups");
}

#[test]
fn spawn_scripts_pick_the_first_unit_with_the_best_stat() {
    let stat = |name: &str| -> (bool, fn(&UnitStats) -> i32) {
        match name {
            "spawn.strongest" => (true, |s| s.atk),
            "spawn.defensive" => (true, |s| s.def),
            "spawn.cheapest" => (false, |s| s.cost),
            "spawn.fastest" => (true, |s| s.mov),
            "spawn.max_hp" => (true, |s| s.max_hp),
            "spawn.range" => (true, |s| s.range),
            other => panic!("unexpected spawn script {other}"),
        }
    };
    on_groups(ActionKind::Spawn, |name, acts, p| {
        let (max, f) = stat(name);
        let v = |a: &Action| f(a.unit_kind().stats());
        let best = if max {
            acts.iter().map(v).max()
        } else {
            acts.iter().map(v).min()
        }
        .unwrap();
        let first = *acts.iter().find(|a| v(a) == best).unwrap();
        let (a, value) = p.unwrap_or_else(|| panic!("{name} proposed nothing"));
        assert_eq!(a, first, "{name} among {acts:?}");
        assert!((0.0..=1.0).contains(&value));
        if max && best > 0 {
            assert_eq!(value, 1.0, "{name}");
        }
    });
}

#[test]
fn research_scripts_pick_the_lowest_tier_tech_of_their_branch() {
    on_groups(ActionKind::ResearchTech, |name, acts, p| {
        let branch = RESEARCH_BRANCHES
            .iter()
            .find(|(b, _)| name == format!("research.{b}"))
            .unwrap_or_else(|| panic!("unexpected research script {name}"))
            .1;
        if let [only] = acts {
            assert_eq!(p, Some((*only, 0.5)), "{name}");
            return;
        }
        let lowest = acts
            .iter()
            .filter(|a| branch.contains(&a.tech()))
            .map(|a| a.tech().tier())
            .min();
        match (lowest, p) {
            (None, None) => {}
            (Some(tier), Some((a, value))) => {
                assert!(branch.contains(&a.tech()), "{name} chose {a:?}");
                assert_eq!(a.tech().tier(), tier, "{name} chose {a:?} among {acts:?}");
                assert_eq!(value, (4 - tier) as f64 / 4.0);
            }
            other => panic!("{name} among {acts:?}: {other:?}"),
        }
    });
}

#[test]
fn java_compat_silences_the_temple_and_monument_scripts() {
    on_groups(ActionKind::Build, |name, acts, p| {
        if p.is_none() && !matches!(name, "build.temple" | "build.monument") {
            // Other builds only stay silent when none of their buildings is on offer.
            let kind = name.split_once('.').unwrap().1;
            let b = Building::from_name(kind).unwrap();
            assert!(
                acts.iter().all(|a| a.building() != b),
                "{name} silent on {acts:?}"
            );
        }
    });
    let g = game(Compat::Java);
    let mut grouped = GroupedActions::default();
    let mut scratch = ScriptScratch::default();
    let ids = [
        script_id("build.temple").unwrap(),
        script_id("build.monument").unwrap(),
    ];
    for (i, level) in levels().iter().enumerate().take(10) {
        visit_game(&g, level, 900 + i as u64, 0.8, |s, rng| {
            g.grouped_actions(s, &mut grouped);
            let mut ctx = ScriptCtx::new(&g, s, &mut scratch);
            for grp in &grouped.groups {
                if grp.kind == ActionKind::Build as u8 {
                    for id in ids {
                        assert_eq!((SCRIPTS[id].run)(&mut ctx, grouped.group(grp), rng), None);
                    }
                }
            }
        });
    }
}

/// Plays `games` games of the rule-based agent against `opponent` over the built-in levels,
/// seats alternating; returns the rule-based agent's wins.
fn rule_based_wins(
    g: &TribesGame,
    games: u64,
    mut opponent: impl FnMut() -> Box<dyn Agent<TribesGame>>,
) -> u64 {
    let levels = levels();
    let mut wins = 0;
    for i in 0..games {
        let level = &levels[i as usize % levels.len()];
        let seat = (i % 2) as usize;
        let mut agents: Vec<Box<dyn Agent<TribesGame>>> = vec![opponent(), opponent()];
        agents[seat] = Box::new(RuleBasedAgent::new());
        let record = play_match(g, level, &mut agents, 7000 + i, |s, a| {
            assert!(g.is_legal(s, a), "game {i}: illegal {a:?}");
        })
        .unwrap();
        assert!(!record.capped, "game {i} capped");
        let outcome = record
            .outcome
            .unwrap_or_else(|| panic!("game {i} unfinished"));
        wins += (outcome.winner() == Some(seat)) as u64;
    }
    wins
}

#[test]
fn rule_based_agent_beats_a_random_agent() {
    let g = game(Compat::Intended);
    let wins = rule_based_wins(&g, 50, || Box::new(RandomAgent::new()));
    assert!(wins > 30, "rule-based agent won only {wins} of 50 games");
}

#[test]
fn rule_based_agent_finishes_java_compat_games_and_self_play() {
    let g = game(Compat::Java);
    let wins = rule_based_wins(&g, 25, || Box::new(RandomAgent::new()));
    assert!(
        wins > 15,
        "rule-based agent (java compat) won only {wins} of 25 games"
    );
    let g = game(Compat::Intended);
    rule_based_wins(&g, 25, || Box::new(RuleBasedAgent::new()));
}
