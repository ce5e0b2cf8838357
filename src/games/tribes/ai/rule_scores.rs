//! The integer action scores of the rule-based agent (spec §15.2; Java `SimpleAgent.evalAction`).
//!
//! Every tile counts as visible (the engine has no fog), so the Java "next to a visible tile"
//! exploration bonus gives every move at least 3.

use crate::games::tribes::economy::{production, tribe_production};
use crate::games::tribes::state::{NONE, State, Unit};
use crate::games::tribes::{
    Action, ActionKind, Building, LevelUpBonus, Tech, Terrain, TribesGame, UnitKind,
};

/// Java's `isRanged`: the units whose attack uses the ranged rule (naval units included).
#[inline]
fn ranged(k: UnitKind) -> bool {
    use UnitKind::*;
    matches!(k, Boat | Ship | Battleship | Archer | Catapult)
}

/// Java `checkInRange(a, b)`: `b` stands within `a`'s attack range.
#[inline]
fn in_range(s: &State, a: &Unit, b: &Unit) -> bool {
    s.dist(a.pos as usize, b.pos as usize) <= a.kind.stats().range
}

/// Calls `f` for the tiles of city `c` as Java `getCityTiles` lists them: within radius 1
/// (2 from level 4), owned by the city, the centre included, row-major.
fn city_tiles(s: &State, c: usize, mut f: impl FnMut(usize)) {
    let city = &s.cities[c];
    let r = if city.level >= 4 { 2 } else { 1 };
    let (x, y) = s.xy(city.tile as usize);
    for i in x - r..=x + r {
        for j in y - r..=y + r {
            if let Some(t) = s.idx(i, j)
                && s.tiles[t].owner as usize == c
            {
                f(t)
            }
        }
    }
}

/// The first tile (row-major, centre excluded, clipped to the board) within `r` of `t` for
/// which `f` returns a score.
fn first_around(
    s: &State,
    t: usize,
    r: i32,
    mut f: impl FnMut(usize) -> Option<i32>,
) -> Option<i32> {
    let (x, y) = s.xy(t);
    for i in x - r..=x + r {
        for j in y - r..=y + r {
            if (i, j) != (x, y)
                && let Some(v) = s.idx(i, j).and_then(&mut f)
            {
                return Some(v);
            }
        }
    }
    None
}

/// Scores the actions of one state for the tribe to move.
pub struct Scorer<'a> {
    game: &'a TribesGame,
    s: &'a State,
    tribe: u8,
    stars: i32,
    /// Sum of the tribe's city productions (Java `getMaxProduction`).
    production: i32,
    /// Slots of enemy units in row-major order of their tiles.
    enemies: &'a [u16],
}

impl<'a> Scorer<'a> {
    /// A scorer for the active tribe of `s`; `enemies` is a reusable buffer.
    pub fn new(game: &'a TribesGame, s: &'a State, enemies: &'a mut Vec<u16>) -> Self {
        let tribe = s.active;
        enemies.clear();
        for tile in &s.tiles {
            if tile.unit != NONE && s.units[tile.unit as usize].tribe != tribe {
                enemies.push(tile.unit as u16);
            }
        }
        Scorer {
            game,
            s,
            tribe,
            stars: s.tribes[tribe as usize].stars,
            production: tribe_production(&game.rules, s, tribe, false),
            enemies,
        }
    }

    /// The score of a legal action: higher is better, 5 at most.
    pub fn score(&self, a: Action) -> i32 {
        use ActionKind::*;
        match a.kind {
            Move => self.movement(a),
            Attack => self.attack(a),
            UpgradeBoat | UpgradeShip => self.upgrade(a),
            Recover => self.recover(a),
            Capture | Examine | MakeVeteran => 5,
            HealOthers => self.heal(a),
            Convert => self.convert(a),
            Disband | Destroy => -2,
            BurnForest => self.burn(a),
            ClearForest => {
                if self.stars == 0 {
                    3
                } else {
                    0
                }
            }
            GrowForest => self.grow(a),
            Build => self.build(a),
            Spawn => self.spawn(a),
            ResourceGathering => (5 - self.needed(a.actor as usize)).clamp(0, 5),
            LevelUp => {
                use LevelUpBonus as L;
                match a.bonus() {
                    L::BorderGrowth | L::Workshop | L::Resources | L::SuperUnit => 5,
                    _ => 0,
                }
            }
            BuildRoad => self.road(a),
            ResearchTech => research(a.tech()),
            EndTurn => -1,
        }
    }

    fn unit(&self, a: Action) -> &'a Unit {
        &self.s.units[a.actor as usize]
    }

    /// Population still needed to level up: `level + 1 − production`.
    fn needed(&self, c: usize) -> i32 {
        let city = &self.s.cities[c];
        city.level as i32 + 1 - production(&self.game.rules, self.s, c)
    }

    /// Towards weaker enemies (3), away from stronger ones that have us in range (4), towards
    /// an enemy city within our range (4) or a village within our range (5); else 3 for
    /// exploring.
    fn movement(&self, a: Action) -> i32 {
        let s = self.s;
        let me = self.unit(a);
        let (pos, dest) = (me.pos as usize, a.target as usize);
        let st = me.kind.stats();
        for &e in self.enemies {
            let e = &s.units[e as usize];
            let ep = e.pos as usize;
            let es = e.kind.stats();
            if es.def < st.atk && me.hp >= e.hp {
                if s.dist(dest, ep) < s.dist(pos, ep) {
                    return 3;
                }
            } else if s.dist(dest, ep) > s.dist(pos, ep) && in_range(s, e, me) {
                return 4;
            }
        }
        let near = first_around(s, pos, st.range, |t| {
            let tile = &s.tiles[t];
            if tile.owner != NONE {
                let city = &s.cities[tile.owner as usize];
                let c = city.tile as usize;
                if city.tribe != self.tribe && s.dist(dest, c) < s.dist(pos, c) {
                    return Some(4);
                }
            }
            (tile.terrain == Terrain::Village && s.dist(dest, t) < s.dist(pos, t)).then_some(5)
        });
        near.unwrap_or(if s.n() > 1 { 3 } else { 0 })
    }

    /// Melee: 5 if at least as healthy and attack beats the target's defence; ranged: 5 if it
    /// hits from outside the target's range, 0 under dangerous retaliation.
    fn attack(&self, a: Action) -> i32 {
        let s = self.s;
        let me = self.unit(a);
        let Some(d) = s.unit_at(a.target as usize) else {
            return 0;
        };
        let (ms, ds) = (me.kind.stats(), d.kind.stats());
        if !ranged(me.kind) {
            return match (me.hp >= d.hp, ms.atk > ds.def) {
                (true, true) => 5,
                (true, false) | (false, true) => 1,
                (false, false) => 0,
            };
        }
        let exposed = in_range(s, d, me);
        if exposed && ds.atk > ms.def {
            0
        } else if in_range(s, me, d) && !exposed {
            5
        } else if ds.def < ms.atk && me.hp >= d.hp {
            4
        } else {
            0
        }
    }

    /// 3 with enough production and stars, else 0.
    ///
    /// **Java quirk**: the Java agent tests whether the upgrading unit *is* a battleship,
    /// which it never is, so ship upgrades use the boat thresholds (production > 3, stars > 6).
    /// Replicated with `compat = "java"`; by default ship upgrades need production > 5 and
    /// stars > 8.
    fn upgrade(&self, a: Action) -> i32 {
        let ship = a.kind == ActionKind::UpgradeShip && !self.game.rules.java();
        let (p, st) = if ship { (5, 8) } else { (3, 6) };
        if self.production > p && self.stars > st {
            3
        } else {
            0
        }
    }

    /// 4 out of enemy reach; in the reach of the first such enemy: 3 if it is weaker, else 1.
    fn recover(&self, a: Action) -> i32 {
        let me = self.unit(a);
        for &e in self.enemies {
            let e = &self.s.units[e as usize];
            if in_range(self.s, e, me) {
                return if e.hp < me.hp { 3 } else { 1 };
            }
        }
        4
    }

    /// One point per (wounded neighbour, healthier enemy near the healer) pair, 5 at most.
    fn heal(&self, a: Action) -> i32 {
        let s = self.s;
        let me = self.unit(a);
        let mut heals = 0;
        s.neighbourhood(me.pos as usize, me.kind.stats().range, |t| {
            let Some(target) = s.unit_at(t) else { return };
            if target.tribe != me.tribe || target.hp >= target.max_hp {
                return;
            }
            s.neighbourhood(me.pos as usize, target.kind.stats().range, |v| {
                if s.unit_at(v)
                    .is_some_and(|e| e.tribe != target.tribe && e.hp > target.hp)
                {
                    heals += 1;
                }
            });
        });
        heals.min(5)
    }

    /// 5 for valuable targets, 4 for cheaper ones, 0 for riders, defenders and archers.
    fn convert(&self, a: Action) -> i32 {
        use UnitKind::*;
        match self.s.unit_at(a.target as usize).map(|u| u.kind) {
            Some(Battleship | SuperUnit | Swordsman | Knight | Catapult) => 5,
            Some(MindBender | Boat | Ship | Warrior) => 4,
            _ => 0,
        }
    }

    /// With more than 5 stars: 1, plus the city's farms while it has fewer than 2.
    fn burn(&self, a: Action) -> i32 {
        if self.stars <= 5 {
            return 0;
        }
        let s = self.s;
        let c = a.actor as usize;
        let mut farms = 0;
        let centre = s.cities[c].tile as usize;
        s.neighbourhood(centre, 2, |t| {
            farms += (s.tiles[t].owner as usize == c && s.tiles[t].building == Some(Building::Farm))
                as i32;
        });
        (1 + if farms < 2 { farms } else { 0 }).min(5)
    }

    /// 4 while the city has fewer than 2 forests and fewer than 2 lumber huts, else 2.
    fn grow(&self, a: Action) -> i32 {
        let s = self.s;
        let (mut forests, mut huts) = (0, 0);
        city_tiles(s, a.actor as usize, |t| {
            forests += (s.tiles[t].terrain == Terrain::Forest) as i32;
            huts += (s.tiles[t].building == Some(Building::LumberHut)) as i32;
        });
        if forests < 2 && huts < 2 { 4 } else { 2 }
    }

    /// 0 below 8 stars; else `min(5, max(0, s + 5 − needed))` with a per-building `s`.
    ///
    /// **Java quirk** (spec §15.2): the Java `switch` lacks its `break`s, so every listed
    /// building falls through to the temples' 1 (the forest temple, unlisted, gets 0).
    /// Replicated with `compat = "java"`; by default `s` is as the Java comments intend:
    /// 4 for farm, mine, forge, windmill and customs house, 3 for port, sawmill and lumber
    /// hut, 5 for monuments, 1 for temples.
    fn build(&self, a: Action) -> i32 {
        if self.stars < 8 {
            return 0;
        }
        use Building::*;
        let b = a.building();
        let base = if self.game.rules.java() {
            if b == ForestTemple { 0 } else { 1 }
        } else {
            match b {
                Farm | Mine | Forge | Windmill | CustomsHouse => 4,
                Port | Sawmill | LumberHut => 3,
                _ if b.is_monument() => 5,
                _ => 1,
            }
        };
        (base + 5 - self.needed(a.actor as usize)).clamp(0, 5)
    }

    /// 3 for most units; with an enemy on the city's tiles: defender 5, swordsman and knight
    /// 4, rider, archer, catapult and mind bender 0; mind bender 2 otherwise.
    fn spawn(&self, a: Action) -> i32 {
        let s = self.s;
        let mut threatened = false;
        city_tiles(s, a.actor as usize, |t| {
            threatened |= s.unit_at(t).is_some_and(|u| u.tribe != self.tribe);
        });
        use UnitKind::*;
        match (a.unit_kind(), threatened) {
            (Rider | Archer | Catapult | MindBender, true) => 0,
            (Swordsman | Knight, true) => 4,
            (Defender, true) => 5,
            (MindBender, false) => 2,
            _ => 3,
        }
    }

    /// 3–4 next to an own road (or an own city centre when rich), else 0.
    fn road(&self, a: Action) -> i32 {
        let s = self.s;
        let rich = self.production > 5 && self.stars > 4;
        first_around(s, a.target as usize, 1, |t| {
            let tile = &s.tiles[t];
            if tile.owner != NONE && s.cities[tile.owner as usize].tribe == self.tribe {
                let centre = s.cities[tile.owner as usize].tile as usize == t;
                if centre {
                    rich.then_some(3)
                } else {
                    tile.road.then_some(3)
                }
            } else {
                tile.road.then_some(if rich { 4 } else { 3 })
            }
        })
        .unwrap_or(0)
    }
}

/// 5 for techs that unlock gathering and climbing, 4 for the next useful tier, 3 otherwise.
fn research(t: Tech) -> i32 {
    use Tech::*;
    match t {
        Organization | Climbing | Mining | Fishing | Hunting | Whaling => 5,
        Farming | Aquatism | Riding | Forestry | Archery | Sailing | Shields | Chivalry => 4,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tribes::ai::testing::{put_unit, setup};

    fn score(game: &TribesGame, s: &State, a: Action) -> i32 {
        let mut enemies = Vec::new();
        Scorer::new(game, s, &mut enemies).score(a)
    }

    #[test]
    fn fixed_scores() {
        let (game, s) = setup(false);
        assert_eq!(score(&game, &s, Action::end_turn(0)), -1);
        assert_eq!(
            score(&game, &s, Action::new(ActionKind::Destroy, 0, 0, 9)),
            -2
        );
        assert_eq!(
            score(&game, &s, Action::new(ActionKind::Disband, 0, 0, 0)),
            -2
        );
        let research = |t: Tech| Action::new(ActionKind::ResearchTech, 0, t as u8, 0);
        assert_eq!(score(&game, &s, research(Tech::Mining)), 5);
        assert_eq!(score(&game, &s, research(Tech::Sailing)), 4);
        assert_eq!(score(&game, &s, research(Tech::Philosophy)), 3);
    }

    #[test]
    fn build_scores_fall_through_only_under_java_compat() {
        for java in [false, true] {
            let (game, mut s) = setup(java);
            s.tribes[0].stars = 10;
            s.cities[0].population = -1; // production −1: 3 population short of a level
            let build = |b: Building| Action::new(ActionKind::Build, 0, b as u8, 9);
            let farm = score(&game, &s, build(Building::Farm));
            let port = score(&game, &s, build(Building::Port));
            let forest_temple = score(&game, &s, build(Building::ForestTemple));
            if java {
                assert_eq!((farm, port, forest_temple), (3, 3, 2));
            } else {
                assert_eq!((farm, port, forest_temple), (5, 5, 3));
            }
            s.tribes[0].stars = 7;
            assert_eq!(score(&game, &s, build(Building::Farm)), 0);
        }
    }

    #[test]
    fn ship_upgrades_need_more_only_without_java_compat() {
        for java in [false, true] {
            let (game, mut s) = setup(java);
            s.cities[0].level = 6; // production 7
            s.tribes[0].stars = 7;
            let boat = score(&game, &s, Action::new(ActionKind::UpgradeBoat, 0, 0, 0));
            let ship = score(&game, &s, Action::new(ActionKind::UpgradeShip, 0, 0, 0));
            assert_eq!(boat, 3);
            assert_eq!(ship, if java { 3 } else { 0 });
        }
    }

    #[test]
    fn units_attack_weaker_targets_and_respect_retaliation() {
        let (game, mut s) = setup(false);
        let warrior = put_unit(&mut s, UnitKind::Warrior, 0, 30, 10);
        let archer = put_unit(&mut s, UnitKind::Archer, 0, 44, 10);
        put_unit(&mut s, UnitKind::Archer, 1, 31, 5);
        put_unit(&mut s, UnitKind::Defender, 1, 42, 15);
        let attack = |me, t| Action::new(ActionKind::Attack, me, 0, t);
        assert_eq!(score(&game, &s, attack(warrior, 31)), 5);
        // The archer hits the defender from 2 tiles away, out of its reach.
        assert_eq!(score(&game, &s, attack(archer, 42)), 5);
        // Recovering in reach of a weaker enemy: 3; towards a village in range: 5; else 3.
        assert_eq!(
            score(&game, &s, Action::new(ActionKind::Recover, warrior, 0, 0)),
            3
        );
        s.tiles[29].terrain = Terrain::Village;
        assert_eq!(
            score(&game, &s, Action::new(ActionKind::Move, archer, 0, 36)),
            5
        );
        assert_eq!(
            score(&game, &s, Action::new(ActionKind::Move, archer, 0, 43)),
            3
        );
        // A melee attack on a healthier target it cannot out-attack: 0.
        assert_eq!(score(&game, &s, attack(warrior, 42)), 0);
    }
}
