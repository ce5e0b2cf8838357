//! A portfolio of partial players and the whole-turn moves it offers (C++
//! `MoveIterator_PPPortfolio`, spec §11.3): one list of partial players per phase; a move is
//! one choice per phase, and the moves are the cross product, enumerated like an odometer
//! (last phase fastest) with repeated action lists skipped.

use std::sync::Arc;

use super::partial::{BuyLimits, PartialPlayer, PpPhase, TurnPlan};
use super::sequence::{Sequence, play_phase};
use crate::games::prismata::{Action, Library, State};
use crate::rng::Rng;
use rand::RngExt;

/// Partial players per phase, in [`PpPhase::ALL`] order; every list non-empty.
#[derive(Clone, Debug)]
pub struct PartialPortfolio {
    /// The lists of defense, ability, buy and breach players.
    pub phases: [Vec<Arc<dyn PartialPlayer>>; 4],
    /// The players' names (as in the bot configuration), parallel to `phases`.
    pub names: [Vec<String>; 4],
}

impl PartialPortfolio {
    /// A portfolio of unnamed players (each called `phase#i`, as `buy#2`).
    #[cfg(test)]
    pub(crate) fn unnamed(phases: [Vec<Arc<dyn PartialPlayer>>; 4]) -> PartialPortfolio {
        let names = std::array::from_fn(|p| {
            let phase = format!("{:?}", PpPhase::ALL[p]).to_lowercase();
            (0..phases[p].len())
                .map(|i| format!("{phase}#{i}"))
                .collect()
        });
        PartialPortfolio { phases, names }
    }

    /// The name of every player, phase by phase.
    pub fn all_names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().flatten().map(String::as_str)
    }

    /// The number of index combinations (an upper bound on the distinct moves).
    #[cfg(test)]
    pub(crate) fn combinations(&self) -> usize {
        self.phases.iter().map(Vec::len).product()
    }

    /// The portfolio with `limits` pushed into every player (C++ iterator `buyLimits`).
    pub fn with_buy_limits(&self, limits: &BuyLimits) -> PartialPortfolio {
        PartialPortfolio {
            phases: self
                .phases
                .clone()
                .map(|list| list.iter().map(|p| p.with_buy_limits(limits)).collect()),
            names: self.names.clone(),
        }
    }

    /// The scripted player of one random player per phase (C++ `getRandomMove`).
    pub fn random_sequence(&self, rng: &mut Rng) -> Sequence {
        Sequence {
            players: std::array::from_fn(|i| {
                let list = &self.phases[i];
                list[rng.random_range(0..list.len())].clone()
            }),
        }
    }

    /// The moves of the player to act in `state`, generated one at a time.
    pub fn children<'a>(&'a self, library: &'a Library, state: &State) -> Children<'a> {
        Children {
            portfolio: self,
            start: TurnPlan::new(library, state.clone()),
            indices: [0; 4],
            after: std::array::from_fn(|_| None),
            seen: Vec::new(),
            done: false,
        }
    }
}

/// The moves of a [`PartialPortfolio`] from one state, in odometer order without repeats.
#[derive(Debug)]
pub struct Children<'a> {
    portfolio: &'a PartialPortfolio,
    start: TurnPlan<'a>,
    indices: [usize; 4],
    /// The turn after each phase for the current indices; `None` from the first phase whose
    /// index changed (the earlier phases' turns are reused, as the C++ caches them).
    after: [Option<TurnPlan<'a>>; 4],
    seen: Vec<Vec<Action>>,
    done: bool,
}

/// One combination of a [`Children`] enumeration: its players' indices, and the move it
/// makes — new, or the same action list as an earlier move.
#[derive(Debug)]
pub enum Generated<'a> {
    /// A move not generated before: the finished turn.
    New(Box<TurnPlan<'a>>, [usize; 4]),
    /// The same actions as the `usize`-th move generated.
    Repeat(usize, [usize; 4]),
}

impl<'a> Children<'a> {
    /// The next move not generated before, as the finished turn (its state is the opponent's
    /// to act, or the game is over); `None` once the combinations are exhausted.
    pub fn next_move(&mut self, rng: &mut Rng) -> Option<TurnPlan<'a>> {
        loop {
            match self.next_combination(rng)? {
                Generated::New(turn, _) => return Some(*turn),
                Generated::Repeat(..) => {}
            }
        }
    }

    /// The next combination of players (odometer order) and the move it makes; `None` once
    /// they are exhausted.
    pub fn next_combination(&mut self, rng: &mut Rng) -> Option<Generated<'a>> {
        if self.done {
            return None;
        }
        for phase in 0..4 {
            if self.after[phase].is_some() {
                continue;
            }
            let mut turn = match phase {
                0 => self.start.clone(),
                _ => self.after[phase - 1]
                    .clone()
                    .expect("earlier phases are played"),
            };
            let player = &self.portfolio.phases[phase][self.indices[phase]];
            play_phase(player.as_ref(), PpPhase::ALL[phase], &mut turn, rng);
            self.after[phase] = Some(turn);
        }
        // Taken, not copied: moving the odometer on forgets the last phase's turn anyway.
        let turn = self.after[3].take().expect("every phase is played");
        let indices = self.indices;
        self.advance();
        Some(match self.seen.iter().position(|a| *a == turn.actions) {
            Some(i) => Generated::Repeat(i, indices),
            None => {
                self.seen.push(turn.actions.clone());
                Generated::New(Box::new(turn), indices)
            }
        })
    }

    /// Moves the odometer on (last phase fastest), forgetting the turns it invalidates.
    fn advance(&mut self) {
        for phase in (0..4).rev() {
            self.indices[phase] += 1;
            for after in &mut self.after[phase..] {
                *after = None;
            }
            if self.indices[phase] < self.portfolio.phases[phase].len() {
                return;
            }
            self.indices[phase] = 0;
        }
        self.done = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::sequence::tests::{First, first_or_wander};
    use crate::games::prismata::{Level, rules};
    use crate::rng::rng_from_seed;

    #[test]
    fn children_are_distinct_whole_turns_at_most_one_per_combination() {
        let lib = Library::builtin();
        let p = first_or_wander();
        assert_eq!(p.combinations(), 16);
        let mut rng = rng_from_seed(5);
        let s = State::new(lib, &Level::random(lib, 8, 4).unwrap());
        let mut children = p.children(lib, &s);
        let mut moves = Vec::new();
        while let Some(turn) = children.next_move(&mut rng) {
            let mut replay = s.clone();
            for &a in &turn.actions {
                assert!(rules::is_legal(lib, &replay, a));
                rules::apply(lib, &mut replay, a);
            }
            assert_eq!(replay, turn.state, "the child state is the move's result");
            assert!(!turn.in_turn());
            moves.push(turn.actions);
        }
        assert!(!moves.is_empty() && moves.len() <= 16);
        for (i, m) in moves.iter().enumerate() {
            assert!(!moves[..i].contains(m), "move {i} repeats an earlier one");
        }
    }

    #[test]
    fn players_that_agree_give_one_move_the_sequence_of_first_choices() {
        let lib = Library::builtin();
        let twice = |p: PpPhase| -> Vec<Arc<dyn PartialPlayer>> {
            vec![Arc::new(First(p)), Arc::new(First(p))]
        };
        let p = PartialPortfolio::unnamed(PpPhase::ALL.map(twice));
        let mut rng = rng_from_seed(5);
        let s = State::new(lib, &Level::random(lib, 8, 4).unwrap());
        let mut children = p.children(lib, &s);
        let first = children.next_move(&mut rng).unwrap();
        assert!(
            children.next_move(&mut rng).is_none(),
            "16 combinations, one move"
        );
        let seq = p.random_sequence(&mut rng);
        assert_eq!(first.actions, seq.actions(lib, &s, &mut rng));
    }
}
