//! The initial state of a level (spec §2.2, §3).

use super::economy::found_city;
use super::level::Level;
use super::rules::TribesRules;
use super::state::{MAX_TRIBES, NONE, State, Tile, TribeResult, TribeState};
use super::types::{MONUMENTS, MonumentStatus, TechSet, Terrain, UnitStatus};
use super::units::create_unit;

/// Builds the initial state: one level-1 capital, the starting tech and unit and 5 stars per
/// tribe, then the first tribe's turn start.
///
/// Turn order: the intended rule orders tribes by tribe key (Xin-Xi, Imperius, Bardur, Oumaji);
/// with `compat = "java"` it is the row-major order of the capitals in the level (quirk 2).
pub fn initial_state(rules: &TribesRules, level: &Level, seed: u64) -> State {
    let n = level.size;
    let tiles = (0..n * n)
        .map(|t| Tile {
            terrain: if level.terrain[t] == Terrain::City {
                Terrain::Plain
            } else {
                level.terrain[t]
            },
            resource: level.resource[t],
            building: None,
            road: false,
            owner: NONE,
            tribe: NONE,
            unit: NONE,
            temple_level: 0,
            temple_timer: 0,
        })
        .collect();
    let mut capitals = level.capitals.clone();
    capitals.truncate(MAX_TRIBES);
    if !rules.java() {
        capitals.sort_by_key(|&(_, kind)| kind);
    }
    let mut s = State {
        size: n as u8,
        tiles,
        units: Vec::with_capacity(32),
        cities: Vec::with_capacity(16),
        tribes: [TribeState::EMPTY; MAX_TRIBES],
        num_tribes: capitals.len() as u8,
        active: 0,
        tick: 0,
        over: false,
        next_unit_id: 1,
        rng: crate::rng::mix64(seed ^ 0x7269_6265_7321),
    };
    for (i, &(_, kind)) in capitals.iter().enumerate() {
        let mut techs = TechSet::default();
        techs.insert(kind.start_tech());
        s.tribes[i] = TribeState {
            kind,
            stars: 5,
            score: 100 * kind.start_tech().tier() as i32,
            techs,
            kills: 0,
            pacifist: 0,
            monuments: [MonumentStatus::Unavailable; MONUMENTS],
            capital: NONE,
            result: TribeResult::Playing,
        };
    }
    for (i, &(t, kind)) in capitals.iter().enumerate() {
        let c = found_city(rules, &mut s, t, i as u8, true);
        s.tribes[i].capital = c as u8;
        let unit = kind.start_unit();
        let points = unit.stats().points as u8;
        create_unit(&mut s, unit, i as u8, c as u8, t, UnitStatus::Fresh, points);
    }
    super::apply::start_turn(rules, &mut s);
    s
}
