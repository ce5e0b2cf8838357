//! Issue 26: a script that proposes an illegal action, or an agent that plays one, is an error
//! (never a silently corrupted game), in every build. The test profile keeps debug assertions
//! on, so these tests see the `Err` only because the checks are real checks: a
//! `debug_assert!` would panic instead, and applying the illegal take would overflow the heap.

use playstyles::agent::Agent;
use playstyles::agents::{build_agent, build_agent_from};
use playstyles::arena::play_match;
use playstyles::arena::series::Series;
use playstyles::check;
use playstyles::experiments::play::play;
use playstyles::experiments::{GameKind, PlayConfig};
use playstyles::rng::Rng;
use playstyles::{Error, Result};

use crate::support::{Nim, NimAction, NimLevel, NimState};

/// Portfolio MCTS on [`Nim::overreaching`], whose script `take.too_many` proposes an illegal
/// take in every state where a take is legal.
fn overreaching_pmcts() -> Box<dyn Agent<Nim>> {
    build_agent(&Nim::overreaching(), "pmcts(budget=30)").unwrap()
}

/// Checks that `e` is the illegal choice of `take.too_many` on Nim, at seat 0's first move.
fn assert_names_the_script(e: &Error) {
    let Error::IllegalChoice {
        game,
        by,
        action,
        at,
    } = e
    else {
        panic!("not an illegal choice: {e}");
    };
    assert_eq!(game, "nim");
    assert!(
        by.starts_with("script `take.too_many` of agent `pmcts("),
        "{by}"
    );
    assert!(action.starts_with("Take { heap: 2, count: 1"), "{action}");
    assert!(at.starts_with("seat 0, round 0"), "{at}");
    let message = e.to_string();
    assert!(
        message.starts_with("nim: script `take.too_many` of agent `pmcts(")
            && message.contains("chose the illegal action Take { heap: 2, count: 1"),
        "{message}"
    );
}

#[test]
fn a_script_proposing_an_illegal_action_fails_the_match_naming_game_script_and_action() {
    let game = Nim::overreaching();
    let mut agents = vec![overreaching_pmcts(), overreaching_pmcts()];
    let mut applied = 0;
    let e = play_match(&game, &NimLevel::standard(), &mut agents, 0, |_, _| {
        applied += 1;
    })
    .unwrap_err();
    assert_names_the_script(&e);
    assert!(
        e.to_string()
            .ends_with("action 0 of the match with seed 0)"),
        "{e}"
    );
    assert_eq!(applied, 0, "the match stopped before applying anything");
}

#[test]
fn the_same_agent_with_a_legal_portfolio_finishes_the_match() {
    let game = Nim::new();
    let mut agents: Vec<_> = (0..2)
        .map(|_| build_agent(&game, "pmcts(budget=30)").unwrap())
        .collect();
    let record = play_match(&game, &NimLevel::standard(), &mut agents, 0, |_, _| {}).unwrap();
    assert!(record.outcome.is_some());
}

#[test]
fn a_series_with_an_illegal_script_fails_with_the_error() {
    // What evolve, tournament, validate, reevaluate and `work` play their games through.
    let game = Nim::overreaching();
    let series = Series::new(vec![("standard".into(), NimLevel::standard())], 4, 1);
    let specs = ["pmcts(budget=30)".to_string(), "random".to_string()];
    let e = series
        .run(&game, &specs, |s: &str| build_agent(&game, s), |_, _| {})
        .unwrap_err();
    let Error::IllegalChoice { by, .. } = &e else {
        panic!("not an illegal choice: {e}");
    };
    assert!(by.starts_with("script `take.too_many`"), "{e}");
}

#[test]
fn the_play_workflow_reports_an_illegal_script_as_an_error() {
    let game = Nim::overreaching();
    let cfg = PlayConfig::new(
        "tribes".parse::<GameKind>().unwrap(),
        "toy",
        "pmcts(budget=30),random",
    )
    .unwrap();
    let mut out = Vec::new();
    let e = play(
        &game,
        &NimLevel::standard(),
        &cfg,
        &|spec| build_agent_from(&game, spec),
        &mut out,
    )
    .unwrap_err();
    assert_names_the_script(&e);
}

/// An agent that takes nine objects from the first heap (never legal: at most three).
struct Greedy;

impl Agent<Nim> for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn act(&mut self, _: &Nim, _: &NimState, _: &mut Rng) -> Result<NimAction> {
        Ok(NimAction::Take { heap: 0, count: 9 })
    }
}

#[test]
fn an_agent_returning_an_illegal_action_fails_the_match_naming_the_agent() {
    let game = Nim::new();
    let mut agents: Vec<Box<dyn Agent<Nim>>> =
        vec![build_agent(&game, "end_turn").unwrap(), Box::new(Greedy)];
    let e = play_match(&game, &NimLevel::standard(), &mut agents, 3, |_, _| {}).unwrap_err();
    assert_eq!(
        e.to_string(),
        "nim: agent `greedy` chose the illegal action Take { heap: 0, count: 9 } \
         (seat 1, round 0, action 1 of the match with seed 3)"
    );
}

#[test]
fn the_portfolio_check_names_the_script_and_the_first_step() {
    let e = check::portfolio_contract(&Nim::overreaching(), &NimLevel::standard(), "std", 2)
        .unwrap_err();
    assert_eq!((e.game.as_str(), e.level.as_str()), ("nim", "std"));
    assert_eq!((e.seed, e.step, e.agent.as_deref()), (2, Some(0), None));
    assert!(
        e.reason
            .starts_with("script `take.too_many` proposed the illegal action Take {"),
        "{e}"
    );
    assert!(
        format!("{e:?}").starts_with("nim level std seed 2 step 0: script"),
        "{e:?}"
    );
}

#[test]
fn the_agents_check_reports_the_agent_that_fails() {
    let game = Nim::overreaching();
    let level = NimLevel::standard();
    check::agents_finish(&game, &level, "std", &["random", "mcts(budget=30)"], 0).unwrap();
    let e = check::agents_finish(&game, &level, "std", &check::AGENTS, 0).unwrap_err();
    assert_eq!(e.agent.as_deref(), Some(check::AGENTS[4]));
    assert!(e.reason.contains("script `take.too_many`"), "{e}");
}

#[test]
fn the_game_check_passes_nim_and_names_a_level_with_too_many_players() {
    let game = Nim::new();
    let steps = check::game_invariants(&game, &NimLevel::standard(), "std", 0).unwrap();
    assert!(steps > 0);
    let crowded = NimLevel {
        players: 5,
        ..NimLevel::standard()
    };
    let e = check::game_invariants(&game, &crowded, "crowded", 0).unwrap_err();
    assert_eq!(e.to_string(), "nim level crowded seed 0 step 0: 5 players");
}
