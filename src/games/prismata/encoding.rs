//! Prismata positions as counts for learned evaluation ([`crate::learn::encoding`]), in the
//! form of Campbell & Churchill's network (spec §14.2): per side, each unit type's count and
//! each resource, plus the side to move.
//!
//! Slots, with `U` the library's unit types: for the side to move, then for its opponent, a
//! block of `2U + 6` slots — `kind` (units of that type alive and built), `U + kind` (alive and
//! under construction), `2U + r` (resource `r`'s pool, in the order of [`super::resources::Resource`]) — and last one
//! slot, set when the side to move is the second player. The fingerprint hashes the library's
//! unit names in order, so a model is refused by a library whose slots mean other units.

use super::{Library, State};
use crate::learn::encoding::{Count, Encoding};
use crate::rng::hash_bytes;

/// The encoding's name.
pub const NAME: &str = "prismata-counts";

/// Its version.
pub const VERSION: u32 = 1;

/// Resource pools per side.
const RESOURCES: u16 = 6;

/// The encoding for `library`.
pub fn encoding(library: &Library) -> Encoding {
    let names: Vec<&str> = library.units().iter().map(|u| u.name.as_str()).collect();
    Encoding {
        name: NAME.into(),
        version: VERSION,
        fingerprint: format!(
            "{} units {:016x}",
            names.len(),
            hash_bytes(names.join("\n").as_bytes())
        ),
        slots: 2 * block(library) + 1,
    }
}

/// Slots per side.
fn block(library: &Library) -> u16 {
    2 * library.units().len() as u16 + RESOURCES
}

/// Writes `state` from `player`'s side as counts, slots in increasing order.
pub fn encode(library: &Library, state: &State, player: usize, out: &mut Vec<Count>) {
    out.clear();
    let u = library.units().len();
    let b = block(library);
    let mut counts = vec![0u16; usize::from(b)];
    for (k, side) in [player, 1 - player].into_iter().enumerate() {
        counts.fill(0);
        let s = &state.sides[side];
        for unit in s.units.iter().filter(|x| x.alive) {
            let at = usize::from(unit.kind) + if unit.construction > 0 { u } else { 0 };
            counts[at] = counts[at].saturating_add(1);
        }
        for r in 0..usize::from(RESOURCES) {
            counts[2 * u + r] = s.resources.0[r];
        }
        let base = k as u16 * b;
        out.extend(
            counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(i, &c)| (base + i as u16, c)),
        );
    }
    if player == 1 {
        out.push((2 * b, 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::Level;

    #[test]
    fn the_opening_counts_each_sides_drones_and_engineers() {
        let lib = Library::builtin();
        let s = State::new(lib, &Level::random(lib, 8, 3).unwrap());
        let e = encoding(lib);
        let drone = lib.id("Drone").unwrap();
        let mut out = Vec::new();
        encode(lib, &s, 0, &mut out);
        assert!(out.windows(2).all(|w| w[0].0 < w[1].0), "{out:?}");
        assert!(out.iter().all(|&(slot, c)| slot < e.slots && c > 0));
        let own = out.iter().find(|x| x.0 == drone).unwrap().1;
        let theirs = out.iter().find(|x| x.0 == block(lib) + drone).unwrap().1;
        assert_eq!(
            (own, theirs),
            (6, 7),
            "the second player has one drone more"
        );
        let mut seen_by_1 = Vec::new();
        encode(lib, &s, 1, &mut seen_by_1);
        assert_eq!(seen_by_1.last(), Some(&(e.slots - 1, 1)));
        assert_eq!(
            seen_by_1.iter().find(|x| x.0 == drone).unwrap().1,
            7,
            "the side to encode comes first"
        );
        assert!(
            e.fingerprint
                .starts_with(&format!("{} units", lib.units().len()))
        );
    }
}
