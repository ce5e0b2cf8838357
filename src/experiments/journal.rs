//! The journal of a command that plays many independent items (the elites of `validate` and
//! `reevaluate`, the genomes of `sensitivity`): every item's games are saved, atomically, as
//! soon as they are played, so that a killed command continued with `--resume` loses only the
//! items that were being played. The journal also records the settings the games and the
//! tables depend on (fingerprints, [`fingerprint`], for long ones such as the rules); resuming
//! with other settings is refused, naming the setting. What an item's entry holds is the
//! command's ([`Entry`]): a resumed journal's every entry must hold values as the command
//! writes them ([`Entry::check`]: a win rate of 7 is a damaged journal), and the command
//! checks each entry against what the item must hold before taking it.
//!
//! **Finished.** Once the command's tables are written, [`Journal::finish`] writes its
//! *completion record* (`<name>.done.json`: the journal's version and settings, no entries,
//! `"finished": true`) — the last of its outputs — and deletes the journal. `--resume` of a
//! finished command is then "nothing to do" if the record holds the settings asked for, and an
//! error naming the setting otherwise ([`finished`]); outputs of versions before completion
//! records are finished with settings that cannot be checked ([`Finished::Unchecked`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::experiments::tasks::config_hash;
use crate::files::{DATA_LIMIT, present, read_bytes, write_atomic};

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
    /// Checks the entry's values as the command writes them (win rates in [0, 1], finite
    /// numbers, counts that agree): what is wrong, in words. [`Journal::open`] checks every
    /// entry of a journal it resumes; an entry whose every value its type bounds has nothing
    /// to check.
    fn check(&self) -> std::result::Result<(), String> {
        Ok(())
    }
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

/// A completion record ([`Journal::finish`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct DoneFile {
    version: u32,
    /// The settings of the journal the command finished.
    settings: BTreeMap<String, String>,
    /// Always true: the record's only meaning.
    finished: bool,
}

/// A setting's value for a journal when the value is long (a rules table, a config file, the
/// list of elites): `fingerprint <16 hex digits>` of `text` ([`config_hash`]).
pub fn fingerprint(text: &str) -> String {
    format!("fingerprint {}", config_hash(text))
}

/// The first of `settings`, in their order, whose value `recorded` does not hold: its key, the
/// recorded value (`(none)` if absent) and the value asked for.
fn differing<'a>(
    recorded: &'a BTreeMap<String, String>,
    settings: &'a [(&'a str, String)],
) -> Option<(&'a str, &'a str, &'a str)> {
    settings.iter().find_map(|(key, value)| {
        let was = recorded.get(*key).map_or("(none)", String::as_str);
        (was != value).then_some((*key, was, value.as_str()))
    })
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
    /// `force` is set, or naming the first setting (in the order of `settings`) that differs
    /// from the journal's;
    /// [`Error::Io`] naming the file if it cannot be read, [`Error::Data`] if it is not a
    /// journal of this version or an entry's values are not as written ([`Entry::check`]).
    pub fn open(
        path: &Path,
        settings: &[(&str, String)],
        resume: bool,
        force: bool,
    ) -> Result<Journal<E>> {
        let mut file = JournalFile {
            version: JOURNAL_VERSION,
            settings: settings
                .iter()
                .map(|(k, v)| ((*k).to_string(), v.clone()))
                .collect(),
            done: Vec::new(),
        };
        if present(path)? {
            if resume {
                let old: JournalFile<E> = read(path)?;
                for (i, e) in old.done.iter().enumerate() {
                    e.check().map_err(|why| {
                        Error::data(
                            path,
                            0,
                            format!(
                                "damaged journal: entry {}: {why}; pass --force instead of \
                                 --resume to start over",
                                i + 1
                            ),
                        )
                    })?;
                }
                if let Some((key, was, value)) = differing(&old.settings, settings) {
                    return Err(Error::config(
                        key,
                        format!(
                            "{} was started with {key} = {was}, not {value}; run it with the \
                             same settings, or pass --force instead of --resume to start over",
                            path.display()
                        ),
                    ));
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
        self.record_all(vec![entry])
    }

    /// Adds `entries` as [`Journal::record`] adds one, saving the journal once: a kill leaves
    /// all of them recorded or none.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the journal cannot be written.
    pub fn record_all(&self, entries: Vec<E>) -> Result<()> {
        let mut file = self.file.lock().expect("journal lock");
        for entry in entries {
            file.done.retain(|e| !entry.same_item(e));
            file.done.push(entry);
        }
        let bytes =
            serde_json::to_vec(&*file).map_err(|e| Error::config("journal", e.to_string()))?;
        write_atomic(&self.path, &bytes)
    }

    /// Entries that pass `keep`.
    pub fn count(&self, keep: impl Fn(&E) -> bool) -> usize {
        let file = self.file.lock().expect("journal lock");
        file.done.iter().filter(|e| keep(e)).count()
    }

    /// Ends the command once its tables are written: writes its completion record `done`
    /// atomically (the journal's settings, see the [module docs](self)), then deletes the
    /// journal.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the record cannot be written, or the journal exists and cannot be
    /// removed.
    pub fn finish(self, done: &Path) -> Result<()> {
        let file = self.file.into_inner().expect("journal lock");
        let record = DoneFile {
            version: JOURNAL_VERSION,
            settings: file.settings,
            finished: true,
        };
        let bytes =
            serde_json::to_vec(&record).map_err(|e| Error::config("journal", e.to_string()))?;
        write_atomic(done, &bytes)?;
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&self.path, e)),
            _ => Ok(()),
        }
    }
}

/// A command `--resume` finds finished ([`finished`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finished {
    /// Its completion record holds the settings asked for.
    Checked,
    /// Its outputs have no completion record (a version before them wrote them): their
    /// settings cannot be checked.
    Unchecked,
}

impl Finished {
    /// What the command prints instead of running again: `what` ("validate: run already holds
    /// this validation"), then that there is nothing to do, and how to start over.
    pub fn note(self, what: &str) -> String {
        let unchecked = match self {
            Finished::Checked => "",
            Finished::Unchecked => {
                "\n  its settings cannot be checked: it has no completion record (an older \
                 version wrote it)"
            }
        };
        format!(
            "{what}, finished; nothing to do.{unchecked}\n  run it again from the start with --force\n"
        )
    }
}

/// Whether a command `--resume` continues has finished with `settings`: not if its `journal`
/// exists (it was interrupted, perhaps after writing its outputs) or one of its `outputs` is
/// missing; if so, [`Finished::Checked`] when its completion record `done` holds `settings`,
/// [`Finished::Unchecked`] when there is no record.
///
/// # Errors
///
/// [`Error::Config`] naming the first setting (in the order of `settings`) the record holds
/// another value of; [`Error::Io`] or [`Error::Data`] naming `done` if it cannot be read or is
/// not a completion record of this version.
pub fn finished(
    journal: &Path,
    done: &Path,
    outputs: &[PathBuf],
    settings: &[(&str, String)],
) -> Result<Option<Finished>> {
    if present(journal)? {
        return Ok(None);
    }
    for p in outputs {
        if !present(p)? {
            return Ok(None);
        }
    }
    if !present(done)? {
        return Ok(Some(Finished::Unchecked));
    }
    let record: DoneFile = read(done)?;
    if !record.finished {
        return Err(Error::data(
            done,
            0,
            "not a completion record (`finished` is false)",
        ));
    }
    if let Some((key, was, value)) = differing(&record.settings, settings) {
        return Err(Error::config(
            key,
            format!(
                "{} records a finished command with {key} = {was}, not {value}; pass --force \
                 instead of --resume to replace its outputs",
                done.display()
            ),
        ));
    }
    Ok(Some(Finished::Checked))
}

/// A journal or completion record of this version read from `path`.
fn read<T: DeserializeOwned>(path: &Path) -> Result<T> {
    /// The version alone, read first so that another version is named as such.
    #[derive(Deserialize)]
    struct Version {
        version: Option<serde_json::Value>,
    }
    let bytes = read_bytes(path, DATA_LIMIT)?;
    let bad = |e: serde_json::Error| {
        Error::data(
            path,
            e.line(),
            format!("not a journal (bad JSON at column {}: {e})", e.column()),
        )
    };
    // Parsed straight into typed fields (not through a generic JSON value), so that a key
    // given twice is refused instead of the last one taken.
    let head: Version = serde_json::from_slice(&bytes).map_err(bad)?;
    match head.version.as_ref().and_then(serde_json::Value::as_u64) {
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
    serde_json::from_slice(&bytes).map_err(|e| {
        Error::data(
            path,
            e.line(),
            format!("corrupt journal at column {}: {e}", e.column()),
        )
    })
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
        fn check(&self) -> std::result::Result<(), String> {
            if self.wins > 10 {
                return Err(format!("`wins` is {}, more than the 10 games", self.wins));
            }
            Ok(())
        }
    }

    #[test]
    fn a_resumed_journal_with_an_entry_not_as_written_is_damaged_naming_it() {
        let dir = tempfile_dir("journal-damaged");
        let path = dir.join("j.json");
        let j = open(&path, "2", false, false).unwrap();
        j.record(played(3, "p", 2)).unwrap();
        j.record(played(5, "p", 11)).unwrap();
        drop(j);
        let e = open(&path, "2", true, false).unwrap_err();
        assert!(matches!(e, Error::Data { .. }), "{e:?}");
        let e = e.to_string();
        assert!(
            e.contains("j.json")
                && e.contains("damaged journal: entry 2: `wins` is 11")
                && e.contains("--force"),
            "{e}"
        );
        // Started afresh, the damaged journal is discarded.
        assert_eq!(open(&path, "2", false, true).unwrap().count(|_| true), 0);
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
        let done = dir.join("j.done.json");
        j.finish(&done).unwrap();
        assert!(!path.exists());
        let record: serde_json::Value =
            serde_json::from_slice(&read_bytes(&done, 1000).unwrap()).unwrap();
        assert_eq!(record["settings"]["repetitions"], "2");
        assert_eq!(record["finished"], true);
        assert!(record.get("done").is_none(), "{record}");
    }

    #[test]
    fn a_finished_command_is_found_with_its_settings_checked() {
        let dir = tempfile_dir("journal-finished");
        let (path, done) = (dir.join("j.json"), dir.join("j.done.json"));
        let outputs = [dir.join("a.csv"), dir.join("b.csv")];
        let found = |reps: &str| finished(&path, &done, &outputs, &settings(reps));
        // Nothing written yet, or part of the outputs: not finished.
        assert_eq!(found("2").unwrap(), None);
        std::fs::write(&outputs[0], "a").unwrap();
        assert_eq!(found("2").unwrap(), None);
        // All outputs and no record (an older version): finished, unchecked.
        std::fs::write(&outputs[1], "b").unwrap();
        assert_eq!(found("2").unwrap(), Some(Finished::Unchecked));
        // With its record: checked; other settings are refused naming the setting.
        let j = open(&path, "2", false, false).unwrap();
        j.record(played(0, "p", 1)).unwrap();
        assert_eq!(
            found("2").unwrap(),
            None,
            "a journal is an interrupted command"
        );
        j.finish(&done).unwrap();
        assert_eq!(found("2").unwrap(), Some(Finished::Checked));
        let e = found("3").unwrap_err();
        assert!(
            matches!(&e, Error::Config { field, .. } if field == "repetitions"),
            "{e}"
        );
        assert!(e.to_string().contains("2, not 3") && e.to_string().contains("--force"));
        std::fs::write(&done, "{\"version\": 1").unwrap();
        let e = found("2").unwrap_err().to_string();
        assert!(e.contains("j.done.json"), "{e}");
    }

    #[test]
    fn settings_are_compared_in_the_order_given() {
        let dir = tempfile_dir("journal-order");
        let path = dir.join("j.json");
        let first = [("z", "1".to_string()), ("a", "1".to_string())];
        let j: Journal<Played> = Journal::open(&path, &first, false, false).unwrap();
        j.record(played(0, "p", 1)).unwrap();
        let both = [("z", "2".to_string()), ("a", "2".to_string())];
        let e = Journal::<Played>::open(&path, &both, true, false).unwrap_err();
        assert!(
            matches!(&e, Error::Config { field, .. } if field == "z"),
            "{e}"
        );
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
