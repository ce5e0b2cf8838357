//! Atomic file writes: a reader sees the old file or the new one, never half of one.
//!
//! A test hook stops a command between any two of its writes: with
//! [`EXIT_AFTER_WRITES`]`=N` in the environment, the process exits at once with code 137 (as
//! `kill -9` leaves it: no cleanup, no further output) right after its `N`-th atomic write.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// The environment variable of the test hook that exits after a number of writes (see the
/// [module docs](self)).
pub const EXIT_AFTER_WRITES: &str = "PLAYSTYLES_TEST_EXIT_AFTER_WRITES";

/// Writes `bytes` to `path` atomically: into a temporary file in the same directory, flushed
/// to disk (fsync), then renamed over `path` (and, on Unix, the directory is synced so the
/// rename itself survives a crash). On error the temporary file is removed and `path` is
/// untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temp_path(path)?;
    let result = write_synced(&tmp, bytes)
        .and_then(|()| fs::rename(&tmp, path).map_err(|e| Error::io(path, e)));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
        return result;
    }
    sync_dir(path);
    count_write();
    Ok(())
}

/// Counts a write (by [`write_atomic`] or another atomic writer) for the [`EXIT_AFTER_WRITES`]
/// test hook, exiting when the count is reached.
pub(crate) fn count_write() {
    static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let limit = LIMIT.get_or_init(|| {
        std::env::var(EXIT_AFTER_WRITES)
            .ok()
            .and_then(|v| v.parse().ok())
    });
    if let Some(limit) = *limit
        && WRITES.fetch_add(1, Ordering::SeqCst) + 1 >= limit
    {
        std::process::exit(137);
    }
}

/// `<dir>/.<name>.tmp<pid>`: hidden, beside the target, distinct per process.
fn temp_path(path: &Path) -> Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        Error::io(
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file path"),
        )
    })?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp{}", std::process::id()));
    Ok(path.with_file_name(tmp_name))
}

fn write_synced(tmp: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = File::create(tmp).map_err(|e| Error::io(tmp, e))?;
    f.write_all(bytes).map_err(|e| Error::io(tmp, e))?;
    f.sync_all().map_err(|e| Error::io(tmp, e))
}

/// Best effort: persists the directory entry after a rename (Unix only; a failure here does
/// not undo the write).
fn sync_dir(path: &Path) {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("playstyles-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temp_file() {
        let d = dir("replace");
        let p = d.join("a.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(fs::read_dir(&d).unwrap().count(), 1);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_the_file() {
        let d = dir("missing");
        let p = d.join("no/such/dir/a.txt");
        let e = write_atomic(&p, b"x").unwrap_err();
        assert!(e.to_string().contains("no/such/dir"), "{e}");
        fs::remove_dir_all(&d).unwrap();
    }
}
