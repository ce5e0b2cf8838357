//! Prismata positions as counts for learned evaluation ([`crate::learn::encoding`]), in the
//! form of Campbell & Churchill's network (spec §14.2): per side, each unit type's count and
//! each resource, plus the side to move — and, from version 2, what a unit type's count
//! leaves out: how many of its units are exhausted, their damage, charges and lifespan.
//!
//! Slots, with `U` the library's unit types: for the side to move, then for its opponent, a
//! block of `6U + 7` slots — `kind` (units of that type alive and built), `U + kind` (alive
//! and under construction), `2U + r` (resource `r`'s pool, in the order of
//! [`super::resources::Resource`]), then from `X = 2U + 6`: `X + kind` (built units of the
//! type exhausted), `X + U + kind` (their HP lost), `X + 2U + kind` (their charges left, for
//! a type with charges), `X + 3U + kind` (their turns left to live, for units with a
//! lifespan), `X + 4U` (the chill on the side's units) — and last one slot, set when the side
//! to move is the second player. The fingerprint hashes the library's unit names in order, so
//! a model is refused by a library whose slots mean other units.
//!
//! Version 1 (the papers' counts and resources alone) named the winner of held-out MediumAI
//! games as often when trained on the same 27,000 games (0.816 both); its extra slots pay off
//! with more data (`results/learned-eval/README.md`).

use super::{Library, State};
use crate::learn::encoding::{Count, Encoding};
use crate::rng::hash_bytes;

/// The encoding's name.
pub const NAME: &str = "prismata-counts";

/// Its version.
pub const VERSION: u32 = 2;

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
    6 * library.units().len() as u16 + RESOURCES + 1
}

/// Writes `state` from `player`'s side as counts, slots in increasing order.
pub fn encode(library: &Library, state: &State, player: usize, out: &mut Vec<Count>) {
    out.clear();
    let types = library.units();
    let u = types.len() as u16;
    let b = block(library);
    let x = 2 * u + RESOURCES;
    for (k, side) in [player, 1 - player].into_iter().enumerate() {
        let base = k as u16 * b;
        let s = &state.sides[side];
        // Each unit adds to a few slots; the pairs are sorted and merged below.
        let mut chill = 0u16;
        for unit in s.units.iter().filter(|x| x.alive) {
            let ty = &types[usize::from(unit.kind)];
            let kind = base + unit.kind;
            if unit.construction > 0 {
                out.push((kind + u, 1));
                continue;
            }
            out.push((kind, 1));
            if unit.delay > 0 {
                out.push((kind + x, 1));
            }
            if unit.hp < ty.hp {
                out.push((kind + x + u, ty.hp - unit.hp));
            }
            if ty.charges > 0 && unit.charges > 0 {
                out.push((kind + x + 2 * u, unit.charges));
            }
            if unit.lifespan > 0 {
                out.push((kind + x + 3 * u, unit.lifespan));
            }
            chill = chill.saturating_add(unit.chill);
        }
        for (r, &pool) in s.resources.0.iter().enumerate() {
            if pool > 0 {
                out.push((base + 2 * u + r as u16, pool));
            }
        }
        if chill > 0 {
            out.push((base + x + 4 * u, chill));
        }
    }
    if player == 1 {
        out.push((2 * b, 1));
    }
    merge_sorted(out);
}

/// Sorts `counts` by slot and adds up the counts of a slot (saturating).
fn merge_sorted(counts: &mut Vec<Count>) {
    counts.sort_unstable_by_key(|c| c.0);
    let mut w = 0;
    for r in 0..counts.len() {
        if w > 0 && counts[w - 1].0 == counts[r].0 {
            counts[w - 1].1 = counts[w - 1].1.saturating_add(counts[r].1);
        } else {
            counts[w] = counts[r];
            w += 1;
        }
    }
    counts.truncate(w);
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

    #[test]
    fn exhaustion_damage_and_construction_have_their_own_slots() {
        let lib = Library::builtin();
        let mut s = State::new(lib, &Level::random(lib, 8, 3).unwrap());
        let drone = lib.id("Drone").unwrap();
        let u = lib.units().len() as u16;
        let x = 2 * u + RESOURCES;
        let mut drones = s.sides[0].units.iter_mut().filter(|x| x.kind == drone);
        drones.next().unwrap().delay = 1;
        drones.next().unwrap().construction = 2;
        let mut out = Vec::new();
        encode(lib, &s, 0, &mut out);
        let count = |slot: u16| out.iter().find(|x| x.0 == slot).map_or(0, |x| x.1);
        assert_eq!(count(drone), 5, "a drone under construction is not built");
        assert_eq!(count(u + drone), 1);
        assert_eq!(count(x + drone), 1, "one drone exhausted");
        assert_eq!(count(x + u + drone), 0, "no damage");
        assert!(out.windows(2).all(|w| w[0].0 < w[1].0), "{out:?}");
    }
}
