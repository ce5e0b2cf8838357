//! `playstyles replay`: plays one match and writes it as a self-contained HTML page of
//! pictures, one frame per turn ([`crate::report::replay`]). The page names the level, seed
//! and agents, so the same command plays the same game again. An existing file at `--out` is
//! replaced only with `--force`, and only if it is a page this tool wrote
//! ([`crate::report::page::written_here`]).

use std::io::Write;
use std::path::PathBuf;

use super::play::{match_settings, seat_names, seats, winner_words};
use super::run_dir::check_replaceable;
use super::{GameKind, output_error};
use crate::agent::{Agent, AgentSpec};
use crate::arena::{initial_state, play_match};
use crate::error::Result;
use crate::files::write_atomic;
use crate::game::Turn;
use crate::kit::GameKit;
use crate::report::page::written_here;
use crate::report::replay::{Replay, ReplaySource, page};

/// Validated settings of `playstyles replay`.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayConfig {
    /// The game to play.
    pub game: GameKind,
    /// The level, as the game loads it.
    pub level: String,
    /// One agent per seat, in seat order.
    pub agents: Vec<AgentSpec>,
    /// The match seed.
    pub seed: u64,
    /// The page to write.
    pub out: PathBuf,
    /// Replace an existing page that `replay` wrote (never another file).
    pub force: bool,
}

impl ReplayConfig {
    /// Settings for a replay of `game` on `level` between the comma-separated `agents`.
    ///
    /// # Errors
    ///
    /// [`crate::Error::Config`] naming `level` if it is empty, or `agents` (or an agent's field) if
    /// the agent list does not parse.
    pub fn new(game: GameKind, level: &str, agents: &str, seed: u64, out: PathBuf) -> Result<Self> {
        let (level, agents) = match_settings(level, agents)?;
        Ok(ReplayConfig {
            game,
            level,
            agents,
            seed,
            out,
            force: false,
        })
    }
}

/// Plays `agents` (one per seat) against each other on `level` with `seed` and records the
/// game: a frame at the start and after every turn (when another player, or nobody, is to
/// move), each with the turn's actions in words and every seat's score.
///
/// # Errors
///
/// What [`play_match`] reports (an agent's illegal choice).
pub fn record<G: GameKit>(
    game: &G,
    level: &G::Level,
    source: ReplaySource,
    agents: &mut [Box<dyn Agent<G>>],
) -> Result<Replay> {
    let start = initial_state(game, level, source.seed);
    let names = seat_names(game, &start, agents);
    let seed = source.seed;
    let mut replay = Replay::new(source, names.clone(), G::legend(), G::board_defs());
    replay.push(
        game.draw(&start),
        "start".into(),
        Vec::new(),
        game.scores(&start),
    );
    let mut turn = Vec::new();
    let mut last = start;
    let record = play_match(game, level, agents, seed, |state, action| {
        turn.push(game.describe_action(state, action));
        last.clone_from(state);
        game.apply(&mut last, action);
        let mover = game.turn(state);
        if game.is_terminal(&last) || game.turn(&last) != mover {
            let who = match mover {
                Turn::Player(p) => names[p].clone(),
                Turn::Terminal => "nobody".into(),
            };
            let caption = format!("round {}, after the turn of {who}", game.round(state));
            replay.push(
                game.draw(&last),
                caption,
                std::mem::take(&mut turn),
                game.scores(&last),
            );
        }
    })?;
    if !turn.is_empty() {
        replay.push(
            game.draw(&last),
            "where the game stopped".into(),
            turn,
            game.scores(&last),
        );
    }
    let scores: Vec<String> = record.scores.iter().map(|s| s.to_string()).collect();
    replay.result = format!(
        "winner {} after {} rounds; scores {}",
        winner_words(&record, &replay.players),
        record.rounds,
        scores.join(", ")
    );
    Ok(replay)
}

/// Plays the match `cfg` describes, writes its replay page to `cfg.out` (atomically) and
/// reports the file on `out`.
///
/// # Errors
///
/// [`crate::Error::Config`] for agents that cannot be built or do not match the level's seats
/// (field `agents`); [`crate::Error::Io`] naming the page if it cannot be written; what
/// [`play_match`] reports (an agent's illegal choice).
pub fn replay<G: GameKit>(
    game: &G,
    level: &G::Level,
    cfg: &ReplayConfig,
    build: &dyn Fn(AgentSpec) -> Result<Box<dyn Agent<G>>>,
    out: &mut impl Write,
) -> Result<()> {
    check_replaceable(&cfg.out, "--out", cfg.force, "a replay page", written_here)?;
    let mut agents = seats(game, level, &cfg.agents, cfg.seed, build)?;
    let source = ReplaySource {
        program: super::game_kind::program().to_string(),
        game: game.info().name.to_string(),
        level: cfg.level.clone(),
        seed: cfg.seed,
        agents: cfg.agents.iter().map(ToString::to_string).collect(),
    };
    let replay = record(game, level, source, &mut agents)?;
    let html = page(&replay);
    write_atomic(&cfg.out, html.as_bytes())?;
    writeln!(
        out,
        "wrote {} ({} frames, {} distinct parts, {:.0} KiB)\n{}",
        cfg.out.display(),
        replay.frames.len(),
        replay.parts.len(),
        html.len() as f64 / 1024.0,
        replay.result
    )
    .map_err(output_error)
}
