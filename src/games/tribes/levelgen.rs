//! The level generator (spec §2.4): random land, smoothed; capitals spread apart; territory by
//! flood fill; forests and mountains; coasts; villages; resources; ruins; the Imperius fruit and
//! Bardur animal guarantees.
//!
//! It follows the Java generator's recipe and numbers, not its random stream, and implements the
//! intended behaviour where the Java code has a defect (spec §18 quirk 11):
//! - the smoothing's marked list is cleared between passes, so land can also shrink;
//! - the coast turns the **deep** tile next to land into shallow water (Java turns the land tile);
//! - ruins never land twice on a tile, and the "no ruins next to ruins" marking marks the ruin's
//!   neighbours (Java marks tiles indexed by a village-map value);
//! - deep water turned shallow by the fruit/animal guarantee loses its whales or ruins.
//!
//! On top of the recipe it enforces what makes a level playable (see [`playability_faults`]):
//! capitals on distinct land tiles at least [`MIN_CAPITAL_SPREAD`] apart with their radius-1 ring
//! on the board, at least one village, resources only on matching terrain. Every loop is bounded.

use rand::RngExt;

use super::level::Level;
use super::types::{Resource, Terrain, TribeKind};
use crate::rng::{Rng, derive_rng};

/// RNG tag of the level generator.
const LEVELGEN_TAG: u64 = u64::from_le_bytes(*b"levelgen");
/// Smoothing passes (Java `smoothing`).
const SMOOTHING_PASSES: usize = 3;
/// Share of tiles made land before smoothing (Java `initialLand`).
const INITIAL_LAND: f64 = 0.5;
/// A tile becomes land if at most this share of its radius-1 disk is deep water:
/// `(0.5 + relief) / 9` with relief 4.
const LAND_COEFFICIENT: f64 = (0.5 + 4.0) / 9.0;
/// Capitals are placed with their row and column in `[CAPITAL_MARGIN, size − 1 − CAPITAL_MARGIN]`.
const CAPITAL_MARGIN: usize = 2;
/// Smallest Chebyshev distance between two generated capitals.
pub const MIN_CAPITAL_SPREAD: usize = 3;

/// Village-map value: no village may stand here (deep water, mountain or board edge).
const V_BLOCKED: i8 = -1;
/// Village-map value: a village may still be placed here.
const V_FREE: i8 = 0;
/// Village-map value: two steps from a village (resources at a third of their probability).
const V_OUTER: i8 = 1;
/// Village-map value: next to a village (resources at full probability).
const V_INNER: i8 = 2;
/// Village-map value: a village or capital.
const V_VILLAGE: i8 = 3;

/// A terrain or resource probability of the table in spec §2.4 (`terrainProbs.json`).
#[derive(Clone, Copy)]
enum Prob {
    Forest,
    Mountain,
    Ore,
    Fruit,
    Crops,
    Animal,
    Fish,
    Whales,
}

/// Base probabilities, indexed by [`Prob`].
const BASE: [f64; 8] = [0.4, 0.15, 0.5, 0.5, 0.5, 0.5, 0.5, 0.4];

/// Per-tribe factors on [`BASE`], indexed by tribe then [`Prob`].
const FACTOR: [[f64; 8]; 4] = [
    [1.0, 1.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], // Xin-Xi
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], // Imperius
    [1.0, 1.0, 1.0, 1.5, 0.1, 2.0, 1.0, 1.0], // Bardur
    [0.1, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], // Oumaji
];

/// The probability `p` on a tile owned by `owner` (factor 1 on unowned tiles).
fn prob(p: Prob, owner: Option<TribeKind>) -> f64 {
    BASE[p as usize] * owner.map_or(1.0, |t| FACTOR[t.index()][p as usize])
}

/// Board side for `n_tribes` tribes: 11 for 1–2, 14 for 3, 16 for 4 (Java `DEFAULT_MAP_SIZE`).
pub fn map_size(n_tribes: usize) -> usize {
    match n_tribes {
        0..=2 => 11,
        3 => 14,
        _ => 16,
    }
}

/// Generates the level for `seed` and `tribes`, named `generated:<seed>`.
///
/// The board side follows the number of distinct tribes ([`map_size`]); repeated tribes are
/// ignored, and an empty list means the experiments' pair `[Xin-Xi, Imperius]`. The same seed and
/// tribes always give the same level. Capitals are listed in row-major order of their tiles.
pub fn generate(seed: u64, tribes: &[TribeKind]) -> Level {
    let tribes = distinct_tribes(tribes);
    let mut g = Generator::new(map_size(tribes.len()), derive_rng(seed, &[LEVELGEN_TAG]));
    g.scatter_land();
    g.smooth();
    g.populate(&tribes);
    g.into_level(format!("generated:{seed}"))
}

/// `tribes` without repeats, in order; the default pair if empty.
fn distinct_tribes(tribes: &[TribeKind]) -> Vec<TribeKind> {
    let mut out: Vec<TribeKind> = Vec::new();
    for &t in tribes {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    if out.is_empty() {
        out = vec![TribeKind::XinXi, TribeKind::Imperius];
    }
    out
}

/// Everything wrong with `level` as a generated level for `tribes` (empty if nothing): one
/// capital per tribe and no other city; capitals on distinct tiles with their radius-1 ring on the
/// board and at least [`MIN_CAPITAL_SPREAD`] apart; at least one village; no resource on a village
/// or city; fish only on shallow water, whales on deep water, ore on mountains, fruit and crops on
/// plains, animals in forests, ruins anywhere but shallow water.
pub fn playability_faults(level: &Level, tribes: &[TribeKind]) -> Vec<String> {
    let mut faults = Vec::new();
    let n = level.size * level.size;
    if level.terrain.len() != n || level.resource.len() != n {
        faults.push(format!("tile vectors are not {0}x{0}", level.size));
        return faults;
    }
    capital_faults(level, tribes, &mut faults);
    if !level.terrain.contains(&Terrain::Village) {
        faults.push("no village".into());
    }
    for i in 0..n {
        if let Some(r) = level.resource[i]
            && !resource_fits(r, level.terrain[i])
        {
            let (x, y) = (i / level.size, i % level.size);
            faults.push(format!("{r} on {} at ({x}, {y})", level.terrain[i]));
        }
    }
    faults
}

/// True if a generated level may hold resource `r` on terrain `t`.
fn resource_fits(r: Resource, t: Terrain) -> bool {
    match r {
        Resource::Fish => t == Terrain::Shallow,
        Resource::Whales => t == Terrain::Deep,
        Resource::Ore => t == Terrain::Mountain,
        Resource::Fruit | Resource::Crops => t == Terrain::Plain,
        Resource::Animal => t == Terrain::Forest,
        Resource::Ruins => !matches!(t, Terrain::Shallow | Terrain::Village | Terrain::City),
    }
}

/// The capital part of [`playability_faults`].
fn capital_faults(level: &Level, tribes: &[TribeKind], faults: &mut Vec<String>) {
    let size = level.size;
    let mut got = level.tribes();
    let mut want = distinct_tribes(tribes);
    got.sort();
    want.sort();
    if got != want {
        faults.push(format!("capitals of {got:?}, expected {want:?}"));
    }
    let cities = level
        .terrain
        .iter()
        .filter(|&&t| t == Terrain::City)
        .count();
    if cities != level.capitals.len() {
        faults.push(format!(
            "{cities} cities for {} capitals",
            level.capitals.len()
        ));
    }
    for (k, &(a, tribe)) in level.capitals.iter().enumerate() {
        let (x, y) = (a / size, a % size);
        if level.terrain.get(a) != Some(&Terrain::City) {
            faults.push(format!("capital of {tribe} at ({x}, {y}) is not a city"));
        }
        if x == 0 || y == 0 || x + 1 >= size || y + 1 >= size {
            faults.push(format!(
                "ring of the {tribe} capital at ({x}, {y}) leaves the board"
            ));
        }
        for &(b, other) in &level.capitals[k + 1..] {
            let d = distance(size, a, b);
            if d < MIN_CAPITAL_SPREAD {
                faults.push(format!("capitals of {tribe} and {other} are {d} apart"));
            }
        }
    }
}

/// Chebyshev distance between tiles `a` and `b`.
fn distance(size: usize, a: usize, b: usize) -> usize {
    let (ax, ay) = (a / size, a % size);
    let (bx, by) = (b / size, b % size);
    ax.abs_diff(bx).max(ay.abs_diff(by))
}

/// The ring of tiles at Chebyshev distance `r` from `c`, clipped to the board, in the Java order
/// (spec §2.4 `circle`): top row left→right, bottom row right→left, left column bottom→top,
/// right column top→bottom.
fn circle(size: usize, c: usize, r: usize) -> Vec<usize> {
    let (n, r) = (size as isize, r as isize);
    let (row, col) = ((c / size) as isize, (c % size) as isize);
    let mut out = Vec::with_capacity(8 * r as usize);
    let mut add = |x: isize, y: isize| {
        if (0..n).contains(&x) && (0..n).contains(&y) {
            out.push((x * n + y) as usize);
        }
    };
    for y in col - r..col + r {
        add(row - r, y);
    }
    for y in (col - r + 1..=col + r).rev() {
        add(row + r, y);
    }
    for x in (row - r + 1..=row + r).rev() {
        add(x, col - r);
    }
    for x in row - r..row + r {
        add(x, col + r);
    }
    out
}

/// `circle(c, 1) + … + circle(c, r) + c`.
fn disk(size: usize, c: usize, r: usize) -> Vec<usize> {
    let mut out: Vec<usize> = (1..=r).flat_map(|k| circle(size, c, k)).collect();
    out.push(c);
    out
}

/// The W, E, N, S neighbours of `c` on the board.
fn cross(size: usize, c: usize) -> Vec<usize> {
    let (x, y) = (c / size, c % size);
    let mut out = Vec::with_capacity(4);
    if y > 0 {
        out.push(c - 1);
    }
    if y + 1 < size {
        out.push(c + 1);
    }
    if x > 0 {
        out.push(c - size);
    }
    if x + 1 < size {
        out.push(c + size);
    }
    out
}

/// A level under construction.
struct Generator {
    size: usize,
    rng: Rng,
    terrain: Vec<Terrain>,
    resource: Vec<Option<Resource>>,
    /// Territory owner per tile (capital tiles stay unowned).
    owner: Vec<Option<TribeKind>>,
    /// Village map (`V_*` values).
    village: Vec<i8>,
    /// Capitals in placement (tribe) order.
    capitals: Vec<(usize, TribeKind)>,
}

impl Generator {
    /// An all-deep board.
    fn new(size: usize, rng: Rng) -> Self {
        let n = size * size;
        Generator {
            size,
            rng,
            terrain: vec![Terrain::Deep; n],
            resource: vec![None; n],
            owner: vec![None; n],
            village: vec![V_FREE; n],
            capitals: Vec::new(),
        }
    }

    /// Steps 3–11 on the land and water made so far.
    fn populate(&mut self, tribes: &[TribeKind]) {
        for &tribe in tribes {
            self.place_capital(tribe);
        }
        self.claim_territory();
        self.grow_forests_and_mountains();
        self.init_village_map();
        self.make_coasts();
        self.place_villages();
        self.place_resources();
        self.place_ruins();
        self.guarantee_capital_resources();
    }

    /// Number of tiles.
    fn tiles(&self) -> usize {
        self.size * self.size
    }

    /// A uniformly chosen element of a non-empty slice (`None` if empty).
    fn choose(&mut self, items: &[usize]) -> Option<usize> {
        if items.is_empty() {
            return None;
        }
        Some(items[self.rng.random_range(0..items.len())])
    }

    /// A draw in `[0, 1)`.
    fn uniform(&mut self) -> f64 {
        self.rng.random::<f64>()
    }

    /// Step 1: `⌈size² × 0.5⌉` distinct random tiles become plain (a partial Fisher–Yates shuffle,
    /// the bounded equivalent of Java's draw-until-deep loop).
    fn scatter_land(&mut self) {
        let n = self.tiles();
        let target = ((n as f64 * INITIAL_LAND).ceil() as usize).min(n);
        let mut cells: Vec<usize> = (0..n).collect();
        for k in 0..target {
            let j = self.rng.random_range(k..n);
            cells.swap(k, j);
            self.terrain[cells[k]] = Terrain::Plain;
        }
    }

    /// Step 2: smoothing passes; a tile is land if at most [`LAND_COEFFICIENT`] of its radius-1
    /// disk is deep, deep otherwise. Each pass starts afresh (Java keeps the marks: quirk 11).
    fn smooth(&mut self) {
        for _ in 0..SMOOTHING_PASSES {
            self.terrain = (0..self.tiles())
                .map(|c| {
                    let disk = disk(self.size, c, 1);
                    let deep = disk
                        .iter()
                        .filter(|&&i| self.terrain[i] == Terrain::Deep)
                        .count();
                    if deep as f64 / disk.len() as f64 <= LAND_COEFFICIENT {
                        Terrain::Plain
                    } else {
                        Terrain::Deep
                    }
                })
                .collect();
        }
    }

    /// True if tile `c` is far enough from the edge for a capital.
    fn in_capital_zone(&self, c: usize) -> bool {
        let (x, y) = (c / self.size, c % self.size);
        let zone = CAPITAL_MARGIN..self.size - CAPITAL_MARGIN;
        zone.contains(&x) && zone.contains(&y)
    }

    /// Step 3 for one tribe: the plain tile of the capital zone farthest (max-min Chebyshev) from
    /// the capitals placed so far, ties broken uniformly. If no plain tile is at least
    /// [`MIN_CAPITAL_SPREAD`] away, the farthest tile of the whole zone is taken and raised to a
    /// small island (its radius-1 disk becomes plain where it was deep).
    fn place_capital(&mut self, tribe: TribeKind) {
        let zone: Vec<usize> = (0..self.tiles())
            .filter(|&c| self.in_capital_zone(c) && self.terrain[c] != Terrain::City)
            .collect();
        let plain: Vec<usize> = zone
            .iter()
            .copied()
            .filter(|&c| self.terrain[c] == Terrain::Plain)
            .collect();
        let cell = match self.farthest(&plain) {
            Some((c, spread)) if spread >= MIN_CAPITAL_SPREAD => c,
            _ => match self.farthest(&zone) {
                Some((c, _)) => {
                    self.raise_island(c);
                    c
                }
                None => return, // the zone is full of capitals: cannot happen for ≤ 4 tribes
            },
        };
        self.terrain[cell] = Terrain::City;
        self.capitals.push((cell, tribe));
    }

    /// The candidate farthest from the placed capitals (ties broken uniformly), with its distance.
    fn farthest(&mut self, candidates: &[usize]) -> Option<(usize, usize)> {
        let spread = |c: usize| {
            self.capitals
                .iter()
                .map(|&(k, _)| distance(self.size, c, k))
                .fold(self.size, usize::min)
        };
        let best = candidates.iter().map(|&c| spread(c)).max()?;
        let ties: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&c| spread(c) == best)
            .collect();
        self.choose(&ties).map(|c| (c, best))
    }

    /// Makes the deep tiles of `c`'s radius-1 disk plain.
    fn raise_island(&mut self, c: usize) {
        for i in disk(self.size, c, 1) {
            if self.terrain[i] == Terrain::Deep {
                self.terrain[i] = Terrain::Plain;
            }
        }
    }

    /// Step 4: territory by flood fill from the capitals, round-robin over tribes: a random active
    /// tile of the tribe claims a random unclaimed neighbour (non-deep preferred) or, having none,
    /// goes inactive. Each step claims or retires a tile, so it ends within 2 × size² steps.
    fn claim_territory(&mut self) {
        let mut done = vec![false; self.tiles()];
        let mut active: Vec<Vec<usize>> = self.capitals.iter().map(|&(c, _)| vec![c]).collect();
        for &(c, _) in &self.capitals {
            done[c] = true;
        }
        while active.iter().any(|a| !a.is_empty()) {
            for (t, list) in active.iter_mut().enumerate() {
                let Some(k) = self.pick_index(list.len()) else {
                    continue;
                };
                match self.pick_unclaimed_neighbour(list[k], &done) {
                    Some(next) => {
                        done[next] = true;
                        self.owner[next] = Some(self.capitals[t].1);
                        list.push(next);
                    }
                    None => {
                        list.swap_remove(k);
                    }
                }
            }
        }
    }

    /// A uniform index below `len`, `None` if `len` is 0.
    fn pick_index(&mut self, len: usize) -> Option<usize> {
        (len > 0).then(|| self.rng.random_range(0..len))
    }

    /// A random unclaimed neighbour of `tile`, preferring non-deep tiles.
    fn pick_unclaimed_neighbour(&mut self, tile: usize, done: &[bool]) -> Option<usize> {
        let free: Vec<usize> = circle(self.size, tile, 1)
            .into_iter()
            .filter(|&i| !done[i])
            .collect();
        let land: Vec<usize> = free
            .iter()
            .copied()
            .filter(|&i| self.terrain[i] != Terrain::Deep)
            .collect();
        if land.is_empty() {
            self.choose(&free)
        } else {
            self.choose(&land)
        }
    }

    /// Step 5: each plain tile becomes forest with P(FOREST), else mountain with P(MOUNTAIN), by
    /// its owner's probabilities.
    fn grow_forests_and_mountains(&mut self) {
        for i in 0..self.tiles() {
            if self.terrain[i] != Terrain::Plain {
                continue;
            }
            let owner = self.owner[i];
            let u = self.uniform();
            if u < prob(Prob::Forest, owner) {
                self.terrain[i] = Terrain::Forest;
            } else if u > 1.0 - prob(Prob::Mountain, owner) {
                self.terrain[i] = Terrain::Mountain;
            }
        }
    }

    /// Step 6: no village on water, mountains or the board's edge.
    fn init_village_map(&mut self) {
        for i in 0..self.tiles() {
            let (x, y) = (i / self.size, i % self.size);
            let edge = x == 0 || y == 0 || x + 1 == self.size || y + 1 == self.size;
            let t = self.terrain[i];
            self.village[i] = if edge || t.is_water() || t == Terrain::Mountain {
                V_BLOCKED
            } else {
                V_FREE
            };
        }
    }

    /// Step 7: every deep tile with a land tile in its cross becomes shallow (Java turns the land
    /// tile into water instead: quirk 11).
    fn make_coasts(&mut self) {
        let before = self.terrain.clone();
        for i in 0..self.tiles() {
            let coastal = cross(self.size, i).iter().any(|&k| !before[k].is_water());
            if before[i] == Terrain::Deep && coastal {
                self.terrain[i] = Terrain::Shallow;
            }
        }
    }

    /// Marks `c` as a village or capital and its surroundings as spread (rings 1 and 2).
    fn mark_village(&mut self, c: usize) {
        self.village[c] = V_VILLAGE;
        for i in circle(self.size, c, 1) {
            self.village[i] = self.village[i].max(V_INNER);
        }
        for i in circle(self.size, c, 2) {
            self.village[i] = self.village[i].max(V_OUTER);
        }
    }

    /// Step 8: capitals, then villages on the first free tile until none is free; if that gives
    /// no village at all, one is forced on the inner tile farthest from the capitals.
    fn place_villages(&mut self) {
        for k in 0..self.capitals.len() {
            self.mark_village(self.capitals[k].0);
        }
        let mut placed = 0;
        while let Some(c) = self.village.iter().position(|&v| v == V_FREE) {
            self.mark_village(c);
            placed += 1;
        }
        if placed == 0 {
            self.force_village();
        }
    }

    /// Places a village on an inner (non-edge, non-city) tile: one not next to a capital if
    /// possible, then land if possible, then farthest from the capitals, lowest index first. A
    /// water or mountain tile chosen becomes plain, and the deep water in its cross shallow.
    fn force_village(&mut self) {
        let size = self.size;
        let key = |c: usize| {
            let land = matches!(self.terrain[c], Terrain::Plain | Terrain::Forest);
            let spread = self
                .capitals
                .iter()
                .map(|&(k, _)| distance(size, c, k))
                .fold(size, usize::min);
            (spread > 1, land, spread)
        };
        let inner = (0..self.tiles()).filter(|&c| {
            let (x, y) = (c / size, c % size);
            x > 0 && y > 0 && x + 1 < size && y + 1 < size && self.terrain[c] != Terrain::City
        });
        let Some(c) = inner.rev().max_by_key(|&c| key(c)) else {
            return;
        };
        if !matches!(self.terrain[c], Terrain::Plain | Terrain::Forest) {
            self.terrain[c] = Terrain::Plain;
            for k in cross(size, c) {
                if self.terrain[k] == Terrain::Deep {
                    self.terrain[k] = Terrain::Shallow;
                }
            }
        }
        self.mark_village(c);
    }

    /// `proc(p)` of step 9: a draw against `p` next to a village, against `p / 3` two steps
    /// away, no draw (false) elsewhere.
    fn proc(&mut self, village: i8, p: f64) -> bool {
        match village {
            V_INNER => self.uniform() < p,
            V_OUTER => self.uniform() < p / 3.0,
            _ => false,
        }
    }

    /// Step 9: villages on marked plains and forests, and resources near villages.
    fn place_resources(&mut self) {
        for i in 0..self.tiles() {
            let (v, owner) = (self.village[i], self.owner[i]);
            let t = self.terrain[i];
            if v == V_VILLAGE && matches!(t, Terrain::Plain | Terrain::Forest) {
                self.terrain[i] = Terrain::Village;
                continue;
            }
            self.resource[i] = match t {
                Terrain::Plain => self.plain_resource(v, owner),
                Terrain::Forest => self
                    .proc(v, prob(Prob::Animal, owner))
                    .then_some(Resource::Animal),
                Terrain::Shallow => self
                    .proc(v, prob(Prob::Fish, owner))
                    .then_some(Resource::Fish),
                Terrain::Deep => self
                    .proc(v, prob(Prob::Whales, owner))
                    .then_some(Resource::Whales),
                Terrain::Mountain => self
                    .proc(v, prob(Prob::Ore, owner))
                    .then_some(Resource::Ore),
                Terrain::Village | Terrain::City => None,
            };
        }
    }

    /// Fruit or crops (or nothing) on a plain tile.
    fn plain_resource(&mut self, v: i8, owner: Option<TribeKind>) -> Option<Resource> {
        let (fruit, crops) = (prob(Prob::Fruit, owner), prob(Prob::Crops, owner));
        if self.proc(v, fruit * (1.0 - crops / 2.0)) {
            Some(Resource::Fruit)
        } else if self.proc(v, crops * (1.0 - fruit / 2.0)) {
            Some(Resource::Crops)
        } else {
            None
        }
    }

    /// Step 10: `round(size²/40)` ruins, at most `round(that/3)` on deep water, none on shallow
    /// water, villages or cities, none near a village, none twice on a tile nor next to another.
    fn place_ruins(&mut self) {
        let target = (self.tiles() as f64 / 40.0).round() as usize;
        let water_quota = (target as f64 / 3.0).round() as usize;
        let mut on_water = 0;
        for _ in 0..target {
            let deep_ok = on_water < water_quota;
            let candidates: Vec<usize> = (0..self.tiles())
                .filter(|&i| self.ruin_allowed(i, deep_ok))
                .collect();
            let Some(c) = self.choose(&candidates) else {
                break;
            };
            self.resource[c] = Some(Resource::Ruins);
            if self.terrain[c] == Terrain::Deep {
                on_water += 1;
            }
            self.village[c] = V_INNER;
            for i in circle(self.size, c, 1) {
                self.village[i] = self.village[i].max(V_INNER);
            }
        }
    }

    /// True if ruins may go on tile `i`.
    fn ruin_allowed(&self, i: usize, deep_ok: bool) -> bool {
        let spot = matches!(self.village[i], V_BLOCKED | V_FREE | V_OUTER);
        spot && match self.terrain[i] {
            Terrain::Shallow | Terrain::Village | Terrain::City => false,
            Terrain::Deep => deep_ok,
            _ => true,
        }
    }

    /// Step 11: Imperius capitals get two plains with fruit, Bardur capitals two forests with
    /// animals, in their radius-1 ring.
    fn guarantee_capital_resources(&mut self) {
        for k in 0..self.capitals.len() {
            let (c, tribe) = self.capitals[k];
            match tribe {
                TribeKind::Imperius => self.guarantee(c, Terrain::Plain, Resource::Fruit),
                TribeKind::Bardur => self.guarantee(c, Terrain::Forest, Resource::Animal),
                _ => {}
            }
        }
    }

    /// Overwrites random ring tiles of `capital` with `terrain` + `resource` until two have it;
    /// deep water in the cross of an overwritten tile becomes shallow (dropping whales or ruins).
    fn guarantee(&mut self, capital: usize, terrain: Terrain, resource: Resource) {
        let ring = circle(self.size, capital, 1);
        let has = |g: &Self, i: usize| g.terrain[i] == terrain && g.resource[i] == Some(resource);
        while ring.iter().filter(|&&i| has(self, i)).count() < 2 {
            let options: Vec<usize> = ring
                .iter()
                .copied()
                .filter(|&i| {
                    !has(self, i) && !matches!(self.terrain[i], Terrain::City | Terrain::Village)
                })
                .collect();
            let Some(i) = self.choose(&options) else {
                return;
            };
            self.terrain[i] = terrain;
            self.resource[i] = Some(resource);
            for k in cross(self.size, i) {
                if self.terrain[k] == Terrain::Deep {
                    self.terrain[k] = Terrain::Shallow;
                    self.resource[k] = None;
                }
            }
        }
    }

    /// The finished level, capitals in row-major order.
    fn into_level(mut self, name: String) -> Level {
        self.capitals.sort_by_key(|&(c, _)| c);
        Level {
            name,
            size: self.size,
            terrain: self.terrain,
            resource: self.resource,
            capitals: self.capitals,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circle_lists_the_ring_in_java_order() {
        // 5x5 board, centre (2, 2) = 12.
        assert_eq!(circle(5, 12, 1), [6, 7, 18, 17, 16, 11, 8, 13]);
        assert_eq!(circle(5, 12, 2).len(), 16);
        assert_eq!(circle(5, 0, 1), [6, 5, 1]);
        assert_eq!(disk(5, 12, 1).len(), 9);
        assert_eq!(cross(5, 0), [1, 5]);
    }

    #[test]
    fn map_sizes_follow_the_number_of_tribes() {
        use TribeKind::*;
        assert_eq!(generate(1, &[XinXi]).size, 11);
        assert_eq!(generate(1, &[XinXi, Imperius]).size, 11);
        assert_eq!(generate(1, &[XinXi, Imperius, Bardur]).size, 14);
        assert_eq!(generate(1, &[XinXi, Imperius, Bardur, Oumaji]).size, 16);
    }

    #[test]
    fn generated_levels_are_playable_and_named_after_their_seed() {
        let tribes = [TribeKind::Bardur, TribeKind::Imperius];
        for seed in 0..50 {
            let level = generate(seed, &tribes);
            assert_eq!(level.name, format!("generated:{seed}"));
            assert_eq!(playability_faults(&level, &tribes), Vec::<String>::new());
        }
    }

    #[test]
    fn repeated_or_missing_tribes_fall_back_sensibly() {
        use TribeKind::*;
        assert_eq!(generate(3, &[Bardur, Bardur]).tribes(), [Bardur]);
        let mut pair = generate(3, &[]).tribes();
        pair.sort();
        assert_eq!(pair, [XinXi, Imperius]);
    }

    #[test]
    fn imperius_and_bardur_capitals_get_their_two_resources() {
        use TribeKind::*;
        for seed in 0..30 {
            let level = generate(seed, &[Imperius, Bardur]);
            for &(c, tribe) in &level.capitals {
                let (t, r) = if tribe == Imperius {
                    (Terrain::Plain, Resource::Fruit)
                } else {
                    (Terrain::Forest, Resource::Animal)
                };
                let count = circle(level.size, c, 1)
                    .into_iter()
                    .filter(|&i| level.terrain[i] == t && level.resource[i] == Some(r))
                    .count();
                assert!(count >= 2, "seed {seed} {tribe}: {count}");
            }
        }
    }

    /// A level made by steps 3–11 on a board of `size` tiles of `terrain`.
    fn populate_uniform(terrain: Terrain, size: usize, tribes: &[TribeKind], seed: u64) -> Level {
        let mut g = Generator::new(size, derive_rng(seed, &[]));
        g.terrain = vec![terrain; size * size];
        g.populate(tribes);
        g.into_level("uniform".into())
    }

    #[test]
    fn all_water_and_all_land_boards_still_give_playable_levels() {
        use TribeKind::*;
        for tribes in [&[Imperius, Bardur][..], &[XinXi, Imperius, Bardur, Oumaji]] {
            for terrain in [Terrain::Deep, Terrain::Plain] {
                for seed in 0..5 {
                    let size = map_size(tribes.len());
                    let level = populate_uniform(terrain, size, tribes, seed);
                    let faults = playability_faults(&level, tribes);
                    assert!(faults.is_empty(), "{terrain} {seed}: {faults:?}");
                }
            }
        }
    }

    #[test]
    fn faults_are_reported() {
        let mut level = generate(5, &[TribeKind::XinXi, TribeKind::Imperius]);
        let deep = level
            .terrain
            .iter()
            .position(|&t| t == Terrain::Deep)
            .unwrap();
        level.resource[deep] = Some(Resource::Fish);
        for t in level.terrain.iter_mut() {
            if *t == Terrain::Village {
                *t = Terrain::Plain;
            }
        }
        let faults = playability_faults(&level, &[TribeKind::XinXi]);
        assert_eq!(faults.len(), 3, "{faults:?}");
    }
}
