//! The journal of a command that plays many independent items (the elites of `validate` and
//! `reevaluate`, the genomes of `sensitivity`): every item's games are saved, atomically, as
//! soon as they are played, so that a killed command continued with `--resume` loses only the
//! items that were being played. The journal also records the settings the games depend on;
//! resuming with other settings is refused, naming the setting. It is deleted once the
//! command's tables are written. What an item's entry holds is the command's ([`Entry`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes, write_atomic};

/// The journal format this build writes and reads.
pub const JOURNAL_VERSION: u32 = 1;

/// One item played, as a command journals it.
pub trait Entry: Clone + Serialize + DeserializeOwned {
    /// The setting an error about the journal's place names (`run_dir`, `--out`).
    const FIELD: &'static str;
    /// What an interrupted command's journal holds, for its error ("an interrupted run's
    /// elites").
    const HOLDS: &'static str;
    /// True if `other` is an entry for the same item (recording `self` replaces it).
    fn same_item(&self, other: &Self) -> bool;
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "E: Entry")]
struct JournalFile<E> {
    version: u32,
    /// What the games depend on beyond each item's spec (levels, repetitions, seed, …).
    settings: BTreeMap<String, String>,
    /// The items played, in the order they finished.
    done: Vec<E>,
}

/// An open journal (see the [module docs](self)). Shared by the threads playing the items.
#[derive(Debug)]
pub struct Journal<E> {
    path: PathBuf,
    file: Mutex<JournalFile<E>>,
}

impl<E: Entry> Journal<E> {
    /// Opens the journal at `path` for games played with `settings`. With `resume`, an
    /// existing journal's items are kept (a missing journal starts an empty one); without, an
    /// existing journal is an error unless `force`, which discards it.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming [`Entry::FIELD`] if a journal exists and neither `resume` nor
    /// `force` is set, or naming the first setting that differs from the journal's;
    /// [`Error::Io`] naming the file if it cannot be read, [`Error::Data`] if it is not a
    /// journal of this version.
    pub fn open(
        path: &Path,
        settings: &[(&str, String)],
        resume: bool,
        force: bool,
    ) -> Result<Journal<E>> {
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
                let old: JournalFile<E> = read(path)?;
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
                    E::FIELD,
                    format!(
                        "{} holds {}; pass --resume to continue it or --force to start over",
                        path.display(),
                        E::HOLDS
                    ),
                ));
            }
        }
        Ok(Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// The journal's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The first entry that passes `pick`, if any.
    pub fn find(&self, pick: impl Fn(&E) -> bool) -> Option<E> {
        let file = self.file.lock().expect("journal lock");
        file.done.iter().find(|e| pick(e)).cloned()
    }

    /// Adds `entry`, in place of any entry for the same item, and saves the journal
    /// atomically.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the journal cannot be written.
    pub fn record(&self, entry: E) -> Result<()> {
        let mut file = self.file.lock().expect("journal lock");
        file.done.retain(|e| !entry.same_item(e));
        file.done.push(entry);
        let bytes =
            serde_json::to_vec(&*file).map_err(|e| Error::config("journal", e.to_string()))?;
        write_atomic(&self.path, &bytes)
    }

    /// Entries that pass `keep`.
    pub fn count(&self, keep: impl Fn(&E) -> bool) -> usize {
        let file = self.file.lock().expect("journal lock");
        file.done.iter().filter(|e| keep(e)).count()
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

fn read<E: Entry>(path: &Path) -> Result<JournalFile<E>> {
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

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Played {
        item: usize,
        spec: String,
        wins: u32,
    }

    impl Entry for Played {
        const FIELD: &'static str = "run_dir";
        const HOLDS: &'static str = "an interrupted test";
        fn same_item(&self, other: &Self) -> bool {
            self.item == other.item
        }
    }

    fn played(item: usize, spec: &str, wins: u32) -> Played {
        Played {
            item,
            spec: spec.into(),
            wins,
        }
    }

    fn open(path: &Path, reps: &str, resume: bool, force: bool) -> Result<Journal<Played>> {
        Journal::open(path, &settings(reps), resume, force)
    }

    fn settings(reps: &str) -> Vec<(&'static str, String)> {
        vec![("levels", "a,b".into()), ("repetitions", reps.into())]
    }

    #[test]
    fn a_resumed_journal_keeps_its_elites_and_a_finished_one_is_gone() {
        let dir = tempfile_dir("journal-keep");
        let path = dir.join("j.json");
        let j = open(&path, "2", false, false).unwrap();
        j.record(played(3, "p(w=1)", 2)).unwrap();
        j.record(played(5, "p(w=1)", 1)).unwrap();
        j.record(played(3, "p(w=0)", 4)).unwrap();
        drop(j);
        let j = open(&path, "2", true, false).unwrap();
        assert_eq!(j.count(|_| true), 2);
        assert_eq!(j.find(|e| e.item == 3), Some(played(3, "p(w=0)", 4)));
        assert_eq!(j.find(|e| e.item == 4), None);
        assert_eq!(j.count(|e| e.wins > 1), 1);
        j.finish().unwrap();
        assert!(!path.exists());
    }

    #[test]
    fn other_settings_or_no_flag_are_refused_and_force_starts_over() {
        let dir = tempfile_dir("journal-refuse");
        let path = dir.join("j.json");
        open(&path, "2", false, false)
            .unwrap()
            .record(played(0, "p", 1))
            .unwrap();
        let e = open(&path, "3", true, false).unwrap_err();
        assert!(e.to_string().contains("repetitions = 2, not 3"), "{e}");
        let e = open(&path, "2", false, false).unwrap_err().to_string();
        assert!(
            e.contains("--resume") && e.contains("an interrupted test"),
            "{e}"
        );
        let j = open(&path, "3", false, true).unwrap();
        assert!(j.count(|_| true) == 0 && !path.exists());
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
            let e = open(&path, "2", true, false).unwrap_err().to_string();
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
