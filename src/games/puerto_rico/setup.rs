//! Components by player count (spec §1.2), set-up by seat (§1.4) and the levels: a level is
//! the number of players, 2 to 5.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::state::{MAX_PLAYERS, NO_GOOD, Phase, PlayerState, State};
use super::types::{BUILDING_TABLE, BUILDINGS, BuildingKind, CORN, GOODS, INDIGO, ROLES};
use crate::error::{Error, Result};
use crate::rng::{derive_rng, derive_seed};

/// Tag of the initial stack shuffle's seed ("stack").
pub const STACK_TAG: u64 = 0x73_7461_636b;
/// Tag of the state RNG's seed ("rng").
pub const RNG_TAG: u64 = 0x72_6e67;

/// A Puerto Rico level: the number of players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Level {
    players: u8,
}

impl Level {
    /// A game for `players` players.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `players` unless it is 2 to 5.
    pub fn new(players: usize) -> Result<Level> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(Error::config(
                "players",
                format!("Puerto Rico takes 2 to 5 players, not {players}"),
            ));
        }
        Ok(Level {
            players: players as u8,
        })
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        usize::from(self.players)
    }
}

/// Rule options (spec §2.12): the `[rules]` table of a config.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// VP chips with 5 players: 122 (2002 edition, the default) or 126 (Deluxe).
    #[serde(deserialize_with = "vp_chips_5p")]
    pub vp_chips_5p: u16,
}

/// Reads [`Options::vp_chips_5p`], refusing anything but 122 and 126.
fn vp_chips_5p<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<u16, D::Error> {
    let v = u16::deserialize(d)?;
    if v != 122 && v != 126 {
        return Err(serde::de::Error::custom(format!(
            "vp_chips_5p is 122 or 126, not {v}"
        )));
    }
    Ok(v)
}

impl Default for Options {
    fn default() -> Self {
        Options { vp_chips_5p: 122 }
    }
}

impl Options {
    /// Checks the options.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `vp_chips_5p` unless it is 122 or 126.
    pub fn validate(&self) -> Result<()> {
        if self.vp_chips_5p != 122 && self.vp_chips_5p != 126 {
            return Err(Error::config(
                "vp_chips_5p",
                format!("is 122 or 126, not {}", self.vp_chips_5p),
            ));
        }
        Ok(())
    }
}

/// Plantation tiles in play by crop (corn, indigo, sugar, tobacco, coffee).
pub fn plantation_pool(n: usize) -> [u8; GOODS] {
    if n == 2 {
        [7, 9, 8, 6, 5]
    } else {
        [10, 12, 11, 9, 8]
    }
}

/// Barrels in play by good.
pub fn barrel_pool(n: usize) -> [u8; GOODS] {
    if n == 2 {
        [8, 9, 9, 7, 7]
    } else {
        [10, 11, 11, 9, 9]
    }
}

/// Quarries in play.
pub fn quarry_pool(n: usize) -> u8 {
    if n == 2 { 5 } else { 8 }
}

/// Colonists in play (supply + ship at the start).
pub fn colonists_in_play(n: usize) -> u32 {
    [0, 0, 42, 58, 79, 100][n]
}

/// Starting crop of each seat (spec §1.4).
pub fn start_tile(n: usize, seat: usize) -> u8 {
    let indigo_seats = match n {
        2 => 1,
        3 | 4 => 2,
        _ => 3,
    };
    if seat < indigo_seats { INDIGO } else { CORN }
}

/// Copies of building `b` in play.
pub fn building_copies(n: usize, b: usize) -> u8 {
    let t = &BUILDING_TABLE[b];
    if n == 2 { t.copies_2p } else { t.copies }
}

/// The starting state for `level`, the stack shuffled from `seed`.
pub fn initial_state(level: &Level, options: &Options, seed: u64) -> State {
    let n = level.players();
    let (supply, ship, vp, coins) = match n {
        2 => (40, 2, 65, 3),
        3 => (55, 3, 75, 2),
        4 => (75, 4, 100, 3),
        _ => (95, 5, options.vp_chips_5p as i16, 4),
    };
    let mut players = [PlayerState::default(); MAX_PLAYERS];
    let mut pool = plantation_pool(n);
    for (seat, p) in players.iter_mut().enumerate().take(n) {
        p.doubloons = coins;
        let crop = start_tile(n, seat);
        p.tiles[usize::from(crop)] = 1;
        pool[usize::from(crop)] -= 1;
    }
    let mut stack = [0u8; 50];
    let mut len = 0;
    for (c, &k) in pool.iter().enumerate() {
        for _ in 0..k {
            stack[len] = c as u8;
            len += 1;
        }
    }
    let mut rng = derive_rng(seed, &[STACK_TAG]);
    for i in (1..len).rev() {
        let j = rng.random_range(0..=i);
        stack.swap(i, j);
    }
    let (num_ships, ship_cap) = match n {
        2 => (2, [4, 6, 0]),
        3 => (3, [4, 5, 6]),
        4 => (3, [5, 6, 7]),
        _ => (3, [6, 7, 8]),
    };
    let roles_in_play: u8 = match n {
        3 => 0b0011_1111,
        5 => 0b1111_1111,
        _ => 0b0111_1111,
    };
    let mut copies = [0u8; BUILDINGS];
    for (b, c) in copies.iter_mut().enumerate() {
        *c = building_copies(n, b);
    }
    debug_assert!(
        BUILDING_TABLE
            .iter()
            .all(|t| t.kind != BuildingKind::Production(CORN))
    );
    let mut s = State {
        players,
        n: n as u8,
        governor: 0,
        picks: 0,
        roles_in_play,
        roles_taken: 0,
        role_coins: [0; ROLES],
        phase: Phase::RoleSelection,
        chooser: 0,
        step: 0,
        actor: 0,
        sub: 0,
        received: 0,
        out: 0,
        wharf_used: 0,
        bonus_used: false,
        colonist_supply: supply,
        colonist_ship: ship,
        vp_supply: vp,
        goods_supply: barrel_pool(n),
        quarries: quarry_pool(n),
        copies,
        num_ships,
        ship_cap,
        ship_good: [NO_GOOD; 3],
        ship_load: [0; 3],
        house: [0; GOODS],
        row: [0; GOODS],
        stack,
        stack_len: len as u8,
        discard: [0; GOODS],
        rng: derive_seed(seed, &[RNG_TAG]),
        end_triggered: false,
        round: 0,
    };
    refill_row(&mut s);
    s
}

/// Draws face-up plantations until the row holds N+1 or no tile is left (spec §2.3).
pub fn refill_row(s: &mut State) {
    let mut in_row: u8 = s.row.iter().sum();
    while in_row < s.n + 1 {
        match s.draw_tile() {
            Some(c) => {
                s.row[usize::from(c)] += 1;
                in_row += 1;
            }
            None => break,
        }
    }
}
