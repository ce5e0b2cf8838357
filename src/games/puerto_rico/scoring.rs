//! Scores, large-building bonuses, tie-break and the outcome (spec §2.11, §2.10).

use super::state::{PlayerState, State};
use super::types::{BUILDING_TABLE, BUILDINGS, BuildingKind, bld};
use crate::game::Outcome;

/// Printed VP of every building `me` owns, occupied or not.
pub fn building_vp(me: &PlayerState) -> u32 {
    (0..BUILDINGS)
        .filter(|&b| me.owns(b as u8))
        .map(|b| u32::from(BUILDING_TABLE[b].vp))
        .sum()
}

/// End-of-game bonuses of `me`'s occupied large buildings.
pub fn bonus_vp(me: &PlayerState) -> u32 {
    let mut vp = 0;
    if me.active(bld::GUILD_HALL) {
        for (b, t) in BUILDING_TABLE.iter().enumerate() {
            if me.owns(b as u8) && matches!(t.kind, BuildingKind::Production(_)) {
                vp += if t.slots == 1 { 1 } else { 2 };
            }
        }
    }
    if me.active(bld::RESIDENCE) {
        vp += match me.island() {
            0..=9 => 4,
            10 => 5,
            11 => 6,
            _ => 7,
        };
    }
    if me.active(bld::FORTRESS) {
        vp += me.colonists() / 3;
    }
    if me.active(bld::CUSTOMS_HOUSE) {
        vp += u32::from(me.chips) / 4;
    }
    if me.active(bld::CITY_HALL) {
        vp += (0..BUILDINGS)
            .filter(|&b| {
                me.owns(b as u8) && !matches!(BUILDING_TABLE[b].kind, BuildingKind::Production(_))
            })
            .count() as u32;
    }
    vp
}

/// A player's score if the game ended now: chips + building VP + occupied large bonuses.
pub fn score(me: &PlayerState) -> u32 {
    u32::from(me.chips) + building_vp(me) + bonus_vp(me)
}

/// The tie-break value: doubloons + barrels.
pub fn tie_break(me: &PlayerState) -> u32 {
    u32::from(me.doubloons) + me.barrels()
}

/// Ranks by score, then tie-break; players still tied share their rank.
pub fn outcome(s: &State) -> Outcome {
    let keys: Vec<f64> = s.players[..s.n()]
        .iter()
        .map(|p| f64::from(score(p)) * 100_000.0 + f64::from(tie_break(p)))
        .collect();
    Outcome::from_scores(&keys)
}
