//! The journal of a command that re-plays a run's elites (`validate`, `reevaluate`): every
//! elite's evaluation is saved, atomically, as soon as its games are played, so that a killed
//! command continued with `--resume` loses only the elites that were being played. The
//! journal also records the settings the games depend on; resuming with other settings is
//! refused, naming the setting. It is deleted once the command's tables are written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes, write_atomic};
use crate::qd::Evaluation;

/// The journal format this build writes and reads.
pub const JOURNAL_VERSION: u32 = 1;

/// One elite played: its cell, the agent spec it was played with and its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Entry {
    cell: usize,
    spec: String,
    evaluation: Evaluation,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct JournalFile {
    version: u32,
    /// What the games depend on beyond each elite's spec (levels, repetitions, seed, …).
    settings: BTreeMap<String, String>,
    /// The elites played, in the order they finished.
    done: Vec<Entry>,
}

/// An open journal (see the [module docs](self)). Shared by the threads playing the elites.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<JournalFile>,
}

impl Journal {
    /// Opens the journal at `path` for games played with `settings`. With `resume`, an
    /// existing journal's elites are kept (a missing journal starts an empty one); without, an
    /// existing journal is an error unless `force`, which discards it.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `run_dir` if a journal exists and neither `resume` nor `force`
    /// is set, or naming the first setting that differs from the journal's; [`Error::Io`]
    /// naming the file if it cannot be read, [`Error::Data`] if it is not a journal of this
    /// version.
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
            version: JOURNAL_VERSION,
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
                    "run_dir",
                    format!(
                        "{} holds an interrupted run's elites; pass --resume to continue it or \
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

    /// The evaluation the journal holds for the elite in `cell`, if it was played with `spec`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `run_dir` if it was played with another spec (the archive
    /// changed since).
    pub fn done(&self, cell: usize, spec: &str) -> Result<Option<Evaluation>> {
        let file = self.file.lock().expect("journal lock");
        match file.done.iter().find(|e| e.cell == cell) {
            Some(e) if e.spec == spec => Ok(Some(e.evaluation.clone())),
            Some(e) => Err(Error::config(
                "run_dir",
                format!(
                    "{} played cell {cell} as {}, but the archive's elite there is now {spec}; \
                     pass --force instead of --resume to start over",
                    self.path.display(),
                    e.spec
                ),
            )),
            None => Ok(None),
        }
    }

    /// Adds the elite in `cell`, played with `spec`, and saves the journal atomically.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the journal cannot be written.
    pub fn record(&self, cell: usize, spec: &str, evaluation: &Evaluation) -> Result<()> {
        let mut file = self.file.lock().expect("journal lock");
        file.done.push(Entry {
            cell,
            spec: spec.to_string(),
            evaluation: evaluation.clone(),
        });
        let bytes = serde_json::to_vec_pretty(&*file)
            .map_err(|e| Error::config("journal", e.to_string()))?;
        write_atomic(&self.path, &bytes)
    }

    /// Elites the journal holds.
    pub fn len(&self) -> usize {
        self.file.lock().expect("journal lock").done.len()
    }

    /// True if the journal holds no elite.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Deletes the journal (the command's tables are written).
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
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| Error::data(path, 0, format!("not a journal (bad JSON: {e})")))?;
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(JOURNAL_VERSION) => {}
        Some(v) => {
            return Err(Error::data(
                path,
                0,
                format!("journal version {v}, this build reads version {JOURNAL_VERSION}"),
            ));
        }
        None => return Err(Error::data(path, 0, "not a journal (no `version` number)")),
    }
    serde_json::from_value(value).map_err(|e| Error::data(path, 0, format!("corrupt journal: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(wins: u32) -> Evaluation {
        Evaluation {
            fitness: f64::from(wins) / 4.0,
            games: 4,
            wins,
            descriptor_means: vec![1.5],
            descriptor_spreads: vec![0.5],
            ..Evaluation::default()
        }
    }

    fn settings(reps: &str) -> Vec<(&'static str, String)> {
        vec![("levels", "a,b".into()), ("repetitions", reps.into())]
    }

    #[test]
    fn a_resumed_journal_keeps_its_elites_and_a_finished_one_is_gone() {
        let dir = tempfile_dir("journal-keep");
        let path = dir.join("j.json");
        let j = Journal::open(&path, &settings("2"), false, false).unwrap();
        j.record(3, "p(w=1)", &ev(2)).unwrap();
        drop(j);
        let j = Journal::open(&path, &settings("2"), true, false).unwrap();
        assert_eq!(j.len(), 1);
        assert_eq!(j.done(3, "p(w=1)").unwrap(), Some(ev(2)));
        assert_eq!(j.done(4, "p(w=1)").unwrap(), None);
        let e = j.done(3, "p(w=0)").unwrap_err().to_string();
        assert!(e.contains("cell 3") && e.contains("p(w=0)"), "{e}");
        j.finish().unwrap();
        assert!(!path.exists());
    }

    #[test]
    fn other_settings_or_no_flag_are_refused_and_force_starts_over() {
        let dir = tempfile_dir("journal-refuse");
        let path = dir.join("j.json");
        Journal::open(&path, &settings("2"), false, false)
            .unwrap()
            .record(0, "p", &ev(1))
            .unwrap();
        let e = Journal::open(&path, &settings("3"), true, false).unwrap_err();
        assert!(e.to_string().contains("repetitions = 2, not 3"), "{e}");
        let e = Journal::open(&path, &settings("2"), false, false).unwrap_err();
        assert!(e.to_string().contains("--resume"), "{e}");
        let j = Journal::open(&path, &settings("3"), false, true).unwrap();
        assert!(j.is_empty() && !path.exists());
    }

    #[test]
    fn a_corrupt_or_foreign_journal_is_an_error_naming_the_file() {
        let dir = tempfile_dir("journal-corrupt");
        let path = dir.join("j.json");
        for (text, why) in [
            ("{\"version\": 1, \"settings\": {}, \"done\": [", "bad JSON"),
            ("{\"version\": 9}", "version 9"),
            ("{\"settings\": {}}", "no `version`"),
        ] {
            std::fs::write(&path, text).unwrap();
            let e = Journal::open(&path, &settings("2"), true, false)
                .unwrap_err()
                .to_string();
            assert!(e.contains("j.json") && e.contains(why), "{e}");
        }
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("playstyles-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
