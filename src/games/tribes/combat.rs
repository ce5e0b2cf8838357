//! Attack resolution (spec §7.4).

use super::economy::monument_available;
use super::movement::after_attack;
use super::rules::TribesRules;
use super::state::{State, Unit};
use super::types::{Building, Tech, Terrain};
use super::units::{embark_or_disembark, push_target_ok, relocate, remove_unit};

/// Java's `Math.round`: `floor(x + 0.5)`.
#[inline]
fn java_round(x: f64) -> i32 {
    (x + 0.5).floor() as i32
}

/// The defender's defence multiplier (first matching rule).
pub fn defence_bonus(s: &State, d: &Unit) -> f64 {
    let t = d.pos as usize;
    let tile = &s.tiles[t];
    if tile.terrain == Terrain::City && s.tile_tribe(t) == d.tribe {
        let city = &s.cities[tile.owner as usize];
        return if city.walls {
            4.0
        } else if d.kind.can_fortify() {
            1.5
        } else {
            1.0
        };
    }
    let techs = s.tribes[d.tribe as usize].techs;
    let bonus = match tile.terrain {
        Terrain::Mountain => techs.has(Tech::Meditation),
        Terrain::Shallow | Terrain::Deep => techs.has(Tech::Aquatism),
        Terrain::Forest => techs.has(Tech::Archery),
        _ => false,
    };
    if bonus { 1.5 } else { 1.0 }
}

/// Damage dealt and retaliation suffered when `a` attacks `d` (before any HP changes).
pub fn damage(s: &State, a: &Unit, d: &Unit) -> (i32, i32) {
    let (sa, sd) = (a.kind.stats(), d.kind.stats());
    let af = sa.atk as f64 * a.hp as f64 / a.max_hp.max(1) as f64;
    let df = sd.def as f64 * d.hp as f64 / d.max_hp.max(1) as f64 * defence_bonus(s, d);
    let total = af + df;
    if total <= 0.0 {
        return (0, 0);
    }
    let dmg = java_round(af / total * sa.atk as f64 * 4.5);
    let ret = java_round(df / total * sd.def as f64 * 4.5);
    (dmg, ret)
}

/// Records a kill for the unit in `slot` and its tribe (10 tribe kills: Gate of Power).
fn credit_kill(s: &mut State, slot: usize) {
    let u = &mut s.units[slot];
    u.kills = u.kills.saturating_add(1);
    let tribe = u.tribe;
    s.tribes[tribe as usize].kills += 1;
    if s.tribes[tribe as usize].kills >= 10 {
        monument_available(s, tribe, Building::GateOfPower);
    }
}

/// The unit in slot `a` attacks the unit on tile `target`.
pub fn attack(rules: &TribesRules, s: &mut State, a: usize, target: usize) {
    let d = s.tiles[target].unit as usize;
    let (au, du) = (s.units[a], s.units[d]);
    let (dmg, ret) = damage(s, &au, &du);
    s.tribes[au.tribe as usize].pacifist = 0;
    if du.hp as i32 <= dmg {
        s.units[a].status = after_attack(&au, true);
        remove_unit(s, d);
        credit_kill(s, a);
        if au.kind.is_melee()
            && s.dist(au.pos as usize, target) <= 1
            && push_target_ok(s, au.tribe, target)
        {
            relocate(s, a, target);
            embark_or_disembark(rules, s, a);
        }
    } else {
        s.units[a].status = after_attack(&au, false);
        s.units[d].hp = (du.hp as i32 - dmg) as u8;
        if s.dist(au.pos as usize, target) <= du.kind.stats().range {
            let hp = au.hp as i32 - ret;
            if hp <= 0 {
                remove_unit(s, a);
                credit_kill(s, d);
            } else {
                s.units[a].hp = hp as u8;
            }
        }
    }
}
