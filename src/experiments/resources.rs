//! What a command takes from its process: a pool of worker threads ([`thread_pool`]) and its
//! report output, whose write errors [`output_error`] names.

use crate::error::{Error, Result};

/// A worker pool of `threads` threads (`None`: one per core).
///
/// # Errors
///
/// [`Error::Config`] naming `field` (the command's threads flag) if the pool cannot be built.
pub(crate) fn thread_pool(threads: Option<usize>, field: &str) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::config(field, e.to_string()))
}

/// Wraps an error writing a command's report.
pub(crate) fn output_error(e: std::io::Error) -> Error {
    Error::io("<output>", e)
}
