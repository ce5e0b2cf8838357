//! A ladder's folder as its readers find it — `ladder --resume`, `tiers LADDER_DIR` and
//! `report --ladder`: its resolved `config.toml` with the [`fingerprint`] that binds the
//! folder's tables to it, and its games, ratings and style check, each read as its writer
//! wrote it ([`games::read`], [`table::read_ladder_csv`], [`style::read_styles`]); and whether
//! `--force` may clear a folder ([`check_owned`]).

use std::io::Cursor;
use std::path::{Path, PathBuf};

use super::games::{self, LADDER_GAMES_CSV, SavedGames};
use super::spec::{LadderFile, LadderSpec};
use super::style::{self, LADDER_STYLE_CSV, StyleTable};
use super::table::{self, LADDER_CSV, LadderRow};
use super::{CONFIG_HASH, CONFIG_TOML, fingerprint};
use crate::error::{Error, Result};
use crate::experiments::config_file::{LevelSet, in_file};
use crate::files::{DATA_LIMIT, TEXT_LIMIT, present, read_bytes, read_text};

/// A ladder's folder and its resolved config.
#[derive(Clone, Debug)]
pub struct LadderFolder {
    /// The folder.
    pub dir: PathBuf,
    /// Its `config.toml`, validated.
    pub spec: LadderSpec,
    /// The text of its `config.toml`.
    pub config_toml: String,
    /// The [`fingerprint`] of that text, which every row of its tables carries.
    pub fingerprint: String,
    /// The levels its config lists.
    pub levels: Vec<String>,
}

impl LadderFolder {
    /// Reads the config of the ladder in `dir`.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if `config.toml` cannot be read; as [`LadderFile::parse`] and
    /// [`LadderSpec::validate`], the file named in the reason; [`Error::Data`] naming it if it
    /// lists no levels (a ladder's resolved config does).
    pub fn open(dir: &Path) -> Result<Self> {
        let path = dir.join(CONFIG_TOML);
        let config_toml = read_text(&path, TEXT_LIMIT)?;
        let spec = LadderFile::parse(&config_toml)
            .and_then(LadderSpec::validate)
            .map_err(in_file(&path))?;
        let fingerprint = fingerprint(&config_toml).map_err(in_file(&path))?;
        let levels = match &spec.levels {
            LevelSet::List(levels) => levels.clone(),
            LevelSet::Paper => {
                return Err(Error::data(
                    &path,
                    0,
                    "`levels` is not a list: a ladder's resolved config lists its levels",
                ));
            }
        };
        Ok(LadderFolder {
            dir: dir.to_path_buf(),
            spec,
            config_toml,
            fingerprint,
            levels,
        })
    }

    /// The agents' names, in config order.
    pub fn names(&self) -> Vec<String> {
        self.spec.agents.iter().map(|a| a.name.clone()).collect()
    }

    /// The folder's games (none before the first is saved).
    ///
    /// # Errors
    ///
    /// As [`games::read`].
    pub fn games(&self) -> Result<SavedGames> {
        let path = self.dir.join(LADDER_GAMES_CSV);
        if !present(&path)? {
            return Ok(SavedGames::default());
        }
        games::read(&path, &self.spec, &self.levels, &self.fingerprint)
    }

    /// True if the ladder finished: something is at its `ladder.csv`, written last (a link or
    /// a folder there is then refused by name when it is read, not taken for no file).
    ///
    /// # Errors
    ///
    /// As [`present`].
    pub fn finished(&self) -> Result<bool> {
        present(&self.dir.join(LADDER_CSV))
    }

    /// The ratings of the finished ladder whose games are `games` (its `ladder.csv`).
    ///
    /// # Errors
    ///
    /// [`Error::Data`] naming `ladder.csv` if the ladder has not finished (the file is
    /// missing); as [`table::read_ladder_csv`].
    pub fn ratings(&self, games: &SavedGames) -> Result<Vec<LadderRow>> {
        let path = self.dir.join(LADDER_CSV);
        if !present(&path)? {
            return Err(Error::data(
                &path,
                0,
                format!(
                    "missing: the ladder in {} has not finished ({LADDER_CSV} is written last); \
                     continue it with `ladder CONFIG --out {} --resume`",
                    self.dir.display(),
                    self.dir.display()
                ),
            ));
        }
        table::read_ladder_csv(&path, &self.spec, &self.fingerprint, games)
    }

    /// The style check's table, `None` if the ladder has none.
    ///
    /// # Errors
    ///
    /// As [`style::read_styles`].
    pub fn styles(&self) -> Result<Option<StyleTable>> {
        let path = self.dir.join(LADDER_STYLE_CSV);
        if !present(&path)? {
            return Ok(None);
        }
        style::read_styles(&path, &self.spec, &self.fingerprint).map(Some)
    }

    /// Checks the tables of the finished ladder whose games are `games`, as `--resume` vouches
    /// for them when it finds nothing to do: its `ladder.csv` ([`LadderFolder::ratings`]) and,
    /// when the ladder checks its elites' style, its `ladder_style.csv` ([`style::read_styles`])
    /// with a row for every elite agent (the check is written whole before `ladder.csv`).
    ///
    /// # Errors
    ///
    /// As [`LadderFolder::ratings`] and [`LadderFolder::styles`]; [`Error::Data`] naming
    /// `ladder_style.csv` if it is missing or lacks an elite agent's row.
    pub fn check_finished(&self, games: &SavedGames) -> Result<()> {
        self.ratings(games)?;
        let elites: Vec<&str> = self
            .spec
            .agents
            .iter()
            .filter(|a| a.elite.is_some())
            .map(|a| a.name.as_str())
            .collect();
        let styles = self.styles()?;
        if self.spec.style_repetitions == 0 || elites.is_empty() {
            return Ok(());
        }
        let path = self.dir.join(LADDER_STYLE_CSV);
        let Some(styles) = styles else {
            return Err(Error::data(
                &path,
                0,
                format!(
                    "missing: the ladder checks its elites' style (style_repetitions = {}), and \
                     its {LADDER_CSV} is written after the check; restore the file, or play the \
                     ladder afresh with --force",
                    self.spec.style_repetitions
                ),
            ));
        };
        let checked = styles.consistent();
        if let Some(missing) = elites.iter().find(|a| !checked.contains_key(**a)) {
            return Err(Error::data(
                &path,
                styles.rows.len() + 1,
                format!(
                    "no row for the elite agent `{missing}`: the ladder finished ({LADDER_CSV} \
                     is there) after checking every elite's style; restore the file, or play \
                     the ladder afresh with --force"
                ),
            ));
        }
        Ok(())
    }
}

/// A CSV reader over the ladder table `path` (read whole, at most [`DATA_LIMIT`] bytes) whose
/// header is `columns` then [`CONFIG_HASH`], or `columns` alone (a table written before the
/// fingerprint existed); and whether it has the [`CONFIG_HASH`] column, the last.
///
/// # Errors
///
/// [`Error::Io`] naming the file if it cannot be read or is larger than the limit;
/// [`Error::Data`] naming it if its header is another.
pub fn read_bound(path: &Path, columns: &[&str]) -> Result<(::csv::Reader<Cursor<Vec<u8>>>, bool)> {
    let bytes = read_bytes(path, DATA_LIMIT)?;
    let mut r = ::csv::Reader::from_reader(Cursor::new(bytes));
    let header = r
        .headers()
        .map_err(|e| Error::data(path, 1, e.to_string()))?;
    let bound = header.len() == columns.len() + 1;
    let expected = columns.iter().copied().chain(bound.then_some(CONFIG_HASH));
    if header.iter().ne(expected) {
        return Err(Error::data(
            path,
            1,
            format!(
                "unexpected header; expected `{},{CONFIG_HASH}`",
                columns.join(",")
            ),
        ));
    }
    Ok((r, bound))
}

/// Checks that the row at `line` of the ladder table `path` carries `fingerprint` (`found`).
///
/// # Errors
///
/// [`Error::Data`] naming the file and line if it carries another: a row of another ladder,
/// or the folder's `config.toml` was edited since it was written.
pub fn check_hash(path: &Path, line: usize, found: &str, fingerprint: &str) -> Result<()> {
    if found == fingerprint {
        return Ok(());
    }
    Err(Error::data(
        path,
        line,
        format!(
            "column `{CONFIG_HASH}`: `{found}` is not the fingerprint of the ladder's \
             {CONFIG_TOML} ({fingerprint}): the row was written by another ladder config (a \
             table of another ladder, or a {CONFIG_TOML} edited since); restore the ladder's \
             own files, or play it afresh with --force"
        ),
    ))
}

/// Checks that `--force` may replace a ladder's files in `dir`: a folder that holds no
/// `config.toml`, or whose `config.toml` is a ladder config (so a run directory or another
/// command's folder is never taken for a ladder's).
///
/// # Errors
///
/// [`Error::Config`] naming `out` if its `config.toml` is not a ladder config; [`Error::Io`]
/// if it cannot be read.
pub fn check_owned(dir: &Path) -> Result<()> {
    let path = dir.join(CONFIG_TOML);
    if !present(&path)? {
        return Ok(());
    }
    let text = read_text(&path, TEXT_LIMIT)?;
    LadderFile::parse(&text).map(|_| ()).map_err(|e| {
        Error::config(
            "out",
            format!(
                "{} is not a ladder's folder: its {CONFIG_TOML} is not a ladder config ({e}); \
                 --force replaces only a ladder's own files: choose another --out",
                dir.display()
            ),
        )
    })
}
