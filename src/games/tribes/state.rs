//! The Tribes position: a flat board, unit slots, cities and tribes; cheap to clone.

use super::types::{
    Building, MONUMENTS, MonumentStatus, Resource, TechSet, Terrain, TribeKind, UnitKind,
    UnitStatus,
};

/// Marks "no unit" in [`Tile::unit`] and "no city" in [`Tile::owner`] / [`Unit::home`].
pub const NONE: u8 = u8::MAX;

/// Most tribes in one game.
pub const MAX_TRIBES: usize = 4;

/// Most unit slots a state holds (a spawn that would need more is not offered).
pub const MAX_UNITS: usize = 250;

/// A set of tiles as a bit mask (boards up to 32×32).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileSet(pub [u64; 16]);

impl TileSet {
    /// Adds tile `t` (below 1024, as every tile of a 32×32 board is).
    #[inline]
    pub fn insert(&mut self, t: usize) {
        debug_assert!(t < 1024, "tile {t}");
        // The mask keeps the word index in range without a bounds check.
        self.0[(t >> 6) & 15] |= 1 << (t & 63);
    }

    /// True if tile `t` (below 1024) is in the set.
    #[inline]
    pub fn has(&self, t: usize) -> bool {
        debug_assert!(t < 1024, "tile {t}");
        self.0[(t >> 6) & 15] & (1 << (t & 63)) != 0
    }

    /// The number of tiles in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True if the set holds no tile.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// One board tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    /// Terrain.
    pub terrain: Terrain,
    /// Resource, if any.
    pub resource: Option<Resource>,
    /// Building, if any.
    pub building: Option<Building>,
    /// A road is built here.
    pub road: bool,
    /// Index of the city whose territory this tile is, or [`NONE`].
    pub owner: u8,
    /// The tribe owning that city, or [`NONE`] (kept in step with `owner` for speed).
    pub tribe: u8,
    /// Slot of the unit standing here, or [`NONE`].
    pub unit: u8,
    /// Level of the temple on this tile (1–5), 0 if none.
    pub temple_level: u8,
    /// Owner turns left until the temple's next level.
    pub temple_timer: u8,
}

/// A unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Unique id within the game (creation order).
    pub id: u32,
    /// Current type.
    pub kind: UnitKind,
    /// The land type a naval unit came from (equal to `kind` for land units).
    pub base: UnitKind,
    /// Owning tribe index.
    pub tribe: u8,
    /// Home city index, or [`NONE`] for an extra (homeless) unit.
    pub home: u8,
    /// Progress through the turn.
    pub status: UnitStatus,
    /// Hit points.
    pub hp: u8,
    /// Maximum hit points.
    pub max_hp: u8,
    /// Kills made.
    pub kills: u8,
    /// Became a veteran.
    pub veteran: bool,
    /// Tile index.
    pub pos: u16,
    /// Slot in use.
    pub alive: bool,
    /// Score points this unit is worth to its tribe (lost when it dies).
    pub points: u8,
}

/// A city.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct City {
    /// Owning tribe index.
    pub tribe: u8,
    /// Tribe index of the tribe whose original capital this is, or [`NONE`].
    pub capital_of: u8,
    /// Centre tile index.
    pub tile: u16,
    /// Level (starts at 1).
    pub level: u8,
    /// Population towards the next level (may be negative, never below −level).
    pub population: i8,
    /// Has city walls.
    pub walls: bool,
    /// Production from workshops and customs houses.
    pub bonus_production: i8,
    /// Territory radius (1, or 2 after border growth).
    pub radius: u8,
    /// Score the city is worth: moves with it on capture.
    pub points: i32,
    /// Connected to its tribe's capital by the trade network.
    pub connected: bool,
}

impl City {
    /// Population needed for the next level.
    #[inline]
    pub fn population_need(&self) -> i32 {
        self.level as i32 + 1
    }

    /// Most units whose home is this city.
    #[inline]
    pub fn unit_capacity(&self) -> usize {
        self.level as usize + 1
    }
}

/// How a tribe's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TribeResult {
    /// Still playing.
    Playing,
    /// Won.
    Win,
    /// Lost.
    Loss,
}

/// A tribe (a player).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TribeState {
    /// Which tribe.
    pub kind: TribeKind,
    /// Stars (currency).
    pub stars: i32,
    /// Score.
    pub score: i32,
    /// Researched technologies.
    pub techs: TechSet,
    /// Enemy units killed.
    pub kills: u16,
    /// Own turn-starts with MEDITATION since the last attack.
    pub pacifist: u8,
    /// Monument availability, by [`Building::monument_index`].
    pub monuments: [MonumentStatus; MONUMENTS],
    /// Index of the tribe's original capital city.
    pub capital: u8,
    /// Result so far.
    pub result: TribeResult,
}

impl TribeState {
    /// A placeholder for unused tribe slots.
    pub const EMPTY: TribeState = TribeState {
        kind: TribeKind::XinXi,
        stars: 0,
        score: 0,
        techs: TechSet(0),
        kills: 0,
        pacifist: 0,
        monuments: [MonumentStatus::Unavailable; MONUMENTS],
        capital: NONE,
        result: TribeResult::Loss,
    };
}

/// A Tribes position.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Board side length.
    pub size: u8,
    /// Tiles, row-major (`x * size + y`, x = row).
    pub tiles: Vec<Tile>,
    /// Unit slots (dead slots are reused).
    pub units: Vec<Unit>,
    /// Cities, never removed (a captured city changes owner).
    pub cities: Vec<City>,
    /// Tribes in turn order (seat order); only the first `num_tribes` are used.
    pub tribes: [TribeState; MAX_TRIBES],
    /// Number of tribes.
    pub num_tribes: u8,
    /// Tribe whose turn it is.
    pub active: u8,
    /// Completed rounds (the papers' "turn").
    pub tick: u16,
    /// The game is over.
    pub over: bool,
    /// Next unit id.
    pub next_unit_id: u32,
    /// State of the game's own RNG (chance events: ruins, re-homing).
    pub rng: u64,
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            size: self.size,
            tiles: self.tiles.clone(),
            units: self.units.clone(),
            cities: self.cities.clone(),
            tribes: self.tribes,
            num_tribes: self.num_tribes,
            active: self.active,
            tick: self.tick,
            over: self.over,
            next_unit_id: self.next_unit_id,
            rng: self.rng,
        }
    }

    /// Reuses `self`'s buffers (search trees recycle their states this way).
    fn clone_from(&mut self, src: &Self) {
        self.size = src.size;
        self.tiles.clone_from(&src.tiles);
        self.units.clone_from(&src.units);
        self.cities.clone_from(&src.cities);
        self.tribes = src.tribes;
        self.num_tribes = src.num_tribes;
        self.active = src.active;
        self.tick = src.tick;
        self.over = src.over;
        self.next_unit_id = src.next_unit_id;
        self.rng = src.rng;
    }
}

impl State {
    /// A fresh unit id: every unit made gets the next one.
    pub fn new_unit_id(&mut self) -> u32 {
        self.next_unit_id += 1;
        self.next_unit_id - 1
    }

    /// Board side length as usize.
    #[inline]
    pub fn n(&self) -> usize {
        self.size as usize
    }

    /// Row and column of a tile index.
    #[inline]
    pub fn xy(&self, t: usize) -> (i32, i32) {
        ((t / self.n()) as i32, (t % self.n()) as i32)
    }

    /// Tile index of (row, column) if on the board.
    #[inline]
    pub fn idx(&self, x: i32, y: i32) -> Option<usize> {
        let n = self.size as i32;
        (x >= 0 && y >= 0 && x < n && y < n).then(|| (x * n + y) as usize)
    }

    /// Chebyshev distance between two tiles.
    #[inline]
    pub fn dist(&self, a: usize, b: usize) -> i32 {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        (ax - bx).abs().max((ay - by).abs())
    }

    /// Tiles of the (2r+1)² square around `t`, clipped to the board, excluding `t`, in
    /// reference order (row outer ascending, column inner ascending).
    pub fn neighbourhood(&self, t: usize, r: i32, mut f: impl FnMut(usize)) {
        let (x, y) = self.xy(t);
        let n = self.size as i32;
        for i in (x - r).max(0)..=(x + r).min(n - 1) {
            for j in (y - r).max(0)..=(y + r).min(n - 1) {
                if i != x || j != y {
                    f((i * n + j) as usize);
                }
            }
        }
    }

    /// True if any tile of the neighbourhood satisfies `p`.
    pub fn any_neighbour(&self, t: usize, r: i32, mut p: impl FnMut(usize) -> bool) -> bool {
        let (x, y) = self.xy(t);
        let n = self.size as i32;
        for i in (x - r).max(0)..=(x + r).min(n - 1) {
            for j in (y - r).max(0)..=(y + r).min(n - 1) {
                if (i != x || j != y) && p((i * n + j) as usize) {
                    return true;
                }
            }
        }
        false
    }

    /// The tribe owning tile `t`'s territory, or [`NONE`].
    #[inline]
    pub fn tile_tribe(&self, t: usize) -> u8 {
        self.tiles[t].tribe
    }

    /// The unit on tile `t`, if any.
    #[inline]
    pub fn unit_at(&self, t: usize) -> Option<&Unit> {
        match self.tiles[t].unit {
            NONE => None,
            u => Some(&self.units[u as usize]),
        }
    }

    /// Cities of `tribe`, as city indices.
    pub fn tribe_cities(&self, tribe: u8) -> impl Iterator<Item = usize> + '_ {
        self.cities
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.tribe == tribe)
            .map(|(i, _)| i)
    }

    /// Number of cities `tribe` owns.
    pub fn num_cities(&self, tribe: u8) -> usize {
        self.cities.iter().filter(|c| c.tribe == tribe).count()
    }

    /// Number of live units whose home is city `c`.
    pub fn home_units(&self, c: u8) -> usize {
        self.units.iter().filter(|u| u.alive && u.home == c).count()
    }

    /// Number of live units of `tribe` (home and extra).
    pub fn num_units(&self, tribe: u8) -> usize {
        self.units
            .iter()
            .filter(|u| u.alive && u.tribe == tribe)
            .count()
    }

    /// Next draw of the game's own RNG (SplitMix64).
    pub fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        crate::rng::mix64(self.rng)
    }

    /// Tiles holding a unit of a tribe other than `tribe`, and tiles next to one (zone of
    /// control).
    pub fn enemy_maps(&self, tribe: u8) -> (TileSet, TileSet) {
        let mut enemy = TileSet::default();
        let mut zoc = TileSet::default();
        for u in self.units.iter() {
            if u.alive && u.tribe != tribe {
                let p = u.pos as usize;
                enemy.insert(p);
                self.neighbourhood(p, 1, |t| zoc.insert(t));
            }
        }
        (enemy, zoc)
    }

    /// A uniform draw in `0..n` (n > 0) from the game's own RNG.
    pub fn random_below(&mut self, n: usize) -> usize {
        (((self.next_random() >> 32) * n as u64) >> 32) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::TileSet;

    #[test]
    fn a_tile_set_counts_its_tiles_once() {
        let mut set = TileSet::default();
        assert!(set.is_empty());
        assert_eq!(set.len(), 0);
        for t in [0, 63, 64, 1023, 64] {
            set.insert(t);
        }
        assert_eq!(set.len(), 4, "tile 64 twice counts once");
        assert!(!set.is_empty() && set.has(1023) && !set.has(1));
    }
}
