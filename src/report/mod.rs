//! Result files and terminal output, knowing nothing of games. CSV files are the source of
//! truth; pictures are rebuilt from them.
//!
//! - [`csv`]: CSV tables of strings, written atomically ([`crate::files::write_atomic`]);
//! - [`archive`]: `archive.csv` and `progress.csv` of a MAP-Elites run, written and read back;
//! - [`chart`]: what every chart shares (the embedded font, atomic PNGs, SVG strings);
//! - [`heatmap`]: the archive drawn as `heatmap.png` and `heatmap.svg`;
//! - [`progress_chart`]: `progress.csv` drawn as `progress.png`;
//! - [`win_rate_chart`]: a tournament's `summary.csv` drawn as `summary.png` and `summary.svg`;
//! - [`ladder_chart`]: a ladder's ratings drawn as `ladder.png` and `ladder.svg`;
//! - [`roster_chart`]: a roster's confusion matrix and accuracies drawn as `roster.png` and
//!   `roster.svg`;
//! - [`explorer`]: the run explorer (`report.html`): the map, elite cards, replays;
//! - [`page`]: the shell of every HTML page (self-contained: inline CSS, SVG and script);
//! - [`replay`]: a game as pictures, one frame per turn, on a page or embedded;
//! - [`table`]: aligned plain-text tables for the terminal;
//! - [`printable`]: user text with its control characters written visibly, for the terminal,
//!   charts and pages;
//! - [`progress`]: a progress bar on standard error (done / total, elapsed, ETA).

pub mod archive;
pub mod chart;
pub mod csv;
pub mod explorer;
pub mod heatmap;
pub mod ladder_chart;
pub mod page;
pub mod palette;
pub mod printable;
pub mod progress;
pub mod progress_chart;
pub mod replay;
pub mod roster_chart;
pub mod table;
pub mod win_rate_chart;
