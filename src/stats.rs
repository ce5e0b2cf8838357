//! Small statistics helpers shared by tournaments, validation and the MAP-Elites replacement rules.
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

/// Fractional ranks of `xs` (1-based): tied values share the mean of the ranks they span, so
/// `[10, 20, 20, 30]` ranks `[1, 2.5, 2.5, 4]`. Values are compared with `f64::total_cmp`.
pub fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut out = vec![0.0; xs.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && xs[order[end]] == xs[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1..=end; their mean is (start + 1 + end) / 2.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            out[i] = rank;
        }
        start = end;
    }
    out
}

/// Spearman's rank correlation of paired samples: the Pearson correlation of their
/// [`ranks`] (ties averaged). `None` for fewer than 3 pairs, samples of different lengths, or
/// a sample whose values are all equal (its ranks have no spread).
///
/// ```
/// use playstyles::stats::spearman;
/// assert_eq!(spearman(&[1.0, 2.0, 3.0], &[10.0, 40.0, 90.0]), Some(1.0));
/// assert_eq!(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
/// assert_eq!(spearman(&[1.0, 2.0], &[1.0, 2.0]), None);
/// ```
pub fn spearman(xs: &[f64], ys: &[f64]) -> Option<f64> {
    if xs.len() != ys.len() || xs.len() < 3 {
        return None;
    }
    let (rx, ry) = (ranks(xs), ranks(ys));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in rx.iter().zip(&ry) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Kendall's τ-b of paired samples: (concordant − discordant pairs) over the geometric mean of
/// the pairs untied in each sample. `None` for fewer than 2 pairs, samples of different
/// lengths, or a sample whose values are all equal.
///
/// ```
/// use playstyles::stats::kendall_tau;
/// assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[10.0, 40.0, 90.0]), Some(1.0));
/// assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
/// assert_eq!(kendall_tau(&[1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 4.0]), Some(4.0 / 6.0));
/// ```
pub fn kendall_tau(xs: &[f64], ys: &[f64]) -> Option<f64> {
    if xs.len() != ys.len() || xs.len() < 2 {
        return None;
    }
    let (mut s, mut untied_x, mut untied_y) = (0.0, 0.0, 0.0);
    for i in 0..xs.len() {
        for j in i + 1..xs.len() {
            let dx = (xs[i] - xs[j]).signum() * f64::from(u8::from(xs[i] != xs[j]));
            let dy = (ys[i] - ys[j]).signum() * f64::from(u8::from(ys[i] != ys[j]));
            s += dx * dy;
            untied_x += dx.abs();
            untied_y += dy.abs();
        }
    }
    (untied_x > 0.0 && untied_y > 0.0).then(|| s / (untied_x * untied_y).sqrt())
}

/// How much a set of measured means truly differs, beside the noise of measuring each
/// ([`true_spread`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The sample standard deviation of the means.
    pub sd: f64,
    /// The root mean squared standard error of the means: their noise.
    pub noise: f64,
    /// The true spread: the square root of the means' variance less their mean squared
    /// standard error (method of moments), 0 where the noise explains all of it.
    pub true_sd: f64,
    /// The share of the means' variance that is the true spread's (`true_sd² / sd²`, in
    /// [0, 1]), `None` when the means are all equal. It bounds how well two measurements of
    /// the same items can agree.
    pub reliability: Option<f64>,
}

/// The [`Spread`] of `(mean, standard error)` pairs (those with both finite), `None` for fewer
/// than two.
///
/// ```
/// use playstyles::stats::true_spread;
/// // Means 1 and 3 (variance 2), each measured to a standard error of 1: half is noise.
/// let s = true_spread([(1.0, 1.0), (3.0, 1.0)]).unwrap();
/// assert_eq!((s.true_sd, s.reliability), (1.0, Some(0.5)));
/// ```
pub fn true_spread(pairs: impl IntoIterator<Item = (f64, f64)>) -> Option<Spread> {
    let pairs: Vec<(f64, f64)> = pairs
        .into_iter()
        .filter(|(m, se)| m.is_finite() && se.is_finite())
        .collect();
    if pairs.len() < 2 {
        return None;
    }
    let n = pairs.len() as f64;
    let centre = mean(pairs.iter().map(|p| p.0))?;
    let var = pairs.iter().map(|p| (p.0 - centre).powi(2)).sum::<f64>() / (n - 1.0);
    let noise = mean(pairs.iter().map(|p| p.1 * p.1))?;
    let true_var = (var - noise).max(0.0);
    Some(Spread {
        sd: var.sqrt(),
        noise: noise.sqrt(),
        true_sd: true_var.sqrt(),
        reliability: (var > 0.0).then(|| true_var / var),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_the_noise_explains_is_no_spread() {
        // Equal means: no spread, reliability unknown.
        let s = true_spread([(2.0, 0.5), (2.0, 0.5), (2.0, 0.5)]).unwrap();
        assert_eq!((s.sd, s.true_sd, s.reliability), (0.0, 0.0, None));
        assert_eq!(s.noise, 0.5);
        // Means spread less than their errors: all noise, clamped at 0.
        let s = true_spread([(0.0, 3.0), (1.0, 3.0)]).unwrap();
        assert_eq!((s.true_sd, s.reliability), (0.0, Some(0.0)));
        // Exact means: all true.
        let s = true_spread([(0.0, 0.0), (2.0, 0.0), (4.0, 0.0)]).unwrap();
        assert_eq!((s.sd, s.true_sd, s.reliability), (2.0, 2.0, Some(1.0)));
        // Non-finite pairs are left out; fewer than two pairs tell nothing.
        assert_eq!(true_spread([(1.0, f64::INFINITY), (2.0, 0.1)]), None);
        assert_eq!(true_spread([]), None);
    }

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
    fn ties_share_their_mean_rank() {
        assert_eq!(ranks(&[10.0, 20.0, 20.0, 30.0]), [1.0, 2.5, 2.5, 4.0]);
        assert_eq!(ranks(&[3.0, 1.0, 2.0]), [3.0, 1.0, 2.0]);
        assert_eq!(ranks(&[5.0, 5.0, 5.0]), [2.0, 2.0, 2.0]);
    }

    #[test]
    fn spearman_matches_a_hand_computed_value_with_ties() {
        // Ranks x = [1, 2, 3, 4], y = [1, 2.5, 2.5, 4]: Pearson = 4.5 / sqrt(5 * 4.5).
        let r = spearman(&[1.0, 2.0, 3.0, 4.0], &[0.1, 0.5, 0.5, 0.9]).unwrap();
        assert!((r - 4.5 / (5.0f64 * 4.5).sqrt()).abs() < 1e-12, "{r}");
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[7.0, 7.0, 7.0]), None);
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[1.0, 2.0]), None);
    }

    #[test]
    fn mean_of_nothing_is_none() {
        assert_eq!(mean([]), None);
        assert_eq!(mean([1.0, 2.0, 6.0]), Some(3.0));
    }
}
