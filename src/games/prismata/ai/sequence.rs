//! A whole turn from one partial player per phase (C++ `Player_PPSequence`): the scripted
//! players (Playout, Random, Docile) and every portfolio move are built this way.

use std::sync::Arc;

use super::partial::{PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::{Action, Library, State, TurnPhase};
use crate::rng::Rng;

/// One partial player per phase, in [`PpPhase::ALL`] order.
pub type Players = [Arc<dyn PartialPlayer>; 4];

/// True if the partial player of `phase` acts now in `turn`.
pub fn acts_now(turn: &TurnPlan, phase: PpPhase) -> bool {
    turn.in_turn()
        && match phase {
            PpPhase::Defense => turn.state.phase == TurnPhase::Defense,
            PpPhase::Ability | PpPhase::Buy => turn.state.phase == TurnPhase::Action,
            PpPhase::Breach => turn.state.phase == TurnPhase::Breach,
        }
}

/// Plays `phase`'s part of the turn with `player`: nothing if the phase does not occur now;
/// after the buy player, the action phase's end. The breach player ends the turn (the
/// defense and breach players end their phases themselves).
pub fn play_phase(player: &dyn PartialPlayer, phase: PpPhase, turn: &mut TurnPlan, rng: &mut Rng) {
    if acts_now(turn, phase) {
        player.play(turn, rng);
    }
    if phase == PpPhase::Buy && acts_now(turn, PpPhase::Buy) {
        let ended = turn.end_phase();
        debug_assert!(ended, "the action phase can end after the buy player");
    }
}

/// A scripted whole-turn player: one partial player per phase.
#[derive(Clone, Debug)]
pub struct Sequence {
    /// The partial players of defense, abilities, buying and breach.
    pub players: Players,
}

impl Sequence {
    /// The turn of the player to act in `state`, played by the sequence to its end.
    pub fn turn<'a>(&self, library: &'a Library, state: State, rng: &mut Rng) -> TurnPlan<'a> {
        let mut turn = TurnPlan::new(library, state);
        self.finish(&mut turn, rng);
        turn
    }

    /// Plays `turn` to the end of the player's turn, phase by phase.
    pub fn finish(&self, turn: &mut TurnPlan, rng: &mut Rng) {
        for (player, phase) in self.players.iter().zip(PpPhase::ALL) {
            play_phase(player.as_ref(), phase, turn, rng);
        }
        debug_assert!(!turn.in_turn(), "a sequence ends its player's turn");
    }

    /// The actions of the player to act in `state` for its whole turn.
    pub fn actions(&self, library: &Library, state: &State, rng: &mut Rng) -> Vec<Action> {
        self.turn(library, state.clone(), rng).actions
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use crate::games::prismata::{Level, rules};
    use crate::rng::rng_from_seed;
    use rand::RngExt;

    /// A test partial player: the first legal action of its phase (never the end of the
    /// action phase) until none is left, then ends defense or breach.
    #[derive(Clone, Debug)]
    pub(crate) struct First(pub PpPhase);

    impl PartialPlayer for First {
        fn phase(&self) -> PpPhase {
            self.0
        }
        fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
            let mut legal = Vec::new();
            loop {
                turn.legal_actions(&mut legal);
                let wanted = |a: &&Action| match self.0 {
                    PpPhase::Ability => matches!(a, Action::Click(_) | Action::Target(_)),
                    PpPhase::Buy => matches!(a, Action::Buy(_)),
                    PpPhase::Defense | PpPhase::Breach => true,
                };
                match legal.iter().find(wanted) {
                    Some(&a) => turn.apply(a),
                    None => return,
                }
                if !acts_now(turn, self.0) {
                    return;
                }
            }
        }
    }

    /// A test partial player: random legal actions of its phase, stopping with probability
    /// 1/4 after each (defense and breach end their phase).
    #[derive(Clone, Debug)]
    pub(crate) struct Wander(pub PpPhase);

    impl PartialPlayer for Wander {
        fn phase(&self) -> PpPhase {
            self.0
        }
        fn play(&self, turn: &mut TurnPlan, rng: &mut Rng) {
            let mut legal = Vec::new();
            while acts_now(turn, self.0) {
                turn.legal_actions(&mut legal);
                let end_phase_ok = matches!(self.0, PpPhase::Defense | PpPhase::Breach);
                legal.retain(|&a| a != Action::EndPhase || end_phase_ok);
                if legal.is_empty() || (!end_phase_ok && rng.random_range(0..4) == 0) {
                    return;
                }
                turn.apply(legal[rng.random_range(0..legal.len())]);
            }
        }
    }

    /// First-legal-action test players for every phase.
    pub(crate) fn firsts() -> Players {
        PpPhase::ALL.map(|p| Arc::new(First(p)) as Arc<dyn PartialPlayer>)
    }

    /// A test portfolio: [`First`] and [`Wander`] in every phase (16 combinations).
    pub(crate) fn first_or_wander() -> crate::games::prismata::ai::portfolio::PartialPortfolio {
        let two = |p: PpPhase| -> Vec<Arc<dyn PartialPlayer>> {
            vec![Arc::new(First(p)), Arc::new(Wander(p))]
        };
        crate::games::prismata::ai::portfolio::PartialPortfolio::unnamed(PpPhase::ALL.map(two))
    }

    #[test]
    fn a_sequence_plays_whole_turns_until_the_game_ends() {
        let lib = Library::builtin();
        let seq = Sequence { players: firsts() };
        let mut rng = rng_from_seed(3);
        for seed in 0..10u64 {
            let mut s = State::new(lib, &Level::random(lib, 8, seed).unwrap());
            while !s.over && s.ply < 200 {
                let ply = s.ply;
                let active = s.active;
                let actions = seq.actions(lib, &s, &mut rng);
                for a in actions {
                    assert!(rules::is_legal(lib, &s, a), "{a:?} legal");
                    rules::apply(lib, &mut s, a);
                }
                assert!(s.over || (s.ply == ply + 1 && s.active != active));
            }
        }
    }
}
