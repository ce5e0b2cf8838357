//! A trained model as the generic searches' state evaluation: [`LearnedKnowledge`], which
//! MCTS, Portfolio MCTS, RHEA and OSLA use when their spec names a `model`.

use std::sync::Arc;

use super::value::LearnedValue;
use crate::agent::{Knowledge, SearchSupport};
use crate::error::{Error, Result};
use crate::game::{Game, Player};

/// The game's knowledge with its evaluation replaced by a model's: a state is worth the
/// model's probability that the player wins it, seen from that player's side
/// ([`SearchSupport::encode`]); a finished game is worth its [`crate::game::Outcome::utility`]
/// mapped to [0, 1]. The game's action hints (root groups, avoided actions) are kept.
pub struct LearnedKnowledge<G: Game> {
    value: Arc<LearnedValue>,
    hints: Arc<dyn Knowledge<G>>,
}

impl<G: SearchSupport> LearnedKnowledge<G> {
    /// Reads the model at `path` for `game`'s encoding (once per file,
    /// [`LearnedValue::shared`]).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `model` if the game declares no encoding; the model file's
    /// errors ([`LearnedValue::load`]) name the file.
    pub fn load(game: &G, path: &str) -> Result<Self> {
        let encoding = game.encoding().ok_or_else(|| {
            Error::config(
                "model",
                "this game has no encoding of positions for learned evaluation",
            )
        })?;
        Ok(LearnedKnowledge {
            value: LearnedValue::shared(path, None, &encoding)?,
            hints: game.knowledge(),
        })
    }

    /// The file the model was read from.
    pub fn path(&self) -> &str {
        &self.value.path
    }

    /// The model's value of `state` for `player`.
    fn value_of(&self, game: &G, state: &G::State, player: Player) -> f64 {
        if let Some(outcome) = game.outcome(state) {
            return (outcome.utility(player) + 1.0) / 2.0;
        }
        self.value.value_of(|out| game.encode(state, player, out))
    }
}

impl<G: SearchSupport> Knowledge<G> for LearnedKnowledge<G> {
    fn evaluate(&self, game: &G, _root: &G::State, state: &G::State, player: Player) -> f64 {
        self.value_of(game, state, player)
    }

    fn root_group(&self, game: &G, state: &G::State, action: G::Action) -> Option<u8> {
        self.hints.root_group(game, state, action)
    }

    fn avoid(&self, game: &G, action: G::Action) -> bool {
        self.hints.avoid(game, action)
    }
}
