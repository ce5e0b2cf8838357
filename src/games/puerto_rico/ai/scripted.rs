//! The Scripted AI "SA-0" (spec §5.2): every legal choice gets a prior weight plus situational
//! modifiers, and the choice is drawn with probability ∝ w^τ. Also the game-progress measure
//! Pr of spec §5.3 ([`progress`]), which SA-0 and the Thinking AI share.
//!
//! Readings of §5.2 where the tables leave room:
//!
//! - the 0.5 floor lifts computed weights only: the pass weights (plantation 0.1, sell 0.2 or
//!   1, build 1, extra good and wharf 0.5) and the rules that set 0 (or 1: the captain with
//!   nothing to load) are used as given;
//! - the table gives no weight for passing the craftsman's extra barrel or declining the wharf
//!   when no cargo load exists, so those passes weigh the floor's value (0.5);
//! - role modifiers are judged as if the player were the chooser (builder privilege, trader
//!   privilege, mayor privilege and first share of the ship); the builder's "affordable" counts
//!   the doubloons on the card, which come with it; the captain's "1 if nothing loadable" and
//!   the rules that set 0 replace the whole weight (doubloons on the card included), and the
//!   mayor's ×0.2 multiplies the whole weight;
//! - loadable barrels of a player: per kind held, what one load would ship now (the kind's ship's
//!   free room, or the largest empty ship's capacity, or everything with an occupied wharf);
//! - colonists: a plantation completes a chain if its crop has more building circles than
//!   occupied plantations, a production circle if its crop has more occupied plantations than
//!   occupied circles; otherwise "unmatched"; corn, quarries and violet buildings by their rows;
//! - store: a warehouse keep of a kind is valued barrels × (price + 1), the free (windrose)
//!   barrel 1 × (price + 1), weight value²;
//! - when every legal choice weighs 0, the draw is uniform.

use rand::RngExt;

use crate::agent::Agent;
use crate::game::Game;
use crate::games::puerto_rico::PuertoRicoGame;
use crate::games::puerto_rico::legal::{can_sell, colonist_actions, sale_price};
use crate::games::puerto_rico::state::{NO_GOOD, PRODUCTION, Phase, PlayerState, State, ones};
use crate::games::puerto_rico::types::{
    Action, BUILDING_TABLE, BUILDINGS, BuildingKind, COLONIST_BUILDING, CORN, DRAW, GOODS, Kind,
    PRICES, QUARRY, SPACES, WHARF, WINDROSE, bld, role,
};
use crate::rng::{Rng, weighted_index};

/// Game progress Pr in [0, 100] (spec §5.3, table row "Pr"): "100 × max(VP chips used /
/// initial, colonists used / initial supply, most-filled city / 12), clamped".
///
/// "Initial" is the set-up of §1.2 for the state's player count; the state does not record
/// the 5-player chip option, so 5 players count 122 chips (the default; with 126, Pr reads up
/// to 4 chips' worth high). Colonists used are those taken from the supply (the ship's start
/// load is not in it).
pub fn progress(s: &State) -> f64 {
    let (supply, vp) = match s.n {
        2 => (40.0, 65.0),
        3 => (55.0, 75.0),
        4 => (75.0, 100.0),
        _ => (95.0, 122.0),
    };
    let chips = (vp - f64::from(s.vp_supply)) / vp;
    let colonists = (supply - f64::from(s.colonist_supply)) / supply;
    let city = s.players[..s.n()]
        .iter()
        .map(|p| p.city)
        .max()
        .map_or(0.0, |c| f64::from(c) / f64::from(SPACES));
    (100.0 * chips.max(colonists).max(city)).clamp(0.0, 100.0)
}

/// The numbers of SA-0 (spec §5.2); [`Default`] is SA-0 exactly. Fields are meant to be ≥ 0.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptedWeights {
    /// Exponent τ: probability ∝ w^τ; `f64::INFINITY` plays the argmax (first in legal order).
    pub tau: f64,
    /// Floor of computed weights of legal choices (rules that set 0 and pass weights exempt).
    pub floor: f64,

    /// Base weight of every role but the prospector.
    pub role_base: f64,
    /// Base weight of the prospector.
    pub prospector_base: f64,
    /// Added per doubloon lying on the role card.
    pub role_per_doubloon: f64,
    /// Settler: added if the own island has at most [`Self::settler_small_island`] tiles.
    pub settler_small_island_bonus: f64,
    /// Settler: island size up to which the small-island bonus applies.
    pub settler_small_island: u8,
    /// Settler: added if quarries remain and the player owns fewer than [`Self::settler_quarries_below`].
    pub settler_quarry_bonus: f64,
    /// Settler: own quarries below which the quarry bonus applies.
    pub settler_quarries_below: u8,
    /// Mayor: added per colonist that would fill an own empty circle (privilege included).
    pub mayor_per_colonist: f64,
    /// Mayor: cap of that addition.
    pub mayor_cap: f64,
    /// Mayor: factor on the whole weight if the player has no empty circle.
    pub mayor_no_circles_factor: f64,
    /// Builder: added per doubloon above [`Self::builder_doubloon_offset`] (clamped).
    pub builder_per_doubloon: f64,
    /// Builder: doubloons the per-doubloon addition starts above.
    pub builder_doubloon_offset: f64,
    /// Builder: cap of the per-doubloon addition (floor 0).
    pub builder_cap: f64,
    /// Builder: added if a large building is affordable and Pr ≥ [`Self::builder_large_progress`].
    pub builder_large_bonus: f64,
    /// Builder: Pr from which the large-building bonus applies.
    pub builder_large_progress: f64,
    /// Craftsman: added per unit of own production.
    pub craftsman_own: f64,
    /// Craftsman: subtracted per unit of the best opponent's production.
    pub craftsman_opponent: f64,
    /// Craftsman: added with an occupied factory and at least [`Self::craftsman_factory_kinds`] kinds.
    pub craftsman_factory_bonus: f64,
    /// Craftsman: kinds produced from which the factory bonus applies.
    pub craftsman_factory_kinds: u8,
    /// Trader: added per doubloon of the best own sale price.
    pub trader_per_price: f64,
    /// Captain: the whole weight when the player can load nothing.
    pub captain_nothing: f64,
    /// Captain: added per own loadable barrel.
    pub captain_own: f64,
    /// Captain: subtracted per opponents' loadable barrel.
    pub captain_opponents: f64,
    /// Captain: added when Pr ≥ [`Self::captain_late_progress`].
    pub captain_late_bonus: f64,
    /// Captain: Pr from which the late bonus applies.
    pub captain_late_progress: f64,

    /// Plantation priors by crop (corn, indigo, sugar, tobacco, coffee).
    pub plantation_crop: [f64; GOODS],
    /// Plantation prior of a quarry.
    pub plantation_quarry: f64,
    /// Factor for a crop with more own production circles than plantations.
    pub plantation_unused_circles_factor: f64,
    /// Factor for corn when own production is below [`Self::corn_low_production`].
    pub corn_low_production_factor: f64,
    /// Own production below which corn gets its factor.
    pub corn_low_production: u8,
    /// Factor for a quarry when the player owns at least [`Self::quarry_many`] quarries.
    pub quarry_many_factor: f64,
    /// Own quarries from which the quarry factor applies.
    pub quarry_many: u8,
    /// Weight of passing the plantation.
    pub plantation_pass: f64,

    /// Production building: prior per printed VP.
    pub build_production_per_vp: f64,
    /// Production building: added if own plantations of its crop outnumber its circles.
    pub build_production_surplus_bonus: f64,
    /// Violet priors by building id − 6 (small market … wharf).
    pub build_violet: [f64; 12],
    /// Large building: base prior.
    pub build_large_base: f64,
    /// Large building: added per VP of its bonus for the player now.
    pub build_large_per_bonus: f64,
    /// Every building × (1 + VP × Pr / this).
    pub build_progress_divisor: f64,
    /// Weight of passing the builder phase.
    pub build_pass: f64,

    /// Colonist on a target that completes a plantation–building chain.
    pub colonist_chain: f64,
    /// Colonist on corn.
    pub colonist_corn: f64,
    /// Colonist on an unoccupied small violet building.
    pub colonist_violet: f64,
    /// Colonist on an unoccupied large building.
    pub colonist_large: f64,
    /// Colonist on a quarry.
    pub colonist_quarry: f64,
    /// Colonist on a plantation with no building circle for it.
    pub colonist_unmatched_plantation: f64,
    /// Colonist on a production circle with no occupied plantation for it.
    pub colonist_unmatched_circle: f64,

    /// Exponent of the value-based weights (extra good, sell, load, store).
    pub value_exponent: f64,
    /// Extra good: value = price + this.
    pub extra_good_offset: f64,
    /// Weight of passing the extra good (the table gives none: the floor's value).
    pub extra_good_pass: f64,
    /// Sell: added to (sale price)^exponent.
    pub sell_bonus: f64,
    /// Sell pass when the best sale price is at most [`Self::sell_cheap_price`].
    pub sell_pass_cheap: f64,
    /// Best sale price up to which [`Self::sell_pass_cheap`] applies.
    pub sell_cheap_price: u16,
    /// Sell pass otherwise.
    pub sell_pass: f64,
    /// Load: value = barrels loaded + this with an occupied harbor.
    pub load_harbor: f64,
    /// Load: factor on the wharf when a cargo load is possible.
    pub load_wharf_factor: f64,
    /// Weight of declining the wharf (the table gives none: the floor's value).
    pub load_pass: f64,
    /// Store: value = barrels × (price + this).
    pub store_price_offset: f64,
    /// Hacienda draw when the island has room and Pr is low.
    pub hacienda_draw: f64,
    /// Free island spaces from which the draw gets [`Self::hacienda_draw`].
    pub hacienda_draw_space: u8,
    /// Pr below which the draw gets [`Self::hacienda_draw`].
    pub hacienda_draw_progress: f64,
    /// Hacienda draw otherwise.
    pub hacienda_draw_late: f64,
    /// Hacienda skip.
    pub hacienda_skip: f64,

    /// Play-style factors on the final weights ([`PREFERENCES`]; all 1 in SA-0).
    pub preference: [f64; PREFERENCES.len()],
}

/// The play-style factors of a Scripted AI ([`ScriptedWeights::preference`]), by name: each
/// multiplies the final weight (after the floor) of every choice it names — a role pick, or
/// building one of a group of buildings. They are what MAP-Elites evolves
/// (`sa0(weights=[role.captain=1.5,…])`); 1 everywhere is SA-0, 0 rules the choice out
/// unless every choice weighs 0 (then the draw is uniform).
pub const PREFERENCES: [&str; 12] = [
    "role.settler",
    "role.mayor",
    "role.builder",
    "role.craftsman",
    "role.trader",
    "role.captain",
    "role.prospector",
    "build.production",
    "build.shipping",
    "build.trade",
    "build.planting",
    "build.large",
];

/// Index into [`PREFERENCES`] of the first building group.
const BUILD_PREFERENCES: usize = 7;

/// The [`PREFERENCES`] index that applies to action `a`, if any: roles by role (both
/// prospectors share one), buildings by group — production; shipping (small and large
/// warehouse, harbor, wharf); trade (small and large market, office, factory); planting
/// (hacienda, construction hut, hospice, university); large.
pub fn preference_of(a: Action) -> Option<usize> {
    match a.kind {
        Kind::Role => Some(usize::from(a.payload.min(role::PROSPECTOR))),
        Kind::Build if !a.is_pass() => {
            let group = match a.payload {
                bld::SMALL_INDIGO..=bld::COFFEE_ROASTER => 0,
                bld::SMALL_WAREHOUSE | bld::LARGE_WAREHOUSE | bld::HARBOR | bld::WHARF => 1,
                bld::SMALL_MARKET | bld::LARGE_MARKET | bld::OFFICE | bld::FACTORY => 2,
                bld::HACIENDA | bld::CONSTRUCTION_HUT | bld::HOSPICE | bld::UNIVERSITY => 3,
                _ => 4,
            };
            Some(BUILD_PREFERENCES + group)
        }
        _ => None,
    }
}

impl Default for ScriptedWeights {
    fn default() -> Self {
        ScriptedWeights {
            tau: 1.0,
            floor: 0.5,
            role_base: 10.0,
            prospector_base: 4.0,
            role_per_doubloon: 4.0,
            settler_small_island_bonus: 6.0,
            settler_small_island: 5,
            settler_quarry_bonus: 3.0,
            settler_quarries_below: 2,
            mayor_per_colonist: 2.0,
            mayor_cap: 12.0,
            mayor_no_circles_factor: 0.2,
            builder_per_doubloon: 2.0,
            builder_doubloon_offset: 4.0,
            builder_cap: 12.0,
            builder_large_bonus: 8.0,
            builder_large_progress: 50.0,
            craftsman_own: 3.0,
            craftsman_opponent: 2.0,
            craftsman_factory_bonus: 4.0,
            craftsman_factory_kinds: 3,
            trader_per_price: 3.0,
            captain_nothing: 1.0,
            captain_own: 2.0,
            captain_opponents: 1.0,
            captain_late_bonus: 5.0,
            captain_late_progress: 70.0,
            plantation_crop: [7.0, 6.0, 7.0, 8.0, 8.0],
            plantation_quarry: 10.0,
            plantation_unused_circles_factor: 2.0,
            corn_low_production_factor: 1.5,
            corn_low_production: 2,
            quarry_many_factor: 0.3,
            quarry_many: 3,
            plantation_pass: 0.1,
            build_production_per_vp: 3.0,
            build_production_surplus_bonus: 8.0,
            // small market, hacienda, construction hut, small warehouse, hospice, office,
            // large market, large warehouse, factory, university, harbor, wharf
            build_violet: [6.0, 4.0, 4.0, 5.0, 6.0, 6.0, 7.0, 6.0, 9.0, 5.0, 10.0, 10.0],
            build_large_base: 14.0,
            build_large_per_bonus: 2.0,
            build_progress_divisor: 50.0,
            build_pass: 1.0,
            colonist_chain: 10.0,
            colonist_corn: 8.0,
            colonist_violet: 9.0,
            colonist_large: 12.0,
            colonist_quarry: 6.0,
            colonist_unmatched_plantation: 3.0,
            colonist_unmatched_circle: 2.0,
            value_exponent: 2.0,
            extra_good_offset: 1.0,
            extra_good_pass: 0.5,
            sell_bonus: 0.1,
            sell_pass_cheap: 1.0,
            sell_cheap_price: 1,
            sell_pass: 0.2,
            load_harbor: 1.0,
            load_wharf_factor: 0.5,
            load_pass: 0.5,
            store_price_offset: 1.0,
            hacienda_draw: 10.0,
            hacienda_draw_space: 2,
            hacienda_draw_progress: 70.0,
            hacienda_draw_late: 2.0,
            hacienda_skip: 3.0,
            preference: [1.0; PREFERENCES.len()],
        }
    }
}

/// A weight before the floor: `Computed` is lifted to the floor, `Exact` is used as given.
#[derive(Clone, Copy, Debug)]
enum W {
    Computed(f64),
    Exact(f64),
}

/// Circles of `me`'s production buildings of good `g`.
fn circles(me: &PlayerState, g: u8) -> u8 {
    ones(PRODUCTION[usize::from(g)] & me.owned)
        .map(|b| BUILDING_TABLE[b].slots)
        .sum()
}

/// Per good, the circles of `me`'s production buildings (what [`circles`] counts for one good)
/// and the colonists on them, for every good in one walk over the city.
#[derive(Default)]
struct Chains {
    circles: [u8; GOODS],
    workers: [u8; GOODS],
}

impl Chains {
    fn of(me: &PlayerState) -> Self {
        let mut chains = Chains::default();
        // Only owned buildings have workers (an invariant of the state).
        for b in ones(me.owned) {
            let t = &BUILDING_TABLE[b];
            if let BuildingKind::Production(g) = t.kind {
                chains.circles[usize::from(g)] += t.slots;
                chains.workers[usize::from(g)] += me.workers[b];
            }
        }
        chains
    }
}

/// Total production capacity of `me` and the number of kinds it produces.
fn production(me: &PlayerState) -> (u32, u8) {
    (0..GOODS as u8).fold((0, 0), |(total, kinds), g| {
        let c = me.capacity(g);
        (total + u32::from(c), kinds + u8::from(c > 0))
    })
}

/// What `p` would pay for `b` as the builder (privilege and occupied quarries).
fn chooser_price(me: &PlayerState, b: usize) -> u16 {
    let t = &BUILDING_TABLE[b];
    u16::from(t.cost.saturating_sub(1 + me.active_quarries().min(t.vp)))
}

/// True if `me` could build `b` as the builder with `money` doubloons.
fn affordable(s: &State, me: &PlayerState, b: usize, money: u16) -> bool {
    !me.owns(b as u8)
        && s.copies[b] > 0
        && me.city + BUILDING_TABLE[b].size() <= SPACES
        && chooser_price(me, b) <= money
}

/// The bonus large building `b` would score for `me` now if it were his and occupied.
fn large_bonus(me: &PlayerState, b: u8) -> u32 {
    // The buildings he would own, `b` included.
    let owned = (0..BUILDINGS)
        .filter(|&i| me.owns(i as u8) || i == usize::from(b))
        .map(|i| &BUILDING_TABLE[i]);
    match b {
        bld::GUILD_HALL => owned
            .filter(|t| matches!(t.kind, BuildingKind::Production(_)))
            .map(|t| if t.slots == 1 { 1 } else { 2 })
            .sum(),
        bld::RESIDENCE => match me.island() {
            0..=9 => 4,
            10 => 5,
            11 => 6,
            _ => 7,
        },
        bld::FORTRESS => me.colonists() / 3,
        bld::CUSTOMS_HOUSE => u32::from(me.chips) / 4,
        _ => owned
            .filter(|t| !matches!(t.kind, BuildingKind::Production(_)))
            .count() as u32,
    }
}

/// Barrels player `p` could ship now, one load per kind (see the module notes).
fn loadable_barrels(s: &State, p: usize) -> u32 {
    let me = &s.players[p];
    let ships = usize::from(s.num_ships);
    let wharf = me.active(bld::WHARF);
    (0..GOODS as u8)
        .map(|g| {
            let held = me.goods[usize::from(g)];
            if held == 0 {
                return 0;
            }
            if wharf {
                return u32::from(held);
            }
            let room = match (0..ships).find(|&i| s.ship_good[i] == g) {
                Some(i) => s.ship_cap[i] - s.ship_load[i],
                None => (0..ships)
                    .filter(|&i| s.ship_good[i] == NO_GOOD)
                    .map(|i| s.ship_cap[i])
                    .max()
                    .unwrap_or(0),
            };
            u32::from(held.min(room))
        })
        .sum()
}

/// The best price `p` would get selling as the trader, if any barrel is sellable.
fn best_trader_price(s: &State, p: usize) -> Option<u16> {
    let me = &s.players[p];
    if s.house_fill() >= 4 {
        return None;
    }
    (0..GOODS as u8)
        .filter(|&g| {
            me.goods[usize::from(g)] > 0 && (s.house[usize::from(g)] == 0 || me.active(bld::OFFICE))
        })
        .map(|g| {
            PRICES[usize::from(g)]
                + 1
                + u16::from(me.active(bld::SMALL_MARKET))
                + 2 * u16::from(me.active(bld::LARGE_MARKET))
        })
        .max()
}

impl ScriptedWeights {
    /// `v`^`value_exponent` (v < 0 counts as 0). The spec's square is one multiplication:
    /// the correctly rounded square, which `powf` also returns for the whole numbers that
    /// the weights feed it.
    fn value(&self, v: f64) -> f64 {
        let v = v.max(0.0);
        if self.value_exponent == 2.0 {
            v * v
        } else {
            v.powf(self.value_exponent)
        }
    }

    fn role(&self, s: &State, pr: f64, r: u8) -> W {
        let p = usize::from(s.actor);
        let me = &s.players[p];
        let coins = s.role_coins[usize::from(r)];
        let base = if r >= role::PROSPECTOR {
            self.prospector_base
        } else {
            self.role_base
        };
        let mut w = base + self.role_per_doubloon * f64::from(coins);
        match r {
            role::SETTLER => {
                if me.island_full() {
                    return W::Exact(0.0);
                }
                if me.island() <= self.settler_small_island {
                    w += self.settler_small_island_bonus;
                }
                if s.quarries > 0 && me.tiles[usize::from(QUARRY)] < self.settler_quarries_below {
                    w += self.settler_quarry_bonus;
                }
            }
            role::MAYOR => {
                let n = s.n;
                let ship = s.colonist_ship;
                let incoming = u32::from(s.colonist_supply > 0) + u32::from(ship.div_ceil(n));
                let empty = me.empty_circles();
                w += (self.mayor_per_colonist * f64::from(empty.min(incoming))).min(self.mayor_cap);
                if empty == 0 {
                    w *= self.mayor_no_circles_factor;
                }
            }
            role::BUILDER => {
                let money = me.doubloons + u16::from(coins);
                if !(0..BUILDINGS).any(|b| affordable(s, me, b, money)) {
                    return W::Exact(0.0);
                }
                w += (self.builder_per_doubloon
                    * (f64::from(me.doubloons) - self.builder_doubloon_offset))
                    .clamp(0.0, self.builder_cap);
                let large = (bld::GUILD_HALL..=bld::CITY_HALL)
                    .any(|b| affordable(s, me, usize::from(b), money));
                if large && pr >= self.builder_large_progress {
                    w += self.builder_large_bonus;
                }
            }
            role::CRAFTSMAN => {
                let (own, kinds) = production(me);
                let best = (0..s.n())
                    .filter(|&q| q != p)
                    .map(|q| production(&s.players[q]).0)
                    .max()
                    .unwrap_or(0);
                w +=
                    self.craftsman_own * f64::from(own) - self.craftsman_opponent * f64::from(best);
                if me.active(bld::FACTORY) && kinds >= self.craftsman_factory_kinds {
                    w += self.craftsman_factory_bonus;
                }
            }
            role::TRADER => match best_trader_price(s, p) {
                None => return W::Exact(0.0),
                Some(price) => w += self.trader_per_price * f64::from(price),
            },
            role::CAPTAIN => {
                let own = loadable_barrels(s, p);
                if own == 0 {
                    return W::Exact(self.captain_nothing);
                }
                let others: u32 = (0..s.n())
                    .filter(|&q| q != p)
                    .map(|q| loadable_barrels(s, q))
                    .sum();
                w += self.captain_own * f64::from(own) - self.captain_opponents * f64::from(others);
                if pr >= self.captain_late_progress {
                    w += self.captain_late_bonus;
                }
            }
            _ => {}
        }
        W::Computed(w)
    }

    fn plantation(&self, me: &PlayerState, t: u8) -> W {
        if t == QUARRY {
            let mut w = self.plantation_quarry;
            if me.tiles[usize::from(QUARRY)] >= self.quarry_many {
                w *= self.quarry_many_factor;
            }
            return W::Computed(w);
        }
        let mut w = self.plantation_crop[usize::from(t)];
        if circles(me, t) > me.tiles[usize::from(t)] {
            w *= self.plantation_unused_circles_factor;
        }
        if t == CORN && production(me).0 < u32::from(self.corn_low_production) {
            w *= self.corn_low_production_factor;
        }
        W::Computed(w)
    }

    fn build(&self, me: &PlayerState, pr: f64, b: u8) -> W {
        let t = &BUILDING_TABLE[usize::from(b)];
        let vp = f64::from(t.vp);
        let prior = match t.kind {
            BuildingKind::Production(g) => {
                let surplus = me.tiles[usize::from(g)] > circles(me, g);
                self.build_production_per_vp * vp
                    + if surplus {
                        self.build_production_surplus_bonus
                    } else {
                        0.0
                    }
            }
            BuildingKind::SmallViolet => self.build_violet[usize::from(b - bld::SMALL_MARKET)],
            BuildingKind::Large => {
                self.build_large_base + self.build_large_per_bonus * f64::from(large_bonus(me, b))
            }
        };
        W::Computed(prior * (1.0 + vp * pr / self.build_progress_divisor))
    }

    /// The weight of a colonist on `target`, lifted to the floor (a computed weight), `chains`
    /// being `me`'s.
    fn colonist(&self, me: &PlayerState, chains: &Chains, target: u8) -> f64 {
        let w = if target < COLONIST_BUILDING {
            match target {
                CORN => self.colonist_corn,
                QUARRY => self.colonist_quarry,
                g if me.occupied[usize::from(g)] < chains.circles[usize::from(g)] => {
                    self.colonist_chain
                }
                _ => self.colonist_unmatched_plantation,
            }
        } else {
            let b = target - COLONIST_BUILDING;
            match BUILDING_TABLE[usize::from(b)].kind {
                BuildingKind::Production(g)
                    if chains.workers[usize::from(g)] < me.occupied[usize::from(g)] =>
                {
                    self.colonist_chain
                }
                BuildingKind::Production(_) => self.colonist_unmatched_circle,
                BuildingKind::SmallViolet => self.colonist_violet,
                BuildingKind::Large => self.colonist_large,
            }
        };
        w.max(self.floor)
    }

    /// The weight of one legal action `a` of `s` before the floor; `cargo` says whether a
    /// non-wharf load is legal (captain phase).
    fn weigh(&self, s: &State, pr: f64, cargo: bool, a: Action) -> W {
        let p = usize::from(s.actor);
        let me = &s.players[p];
        match a.kind {
            Kind::Role => self.role(s, pr, a.payload),
            Kind::Hacienda => W::Computed(if a.payload == DRAW {
                let free = SPACES - me.island();
                if free >= self.hacienda_draw_space && pr < self.hacienda_draw_progress {
                    self.hacienda_draw
                } else {
                    self.hacienda_draw_late
                }
            } else {
                self.hacienda_skip
            }),
            Kind::Plantation if a.is_pass() => W::Exact(self.plantation_pass),
            Kind::Plantation => self.plantation(me, a.payload),
            Kind::Colonist => W::Computed(self.colonist(me, &Chains::of(me), a.payload)),
            Kind::Build if a.is_pass() => W::Exact(self.build_pass),
            Kind::Build => self.build(me, pr, a.payload),
            Kind::ExtraGood if a.is_pass() => W::Exact(self.extra_good_pass),
            Kind::ExtraGood => W::Computed(
                self.value(f64::from(PRICES[usize::from(a.payload)]) + self.extra_good_offset),
            ),
            Kind::Sell if a.is_pass() => {
                let best = (0..GOODS as u8)
                    .filter(|&g| can_sell(s, p, g))
                    .map(|g| sale_price(s, p, g))
                    .max()
                    .unwrap_or(0);
                W::Exact(if best <= self.sell_cheap_price {
                    self.sell_pass_cheap
                } else {
                    self.sell_pass
                })
            }
            Kind::Sell => {
                W::Computed(self.value(f64::from(sale_price(s, p, a.payload))) + self.sell_bonus)
            }
            Kind::Load if a.is_pass() => W::Exact(self.load_pass),
            Kind::Load => {
                let g = usize::from(a.payload / 4);
                let target = a.payload % 4;
                let held = me.goods[g];
                let n = if target == WHARF {
                    held
                } else {
                    let i = usize::from(target);
                    held.min(s.ship_cap[i] - s.ship_load[i])
                };
                let harbor = if me.active(bld::HARBOR) {
                    self.load_harbor
                } else {
                    0.0
                };
                let mut w = self.value(f64::from(n) + harbor);
                if target == WHARF && cargo {
                    w *= self.load_wharf_factor;
                }
                W::Computed(w)
            }
            Kind::Store => {
                let g = usize::from(a.payload / 2);
                let barrels = if a.payload % 2 == WINDROSE {
                    1.0
                } else {
                    f64::from(me.goods[g])
                };
                W::Computed(self.value(barrels * (f64::from(PRICES[g]) + self.store_price_offset)))
            }
        }
    }

    /// Fills `out` (cleared first) with the SA-0 weight of each of `actions` (the legal
    /// actions of `s`, in order), floor and zero rules applied, times the preference factors
    /// ([`preference_of`]), before the exponent τ.
    pub fn weights(&self, s: &State, actions: &[Action], out: &mut Vec<f64>) {
        out.clear();
        // The phase says what the legal actions are.
        if s.phase == Phase::Mayor {
            // Placing colonists, the commonest decision of a game: no per-action dispatch,
            // and colonists have no preference factor.
            let me = &s.players[usize::from(s.actor)];
            let chains = Chains::of(me);
            out.extend(
                actions
                    .iter()
                    .map(|a| self.colonist(me, &chains, a.payload)),
            );
            return;
        }
        let needs_pr = matches!(
            s.phase,
            Phase::RoleSelection | Phase::Builder | Phase::Settler
        );
        let cargo = s.phase == Phase::Captain
            && actions
                .iter()
                .any(|a| a.kind == Kind::Load && !a.is_pass() && a.payload % 4 != WHARF);
        let pr = if needs_pr { progress(s) } else { 0.0 };
        out.extend(actions.iter().map(|&a| {
            let w = match self.weigh(s, pr, cargo, a) {
                W::Computed(w) => w.max(self.floor),
                W::Exact(w) => w,
            };
            preference_of(a).map_or(w, |i| w * self.preference[i])
        }));
    }

    /// Sets the [`PREFERENCES`] named in `weights` (others keep their values).
    ///
    /// # Errors
    ///
    /// A message naming an unknown preference or a negative or non-finite factor.
    pub fn set_preferences(&mut self, weights: &[(String, f64)]) -> Result<(), String> {
        for (name, w) in weights {
            let i = PREFERENCES.iter().position(|p| p == name).ok_or_else(|| {
                format!(
                    "unknown preference `{name}` (preferences: {})",
                    PREFERENCES.join(", ")
                )
            })?;
            if !w.is_finite() || *w < 0.0 {
                return Err(format!("`{name}` must be a finite factor ≥ 0, got {w}"));
            }
            self.preference[i] = *w;
        }
        Ok(())
    }
}

/// Index of the heaviest of `w` (the first on ties; 0 if `w` is empty).
pub fn heaviest(w: &[f64]) -> usize {
    let mut best = 0;
    for (i, &x) in w.iter().enumerate() {
        if x > w[best] {
            best = i;
        }
    }
    best
}

/// The Scripted AI SA-0 (spec §5.2): weighs every legal action ([`ScriptedWeights::weights`])
/// and draws one with probability ∝ w^τ from the agent's RNG (τ = ∞: the first heaviest). A
/// single legal action is played without a draw. Colonists are placed one draw per `colonist`
/// action, as the engine asks for them. Acting reuses the agent's buffers.
#[derive(Clone, Debug, Default)]
pub struct ScriptedAi {
    /// The weight table.
    pub weights: ScriptedWeights,
    actions: Vec<Action>,
    w: Vec<f64>,
}

impl ScriptedAi {
    /// SA-0 with these weights.
    pub fn new(weights: ScriptedWeights) -> Self {
        ScriptedAi {
            weights,
            actions: Vec::new(),
            w: Vec::new(),
        }
    }

    /// Index into `w` drawn ∝ w^τ (argmax, first on ties, for τ = ∞; uniform if all are 0).
    fn draw(tau: f64, w: &mut [f64], rng: &mut Rng) -> usize {
        if tau == f64::INFINITY {
            return heaviest(w);
        }
        if tau != 1.0 {
            // Zero stays zero (0^0 would be 1).
            for x in w.iter_mut().filter(|x| **x > 0.0) {
                *x = x.powf(tau);
            }
        }
        weighted_index(w.iter().copied(), rng).unwrap_or_else(|| rng.random_range(0..w.len()))
    }
}

impl ScriptedAi {
    /// [`Agent::act`], which cannot fail: for callers that play many of its actions (the
    /// Thinking AI's simulations).
    ///
    /// # Panics
    ///
    /// If `state` has no legal action (it is terminal).
    pub fn choose(&mut self, game: &PuertoRicoGame, state: &State, rng: &mut Rng) -> Action {
        if state.phase == Phase::Mayor {
            // The commonest decision of a game: one walk lists and weighs the placements
            // (what `legal_actions` and `weights` give).
            let me = &state.players[usize::from(state.actor)];
            let chains = Chains::of(me);
            let (weights, actions, w) = (&self.weights, &mut self.actions, &mut self.w);
            actions.clear();
            w.clear();
            colonist_actions(me, |a| {
                actions.push(a);
                w.push(weights.colonist(me, &chains, a.payload));
            });
        } else {
            game.legal_actions(state, &mut self.actions);
            self.weights.weights(state, &self.actions, &mut self.w);
        }
        assert!(
            !self.actions.is_empty(),
            "scripted AI asked to act in a state without legal actions"
        );
        if self.actions.len() == 1 {
            return self.actions[0];
        }
        self.actions[Self::draw(self.weights.tau, &mut self.w, rng)]
    }
}

impl Agent<PuertoRicoGame> for ScriptedAi {
    fn name(&self) -> String {
        "sa0".to_string()
    }

    /// [`ScriptedAi::choose`].
    ///
    /// # Panics
    ///
    /// If `state` has no legal action (it is terminal).
    fn act(
        &mut self,
        game: &PuertoRicoGame,
        state: &State,
        rng: &mut Rng,
    ) -> crate::Result<Action> {
        Ok(self.choose(game, state, rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::RandomAgent;
    use crate::arena::play_match;
    use crate::games::puerto_rico::Level;
    use crate::games::puerto_rico::state::Phase;
    use crate::games::puerto_rico::test_support::{game, start};
    use crate::games::puerto_rico::types::{COFFEE, INDIGO, PASS, SUGAR};
    use crate::rng::rng_from_seed;

    /// The legal actions of `s` and their SA-0 weights.
    fn weighed(s: &State) -> Vec<(Action, f64)> {
        let mut actions = Vec::new();
        game().legal_actions(s, &mut actions);
        let mut w = Vec::new();
        ScriptedWeights::default().weights(s, &actions, &mut w);
        actions.into_iter().zip(w).collect()
    }

    /// The weight of the legal action of this kind and payload.
    fn weight(s: &State, kind: Kind, payload: u8) -> f64 {
        weighed(s)
            .into_iter()
            .find(|(a, _)| a.kind == kind && a.payload == payload)
            .unwrap_or_else(|| panic!("{kind:?} {payload} not legal"))
            .1
    }

    fn give(s: &mut State, p: usize, b: u8, workers: u8) {
        let me = &mut s.players[p];
        me.owned |= 1 << b;
        me.workers[usize::from(b)] = workers;
        me.city += BUILDING_TABLE[usize::from(b)].size();
    }

    fn pick(s: &mut State, r: u8) {
        game().apply(s, Action::new(Kind::Role, r));
    }

    #[test]
    fn role_weights_follow_the_table() {
        let mut s = start(3, 1);
        s.role_coins[usize::from(role::SETTLER)] = 2;
        // Seat 0: one unoccupied indigo tile, 2 doubloons, no barrels; ship 3, supply 55.
        assert_eq!(
            weight(&s, Kind::Role, role::SETTLER),
            10.0 + 8.0 + 6.0 + 3.0
        );
        assert_eq!(weight(&s, Kind::Role, role::MAYOR), 10.0 + 2.0);
        assert_eq!(weight(&s, Kind::Role, role::BUILDER), 10.0);
        assert_eq!(weight(&s, Kind::Role, role::CRAFTSMAN), 10.0);
        assert_eq!(weight(&s, Kind::Role, role::TRADER), 0.0);
        assert_eq!(weight(&s, Kind::Role, role::CAPTAIN), 1.0);

        // Builder: +2 per doubloon above 4, clamped at 12; 0 when nothing is affordable.
        s.players[0].doubloons = 7;
        assert_eq!(weight(&s, Kind::Role, role::BUILDER), 16.0);
        s.players[0].doubloons = 30;
        assert_eq!(weight(&s, Kind::Role, role::BUILDER), 22.0);
        s.players[0].doubloons = 0;
        s.copies[usize::from(bld::SMALL_INDIGO)] = 0;
        s.copies[usize::from(bld::SMALL_MARKET)] = 0;
        assert_eq!(weight(&s, Kind::Role, role::BUILDER), 0.0);

        // Trader: 3 × the best price with privilege; captain: 2 × own − opponents' barrels.
        s.players[0].goods[usize::from(COFFEE)] = 1;
        s.players[0].goods[usize::from(CORN)] = 2;
        s.players[1].goods[usize::from(INDIGO)] = 3;
        assert_eq!(weight(&s, Kind::Role, role::TRADER), 10.0 + 3.0 * 5.0);
        assert_eq!(
            weight(&s, Kind::Role, role::CAPTAIN),
            10.0 + 2.0 * 3.0 - 3.0
        );
        // Craftsman: 3 × own − 2 × best opponent production, floored at 0.5.
        s.players[1].occupied[usize::from(CORN)] = 1;
        s.players[1].tiles[usize::from(CORN)] = 1;
        assert_eq!(weight(&s, Kind::Role, role::CRAFTSMAN), 10.0 - 2.0);
        s.players[2].occupied[usize::from(CORN)] = 5;
        s.players[2].tiles[usize::from(CORN)] = 5;
        assert_eq!(weight(&s, Kind::Role, role::CRAFTSMAN), 0.5);
        // Mayor ×0.2 without an empty circle.
        s.players[0].occupied[usize::from(INDIGO)] = 1;
        assert!((weight(&s, Kind::Role, role::MAYOR) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn plantations_double_for_unused_circles() {
        let mut s = start(3, 2);
        s.row = [1, 1, 1, 0, 1];
        give(&mut s, 0, bld::INDIGO_PLANT, 0);
        s.players[0].tiles[usize::from(QUARRY)] = 3;
        pick(&mut s, role::SETTLER);
        assert_eq!(s.phase, Phase::Settler);
        assert_eq!(weight(&s, Kind::Plantation, CORN), 7.0 * 1.5);
        assert_eq!(weight(&s, Kind::Plantation, INDIGO), 6.0 * 2.0);
        assert_eq!(weight(&s, Kind::Plantation, SUGAR), 7.0);
        assert_eq!(weight(&s, Kind::Plantation, COFFEE), 8.0);
        assert!((weight(&s, Kind::Plantation, QUARRY) - 3.0).abs() < 1e-12);
        assert_eq!(weight(&s, Kind::Plantation, PASS), 0.1);
    }

    #[test]
    fn build_weights_grow_with_progress() {
        let mut s = start(3, 3);
        s.players[0].doubloons = 20;
        s.players[0].tiles[usize::from(SUGAR)] = 2;
        pick(&mut s, role::BUILDER);
        assert_eq!(s.phase, Phase::Builder);
        // Pr = 0: production 3 × VP (+8 with more sugar tiles than circles), violet priors.
        assert_eq!(weight(&s, Kind::Build, bld::SMALL_SUGAR), 3.0 + 8.0);
        // Seat 0 starts with an indigo tile and no indigo circle.
        assert_eq!(weight(&s, Kind::Build, bld::INDIGO_PLANT), 6.0 + 8.0);
        assert_eq!(weight(&s, Kind::Build, bld::HARBOR), 10.0);
        // Residence: 14 + 2 × 4 VP of bonus for a small island.
        assert_eq!(weight(&s, Kind::Build, bld::RESIDENCE), 22.0);
        assert_eq!(weight(&s, Kind::Build, PASS), 1.0);
        // Pr = 50 (half the colonist supply used): × (1 + VP).
        s.colonist_supply = 55 - 55 / 2 - 1;
        let pr = progress(&s);
        assert!(pr > 50.0);
        let f = 1.0 + 3.0 * pr / 50.0;
        assert!((weight(&s, Kind::Build, bld::HARBOR) - 10.0 * f).abs() < 1e-9);
    }

    #[test]
    fn captain_loads_weigh_barrels_plus_harbor_squared_and_halve_the_wharf() {
        let mut s = start(3, 4);
        s.players[0].goods[usize::from(CORN)] = 3;
        give(&mut s, 0, bld::HARBOR, 1);
        give(&mut s, 0, bld::WHARF, 1);
        pick(&mut s, role::CAPTAIN);
        assert_eq!(s.phase, Phase::Captain);
        // The largest empty ship (6) takes all 3: (3 + 1)²; the wharf ×0.5.
        assert_eq!(weight(&s, Kind::Load, CORN * 4 + 2), 16.0);
        assert_eq!(weight(&s, Kind::Load, CORN * 4 + WHARF), 8.0);
    }

    #[test]
    fn trader_pass_and_sales() {
        let mut s = start(3, 5);
        s.players[0].goods[usize::from(CORN)] = 1;
        pick(&mut s, role::TRADER);
        assert_eq!(s.phase, Phase::Trader);
        // Corn sells for 1 with the privilege: 1² + 0.1 floored to 0.5; pass 1.
        assert_eq!(weight(&s, Kind::Sell, CORN), 1.1);
        assert_eq!(weight(&s, Kind::Sell, PASS), 1.0);
        s.players[0].goods[usize::from(COFFEE)] = 1;
        assert_eq!(weight(&s, Kind::Sell, COFFEE), 25.1);
        assert_eq!(weight(&s, Kind::Sell, PASS), 0.2);
    }

    #[test]
    fn colonists_prefer_completing_chains() {
        let mut s = start(3, 6);
        let me = &mut s.players[0];
        me.tiles = [1, 2, 0, 0, 0, 0];
        me.occupied = [0; 6];
        me.san_juan = 2;
        give(&mut s, 0, bld::INDIGO_PLANT, 0);
        give(&mut s, 0, bld::SMALL_MARKET, 0);
        s.phase = Phase::Mayor;
        s.actor = 0;
        let plant = COLONIST_BUILDING + bld::INDIGO_PLANT;
        let market = COLONIST_BUILDING + bld::SMALL_MARKET;
        assert_eq!(weight(&s, Kind::Colonist, CORN), 8.0);
        assert_eq!(weight(&s, Kind::Colonist, INDIGO), 10.0);
        assert_eq!(weight(&s, Kind::Colonist, plant), 2.0);
        assert_eq!(weight(&s, Kind::Colonist, market), 9.0);
        crate::games::puerto_rico::legal::place(&mut s.players[0], INDIGO);
        assert_eq!(weight(&s, Kind::Colonist, plant), 10.0);
    }

    #[test]
    fn progress_starts_at_zero_rises_and_is_clamped() {
        let mut s = start(3, 7);
        assert_eq!(progress(&s), 0.0);
        s.vp_supply = 75 - 15;
        assert!((progress(&s) - 20.0).abs() < 1e-12);
        s.players[1].city = 9;
        assert!((progress(&s) - 75.0).abs() < 1e-12);
        s.vp_supply = -4;
        assert_eq!(progress(&s), 100.0);
    }

    #[test]
    fn infinite_tau_plays_the_argmax_and_acting_is_deterministic() {
        let s = start(3, 8);
        let mut greedy = ScriptedAi::new(ScriptedWeights {
            tau: f64::INFINITY,
            ..ScriptedWeights::default()
        });
        let a = greedy.act(&game(), &s, &mut rng_from_seed(1)).unwrap();
        assert_eq!(a, Action::new(Kind::Role, role::SETTLER));
        // Ties go to the first in legal order: with all priors equal, the settler again.
        let mut flat = ScriptedAi::new(ScriptedWeights {
            tau: f64::INFINITY,
            role_base: 1.0,
            role_per_doubloon: 0.0,
            settler_small_island_bonus: 0.0,
            settler_quarry_bonus: 0.0,
            mayor_per_colonist: 0.0,
            ..ScriptedWeights::default()
        });
        assert_eq!(
            flat.act(&game(), &s, &mut rng_from_seed(2)).unwrap(),
            Action::new(Kind::Role, role::SETTLER)
        );

        let play = |seed| {
            let mut agents: Vec<Box<dyn Agent<PuertoRicoGame>>> = (0..3)
                .map(|_| Box::new(ScriptedAi::default()) as _)
                .collect();
            play_match(
                &game(),
                &Level::new(3).unwrap(),
                &mut agents,
                seed,
                |_, _| {},
            )
            .unwrap()
            .actions
        };
        assert_eq!(play(11), play(11));
    }

    /// SA-0 lists and weighs a mayor turn's placements in one walk: the same list and weights
    /// as `legal_actions` and `weights`, at every placement of 20 games of 2 to 5 players.
    #[test]
    fn the_mayor_shortcut_lists_and_weighs_as_the_general_path() {
        let g = game();
        let (mut actions, mut w) = (Vec::new(), Vec::new());
        let mut placements = 0;
        for seed in 0..20u64 {
            let mut s = start(2 + (seed % 4) as usize, seed);
            let mut sa = ScriptedAi::default();
            let mut rng = rng_from_seed(seed);
            while s.phase != Phase::Over {
                let a = sa.act(&g, &s, &mut rng).unwrap();
                if s.phase == Phase::Mayor {
                    g.legal_actions(&s, &mut actions);
                    sa.weights.weights(&s, &actions, &mut w);
                    assert_eq!((&sa.actions, &sa.w), (&actions, &w));
                    placements += 1;
                }
                g.apply(&mut s, a);
            }
        }
        assert!(placements > 500, "{placements}");
    }

    /// Over SA-0 self-play, every listed action weighs a finite w ≥ 0, and the played one
    /// weighs more than 0 unless every choice does not.
    #[test]
    fn weights_stay_finite_and_the_played_action_has_weight() {
        let mut actions = Vec::new();
        let mut w = Vec::new();
        let weights = ScriptedWeights::default();
        for seed in 0..5 {
            let mut agents: Vec<Box<dyn Agent<PuertoRicoGame>>> = (0..4)
                .map(|_| Box::new(ScriptedAi::default()) as _)
                .collect();
            let level = Level::new(4).unwrap();
            let record = play_match(&game(), &level, &mut agents, seed, |s, a| {
                game().legal_actions(s, &mut actions);
                weights.weights(s, &actions, &mut w);
                assert!(w.iter().all(|x| x.is_finite() && *x >= 0.0), "{w:?}");
                let i = actions.iter().position(|&b| b == a).unwrap();
                assert!(w[i] > 0.0 || w.iter().all(|&x| x == 0.0) || actions.len() == 1);
            })
            .unwrap();
            assert!(record.outcome.is_some());
        }
    }

    #[test]
    fn preferences_scale_their_choices_and_zero_rules_a_role_out() {
        let s = start(3, 4);
        let mut actions = Vec::new();
        game().legal_actions(&s, &mut actions);
        let (mut base, mut scaled) = (Vec::new(), Vec::new());
        ScriptedWeights::default().weights(&s, &actions, &mut base);
        let mut w = ScriptedWeights::default();
        w.set_preferences(&[("role.captain".into(), 0.0), ("role.builder".into(), 2.0)])
            .unwrap();
        w.weights(&s, &actions, &mut scaled);
        for ((a, b), x) in actions.iter().zip(&base).zip(&scaled) {
            let factor = match (a.kind, a.payload) {
                (Kind::Role, role::CAPTAIN) => 0.0,
                (Kind::Role, role::BUILDER) => 2.0,
                _ => 1.0,
            };
            assert_eq!(*x, b * factor, "{a:?}");
        }
        // Never the captain while another role weighs more than 0.
        let mut ai = ScriptedAi::new(w);
        let mut rng = rng_from_seed(9);
        for _ in 0..200 {
            let a = ai.act(&game(), &s, &mut rng).unwrap();
            assert!(!(a.kind == Kind::Role && a.payload == role::CAPTAIN));
        }
        let mut bad = ScriptedWeights::default();
        assert!(bad.set_preferences(&[("role.nobody".into(), 1.0)]).is_err());
        assert!(
            bad.set_preferences(&[("build.large".into(), -1.0)])
                .is_err()
        );
        assert_eq!(preference_of(Action::new(Kind::Build, bld::WHARF)), Some(8));
        assert_eq!(
            preference_of(Action::new(Kind::Role, role::PROSPECTOR_2)),
            Some(6)
        );
    }

    /// 1 SA-0 against 2 uniformly random players, 3 players, SA-0's seat rotating over 60
    /// seeded games. Measured: SA-0 won 54 of 60 (90 %; 279 of 300 = 93 % over seeds 1000–1299);
    /// asserted: at least 60 %.
    #[test]
    fn sa0_beats_random_players() {
        let level = Level::new(3).unwrap();
        let games = 60;
        let mut wins = 0;
        for i in 0..games {
            let seat = i % 3;
            let mut agents: Vec<Box<dyn Agent<PuertoRicoGame>>> = (0..3)
                .map(|p| -> Box<dyn Agent<PuertoRicoGame>> {
                    if p == seat {
                        Box::new(ScriptedAi::default())
                    } else {
                        Box::new(RandomAgent::new())
                    }
                })
                .collect();
            let record =
                play_match(&game(), &level, &mut agents, 1000 + i as u64, |_, _| {}).unwrap();
            assert!(!record.capped, "game {i} did not finish");
            let outcome = record.outcome.expect("the game finished");
            wins += usize::from(outcome.winner() == Some(seat));
        }
        eprintln!("SA-0 won {wins} of {games}");
        assert!(wins * 100 >= 60 * games, "SA-0 won {wins} of {games}");
    }
}
