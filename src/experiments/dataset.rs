//! `playstyles dataset CONFIG`: positions from self-play for learned evaluation
//! ([`crate::learn`]).
//!
//! A dataset config is a TOML file; `agents` is required, the other fields take the defaults
//! shown:
//!
//! ```toml
//! game = "prismata"                  # default: the first registered game
//! seed = 1                           # default 1
//! games = 1000                       # default 1000
//! levels = "generated"               # default: a fresh level from the game's generator per
//!                                    # game; or "paper" / a list, game i on level i mod n
//! agents = ["MediumAI", "MediumAI"]  # one spec per seat
//! predictors = true                  # default true: record the game's hand-written
//!                                    # predictors (Prismata's playout costs ≈ 1 ms a position)
//! sides = "mover"                    # default "mover": each position from the side to move;
//!                                    # "all": from every seat (for searches that value
//!                                    # positions where another seat is to move)
//! keep = 1.0                         # default 1: the share of positions kept, drawn from
//!                                    # the game's seed (fewer, less alike positions a game)
//!
//! [rules]                            # the game's rules options
//! open_engine = true
//! ```
//!
//! Game `i` has seed `derive_seed(seed, [i])`, participant `j` in seat `(i + j) mod n`, and with
//! generated levels the level of seed `derive_seed(seed, [LEVEL_TAG, i])`, so its unit set (in
//! Prismata) is its own: a split by game is a split by set too. Every time the player to move
//! changes (and at the start) the position is recorded (with `keep` below 1, a share of them
//! drawn from the game's seed) from the side to move (with `sides = "all"`, from every seat in
//! seat order)
//! ([`SearchSupport::encode`](crate::agent::SearchSupport::encode)) with its turn (turns
//! played before it) and the game's hand-written predictors ([`GameKit::predict`], their
//! randomness derived from the game seed and the turn); when the game ends each is labelled
//! with the result for its side (a sole first place a win, a shared first place or a game
//! stopped by a cap a draw, anything else a loss).
//!
//! The file (default `datasets/<config file stem>.dataset`, format in
//! [`crate::learn::dataset`]) is written atomically at the end, its header holding the
//! resolved config. Meanwhile games are played in chunks of [`CHUNK`], each written
//! atomically as a dataset of its own into `<file>.parts/` (`part-NNNNNN.dataset`, its header
//! holding the resolved config and its first game). Every part is checked before it is kept
//! or joined (`check_part`): made by this resolved config, of its chunk's games and no
//! other. `--resume` keeps the parts and plays the rest, so a killed run loses at most the
//! chunk running and ends with the same file (a game that keeps no position is a game of its
//! chunk all the same). The order of writes: the parts, the file (the dataset's completion
//! marker), then the parts removed; `--resume` of a finished dataset (its file made by the
//! same resolved config) has nothing to do, and removes the parts left if it was stopped
//! before. `--force` replaces only what `dataset` writes (`remove_own`): a dataset file at
//! `--out` and the parts in `<file>.parts/`, never a folder, a link or another file. Games run
//! in parallel on `--threads` threads; the file is the same for any number.

use std::fs;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use rand::RngExt;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::GameKind;
use super::config_file::{LevelSet, LevelsField, level_set, toml_error};
use super::resources::{output_error, thread_pool};
use super::run_dir::own_output;
use crate::agent::{Agent, AgentSpec};
use crate::arena::play_match;
use crate::error::{Error, Result};
use crate::experiments::tasks::config_hash;
use crate::files::{TEXT_LIMIT, present, read_text, write_atomic};
use crate::game::{Outcome, Turn};
use crate::kit::GameKit;
use crate::learn::dataset::{Dataset, Header, Label, Record, encode_records, file_bytes};
use crate::learn::encoding::Encoding;
use crate::limits;
use crate::report::progress::Progress;
use crate::rng::{derive_rng, derive_seed};

/// Games per chunk (a part file).
pub const CHUNK: u64 = 200;

/// Games when a config gives none.
pub const DEFAULT_GAMES: u64 = 1000;

/// The `levels` word for a generated level per game (the default).
pub const GENERATED: &str = "generated";

/// Tags the seeds of generated levels.
const LEVEL_TAG: u64 = 0x1e7e1;

/// Tags the predictors' randomness.
const PREDICT_TAG: u64 = 0x9ed1c7;

/// Tags the draws of the positions kept.
const KEEP_TAG: u64 = 0x6ee9;

/// A dataset config as written in TOML.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DatasetFile {
    #[serde(default = "default_game")]
    game: String,
    #[serde(default)]
    rules: toml::Table,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default = "default_games")]
    games: u64,
    #[serde(default = "default_levels")]
    levels: LevelsField,
    agents: Vec<String>,
    #[serde(default = "default_predictors")]
    predictors: bool,
    #[serde(default, skip_serializing_if = "Sides::is_mover")]
    sides: Sides,
    #[serde(default = "default_keep", skip_serializing_if = "keeps_all")]
    keep: f64,
}

fn default_keep() -> f64 {
    1.0
}

fn keeps_all(keep: &f64) -> bool {
    *keep == 1.0
}

/// Whose side a dataset records each position from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sides {
    /// The side to move (the papers' form).
    #[default]
    Mover,
    /// Every seat, in seat order.
    All,
}

impl Sides {
    fn is_mover(&self) -> bool {
        *self == Sides::Mover
    }
}

fn default_predictors() -> bool {
    true
}

fn default_game() -> String {
    GameKind::default().name().into()
}

fn default_seed() -> u64 {
    1
}

fn default_games() -> u64 {
    DEFAULT_GAMES
}

fn default_levels() -> LevelsField {
    LevelsField::Word(GENERATED.into())
}

/// The levels a dataset's games are played on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatasetLevels {
    /// A fresh level from the game's generator per game.
    Generated,
    /// Game `i` on level `i mod n`.
    Set(LevelSet),
}

/// A validated `playstyles dataset` command.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetConfig {
    /// The game.
    pub game: GameKind,
    /// Its rules options, still to be read as the game's `GameKit::Rules`.
    pub rules: toml::Table,
    /// The seed.
    pub seed: u64,
    /// Games to play.
    pub games: u64,
    /// Their levels.
    pub levels: DatasetLevels,
    /// One agent per seat.
    pub agents: Vec<AgentSpec>,
    /// Whether positions carry the game's hand-written predictors.
    pub predictors: bool,
    /// Whose side positions are recorded from.
    pub sides: Sides,
    /// The share of positions kept.
    pub keep: f64,
    /// Where the config came from.
    pub source: String,
    /// The dataset file.
    pub out: PathBuf,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Replace an earlier dataset or start an interrupted one over.
    pub force: bool,
    /// Continue an interrupted dataset from its chunks.
    pub resume: bool,
    /// Play at most this many chunks, then stop as if killed (for tests of `--resume`).
    pub stop_after_chunks: Option<u64>,
}

impl DatasetConfig {
    /// Reads the dataset config at `path`; the file is `out` or
    /// `datasets/<file stem>.dataset`.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the file cannot be read; [`Error::Config`] naming the field at fault
    /// (`games` 0 or over [`limits::MAX_GAMES`], an unknown game or level word, no agents or a
    /// malformed agent spec as `agents[i]`) with the file named.
    pub fn load(path: &Path, out: Option<PathBuf>) -> Result<Self> {
        let text = read_text(path, TEXT_LIMIT)?;
        let source = path.display().to_string();
        let located = |e: Error| match e {
            Error::Config { field, reason } => Error::Config {
                field,
                reason: format!("{reason} (in {source})"),
            },
            e => e,
        };
        let file: DatasetFile = toml::from_str(&text)
            .map_err(|e| toml_error(&text, &e))
            .map_err(located)?;
        let game: GameKind = file.game.parse().map_err(located)?;
        if file.games == 0 || file.games > limits::MAX_GAMES {
            return Err(located(Error::config(
                "games",
                format!("must be 1 to {}, got {}", limits::MAX_GAMES, file.games),
            )));
        }
        let levels = match file.levels {
            LevelsField::Word(w) if w == GENERATED => DatasetLevels::Generated,
            other => DatasetLevels::Set(level_set(other, "levels").map_err(|e| match e {
                Error::Config { field, reason } => located(Error::Config {
                    field,
                    reason: format!("{reason}, or \"{GENERATED}\""),
                }),
                e => e,
            })?),
        };
        if !(file.keep > 0.0 && file.keep <= 1.0) {
            return Err(located(Error::config(
                "keep",
                format!("must be above 0 and at most 1, got {}", file.keep),
            )));
        }
        if file.agents.is_empty() {
            return Err(located(Error::config(
                "agents",
                "give one agent spec per seat",
            )));
        }
        let agents = file
            .agents
            .iter()
            .enumerate()
            .map(|(i, s)| {
                AgentSpec::parse(s).map_err(|e| match e {
                    Error::Config { reason, .. } => {
                        located(Error::config(format!("agents[{i}]"), reason))
                    }
                    e => e,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let stem = path
            .file_stem()
            .map_or("dataset".into(), |s| s.to_string_lossy().into_owned());
        Ok(DatasetConfig {
            game,
            rules: file.rules,
            seed: file.seed,
            games: file.games,
            levels,
            agents,
            predictors: file.predictors,
            sides: file.sides,
            keep: file.keep,
            source,
            out: out.unwrap_or_else(|| Path::new("datasets").join(format!("{stem}.dataset"))),
            threads: None,
            quiet: false,
            force: false,
            resume: false,
            stop_after_chunks: None,
        })
    }

    /// The config with every default explicit, agents in canonical form and the rules as the
    /// game reads them: what the dataset's header keeps and `--resume` compares.
    pub fn resolved_toml(&self, rules: toml::Table, levels: &[String]) -> String {
        let levels = match &self.levels {
            DatasetLevels::Generated => LevelsField::Word(GENERATED.into()),
            DatasetLevels::Set(_) => LevelsField::listed(levels),
        };
        let file = DatasetFile {
            game: self.game.name().into(),
            rules,
            seed: self.seed,
            games: self.games,
            levels,
            agents: self.agents.iter().map(ToString::to_string).collect(),
            predictors: self.predictors,
            sides: self.sides,
            keep: self.keep,
        };
        toml::to_string(&file).expect("a dataset config serialises")
    }
}

/// What a finished dataset holds.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetSummary {
    /// Games recorded.
    pub games: u64,
    /// Positions recorded.
    pub positions: u64,
    /// Whether every game is in the file (false: stopped by `--stop-after-chunks`).
    pub done: bool,
}

/// Plays the games of `cfg` with agents from `build` on `levels` (`None`: generated) and
/// writes the dataset; `header` is the file's header without its counts.
///
/// # Errors
///
/// [`Error::Config`] naming `--out` for an existing file or chunks without `--force` or
/// `--resume` (or a file of another config with `--resume`, or anything at `--out` or in its
/// parts folder that `dataset` did not write, with `--force`), `agents` for a spec count that
/// is not the level's player count; [`Error::Data`] naming a part that is not of this config
/// or its chunk's games; what building an agent or playing a game reports; [`Error::Io`] for
/// a file that cannot be written.
pub fn dataset<G: GameKit, W: Write>(
    game: &G,
    levels: Option<&[(String, G::Level)]>,
    build: impl Fn(&str) -> Result<Box<dyn Agent<G>>> + Sync,
    cfg: &DatasetConfig,
    mut header: Header,
    out: &mut W,
) -> Result<DatasetSummary> {
    let parts = parts_dir(&cfg.out);
    let chunks = cfg.games.div_ceil(CHUNK);
    if let Some(done) = prepare(cfg, &parts, &header.config, chunks)? {
        writeln!(
            out,
            "{}: finished already ({} positions of {} games); nothing to do",
            cfg.out.display(),
            done.positions,
            done.games
        )
        .map_err(output_error)?;
        return Ok(DatasetSummary {
            games: done.games,
            positions: done.positions,
            done: true,
        });
    }
    let specs: Vec<String> = cfg.agents.iter().map(ToString::to_string).collect();
    for s in &specs {
        build(s)?;
    }
    let pool = thread_pool(cfg.threads, "--threads")?;
    let progress = Progress::with_unit(cfg.games, "games", !cfg.quiet);
    let mut played = 0;
    for c in 0..chunks {
        let path = part_path(&parts, c);
        let range = chunk_range(c, cfg.games);
        if cfg.resume && crate::files::present(&path)? {
            check_part(&path, &header.config, range.clone())?;
            progress.add(range.end - range.start);
            continue;
        }
        if cfg.stop_after_chunks.is_some_and(|k| played >= k) {
            progress.finish();
            return Ok(DatasetSummary {
                games: 0,
                positions: 0,
                done: false,
            });
        }
        let games: Vec<Vec<Record>> = pool.install(|| {
            range
                .clone()
                .into_par_iter()
                .map(|i| {
                    let r = record_game(game, levels, &build, cfg, &specs, i);
                    progress.inc();
                    r
                })
                .collect::<Result<_>>()
        })?;
        let mut body = Vec::new();
        let mut positions = 0;
        for (i, recs) in range.clone().zip(&games) {
            encode_records(i as u32, recs, &mut body);
            positions += recs.len() as u64;
        }
        let mut h = header.clone();
        (h.first_game, h.games, h.positions) = (range.start, range.end - range.start, positions);
        write_atomic(&path, &file_bytes(&h, &body))?;
        played += 1;
    }
    progress.finish();
    // Every chunk is on disk: the file is their records in order, each part checked again (a
    // part written meanwhile by another command is named, not joined).
    let mut body = Vec::new();
    let (mut games, mut positions) = (0, 0);
    for c in 0..chunks {
        let path = part_path(&parts, c);
        let (part, bytes) = check_part(&path, &header.config, chunk_range(c, cfg.games))?;
        games += part.games;
        positions += part.positions;
        body.extend_from_slice(&bytes[records_start(&bytes)..]);
    }
    (header.first_game, header.games, header.positions) = (0, games, positions);
    write_atomic(&cfg.out, &file_bytes(&header, &body))?;
    remove_own(None, &parts)?;
    writeln!(
        out,
        "{}: {positions} positions of {games} games ({:.1} a game)",
        cfg.out.display(),
        positions as f64 / games.max(1) as f64
    )
    .map_err(output_error)?;
    Ok(DatasetSummary {
        games,
        positions,
        done: true,
    })
}

/// Where the records of a dataset file's bytes start (bytes [`Dataset::parse`] read).
fn records_start(bytes: &[u8]) -> usize {
    let len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
    16 + len as usize
}

/// The folder of a dataset's chunks.
fn parts_dir(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".parts");
    out.with_file_name(name)
}

/// The file of chunk `c` in the parts folder `parts`.
fn part_path(parts: &Path, c: u64) -> PathBuf {
    parts.join(format!("part-{c:06}.dataset"))
}

/// The games of chunk `c` of a dataset of `games` games.
fn chunk_range(c: u64, games: u64) -> Range<u64> {
    c * CHUNK..((c + 1) * CHUNK).min(games)
}

/// The chunk a file of a parts folder is the part of (`part-NNNNNN.dataset`), if it is one.
fn part_index(name: &str) -> Option<u64> {
    let digits = name.strip_prefix("part-")?.strip_suffix(".dataset")?;
    (digits.len() == 6 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// Whether `name` is a file `dataset` writes in a parts folder: a part, or the temporary file
/// of a part being written atomically (`.part-NNNNNN.dataset.tmpPID`, left by a kill).
fn is_own_part(name: &str) -> bool {
    let temporary = name
        .strip_prefix('.')
        .and_then(|n| n.rsplit_once(".tmp"))
        .is_some_and(|(part, pid)| {
            part_index(part).is_some() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
        });
    part_index(name).is_some() || temporary
}

/// The parts in the folder `parts` (none if it does not exist), by chunk.
///
/// # Errors
///
/// [`Error::Config`] naming `--out` if `parts` is a link or not a folder, or holds anything
/// `dataset` does not write (a file of another name, a link to a file); [`Error::Io`] naming
/// an entry of a part's name that is not a regular file, and saying what it is ("not a
/// regular file (a FIFO)", a folder, a dangling link: [`crate::files::open`]'s errors).
fn own_parts(parts: &Path) -> Result<Vec<PathBuf>> {
    let not_ours = |what: String| {
        Error::config(
            "--out",
            format!("{what}, not written by `dataset`; nothing was deleted (remove it yourself)"),
        )
    };
    let meta = match fs::symlink_metadata(parts) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(parts, e)),
    };
    if !meta.is_dir() {
        return Err(not_ours(format!(
            "{} is not a parts folder",
            parts.display()
        )));
    }
    let mut own = Vec::new();
    for entry in fs::read_dir(parts).map_err(|e| Error::io(parts, e))? {
        let entry = entry.map_err(|e| Error::io(parts, e))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().map_err(|e| Error::io(&path, e))?;
        if !is_own_part(&name) {
            return Err(not_ours(format!("{} holds {name}", parts.display())));
        }
        if !kind.is_file() {
            // What is there, named: a folder, a FIFO, a link to nothing or to one of them.
            crate::files::open(&path)?;
            return Err(not_ours(format!(
                "{} holds {name}, a link",
                parts.display()
            )));
        }
        own.push(path);
    }
    own.sort();
    Ok(own)
}

/// Removes what `dataset` wrote at `out` (if given: a dataset file) and in the parts folder
/// `parts` (its parts, then the folder), having checked first that everything there is its
/// own, so that it deletes nothing else: the one place `dataset` deletes.
///
/// # Errors
///
/// [`Error::Config`] naming `--out` (and nothing deleted) if `out` is a folder, a link or a
/// file that is not a dataset, or `parts` holds anything else than parts ([`own_parts`]);
/// [`Error::Io`] if a file cannot be removed.
fn remove_own(out: Option<&Path>, parts: &Path) -> Result<()> {
    let out = match out {
        Some(out) if present(out)? => {
            dataset_at(out)?;
            Some(out)
        }
        _ => None,
    };
    let own = own_parts(parts)?;
    for path in out.into_iter().chain(own.iter().map(PathBuf::as_path)) {
        fs::remove_file(path).map_err(|e| Error::io(path, e))?;
    }
    if present(parts)? {
        fs::remove_dir(parts).map_err(|e| Error::io(parts, e))?;
    }
    Ok(())
}

/// The header of the dataset file at `out`, which must be a regular file (not a link).
///
/// # Errors
///
/// [`Error::Config`] naming `--out` if it is a folder, a link or not a dataset
/// ([`own_output`]).
fn dataset_at(out: &Path) -> Result<Header> {
    own_output(out, "--out", "a dataset file", |p| {
        Dataset::read_header(p).is_ok()
    })?;
    Dataset::read_header(out)
}

/// Checks the part at `path` as `dataset` wrote it for the chunk of the games `range`: a
/// dataset whose header holds `config`, the chunk's games (its first and its count) and the
/// count of its records, each of a game of the chunk in order ([`Dataset::parse`]); a game
/// without a record is one whose positions were all left out (`keep`). Returns its header
/// and bytes.
///
/// # Errors
///
/// [`Error::Data`] naming the part for any other file; [`Error::Io`] if it cannot be read.
fn check_part(path: &Path, config: &str, range: Range<u64>) -> Result<(Header, Vec<u8>)> {
    let bad = |reason: String| {
        Error::data(
            path,
            0,
            format!("{reason}; not a part of this dataset (start over with --force)"),
        )
    };
    let bytes = crate::files::read_bytes(path, crate::files::DATASET_LIMIT)?;
    let part = Dataset::parse(&bytes).map_err(bad)?;
    let h = &part.header;
    if h.config != config {
        return Err(bad(format!(
            "made by another config (fingerprint {}, this one's {})",
            config_hash(&h.config),
            config_hash(config)
        )));
    }
    if h.first_game != range.start || h.games != range.end - range.start {
        return Err(bad(format!(
            "the games {} to {}, not its chunk's {} to {}",
            h.first_game,
            (h.first_game + h.games).saturating_sub(1),
            range.start,
            range.end - 1
        )));
    }
    Ok((part.header, bytes))
}

/// The header of a dataset at `cfg.out` finished by the same resolved config `config`, if
/// `--resume` finds one (its leftover parts then removed); else checks the output against
/// `--force` and `--resume` (a parts folder of `chunks` parts at most, each checked when it is
/// reached), clearing it for `--force`, and makes the parts folder.
fn prepare(cfg: &DatasetConfig, parts: &Path, config: &str, chunks: u64) -> Result<Option<Header>> {
    let out_exists = present(&cfg.out)?;
    let parts_exist = present(parts)?;
    if cfg.force {
        remove_own(Some(&cfg.out), parts)?;
    } else if out_exists && cfg.resume {
        let header = dataset_at(&cfg.out)?;
        if header.config != config {
            return Err(Error::config(
                "--out",
                format!(
                    "{} holds a dataset of another config (fingerprint {}, this one's {}); give --force to replace it",
                    cfg.out.display(),
                    config_hash(&header.config),
                    config_hash(config)
                ),
            ));
        }
        remove_own(None, parts)?;
        return Ok(Some(header));
    } else if out_exists {
        return Err(Error::config(
            "--out",
            format!(
                "{} exists; give --force to replace it (or --resume: nothing to do if this config made it)",
                cfg.out.display()
            ),
        ));
    } else if parts_exist && !cfg.resume {
        return Err(Error::config(
            "--out",
            format!(
                "{} holds an interrupted dataset; give --resume to continue it or --force to start over",
                parts.display()
            ),
        ));
    } else if parts_exist {
        for path in own_parts(parts)? {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if part_index(&name).is_some_and(|c| c >= chunks) {
                return Err(Error::data(
                    &path,
                    0,
                    format!(
                        "a part past this dataset's {chunks} chunks: made by another config (start over with --force)"
                    ),
                ));
            }
        }
    }
    fs::create_dir_all(parts).map_err(|e| Error::io(parts, e))?;
    Ok(None)
}

/// The fields of a dataset config that make its game `i` (with `i`): whatever the others
/// (`games`, `keep`, `sides`, `predictors`), two datasets of equal fields hold the same games.
const GAME_FIELDS: [&str; 5] = ["game", "rules", "seed", "levels", "agents"];

/// The fingerprint of the games the resolved dataset config `config` plays ([`config_hash`] of
/// its `GAME_FIELDS`: game, rules, seed, levels, agents): datasets of equal fingerprints hold the same game at the same index. A
/// text that is not a TOML table is its own fingerprint.
pub fn games_fingerprint(config: &str) -> String {
    match toml::from_str::<toml::Table>(config) {
        Ok(mut table) => {
            table.retain(|k, _| GAME_FIELDS.contains(&k));
            config_hash(&toml::to_string(&table).expect("a TOML table serialises"))
        }
        Err(_) => config_hash(config),
    }
}

/// The header of a dataset of `game` made by the resolved config `config`.
///
/// # Errors
///
/// [`Error::Config`] naming `game` if the game declares no encoding.
pub fn header_for<G: GameKit>(
    game: &G,
    name: &str,
    rules: &str,
    config: String,
    predictors: bool,
) -> Result<Header> {
    let encoding: Encoding = game.encoding().ok_or_else(|| {
        Error::config(
            "game",
            format!("{name} has no encoding of positions for learned evaluation"),
        )
    })?;
    Ok(Header {
        game: name.into(),
        rules: rules.into(),
        encoding,
        predictors: if predictors {
            game.predictors().iter().map(|s| s.to_string()).collect()
        } else {
            Vec::new()
        },
        games: 0,
        positions: 0,
        config,
        first_game: 0,
    })
}

/// Plays game `i` and returns its positions, labelled.
fn record_game<G: GameKit>(
    game: &G,
    levels: Option<&[(String, G::Level)]>,
    build: &(impl Fn(&str) -> Result<Box<dyn Agent<G>>> + Sync),
    cfg: &DatasetConfig,
    specs: &[String],
    i: u64,
) -> Result<Vec<Record>> {
    let seed = cfg.seed;
    let generated;
    let level = match levels {
        Some(set) => &set[(i % set.len() as u64) as usize].1,
        None => {
            generated = G::generate_level(derive_seed(seed, &[LEVEL_TAG, i]))?;
            &generated
        }
    };
    let n = specs.len();
    let mut agents: Vec<Option<Box<dyn Agent<G>>>> = (0..n).map(|_| None).collect();
    for (j, s) in specs.iter().enumerate() {
        agents[(i as usize + j) % n] = Some(build(s)?);
    }
    let mut agents: Vec<Box<dyn Agent<G>>> = agents.into_iter().flatten().collect();
    let game_seed = derive_seed(seed, &[i]);
    let mut records: Vec<(usize, Record)> = Vec::new();
    let mut last = None;
    let mut counts = Vec::new();
    let mut turn: u16 = 0;
    let mut keep_rng = derive_rng(game_seed, &[KEEP_TAG]);
    let check_players = {
        let s = crate::arena::initial_state(game, level, game_seed);
        game.num_players(&s)
    };
    if check_players != n {
        return Err(Error::config(
            "agents",
            format!("{n} agents for a level of {check_players} players"),
        ));
    }
    let record = play_match(game, level, &mut agents, game_seed, |state, _| {
        let Turn::Player(p) = game.turn(state) else {
            return;
        };
        if last == Some(p) {
            return;
        }
        if last.is_some() {
            turn = turn.saturating_add(1);
        }
        last = Some(p);
        if cfg.keep < 1.0 && keep_rng.random::<f64>() >= cfg.keep {
            return;
        }
        let seats = match cfg.sides {
            Sides::Mover => p..p + 1,
            Sides::All => 0..n,
        };
        for q in seats {
            game.encode(state, q, &mut counts);
            let mut predictions = Vec::new();
            if cfg.predictors {
                let mut rng = derive_rng(game_seed, &[PREDICT_TAG, u64::from(turn)]);
                game.predict(state, q, &mut rng, &mut predictions);
            }
            records.push((
                q,
                Record {
                    turn,
                    label: Label::Draw,
                    predictions,
                    counts: counts.clone(),
                },
            ));
        }
    })?;
    let outcome = if record.capped { None } else { record.outcome };
    Ok(records
        .into_iter()
        .map(|(p, mut r)| {
            r.label = label(outcome.as_ref(), p);
            r
        })
        .collect())
}

/// The result of `outcome` (`None`: unfinished) for seat `p`.
fn label(outcome: Option<&Outcome>, p: usize) -> Label {
    match outcome {
        None => Label::Draw,
        Some(o) if o.winner() == Some(p) => Label::Win,
        Some(o) if o.winner().is_none() && o.rank(p) == 1 => Label::Draw,
        Some(_) => Label::Loss,
    }
}
