//! Legal actions kept up to date action by action ([`Game::list`](crate::game::Game::list),
//! [`Game::relist`](crate::game::Game::relist)).
//!
//! A listing records, for each actor of the tribe to move (its cities, its units, the tribe
//! itself, in [`legal_actions`](super::legal::legal_actions) order), the run of actions it
//! listed and a box around every tile the listing read. After an action only the actors whose
//! reads the action may have changed are listed again: the acting unit, the actors whose box
//! holds a tile the action changed, and after an action that spends or earns stars every city,
//! the tribe and every boat and ship (their upgrades cost stars). END_TURN and the actions with
//! wide effects (research, a kill or a death in combat, capture, conversion, examination,
//! disbanding, level-ups) list everything afresh, as does a state whose level-up is pending. Debug builds check
//! every update against a fresh listing.

use super::action::Action;
use super::legal::{
    Ctx, FIRSTS, GroupLister, Out, city_actions, pending_level_up, tribe_actions, unit_actions,
};
use super::rules::TribesRules;
use super::state::{NONE, State, TileSet};
use super::types::{ActionKind as K, UnitKind};
use crate::game::{Listing, Span};

/// A box of tiles: rows `x0..=x1`, columns `y0..=y1`; empty when `x0 > x1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    x0: u8,
    x1: u8,
    y0: u8,
    y1: u8,
}

impl Bounds {
    /// The box with no tile.
    pub const EMPTY: Bounds = Bounds {
        x0: u8::MAX,
        x1: 0,
        y0: u8::MAX,
        y1: 0,
    };

    /// Grows the box over the tiles within Chebyshev distance `r` of tile `t`.
    #[inline]
    pub fn add_square(&mut self, s: &State, t: usize, r: i32) {
        let (x, y) = s.xy(t);
        let top = s.size as i32 - 1;
        self.x0 = self.x0.min((x - r).max(0) as u8);
        self.x1 = self.x1.max((x + r).min(top) as u8);
        self.y0 = self.y0.min((y - r).max(0) as u8);
        self.y1 = self.y1.max((y + r).min(top) as u8);
    }

    /// Grows the box over the box `[x0, x1, y0, y1]` (nothing if empty) widened by `r`.
    #[inline]
    pub fn add_box(&mut self, s: &State, b: [i32; 4], r: i32) {
        if b[0] > b[1] {
            return;
        }
        let top = s.size as i32 - 1;
        self.x0 = self.x0.min((b[0] - r).max(0) as u8);
        self.x1 = self.x1.max((b[1] + r).min(top) as u8);
        self.y0 = self.y0.min((b[2] - r).max(0) as u8);
        self.y1 = self.y1.max((b[3] + r).min(top) as u8);
    }

    /// Grows the box over every row up to that of tile `t`.
    pub fn add_rows_up_to(&mut self, s: &State, t: usize) {
        let (x, _) = s.xy(t);
        self.x0 = 0;
        self.x1 = self.x1.max(x as u8);
        self.y0 = 0;
        self.y1 = s.size - 1;
    }

    /// True if the boxes share a tile.
    #[inline]
    fn overlaps(&self, o: &Bounds) -> bool {
        self.x0 <= o.x1 && o.x0 <= self.x1 && self.y0 <= o.y1 && o.y0 <= self.y1
    }

    fn pack(self) -> u32 {
        u32::from_le_bytes([self.x0, self.x1, self.y0, self.y1])
    }

    fn unpack(v: u32) -> Bounds {
        let [x0, x1, y0, y1] = v.to_le_bytes();
        Bounds { x0, x1, y0, y1 }
    }
}

/// Span actors: the rank of the actor's class in listing order, then its index, so that keys
/// increase along a listing.
const CITY: u32 = 0;
const UNIT: u32 = 1 << 16;
const TRIBE: u32 = 2 << 16;

/// A span's dependencies: the boxes of the tiles and of the occupants it read, and for a unit
/// its tile.
fn deps(reads: Bounds, occupants: Bounds, pos: u16) -> [u32; 3] {
    [reads.pack(), occupants.pack(), pos as u32]
}

fn span_reads(span: &Span) -> Bounds {
    Bounds::unpack(span.deps[0])
}

fn span_occupants(span: &Span) -> Bounds {
    Bounds::unpack(span.deps[1])
}

fn span_pos(span: &Span) -> usize {
    span.deps[2] as usize
}

/// `words` of an incremental listing: the tribe to move, then its enemy and zone-of-control
/// maps (16 words each). Empty for a listing that cannot be updated (game over, level-up).
const WORDS: usize = 33;

/// The enemy and zone-of-control maps kept in the `words` of an incremental listing.
fn maps(l: &Listing<Action>) -> (TileSet, TileSet) {
    let mut enemy = TileSet::default();
    let mut zoc = TileSet::default();
    enemy.0.copy_from_slice(&l.words[1..17]);
    zoc.0.copy_from_slice(&l.words[17..33]);
    (enemy, zoc)
}

/// Fills `l` with the actions of `s` in mode `M` (all actions or the firsts of each group, see
/// [`super::legal`]) and their spans.
pub(super) fn list<const M: u8>(rules: &TribesRules, s: &State, l: &mut Listing<Action>) {
    l.spans.clear();
    l.words.clear();
    if s.over || pending_level_up(s, s.active).is_some() {
        super::legal::generate_into::<M>(rules, s, &mut l.actions);
        return;
    }
    l.actions.clear();
    let tribe = s.active;
    let cx = Ctx::new(s, tribe);
    l.words.push(tribe as u64);
    l.words.extend_from_slice(&cx.enemy.0);
    l.words.extend_from_slice(&cx.zoc.0);
    let everyone = |_: u32, _: &Span| true;
    fill::<M>(
        rules,
        s,
        &cx,
        &mut l.actions,
        &mut l.spans,
        &[],
        &[],
        everyone,
    );
}

/// Lists the actors of the tribe to move in order into `acts` and `spans`: those without an
/// old span and those `relist` accepts (given the actor and its old span) afresh, the others
/// copied from the old listing (`old_acts`, `old_spans`).
#[allow(clippy::too_many_arguments)] // the two listings, old and new, and the rule
fn fill<const M: u8>(
    rules: &TribesRules,
    s: &State,
    cx: &Ctx,
    acts: &mut Vec<Action>,
    spans: &mut Vec<Span>,
    old_acts: &[Action],
    old_spans: &[Span],
    mut relist: impl FnMut(u32, &Span) -> bool,
) {
    let tribe = s.active;
    let mut cursor = 0usize;
    // The old span of `key` and where its actions start, if the old listing has it.
    let mut old = |key: u32| {
        while cursor < old_spans.len() && old_spans[cursor].actor < key {
            cursor += 1;
        }
        (cursor < old_spans.len() && old_spans[cursor].actor == key).then(|| {
            let start = if cursor == 0 {
                0
            } else {
                old_spans[cursor - 1].end as usize
            };
            (start, old_spans[cursor])
        })
    };
    let mut one = |key: u32, pos: u16, acts: &mut Vec<Action>, spans: &mut Vec<Span>| match old(key)
    {
        Some((start, span)) if !relist(key, &span) => {
            acts.extend_from_slice(&old_acts[start..span.end as usize]);
            spans.push(Span {
                end: acts.len() as u32,
                ..span
            });
        }
        _ => {
            let mut o = Out::<M>::appending(acts, K::EndTurn);
            let index = (key & 0xffff) as usize;
            match key & !0xffff {
                CITY => city_actions(rules, s, cx, index, &mut o),
                UNIT => unit_actions(rules, s, cx, index, &mut o),
                _ => tribe_actions(rules, s, &mut o),
            }
            let (reads, occupants) = (o.reads, o.occupants);
            spans.push(Span {
                end: acts.len() as u32,
                actor: key,
                deps: deps(reads, occupants, pos),
            });
        }
    };
    for (c, city) in s.cities.iter().enumerate() {
        if city.tribe == tribe {
            one(CITY | c as u32, 0, acts, spans);
        }
    }
    for (u, unit) in s.units.iter().enumerate() {
        if unit.alive && unit.tribe == tribe {
            one(UNIT | u as u32, unit.pos, acts, spans);
        }
    }
    one(TRIBE | tribe as u32, 0, acts, spans);
}

/// What an action changed, as far as listings read it.
struct Touch {
    /// Stars, cities or unit counts changed: every city, the tribe and every boat and ship
    /// are listed again.
    economy: bool,
    /// Boxes holding every tile the action changed.
    tiles: [Bounds; 2],
    /// Only the occupants of those tiles changed (who stands there, their health or status).
    units_only: bool,
    /// The unit that acted, listed again.
    unit: Option<usize>,
}

/// What `a`, applied to the state `l` was listed for, changed in `after`; `None` for an
/// action whose effects reach too far to follow.
fn touch(l: &Listing<Action>, a: Action, after: &State) -> Option<Touch> {
    let actor = a.actor as usize;
    let tile = |t: usize| {
        let mut b = Bounds::EMPTY;
        b.add_square(after, t, 0);
        b
    };
    let unit_pos = || after.units[actor].pos as usize;
    let (economy, tiles, units_only, unit) = match a.kind {
        K::Move => {
            let key = UNIT | actor as u32;
            let from = span_pos(l.spans.iter().find(|s| s.actor == key)?);
            (
                false,
                [tile(from), tile(a.target as usize)],
                true,
                Some(actor),
            )
        }
        K::Attack => {
            // Followed only when both units live on where they stood: then the defender lost
            // health (which no listing reads) and the attacker its status and maybe health.
            let key = UNIT | actor as u32;
            let from = span_pos(l.spans.iter().find(|s| s.actor == key)?);
            let attacker = &after.units[actor];
            let target = a.target as usize;
            let defender = after.tiles[target].unit;
            let both_live = attacker.alive
                && attacker.pos as usize == from
                && defender != NONE
                && after.units[defender as usize].tribe != after.active;
            if !both_live {
                return None;
            }
            (false, [tile(from), tile(target)], true, Some(actor))
        }
        K::Recover | K::MakeVeteran => (false, [tile(unit_pos()); 2], true, Some(actor)),
        K::HealOthers => {
            let mut b = Bounds::EMPTY;
            b.add_square(after, unit_pos(), 1);
            (false, [b; 2], true, Some(actor))
        }
        K::UpgradeBoat | K::UpgradeShip => (true, [tile(unit_pos()); 2], true, Some(actor)),
        K::Spawn => {
            let centre = after.cities[actor].tile as usize;
            (true, [tile(centre); 2], true, None)
        }
        K::Build
        | K::BurnForest
        | K::ClearForest
        | K::GrowForest
        | K::Destroy
        | K::ResourceGathering
        | K::BuildRoad => (true, [tile(a.target as usize); 2], false, None),
        _ => return None,
    };
    Some(Touch {
        economy,
        tiles,
        units_only,
        unit,
    })
}

/// Brings `l`, listed in mode `M` for the state `a` was applied to, up to date for `after`;
/// true if `a` changed only units, not the board (see [`relist_groups`]).
pub(super) fn relist<const M: u8>(
    rules: &TribesRules,
    l: &mut Listing<Action>,
    a: Action,
    after: &State,
) -> bool {
    let fresh = l.words.len() != WORDS
        || after.over
        || l.words[0] != after.active as u64
        || pending_level_up(after, after.active).is_some();
    let Some(t) = (!fresh).then(|| touch(l, a, after)).flatten() else {
        list::<M>(rules, after, l);
        return false;
    };
    let (enemy, zoc) = maps(l);
    let cx = Ctx::with_maps(after, after.active, enemy, zoc);
    let (mut acts, mut spans) = std::mem::take(&mut l.spare);
    acts.clear();
    spans.clear();
    // Whether a span read what the action changed: only occupants, or any tile's facts.
    let hit = |span: &Span| {
        let read = if t.units_only {
            span_occupants(span)
        } else {
            let mut b = span_reads(span);
            let o = span_occupants(span);
            (b.x0, b.x1, b.y0, b.y1) = (
                b.x0.min(o.x0),
                b.x1.max(o.x1),
                b.y0.min(o.y0),
                b.y1.max(o.y1),
            );
            b
        };
        t.tiles.iter().any(|x| x.overlaps(&read))
    };
    let relist_actor = |key: u32, span: &Span| match key & !0xffff {
        CITY => t.economy || hit(span),
        UNIT => {
            let index = (key & 0xffff) as usize;
            let kind = after.units[index].kind;
            t.unit == Some(index)
                || (t.economy && matches!(kind, UnitKind::Boat | UnitKind::Ship))
                || hit(span)
        }
        // Own units coming and going never change where roads may go.
        _ => t.economy || (!t.units_only && hit(span)),
    };
    fill::<M>(
        rules,
        after,
        &cx,
        &mut acts,
        &mut spans,
        &l.actions,
        &l.spans,
        relist_actor,
    );
    l.spare = (
        std::mem::replace(&mut l.actions, acts),
        std::mem::replace(&mut l.spans, spans),
    );
    debug_assert_eq!(
        l.actions,
        {
            let mut fresh = Listing::default();
            list::<M>(rules, after, &mut fresh);
            fresh.actions
        },
        "relisting after {a:?} differs from a fresh listing"
    );
    t.units_only
}

/// Fills `l` with the first action of every (actor, kind) group of `s`
/// ([`legal_action_groups`](super::legal::legal_action_groups)) and their spans.
pub fn list_groups(rules: &TribesRules, s: &State, l: &mut Listing<Action>) {
    list::<FIRSTS>(rules, s, l);
}

/// Brings `l`, made by [`list_groups`] or `relist_groups` for the state `a` was applied to,
/// up to date for `after`; true if `a` changed only units (who stands where, their health or
/// status), not the board.
pub fn relist_groups(
    rules: &TribesRules,
    l: &mut Listing<Action>,
    a: Action,
    after: &State,
) -> bool {
    relist::<FIRSTS>(rules, l, a, after)
}

/// A [`GroupLister`] for a listing `l` made by [`list_groups`] or [`relist_groups`].
pub fn group_lister(l: &Listing<Action>) -> GroupLister {
    if l.words.len() != WORDS {
        return GroupLister::new(None);
    }
    GroupLister::new(Some(maps(l)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::tribes::rules::{Compat, TribesGame};
    use crate::games::tribes::{builtin, legal};
    use crate::rng::rng_from_seed;
    use rand::RngExt;

    /// Random games on built-in levels under both rule sets: at every step, relisting after
    /// each legal action (all actions and firsts of groups) equals listing the result afresh.
    #[test]
    fn relisting_after_every_action_equals_a_fresh_listing() {
        for (i, (_, level)) in builtin::all().into_iter().take(5).enumerate() {
            for compat in [Compat::Intended, Compat::Java] {
                let rules = TribesRules {
                    compat,
                    ..TribesRules::default()
                };
                let game = TribesGame::new(rules);
                let mut rng = rng_from_seed(i as u64);
                let mut s = game.new_initial_state(&level, i as u64);
                let (mut all, mut firsts) = (Listing::default(), Listing::default());
                list::<{ legal::ALL }>(&rules, &s, &mut all);
                list::<{ legal::FIRSTS }>(&rules, &s, &mut firsts);
                let mut fresh = Listing::default();
                let mut relisted = 0;
                while !s.over && s.tick < 80 {
                    let legal = all.actions.clone();
                    for &a in &legal {
                        let mut next = s.clone();
                        game.apply(&mut next, a);
                        for firsts_mode in [false, true] {
                            let mut l = if firsts_mode { &firsts } else { &all }.clone();
                            if firsts_mode {
                                relist_groups(&rules, &mut l, a, &next);
                                list_groups(&rules, &next, &mut fresh);
                            } else {
                                relist::<{ legal::ALL }>(&rules, &mut l, a, &next);
                                list::<{ legal::ALL }>(&rules, &next, &mut fresh);
                            }
                            assert_eq!(l.actions, fresh.actions, "after {a:?} ({compat:?})");
                            relisted += 1;
                        }
                    }
                    let a = legal[rng.random_range(0..legal.len())];
                    game.apply(&mut s, a);
                    relist::<{ legal::ALL }>(&rules, &mut all, a, &s);
                    relist_groups(&rules, &mut firsts, a, &s);
                }
                assert!(relisted > 1000, "only {relisted} relistings checked");
            }
        }
    }
}
