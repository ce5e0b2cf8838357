//! Run outputs and the atomic file writer every output goes through.
//!
//! - [`atomic`]: [`write_atomic`](atomic::write_atomic): temp file, fsync, rename.

pub mod atomic;
