//! Atomic file writes: temporary file in the same folder, flushed to disk, then renamed over the
//! target (a rename within one file system replaces the target in one step).

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The temporary file [`write_atomic`] writes before renaming it to `path`: `.NAME.tmp` beside
/// it (hidden, and never mistaken for a result file).
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.tmp"))
}

/// Writes `bytes` to `path` atomically: readers see either the old file or the whole new one.
///
/// # Errors
///
/// [`Error::Io`] naming the file if the temporary file cannot be written or renamed (the
/// temporary file is removed on failure).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temp_path(path);
    let written = File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(Error::io(&tmp, e));
    }
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_temporary_file_is_a_hidden_sibling() {
        assert_eq!(
            temp_path(Path::new("results/x/games.csv")),
            Path::new("results/x/.games.csv.tmp")
        );
    }

    #[test]
    fn a_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("playstyles-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert!(!temp_path(&path).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_an_io_error_naming_the_file() {
        let path = Path::new("/nonexistent-playstyles-dir/a.txt");
        let e = write_atomic(path, b"x").unwrap_err();
        assert!(e.to_string().contains("a.txt"), "{e}");
    }
}
