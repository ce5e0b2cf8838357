//! The one place user files are read and the program's files are written.
//!
//! Reading (configs, levels, task files, bot files, a run directory's CSV files and
//! checkpoints): regular files only, so that a FIFO, a device, a directory or a socket given
//! as a file fails at once with an error naming it instead of blocking in `open()` or reading
//! forever; and with a size limit, so that a huge file fails with an error naming it instead
//! of exhausting memory.
//!
//! Writing ([`write_atomic`]): into a temporary file, fsync, rename, so that a reader (or a
//! killed run) sees the old file or the new one, never half of one. A test hook stops a
//! command between any two of its writes: with [`EXIT_AFTER_WRITES`]`=N` in the environment,
//! the process exits at once with code 137 (as `kill -9` leaves it: no cleanup, no further
//! output) right after its `N`-th atomic write.

use std::fs::{self, File, Metadata};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// Most bytes read from a level or TOML config (16 MiB): far above any real one.
pub const TEXT_LIMIT: u64 = 16 << 20;

/// Most bytes read from a data file a run or tournament wrote and reads back (checkpoint,
/// `archive.csv`, `progress.csv`, `games.csv`, `validation.csv`): 1 GiB, millions of rows.
pub const DATA_LIMIT: u64 = 1 << 30;

/// Most bytes read from a dataset of positions for learned evaluation (8 GiB): ten million
/// Prismata positions take about 1.1 GiB.
pub const DATASET_LIMIT: u64 = 8 << 30;

/// The file at `path`, opened for reading if it is a regular file (or a link to one). The path
/// is checked before it is opened (a FIFO would block `open()` until a writer comes) and the
/// opened handle again (in case the path was replaced in between).
///
/// # Errors
///
/// [`Error::Io`] naming `path` if it cannot be opened, or is a directory, FIFO, socket or
/// device ("not a regular file (a FIFO)").
pub fn open(path: &Path) -> Result<File> {
    let before = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    regular(path, &before)?;
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let opened = file.metadata().map_err(|e| Error::io(path, e))?;
    regular(path, &opened)?;
    Ok(file)
}

/// Whether anything is at `path`: false only when nothing is, not even a dangling link. A
/// command asks this of a file it may find absent (a checkpoint, a journal, a table written
/// earlier) instead of [`Path::exists`] or [`Path::is_file`], which take a dangling link, a
/// directory or a FIFO for no file: whatever is there is then read, and refused by name by
/// [`open`], rather than ignored and written over.
///
/// # Errors
///
/// [`Error::Io`] naming `path` if it cannot be looked at (a folder on its way is unreadable,
/// or is a file).
pub fn present(path: &Path) -> Result<bool> {
    match fs::symlink_metadata(path) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// Ok if `meta` is a regular file's; else [`Error::Io`] naming `path` and what it is.
fn regular(path: &Path, meta: &Metadata) -> Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    Err(Error::io(
        path,
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind(meta)),
        ),
    ))
}

/// What a file that is not a regular file is, in words.
fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    "a special file"
}

/// The bytes of the file at `path` (a regular file, see [`open`]), at most `limit` of them.
///
/// # Errors
///
/// [`Error::Io`] naming `path` if it cannot be opened or read, is not a regular file, or holds
/// more than `limit` bytes (the reading stops after `limit + 1`).
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>> {
    read_limited(open(path)?, path, limit)
}

/// The first `n` bytes of the file at `path` (all of them if it is shorter): enough to tell
/// what kind of file it is. A regular file only, see [`open`].
///
/// # Errors
///
/// As [`open`]; [`Error::Io`] naming `path` if it cannot be read.
pub fn head(path: &Path, n: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path)?
        .take(n)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    Ok(bytes)
}

/// The bytes `reader` gives, at most `limit` of them; errors name `origin`.
fn read_limited(reader: impl Read, origin: &Path, limit: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(origin, e))?;
    if bytes.len() as u64 > limit {
        return Err(Error::io(
            origin,
            std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!("larger than the limit of {}", size(limit)),
            ),
        ));
    }
    Ok(bytes)
}

/// The text of standard input, at most `limit` bytes of UTF-8; errors name `<stdin>`.
///
/// # Errors
///
/// [`Error::Io`] naming `<stdin>` if it cannot be read or gives more than `limit` bytes;
/// [`Error::Data`] naming it and the byte offset if it is not UTF-8.
pub fn read_stdin_text(limit: u64) -> Result<String> {
    let origin = Path::new("<stdin>");
    utf8(
        origin,
        read_limited(std::io::stdin().lock(), origin, limit)?,
    )
}

/// The text of the file at `path`, at most `limit` bytes of UTF-8.
///
/// # Errors
///
/// As [`read_bytes`]; [`Error::Data`] naming `path` and the byte offset if the file is not
/// UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String> {
    utf8(path, read_bytes(path, limit)?)
}

/// `bytes` as text; [`Error::Data`] naming `origin` and the byte offset if they are not UTF-8.
fn utf8(origin: &Path, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        Error::data(
            origin,
            0,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The environment variable of the test hook that exits after a number of writes (see the
/// [module docs](self)).
pub const EXIT_AFTER_WRITES: &str = "PLAYSTYLES_TEST_EXIT_AFTER_WRITES";

/// Writes `bytes` to `path` atomically: into a new temporary file in the same directory,
/// flushed to disk (fsync), then renamed over `path` (and, on Unix, the directory is synced so
/// the rename itself survives a crash). No link is followed: the temporary file is created
/// anew, never through a link, and the rename replaces a link at `path` instead of writing through
/// it. On error the temporary file is removed and `path` is untouched.
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

/// Counts a write (by [`write_atomic`]) for the [`EXIT_AFTER_WRITES`]
/// test hook, exiting when the count is reached.
fn count_write() {
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

/// Writes `bytes` into the new file `tmp` and syncs it. The file is created anew, never
/// through a link: whatever is at `tmp` (a temporary file a killed process of the same id
/// left, or a link someone put there) is removed first, and the file is then created with
/// `O_CREAT | O_EXCL`, which fails rather than follow a link put there meanwhile.
fn write_synced(tmp: &Path, bytes: &[u8]) -> Result<()> {
    match fs::remove_file(tmp) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(tmp, e)),
        _ => {}
    }
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)
        .map_err(|e| Error::io(tmp, e))?;
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
    fn a_device_is_refused_before_it_is_read() {
        let path = Path::new("/dev/zero");
        let msg = read_bytes(path, TEXT_LIMIT).unwrap_err().to_string();
        assert_eq!(msg, "/dev/zero: not a regular file (a character device)");
    }

    #[test]
    fn a_directory_is_refused_naming_it() {
        let dir = scratch_file("in-dir.txt", b"x")
            .parent()
            .unwrap()
            .to_path_buf();
        let msg = read_text(&dir, TEXT_LIMIT).unwrap_err().to_string();
        assert!(
            msg.contains("playstyles-files-") && msg.ends_with("not a regular file (a directory)"),
            "{msg}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let path = scratch_file("fifo", b"").with_file_name("a.fifo");
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        // Opened, the FIFO would block this test until a writer came.
        let msg = read_text(&path, TEXT_LIMIT).unwrap_err().to_string();
        assert!(
            msg.ends_with("a.fifo: not a regular file (a FIFO)"),
            "{msg}"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_reader_beyond_the_limit_is_refused_naming_its_origin() {
        let msg = read_limited(std::io::repeat(0), Path::new("<stdin>"), TEXT_LIMIT)
            .unwrap_err()
            .to_string();
        assert_eq!(msg, "<stdin>: larger than the limit of 16 MiB");
        assert_eq!(
            read_limited(&b"abc"[..], Path::new("<stdin>"), 3).unwrap(),
            b"abc"
        );
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

    fn scratch_dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("playstyles-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temp_file() {
        let d = scratch_dir("replace");
        let p = d.join("a.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(fs::read_dir(&d).unwrap().count(), 1);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_the_file() {
        let d = scratch_dir("missing");
        let p = d.join("no/such/dir/a.txt");
        let e = write_atomic(&p, b"x").unwrap_err();
        assert!(e.to_string().contains("no/such/dir"), "{e}");
        fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_at_the_file_or_its_temporary_file_are_replaced_not_followed() {
        let d = scratch_dir("links");
        let victim = d.join("someone-elses.txt");
        fs::write(&victim, "keep me").unwrap();
        let p = d.join("a.csv");
        std::os::unix::fs::symlink(&victim, &p).unwrap();
        std::os::unix::fs::symlink(&victim, temp_path(&p).unwrap()).unwrap();
        write_atomic(&p, b"mine").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(
            !p.is_symlink(),
            "the link at the file is replaced by the file"
        );
        assert_eq!(fs::read(&p).unwrap(), b"mine");
        assert!(!temp_path(&p).unwrap().exists(), "no temporary file left");
        fs::remove_dir_all(&d).unwrap();
    }
}
