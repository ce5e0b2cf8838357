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
//!
//! Besides the outcome, a [`MatchRecord`] keeps one [`PlayerRecord`] per seat: the gameplay
//! statistics that MAP-Elites features and tournament tables are computed from (spec §16).
//! A [`series::Series`] plays many matches with seats rotated, in parallel, and
//! [`summary`] aggregates them from one participant's point of view, or a side's (several
//! participants counted together).

pub mod series;
pub mod summary;

use std::collections::BTreeMap;

use crate::agent::Agent;
use crate::error::{Error, Result};
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
    /// Gameplay statistics of every player, in seat order.
    pub players: Vec<PlayerRecord>,
}

/// The gameplay statistics one seat leaves behind in a match (spec §16: action counts are
/// logged for every action the agent returns, END_TURN included; per-turn statistics at the
/// end of each of the player's turns).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerRecord {
    /// Actions played, indexed by action kind ([`Game::action_kind`], named by
    /// [`crate::game::GameInfo::action_kinds`]); as long as that list (longer only if the game
    /// reports a kind beyond it).
    pub actions_by_kind: Vec<u32>,
    /// Actions played per finer label ([`Game::action_label`], e.g. `spawn.archer`); actions
    /// without a label are not counted here.
    pub labels: BTreeMap<String, u32>,
    /// [`Game::player_stats`] right after each action of this player that ends its turn
    /// ([`Game::ends_turn`], with another player or nobody to move next), in order: one entry
    /// per completed turn.
    pub turns: Vec<Vec<f64>>,
    /// [`Game::player_stats`] of the final state (also when the match was capped).
    pub final_stats: Vec<f64>,
    /// [`Game::round`] of the state the player's last action was applied to (0 if it never
    /// acted).
    pub last_action_round: u32,
}

impl PlayerRecord {
    /// Total actions played, END_TURN included.
    pub fn actions(&self) -> u64 {
        self.actions_by_kind.iter().map(|&n| u64::from(n)).sum()
    }

    /// Actions of kind `kind` (0 for a kind never played).
    pub fn actions_of_kind(&self, kind: u8) -> u32 {
        self.actions_by_kind
            .get(usize::from(kind))
            .copied()
            .unwrap_or(0)
    }

    /// Actions with label `label` (0 if never played).
    pub fn label_count(&self, label: &str) -> u32 {
        self.labels.get(label).copied().unwrap_or(0)
    }

    /// The final value of the statistic at `index` of [`crate::game::GameInfo::stats`], if
    /// the game reported it.
    pub fn final_stat(&self, index: usize) -> Option<f64> {
        self.final_stats.get(index).copied()
    }
}

/// A [`PlayerRecord`] being filled during a match: labels are counted under their `'static`
/// names (no allocation per action) and turned into owned keys once at the end.
struct PlayerLog {
    actions_by_kind: Vec<u32>,
    labels: BTreeMap<&'static str, u32>,
    turns: Vec<Vec<f64>>,
    last_action_round: u32,
}

impl PlayerLog {
    fn new(kinds: usize) -> Self {
        PlayerLog {
            actions_by_kind: vec![0; kinds],
            labels: BTreeMap::new(),
            turns: Vec::new(),
            last_action_round: 0,
        }
    }

    fn finish(self, final_stats: Vec<f64>) -> PlayerRecord {
        PlayerRecord {
            actions_by_kind: self.actions_by_kind,
            labels: self
                .labels
                .into_iter()
                .map(|(k, n)| (k.to_string(), n))
                .collect(),
            turns: self.turns,
            final_stats,
            last_action_round: self.last_action_round,
        }
    }
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
/// Every action is also logged in its player's [`PlayerRecord`]: counted by kind and label,
/// and, when it ends the turn, followed by one [`Game::player_stats`] call on the new state.
///
/// Every action an agent returns is checked ([`Game::is_legal`]) before it is applied, so a
/// match never plays a move the rules do not allow.
///
/// # Errors
///
/// [`Error::IllegalChoice`] if an agent returns an action that is not legal, naming the agent,
/// seat, round and action; what an agent's [`Agent::act`] reports (a script proposing an
/// illegal action), with the action's place in the match added.
///
/// # Panics
///
/// If `agents.len()` differs from the number of players of the level: a bug of the caller.
pub fn play_match<G: Game>(
    game: &G,
    level: &G::Level,
    agents: &mut [Box<dyn Agent<G>>],
    seed: u64,
    mut observer: impl FnMut(&G::State, G::Action),
) -> Result<MatchRecord<G::Action>> {
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

    let kinds = game.info().action_kinds.len();
    let mut logs: Vec<PlayerLog> = (0..players).map(|_| PlayerLog::new(kinds)).collect();
    let mut actions = Vec::new();
    let mut capped = false;
    while let Turn::Player(p) = game.turn(&state) {
        if actions.len() >= MAX_ACTIONS {
            capped = true;
            break;
        }
        let seen = game.observe(&state, p);
        let place = || format!("action {} of the match with seed {seed}", actions.len());
        let action = match agents[p].act(game, &seen, &mut rngs[p]) {
            Ok(action) => action,
            Err(Error::IllegalChoice {
                game,
                by,
                action,
                at,
            }) => {
                return Err(Error::IllegalChoice {
                    game,
                    by,
                    action,
                    at: format!("{at}, {}", place()),
                });
            }
            Err(e) => return Err(e),
        };
        if !game.is_legal(&state, action) {
            return Err(Error::IllegalChoice {
                game: game.info().name.to_string(),
                by: format!("agent `{}`", agents[p].name()),
                action: format!("{action:?}"),
                at: format!("seat {p}, round {}, {}", game.round(&state), place()),
            });
        }
        observer(&state, action);
        let log = &mut logs[p];
        let kind = usize::from(game.action_kind(action));
        if kind >= log.actions_by_kind.len() {
            log.actions_by_kind.resize(kind + 1, 0);
        }
        log.actions_by_kind[kind] += 1;
        if let Some(label) = game.action_label(action) {
            *log.labels.entry(label).or_insert(0) += 1;
        }
        log.last_action_round = game.round(&state);
        game.apply(&mut state, action);
        actions.push(action);
        // A turn ends with a turn-ending action after which another player (or nobody) is to
        // move: a game whose turns have phases ends several of them with the same action.
        if game.ends_turn(action) && game.turn(&state) != Turn::Player(p) {
            let mut stats = Vec::new();
            game.player_stats(&state, p, &mut stats);
            logs[p].turns.push(stats);
        }
    }

    let players = logs
        .into_iter()
        .enumerate()
        .map(|(p, log)| {
            let mut stats = Vec::new();
            game.player_stats(&state, p, &mut stats);
            log.finish(stats)
        })
        .collect();
    Ok(MatchRecord {
        seed,
        actions,
        outcome: game.outcome(&state),
        rounds: game.round(&state),
        scores: game.scores(&state),
        capped,
        players,
    })
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
