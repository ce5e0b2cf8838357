//! A text picture of a Tribes state.

use std::fmt::Write;

use super::state::{NONE, State};
use super::types::{Building, UnitKind};

/// One letter per unit type (upper case for tribe 0 and 2, lower case for 1 and 3).
pub(super) fn unit_letter(k: UnitKind) -> char {
    use UnitKind::*;
    match k {
        Warrior => 'W',
        Rider => 'R',
        Defender => 'D',
        Swordsman => 'S',
        Archer => 'A',
        Catapult => 'C',
        Knight => 'K',
        MindBender => 'M',
        Boat => 'B',
        Ship => 'H',
        Battleship => 'X',
        SuperUnit => 'G',
    }
}

/// One letter per building (temples share `T`, monuments `M`).
pub(super) fn building_char(b: Building) -> char {
    use Building::*;
    match b {
        Port => 'P',
        Mine => 'N',
        Forge => 'F',
        Farm => 'A',
        Windmill => 'W',
        CustomsHouse => 'U',
        LumberHut => 'L',
        Sawmill => 'S',
        b if b.is_temple() => 'T',
        _ => 'M',
    }
}

/// The board (one 4-character cell per tile: terrain, resource/building/road, unit, owner
/// digit) and a status line per tribe.
pub fn render(s: &State) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "round {} · {} to move{}",
        s.tick,
        s.tribes[s.active as usize].kind.title(),
        if s.over { " · game over" } else { "" }
    );
    let n = s.n();
    for x in 0..n {
        for y in 0..n {
            let t = x * n + y;
            let tile = &s.tiles[t];
            let mark = match (tile.building, tile.resource) {
                (Some(b), _) => building_char(b),
                (None, Some(r)) => r.to_char(),
                _ if tile.road => '=',
                _ => ' ',
            };
            let (u, owner) = match tile.unit {
                NONE => (' ', ' '),
                slot => {
                    let unit = &s.units[slot as usize];
                    let l = unit_letter(unit.kind);
                    let l = if unit.tribe % 2 == 1 {
                        l.to_ascii_lowercase()
                    } else {
                        l
                    };
                    (l, char::from(b'0' + unit.tribe))
                }
            };
            let _ = write!(out, "{}{}{}{} ", tile.terrain.to_char(), mark, u, owner);
        }
        out.push('\n');
    }
    for p in 0..s.num_tribes {
        let ts = &s.tribes[p as usize];
        let _ = writeln!(
            out,
            "{p} {:<9} stars {:>3}  score {:>5}  techs {:>2}  cities {}  units {}  {:?}",
            ts.kind.title(),
            ts.stars,
            ts.score,
            ts.techs.len(),
            s.num_cities(p),
            s.num_units(p),
            ts.result
        );
    }
    out
}
