//! Issue 26: an agent that plays an illegal action is an error (never a silently corrupted
//! game), in every build. The test profile keeps debug assertions on, so these tests see the
//! `Err` only because the checks are real checks: a `debug_assert!` would panic instead.
//! The check module ([`playstyles::check`]) finds a script that proposes an illegal action.

use playstyles::Result;
use playstyles::agent::Agent;
use playstyles::agents::build_agent;
use playstyles::arena::play_match;
use playstyles::check;
use playstyles::rng::Rng;

use crate::support::{Nim, NimAction, NimLevel, NimState};

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
