//! Puerto Rico positions as counts for learned evaluation ([`crate::learn::encoding`]): each
//! player's holdings and the shared supplies, in the count form of Campbell & Churchill's
//! Prismata network (`prismata.md` §14.2).
//!
//! Slots: for the seat whose view it is, then for each other seat clockwise, a block of
//! `BLOCK` slots — VP chips, score if the game ended now, doubloons, barrels of each good,
//! island tiles of each crop and quarries, the occupied ones, colonists in San Juan, city
//! spaces used, and per building 1 + its colonists if owned — then the shared part: VP chips
//! left, colonists in the supply and on the ship, the round, the phase, the barrels on each
//! cargo ship and in the trading house, the game-end trigger, the doubloons on each role card,
//! each role taken this round, and a 1 in the slot of how many seats after the view's seat
//! the governor sits and the player to act sits. Seats beyond the game's are left empty.

use super::PuertoRicoGame;
use super::scoring;
use super::state::{MAX_PLAYERS, State};
use super::types::{BUILDINGS, GOODS, ROLES};
use crate::game::Game;
use crate::learn::encoding::{Count, Encoding, push_count};

/// The encoding's name.
pub const NAME: &str = "puerto-rico-counts";

/// Its version.
pub const VERSION: u32 = 1;

/// Slots per seat.
const BLOCK: usize = 3 + GOODS + 6 + 6 + 2 + BUILDINGS;

/// Shared slots before the per-role and per-seat ones: VP left, colonist supply, colonist
/// ship, round, phase, three ships, trading house, end trigger.
const SHARED: usize = 11;

/// Slots in all.
const SLOTS: usize = MAX_PLAYERS * BLOCK + SHARED + 2 * ROLES + 2 * MAX_PLAYERS;

/// The encoding.
pub fn encoding() -> Encoding {
    Encoding {
        name: NAME.into(),
        version: VERSION,
        fingerprint: String::new(),
        slots: SLOTS as u16,
    }
}

/// Writes `state` from `player`'s seat as counts, slots in increasing order.
pub fn encode(game: &PuertoRicoGame, state: &State, player: usize, out: &mut Vec<Count>) {
    out.clear();
    let n = state.n();
    let mut block = [0u32; BLOCK];
    for k in 0..n {
        let me = &state.players[(player + k) % n];
        block.fill(0);
        block[0] = u32::from(me.chips);
        block[1] = scoring::score(me);
        block[2] = u32::from(me.doubloons);
        let mut i = 3;
        for g in 0..GOODS {
            block[i + g] = u32::from(me.goods[g]);
        }
        i += GOODS;
        for t in 0..6 {
            block[i + t] = u32::from(me.tiles[t]);
            block[i + 6 + t] = u32::from(me.occupied[t]);
        }
        i += 12;
        block[i] = u32::from(me.san_juan);
        block[i + 1] = u32::from(me.city);
        i += 2;
        for b in 0..BUILDINGS {
            if me.owned & (1 << b) != 0 {
                block[i + b] = 1 + u32::from(me.workers[b]);
            }
        }
        push_all(out, k * BLOCK, &block);
    }
    let mut shared = [0u32; SHARED];
    shared[0] = state.vp_supply.max(0) as u32;
    shared[1] = u32::from(state.colonist_supply);
    shared[2] = u32::from(state.colonist_ship);
    shared[3] = u32::from(state.round);
    shared[4] = 1 + u32::from(game.phase(state));
    for s in 0..usize::from(state.num_ships).min(3) {
        shared[5 + s] = u32::from(state.ship_load[s]);
    }
    shared[8] = state.house.iter().map(|&g| u32::from(g)).sum();
    shared[9] = u32::from(state.end_triggered);
    let mut base = MAX_PLAYERS * BLOCK;
    push_all(out, base, &shared);
    base += SHARED;
    for r in 0..ROLES {
        push_count(out, base + r, i64::from(state.role_coins[r]));
    }
    base += ROLES;
    for r in 0..ROLES {
        push_count(out, base + r, i64::from(state.roles_taken & (1 << r) != 0));
    }
    base += ROLES;
    let behind = |seat: u8| (usize::from(seat) + n - player) % n;
    push_count(out, base + behind(state.governor), 1);
    push_count(out, base + MAX_PLAYERS + behind(state.actor), 1);
}

fn push_all(out: &mut Vec<Count>, base: usize, values: &[u32]) {
    for (i, &v) in values.iter().enumerate() {
        push_count(out, base + i, i64::from(v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::SearchSupport;
    use crate::arena::initial_state;
    use crate::game::Game;
    use crate::games::puerto_rico::PuertoRicoGame;
    use crate::kit::GameKit;

    #[test]
    fn slots_are_increasing_and_in_range_and_views_rotate() {
        let game = PuertoRicoGame::with_rules(Default::default());
        let level = PuertoRicoGame::load_level("3p").unwrap();
        let mut s = initial_state(&game, &level, 11);
        let enc = game.encoding().unwrap();
        let mut rng = crate::rng::derive_rng(5, &[]);
        let mut acts = Vec::new();
        let mut views: Vec<Vec<Count>> = vec![Vec::new(); 3];
        for _ in 0..400 {
            if game.outcome(&s).is_some() {
                break;
            }
            for (p, v) in views.iter_mut().enumerate() {
                game.encode(&s, p, v);
                assert!(v.windows(2).all(|w| w[0].0 < w[1].0), "{v:?}");
                assert!(v.iter().all(|&(slot, c)| slot < enc.slots && c >= 1));
            }
            game.legal_actions(&s, &mut acts);
            let a = acts[rand::RngExt::random_range(&mut rng, 0..acts.len())];
            game.apply(&mut s, a);
        }
        // Seat 1's own block is seat 0's next-seat block.
        let block = |v: &[Count], k: usize| -> Vec<Count> {
            v.iter()
                .filter(|c| (k * BLOCK..(k + 1) * BLOCK).contains(&usize::from(c.0)))
                .map(|&(slot, c)| (slot - (k * BLOCK) as u16, c))
                .collect()
        };
        assert_eq!(block(&views[1], 0), block(&views[0], 1));
        assert_ne!(views[0], views[1]);
    }
}
