//! An advisory lock on a folder a command writes into (a run directory, a tournament's output
//! folder), so that two commands never write the same folder at once: a second `evolve
//! --force` cannot replace a run's `config.toml` under the running one, and two commands
//! started together cannot both pass the "never overwritten" check.
//!
//! The lock is the operating system's exclusive lock ([`File::try_lock`]) on the file
//! [`LOCK_FILE`] in the folder, which holds the holder's command, process id and host for the
//! error a second command gets. The lock, not the file, is what counts: a killed holder's lock
//! goes with its process, so a stale file never blocks anyone. The holder removes the file
//! when it is done (while still holding the lock; whoever opened the old file meanwhile sees
//! that it was removed and tries again), so a folder holds no lock file once its command has
//! ended, and the folders it created for nothing (the command failed before writing) are
//! removed as well.
//!
//! Processes that only add their own files under a locked folder (`work`, writing its result
//! files under `batches/`) take no lock: they run while the folder is locked, many at once.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The lock file in a locked folder.
pub const LOCK_FILE: &str = ".lock";

/// How often [`DirLock::acquire`] tries again when the lock file it opened was removed by the
/// holder that just finished (each try is a fresh open of the file).
const ATTEMPTS: usize = 16;

/// The exclusive lock on a folder, held until dropped.
#[derive(Debug)]
pub struct DirLock {
    /// The open, locked lock file.
    _file: File,
    /// Its path.
    path: PathBuf,
    /// The folders [`DirLock::acquire`] created, deepest first.
    created: Vec<PathBuf>,
}

impl DirLock {
    /// Takes the exclusive lock on the folder `dir` for `holder` (a command line, such as
    /// `playstyles evolve`, named in the error another command gets). With `create`, the
    /// folder is created if needed (and removed again with the lock if it is still empty);
    /// without, a missing folder is not locked (`None`: the command then finds nothing to
    /// work on and says so). `None` too where the file system has no locks.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] naming `dir` if another process holds the lock (the reason names that
    /// process, as its lock file says), or naming the folder or the lock file if either
    /// cannot be created or opened.
    pub fn acquire(dir: &Path, holder: &str, create: bool) -> Result<Option<DirLock>> {
        let created = if create {
            create_dirs(dir)?
        } else if dir.is_dir() {
            Vec::new()
        } else {
            return Ok(None);
        };
        let path = dir.join(LOCK_FILE);
        for _ in 0..ATTEMPTS {
            let mut file = match OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
            {
                Ok(f) => f,
                // The folder went away with a holder that had created it: make it again.
                Err(e) if e.kind() == ErrorKind::NotFound && create => {
                    create_dirs(dir)?;
                    continue;
                }
                Err(e) => return Err(Error::io(&path, e)),
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => return Err(busy(dir, &mut file)),
                Err(TryLockError::Error(e)) if e.kind() == ErrorKind::Unsupported => {
                    return Ok(None);
                }
                Err(TryLockError::Error(e)) => return Err(Error::io(&path, e)),
            }
            if !still_named(&file, &path) {
                continue;
            }
            let line = format!("{holder} (pid {} on {})\n", std::process::id(), host());
            file.set_len(0)
                .and_then(|()| file.write_all(line.as_bytes()))
                .map_err(|e| Error::io(&path, e))?;
            return Ok(Some(DirLock {
                _file: file,
                path,
                created,
            }));
        }
        Err(Error::io(
            dir,
            std::io::Error::new(
                ErrorKind::ResourceBusy,
                format!("its lock file {LOCK_FILE} keeps changing hands; try again"),
            ),
        ))
    }
}

impl Drop for DirLock {
    /// Removes the lock file (still locked, so nobody takes a lock on a removed file and
    /// keeps it), then the folders the lock created if they are empty; the lock itself goes
    /// when the file is closed.
    fn drop(&mut self) {
        if cfg!(unix) {
            let _ = std::fs::remove_file(&self.path);
        }
        for d in &self.created {
            if std::fs::remove_dir(d).is_err() {
                break;
            }
        }
    }
}

/// Creates `dir` and its missing parents; returns those created, deepest first.
fn create_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut d = dir;
    while !d.as_os_str().is_empty() && !d.exists() {
        missing.push(d.to_path_buf());
        match d.parent() {
            Some(p) => d = p,
            None => break,
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    Ok(missing)
}

/// True if `path` still names the open `file` (false once its holder removed it, or put
/// another in its place). Where files cannot be compared (not Unix), lock files are never
/// removed, so this is true.
fn still_named(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// The error for a folder whose lock another process holds, naming it as its lock file
/// (`file`) says.
fn busy(dir: &Path, file: &mut File) -> Error {
    let mut text = String::new();
    let _ = file.take(1024).read_to_string(&mut text);
    let text = text.trim();
    let holder = if text.is_empty() {
        "another process".to_string()
    } else {
        format!("`{text}`")
    };
    Error::io(
        dir,
        std::io::Error::new(
            ErrorKind::ResourceBusy,
            format!(
                "in use by {holder}, which holds its lock ({LOCK_FILE}); wait until it ends \
                 or stop it, then run this again"
            ),
        ),
    )
}

/// This machine's name, for the lock file (`unknown host` where it cannot be read).
fn host() -> String {
    ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_else(|| "unknown host".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh scratch folder for test `name`.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir()
            .join(format!("playstyles-run-lock-{}", std::process::id()))
            .join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_second_lock_is_refused_naming_the_folder_and_the_holder() {
        let dir = scratch("second");
        let first = DirLock::acquire(&dir, "playstyles evolve", false)
            .unwrap()
            .unwrap();
        let text = std::fs::read_to_string(&first.path).unwrap();
        assert!(text.starts_with("playstyles evolve (pid "), "{text}");
        let e = DirLock::acquire(&dir, "playstyles report", false).unwrap_err();
        let msg = e.to_string();
        assert!(
            matches!(&e, Error::Io { path, .. } if path == &dir),
            "{msg}"
        );
        assert!(msg.contains("in use by `playstyles evolve (pid"), "{msg}");
        drop(first);
        assert!(
            !dir.join(LOCK_FILE).exists(),
            "the lock file goes with the lock"
        );
        let again = DirLock::acquire(&dir, "playstyles report", false).unwrap();
        assert!(again.is_some(), "free again once dropped");
    }

    #[test]
    fn a_stale_lock_file_does_not_block() {
        let dir = scratch("stale");
        std::fs::write(dir.join(LOCK_FILE), "playstyles evolve (pid 1 on gone)\n").unwrap();
        let lock = DirLock::acquire(&dir, "playstyles tell", false)
            .unwrap()
            .unwrap();
        let text = std::fs::read_to_string(&lock.path).unwrap();
        assert!(text.starts_with("playstyles tell (pid "), "{text}");
    }

    #[test]
    fn missing_folders_are_created_and_removed_again_if_left_empty() {
        let dir = scratch("create");
        let run = dir.join("results").join("run");
        assert!(DirLock::acquire(&run, "x", false).unwrap().is_none());
        assert!(!run.exists(), "nothing created without `create`");
        let lock = DirLock::acquire(&run, "x", true).unwrap().unwrap();
        assert!(run.is_dir());
        drop(lock);
        assert!(!dir.join("results").exists(), "empty folders removed");
        let lock = DirLock::acquire(&run, "x", true).unwrap().unwrap();
        std::fs::write(run.join("config.toml"), "").unwrap();
        drop(lock);
        assert_eq!(
            std::fs::read_dir(&run).unwrap().count(),
            1,
            "a folder written into stays, without its lock file"
        );
    }

    #[test]
    fn threads_racing_for_a_folder_hold_it_one_at_a_time() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let dir = scratch("race");
        let inside = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..50 {
                        if let Ok(Some(lock)) = DirLock::acquire(&dir, "t", false) {
                            assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0);
                            std::thread::yield_now();
                            inside.fetch_sub(1, Ordering::SeqCst);
                            drop(lock);
                        }
                    }
                });
            }
        });
        assert!(!dir.join(LOCK_FILE).exists());
    }
}
