//! An advisory lock on what a command writes (a run directory, a tournament's output folder, a
//! dataset or model file), so that two commands never write the same output at once: a second
//! `evolve --force` cannot replace a run's `config.toml` under the running one, two commands
//! started together cannot both pass the "never overwritten" check, and two `dataset` commands
//! cannot join each other's chunks.
//!
//! The lock is the operating system's exclusive lock ([`File::try_lock`]) on a lock file: for a
//! folder, [`LOCK_FILE`] in it; for a file `DIR/NAME`, `DIR/.NAME.lock` beside it
//! ([`lock_file_of`]). The lock file holds the holder's command, process id and host for the
//! error a second command gets. The lock, not the file, is what counts: a killed holder's lock
//! goes with its process, so a stale file never blocks anyone. The holder removes the file when
//! it is done (while still holding the lock; whoever opened the old file meanwhile sees that it
//! was removed and tries again), so a folder holds no lock file once its command has ended, and
//! the folders it created for nothing (the command failed before writing) are removed as well.
//!
//! **Links and other people's files.** The lock never follows a link and never writes into a
//! file it did not create: it creates its lock file anew (`O_CREAT | O_EXCL`, which fails on
//! any existing name, a dangling link included). An existing entry is only ever opened without
//! following links (`O_NOFOLLOW`) and without blocking (`O_NONBLOCK`: a FIFO put there cannot
//! hang the command), read and locked, never written: a symbolic link, a FIFO or any other
//! non-regular file there is refused, naming it, and left as it is; a stale lock file of a
//! killed holder (a regular file whose lock is free) is removed, under its lock, and a fresh one
//! created in its place. So whoever can write into a shared results folder cannot make the next
//! command truncate or overwrite a file elsewhere.
//!
//! Processes that only add their own files under a locked folder (`work`, writing its result
//! files under `batches/`) take no lock: they run while the folder is locked, many at once.

use std::ffi::OsString;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The lock file in a locked folder.
pub const LOCK_FILE: &str = ".lock";

/// How often [`DirLock::acquire`] tries again when the lock file it opened was removed by the
/// holder that just finished, or it removed a stale one (each try is a fresh open).
const ATTEMPTS: usize = 16;

/// The exclusive lock on a folder or file, held until dropped.
#[derive(Debug)]
pub struct DirLock {
    /// The open, locked lock file.
    _file: File,
    /// Its path.
    path: PathBuf,
    /// The folders [`DirLock::acquire`] created, deepest first.
    created: Vec<PathBuf>,
}

/// The lock file of the output file `path` (`DIR/NAME`): `DIR/.NAME.lock`.
pub fn lock_file_of(path: &Path) -> PathBuf {
    let mut name = OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(".lock");
    path.with_file_name(name)
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
    /// process, as its lock file says); naming the lock file if a link or anything but a
    /// regular file is in its place; naming the folder or the lock file if either cannot be
    /// created or opened.
    pub fn acquire(dir: &Path, holder: &str, create: bool) -> Result<Option<DirLock>> {
        let created = if create {
            create_dirs(dir)?
        } else if dir.is_dir() {
            Vec::new()
        } else {
            return Ok(None);
        };
        Self::take(dir, &dir.join(LOCK_FILE), holder, created, create)
    }

    /// Takes the exclusive lock on the output file `path` for `holder`: its lock file
    /// [`lock_file_of`] beside it, in a folder created if needed (and removed again with the
    /// lock if still empty). `None` where the file system has no locks.
    ///
    /// # Errors
    ///
    /// As [`DirLock::acquire`], naming `path` when another process holds the lock.
    pub fn acquire_file(path: &Path, holder: &str) -> Result<Option<DirLock>> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let created = create_dirs(dir)?;
        Self::take(path, &lock_file_of(path), holder, created, true)
    }

    /// Takes the lock file `path` of `what` (the locked folder or file, for errors).
    fn take(
        what: &Path,
        path: &Path,
        holder: &str,
        created: Vec<PathBuf>,
        create: bool,
    ) -> Result<Option<DirLock>> {
        let dir = path.parent().unwrap_or(Path::new("."));
        for _ in 0..ATTEMPTS {
            let mut file = match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(f) => f,
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    // Someone's file: locked by a live holder, or a stale one to replace.
                    let Some(mut old) = open_existing(path)? else {
                        continue;
                    };
                    match old.try_lock() {
                        Ok(()) => {}
                        Err(TryLockError::WouldBlock) => return Err(busy(what, &mut old)),
                        Err(TryLockError::Error(e)) if e.kind() == ErrorKind::Unsupported => {
                            return Ok(None);
                        }
                        Err(TryLockError::Error(e)) => return Err(Error::io(path, e)),
                    }
                    if still_named(&old, path) {
                        std::fs::remove_file(path).map_err(|e| Error::io(path, e))?;
                    }
                    continue;
                }
                // The folder went away with a holder that had created it: make it again.
                Err(e) if e.kind() == ErrorKind::NotFound && create => {
                    create_dirs(dir)?;
                    continue;
                }
                Err(e) => return Err(Error::io(path, e)),
            };
            match file.try_lock() {
                Ok(()) => {}
                // Another command opened the fresh file and locked it first.
                Err(TryLockError::WouldBlock) => return Err(busy(what, &mut file)),
                Err(TryLockError::Error(e)) if e.kind() == ErrorKind::Unsupported => {
                    let _ = std::fs::remove_file(path);
                    return Ok(None);
                }
                Err(TryLockError::Error(e)) => return Err(Error::io(path, e)),
            }
            if !still_named(&file, path) {
                continue;
            }
            let line = format!("{holder} (pid {} on {})\n", std::process::id(), host());
            file.write_all(line.as_bytes())
                .map_err(|e| Error::io(path, e))?;
            return Ok(Some(DirLock {
                _file: file,
                path: path.to_path_buf(),
                created,
            }));
        }
        Err(Error::io(
            what,
            std::io::Error::new(
                ErrorKind::ResourceBusy,
                format!(
                    "its lock file {} keeps changing hands; try again",
                    path.display()
                ),
            ),
        ))
    }
}

/// The existing lock file `path`, opened for reading without following a link or blocking;
/// `None` if it went away meanwhile.
///
/// # Errors
///
/// [`Error::Io`] naming `path` if it is a link or not a regular file (left as it is).
fn open_existing(path: &Path) -> Result<Option<File>> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let foreign = |what: &str| {
        Error::io(
            path,
            std::io::Error::new(
                ErrorKind::InvalidInput,
                format!(
                    "{what} where the lock file should be: not touched and not followed; \
                     remove it, then run this again"
                ),
            ),
        )
    };
    let file = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        // O_NOFOLLOW on a symbolic link.
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(foreign("a symbolic link"));
        }
        Err(e) => return Err(Error::io(path, e)),
    };
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(foreign("something other than a regular file"));
    }
    Ok(Some(file))
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

    #[cfg(unix)]
    #[test]
    fn a_link_in_place_of_the_lock_file_is_refused_and_neither_followed_nor_touched() {
        let dir = scratch("link");
        let victim = dir.join("someone-elses.txt");
        std::fs::write(&victim, "keep me\n").unwrap();
        std::os::unix::fs::symlink(&victim, dir.join(LOCK_FILE)).unwrap();
        let e = DirLock::acquire(&dir, "playstyles plot", false).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains(&dir.join(LOCK_FILE).display().to_string())
                && msg.contains("a symbolic link"),
            "{msg}"
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
        assert!(
            dir.join(LOCK_FILE).is_symlink(),
            "the link is left as it is"
        );
        // A dangling link is refused the same way (creating through it would make its target).
        let dangling = scratch("dangling");
        let target = dangling.join("made-through-the-link");
        std::os::unix::fs::symlink(&target, dangling.join(LOCK_FILE)).unwrap();
        assert!(DirLock::acquire(&dangling, "x", false).is_err());
        assert!(!target.exists(), "nothing created through the link");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_lock_file_is_refused_without_blocking() {
        let dir = scratch("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(dir.join(LOCK_FILE))
            .status()
            .unwrap();
        assert!(status.success());
        let msg = DirLock::acquire(&dir, "x", false).unwrap_err().to_string();
        assert!(msg.contains("other than a regular file"), "{msg}");
    }

    #[cfg(unix)]
    #[test]
    fn a_stale_lock_file_is_replaced_not_written_into() {
        // A hard link to someone's file in place of a stale lock file: the lock removes the
        // name and makes its own file; the other file's content stays.
        let dir = scratch("hard-link");
        let victim = dir.join("someone-elses.txt");
        std::fs::write(&victim, "keep me\n").unwrap();
        std::fs::hard_link(&victim, dir.join(LOCK_FILE)).unwrap();
        let lock = DirLock::acquire(&dir, "playstyles tiers", false)
            .unwrap()
            .unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
        let text = std::fs::read_to_string(&lock.path).unwrap();
        assert!(text.starts_with("playstyles tiers (pid "), "{text}");
    }

    #[test]
    fn a_file_is_locked_by_a_hidden_file_beside_it() {
        let dir = scratch("file");
        let model = dir.join("models").join("m.safetensors");
        let lock = DirLock::acquire_file(&model, "playstyles train")
            .unwrap()
            .unwrap();
        assert_eq!(lock.path, dir.join("models").join(".m.safetensors.lock"));
        let msg = DirLock::acquire_file(&model, "playstyles train")
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains(&model.display().to_string())
                && msg.contains("in use by `playstyles train (pid"),
            "{msg}"
        );
        drop(lock);
        assert!(
            !dir.join("models").exists(),
            "the folder made for the lock goes with it when nothing was written"
        );
    }
}
