//! [`RuleBasedAgent`]: the hand-written Tribes baseline (spec §15.2; Java `SimpleAgent`).

use rand::RngExt;

use super::rule_scores::Scorer;
use crate::agent::Agent;
use crate::error::Result;
use crate::game::Game;
use crate::games::tribes::{Action, State, TribesGame};
use crate::rng::Rng;

/// Scores every legal action with the integer rules of spec §15.2 (0–5 for useful
/// actions, END_TURN −1, DESTROY and DISBAND −2) and plays a uniform choice among the best.
///
/// The legal-action and enemy buffers are kept between calls.
#[derive(Clone, Debug, Default)]
pub struct RuleBasedAgent {
    legal: Vec<Action>,
    enemies: Vec<u16>,
}

impl RuleBasedAgent {
    /// A rule-based agent with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// The score of every legal action of `state`, in legal-action order (for inspection and
    /// tests).
    pub fn scores(&mut self, game: &TribesGame, state: &State) -> Vec<(Action, i32)> {
        game.legal_actions(state, &mut self.legal);
        let scorer = Scorer::new(game, state, &mut self.enemies);
        self.legal.iter().map(|&a| (a, scorer.score(a))).collect()
    }
}

impl Agent<TribesGame> for RuleBasedAgent {
    fn name(&self) -> String {
        "rule_based".to_string()
    }

    /// # Panics
    ///
    /// If `state` has no legal action (it is terminal).
    fn act(&mut self, game: &TribesGame, state: &State, rng: &mut Rng) -> Result<Action> {
        game.legal_actions(state, &mut self.legal);
        assert!(
            !self.legal.is_empty(),
            "rule-based agent asked to act in a state without legal actions"
        );
        let scorer = Scorer::new(game, state, &mut self.enemies);
        // Reservoir choice among the actions with the best score: one pass, no buffer.
        let (mut best, mut count, mut chosen) = (i32::MIN, 0u32, self.legal[0]);
        for &a in &self.legal {
            let v = scorer.score(a);
            if v > best {
                (best, count) = (v, 0);
            }
            if v == best {
                count += 1;
                if count == 1 || rng.random_range(0..count) == 0 {
                    chosen = a;
                }
            }
        }
        Ok(chosen)
    }
}
