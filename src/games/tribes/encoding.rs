//! Tribes positions as counts for learned evaluation ([`crate::learn::encoding`]): per tribe,
//! from the seat whose view it is, its economy, army and technologies, as Campbell &
//! Churchill's Prismata encoding counts units and resources (spec §14.2 of `prismata.md`).
//!
//! Slots: for the seat itself, then for each other tribe in turn order after it, a block of
//! `BLOCK` slots — stars, cities, Σ city levels, cities connected to the capital, score in
//! hundreds, kills, production, technologies, units, units standing in another tribe's
//! territory, Σ city population, walled cities (`PER_TRIBE` in all), then the living units
//! of each [`UnitKind`] and a 1 for each technology researched ([`Tech`] order) — and last
//! the rounds played and, when another tribe is to move, a 1 in the slot of how many seats
//! after the view's seat it sits. Tribes beyond the level's are left empty.

use super::economy::tribe_production;
use super::state::{MAX_TRIBES, NONE};
use super::types::{Tech, UnitKind};
use super::{State, TribesGame};
use crate::learn::encoding::{Count, Encoding, push_count};

/// The encoding's name.
pub const NAME: &str = "tribes-counts";

/// Its version.
pub const VERSION: u32 = 1;

/// The per-tribe quantities before the unit kinds.
const PER_TRIBE: usize = 12;

/// Slots per tribe.
const BLOCK: usize = PER_TRIBE + UnitKind::COUNT + Tech::COUNT;

/// The encoding.
pub fn encoding() -> Encoding {
    Encoding {
        name: NAME.into(),
        version: VERSION,
        fingerprint: String::new(),
        slots: (MAX_TRIBES * BLOCK + MAX_TRIBES) as u16,
    }
}

/// Writes `state` from `player`'s seat as counts, slots in increasing order.
pub fn encode(game: &TribesGame, state: &State, player: usize, out: &mut Vec<Count>) {
    out.clear();
    let n = usize::from(state.num_tribes);
    let mut block = [0i64; BLOCK];
    for k in 0..n {
        let t = ((player + k) % n) as u8;
        block.fill(0);
        let ts = &state.tribes[usize::from(t)];
        block[0] = i64::from(ts.stars);
        block[4] = i64::from(ts.score) / 100;
        block[5] = i64::from(ts.kills);
        block[6] = i64::from(tribe_production(&game.rules, state, t, false));
        for c in state.cities.iter().filter(|c| c.tribe == t) {
            block[1] += 1;
            block[2] += i64::from(c.level);
            block[3] += i64::from(c.connected);
            block[10] += i64::from(c.population.max(0));
            block[11] += i64::from(c.walls);
        }
        for u in state.units.iter().filter(|u| u.alive && u.tribe == t) {
            block[8] += 1;
            let owner = state.tiles[usize::from(u.pos)].tribe;
            if owner != NONE && owner != t {
                block[9] += 1;
            }
            block[PER_TRIBE + u.kind.index()] += 1;
        }
        for tech in Tech::ALL {
            if ts.techs.has(*tech) {
                block[7] += 1;
                block[PER_TRIBE + UnitKind::COUNT + tech.index()] = 1;
            }
        }
        push_block(out, k * BLOCK, &block);
    }
    let base = MAX_TRIBES * BLOCK;
    push_count(out, base, i64::from(state.tick));
    let behind = (usize::from(state.active) + n - player) % n.max(1);
    if behind > 0 {
        push_count(out, base + behind, 1);
    }
}

fn push_block(out: &mut Vec<Count>, base: usize, block: &[i64]) {
    for (i, &v) in block.iter().enumerate() {
        push_count(out, base + i, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::SearchSupport;
    use crate::arena::initial_state;
    use crate::game::Game;
    use crate::kit::GameKit;

    #[test]
    fn slots_are_increasing_and_in_range_and_views_differ() {
        let game = TribesGame::with_rules(Default::default());
        let level = TribesGame::load_level(&TribesGame::builtin_levels()[0]).unwrap();
        let mut s = initial_state(&game, &level, 7);
        let enc = game.encoding().unwrap();
        let mut rng = crate::rng::derive_rng(3, &[]);
        let mut acts = Vec::new();
        let mut a = Vec::new();
        let mut b = Vec::new();
        for _ in 0..300 {
            if game.outcome(&s).is_some() {
                break;
            }
            for p in 0..2 {
                game.encode(&s, p, &mut a);
                assert!(a.windows(2).all(|w| w[0].0 < w[1].0), "{a:?}");
                assert!(a.iter().all(|&(slot, c)| slot < enc.slots && c >= 1));
            }
            game.legal_actions(&s, &mut acts);
            let a0 = acts[rand::RngExt::random_range(&mut rng, 0..acts.len())];
            game.apply(&mut s, a0);
        }
        game.encode(&s, 0, &mut a);
        game.encode(&s, 1, &mut b);
        assert_ne!(a, b, "the two seats see the position from their own side");
        // Seat 0's own block is seat 1's opponent block.
        let own0: Vec<_> = a.iter().filter(|c| usize::from(c.0) < BLOCK).collect();
        let opp1: Vec<_> = b
            .iter()
            .filter(|c| (BLOCK..2 * BLOCK).contains(&usize::from(c.0)))
            .map(|&(s, c)| (s - BLOCK as u16, c))
            .collect();
        assert_eq!(own0.into_iter().copied().collect::<Vec<_>>(), opp1);
    }
}
