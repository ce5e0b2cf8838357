//! Result files and terminal output, knowing nothing of games.
//!
//! - [`atomic`]: writes a file through a temporary file and a rename, so a reader (or a killed
//!   run) never sees half a file;
//! - [`csv`]: CSV tables of strings, written atomically;
//! - [`table`]: aligned plain-text tables for the terminal;
//! - [`progress`]: a progress bar on standard error (games done / total, elapsed, ETA).

pub mod atomic;
pub mod csv;
pub mod progress;
pub mod table;

pub use atomic::write_atomic;
