//! Small statistics helpers shared by tournaments and (later) the MAP-Elites replacement rules.
//! Pure numbers: no game types.

/// The normal quantile for a two-sided 95 % interval, as the tables of the literature use it.
pub const Z_95: f64 = 1.96;

/// The Wilson score interval for a binomial proportion: `wins` successes in `n` trials, at the
/// normal quantile `z` ([`Z_95`] for 95 %). Returns `(lo, hi)` within `[0, 1]`.
///
/// With `p = wins / n`:
///
/// ```text
/// centre = (p + z²/(2n)) / (1 + z²/n)
/// half   = z / (1 + z²/n) · sqrt(p(1 − p)/n + z²/(4n²))
/// (lo, hi) = (centre − half, centre + half)
/// ```
///
/// Unlike the normal ("Wald") interval it stays inside `[0, 1]` and does not collapse to a point
/// at 0 or `n` wins, which matters for the 20-game evaluations of MAP-Elites. A draw is a trial
/// that is not a win (the Java tournament's WIN % counts it so); callers wanting half points
/// pass their own count. `wins` above `n` is clamped to `n`; with `n = 0` nothing is known and
/// the interval is `(0, 1)`.
///
/// ```
/// use playstyles::stats::{Z_95, wilson_interval};
/// let (lo, hi) = wilson_interval(5, 10, Z_95);
/// assert!((lo - 0.2366).abs() < 1e-4 && (hi - 0.7634).abs() < 1e-4);
/// ```
pub fn wilson_interval(wins: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let nf = n as f64;
    let p = wins.min(n) as f64 / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The arithmetic mean of `xs`, `None` if it is empty.
pub fn mean(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = xs
        .into_iter()
        .fold((0.0, 0u64), |(sum, n), x| (sum + x, n + 1));
    (n > 0).then(|| sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_trials_know_nothing() {
        assert_eq!(wilson_interval(0, 0, Z_95), (0.0, 1.0));
    }

    #[test]
    fn the_interval_contains_the_proportion_and_narrows_with_n() {
        let (lo, hi) = wilson_interval(30, 100, Z_95);
        assert!(lo < 0.3 && 0.3 < hi);
        let (lo2, hi2) = wilson_interval(300, 1000, Z_95);
        assert!(hi2 - lo2 < hi - lo);
    }

    #[test]
    fn mean_of_nothing_is_none() {
        assert_eq!(mean([]), None);
        assert_eq!(mean([1.0, 2.0, 6.0]), Some(3.0));
    }
}
