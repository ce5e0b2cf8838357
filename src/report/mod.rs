//! Run outputs: CSV files (the source of truth), heatmaps rebuilt from them, and the atomic
//! file writer every output goes through.
//!
//! - [`atomic`]: [`write_atomic`](atomic::write_atomic): temp file, fsync, rename;
//! - [`csv`]: `archive.csv` and `progress.csv`, written and read back;
//! - [`heatmap`]: the archive drawn as `heatmap.png` and `heatmap.svg`.

pub mod atomic;
pub mod csv;
pub mod heatmap;
