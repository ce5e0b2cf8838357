//! Portfolio Greedy Search over a portfolio's per-phase choices (C++
//! `Player_PortfolioGreedySearch`, spec §11.4; Churchill & Buro's PGS).
//!
//! A *script* is one partial player per phase, given by its index in each phase's list. Both
//! sides start at index 0 everywhere. Improving a side's script goes phase by phase: every
//! index of the phase is tried, each scored by one playout in which both sides play their
//! scripts for every remaining turn, and the best is kept (ties: the earlier index); this is
//! done `iterations` times. The search improves its own script, then the enemy's against it,
//! then `responses` rounds of the enemy improving against ours and ours against the enemy's,
//! and plays the turn of its final script. The budget is fixed by the portfolio's size,
//! `iterations` and `responses` (no time limit).

use super::eval::{playout_score, playout_with};
use super::portfolio::PartialPortfolio;
use super::sequence::Sequence;
use crate::games::prismata::{Action, Library, State};
use crate::rng::Rng;

/// The search's settings.
#[derive(Clone, Debug)]
pub struct PortfolioGreedy {
    /// The partial players each phase may choose from (C++ `Portfolio`).
    pub portfolio: PartialPortfolio,
    /// Passes over the phases per improvement (C++ `ImprovementIterations`, default 1).
    pub iterations: u32,
    /// Rounds of enemy-then-own improvement after the first two (C++ `Responses`, default 1).
    pub responses: u32,
}

/// One index per phase.
type Script = [usize; 4];

impl PortfolioGreedy {
    /// The whole-turn move for the player to act in `state`.
    pub fn search(&self, library: &Library, state: &State, rng: &mut Rng) -> Vec<Action> {
        let me = usize::from(state.active);
        let mut scripts: [Script; 2] = [[0; 4]; 2];
        self.improve(library, state, &mut scripts, me, rng);
        self.improve(library, state, &mut scripts, 1 - me, rng);
        for _ in 0..self.responses {
            self.improve(library, state, &mut scripts, 1 - me, rng);
            self.improve(library, state, &mut scripts, me, rng);
        }
        self.sequence(scripts[me]).actions(library, state, rng)
    }

    /// The scripted player of `script`.
    fn sequence(&self, script: Script) -> Sequence {
        Sequence {
            players: std::array::from_fn(|p| self.portfolio.phases[p][script[p]].clone()),
        }
    }

    /// Improves `side`'s script against the other's, phase by phase, `iterations` times.
    fn improve(
        &self,
        library: &Library,
        state: &State,
        scripts: &mut [Script; 2],
        side: usize,
        rng: &mut Rng,
    ) {
        for _ in 0..self.iterations {
            for phase in 0..4 {
                let mut best: Option<(usize, f64)> = None;
                for index in 0..self.portfolio.phases[phase].len() {
                    let mut tried = *scripts;
                    tried[side][phase] = index;
                    let value = self.score(library, state, tried, side, rng);
                    if best.is_none_or(|(_, v)| value > v) {
                        best = Some((index, value));
                    }
                }
                if let Some((index, _)) = best {
                    scripts[side][phase] = index;
                }
            }
        }
    }

    /// `side`'s playout score when each side plays its script to the end of the game.
    fn score(
        &self,
        library: &Library,
        state: &State,
        scripts: [Script; 2],
        side: usize,
        rng: &mut Rng,
    ) -> f64 {
        let [a, b] = scripts.map(|s| self.sequence(s));
        let result = playout_with(library, state, [&a, &b], rng);
        playout_score(result, side as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::sequence::tests::first_or_wander;
    use crate::games::prismata::{Level, rules};
    use crate::rng::rng_from_seed;

    #[test]
    fn a_search_returns_a_legal_whole_turn_and_replays_from_its_seed() {
        let lib = Library::builtin();
        let search = PortfolioGreedy {
            portfolio: first_or_wander(),
            iterations: 1,
            responses: 1,
        };
        for seed in 0..4 {
            let s = State::new(lib, &Level::random(lib, 8, seed).unwrap());
            let actions = search.search(lib, &s, &mut rng_from_seed(seed));
            let mut replay = s.clone();
            for &a in &actions {
                assert!(rules::is_legal(lib, &replay, a));
                rules::apply(lib, &mut replay, a);
            }
            assert!(replay.over || replay.active != s.active);
            assert_eq!(actions, search.search(lib, &s, &mut rng_from_seed(seed)));
        }
    }
}
