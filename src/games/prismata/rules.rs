//! The legal actions of any Prismata state and their effect, whatever the phase: the action
//! phase's clicks, targets, buys and frontline attacks ([`super::action`]), defense, breach
//! and the end of a phase ([`super::combat`]).

use super::action::{Action, action_phase_actions, apply_in_action_phase, legal_in_action_phase};
use super::combat::{apply_in_combat, legal_in_combat};
use super::library::Library;
use super::state::{State, TurnPhase};

/// True if `a` is legal in `s` (nothing is once the game is over).
pub fn is_legal(library: &Library, s: &State, a: Action) -> bool {
    !s.over && (legal_in_action_phase(library, s, a) || legal_in_combat(library, s, a))
}

/// Fills `out` (cleared first) with the legal actions of `s`, in a fixed order: the phase's
/// own actions (see [`super::action`] for the action phase; blockers, or breach targets, in
/// unit order), then [`Action::EndPhase`] if legal.
pub fn legal_actions(library: &Library, s: &State, out: &mut Vec<Action>) {
    out.clear();
    if s.over {
        return;
    }
    let p = s.active as usize;
    match s.phase {
        TurnPhase::Action => action_phase_actions(library, s, out),
        TurnPhase::Defense => out.extend(
            (0..s.sides[p].units.len() as u16)
                .map(Action::Block)
                .filter(|&a| legal_in_combat(library, s, a)),
        ),
        TurnPhase::Breach => out.extend(
            (0..s.sides[1 - p].units.len() as u16)
                .map(Action::Breach)
                .filter(|&a| legal_in_combat(library, s, a)),
        ),
    }
    if legal_in_combat(library, s, Action::EndPhase) {
        out.push(Action::EndPhase);
    }
}

/// Applies the legal action `a` to `s`. As for [`crate::game::Game::apply`], the effect of an
/// illegal action is unspecified; debug builds check legality ([`is_legal`]).
pub fn apply(library: &Library, s: &mut State, a: Action) {
    debug_assert!(is_legal(library, s, a), "illegal Prismata action {a:?}");
    if s.phase == TurnPhase::Action && a != Action::EndPhase {
        apply_in_action_phase(library, s, a);
    } else {
        apply_in_combat(library, s, a);
    }
}
