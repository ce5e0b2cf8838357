//! Timing helpers of the benchmarks (never of tests): a stopwatch ([`Timer`]), per-call means
//! over batches of calls ([`time_batches`]) and medians ([`median`]).
//!
//! Times come from [`std::time::Instant`]; results go through [`std::hint::black_box`] so the
//! compiler cannot drop the work being measured.

use std::hint::black_box;
use std::time::Instant;

/// The median of `xs` (sorted in place; the mean of the middle two for an even length).
/// `NaN` for an empty slice.
pub fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// A started stopwatch.
#[derive(Clone, Copy, Debug)]
pub struct Timer {
    start: Instant,
}

impl Timer {
    /// Starts timing now.
    pub fn start() -> Self {
        Timer {
            start: Instant::now(),
        }
    }

    /// Nanoseconds since [`Timer::start`].
    pub fn elapsed_ns(&self) -> f64 {
        self.start.elapsed().as_nanos() as f64
    }
}

/// Calls `f` `batches × per_batch` times and returns, for each batch, the mean nanoseconds per
/// call. Take the [`median`] of the result to shrug off outliers.
pub fn time_batches<R>(mut f: impl FnMut() -> R, batches: usize, per_batch: usize) -> Vec<f64> {
    let per_batch = per_batch.max(1);
    (0..batches)
        .map(|_| {
            let timer = Timer::start();
            for _ in 0..per_batch {
                black_box(f());
            }
            timer.elapsed_ns() / per_batch as f64
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_lengths() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn time_batches_returns_one_figure_per_batch() {
        let mut calls = 0;
        let times = time_batches(
            || {
                calls += 1;
                calls
            },
            3,
            4,
        );
        assert_eq!(times.len(), 3);
        assert_eq!(calls, 12);
        assert!(times.iter().all(|t| t.is_finite() && *t >= 0.0));
    }
}
