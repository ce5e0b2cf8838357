//! Positions for the ability players' tests: action phases reached by random play on random
//! Base + 8 sets, and a check that a player only applies legal actions and leaves the action
//! phase open.

use std::sync::Arc;

use rand::RngExt;

use crate::games::prismata::ai::partial::{PartialPlayer, TurnPlan};
use crate::games::prismata::{Action, Level, Library, State, TurnPhase, rules};
use crate::rng::rng_from_seed;

/// Action-phase states (no click waiting for its target) from `games` random games of up to
/// `plies` turns each, seeded from `seed`. Random play clicks and buys more often than it ends
/// a phase, so that armies, chillers and attack show up.
pub(crate) fn positions(seed: u64, games: usize, plies: u32) -> Vec<State> {
    let lib = Library::builtin();
    let mut rng = rng_from_seed(seed);
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for g in 0..games {
        let level = Level::random(lib, 8, seed.wrapping_mul(1000) + g as u64).unwrap();
        let mut s = State::new(lib, &level);
        while !s.over && s.ply < plies {
            if s.phase == TurnPhase::Action && s.armed.is_none() && rng.random_range(0..4) == 0 {
                out.push(s.clone());
            }
            rules::legal_actions(lib, &s, &mut legal);
            let a = if legal.len() > 1 && rng.random_range(0..6) != 0 {
                let others: Vec<Action> = legal
                    .iter()
                    .copied()
                    .filter(|&a| a != Action::EndPhase)
                    .collect();
                others[rng.random_range(0..others.len())]
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            rules::apply(lib, &mut s, a);
        }
    }
    out
}

/// Runs `player` on every position; asserts that its actions replay legally from the position
/// to the state it reached, and that it leaves the action phase open with no click waiting
/// for a target. Returns how many positions it acted in.
pub(crate) fn plays_legally(player: Arc<dyn PartialPlayer>, positions: &[State]) -> usize {
    plays_legally_after(&[], player, positions)
}

/// As [`plays_legally`], with the players `before` run first on each position (as in a
/// combination); returns how many positions `player` changed the turn's actions in.
pub(crate) fn plays_legally_after(
    before: &[Arc<dyn PartialPlayer>],
    player: Arc<dyn PartialPlayer>,
    positions: &[State],
) -> usize {
    let lib = Library::builtin();
    let mut rng = rng_from_seed(5);
    let mut acted = 0;
    for s in positions {
        let mut turn = TurnPlan::new(lib, s.clone());
        for b in before {
            b.play(&mut turn, &mut rng);
        }
        let earlier = turn.actions.clone();
        player.play(&mut turn, &mut rng);
        let mut replay = s.clone();
        for &a in &turn.actions {
            assert!(
                rules::is_legal(lib, &replay, a),
                "{player:?}: illegal {a:?}"
            );
            rules::apply(lib, &mut replay, a);
        }
        assert_eq!(replay, turn.state, "{player:?}: the actions do not replay");
        assert!(turn.in_turn(), "{player:?} ended the turn");
        assert_eq!(
            turn.state.phase,
            TurnPhase::Action,
            "{player:?} left the phase"
        );
        assert!(turn.state.armed.is_none(), "{player:?} left a click armed");
        acted += usize::from(turn.actions != earlier);
    }
    acted
}
