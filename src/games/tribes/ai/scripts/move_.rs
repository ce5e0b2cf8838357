//! MOVE scripts (spec §15.5; Java `MoveTo*Scr`, `MoveDefensivelyScr`, `MoveOffensivelyScr`).
//!
//! *Towards* scripts pick the destination closest (Chebyshev) to any point of interest, valued
//! `1 − d / dmax` with `dmax` the largest destination-to-point distance. Distances come from
//! one distance map per kind of point, made once per [`ScriptCtx`] (O(tiles)), so a script
//! costs O(destinations). *Position* scripts value each destination by the units around it and
//! fire only above a threshold.

use super::ScriptCtx;
use super::common::{Best, Pick, normalise};
use crate::games::tribes::movement::MAX_TILES;
use crate::games::tribes::state::MAX_TRIBES;
use crate::games::tribes::state::{NONE, State, Tile};
use crate::games::tribes::{Action, Building, Resource, Terrain};
use crate::rng::Rng;

type Proposal = Option<(Action, f64)>;

/// Kinds of points of interest of the *towards* scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interest {
    /// Ruins, villages and cities of other tribes.
    Capture,
    /// Own city centres.
    OwnCity,
    /// Tiles of own territory.
    OwnTerritory,
    /// Tiles of other tribes' territory.
    EnemyTerritory,
    /// Land tiles.
    Land,
    /// Ports in own territory.
    OwnPort,
}

const KINDS: usize = 6;

impl Interest {
    fn holds(self, s: &State, tribe: u8, t: usize) -> bool {
        let tile = &s.tiles[t];
        let owned = tile.owner != NONE;
        match self {
            Interest::Capture => {
                tile.resource == Some(Resource::Ruins)
                    || tile.terrain == Terrain::Village
                    || (tile.terrain == Terrain::City && tile.tribe != tribe)
            }
            Interest::OwnCity => tile.terrain == Terrain::City && tile.tribe == tribe,
            Interest::OwnTerritory => owned && tile.tribe == tribe,
            Interest::EnemyTerritory => owned && tile.tribe != tribe,
            Interest::Land => !tile.terrain.is_water(),
            Interest::OwnPort => {
                owned && tile.tribe == tribe && tile.building == Some(Building::Port)
            }
        }
    }
}

/// Chebyshev distance from every tile to the nearest point of interest, and the points'
/// bounding box (which gives the farthest point's distance exactly).
#[derive(Clone)]
struct DistMap {
    dist: [u8; MAX_TILES],
    rows: (i32, i32),
    cols: (i32, i32),
}

impl Default for DistMap {
    fn default() -> Self {
        DistMap {
            dist: [u8::MAX; MAX_TILES],
            rows: (0, 0),
            cols: (0, 0),
        }
    }
}

impl DistMap {
    /// Distance of tiles not reached yet (above any distance on a 32 × 32 board).
    const FAR: u8 = 250;

    /// Fills the map for `kind` (a two-pass chessboard distance transform, exact for the
    /// Chebyshev metric); false if the board has no such point.
    fn fill(&mut self, s: &State, tribe: u8, kind: Interest) -> bool {
        let n = s.n();
        let tiles = (n * n).min(MAX_TILES);
        let d = &mut self.dist;
        self.rows = (i32::MAX, i32::MIN);
        self.cols = (i32::MAX, i32::MIN);
        let mut found = false;
        for (t, dt) in d.iter_mut().enumerate().take(tiles) {
            if kind.holds(s, tribe, t) {
                *dt = 0;
                found = true;
                let (x, y) = s.xy(t);
                self.rows = (self.rows.0.min(x), self.rows.1.max(x));
                self.cols = (self.cols.0.min(y), self.cols.1.max(y));
            } else {
                *dt = Self::FAR;
            }
        }
        if !found {
            return false;
        }
        // Forward pass, row by row: first the three neighbours in the row above (a row at a
        // time, which vectorises), then the left neighbour, in order along the row.
        for x in 0..n {
            let (above, rest) = d[..tiles].split_at_mut(x * n);
            let row = &mut rest[..n];
            if x > 0 {
                near_row(row, &above[(x - 1) * n..]);
            }
            for y in 1..n {
                row[y] = row[y].min(row[y - 1] + 1);
            }
        }
        // Backward pass: the row below, then the right neighbour, from the right.
        for x in (0..n).rev() {
            let (head, below) = d[..tiles].split_at_mut((x + 1) * n);
            let row = &mut head[x * n..];
            if x + 1 < n {
                near_row(row, &below[..n]);
            }
            for y in (0..n - 1).rev() {
                row[y] = row[y].min(row[y + 1] + 1);
            }
        }
        true
    }

    /// Distance from `t` to the farthest point of interest.
    #[inline]
    fn farthest(&self, s: &State, t: usize) -> i32 {
        let (x, y) = s.xy(t);
        (x - self.rows.0)
            .abs()
            .max((x - self.rows.1).abs())
            .max((y - self.cols.0).abs())
            .max((y - self.cols.1).abs())
    }
}

/// One step of the distance transform between adjacent rows: each tile of `row` takes the
/// distance through its nearest of the three tiles of `other` beside it (the row above or
/// below), if shorter. Distances stay at most [`DistMap::FAR`], so `+ 1` cannot overflow.
#[inline]
fn near_row(row: &mut [u8], other: &[u8]) {
    let n = row.len();
    let other = &other[..n];
    if n == 1 {
        row[0] = row[0].min(other[0] + 1);
        return;
    }
    row[0] = row[0].min(other[0].min(other[1]) + 1);
    row[n - 1] = row[n - 1].min(other[n - 2].min(other[n - 1]) + 1);
    let (left, mid, right) = (&other[..n - 2], &other[1..n - 1], &other[2..]);
    for (((r, &l), &m), &rt) in row[1..n - 1].iter_mut().zip(left).zip(mid).zip(right) {
        *r = (*r).min(l.min(m).min(rt) + 1);
    }
}

/// Number of units of one side within radius `r` of every tile (the tile itself excluded).
#[derive(Clone)]
struct CountMap([u8; MAX_TILES]);

impl Default for CountMap {
    fn default() -> Self {
        CountMap([0; MAX_TILES])
    }
}

impl CountMap {
    /// Counts the units of `tribe` (`own`) or of every other tribe (`!own`).
    fn fill(&mut self, s: &State, tribe: u8, own: bool, r: i32) {
        self.0[..s.tiles.len().min(MAX_TILES)].fill(0);
        for u in &s.units {
            if u.alive && (u.tribe == tribe) == own {
                s.neighbourhood(u.pos as usize, r, |t| self.0[t] += 1);
            }
        }
    }
}

/// Longest attack range of any unit type.
const MAX_RANGE: usize = 3;

/// Reusable buffers of the move scripts, made on first use after each
/// [`InterestCache::prepare`]: a distance map per kind of point of interest, the number of own
/// units next to each tile, and the number of enemy units within each attack range.
#[derive(Clone)]
pub struct InterestCache {
    /// Per tribe, [`BOARDS`] entries each: the distance maps of the last few boards seen
    /// (searches go back and forth between a handful, e.g. before and after a capture). On
    /// the heap: 100 KiB on the stack would make every caller probe its pages.
    boards: Vec<BoardMaps>,
    /// Per tribe: the entry of `boards` in use, and the one to replace next.
    current: [usize; MAX_TRIBES],
    next: [usize; MAX_TRIBES],
    /// The signature was checked for the state last prepared.
    checked: bool,
    own_made: bool,
    own: CountMap,
    enemy_made: [bool; MAX_RANGE],
    enemy: [CountMap; MAX_RANGE],
}

impl Default for InterestCache {
    fn default() -> Self {
        InterestCache {
            boards: (0..MAX_TRIBES * BOARDS)
                .map(|_| BoardMaps::default())
                .collect(),
            current: [0; MAX_TRIBES],
            next: [0; MAX_TRIBES],
            checked: false,
            own_made: false,
            own: CountMap::default(),
            enemy_made: [false; MAX_RANGE],
            enemy: Default::default(),
        }
    }
}

/// Boards whose distance maps [`InterestCache`] keeps per tribe.
const BOARDS: usize = 4;

/// The distance maps of one board for one tribe.
#[derive(Clone, Default)]
struct BoardMaps {
    /// Signature of the tile facts the maps depend on (see [`InterestCache::check`]).
    signature: Option<u64>,
    /// Per kind: not made yet, made and empty, or made with points.
    state: [Option<bool>; KINDS],
    maps: [DistMap; KINDS],
}

impl InterestCache {
    /// Prepares the cache for a new state: the unit-count maps will be remade, and the
    /// distance maps checked on first use ([`InterestCache::get`]) unless `same_board` says
    /// the board facts are those of the state last prepared.
    pub fn prepare(&mut self, same_board: bool) {
        self.checked &= same_board;
        self.own_made = false;
        self.enemy_made = [false; MAX_RANGE];
    }

    /// Makes `tribe`'s distance maps those of the board of `s` (the facts they depend on:
    /// terrain, ruins, ports, territory): kept if they are, else one of the last [`BOARDS`]
    /// boards' if it matches, else emptied to be made anew. Searches ask for thousands of
    /// nearly identical states, whose distance maps are the same; the check (a hash of the
    /// board) runs once per prepared state, and only if a distance map is asked for.
    fn check(&mut self, s: &State, tribe: u8) {
        self.checked = true;
        let fact = |tile: &Tile| {
            tile.terrain as u64
                | ((tile.resource == Some(Resource::Ruins)) as u64) << 3
                | ((tile.building == Some(Building::Port)) as u64) << 4
                | (tile.tribe as u64) << 5
                | ((tile.owner != NONE) as u64) << 13
        };
        // Four interleaved FNV-style lanes: one multiply chain per lane, not per tile.
        let step = |h: u64, tile| (h ^ fact(tile)).wrapping_mul(0x0000_0100_0000_01B3);
        let mut lanes = [crate::rng::mix64(s.size as u64), 1, 2, 3];
        let chunks = s.tiles.chunks_exact(4);
        let rest = chunks.remainder();
        for c in chunks {
            for (h, tile) in lanes.iter_mut().zip(c) {
                *h = step(*h, tile);
            }
        }
        for (h, tile) in lanes.iter_mut().zip(rest) {
            *h = step(*h, tile);
        }
        let h = lanes
            .iter()
            .fold(0u64, |acc, &x| crate::rng::mix64(acc ^ x));
        let p = (tribe as usize).min(MAX_TRIBES - 1);
        let mine = &mut self.boards[p * BOARDS..(p + 1) * BOARDS];
        if mine[self.current[p]].signature == Some(h) {
            return;
        }
        if let Some(i) = mine.iter().position(|b| b.signature == Some(h)) {
            self.current[p] = i;
            return;
        }
        let i = self.next[p];
        self.next[p] = (i + 1) % BOARDS;
        self.current[p] = i;
        let board = &mut mine[i];
        board.signature = Some(h);
        board.state = [None; KINDS];
    }

    fn get(&mut self, s: &State, tribe: u8, kind: Interest) -> Option<&DistMap> {
        if !self.checked {
            self.check(s, tribe);
        }
        let (p, k) = ((tribe as usize).min(MAX_TRIBES - 1), kind as usize);
        let board = &mut self.boards[p * BOARDS + self.current[p]];
        let found = match board.state[k] {
            Some(found) => found,
            None => {
                let found = board.maps[k].fill(s, tribe, kind);
                board.state[k] = Some(found);
                found
            }
        };
        found.then_some(&board.maps[k])
    }

    /// Own units next to each tile.
    fn own(&mut self, s: &State, tribe: u8) -> &CountMap {
        if !self.own_made {
            self.own_made = true;
            self.own.fill(s, tribe, true, 1);
        }
        &self.own
    }

    /// Enemy units within `r` (1 to [`MAX_RANGE`]) of each tile.
    fn enemy(&mut self, s: &State, tribe: u8, r: i32) -> &CountMap {
        let k = (r.clamp(1, MAX_RANGE as i32) - 1) as usize;
        if !self.enemy_made[k] {
            self.enemy_made[k] = true;
            self.enemy[k].fill(s, tribe, false, k as i32 + 1);
        }
        &self.enemy[k]
    }
}

/// Number of on-board tiles within `r` of `t`, `t` excluded.
#[inline]
fn around(s: &State, t: usize, r: i32) -> u32 {
    let n = s.size as i32;
    let (x, y) = s.xy(t);
    let span = |c: i32| ((c + r).min(n - 1) - (c - r).max(0) + 1) as u32;
    span(x) * span(y) - 1
}

/// The destination closest to a point of `kind`, uniform among ties.
///
/// (Java keeps one candidate per (destination, point) pair at the minimum distance, so a
/// destination tied with several points is likelier; here tied destinations are equally
/// likely.)
fn towards(ctx: &mut ScriptCtx<'_>, actions: &[Action], kind: Interest, rng: &mut Rng) -> Proposal {
    let ScriptCtx {
        state: s,
        tribe,
        interest,
        ..
    } = ctx;
    let map = interest.get(s, *tribe, kind)?;
    let (mut nearest, mut farthest) = (u8::MAX, 0);
    let mut pick = Pick::default();
    for &a in actions {
        let t = a.target as usize;
        let d = map.dist[t];
        farthest = farthest.max(map.farthest(s, t));
        if d < nearest {
            nearest = d;
            pick.reset();
        }
        if d == nearest {
            pick.add(a, rng);
        }
    }
    let value = 1.0 - normalise(nearest as f64, 0.0, farthest as f64);
    pick.get().map(|a| (a, value))
}

/// True if the acting unit of `actions` stands on water.
fn on_water(s: &State, actions: &[Action]) -> bool {
    actions.first().is_some_and(|a| {
        let u = &s.units[a.actor as usize];
        s.tiles[u.pos as usize].terrain.is_water()
    })
}

/// `move.to_capture`: towards ruins, villages and other tribes' cities.
pub fn to_capture(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    towards(ctx, a, Interest::Capture, rng)
}

/// `move.to_own_city`: towards an own city centre.
pub fn to_own_city(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    towards(ctx, a, Interest::OwnCity, rng)
}

/// `move.defensively`: towards (or within) own territory.
pub fn defensively(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    towards(ctx, a, Interest::OwnTerritory, rng)
}

/// `move.offensively`: towards (or within) other tribes' territory.
pub fn offensively(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    towards(ctx, a, Interest::EnemyTerritory, rng)
}

/// `move.to_disembark`: for a unit on water, towards land.
pub fn to_disembark(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    if !on_water(ctx.state, a) {
        return None;
    }
    towards(ctx, a, Interest::Land, rng)
}

/// `move.to_embark`: for a unit on land, towards an own port.
pub fn to_embark(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    if on_water(ctx.state, a) {
        return None;
    }
    towards(ctx, a, Interest::OwnPort, rng)
}

/// True if the board has a point of `kind` ([`towards`] proposes nothing otherwise).
fn has_points(ctx: &mut ScriptCtx<'_>, kind: Interest) -> bool {
    ctx.interest.get(ctx.state, ctx.tribe, kind).is_some()
}

/// Whether [`to_disembark`] may propose a move of the unit of `first`: it stands on water
/// and the board has land.
pub fn may_disembark(ctx: &mut ScriptCtx<'_>, first: Action) -> bool {
    on_water(ctx.state, &[first]) && has_points(ctx, Interest::Land)
}

/// Whether [`to_embark`] may propose a move of the unit of `first`: it stands on land and its
/// tribe has a port.
pub fn may_embark(ctx: &mut ScriptCtx<'_>, first: Action) -> bool {
    !on_water(ctx.state, &[first]) && has_points(ctx, Interest::OwnPort)
}

/// `count` out of the on-board tiles within `r` of `t` (excluding `t`).
#[inline]
fn share(s: &State, t: usize, r: i32, count: u8) -> f64 {
    count as f64 / around(s, t, r).max(1) as f64
}

/// The destination with the highest `value`, uniform among ties, if that value passes
/// `accept` (Java `MilitaryFunc.position`).
fn position(
    actions: &[Action],
    rng: &mut Rng,
    accept: impl Fn(f64) -> bool,
    value: impl Fn(usize) -> f64,
) -> Proposal {
    let mut best = Best::from(f64::NEG_INFINITY);
    for &a in actions {
        best.offer(a, value(a.target as usize), rng);
    }
    best.result().filter(|&(_, v)| accept(v))
}

/// Share of free neighbours `to_diverge` asks for by default (6 of 8).
pub const DIVERGE_SHARE: f64 = 0.75;

/// `move.to_attack_range`: the destination with the largest share of enemy units within the
/// unit's attack range, valued by that share.
///
/// **Java quirk** (spec §15.5): the Java threshold is a share of 1 (every tile in range holds
/// an enemy), so it almost never fires; replicated with `compat = "java"`. By default it fires
/// when at least one enemy is in range.
pub fn to_attack_range(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    let (s, tribe, java) = (ctx.state, ctx.tribe, ctx.java);
    let range = a
        .first()
        .map_or(1, |a| s.units[a.actor as usize].kind.stats().range);
    let enemy = ctx.interest.enemy(s, tribe, range);
    position(
        a,
        rng,
        |v| if java { v >= 1.0 } else { v > 0.0 },
        |t| share(s, t, range, enemy.0[t]),
    )
}

/// `move.to_converge`: the destination with the largest share of own units around it (the
/// moving unit itself counts where it stands), valued by that share.
///
/// **Java quirk** (spec §15.5): the Java threshold is a share of 1 (surrounded by own units);
/// replicated with `compat = "java"`. By default it fires when at least one own unit is
/// adjacent.
pub fn to_converge(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    let (s, tribe, java) = (ctx.state, ctx.tribe, ctx.java);
    let own = ctx.interest.own(s, tribe);
    position(
        a,
        rng,
        |v| if java { v >= 1.0 } else { v > 0.0 },
        |t| share(s, t, 1, own.0[t]),
    )
}

/// `move.to_diverge`: the destination with the largest share of neighbours free of own
/// units, valued by that share.
///
/// **Java quirk** (spec §15.5): the Java threshold is 6 while the value is a share in [0, 1],
/// so it never fires; replicated with `compat = "java"`. By default the 6 is read as "6 of 8
/// neighbours free", a share of at least [`DIVERGE_SHARE`].
pub fn to_diverge(ctx: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Proposal {
    let (s, tribe, java) = (ctx.state, ctx.tribe, ctx.java);
    let own = ctx.interest.own(s, tribe);
    position(
        a,
        rng,
        |v| v >= if java { 6.0 } else { DIVERGE_SHARE },
        |t| 1.0 - share(s, t, 1, own.0[t]),
    )
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::super::tests::run;
    use super::*;
    use crate::game::Game;
    use crate::games::tribes::ai::testing::{put_unit, setup};
    use crate::games::tribes::{ActionKind, TribesGame, UnitKind, builtin};

    const ALL: [Interest; KINDS] = [
        Interest::Capture,
        Interest::OwnCity,
        Interest::OwnTerritory,
        Interest::EnemyTerritory,
        Interest::Land,
        Interest::OwnPort,
    ];

    #[test]
    fn distance_maps_match_brute_force() {
        let game = TribesGame::default();
        let mut rng = crate::rng::rng_from_seed(9);
        let mut cache = InterestCache::default();
        let mut legal = Vec::new();
        for (_, level) in builtin::all().into_iter().take(6) {
            let mut s = game.new_initial_state(&level, 3);
            for step in 0..400 {
                if game.is_terminal(&s) {
                    break;
                }
                if step % 20 == 0 {
                    cache.prepare(false);
                    for kind in ALL {
                        let points: Vec<usize> = (0..s.tiles.len())
                            .filter(|&t| kind.holds(&s, s.active, t))
                            .collect();
                        let map = cache.get(&s, s.active, kind);
                        assert_eq!(map.is_some(), !points.is_empty(), "{kind:?}");
                        let Some(map) = map else { continue };
                        for t in 0..s.tiles.len() {
                            let near = points.iter().map(|&p| s.dist(t, p)).min().unwrap();
                            let far = points.iter().map(|&p| s.dist(t, p)).max().unwrap();
                            assert_eq!(map.dist[t] as i32, near, "{kind:?} tile {t}");
                            assert_eq!(map.farthest(&s, t), far, "{kind:?} tile {t}");
                        }
                    }
                }
                game.legal_actions(&s, &mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                game.apply(&mut s, a);
            }
        }
    }

    #[test]
    fn towards_scripts_value_by_distance() {
        let (game, mut s) = setup(false);
        let me = put_unit(&mut s, UnitKind::Warrior, 0, 30, 10);
        let mv = |t| Action::new(ActionKind::Move, me, 0, t);
        // Own city centre at 16 = (2, 2): (3, 2) is 1 away, (5, 2) 3 away.
        let (a, v) = run(&game, &s, "move.to_own_city", &[mv(37), mv(23)]).unwrap();
        assert_eq!(a, mv(23));
        assert!((v - (1.0 - 1.0 / 3.0)).abs() < 1e-12);
        // The enemy capital at 48 is a capture target.
        let (a, _) = run(&game, &s, "move.to_capture", &[mv(23), mv(40)]).unwrap();
        assert_eq!(a, mv(40));
        assert_eq!(run(&game, &s, "move.to_disembark", &[mv(23)]), None);
        assert_eq!(run(&game, &s, "move.to_embark", &[mv(23)]), None);
    }

    #[test]
    fn position_thresholds_follow_compat() {
        for java in [false, true] {
            let (game, mut s) = setup(java);
            let me = put_unit(&mut s, UnitKind::Warrior, 0, 30, 10);
            put_unit(&mut s, UnitKind::Warrior, 1, 38, 10);
            let mv = |t| Action::new(ActionKind::Move, me, 0, t);
            let acts = [mv(22), mv(31)];
            let range = run(&game, &s, "move.to_attack_range", &acts);
            let converge = run(&game, &s, "move.to_converge", &acts);
            let diverge = run(&game, &s, "move.to_diverge", &acts);
            if java {
                assert_eq!((range, converge, diverge), (None, None, None));
            } else {
                assert_eq!(range, Some((mv(31), 1.0 / 8.0)));
                // Both destinations are next to the unit's own tile.
                assert!(matches!(converge, Some((_, v)) if v == 1.0 / 8.0));
                assert!(matches!(diverge, Some((_, v)) if v == 7.0 / 8.0));
            }
        }
    }
}
