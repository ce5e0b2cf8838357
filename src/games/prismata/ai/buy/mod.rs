//! Buying partial players (C++ `PartialPlayer_ActionBuy_*.cpp`): the second part of the
//! action phase. Each buys for the player to act and leaves the action phase open.
//!
//! - [`value`] — the scores the greedy knapsack buys by (`Buy*` of `Heuristics.cpp`).
//! - [`greedy_knapsack`] — `ActionBuy_GreedyKnapsack`.
//! - [`avoid_breach`] — `ActionBuy_AvoidBreach`.
//! - [`basic`] — `ActionBuy_Default`, `ActionBuy_Nothing`, `ActionBuy_Random`.
//! - [`sequence`] — `ActionBuy_Sequence`.
//! - [`opening_book`] — `ActionBuy_OpeningBook`.
//! - [`engineer`] — `ActionBuy_EngineerHeuristic`.
//! - [`tech`] — `ActionBuy_TechHeuristic`.
//!
//! Every buying player honours its buy limits ([`BuyLimits`]: no purchase of a type once the
//! player owns its limit). The C++ checks them only in the greedy knapsack, the sequence and
//! the tech heuristic; we check them everywhere, so that limits pushed down from a portfolio
//! (a play style) hold whichever buying player runs.

use super::filter::count_owned;
use super::partial::{BuyLimits, TurnPlan};
use crate::games::prismata::library::Target;
use crate::games::prismata::{Action, Library, State};

pub mod avoid_breach;
pub mod basic;
pub mod engineer;
pub mod greedy_knapsack;
pub mod opening_book;
pub mod sequence;
pub mod tech;
pub mod value;

pub use avoid_breach::BuyAvoidBreach;
pub use basic::{BuyDefault, BuyNothing, BuyRandom};
pub use engineer::BuyEngineerHeuristic;
pub use greedy_knapsack::BuyGreedyKnapsack;
pub use opening_book::{BuyOpeningBook, OpeningBookEntrySpec};
pub use sequence::BuySequence;
pub use tech::{BuyTechHeuristic, TechHeuristic};
pub use value::BuyValue;

/// The action buying a unit of type `kind` (library id), if `kind` is buyable in this game.
pub fn buy_action(s: &State, kind: u16) -> Option<Action> {
    s.buyable
        .iter()
        .position(|&k| k == kind)
        .map(|k| Action::Buy(k as u16))
}

/// True if `limits` let player `p` buy one more unit of `kind`: no limit, or fewer owned.
pub fn within_limit(limits: &BuyLimits, s: &State, p: usize, kind: u16) -> bool {
    limits
        .limit(kind)
        .is_none_or(|max| count_owned(s, p, kind) < max)
}

/// Buys one unit of `kind` if that is legal and within `limits`; returns whether it did.
pub fn try_buy(turn: &mut TurnPlan, limits: &BuyLimits, kind: u16) -> bool {
    let Some(a) = buy_action(&turn.state, kind) else {
        return false;
    };
    if !within_limit(limits, &turn.state, turn.player as usize, kind) || !turn.is_legal(a) {
        return false;
    }
    turn.apply(a);
    true
}

/// The chill player `o`'s ready units can apply (C++ `calculateStateData`): the amounts of
/// the chill clicks of its live units that are neither under construction nor exhausted.
pub fn enemy_chill_potential(lib: &Library, s: &State, o: usize) -> u32 {
    s.sides[o]
        .units
        .iter()
        .filter(|u| u.alive && u.construction == 0 && u.delay == 0)
        .filter_map(|u| match lib.get(u.kind).click.as_ref()?.target? {
            Target::Chill(amount) => Some(u32::from(amount)),
            _ => None,
        })
        .sum()
}

#[cfg(test)]
pub(crate) mod test_support {
    //! What the buying players' tests share.
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::games::prismata::Resource;
    use crate::games::prismata::ai::partial::{PartialPlayer, PpPhase};
    pub(crate) use crate::games::prismata::ai::testing::{id, lib, start};
    use crate::rng::Rng;

    /// Sets the gold of the player to act.
    pub(crate) fn set_gold(s: &mut State, gold: u16) {
        s.sides[s.active as usize]
            .resources
            .set(Resource::Gold, gold);
    }

    /// The names of the units `turn` bought, in order.
    pub(crate) fn bought(turn: &TurnPlan) -> Vec<String> {
        let s = &turn.state;
        turn.actions
            .iter()
            .filter_map(|a| match a {
                Action::Buy(k) => Some(lib().get(s.buyable[*k as usize]).name.clone()),
                _ => None,
            })
            .collect()
    }

    /// Runs `player` in `games` random games (see [`testing::random_games`]) and returns
    /// (how many times it played, how many units it bought).
    ///
    /// [`testing::random_games`]: crate::games::prismata::ai::testing::random_games
    pub(crate) fn buys_in_random_games(
        player: &dyn PartialPlayer,
        games: u64,
        max_plies: u32,
    ) -> (usize, usize) {
        let counting = Counting {
            player: player.clone_arc(),
            buys: Arc::new(AtomicUsize::new(0)),
        };
        let runs = crate::games::prismata::ai::testing::random_games(&counting, games, max_plies);
        (runs, counting.buys.load(Ordering::Relaxed))
    }

    /// A partial player that counts the buys of the one it wraps.
    #[derive(Clone)]
    struct Counting {
        player: Arc<dyn PartialPlayer>,
        buys: Arc<AtomicUsize>,
    }

    impl std::fmt::Debug for Counting {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.player.fmt(f)
        }
    }

    impl PartialPlayer for Counting {
        fn phase(&self) -> PpPhase {
            self.player.phase()
        }

        fn play(&self, turn: &mut TurnPlan, rng: &mut Rng) {
            let before = turn.actions.len();
            self.player.play(turn, rng);
            let n = turn.actions[before..]
                .iter()
                .filter(|a| matches!(a, Action::Buy(_)))
                .count();
            self.buys.fetch_add(n, Ordering::Relaxed);
        }

        fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
            self.player.with_buy_limits(limits)
        }
    }
}
