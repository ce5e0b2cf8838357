//! The game state (spec §7.1): plain `Copy` data, no heap; island and city positions carry no
//! rule meaning, so tiles and buildings are counts and masks.

use super::types::{BUILDING_TABLE, BUILDINGS, BuildingKind, GOODS, ROLES, SPACES, bld};

/// The most players.
pub const MAX_PLAYERS: usize = 5;
/// Marks an empty cargo ship.
pub const NO_GOOD: u8 = u8::MAX;

/// The set bits of `mask`, lowest first (building ids of an `owned` mask, ascending).
pub fn ones(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

/// The buildings producing each good (bit = building id), from [`BUILDING_TABLE`].
pub const PRODUCTION: [u32; GOODS] = {
    let mut masks = [0; GOODS];
    let mut b = 0;
    while b < BUILDINGS {
        if let BuildingKind::Production(g) = BUILDING_TABLE[b].kind {
            masks[g as usize] |= 1 << b;
        }
        b += 1;
    }
    masks
};

/// What is being resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// A player picks a role.
    RoleSelection,
    /// Settler phase (hacienda, plantation or quarry).
    Settler,
    /// Mayor phase (colonist placement).
    Mayor,
    /// Builder phase.
    Builder,
    /// Craftsman phase (only the chooser's extra barrel is a decision).
    Craftsman,
    /// Trader phase.
    Trader,
    /// Captain phase: loading.
    Captain,
    /// Captain phase: storage.
    Storage,
    /// The game is over.
    Over,
}

/// One player's holdings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PlayerState {
    /// Money.
    pub doubloons: u16,
    /// VP chips won by shipping.
    pub chips: u16,
    /// Barrels held, by good.
    pub goods: [u8; GOODS],
    /// Island tiles by crop (0..5) and quarries (5).
    pub tiles: [u8; 6],
    /// Occupied island tiles, same indexing.
    pub occupied: [u8; 6],
    /// Owned buildings, bit = building id.
    pub owned: u32,
    /// Colonists on each building.
    pub workers: [u8; BUILDINGS],
    /// City spaces used (large buildings count 2).
    pub city: u8,
    /// Colonists in San Juan (during a mayor turn: the colonists still to place).
    pub san_juan: u8,
    /// Barrels produced (statistics).
    pub produced: u16,
    /// Barrels sold (statistics).
    pub sold: u16,
    /// Barrels shipped (statistics).
    pub shipped: u16,
    /// Barrels spoiled at storage (statistics).
    pub spoiled: u16,
}

impl PlayerState {
    /// True if the player owns building `b`.
    pub fn owns(&self, b: u8) -> bool {
        self.owned & (1 << b) != 0
    }

    /// True if the player owns building `b` and it has a colonist.
    pub fn active(&self, b: u8) -> bool {
        self.workers[b as usize] > 0
    }

    /// Island tiles of every kind.
    pub fn island(&self) -> u8 {
        self.tiles.iter().sum()
    }

    /// True if the island has no free space.
    pub fn island_full(&self) -> bool {
        self.island() >= SPACES
    }

    /// Occupied quarries.
    pub fn active_quarries(&self) -> u8 {
        self.occupied[5]
    }

    /// Every colonist the player owns (tiles, buildings, San Juan).
    pub fn colonists(&self) -> u32 {
        let tiles: u32 = self.occupied.iter().map(|&c| u32::from(c)).sum();
        let city: u32 = self.workers.iter().map(|&c| u32::from(c)).sum();
        tiles + city + u32::from(self.san_juan)
    }

    /// Empty circles on own buildings.
    pub fn empty_building_circles(&self) -> u32 {
        ones(self.owned)
            .map(|b| u32::from(BUILDING_TABLE[b].slots - self.workers[b]))
            .sum()
    }

    /// Empty circles on tiles and buildings.
    pub fn empty_circles(&self) -> u32 {
        let island: u32 = (0..6)
            .map(|t| u32::from(self.tiles[t] - self.occupied[t]))
            .sum();
        island + self.empty_building_circles()
    }

    /// Production capacity of good `g` (spec §1.3).
    pub fn capacity(&self, g: u8) -> u8 {
        let crop = self.occupied[g as usize];
        if g == 0 {
            return crop;
        }
        let circles: u8 = ones(PRODUCTION[g as usize]).map(|b| self.workers[b]).sum();
        crop.min(circles)
    }

    /// Whole kinds the player's occupied warehouses keep (0–3).
    pub fn warehouse_kinds(&self) -> u8 {
        u8::from(self.active(bld::SMALL_WAREHOUSE))
            + 2 * u8::from(self.active(bld::LARGE_WAREHOUSE))
    }

    /// Barrels of every kind.
    pub fn barrels(&self) -> u32 {
        self.goods.iter().map(|&g| u32::from(g)).sum()
    }
}

/// A Puerto Rico position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Every seat's holdings (entries past `n` unused).
    pub players: [PlayerState; MAX_PLAYERS],
    /// Number of players.
    pub n: u8,
    /// Seat of the governor.
    pub governor: u8,
    /// Roles picked so far this round.
    pub picks: u8,
    /// Role cards in play, bit = role id.
    pub roles_in_play: u8,
    /// Roles picked this round, bit = role id.
    pub roles_taken: u8,
    /// Doubloons lying on each role card.
    pub role_coins: [u8; ROLES],
    /// What is being resolved.
    pub phase: Phase,
    /// The seat that picked the role being resolved.
    pub chooser: u8,
    /// Players done in this phase (the actor is `chooser + step`, except in the captain phase).
    pub step: u8,
    /// The seat to act.
    pub actor: u8,
    /// Per-turn sub-step: settler — hacienda step over; mayor — colonists lifted; storage —
    /// mask of kinds put into warehouses.
    pub sub: u8,
    /// Goods the craftsman received this phase (mask).
    pub received: u8,
    /// Captain phase: players out (mask).
    pub out: u8,
    /// Captain phase: players that used their wharf (mask).
    pub wharf_used: u8,
    /// Captain phase: the captain's first-load bonus was paid.
    pub bonus_used: bool,
    /// Colonists in the supply.
    pub colonist_supply: u8,
    /// Colonists on the colonist ship.
    pub colonist_ship: u8,
    /// VP chips left (negative: the deficit paid beyond the supply).
    pub vp_supply: i16,
    /// Barrels in the supply, by good.
    pub goods_supply: [u8; GOODS],
    /// Quarry tiles left.
    pub quarries: u8,
    /// Copies of each building left.
    pub copies: [u8; BUILDINGS],
    /// Number of cargo ships (2 or 3).
    pub num_ships: u8,
    /// Capacity of each cargo ship.
    pub ship_cap: [u8; 3],
    /// Good on each ship ([`NO_GOOD`] if empty).
    pub ship_good: [u8; 3],
    /// Barrels on each ship.
    pub ship_load: [u8; 3],
    /// Barrels in the trading house, by good.
    pub house: [u8; GOODS],
    /// Face-up plantations, by crop.
    pub row: [u8; GOODS],
    /// Face-down stack (top = `stack[stack_len - 1]`).
    pub stack: [u8; 50],
    /// Tiles in the face-down stack.
    pub stack_len: u8,
    /// Discarded plantations, by crop.
    pub discard: [u8; GOODS],
    /// State RNG (splitmix64) for reshuffles of the discard pile.
    pub rng: u64,
    /// A game-end trigger fired this round (spec §2.11).
    pub end_triggered: bool,
    /// Completed rounds.
    pub round: u16,
}

impl State {
    /// Number of players.
    pub fn n(&self) -> usize {
        usize::from(self.n)
    }

    /// The seat `k` seats clockwise of `p`.
    pub fn seat(&self, p: u8, k: u8) -> u8 {
        (p + k) % self.n
    }

    /// Barrels in the trading house.
    pub fn house_fill(&self) -> u8 {
        self.house.iter().sum()
    }

    /// Next value of the state RNG.
    pub fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        crate::rng::mix64(self.rng)
    }

    /// A uniform index below `n` from the state RNG.
    pub fn random_below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_random()) * n as u128) >> 64) as usize
    }

    /// Takes one colonist for a hospice or university: from the supply, else the ship.
    pub fn take_bonus_colonist(&mut self) -> bool {
        if self.colonist_supply > 0 {
            self.colonist_supply -= 1;
            true
        } else if self.colonist_ship > 0 {
            self.colonist_ship -= 1;
            true
        } else {
            false
        }
    }

    /// Draws the top face-down tile, reshuffling the discards first if the stack is empty.
    pub fn draw_tile(&mut self) -> Option<u8> {
        if self.stack_len == 0 {
            self.reshuffle_discards();
        }
        if self.stack_len == 0 {
            return None;
        }
        self.stack_len -= 1;
        Some(self.stack[usize::from(self.stack_len)])
    }

    /// Shuffles the discard pile (state RNG) under the face-down stack.
    pub fn reshuffle_discards(&mut self) {
        let start = usize::from(self.stack_len);
        let mut len = start;
        for c in 0..GOODS {
            for _ in 0..self.discard[c] {
                self.stack[len] = c as u8;
                len += 1;
            }
            self.discard[c] = 0;
        }
        // Fisher–Yates over the new part, then put it under the old stack.
        for i in (start + 1..len).rev() {
            let j = start + self.random_below(i - start + 1);
            self.stack.swap(i, j);
        }
        self.stack[..len].rotate_left(start);
        self.stack_len = len as u8;
    }

    /// The seat whose pick is next this round.
    pub fn picker(&self) -> u8 {
        if self.n == 2 {
            (self.governor + self.picks) % 2
        } else {
            self.seat(self.governor, self.picks)
        }
    }

    /// Role picks in a round (2 players: six).
    pub fn picks_per_round(&self) -> u8 {
        if self.n == 2 { 6 } else { self.n }
    }
}
