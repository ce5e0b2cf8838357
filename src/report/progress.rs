//! A progress bar on standard error: games done / total, elapsed time and ETA.
//!
//! Built on `indicatif`, which redraws at a bounded rate and is safe to advance from rayon
//! workers. The bar is drawn only when asked for and standard error is a terminal, so logs,
//! pipes and tests stay clean.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar counting games; cheap to advance from any thread.
#[derive(Clone, Debug)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar for `total` games, drawn on standard error if `show` and standard error is a
    /// terminal; otherwise a hidden bar that still counts.
    pub fn new(total: u64, show: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        if show && std::io::stderr().is_terminal() {
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} games, ETA {eta_precise}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        Progress { bar }
    }

    /// A hidden bar (for library callers and tests).
    pub fn hidden() -> Self {
        Progress::new(0, false)
    }

    /// Counts one more finished game.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Games counted so far.
    pub fn done(&self) -> u64 {
        self.bar.position()
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_bar_still_counts() {
        let p = Progress::new(3, false);
        p.inc();
        p.inc();
        assert_eq!(p.done(), 2);
        p.finish();
    }
}
