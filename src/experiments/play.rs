//! `playstyles play`: one match between agents on a level, reported as text or JSON.

use std::io::Write;

use serde::Serialize;

use super::{GameKind, output_error};
use crate::agent::{Agent, AgentSpec, parse_agent_list};
use crate::arena::{MatchRecord, initial_state, play_match};
use crate::error::{Error, Result};
use crate::game::{Game, Outcome, Turn};

/// Validated settings of `playstyles play`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayConfig {
    /// The game to play.
    pub game: GameKind,
    /// The level, as the game loads it (`GameKit::load_level`; Tribes: a seed or a level file).
    pub level: String,
    /// One agent per seat, in seat order.
    pub agents: Vec<AgentSpec>,
    /// The match seed.
    pub seed: u64,
    /// Print the state after every turn and at the end.
    pub render: bool,
    /// Print the result as one JSON object instead of text.
    pub json: bool,
}

impl PlayConfig {
    /// Settings for a match of `game` on `level` between the comma-separated `agents`, with
    /// seed 0 and plain text output.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `level` if it is empty, or naming `agents` (or an agent's field)
    /// if the agent list does not parse.
    pub fn new(game: GameKind, level: &str, agents: &str) -> Result<Self> {
        let (level, agents) = match_settings(level, agents)?;
        Ok(PlayConfig {
            game,
            level,
            agents,
            seed: 0,
            render: false,
            json: false,
        })
    }
}

/// The level name (trimmed) and agent specs of a match, checked.
///
/// # Errors
///
/// [`Error::Config`] naming `level` if it is empty, or naming `agents` (or an agent's field)
/// if the agent list does not parse.
pub(super) fn match_settings(level: &str, agents: &str) -> Result<(String, Vec<AgentSpec>)> {
    let level = level.trim();
    if level.is_empty() {
        return Err(Error::config("level", "give a level seed or a level file"));
    }
    Ok((level.to_string(), parse_agent_list(agents)?))
}

/// The JSON report of a match: exactly these three keys.
#[derive(Serialize)]
struct PlayReport<'a> {
    /// The winning seat, `null` for a draw or a capped game.
    winner: Option<usize>,
    /// Full rounds played.
    ticks: u32,
    /// Final scores in seat order.
    scores: &'a [f64],
}

/// Plays one match of `game` on `level` as `cfg` says and writes its report to `out`.
///
/// With `cfg.render`, the state is rendered ([`Game::render`]) after every action that ends a
/// turn and once more at the end. The report is either text (winner seat and agent, rounds,
/// scores, actions) or, with `cfg.json`, exactly one line holding one JSON object
/// `{"winner": <seat or null>, "ticks": <rounds>, "scores": [...]}`.
///
/// # Errors
///
/// `build` turns each agent spec into an agent (e.g. [`crate::agents::build_agent_from`]).
///
/// [`Error::Config`] if an agent cannot be built or the number of agents differs from the
/// level's number of players (field `agents`); [`Error::Io`] if writing to `out` fails;
/// [`Error::IllegalChoice`] if an agent chooses an illegal action ([`play_match`]).
pub fn play<G: Game>(
    game: &G,
    level: &G::Level,
    cfg: &PlayConfig,
    build: &dyn Fn(AgentSpec) -> Result<Box<dyn Agent<G>>>,
    out: &mut impl Write,
) -> Result<MatchRecord<G::Action>>
where
    G::Action: 'static,
{
    let mut agents = seats(game, level, &cfg.agents, cfg.seed, build)?;

    let start = initial_state(game, level, cfg.seed);
    let names = seat_names(game, &start, &agents);

    // The observer cannot return errors: keep the first write error and stop writing.
    let mut written = Ok(());
    let mut last = None;
    let record = play_match(game, level, &mut agents, cfg.seed, |state, action| {
        if !cfg.render || written.is_err() {
            return;
        }
        let mut next = state.clone();
        game.apply(&mut next, action);
        if game.ends_turn(action)
            && !game.is_terminal(&next)
            && game.turn(&next) != game.turn(state)
        {
            let who = match game.turn(state) {
                Turn::Player(p) => format!("seat {p} ({})", names[p]),
                Turn::Terminal => "nobody".to_string(),
            };
            written = writeln!(
                out,
                "after round {}, {who} ended its turn:\n{}",
                game.round(&next),
                game.render(&next)
            );
        }
        last = Some(next);
    })?;
    written.map_err(output_error)?;

    if cfg.render {
        let last = last.unwrap_or(start);
        writeln!(out, "final state:\n{}", game.render(&last)).map_err(output_error)?;
    }
    if cfg.json {
        let report = PlayReport {
            winner: record.outcome.and_then(Outcome::winner),
            ticks: record.rounds,
            scores: &record.scores,
        };
        serde_json::to_writer(&mut *out, &report).map_err(|e| output_error(e.into()))?;
        writeln!(out).map_err(output_error)?;
    } else {
        write!(out, "{}", text_report(&record, &names)).map_err(output_error)?;
    }
    Ok(record)
}

/// One agent per seat of `level` built from `specs`.
///
/// # Errors
///
/// [`Error::Config`] if an agent cannot be built or the number of agents differs from the
/// level's number of players (field `agents`).
pub(super) fn seats<G: Game>(
    game: &G,
    level: &G::Level,
    specs: &[AgentSpec],
    seed: u64,
    build: &dyn Fn(AgentSpec) -> Result<Box<dyn Agent<G>>>,
) -> Result<Vec<Box<dyn Agent<G>>>> {
    let agents = specs
        .iter()
        .cloned()
        .map(build)
        .collect::<Result<Vec<Box<dyn Agent<G>>>>>()?;
    let players = game.num_players(&initial_state(game, level, seed));
    if agents.len() != players {
        return Err(Error::config(
            "agents",
            format!(
                "the level has {players} players but {} agents were given",
                agents.len()
            ),
        ));
    }
    Ok(agents)
}

/// Each seat's name: the game's name for the player (if any) and the agent's.
pub(super) fn seat_names<G: Game>(
    game: &G,
    start: &G::State,
    agents: &[Box<dyn Agent<G>>],
) -> Vec<String> {
    agents
        .iter()
        .enumerate()
        .map(|(p, a)| match game.player_name(start, p) {
            Some(name) => format!("{name}, {}", a.name()),
            None => a.name(),
        })
        .collect()
}

/// Who won a match, in words (`seat 0 (name)`, a draw, or the ranks).
pub(super) fn winner_words<A>(record: &MatchRecord<A>, names: &[String]) -> String {
    match record.outcome {
        Some(o) => match o.winner() {
            Some(p) => format!("seat {p} ({})", names[p]),
            None if o.all_tied() => "none (draw)".to_string(),
            None => format!("none (ranks {:?})", o.ranks()),
        },
        None => format!("none (stopped after {} actions)", record.actions.len()),
    }
}

/// The text report of a match: winner, rounds, scores and actions, one per line.
fn text_report<A>(record: &MatchRecord<A>, names: &[String]) -> String {
    let winner = winner_words(record, names);
    let scores: Vec<String> = record.scores.iter().map(|s| s.to_string()).collect();
    format!(
        "winner: {winner}\nrounds: {}\nscores: {}\nactions: {}\n",
        record.rounds,
        scores.join(", "),
        record.actions.len()
    )
}
