//! Defense, wipeout, breach and the steps between turns (spec §3, §5, §7), as the open engine
//! does them (`source/engine/GameState.cpp` of davechurchill/PrismataAI: `endPhase`,
//! `isLegal`, `blockWithAllBlockers`, `breachCard`), with the retail game-end rules of spec §9.
//!
//! - Ending the action phase with attack at least the opponent's *total available defense*
//!   (the HP of its units that can block) makes every blocker absorb in turn (the wipeout) and
//!   opens the breach; otherwise the attack stays pending.
//! - The confirm step between turns is automatic: the turn counter advances, dead units go,
//!   the game-end check runs, then the opponent either defends against the pending attack or,
//!   with none, starts its turn.
//! - In the breach, a unit under construction can be hit only when every enemy unit is under
//!   construction ("overkill"), a frozen unit only after a blocker absorbed in the wipeout or a
//!   non-frontline unit was breached. The breach may end when the enemy has no unit, no attack
//!   is left, or no breachable unit can be killed with what is left (the leftover is lost); and,
//!   since undoing a chill is not offered, whenever no breach action is legal.
//! - Game end (retail, spec §9): a player without units loses at a confirm, both without units
//!   is a draw, and a player whose every live unit is active with a lifespan of 1 (all doomed)
//!   loses at the opponent's confirm. With [`State::open_engine`] the open engine's rule: no
//!   doomed win, and player 0 without units loses even if player 1 has none either. The
//!   200-ply cap is the game driver's.

use super::action::{Action, can_block, can_take, hit};
use super::library::Library;
use super::resources::Resource;
use super::state::{State, TurnPhase, Unit};

/// The total available defense of player `p`: the HP of its units that can block.
pub fn total_defense(library: &Library, s: &State, p: usize) -> u32 {
    s.sides[p]
        .units
        .iter()
        .filter(|u| can_block(u, library.get(u.kind)))
        .map(|u| u32::from(u.hp))
        .sum()
}

fn attack(s: &State, p: usize) -> u16 {
    s.sides[p].resources.get(Resource::Attack)
}

fn set_attack(s: &mut State, p: usize, v: u16) {
    s.sides[p].resources.set(Resource::Attack, v);
}

/// Under construction and alive: breachable only by overkill.
fn overkillable(u: &Unit) -> bool {
    u.alive && u.construction > 0
}

/// Every live enemy unit is under construction (overkill is allowed).
fn all_overkillable(s: &State, o: usize) -> bool {
    s.sides[o]
        .units
        .iter()
        .filter(|u| u.alive)
        .all(overkillable)
}

/// True if `a` (a defense or breach action, or ending a phase) is legal in `s`.
pub(super) fn legal_in_combat(library: &Library, s: &State, a: Action) -> bool {
    let p = s.active as usize;
    let o = 1 - p;
    match (s.phase, a) {
        (TurnPhase::Defense, Action::Block(i)) => {
            attack(s, o) > 0
                && s.sides[p]
                    .units
                    .get(i as usize)
                    .is_some_and(|u| can_block(u, library.get(u.kind)))
        }
        (TurnPhase::Defense, Action::EndPhase) => attack(s, o) == 0,
        (TurnPhase::Action, Action::EndPhase) => s.armed.is_none(),
        (TurnPhase::Breach, Action::Breach(j)) => breach_legal(library, s, j as usize),
        // Each of the open engine's conditions for ending the breach (no enemy unit, no
        // attack, no breachable or overkillable unit the attack can take) leaves no breach
        // legal, and no breach legal is the one case it adds (a frozen target before the
        // chill may be breached, where it would undo the chill).
        (TurnPhase::Breach, Action::EndPhase) => {
            !(0..s.sides[o].units.len()).any(|j| breach_legal(library, s, j))
        }
        _ => false,
    }
}

fn breach_legal(library: &Library, s: &State, j: usize) -> bool {
    let p = s.active as usize;
    let o = 1 - p;
    let damage = attack(s, p);
    let Some(u) = s.sides[o].units.get(j) else {
        return false;
    };
    let fragile = library.get(u.kind).fragile;
    if !u.alive || damage == 0 {
        return false;
    }
    if overkillable(u) {
        all_overkillable(s, o) && can_take(u, fragile, damage)
    } else {
        can_take(u, fragile, damage) && (u.chill < u.hp || s.can_breach_frozen)
    }
}

/// Applies a defense or breach action, or the end of a phase, [`legal_in_combat`] accepts.
pub(super) fn apply_in_combat(library: &Library, s: &mut State, a: Action) {
    let p = s.active as usize;
    let o = 1 - p;
    match (s.phase, a) {
        (TurnPhase::Defense, Action::Block(i)) => hit(library, s, o, i as usize),
        (TurnPhase::Defense, Action::EndPhase) => s.begin_turn(library),
        (TurnPhase::Action, Action::EndPhase) => {
            let damage = attack(s, p);
            let enemy_units = s.sides[o].units.iter().any(|u| u.alive);
            if damage > 0 && enemy_units && u32::from(damage) >= total_defense(library, s, o) {
                wipeout(library, s, o);
                s.phase = TurnPhase::Breach;
            } else {
                confirm(library, s);
            }
        }
        (TurnPhase::Breach, Action::Breach(j)) => {
            hit(library, s, p, j as usize);
            if !library.get(s.sides[o].units[j as usize].kind).frontline {
                s.can_breach_frozen = true;
            }
        }
        (TurnPhase::Breach, Action::EndPhase) => {
            // Whatever cannot be spent is lost.
            set_attack(s, p, 0);
            confirm(library, s);
        }
        _ => unreachable!("not a legal combat action: {a:?} in {:?}", s.phase),
    }
}

/// Every blocker of player `o` absorbs the active player's attack in turn (lowest index
/// first, as long as one can block).
fn wipeout(library: &Library, s: &mut State, o: usize) {
    let p = 1 - o;
    while let Some(i) = s.sides[o]
        .units
        .iter()
        .position(|u| can_block(u, library.get(u.kind)))
    {
        hit(library, s, p, i);
        s.can_breach_frozen = true;
    }
}

/// The confirm step: the turn counter advances, dead units go, the game-end check runs; then
/// the opponent defends against a pending attack or starts its turn.
fn confirm(library: &Library, s: &mut State) {
    let p = s.active as usize;
    let o = 1 - p;
    s.ply += 1;
    s.armed = None;
    for side in &mut s.sides {
        side.units.retain(|u| u.alive);
    }
    let mine = s.sides[p].units.len();
    let theirs = s.sides[o].units.len();
    let doomed = !s.open_engine
        && theirs > 0
        && s.sides[o]
            .units
            .iter()
            .all(|u| u.is_active() && u.lifespan == 1);
    if mine == 0 || theirs == 0 || doomed {
        s.over = true;
        let sizes = [s.sides[0].units.len(), s.sides[1].units.len()];
        s.winner = match (sizes, s.open_engine) {
            // The open engine looks at player 0 first.
            ([0, _], true) => Some(1),
            ([0, 0], false) => None,
            _ if mine == 0 => Some(o as u8),
            _ => Some(p as u8),
        };
        set_attack(s, p, 0);
        return;
    }
    s.active = o as u8;
    if attack(s, p) > 0 {
        s.phase = TurnPhase::Defense;
    } else {
        s.begin_turn(library);
    }
}
