//! Opening books (C++ `PartialPlayer_ActionBuy_OpeningBook.cpp`): fixed purchases for
//! positions that match an entry exactly.

use std::sync::Arc;

use serde::Deserialize;

use super::try_buy;
use crate::games::prismata::ai::filter::count_owned;
use crate::games::prismata::ai::partial::{BuyLimits, PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::{Library, State};
use crate::rng::Rng;

/// An opening-book entry as written in a config (the C++ JSON object, same field names).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningBookEntrySpec {
    /// (unit name, count): the player's units, exactly.
    #[serde(rename = "self")]
    pub own: Vec<(String, u16)>,
    /// (unit name, count): the opponent's units, exactly, if not empty.
    #[serde(default)]
    pub enemy: Vec<(String, u16)>,
    /// Units that must be in the game's buy pool.
    #[serde(default)]
    pub buyable: Vec<String>,
    /// Units to buy, in order.
    pub buy: Vec<String>,
}

/// An opening-book entry: if the player's units (and the opponent's, and the buy pool) match,
/// buy `buy`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningBookEntry {
    /// (library id, count): the player owns exactly these and nothing else.
    pub own: Vec<(u16, u16)>,
    /// (library id, count): if not empty, the opponent owns exactly these and nothing else.
    pub enemy: Vec<(u16, u16)>,
    /// Types that must be in the buy pool.
    pub buyable: Vec<u16>,
    /// Types to buy, in order (each if legal when its turn comes).
    pub buy: Vec<u16>,
}

impl OpeningBookEntry {
    /// The entry `spec` describes, or `None` if it names a unit `library` lacks (the C++
    /// drops such entries: a book may cover units of other sets).
    pub fn new(library: &Library, spec: &OpeningBookEntrySpec) -> Option<OpeningBookEntry> {
        let counts = |list: &[(String, u16)]| {
            list.iter()
                .map(|(name, n)| library.id(name).map(|k| (k, *n)))
                .collect::<Option<Vec<_>>>()
        };
        let names = |list: &[String]| {
            list.iter()
                .map(|name| library.id(name))
                .collect::<Option<Vec<_>>>()
        };
        Some(OpeningBookEntry {
            own: counts(&spec.own)?,
            enemy: counts(&spec.enemy)?,
            buyable: names(&spec.buyable)?,
            buy: names(&spec.buy)?,
        })
    }

    /// True if the entry matches player `p`'s position in `s` (C++ `matchesState`).
    pub fn matches(&self, s: &State, p: usize) -> bool {
        let exact = |side: usize, counts: &[(u16, u16)]| {
            let total: usize = counts.iter().map(|&(_, n)| n as usize).sum();
            let live = s.sides[side].units.iter().filter(|u| u.alive).count();
            live == total
                && counts
                    .iter()
                    .all(|&(kind, n)| count_owned(s, side, kind) == n)
        };
        exact(p, &self.own)
            && (self.enemy.is_empty() || exact(1 - p, &self.enemy))
            && self.buyable.iter().all(|k| s.buyable.contains(k))
    }
}

/// Plays the first entry of its book that matches the position: buys that entry's list, each
/// unit if legal (and within the buy limits) when its turn comes (C++
/// `ActionBuy_OpeningBook`).
#[derive(Clone, Debug, Default)]
pub struct BuyOpeningBook {
    /// The entries, tried in order.
    pub book: Vec<OpeningBookEntry>,
    /// The most copies of a type it lets the player own.
    pub buy_limits: BuyLimits,
}

impl BuyOpeningBook {
    /// The book of `entries`, without the entries naming units `library` lacks.
    pub fn new(library: &Library, entries: &[OpeningBookEntrySpec]) -> BuyOpeningBook {
        BuyOpeningBook {
            book: entries
                .iter()
                .filter_map(|e| OpeningBookEntry::new(library, e))
                .collect(),
            buy_limits: BuyLimits::default(),
        }
    }
}

impl PartialPlayer for BuyOpeningBook {
    fn phase(&self) -> PpPhase {
        PpPhase::Buy
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if !turn.acting() {
            return;
        }
        let p = turn.player as usize;
        if let Some(entry) = self.book.iter().find(|e| e.matches(&turn.state, p)) {
            for &kind in &entry.buy {
                try_buy(turn, &self.buy_limits, kind);
            }
        }
    }

    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(BuyOpeningBook {
            book: self.book.clone(),
            buy_limits: self.buy_limits.merged(limits),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::buy::test_support::{
        bought, buys_in_random_games, lib, set_gold, start,
    };
    use crate::rng::rng_from_seed;

    /// The shipped `DefaultOpeningBook`, with one entry naming a unit we lack.
    const BOOK: &str = r#"[
        {"self": [["Drone", 8], ["Engineer", 2]], "enemy": [], "buyable": ["Vivid Drone"],
         "buy": ["Drone", "Drone", "Engineer"]},
        {"self": [["Drone", 6], ["Engineer", 2]], "enemy": [], "buy": ["Overwork", "Drone"]},
        {"self": [["Drone", 7], ["Engineer", 2]], "enemy": [], "buyable": ["Vivid Drone"],
         "buy": ["Drone", "Engineer", "Engineer"]},
        {"self": [["Drone", 6], ["Engineer", 2]], "enemy": [], "buy": ["Drone", "Drone"]},
        {"self": [["Drone", 7], ["Engineer", 2]], "enemy": [["Drone", 9]], "buy": ["Engineer"]},
        {"self": [["Drone", 7], ["Engineer", 2]], "enemy": [], "buy": ["Drone", "Drone"]}
    ]"#;

    fn book() -> BuyOpeningBook {
        let specs: Vec<OpeningBookEntrySpec> = serde_json::from_str(BOOK).unwrap();
        BuyOpeningBook::new(lib(), &specs)
    }

    #[test]
    fn entries_naming_unknown_units_are_dropped() {
        assert_eq!(book().book.len(), 5);
    }

    #[test]
    fn the_first_matching_entry_is_bought() {
        let book = book();
        // Player 0 starts with 6 Drones and 2 Engineers: the Overwork entry is gone, so two
        // Drones.
        let mut s = start("Vivid Drone");
        set_gold(&mut s, 6);
        let mut turn = TurnPlan::new(lib(), s);
        book.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(bought(&turn), ["Drone", "Drone"]);

        // Player 1 has 7 Drones: with Vivid Drone in the pool the first 7-Drone entry applies
        // (one Drone, then Engineers while the gold lasts).
        let mut s = start("Vivid Drone");
        s.active = 1;
        set_gold(&mut s, 7);
        s.sides[1]
            .resources
            .set(crate::games::prismata::Resource::Energy, 2);
        let mut turn = TurnPlan::new(lib(), s);
        book.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(bought(&turn), ["Drone", "Engineer", "Engineer"]);

        // Without Vivid Drone, the entry that also asks for a 9-Drone enemy does not match
        // (the enemy has 6 Drones and 2 Engineers); the last one does.
        let mut s = start("Wild Drone");
        s.active = 1;
        set_gold(&mut s, 7);
        s.sides[1]
            .resources
            .set(crate::games::prismata::Resource::Energy, 2);
        let mut turn = TurnPlan::new(lib(), s);
        book.play(&mut turn, &mut rng_from_seed(1));
        assert_eq!(bought(&turn), ["Drone", "Drone"]);
    }

    #[test]
    fn no_entry_matches_once_the_units_differ() {
        let mut s = start("Vivid Drone");
        s.sides[0].units[0].alive = false;
        s.sides[0].units[1].alive = false;
        set_gold(&mut s, 6);
        let mut turn = TurnPlan::new(lib(), s);
        book().play(&mut turn, &mut rng_from_seed(1));
        assert!(
            turn.actions.is_empty(),
            "4 Drones and 2 Engineers are in no entry"
        );
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        assert!(buys_in_random_games(&book(), 6, 30).0 > 0);
    }
}
