//! `playstyles bench`: speed measurements of a game, printed as a table or JSON.

use std::io::Write;

use super::{GameKind, output_error};
use crate::bench::{BenchTarget, FmBench, bench_fm};
use crate::error::Result;
use crate::game::Game;

/// Validated settings of `playstyles bench`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchConfig {
    /// The game to measure.
    pub game: GameKind,
    /// What to measure.
    pub target: BenchTarget,
    /// The levels to measure on (`--level`); empty: the game's
    /// [`crate::kit::GameKit::bench_levels`].
    pub levels: Vec<String>,
    /// Random games per level (`bench fm`).
    pub games_per_level: usize,
    /// Whole games (`bench agents`).
    pub agent_games: usize,
    /// Seed of the benchmark games.
    pub seed: u64,
    /// Print one JSON object instead of a table.
    pub json: bool,
    /// `bench learned`: the model file (`--model`).
    pub model: Option<std::path::PathBuf>,
    /// `bench agents`: (name, spec) decisions to time instead of the game's set, and no
    /// whole games (`--agent`); empty: the game's set.
    pub agents: Vec<(String, String)>,
}

impl BenchConfig {
    /// Default games per level of `bench fm`.
    pub const GAMES_PER_LEVEL: usize = 8;

    /// Default whole games of `bench agents`.
    pub const AGENT_GAMES: usize = 10;

    /// Settings measuring `target` of `game` with the defaults: the game's benchmark levels,
    /// [`Self::GAMES_PER_LEVEL`] games per level, seed 0, table output.
    pub fn new(game: GameKind, target: BenchTarget) -> Self {
        BenchConfig {
            game,
            target,
            levels: Vec::new(),
            games_per_level: Self::GAMES_PER_LEVEL,
            agent_games: Self::AGENT_GAMES,
            seed: 0,
            json: false,
            agents: Vec::new(),
            model: None,
        }
    }
}

/// Runs `bench agents` with `set` on `levels` and writes its result to `out`: a table, or with
/// `cfg.json` one JSON object (Tribes: `mcts_ms`, `rhea_ms`, `pmcts_pu_ms`,
/// `pmcts_vs_mcts_game_s`, …).
///
/// # Errors
///
/// [`crate::Error::Io`] if writing to `out` fails.
pub fn bench_agents<G: crate::agent::SearchSupport>(
    game: &G,
    set: &crate::bench::AgentBenchSet,
    levels: &[G::Level],
    cfg: &BenchConfig,
    out: &mut impl Write,
) -> Result<crate::bench::AgentsBench> {
    let mut set = *set;
    if !cfg.agents.is_empty() {
        // Once per process: the set's names are 'static.
        let decisions: Vec<(&'static str, &'static str)> = cfg
            .agents
            .iter()
            .map(|(n, s)| -> (&'static str, &'static str) { (n.clone().leak(), s.clone().leak()) })
            .collect();
        set.decisions = decisions.leak();
        set.games = &[];
    }
    let result = crate::bench::bench_agents(game, &set, levels, cfg.agent_games, cfg.seed)?;
    let title = format!(
        "agents of {}: {} mid-game states from {} levels, {} whole games",
        game.info().name,
        result.states,
        levels.len(),
        result.games
    );
    write_result(&result, cfg.json, &title, &result.to_table(), out)?;
    Ok(result)
}

/// Runs `bench learned` for the model of `cfg.model` on `levels` and writes its result.
///
/// # Errors
///
/// [`crate::Error::Config`] naming `--model` if none is given, the game has no encoding, or
/// the file is not a model of this game and encoding; what [`crate::bench::bench_learned`]
/// reports; [`crate::Error::Io`] if writing to `out` fails.
pub fn bench_learned<G: crate::kit::GameKit>(
    game: &G,
    levels: &[G::Level],
    cfg: &BenchConfig,
    out: &mut impl Write,
) -> Result<crate::bench::LearnedBench> {
    let model = cfg.model.as_ref().ok_or_else(|| {
        crate::Error::config("--model", "bench learned times a model: give --model FILE")
    })?;
    let encoding = game.encoding().ok_or_else(|| {
        crate::Error::config("--game", format!("{} has no encoding", game.info().name))
    })?;
    let value = crate::learn::value::LearnedValue::load(
        &model.display().to_string(),
        Some(cfg.game.name()),
        &encoding,
    )?;
    let warmup = G::bench_agents().warmup;
    let result = crate::bench::bench_learned(game, levels, &value, warmup, cfg.seed)?;
    let title = format!(
        "learned evaluation of {}: {} turn-start states of {warmup} self-play on {} levels",
        game.info().name,
        result.positions,
        levels.len()
    );
    write_result(&result, cfg.json, &title, &result.to_table(), out)?;
    Ok(result)
}

/// Runs the forward-model benchmark on `levels` and writes its result to `out`: a table, or with
/// `cfg.json` one line holding one JSON object (`random_game_ms`, `clone_ns`, `apply_ns`,
/// `actions_per_sec`, and `random_game_{n}p_us` per player count unless every level has two
/// players).
///
/// # Errors
///
/// [`crate::Error::Io`] if writing to `out` fails; what [`bench_fm`] reports.
pub fn bench<G: Game>(
    game: &G,
    levels: &[G::Level],
    cfg: &BenchConfig,
    out: &mut impl Write,
) -> Result<FmBench>
where
    G::Action: 'static,
{
    let result = bench_fm(game, levels, cfg.games_per_level, cfg.seed)?;
    let title = format!(
        "forward model of {}: {} levels x {} random games",
        game.info().name,
        levels.len(),
        cfg.games_per_level
    );
    write_result(&result, cfg.json, &title, &result.to_table(), out)?;
    Ok(result)
}

/// Writes a benchmark result as one JSON object, or as `title` and the table.
fn write_result(
    result: &impl serde::Serialize,
    json: bool,
    title: &str,
    table: &str,
    out: &mut impl Write,
) -> Result<()> {
    if json {
        serde_json::to_writer(&mut *out, result).map_err(|e| output_error(e.into()))?;
        writeln!(out).map_err(output_error)
    } else {
        writeln!(out, "{title}\n{table}").map_err(output_error)
    }
}
