//! Plays matches between agents and replays recorded ones.
//!
//! A match is fully determined by the game, the level, the agents and one seed: the game's
//! state seed and every agent's RNG are derived from it with [`derive_seed`]/[`derive_rng`]
//! and the tags below, so the same inputs give the same [`MatchRecord`] on every machine.
//!
//! | what | derived as |
//! |---|---|
//! | state seed (the game's chance events) | `derive_seed(seed, &[STATE_TAG])` |
//! | RNG of the agent in seat `p` | `derive_rng(seed, &[AGENT_TAG, p])` |

use crate::agent::Agent;
use crate::error::Result;
use crate::game::{Game, Outcome, Turn};
use crate::rng::{derive_rng, derive_seed};

/// Tag deriving a match's state seed from its seed.
pub const STATE_TAG: u64 = 0;

/// Tag (followed by the seat) deriving an agent's RNG from a match's seed.
pub const AGENT_TAG: u64 = 1;

/// Safety cap on the actions of one match: a game still running after this many actions is
/// stopped and recorded with `capped: true` and no outcome (a draw by cap). Far above any
/// real game; it only stops runaway ones (agents that never act decisively, engine bugs).
pub const MAX_ACTIONS: usize = 1_000_000;

/// What a match leaves behind.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRecord<A> {
    /// The match seed; with the level and `actions` it replays the game ([`replay`]).
    pub seed: u64,
    /// Every action played, in order.
    pub actions: Vec<A>,
    /// How the game ended; `None` if it was stopped by the cap.
    pub outcome: Option<Outcome>,
    /// Full rounds completed ([`Game::round`] of the final state).
    pub rounds: u32,
    /// Final score of every player, in seat order.
    pub scores: Vec<f64>,
    /// True if the match was stopped after [`MAX_ACTIONS`] actions.
    pub capped: bool,
}

/// The initial state of a match with `seed` on `level`.
pub fn initial_state<G: Game>(game: &G, level: &G::Level, seed: u64) -> G::State {
    game.new_initial_state(level, derive_seed(seed, &[STATE_TAG]))
}

/// Plays one match on `level`: seat `p` is played by `agents[p]`.
///
/// Each agent is told of the new game ([`Agent::new_game`]), then asked for one action at a time
/// and shown what its seat observes ([`Game::observe`]). Before each action is applied,
/// `observer` gets the state it is applied to (the full state, not an observation) and the
/// action. The match ends when the game does or after [`MAX_ACTIONS`] actions.
///
/// # Panics
///
/// If `agents.len()` differs from the number of players of the level, or (with debug
/// assertions) if an agent plays an illegal action: both are bugs of the caller or the agent.
pub fn play_match<G: Game>(
    game: &G,
    level: &G::Level,
    agents: &mut [Box<dyn Agent<G>>],
    seed: u64,
    mut observer: impl FnMut(&G::State, G::Action),
) -> MatchRecord<G::Action> {
    let mut state = initial_state(game, level, seed);
    let players = game.num_players(&state);
    assert_eq!(
        agents.len(),
        players,
        "the level has {players} players but {} agents were given",
        agents.len()
    );
    let mut rngs: Vec<_> = (0..players as u64)
        .map(|p| derive_rng(seed, &[AGENT_TAG, p]))
        .collect();
    for agent in agents.iter_mut() {
        agent.new_game();
    }

    let mut actions = Vec::new();
    let mut capped = false;
    while let Turn::Player(p) = game.turn(&state) {
        if actions.len() >= MAX_ACTIONS {
            capped = true;
            break;
        }
        let seen = game.observe(&state, p);
        let action = agents[p].act(game, &seen, &mut rngs[p]);
        debug_assert!(
            game.is_legal(&state, action),
            "agent {} (seat {p}) played the illegal action {action:?}",
            agents[p].name()
        );
        observer(&state, action);
        game.apply(&mut state, action);
        actions.push(action);
    }

    MatchRecord {
        seed,
        actions,
        outcome: game.outcome(&state),
        rounds: game.round(&state),
        scores: game.scores(&state),
        capped,
    }
}

/// Replays a recorded match and returns its final state, checking every action.
///
/// # Errors
///
/// [`crate::Error::Illegal`] at the first action the state does not allow (including any action
/// after the game has ended).
pub fn replay<G: Game>(
    game: &G,
    level: &G::Level,
    seed: u64,
    actions: &[G::Action],
) -> Result<G::State> {
    let mut state = initial_state(game, level, seed);
    for &action in actions {
        game.try_apply(&mut state, action)?;
    }
    Ok(state)
}
