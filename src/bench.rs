//! Measurement helpers for benchmarks (never for tests): medians, batch timers and the
//! forward-model benchmark [`bench_fm`] behind `playstyles bench fm`.
//!
//! Times come from [`std::time::Instant`]; results go through [`std::hint::black_box`] so the
//! compiler cannot drop the work being measured.

use std::hint::black_box;
use std::time::Instant;

use rand::RngExt;
use serde::Serialize;

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

/// The median of `xs` (sorted in place; the mean of the middle two for an even length).
/// `NaN` for an empty slice.
pub fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// A started stopwatch.
#[derive(Clone, Copy, Debug)]
pub struct Timer {
    start: Instant,
}

impl Timer {
    /// Starts timing now.
    pub fn start() -> Self {
        Timer {
            start: Instant::now(),
        }
    }

    /// Nanoseconds since [`Timer::start`].
    pub fn elapsed_ns(&self) -> f64 {
        self.start.elapsed().as_nanos() as f64
    }
}

/// Calls `f` `batches × per_batch` times and returns, for each batch, the mean nanoseconds per
/// call. Take the [`median`] of the result to shrug off outliers.
pub fn time_batches<R>(mut f: impl FnMut() -> R, batches: usize, per_batch: usize) -> Vec<f64> {
    let per_batch = per_batch.max(1);
    (0..batches)
        .map(|_| {
            let timer = Timer::start();
            for _ in 0..per_batch {
                black_box(f());
            }
            timer.elapsed_ns() / per_batch as f64
        })
        .collect()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_lengths() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn time_batches_returns_one_figure_per_batch() {
        let mut calls = 0;
        let times = time_batches(
            || {
                calls += 1;
                calls
            },
            3,
            4,
        );
        assert_eq!(times.len(), 3);
        assert_eq!(calls, 12);
        assert!(times.iter().all(|t| t.is_finite() && *t >= 0.0));
    }
}

/// What [`bench_agents`] times: a game's agents at their experiment budgets
/// ([`crate::kit::GameKit::bench_agents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentBenchSet {
    /// The agent of every seat in the games that provide the timed states.
    pub warmup: &'static str,
    /// Games of `warmup` agents played per level for those states.
    pub warmup_games: usize,
    /// Time only states where a turn starts (the player to move is not the previous
    /// state's), for agents that plan a whole turn at its first decision.
    pub turn_starts: bool,
    /// Time only states in this phase ([`crate::game::Game::phase`]), if given.
    pub phase: Option<u8>,
    /// Of the states that qualify, every how many is timed.
    pub every: usize,
    /// The timed decisions: (measure name, agent spec). A name ending in `_us` is measured in
    /// microseconds, any other in milliseconds.
    pub decisions: &'static [(&'static str, &'static str)],
    /// Also time each decision at the first decision of a game (the initial state of each
    /// level, one per whole-game seed), as `…_first_ms`.
    pub first_decisions: bool,
    /// The whole games, each given as (label, agent spec) per seat, as many seats as the
    /// levels have players; the seating is rotated by one seat game by game.
    pub games: &'static [&'static [(&'static str, &'static str)]],
    /// The unit of whole-game times: `"s"`, `"ms"` or `"us"`.
    pub game_unit: &'static str,
}

impl AgentBenchSet {
    /// The generic search agents at budget 2000 (the Tribes paper's experiment): one decision
    /// of MCTS, RHEA and P-MCTS(PU), and whole P-MCTS(PU)-vs-MCTS games, on states of
    /// `mcts(budget=100)` self-play.
    pub const SEARCH: AgentBenchSet = AgentBenchSet {
        warmup: "mcts(budget=100)",
        warmup_games: 1,
        turn_starts: false,
        phase: None,
        every: 25,
        decisions: &[
            ("mcts_ms", "mcts(budget=2000)"),
            ("rhea_ms", "rhea(budget=2000)"),
            ("pmcts_pu_ms", "pmcts(bias=true,pruning=true,budget=2000)"),
        ],
        first_decisions: false,
        games: &[&[
            ("pmcts", "pmcts(bias=true,pruning=true,budget=2000)"),
            ("mcts", "mcts(budget=2000)"),
        ]],
        game_unit: "s",
    };
}

/// Speed of a game's agents (see [`bench_agents`]): named medians, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentsBench {
    /// (name, median, unit): each timed decision (`…_ms`, milliseconds), the whole game
    /// (`A_vs_B_game_s`, seconds), the decisions (actions, ends of turn included) each agent
    /// made in those games (`A_game_decisions`; both seats pooled when the labels are equal)
    /// and the rounds (`game_rounds`).
    pub measures: Vec<(String, f64, &'static str)>,
    /// States the decisions were timed on.
    pub states: usize,
    /// Whole games timed.
    pub games: usize,
}

impl AgentsBench {
    /// The median called `name`, if measured.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.measures
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|&(_, v, _)| v)
    }

    /// The result as an aligned two-column table.
    pub fn to_table(&self) -> String {
        let width = self
            .measures
            .iter()
            .map(|(n, _, _)| n.len())
            .max()
            .unwrap_or(0)
            .max(7);
        let mut s = format!("{:<width$} {:>10}\n", "measure", "median");
        for (name, value, unit) in &self.measures {
            let digits = match *unit {
                "" => 1,
                "s" => 4,
                _ => 3,
            };
            s += format!("{name:<width$} {value:>10.digits$} {unit}").trim_end();
            s += "\n";
        }
        s
    }
}

/// One JSON object: every measure by name, then `states` and `games`.
impl serde::Serialize for AgentsBench {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.measures.len() + 2))?;
        for (name, value, _) in &self.measures {
            map.serialize_entry(name, value)?;
        }
        map.serialize_entry("states", &self.states)?;
        map.serialize_entry("games", &self.games)?;
        map.end()
    }
}

/// Times `set`'s agents: one decision each on states of `set.warmup_games` games per level
/// between `set.warmup` agents (rounds 5–30, every `set.every`th state that qualifies: any,
/// or with `set.turn_starts` a turn start, and with `set.phase` in that phase), with
/// `set.first_decisions` also on the first state of `games` games per level, and whole games
/// of each of `set.games` (seating rotated, one per level up to `games`). States where only
/// one action is legal are skipped (the agents return at once there).
///
/// Each whole-game set of seats reports `A_vs_B…_game_s` (its seat labels joined; the unit is
/// `set.game_unit`), the
/// decisions of each label's seats pooled (`A_game_decisions`) and `game_rounds`; when `set`
/// has more than one, the last two are prefixed by the game's name (`A_vs_B…_A_decisions`,
/// `A_vs_B…_game_rounds`).
///
/// # Errors
///
/// Agent construction errors (none for a game's own [`AgentBenchSet`]); an agent's illegal
/// choice ([`crate::Error::IllegalChoice`]).
pub fn bench_agents<G: crate::agent::SearchSupport>(
    game: &G,
    set: &AgentBenchSet,
    levels: &[G::Level],
    games: usize,
    seed: u64,
) -> crate::Result<AgentsBench> {
    use crate::agents::build_agent;
    let build = |s: &str| build_agent(game, s);
    let players = |level: &G::Level, seed: u64| {
        game.num_players(&crate::arena::initial_state(game, level, seed))
    };

    // Mid-game states from cheap self-play.
    let mut states = Vec::new();
    let mut buf = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        for j in 0..set.warmup_games {
            let match_seed = if j == 0 {
                seed ^ i as u64
            } else {
                crate::rng::derive_seed(seed, &[i as u64, j as u64])
            };
            let mut agents = (0..players(level, match_seed))
                .map(|_| build(set.warmup))
                .collect::<crate::Result<Vec<_>>>()?;
            let (mut k, mut last_player) = (0usize, None);
            crate::arena::play_match(game, level, &mut agents, match_seed, |s, _| {
                let r = game.round(s);
                let player = match game.turn(s) {
                    crate::game::Turn::Player(p) => Some(p),
                    _ => None,
                };
                let starts = player != last_player;
                last_player = player;
                let qualifies = (!set.turn_starts || starts)
                    && set.phase.is_none_or(|phase| game.phase(s) == phase);
                let take = qualifies && {
                    k += 1;
                    k.is_multiple_of(set.every.max(1))
                };
                if take && (5..=30).contains(&r) {
                    game.legal_actions(s, &mut buf);
                    if buf.len() > 1 {
                        states.push(s.clone());
                    }
                }
            })?;
        }
    }
    let mut first_states = Vec::new();
    if set.first_decisions {
        for level in levels {
            for i in 0..games {
                let s = crate::arena::initial_state(game, level, seed.wrapping_add(i as u64));
                game.legal_actions(&s, &mut buf);
                if buf.len() > 1 {
                    first_states.push(s);
                }
            }
        }
    }
    let mut rng = crate::rng::derive_rng(seed, &[0xbe7c]);
    let mut measures = Vec::new();
    let mut time = |name: String, spec: &str, states: &[G::State]| -> crate::Result<()> {
        let mut ms = Vec::with_capacity(states.len());
        let (unit, per) = if name.ends_with("_us") {
            ("us", 1e3)
        } else {
            ("ms", 1e6)
        };
        for s in states {
            let mut agent = build(spec)?;
            let t = Timer::start();
            std::hint::black_box(agent.act(game, s, &mut rng)?);
            ms.push(t.elapsed_ns() / per);
        }
        measures.push((name, median(&mut ms), unit));
        Ok(())
    };
    for &(name, spec) in set.decisions {
        time(name.to_string(), spec, &states)?;
    }
    if set.first_decisions {
        for &(name, spec) in set.decisions {
            let (stem, unit) = name.rsplit_once('_').unwrap_or((name, "ms"));
            time(format!("{stem}_first_{unit}"), spec, &first_states)?;
        }
    }
    // Whole games.
    let game_per = match set.game_unit {
        "ms" => 1e6,
        "us" => 1e3,
        _ => 1e9,
    };
    let mut timed_games = 0;
    for seats in set.games {
        let labels: Vec<&str> = seats.iter().map(|&(label, _)| label).collect();
        let title = labels.join("_vs_");
        let prefix = if set.games.len() > 1 {
            format!("{title}_")
        } else {
            String::new()
        };
        let mut distinct: Vec<&str> = Vec::new();
        for &l in &labels {
            if !distinct.contains(&l) {
                distinct.push(l);
            }
        }
        let (mut secs, mut rounds) = (Vec::new(), Vec::new());
        let mut decisions: Vec<Vec<f64>> = vec![Vec::new(); distinct.len()];
        for (i, level) in levels.iter().cycle().take(games).enumerate() {
            let match_seed = seed.wrapping_add(i as u64);
            let n = players(level, match_seed);
            if n != seats.len() {
                return Err(crate::Error::config(
                    "level",
                    format!(
                        "the benchmark game {title} seats {} agents, the level has {n} players",
                        seats.len()
                    ),
                ));
            }
            // Seat `p` gets the spec at `(p + i) % n`: game by game, every agent moves up one.
            let mut agents = (0..n)
                .map(|p| build(seats[(p + i) % n].1))
                .collect::<crate::Result<Vec<_>>>()?;
            let t = Timer::start();
            let record = crate::arena::play_match(game, level, &mut agents, match_seed, |_, _| {})?;
            secs.push(t.elapsed_ns() / game_per);
            rounds.push(f64::from(record.rounds));
            for (p, player) in record.players.iter().enumerate() {
                let label = labels[(p + i) % n];
                let d = distinct.iter().position(|&l| l == label).unwrap_or(0);
                decisions[d].push(player.actions() as f64);
            }
        }
        timed_games += secs.len();
        measures.push((
            format!("{title}_game_{}", set.game_unit),
            median(&mut secs),
            set.game_unit,
        ));
        for (label, mut d) in distinct.iter().zip(decisions) {
            let name = if prefix.is_empty() {
                format!("{label}_game_decisions")
            } else {
                format!("{prefix}{label}_decisions")
            };
            measures.push((name, median(&mut d), ""));
        }
        measures.push((format!("{prefix}game_rounds"), median(&mut rounds), ""));
    }
    Ok(AgentsBench {
        measures,
        states: states.len(),
        games: timed_games,
    })
}
