//! What the tests of the engine and of its agents share: a game with the default options and
//! a fresh state.

use super::PuertoRicoGame;
use super::setup::Level;
use super::state::State;
use crate::game::Game;

/// The game with the default options.
pub(crate) fn game() -> PuertoRicoGame {
    PuertoRicoGame::default()
}

/// A fresh `n`-player game seeded by `seed` (`n` must be 2–5).
pub(crate) fn start(n: usize, seed: u64) -> State {
    game().new_initial_state(&Level::new(n).expect("2 to 5 players"), seed)
}
