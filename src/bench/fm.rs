//! The forward-model benchmark behind `playstyles bench fm` ([`bench_fm`]): whole random
//! games, then clones and applies timed on states sampled from them.

use std::hint::black_box;

use rand::RngExt;
use serde::Serialize;

use super::measure::{Timer, median, time_batches};
use crate::agent::Agent;
use crate::agents::RandomAgent;
use crate::arena::{initial_state, play_match};
use crate::game::Game;
use crate::rng::{derive_rng, derive_seed};

/// Every how many actions of a benchmark game a state is sampled for the clone/apply timings.
pub const SAMPLE_EVERY: usize = 10;

/// At most this many sampled states are timed (keeps `bench fm` short on long games).
pub const MAX_SAMPLES: usize = 2_000;

/// Clones (or apply calls) timed per sampled state; the per-call time is their mean.
pub const CALLS_PER_SAMPLE: usize = 32;

/// Engine-only random games timed per arena game for [`FmBench::by_players`].
pub const PLAYOUTS_PER_GAME: usize = 8;

/// Forward-model speed of a game, measured by [`bench_fm`].
#[derive(Clone, Debug, PartialEq)]
pub struct FmBench {
    /// Median wall time of one whole random-vs-random game, in milliseconds.
    pub random_game_ms: f64,
    /// Median time to clone (and drop) a state sampled from those games, in nanoseconds.
    pub clone_ns: f64,
    /// Median time to apply one random legal action to a sampled state and recompute the legal
    /// actions of the result, in nanoseconds (the clone needed to reuse the state is made
    /// before the timed region).
    pub apply_ns: f64,
    /// Actions applied per second over all the random games (agents' time included).
    pub actions_per_sec: f64,
    /// (players, median wall time in microseconds of a uniformly random game with that many
    /// players through the forward model alone: initial state, then legal actions, a uniform
    /// draw and apply until the end, without the arena's observation, logs and statistics), by
    /// player count; empty when every level has two players (reported as
    /// `random_game_{n}p_us`).
    pub by_players: Vec<(usize, f64)>,
}

impl FmBench {
    /// The measures in report order: (name, value, unit).
    fn rows(&self) -> Vec<(String, f64, &'static str)> {
        let mut rows = vec![("random_game_ms".to_string(), self.random_game_ms, "ms")];
        for &(n, us) in &self.by_players {
            rows.push((format!("random_game_{n}p_us"), us, "us"));
        }
        rows.extend([
            ("clone_ns".to_string(), self.clone_ns, "ns"),
            ("apply_ns".to_string(), self.apply_ns, "ns"),
            ("actions_per_sec".to_string(), self.actions_per_sec, "1/s"),
        ]);
        rows
    }

    /// A two-column text table, one row per measure.
    pub fn to_table(&self) -> String {
        let width = self
            .rows()
            .iter()
            .map(|(n, _, _)| n.len())
            .max()
            .unwrap_or(0)
            .max(16);
        let mut s = format!("{:<width$} {:>14}\n", "measure", "value");
        for (name, value, unit) in self.rows() {
            s += &format!("{name:<width$} {value:>14.1} {unit}\n");
        }
        s
    }
}

/// One JSON object: `random_game_ms`, `clone_ns`, `apply_ns`, `actions_per_sec` and each
/// `random_game_{n}p_us` of [`FmBench::by_players`].
impl Serialize for FmBench {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let rows = self.rows();
        let mut map = serializer.serialize_map(Some(rows.len()))?;
        for (name, value, _) in &rows {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// Benchmarks the forward model of `game` on `levels`, with `games_per_level` games each.
///
/// 1. Plays whole random-vs-random games ([`RandomAgent`] in every seat; match seeds derived
///    from `seed`, level index and game index) and times each: `random_game_ms` is the median,
///    `actions_per_sec` the total actions over the total time. Unless every level has two
///    players, [`PLAYOUTS_PER_GAME`] engine-only random games are also timed per game (seeds
///    derived from its match seed) and their median taken per player count
///    ([`FmBench::by_players`]).
/// 2. Replays each game, untimed, keeping every [`SAMPLE_EVERY`]th state before an action; the
///    stride grows on long games so that at most about [`MAX_SAMPLES`] states are kept in all,
///    spread over whole games and shared evenly between them.
/// 3. For each sampled state, times [`CALLS_PER_SAMPLE`] clones: `clone_ns` is the median over
///    states of the mean per clone (the drop of each clone is included).
/// 4. For each sampled state, draws one random legal action, makes [`CALLS_PER_SAMPLE`] clones
///    (untimed), then times applying the action to each clone and refilling the legal actions:
///    `apply_ns` is the median over states of the mean per call.
///
/// Levels must have as many players as [`RandomAgent`]s are seated, which is read from each
/// level's initial state.
///
/// # Errors
///
/// [`crate::Error::IllegalChoice`] if the game refuses an action it listed as legal
/// ([`Game::is_legal`] disagrees with [`Game::legal_actions`]).
pub fn bench_fm<G: Game>(
    game: &G,
    levels: &[G::Level],
    games_per_level: usize,
    seed: u64,
) -> crate::Result<FmBench>
where
    G::Action: 'static,
{
    let mut game_ms = Vec::new();
    let mut players_ms: Vec<(usize, Vec<f64>)> = Vec::new();
    let all_two = levels.iter().enumerate().all(|(li, level)| {
        let match_seed = derive_seed(seed, &[li as u64, 0]);
        game.num_players(&initial_state(game, level, match_seed)) == 2
    });
    let mut total_actions = 0usize;
    let mut total_ns = 0.0;
    let mut samples: Vec<G::State> = Vec::new();
    let samples_per_game = MAX_SAMPLES.div_ceil((levels.len() * games_per_level).max(1));

    for (li, level) in levels.iter().enumerate() {
        for gi in 0..games_per_level {
            let match_seed = derive_seed(seed, &[li as u64, gi as u64]);
            let players = game.num_players(&initial_state(game, level, match_seed));
            let mut agents: Vec<Box<dyn Agent<G>>> = (0..players)
                .map(|_| Box::new(RandomAgent::new()) as Box<dyn Agent<G>>)
                .collect();
            let timer = Timer::start();
            let record = play_match(game, level, &mut agents, match_seed, |_, _| {})?;
            let ns = timer.elapsed_ns();
            game_ms.push(ns / 1e6);
            if !all_two {
                let i = match players_ms.iter().position(|(n, _)| *n == players) {
                    Some(i) => i,
                    None => {
                        players_ms.push((players, Vec::new()));
                        players_ms.len() - 1
                    }
                };
                for k in 0..PLAYOUTS_PER_GAME {
                    let playout_seed = derive_seed(match_seed, &[0x5eed, k as u64]);
                    players_ms[i]
                        .1
                        .push(time_playout(game, level, playout_seed) / 1e6);
                }
            }
            total_ns += ns;
            total_actions += record.actions.len();

            let stride = SAMPLE_EVERY.max(record.actions.len().div_ceil(samples_per_game));
            let mut state = initial_state(game, level, match_seed);
            for (i, &a) in record.actions.iter().enumerate() {
                if i % stride == 0 {
                    samples.push(state.clone());
                }
                game.apply(&mut state, a);
            }
        }
    }

    let mut clone_ns: Vec<f64> = samples
        .iter()
        .map(|s| time_batches(|| s.clone(), 1, CALLS_PER_SAMPLE)[0])
        .collect();

    let mut rng = derive_rng(seed, &[u64::MAX]);
    let mut legal = Vec::new();
    let mut apply_ns: Vec<f64> = samples
        .iter()
        .map(|s| {
            game.legal_actions(s, &mut legal);
            let action = legal[rng.random_range(0..legal.len())];
            let mut copies = vec![s.clone(); CALLS_PER_SAMPLE];
            let timer = Timer::start();
            for copy in copies.iter_mut() {
                game.apply(copy, action);
                game.legal_actions(copy, &mut legal);
                black_box(&legal);
            }
            let ns = timer.elapsed_ns() / CALLS_PER_SAMPLE as f64;
            black_box(copies);
            ns
        })
        .collect();

    players_ms.sort_by_key(|&(n, _)| n);
    let by_players = players_ms
        .into_iter()
        .map(|(n, mut ms)| (n, median(&mut ms) * 1e3))
        .collect();
    Ok(FmBench {
        random_game_ms: median(&mut game_ms),
        by_players,
        clone_ns: median(&mut clone_ns),
        apply_ns: median(&mut apply_ns),
        actions_per_sec: if total_ns > 0.0 {
            total_actions as f64 / (total_ns / 1e9)
        } else {
            0.0
        },
    })
}

/// Nanoseconds of one uniformly random game of `game` on `level` through the forward model
/// alone (initial state included), the draws from an RNG seeded by `seed`; stops after
/// [`crate::arena::MAX_ACTIONS`] actions.
fn time_playout<G: Game>(game: &G, level: &G::Level, seed: u64) -> f64 {
    let mut rng = derive_rng(seed, &[]);
    let mut legal = Vec::new();
    let timer = Timer::start();
    let mut state = initial_state(game, level, seed);
    for _ in 0..crate::arena::MAX_ACTIONS {
        game.legal_actions(&state, &mut legal);
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.random_range(0..legal.len())];
        game.apply(&mut state, a);
    }
    black_box(&state);
    timer.elapsed_ns()
}
