//! Random-playout invariant suite for Tribes (design after OpenSpiel's `RandomSimTest`):
//! thousands of seeded random games over the 25 built-in levels and generated levels, with
//! the state checked at every step. A failure names the level, seed and step.

use std::collections::HashSet;

use playstyles::game::{Game, GroupedActions, Turn};
use playstyles::games::tribes::check::{check_invariants, recompute_score};
use playstyles::games::tribes::state::NONE;
use playstyles::games::tribes::{
    Action, ActionKind, Compat, Level, State, TribeKind, TribesGame, TribesRules, builtin, legal,
    levelgen,
};
use playstyles::rng::derive_rng;
use rand::RngExt;

/// How thoroughly to check each step.
#[derive(Clone, Copy, PartialEq)]
enum Depth {
    /// Clone, invariants, score, action list, a sample of unlisted actions.
    Step,
    /// Also apply every listed action on a clone and check the result.
    EveryAction,
}

fn levels(generated: u64) -> Vec<Level> {
    let mut v: Vec<Level> = builtin::all().into_iter().map(|(_, l)| l).collect();
    for seed in 0..generated {
        let tribes = match seed % 5 {
            3 => vec![TribeKind::Bardur, TribeKind::Oumaji, TribeKind::XinXi],
            4 => TribeKind::ALL.to_vec(),
            _ => vec![TribeKind::XinXi, TribeKind::Imperius],
        };
        v.push(levelgen::generate(1000 + seed, &tribes));
    }
    v
}

/// A random action that is probably not legal: random kind, actor, argument and target.
fn random_action(s: &State, rng: &mut impl rand::Rng) -> Action {
    let kind = ActionKind::ALL[rng.random_range(0..ActionKind::COUNT)];
    Action::new(
        kind,
        rng.random_range(0..s.units.len().max(s.cities.len()) + 2),
        rng.random_range(0..25),
        rng.random_range(0..s.tiles.len()),
    )
}

/// Plays one random game with checks; returns the final state and the actions played.
fn play_checked(game: &TribesGame, level: &Level, seed: u64, depth: Depth) -> (State, Vec<Action>) {
    let intended = game.rules.compat == Compat::Intended;
    let mut rng = derive_rng(seed, &[7]);
    let mut s = game.new_initial_state(level, seed);
    let mut buf = Vec::new();
    let mut grouped = GroupedActions::default();
    let mut history = Vec::new();
    let ctx = |step: usize| format!("level {} seed {seed} step {step}", level.name);
    for step in 0.. {
        assert!(step < 200_000, "{}: runaway game", ctx(step));
        assert_eq!(s.clone(), s, "{}: clone differs", ctx(step));
        if let Err(e) = check_invariants(&s) {
            panic!("{}: {e}\n{}", ctx(step), game.render(&s));
        }
        for p in 0..s.num_tribes {
            let t = &s.tribes[p as usize];
            assert!(t.stars >= 0, "{}: tribe {p} stars {}", ctx(step), t.stars);
            if intended {
                assert_eq!(
                    recompute_score(&s, p),
                    t.score,
                    "{}: score of {p}",
                    ctx(step)
                );
            }
        }
        game.legal_actions(&s, &mut buf);
        if game.turn(&s) == Turn::Terminal {
            assert!(buf.is_empty(), "{}: actions in a terminal state", ctx(step));
            break;
        }
        assert!(!buf.is_empty(), "{}: no legal action", ctx(step));
        let set: HashSet<Action> = buf.iter().copied().collect();
        assert_eq!(set.len(), buf.len(), "{}: duplicate actions", ctx(step));
        for a in &buf {
            assert_eq!(a.kind == ActionKind::EndTurn, game.ends_turn(*a));
        }
        game.grouped_actions(&s, &mut grouped);
        let keys: HashSet<_> = grouped.groups.iter().map(|g| (g.actor, g.kind)).collect();
        assert_eq!(
            keys.len(),
            grouped.groups.len(),
            "{}: split group",
            ctx(step)
        );
        assert_eq!(grouped.actions, buf);
        check_group_census(game, &s, &grouped, &ctx(step));
        if step % 5 == 0 {
            check_is_legal(game, &s, &buf, &set, &ctx(step));
        }
        if depth == Depth::EveryAction {
            for &a in &buf {
                let mut c = s.clone();
                game.try_apply(&mut c, a)
                    .unwrap_or_else(|e| panic!("{}: listed {a:?} refused: {e}", ctx(step)));
                if let Err(e) = check_invariants(&c) {
                    panic!("{}: after {a:?}: {e}\n{}", ctx(step), game.render(&c));
                }
            }
        }
        for _ in 0..3 {
            let a = random_action(&s, &mut rng);
            if !set.contains(&a) {
                let mut c = s.clone();
                assert!(
                    game.try_apply(&mut c, a).is_err(),
                    "{}: unlisted {a:?} accepted",
                    ctx(step)
                );
                assert_eq!(c, s, "{}: refused {a:?} changed the state", ctx(step));
            }
        }
        let a = buf[rng.random_range(0..buf.len())];
        game.apply(&mut s, a);
        history.push(a);
    }
    check_game_end(game, &s, &format!("level {} seed {seed}", level.name));
    (s, history)
}

/// The group census lists the first action of every (actor, kind) group of the full listing,
/// and its lister gives back each group in full.
fn check_group_census(game: &TribesGame, s: &State, full: &GroupedActions<Action>, what: &str) {
    let mut firsts = Vec::new();
    let lister = legal::legal_action_groups(&game.rules, s, &mut firsts);
    let expected: Vec<Action> = full.groups.iter().map(|g| full.actions[g.start]).collect();
    assert_eq!(firsts, expected, "{what}: group census");
    let mut members = Vec::new();
    for g in &full.groups {
        lister.group(&game.rules, s, full.actions[g.start], &mut members);
        assert_eq!(members, full.group(g), "{what}: group {g:?}");
    }
}

/// `is_legal` accepts listed actions and agrees with the list on near misses: up to eight
/// listed actions, spread over the list, each with its target, argument or actor moved by one.
fn check_is_legal(
    game: &TribesGame,
    s: &State,
    listed: &[Action],
    set: &HashSet<Action>,
    what: &str,
) {
    for &a in listed.iter().step_by(listed.len().div_ceil(8).max(1)) {
        assert!(game.is_legal(s, a), "{what}: listed {a:?} not legal");
        for d in [-1i32, 1] {
            let mut near = [a; 3];
            near[0].target = (a.target as i32 + d).max(0) as u16;
            near[1].arg = (a.arg as i32 + d).clamp(0, 255) as u8;
            near[2].actor = (a.actor as i32 + d).max(0) as u16;
            for v in near {
                assert_eq!(
                    game.is_legal(s, v),
                    set.contains(&v),
                    "{what}: is_legal({v:?}) disagrees with the list"
                );
            }
        }
    }
}

/// A game ends by capital capture (one tribe owns every original capital, or is the last one
/// standing) or by the tick limit, with exactly one winner.
fn check_game_end(game: &TribesGame, s: &State, what: &str) {
    let max = game.rules.mode.max_tick();
    let winner = game
        .outcome(s)
        .and_then(|o| o.winner())
        .unwrap_or_else(|| panic!("{what}: no winner"));
    if s.tick <= max {
        let owns_all = s
            .cities
            .iter()
            .filter(|c| c.capital_of != NONE)
            .all(|c| c.tribe as usize == winner);
        let last = (0..s.num_tribes as usize)
            .filter(|&p| p != winner)
            .all(|p| s.num_cities(p as u8) == 0);
        assert!(
            owns_all || last,
            "{what}: ended at tick {} without a conquest",
            s.tick
        );
    } else {
        assert_eq!(s.tick, max + 1, "{what}: ended past the limit");
    }
}

#[test]
fn thousands_of_random_games_keep_every_invariant() {
    let levels = levels(75);
    let game = TribesGame::default();
    let mut games = 0;
    let mut conquests = 0;
    for seed in 0..20u64 {
        for level in &levels {
            let (s, _) = play_checked(&game, level, seed, Depth::Step);
            games += 1;
            conquests += (s.tick <= game.rules.mode.max_tick()) as usize;
        }
    }
    assert_eq!(games, 2000);
    // Random play rarely conquers, but it happens: both endings are exercised.
    assert!(conquests > 0, "no game ended by conquest");
}

#[test]
fn java_compat_games_keep_every_invariant() {
    let game = TribesGame::new(TribesRules {
        compat: Compat::Java,
        ..Default::default()
    });
    for (i, level) in levels(25).iter().enumerate() {
        for seed in 0..8u64 {
            play_checked(&game, level, seed * 100 + i as u64, Depth::Step);
        }
    }
}

#[test]
fn every_listed_action_applies_and_keeps_invariants() {
    let game = TribesGame::default();
    for (i, level) in levels(15).iter().enumerate() {
        play_checked(&game, level, 5000 + i as u64, Depth::EveryAction);
    }
}

#[test]
fn same_level_seed_and_policy_give_the_identical_game() {
    let game = TribesGame::default();
    let level = builtin::level(builtin::SEEDS[3]).unwrap();
    let (s1, h1) = play_checked(&game, &level, 42, Depth::Step);
    let (s2, h2) = play_checked(&game, &level, 42, Depth::Step);
    assert_eq!(h1, h2);
    assert_eq!(s1, s2);
    let (_, h3) = play_checked(&game, &level, 43, Depth::Step);
    assert_ne!(h1, h3, "different seeds should give different games");
}

#[test]
fn a_replay_of_the_action_list_reproduces_the_final_state() {
    for compat in [Compat::Intended, Compat::Java] {
        let game = TribesGame::new(TribesRules {
            compat,
            ..Default::default()
        });
        for (i, level) in levels(5).iter().enumerate().step_by(3) {
            let seed = 77 + i as u64;
            let (end, history) = play_checked(&game, level, seed, Depth::Step);
            let mut s = game.new_initial_state(level, seed);
            for a in history {
                game.try_apply(&mut s, a).expect("replayed action is legal");
            }
            assert_eq!(s, end, "level {}", level.name);
        }
    }
}

#[test]
fn turn_order_follows_tribe_keys_unless_java_compat() {
    for seed in builtin::SEEDS {
        let level = builtin::level(seed).unwrap();
        let intended = TribesGame::default().new_initial_state(&level, 1);
        assert_eq!(intended.tribes[0].kind, TribeKind::XinXi);
        let java = TribesGame::new(TribesRules {
            compat: Compat::Java,
            ..Default::default()
        })
        .new_initial_state(&level, 1);
        assert_eq!(Some(java.tribes[0].kind), builtin::java_first_tribe(seed));
    }
}

#[test]
fn the_initial_state_matches_the_reference_start() {
    // Spec §3: score 100 (tech) + 100 (centre) + 9 × 20 (territory) + 10 (warrior) = 390,
    // 5 stars, capital production 2.
    let game = TribesGame::default();
    for seed in builtin::SEEDS {
        let s = game.new_initial_state(&builtin::level(seed).unwrap(), 0);
        for p in 0..2 {
            assert_eq!(s.tribes[p].score, 390, "level {seed} tribe {p}");
            assert_eq!(s.tribes[p].stars, 5);
            assert_eq!(s.num_units(p as u8), 1);
            let cap = s.tribes[p].capital as usize;
            assert_eq!(
                playstyles::games::tribes::economy::production(&game.rules, &s, cap),
                2
            );
        }
    }
}
