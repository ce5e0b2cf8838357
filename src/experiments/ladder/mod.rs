//! `playstyles ladder CONFIG`: rates agents by playing them against each other — Bradley–Terry
//! ratings on the Elo scale with 95 % intervals ([`crate::ladder::bradley_terry`]) — with an
//! adaptive schedule that plays more games where adjacent ratings are least certain
//! ([`crate::ladder::schedule`]), so that difficulty tiers can be picked from ratings
//! (`playstyles tiers LADDER_DIR`).
//!
//! A ladder config is a TOML file; `levels` and at least two agents are required, the other
//! fields take the defaults shown:
//!
//! ```toml
//! game = "tribes"            # default: the first registered game
//! seed = 1
//! levels = "paper"           # or level seeds and files
//! anchor = "mcts"            # the agent rated 0 (default: the first agent)
//! target = 50.0              # stop when every adjacent difference is within ±50 Elo (95 %)
//! decisive = 300.0           # optional: ... or its interval lies wholly above +300 Elo
//! max_games = 5000           # ... or after this many games
//! schedule = "adaptive"      # or "round-robin" (every pair each round: the cost to compare)
//! start = 2                  # games of every pair in the opening round robin
//! batch = 2                  # games of a pair each time the schedule picks it
//! prior_draws = 1.0          # BayesElo's virtual draws between every pair that met
//! style_repetitions = 0      # > 0: check each elite's style at its run's baseline ([`style`])
//! tiers = "results/x/tiers.toml"   # optional: tiers that join the ladder, knowing their order
//!
//! [rules]                    # the game's rules options
//!
//! [[elites]]                 # any number: elites of a run, named cell-<index>
//! run = "results/usecase1-steered"
//! cells = [12, 40]           # default: every elite
//! dial = { field = "budget", values = [250, 500, 1000, 2000] }  # optional: each cell at
//!                            # each value, named cell-12@budget=250 (a strength dial)
//!
//! [[agent]]                  # any number
//! name = "mcts"
//! spec = "mcts(budget=2000)"
//! ```
//!
//! **Games.** Every game is between two agents `a < b` (in config order) sharing the level's
//! seats: in a two-player game one seat each; with `n` players they alternate seats (a, b, a, b
//! in a four-player game), and `a` scores 1 when its best finish beats `b`'s best, ½ when they
//! tie (a draw), else 0 — one result a game, so that a game of four is not counted as six
//! independent ones. Game `k` of a pair is on level `(k / 2) mod L` with the seats rotated by
//! `k` (the two games on a level swap the seats), seeded by `derive_seed(seed, [a, b, k])`.
//!
//! **Schedule.** Round 0 plays every pair `start` games. After each round the ratings are
//! fitted; the next round plays each pair of agents adjacent in rating whose difference's 95 %
//! interval is wider than ±`target` (and, with `decisive`, does not lie wholly above
//! +`decisive`: a lopsided step, whose interval narrows slowest, is clear enough for tiers),
//! giving it about half the games its interval still needs
//! in multiples of `batch` ([`crate::ladder::schedule::games_for`]); with `schedule =
//! "round-robin"` every pair plays `batch` more games, as long as some adjacent difference is
//! wider than the target. The ladder stops when no pair is
//! picked, or at `max_games` (the last round cut to fit). The games a round plays follow from
//! the results before it, and each game from its key, so the ladder is the same for any thread
//! count, and a ladder killed and resumed ends as an uninterrupted one: `--resume` replays the
//! schedule from `ladder_games.csv` and plays only the games missing from it. `max_games` is
//! the one setting a resume may change: a ladder stopped at its budget goes on with a larger
//! one, ending as it would have with that budget from the start; a budget below the games the
//! folder holds is refused, the folder untouched. A resume writes nothing before its checks
//! have passed (the config, every saved game, the style check's rows, the budget), and
//! `--resume` of a finished ladder (its `ladder.csv` there, written with this very config) is
//! "nothing to do" once every table it vouches for reads as written (`ladder.csv`, and the
//! style check whole where the ladder has one); one with nothing to resume (no `config.toml`)
//! starts, so a requeued job may always pass `--resume`.
//!
//! **Bounds.** At load, the opening round robin (pairs × `start`) and `max_games` are bounded
//! by [`limits::games`], and `max_games` must let the opening round robin reach every agent
//! (`(agents − 2) × start + 1` games: its first pairs are the first agent's), else the ratings
//! could not be fitted; the style check's elite agents × `style_repetitions` are bounded at
//! load, and with each elite's training levels before the first game ([`style`]).
//!
//! **Outputs** (written atomically into `--out`, default `results/<config stem>/`):
//! - `config.toml`: the resolved config (every agent an `[[agent]]` table with its spec in
//!   canonical form naming the folder's copies of the files it reads, `agent-files/`; elites
//!   keep their `run` and `cell`, dial agents their `dial`, tiers their `tier`);
//! - `ladder_games.csv` ([`games::COLUMNS`]): one row per game, saved every [`run::SAVE_EVERY`]
//!   games and after every round that played one;
//! - `ladder.png`, `ladder.svg`: the ratings with their intervals;
//! - `ladder_style.csv` ([`style`]), with `style_repetitions > 0`: each elite agent's features
//!   against its run's baseline, and whether they stay in its cell;
//! - `ladder.csv` ([`table::COLUMNS`]), written last, so that it marks a finished ladder: one
//!   row per agent, strongest first: rating and 95 % interval (the anchor's rating is 0; every
//!   interval, the anchor's too, is taken around the agents' average, as BayesElo reports
//!   them, so none depends on the choice of anchor), games, mean score, and the difference to
//!   the next agent below with its interval and the expected score it implies.
//!
//! **Owned outputs.** Every row of the three tables carries the ladder's [`fingerprint`]
//! (column [`CONFIG_HASH`]): the hash of its resolved config but for `max_games`. `--resume`,
//! `tiers LADDER_DIR` and `report --ladder` read a folder through [`folder::LadderFolder`],
//! which checks each table as its writer wrote it and bound to the folder's `config.toml`,
//! naming the file and line of the first row that is not (a table of another ladder, or a
//! `config.toml` edited since). Folders written before the fingerprint existed (their tables
//! without the column) are read as they are. `--force` replaces a ladder's own files only
//! ([`RESULT_FILES`] and the `agent-files/` it copies), and only in a folder that is a
//! ladder's: one whose `config.toml`, if any, is a ladder config.
//!
//! The printed table says how the ladder stopped; when agents carry a `tier`, it reports
//! Kendall's τ between tiers and ratings and each adjacent tier's gap (the held-out check of
//! tiers: a ladder of `tiers = "…/tiers.toml"` on other levels).

pub mod folder;
pub mod games;
pub mod run;
pub mod spec;
pub mod style;
pub mod table;

use std::path::{Path, PathBuf};

pub use run::{KeptLadder, Ladder, ladder};
pub use spec::{LadderFile, LadderSpec};

use crate::error::{Error, Result};
use crate::experiments::config_file::{in_file, output_folder};
use crate::experiments::tasks::config_hash;
use crate::files::{TEXT_LIMIT, read_text};
use crate::limits;

/// The resolved config in a ladder's folder.
pub const CONFIG_TOML: &str = "config.toml";

/// The result files of a ladder's folder.
pub const RESULT_FILES: [&str; 6] = [
    style::LADDER_STYLE_CSV,
    CONFIG_TOML,
    games::LADDER_GAMES_CSV,
    table::LADDER_CSV,
    crate::report::ladder_chart::LADDER_PNG,
    crate::report::ladder_chart::LADDER_SVG,
];

/// The column of every ladder table that carries the ladder's [`fingerprint`].
pub const CONFIG_HASH: &str = "config_hash";

/// The fingerprint that binds a ladder's tables to the resolved config `config_toml` that made
/// them: [`config_hash`] of the config with `max_games` set aside (the one setting a resume
/// may change; the games do not depend on it), so that a table of another ladder, or a
/// `config.toml` edited since, is told from the ladder's own.
///
/// # Errors
///
/// As [`LadderFile::parse`] for a text that is not a ladder config.
pub fn fingerprint(config_toml: &str) -> Result<String> {
    let mut file = LadderFile::parse(config_toml)?;
    file.max_games = 0;
    let text = toml::to_string(&file).map_err(|e| Error::config("rules", e.to_string()))?;
    Ok(config_hash(&text))
}

/// Validated settings of `playstyles ladder`.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderConfig {
    /// The ladder, `[[elites]]` and `tiers` expanded into agents.
    pub spec: LadderSpec,
    /// The output folder.
    pub out: PathBuf,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Remove existing result files first.
    pub force: bool,
    /// Continue the ladder in `out`.
    pub resume: bool,
    /// Stop once this many games have been played by this call (a hidden test hook).
    pub stop_after_games: Option<usize>,
}

impl LadderConfig {
    /// Reads and validates the config at `path`, with the output folder `out` or by default
    /// `results/<file stem>/`.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the file cannot be read; as
    /// [`LadderFile::parse`], [`LadderFile::expand`] and [`LadderSpec::validate`], the file
    /// named in the reason; [`Error::Config`] naming `out` if no
    /// default folder can be made from the file name.
    pub fn load(path: &Path, out: Option<PathBuf>) -> Result<Self> {
        let text = read_text(path, TEXT_LIMIT)?;
        let spec = LadderFile::parse(&text)
            .and_then(LadderFile::expand)
            .and_then(LadderSpec::validate)
            .map_err(in_file(path))?;
        let out = output_folder(path, out)?;
        Ok(LadderConfig {
            spec,
            out,
            threads: None,
            quiet: false,
            force: false,
            resume: false,
            stop_after_games: None,
        })
    }

    /// Sets the number of worker threads.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `threads` if it is 0 or above
    /// [`limits::max_threads`].
    pub fn with_threads(mut self, threads: Option<usize>) -> Result<Self> {
        self.threads = limits::threads(threads, "threads")?;
        Ok(self)
    }
}
