//! A progress bar on standard error: items (games, evaluations) done / total, elapsed time,
//! an optional message and the ETA.
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
        Progress::with_unit(total, "games", show)
    }

    /// A bar for `total` items called `unit` (e.g. `evaluations`), followed by the message of
    /// [`Progress::set_message`]; drawn as for [`Progress::new`].
    pub fn with_unit(total: u64, unit: &str, show: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        if show && std::io::stderr().is_terminal() {
            let template = format!(
                "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit}{{msg}}, ETA {{eta_precise}}"
            );
            let style = ProgressStyle::with_template(&template)
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

    /// Counts one more finished game (or item).
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Counts `n` more finished games (or items).
    pub fn add(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Sets the count (e.g. the evaluations a resumed run had done), restarting the ETA.
    pub fn set_position(&self, done: u64) {
        self.bar.set_position(done);
        self.bar.reset_eta();
    }

    /// Shows `message` after the count (e.g. `12 elites, best 75.0 %`).
    pub fn set_message(&self, message: String) {
        if message.is_empty() {
            self.bar.set_message("");
        } else {
            self.bar.set_message(format!(", {message}"));
        }
    }

    /// Items counted so far.
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
