//! Reading user-supplied files with a size limit, so that a wrong path (`/dev/zero`, a huge
//! file) fails with an error naming it instead of reading forever or exhausting memory.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// Most bytes read from a level or TOML config (16 MiB): far above any real one.
pub const TEXT_LIMIT: u64 = 16 << 20;

/// Most bytes read from a data file a run or tournament wrote and reads back (checkpoint,
/// `archive.csv`, `progress.csv`, `games.csv`, `validation.csv`): 1 GiB, millions of rows.
pub const DATA_LIMIT: u64 = 1 << 30;

/// The bytes of the file at `path`, at most `limit` of them.
///
/// # Errors
///
/// [`Error::Io`] naming `path` if it cannot be opened or read, or holds more than `limit`
/// bytes (the reading stops after `limit + 1`).
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(Error::io(
            path,
            std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!("larger than the limit of {}", size(limit)),
            ),
        ));
    }
    Ok(bytes)
}

/// The text of the file at `path`, at most `limit` bytes of UTF-8.
///
/// # Errors
///
/// As [`read_bytes`]; [`Error::Io`] naming `path` and the byte offset if the file is not UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|e| {
        Error::io(
            path,
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "not UTF-8 text (invalid byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
            ),
        )
    })
}

/// `limit` in MiB or GiB when it is a whole number of them, else in bytes.
fn size(limit: u64) -> String {
    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;
    if limit >= GIB && limit.is_multiple_of(GIB) {
        format!("{} GiB", limit / GIB)
    } else if limit >= MIB && limit.is_multiple_of(MIB) {
        format!("{} MiB", limit / MIB)
    } else {
        format!("{limit} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("playstyles-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn a_file_up_to_the_limit_is_read_and_a_longer_one_is_refused_naming_it() {
        let path = scratch_file("ten.txt", b"0123456789");
        assert_eq!(read_text(&path, 10).unwrap(), "0123456789");
        let err = read_text(&path, 9).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("ten.txt") && msg.contains("larger than the limit of 9 bytes"),
            "{msg}"
        );
        assert!(matches!(err, Error::Io { .. }));
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_file_stops_at_the_limit() {
        let path = Path::new("/dev/zero");
        let msg = read_bytes(path, TEXT_LIMIT).unwrap_err().to_string();
        assert_eq!(msg, "/dev/zero: larger than the limit of 16 MiB");
    }

    #[test]
    fn non_utf8_text_names_the_file_and_the_offset() {
        let path = scratch_file("latin1.txt", b"ab\xe9cd");
        let msg = read_text(&path, TEXT_LIMIT).unwrap_err().to_string();
        assert!(
            msg.contains("latin1.txt") && msg.contains("not UTF-8 text (invalid byte at offset 2)"),
            "{msg}"
        );
        assert_eq!(read_bytes(&path, TEXT_LIMIT).unwrap(), b"ab\xe9cd");
    }

    #[test]
    fn limits_are_printed_in_the_largest_whole_unit() {
        assert_eq!(size(TEXT_LIMIT), "16 MiB");
        assert_eq!(size(DATA_LIMIT), "1 GiB");
        assert_eq!(size(1000), "1000 bytes");
    }
}
