//! Test support for partial players: hand-made positions and random games on random sets in
//! which a partial player under test plays its phase.

use rand::RngExt;

use super::partial::{PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::rules;
use crate::games::prismata::{Action, Level, Library, State, Status, TurnPhase};
use crate::rng::{Rng, rng_from_seed};

pub(crate) use crate::games::prismata::test_support::{game as start, id, lib};

/// Adds an active, ready unit of `name` to player `p`; returns its index.
pub(crate) fn add(s: &mut State, p: u8, name: &str) -> usize {
    let i = s.add_unit(lib(), p, id(name), 0, 0);
    let u = &mut s.sides[p as usize].units[i];
    if lib().get(u.kind).click.is_some() {
        u.status = Status::Default;
    }
    i
}

/// The start of the base set plus `extra` (as [`start`]), with player 0's `own` units added,
/// ready, and player 1 holding only `enemy`.
pub(crate) fn facing(extra: &str, own: &[&str], enemy: &[&str]) -> State {
    let mut s = start(extra);
    for n in own {
        let i = s.add_unit(lib(), 0, id(n), 0, 0);
        s.sides[0].units[i].status = Status::Default;
    }
    clear(&mut s, 1);
    for n in enemy {
        s.add_unit(lib(), 1, id(n), 0, 0);
    }
    s
}

/// Removes every unit of player `p`.
pub(crate) fn clear(s: &mut State, p: usize) {
    s.sides[p].units.clear();
}

/// A random legal action of `s` (the stand-in for the other phases in random games).
fn random_action(lib: &Library, s: &State, rng: &mut Rng, buf: &mut Vec<Action>) -> Action {
    rules::legal_actions(lib, s, buf);
    buf[rng.random_range(0..buf.len())]
}

/// True if `s` is in `phase`'s part of the turn of the player to act.
fn in_phase(s: &State, phase: PpPhase) -> bool {
    match phase {
        PpPhase::Defense => s.phase == TurnPhase::Defense,
        PpPhase::Ability | PpPhase::Buy => s.phase == TurnPhase::Action && s.armed.is_none(),
        PpPhase::Breach => s.phase == TurnPhase::Breach,
    }
}

/// Plays `games` random games on random sets (8 pool units, at most `max_plies` plies each):
/// whenever the state is in `player`'s phase, `player` plays it on a [`TurnPlan`]; every other
/// decision is a random legal action. Checks that every action the player applied was legal
/// (replayed on the state it started from) and that it ended its phase (defense, breach) or
/// left the action phase open (ability, buy). Returns how many times the player ran.
pub(crate) fn random_games(player: &dyn PartialPlayer, games: u64, max_plies: u32) -> usize {
    let lib = lib();
    let mut runs = 0;
    let mut buf = Vec::new();
    for g in 0..games {
        let level = Level::random(lib, 8, 1000 + g).unwrap();
        let mut s = State::new(lib, &level);
        let mut rng = rng_from_seed(g);
        // Play the partial player once per turn at most, so the others move the game on.
        let mut played_at = None;
        while !s.over && s.ply < max_plies {
            if in_phase(&s, player.phase()) && played_at != Some((s.ply, s.phase)) {
                played_at = Some((s.ply, s.phase));
                let before = s.clone();
                let mut turn = TurnPlan::new(lib, s.clone());
                player.play(&mut turn, &mut rng);
                let mut replay = before;
                for &a in &turn.actions {
                    assert!(
                        rules::is_legal(lib, &replay, a),
                        "{player:?} played the illegal {a:?}"
                    );
                    rules::apply(lib, &mut replay, a);
                }
                assert_eq!(replay, turn.state);
                match player.phase() {
                    PpPhase::Defense => assert!(
                        turn.state.over || turn.state.phase != TurnPhase::Defense,
                        "{player:?} left the defense open"
                    ),
                    PpPhase::Breach => assert!(
                        turn.state.over || turn.state.phase != TurnPhase::Breach,
                        "{player:?} left the breach open"
                    ),
                    PpPhase::Ability | PpPhase::Buy => assert!(
                        turn.state.phase == TurnPhase::Action
                            && turn.state.active == s.active
                            && turn.state.armed.is_none(),
                        "{player:?} closed the action phase or left a click armed"
                    ),
                }
                s = turn.state;
                runs += 1;
            } else {
                let a = random_action(lib, &s, &mut rng, &mut buf);
                rules::apply(lib, &mut s, a);
            }
        }
    }
    runs
}
