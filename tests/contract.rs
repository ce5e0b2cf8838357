//! Issue 26: an agent that plays an illegal action is an error (never a silently corrupted
//! game), in every build. The test profile keeps debug assertions on, so these tests see the
//! `Err` only because the checks are real checks: a `debug_assert!` would panic instead.

use playstyles::Result;
use playstyles::agent::Agent;
use playstyles::agents::build_agent;
use playstyles::arena::play_match;
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
