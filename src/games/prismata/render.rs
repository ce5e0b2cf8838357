//! A text picture of a Prismata state: who acts in which phase, each player's resources and
//! units (grouped by type, with how many are under construction, exhausted, clicked, damaged or
//! chilled), and the buy pool with prices and the copies each player has left.

use std::fmt::Write;

use super::library::Library;
use super::state::{Side, State, Status, TurnPhase, Unit};

/// A side's live units grouped by type, types in id order.
pub(super) fn unit_groups(side: &Side) -> Vec<(u16, Vec<&Unit>)> {
    let mut kinds: Vec<u16> = side
        .units
        .iter()
        .filter(|u| u.alive)
        .map(|u| u.kind)
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
        .into_iter()
        .map(|kind| {
            let units = side
                .units
                .iter()
                .filter(|u| u.alive && u.kind == kind)
                .collect();
            (kind, units)
        })
        .collect()
}

/// What units of one type (of `hp` hit points) are doing, as "N building", "N exhausted",
/// "N clicked", "N damaged", "N chilled" (those with N > 0).
pub(super) fn unit_notes(units: &[&Unit], hp: u16) -> Vec<String> {
    let count = |f: &dyn Fn(&Unit) -> bool| units.iter().filter(|u| f(u)).count();
    [
        ("building", count(&|u| u.construction > 0)),
        ("exhausted", count(&|u| u.construction == 0 && u.delay > 0)),
        ("clicked", count(&|u| u.status == Status::Assigned)),
        ("damaged", count(&|u| u.hp < hp)),
        ("chilled", count(&|u| u.chill > 0)),
    ]
    .into_iter()
    .filter(|&(_, n)| n > 0)
    .map(|(what, n)| format!("{n} {what}"))
    .collect()
}

/// The state as text, one line per player and per unit type.
pub fn render(library: &Library, s: &State) -> String {
    let mut out = String::new();
    let phase = match s.phase {
        TurnPhase::Defense => "defense",
        TurnPhase::Action => "action",
        TurnPhase::Breach => "breach",
    };
    let head = if s.over {
        match s.winner {
            Some(w) => format!("ply {}: game over, player {w} wins", s.ply),
            None => format!("ply {}: game over, a draw", s.ply),
        }
    } else {
        format!("ply {}: player {} to act ({phase} phase)", s.ply, s.active)
    };
    let _ = writeln!(out, "{head}");
    for (p, side) in s.sides.iter().enumerate() {
        let _ = writeln!(out, "player {p}: {}", side.resources);
        for (kind, units) in unit_groups(side) {
            let t = library.get(kind);
            let notes = unit_notes(&units, t.hp);
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            };
            let _ = writeln!(out, "  {} x{}{notes}", t.name, units.len());
        }
    }
    let _ = writeln!(out, "buy pool (price, copies left to player 0 / 1):");
    for (k, &kind) in s.buyable.iter().enumerate() {
        let t = library.get(kind);
        let left = |p: usize| t.rarity.supply() - s.sides[p].bought[k];
        let _ = writeln!(
            out,
            "  {:<22} {:<14} {}/{}",
            t.name,
            t.cost,
            left(0),
            left(1)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::level::Level;

    #[test]
    fn the_opening_shows_both_sides_and_the_pool() {
        let lib = Library::builtin();
        let s = State::new(lib, &Level::load(lib, "units:Apollo").unwrap());
        let text = render(lib, &s);
        assert!(
            text.starts_with("ply 0: player 0 to act (action phase)"),
            "{text}"
        );
        assert!(
            text.contains("player 0: 2E\n  Drone x6\n  Engineer x2\n"),
            "{text}"
        );
        assert!(
            text.contains("player 1: -\n  Drone x7\n  Engineer x2\n"),
            "{text}"
        );
        assert!(text.contains("Apollo"), "{text}");
        assert!(text.contains("13$ 3B"), "{text}");
    }
}
