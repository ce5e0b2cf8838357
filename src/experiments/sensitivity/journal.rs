//! The journal of a sensitivity measurement under way: every genome's games are saved,
//! atomically, as soon as they are played, with the settings the games depend on, so that a
//! killed measurement continued with `--resume` loses only the genomes being played. Resuming
//! with other settings is refused, naming the setting; the journal is deleted once the tables
//! are written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::tables::PlayedGame;
use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes, write_atomic};

/// The journal format this build writes and reads.
const VERSION: u32 = 1;

/// One genome played: its label, the agent spec it was played with and its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Entry {
    genome: String,
    spec: String,
    games: Vec<PlayedGame>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct JournalFile {
    version: u32,
    settings: BTreeMap<String, String>,
    done: Vec<Entry>,
}

/// An open journal, shared by the threads playing the genomes.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<JournalFile>,
}

impl Journal {
    /// Opens the journal at `path` for games played with `settings`. With `resume`, an
    /// existing journal's genomes are kept (a missing journal starts an empty one); without, an
    /// existing journal is an error unless `force`, which discards it.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `--out` if a journal exists and neither `resume` nor `force` is
    /// set, or naming the first setting that differs from the journal's; [`Error::Io`] or
    /// [`Error::Data`] naming the file if it cannot be read or is not such a journal.
    pub fn open(
        path: &Path,
        settings: &[(&str, String)],
        resume: bool,
        force: bool,
    ) -> Result<Journal> {
        let settings: BTreeMap<String, String> = settings
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.clone()))
            .collect();
        let mut file = JournalFile {
            version: VERSION,
            settings,
            done: Vec::new(),
        };
        if path.exists() {
            if resume {
                let old = read(path)?;
                for (key, value) in &file.settings {
                    let was = old.settings.get(key).map_or("(none)", String::as_str);
                    if was != value {
                        return Err(Error::config(
                            key,
                            format!(
                                "{} was started with {key} = {was}, not {value}; run it with \
                                 the same settings, or pass --force instead of --resume to \
                                 start over",
                                path.display()
                            ),
                        ));
                    }
                }
                file.done = old.done;
            } else if force {
                std::fs::remove_file(path).map_err(|e| Error::io(path, e))?;
            } else {
                return Err(Error::config(
                    "--out",
                    format!(
                        "{} holds an interrupted measurement; pass --resume to continue it or \
                         --force to start over",
                        path.display()
                    ),
                ));
            }
        }
        Ok(Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// The games the journal holds for `genome` played with `spec` (`None`: not played, or
    /// played with another spec, which is then played again).
    pub fn done(&self, genome: &str, spec: &str) -> Option<Vec<PlayedGame>> {
        let file = self.file.lock().expect("journal lock");
        file.done
            .iter()
            .find(|e| e.genome == genome && e.spec == spec)
            .map(|e| e.games.clone())
    }

    /// Adds `genome`, played with `spec`, and saves the journal atomically.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the journal cannot be written.
    pub fn record(&self, genome: &str, spec: &str, games: &[PlayedGame]) -> Result<()> {
        let mut file = self.file.lock().expect("journal lock");
        file.done.retain(|e| e.genome != genome);
        file.done.push(Entry {
            genome: genome.to_string(),
            spec: spec.to_string(),
            games: games.to_vec(),
        });
        let bytes =
            serde_json::to_vec(&*file).map_err(|e| Error::config("journal", e.to_string()))?;
        write_atomic(&self.path, &bytes)
    }

    /// Genomes the journal holds whose label passes `keep`.
    pub fn count(&self, keep: impl Fn(&str) -> bool) -> usize {
        let file = self.file.lock().expect("journal lock");
        file.done.iter().filter(|e| keep(&e.genome)).count()
    }

    /// Deletes the journal (the tables are written).
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if it exists and cannot be removed.
    pub fn finish(self) -> Result<()> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&self.path, e)),
            _ => Ok(()),
        }
    }
}

fn read(path: &Path) -> Result<JournalFile> {
    let bytes = read_bytes(path, DATA_LIMIT)?;
    let file: JournalFile = serde_json::from_slice(&bytes)
        .map_err(|e| Error::data(path, 0, format!("not a sensitivity journal: {e}")))?;
    if file.version != VERSION {
        return Err(Error::data(
            path,
            0,
            format!(
                "journal version {}, this build reads version {VERSION}",
                file.version
            ),
        ));
    }
    Ok(file)
}
