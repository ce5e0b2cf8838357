//! Helpers for tests that run the `playstyles` binary or write files: scratch folders under
//! Cargo's target directory, reading files with the path in the panic message, running the
//! binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh, empty folder `<topic>/<name>` under Cargo's scratch space (inside `target/`).
pub fn scratch(topic: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(topic)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The text of the file at `path`; panics naming the file if it cannot be read.
pub fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The bytes of the file at `path`; panics naming the file if it cannot be read.
pub fn read_bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs the binary with `args` in the current folder.
pub fn playstyles(args: &[&str]) -> Output {
    playstyles_in(args, Path::new("."))
}

/// Runs the binary with `args` in the folder `cwd`.
pub fn playstyles_in(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playstyles"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the binary runs")
}

/// Runs the binary with `args` in the current folder; kills it and panics if it runs longer than
/// `limit` (for inputs that once made it run forever). The outputs must fit the pipes' buffers.
pub fn playstyles_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_playstyles"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while child
        .try_wait()
        .expect("the binary can be waited for")
        .is_none()
    {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`playstyles {}` ran longer than {limit:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("the binary's output")
}

/// The standard output of a run that must have succeeded; panics naming `what` with the exit
/// code and both outputs otherwise.
pub fn succeeded(o: Output, what: &str) -> String {
    assert!(
        o.status.success(),
        "{what} failed ({:?}):\n{}\n{}",
        o.status.code(),
        stderr(&o),
        String::from_utf8_lossy(&o.stdout)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The standard error of a finished run, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `p` as a command-line argument.
pub fn path_arg(p: &Path) -> &str {
    p.to_str().unwrap()
}
