//! `playstyles tournament`: pairings of agents played over levels × repetitions with seats
//! rotated (spec §17), summarised as in the paper's Table I.
//!
//! A tournament config is a TOML file; `levels` and the pairings are required, the other
//! fields take the defaults shown:
//!
//! ```toml
//! game = "tribes"           # default: the first registered game (tribes)
//! seed = 1                  # default 1
//! levels = "paper"          # required; or level seeds and level files: [42, "maps/a.txt"]
//! repetitions = 20          # default 20 (the paper's Table I: 25 levels × 20 games)
//!
//! [rules]                   # the game's rules options (Tribes: compat, mode);
//! mode = "capitals"         # default: the game's
//!
//! [[pairing]]               # at least one
//! name = "pmcts-vs-mcts"
//! agents = ["pmcts(bias=true,pruning=true,budget=2000)", "mcts(budget=2000)"]
//! ```
//!
//! Every pairing plays the same series: game `i` is repetition `i % repetitions` of level
//! `i / repetitions`, with seed `derive_seed(seed, &[i])` (the same seeds in every pairing,
//! so pairings are compared on common random numbers), and participant `j` in seat
//! `(i + j) mod n` ([`crate::arena::series`]). The first agent of a pairing is the participant
//! the summary is about; its *side* is every participant whose agent spec (in canonical form)
//! is the same as the first's ([`crate::arena::summary::side_of`]): in
//! `["thinking(budget=250)", "thinking(budget=250)", "sa0", "sa0"]` the two Thinking AIs, whose
//! side win rate is "a Thinking AI won" (chance level 2/4). With distinct agents the side is the
//! first participant alone and its columns repeat `wins` and `win_rate`.
//!
//! The output folder (default `results/<config file stem>/`) receives, each written atomically:
//!
//! - `config.toml`: the resolved config (every default explicit, levels listed, agent specs
//!   in canonical form, naming the folder's copies of the files they read), written before
//!   the first game, after those copies (`agent-files/`, [`super::agent_files`]);
//! - `games.csv`: one row per game played ([`super::games_csv`]: pairing, game index, level,
//!   repetition, seed, seats, winner, ticks, and per participant the score, the final
//!   statistics the game keeps, actions and rank), sorted by pairing (in config order), then
//!   game index;
//! - `summary.csv`: one row per pairing with at least one game, from its first participant's
//!   point of view, computed from the rows of `games.csv`: `pairing`, `agent`, `opponents`,
//!   `games`, `wins`, `draws`, `win_rate`, `win_rate_lo`, `win_rate_hi` (95 % Wilson interval;
//!   draws and shared first places count as non-wins), `mean_score`, the game's statistic
//!   columns ([`crate::kit::GameKit::summary_columns`]; Tribes: `techs_pct`, `cities`,
//!   `production`), `mean_rank`; then the side's: `side_size` (participants in the side),
//!   `participants` (per game), `side_wins` (games won by a member alone, or with first place
//!   shared by members only, [`crate::arena::summary::side_won`]), `side_win_rate`,
//!   `side_win_rate_lo`, `side_win_rate_hi` (95 % Wilson interval). Chance level for the side
//!   is `side_size / participants`.
//!
//! Both CSV files are rewritten every [`SAVE_EVERY`] finished games and after each pairing, so
//! `games.csv` doubles as the checkpoint: a killed tournament loses at most the games running
//! and fewer than [`SAVE_EVERY`] finished ones. `--resume` continues the tournament in the
//! output folder if its `config.toml` is the resolved config of this run: the rows of
//! `games.csv` are checked against the series and only the missing games are played (a
//! folder without its `config.toml` holds nothing to resume, so the tournament starts:
//! a requeued job may always pass `--resume`). Games
//! are determined by their index, so the files are byte-identical for any thread count, and a
//! tournament interrupted and resumed ends with the same files as an uninterrupted one.
//!

use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use super::agent_files::{AgentFile, copy_agent_files};
use super::games_csv::{GameRow, TableColumns};
use super::output_error;
use super::run_dir::{prepare_out_dir, resuming};
use super::tournament_rows::{GAMES_CSV, PairingResult, SUMMARY_CSV, TournamentRows};
use super::tournament_spec::{Pairing, TournamentConfig, TournamentSpec, within};
use crate::agent::{Agent, SearchSupport};
use crate::arena::series::Series;
use crate::arena::summary::SummaryColumn;
use crate::error::{Error, Result};
use crate::files::{TEXT_LIMIT, present, read_text, write_atomic};
use crate::game::Game;
use crate::report::progress::Progress;
use crate::report::table::aligned;

/// The resolved config in a tournament's output folder.
pub const CONFIG_TOML: &str = "config.toml";

/// The files a tournament writes into its output folder.
pub const RESULT_FILES: [&str; 3] = [CONFIG_TOML, GAMES_CSV, SUMMARY_CSV];

/// `games.csv` and `summary.csv` are rewritten after every this many finished games (and after
/// each pairing).
pub const SAVE_EVERY: usize = 10;

/// The agents of a tournament as its output folder keeps them
/// ([`super::tournament_spec::TournamentSpec::keeping_files`]).
#[derive(Clone, Debug)]
pub struct KeptAgents {
    /// The tournament, its agents naming the folder's copies of their files.
    pub spec: TournamentSpec,
    /// The files to copy into the folder when the tournament starts.
    pub files: Vec<AgentFile>,
    /// The resolved config of `spec`, written as `config.toml`
    /// ([`super::tournament_spec::TournamentSpec::resolved_toml`]).
    pub config_toml: String,
}

/// Plays the tournament `cfg` describes on `levels` (named for the reports) and writes its
/// result files and printed summary; with `cfg.resume`, plays only the games missing from the
/// output folder's `games.csv` (a folder without the tournament's `config.toml` holds
/// nothing to resume: the tournament starts).
///
/// `build` makes an agent from a spec string, its relative file paths taken from a folder
/// (for every game afresh); `kept` is the tournament as the output folder keeps it: a new
/// tournament checks `cfg`'s agents as written (from the working folder), then copies their
/// files into the output folder, and every game builds `kept`'s agents there, so that a
/// tournament resumes from any working folder. `columns` are the statistics the game puts in
/// the tables. Everything is checked (agent specs, player counts, the output folder, the rows
/// to resume from) before the first game. Games run on a local rayon pool of `cfg.threads`
/// threads; the files are identical for any thread count, and for a resumed tournament and an
/// uninterrupted one. Returns the summary of every pairing with at least one game.
///
/// # Errors
///
/// [`Error::Config`] naming
/// - `repetitions` if the games (levels × repetitions × pairings) are more than
///   [`crate::limits::MAX_GAMES`];
/// - `pairing[i].agents` for an agent that cannot be built or a level with a different number
///   of players;
/// - `out` if result files exist and neither `cfg.force` nor `cfg.resume` is set;
/// - `resume` if the output folder's `config.toml` differs from `kept.config_toml`, or if
///   `cfg.force` is set too;
/// - `threads` if the pool cannot be built.
///
/// [`Error::Data`] naming `games.csv`, the line and the column for a row to resume from that
/// does not parse or does not belong to the tournament ([`TournamentRows::read`]);
/// [`Error::Io`] naming an agent's file that cannot be read, and naming any file that cannot
/// be read or written.
pub fn tournament<G, B>(
    game: &G,
    levels: Vec<(String, G::Level)>,
    build: B,
    cfg: &TournamentConfig,
    kept: &KeptAgents,
    columns: TableColumns,
    out: &mut impl Write,
) -> Result<Vec<PairingResult>>
where
    G: SearchSupport,
    B: Fn(&str, &Path) -> Result<Box<dyn Agent<G>>> + Sync,
{
    let spec = &kept.spec;
    spec.check_games(levels.len())?;
    let series = Series::new(levels, spec.repetitions, spec.seed);
    let check = |pairings: &[Pairing], base: &Path| -> Result<()> {
        for (i, p) in pairings.iter().enumerate() {
            series
                .check(game, &p.specs(), &|s: &str| build(s, base))
                .map_err(|e| within(&format!("pairing[{i}].agents"), e))?;
        }
        Ok(())
    };
    let resuming = resuming(
        (cfg.resume, cfg.force),
        &cfg.out,
        &[cfg.out.join(CONFIG_TOML)],
        "tournament",
        out,
    )?;
    let rows = if resuming {
        let rows = resume_rows(
            &cfg.out,
            &kept.config_toml,
            &spec.pairings,
            &series,
            columns,
        )?;
        check(&spec.pairings, &cfg.out)?;
        rows
    } else {
        check(&cfg.spec.pairings, Path::new(""))?;
        prepare_out_dir(&cfg.out, "out", &RESULT_FILES, cfg.force, true)?;
        copy_agent_files(game, &cfg.out, &kept.files)?;
        TournamentRows::new(&spec.pairings, series.len(), columns)
    };
    let pool = super::thread_pool(cfg.threads, "threads")?;
    if resuming && rows.done() == rows.total() {
        writeln!(
            out,
            "the tournament in {} has finished: nothing to do",
            cfg.out.display()
        )
        .map_err(output_error)?;
    }
    if !resuming {
        write_atomic(&cfg.out.join(CONFIG_TOML), kept.config_toml.as_bytes())?;
    }

    let stat_names = game.info().stats;
    let progress = Progress::new(rows.total() as u64, !cfg.quiet);
    progress.set_position(rows.done() as u64);
    // The rows and the games finished since they were last written; the files are written
    // under the lock, so never by two workers at once.
    let saving = Mutex::new((rows, 0usize));
    let mut budget = cfg.stop_after_games.unwrap_or(u64::MAX);
    let specs: Vec<Vec<String>> = spec.pairings.iter().map(Pairing::specs).collect();
    let build = |s: &str| build(s, &cfg.out);
    for (p, (pairing, agents)) in spec.pairings.iter().zip(&specs).enumerate() {
        let mut todo = lock(&saving).0.missing(p);
        todo.truncate(usize::try_from(budget).unwrap_or(usize::MAX));
        budget -= todo.len() as u64;
        if !todo.is_empty() {
            pool.install(|| {
                series.run_each(game, agents, build, &todo, |g| {
                    let row = GameRow::of(&pairing.name, &g, stat_names, columns.stats);
                    let mut guard = lock(&saving);
                    let (rows, unsaved) = &mut *guard;
                    rows.insert(p, row);
                    progress.inc();
                    *unsaved += 1;
                    if *unsaved >= SAVE_EVERY {
                        rows.write(&cfg.out)?;
                        *unsaved = 0;
                    }
                    Ok(())
                })
            })?;
        }
        let mut guard = lock(&saving);
        if todo.is_empty() {
            // Nothing played (a finished tournament resumed): its files are written only if
            // a kill left them behind its games.
            guard.0.write_if_changed(&cfg.out)?;
        } else {
            guard.0.write(&cfg.out)?;
        }
        guard.1 = 0;
    }
    progress.finish();
    let (rows, _) = saving.into_inner().unwrap_or_else(PoisonError::into_inner);
    let results = rows.results();
    write!(out, "{}", summary_table(&results, columns.summary)).map_err(output_error)?;
    if rows.done() < rows.total() {
        writeln!(
            out,
            "stopped with {} of {} games played; continue with --resume",
            rows.done(),
            rows.total()
        )
        .map_err(output_error)?;
    }
    Ok(results)
}

/// The rows a resumed tournament starts from: those of `games.csv` in `dir` (none if nothing
/// is at its path), provided `dir` holds a `config.toml` equal to `config_toml`.
fn resume_rows<G: Game>(
    dir: &Path,
    config_toml: &str,
    pairings: &[Pairing],
    series: &Series<G>,
    columns: TableColumns,
) -> Result<TournamentRows> {
    let config_path = dir.join(CONFIG_TOML);
    let on_disk = read_text(&config_path, TEXT_LIMIT)?;
    if on_disk != config_toml {
        return Err(Error::config(
            "resume",
            format!(
                "the config differs from the one that started the results in {} (see its \
                 {CONFIG_TOML}); resume with that config, or start afresh with --force",
                dir.display()
            ),
        ));
    }
    let games = dir.join(GAMES_CSV);
    if present(&games)? {
        TournamentRows::read(&games, pairings, series, columns)
    } else {
        Ok(TournamentRows::new(pairings, series.len(), columns))
    }
}

/// Locks `m`, also after a worker panicked while holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The printed summary: one aligned row per pairing, with the game's statistic `columns`; if
/// some pairing's side has more than one participant, then with the side's size (`2/4`),
/// wins, win rate and its interval too.
pub fn summary_table(results: &[PairingResult], columns: &[SummaryColumn]) -> String {
    let sides = results.iter().any(|r| r.side.members.len() > 1);
    let mut header: Vec<String> = [
        "pairing", "games", "wins", "draws", "win %", "95% CI", "score",
    ]
    .map(String::from)
    .to_vec();
    header.extend(columns.iter().map(|c| c.short.to_string()));
    header.push("rank".into());
    if sides {
        header.extend(["side", "side wins", "side %", "side 95% CI"].map(String::from));
    }
    let fixed =
        |x: Option<f64>, d: usize| x.map_or_else(|| "-".to_string(), |x| format!("{x:.d$}"));
    let rows: Vec<Vec<String>> = results
        .iter()
        .map(|r| {
            let s = &r.summary;
            let mut row = vec![
                r.name.clone(),
                s.games.to_string(),
                s.wins.to_string(),
                s.draws.to_string(),
                format!("{:.1}", 100.0 * s.win_rate),
                format!("{:.1}-{:.1}", 100.0 * s.win_rate_lo, 100.0 * s.win_rate_hi),
                fixed(s.mean_score, 1),
            ];
            row.extend(
                columns
                    .iter()
                    .zip(&s.stats)
                    .map(|(c, &x)| fixed(x, c.decimals)),
            );
            row.push(fixed(s.mean_rank, 2));
            if sides {
                let side = &r.side;
                row.extend([
                    format!("{}/{}", side.members.len(), side.participants),
                    side.wins.to_string(),
                    format!("{:.1}", 100.0 * side.win_rate),
                    format!(
                        "{:.1}-{:.1}",
                        100.0 * side.win_rate_lo,
                        100.0 * side.win_rate_hi
                    ),
                ]);
            }
            row
        })
        .collect();
    aligned(&header, &rows)
}
