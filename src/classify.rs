//! Naming which of K classes a sample comes from: linear discriminant analysis (LDA) with a
//! shrunk pooled covariance, and the standardisation it is fitted after. Pure numbers: no game
//! types (the roster, [`crate::experiments::roster`], feeds it per-game statistics).
//!
//! **Standardisation** ([`Standardiser`]): each column is centred and scaled by its mean and
//! population standard deviation over the training samples; columns constant there are
//! dropped (they carry nothing, and a zero spread cannot be scaled).
//!
//! **LDA** ([`Lda::fit`]): every class is a Gaussian with its own mean `m_k` and one covariance
//! `Σ` shared by all classes, the classes equally likely a priori. `Σ` is the pooled
//! within-class covariance (each training sample's deviation from its class mean, divided by
//! the number of samples) shrunk toward a multiple of the identity:
//! `Σ = (1 − α) S + α μ I`, `μ = trace(S) / p`, with the Ledoit–Wolf shrinkage `α`
//! ([`ledoit_wolf`]; O. Ledoit and M. Wolf, "A well-conditioned estimator for large-dimensional
//! covariance matrices", J. Multivariate Analysis 88, 2004; scikit-learn's
//! `LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")` does the same per class). The
//! shrinkage keeps `Σ` invertible when there are more columns than samples, and is chosen from
//! the data, so nothing is tuned. A sample `x` gets the score
//! `δ_k(x) = xᵀ Σ⁻¹ m_k − ½ m_kᵀ Σ⁻¹ m_k` per class and the log-posterior
//! `δ_k(x) − log Σ_j exp δ_j(x)` ([`Lda::log_posteriors`]); several samples known to come from
//! one class are named by the class whose summed log-posteriors are largest ([`Lda::name`]).
//! Ties go to the lower class index. The linear algebra (a Cholesky factorisation of `Σ`) is
//! `nalgebra`'s; sums run in a fixed order, so a fit is the same on every run.

use nalgebra::{DMatrix, DVector};

use crate::error::{Error, Result};

/// Centres and scales the columns of samples by their training means and standard deviations,
/// dropping the columns constant in training (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct Standardiser {
    /// The columns kept, in order.
    pub kept: Vec<usize>,
    /// Their means.
    pub means: Vec<f64>,
    /// Their population standard deviations (positive).
    pub sds: Vec<f64>,
}

impl Standardiser {
    /// Fits to the rows `x` (each of the same length): a column is kept if its standard
    /// deviation over the rows is above `1e-12` times the largest magnitude in it.
    pub fn fit(x: &[Vec<f64>]) -> Standardiser {
        let columns = x.first().map_or(0, Vec::len);
        let n = x.len().max(1) as f64;
        let mut s = Standardiser {
            kept: Vec::new(),
            means: Vec::new(),
            sds: Vec::new(),
        };
        for j in 0..columns {
            let mean = x.iter().map(|r| r[j]).sum::<f64>() / n;
            let var = x.iter().map(|r| (r[j] - mean).powi(2)).sum::<f64>() / n;
            let scale = x.iter().map(|r| r[j].abs()).fold(0.0, f64::max);
            let sd = var.sqrt();
            if sd > 1e-12 * scale && sd.is_finite() {
                s.kept.push(j);
                s.means.push(mean);
                s.sds.push(sd);
            }
        }
        s
    }

    /// The kept columns of `row`, standardised.
    pub fn apply(&self, row: &[f64]) -> Vec<f64> {
        self.kept
            .iter()
            .zip(self.means.iter().zip(&self.sds))
            .map(|(&j, (m, sd))| (row[j] - m) / sd)
            .collect()
    }
}

/// The Ledoit–Wolf shrinkage intensity, in [0, 1], of the covariance `XᵀX / n` of the rows
/// `x` (already centred), toward `μ I` with `μ` its mean variance — as scikit-learn's
/// `ledoit_wolf_shrinkage` computes it:
///
/// ```text
/// S = XᵀX / n,  μ = trace(S) / p
/// δ = ‖S − μI‖²_F / p
/// β = min(δ, (Σ_ij Σ_t x_ti² x_tj² / n − ‖S‖²_F) / (n p))
/// α = β / δ   (0 when β = 0)
/// ```
pub fn ledoit_wolf(x: &[Vec<f64>]) -> f64 {
    let n = x.len();
    let p = x.first().map_or(0, Vec::len);
    if n == 0 || p == 0 {
        return 0.0;
    }
    let nf = n as f64;
    let pf = p as f64;
    let m = DMatrix::from_fn(n, p, |t, j| x[t][j]);
    let s = m.transpose() * &m / nf;
    let sq = m.map(|v| v * v);
    let beta_sum: f64 = (sq.transpose() * &sq).sum();
    let s_norm2: f64 = s.iter().map(|v| v * v).sum();
    let mu = s.trace() / pf;
    // ‖S − μI‖²_F = ‖S‖²_F − 2μ trace(S) + p μ².
    let delta = (s_norm2 - 2.0 * mu * s.trace() + pf * mu * mu) / pf;
    let beta = ((beta_sum / nf - s_norm2) / (nf * pf)).min(delta);
    if beta <= 0.0 || delta <= 0.0 {
        0.0
    } else {
        (beta / delta).clamp(0.0, 1.0)
    }
}

/// A fitted linear discriminant (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Lda {
    /// `Σ⁻¹ m_k`, one column per class.
    weights: DMatrix<f64>,
    /// `−½ m_kᵀ Σ⁻¹ m_k` per class.
    offsets: DVector<f64>,
    /// The shrinkage intensity used.
    pub shrinkage: f64,
}

impl Lda {
    /// Fits to the rows `x` (standardised, each of the same length) labelled `labels` (each
    /// below `classes`).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `classifier` if there are no rows or columns, `labels` does
    /// not match the rows, a class has no row, or the covariance cannot be factorised (no
    /// spread at all).
    pub fn fit(x: &[Vec<f64>], labels: &[usize], classes: usize) -> Result<Lda> {
        let bad = |why: &str| Error::config("classifier", why.to_string());
        let p = x.first().map_or(0, Vec::len);
        if x.is_empty() || p == 0 {
            return Err(bad("no training sample or no statistic that varies"));
        }
        if labels.len() != x.len() || labels.iter().any(|&k| k >= classes) {
            return Err(bad("the labels do not match the samples"));
        }
        let mut means = DMatrix::<f64>::zeros(p, classes);
        let mut counts = vec![0usize; classes];
        for (row, &k) in x.iter().zip(labels) {
            counts[k] += 1;
            for (j, v) in row.iter().enumerate() {
                means[(j, k)] += v;
            }
        }
        if counts.contains(&0) {
            return Err(bad("a class has no training sample"));
        }
        for (k, &c) in counts.iter().enumerate() {
            for j in 0..p {
                means[(j, k)] /= c as f64;
            }
        }
        let centred: Vec<Vec<f64>> = x
            .iter()
            .zip(labels)
            .map(|(row, &k)| {
                row.iter()
                    .enumerate()
                    .map(|(j, v)| v - means[(j, k)])
                    .collect()
            })
            .collect();
        let shrinkage = ledoit_wolf(&centred);
        let n = x.len() as f64;
        let d = DMatrix::from_fn(x.len(), p, |t, j| centred[t][j]);
        let s = d.transpose() * &d / n;
        let mu = s.trace() / p as f64;
        let mut sigma = s * (1.0 - shrinkage);
        for j in 0..p {
            sigma[(j, j)] += shrinkage * mu;
        }
        let chol = sigma
            .cholesky()
            .ok_or_else(|| bad("the pooled covariance is not positive definite"))?;
        let weights = chol.solve(&means);
        let offsets = DVector::from_fn(classes, |k, _| {
            -0.5 * means.column(k).dot(&weights.column(k))
        });
        Ok(Lda {
            weights,
            offsets,
            shrinkage,
        })
    }

    /// The number of classes.
    pub fn classes(&self) -> usize {
        self.offsets.len()
    }

    /// The log-posterior of each class for the sample `x` (standardised as in training).
    pub fn log_posteriors(&self, x: &[f64]) -> Vec<f64> {
        let x = DVector::from_column_slice(x);
        let scores: Vec<f64> = (0..self.classes())
            .map(|k| self.weights.column(k).dot(&x) + self.offsets[k])
            .collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let log_sum = top + scores.iter().map(|s| (s - top).exp()).sum::<f64>().ln();
        scores.iter().map(|s| s - log_sum).collect()
    }

    /// The class the samples `xs` (all of one class) most likely come from: the largest sum of
    /// their log-posteriors, ties to the lower class.
    pub fn name(&self, xs: &[&[f64]]) -> usize {
        let mut total = vec![0.0; self.classes()];
        for x in xs {
            for (t, l) in total.iter_mut().zip(self.log_posteriors(x)) {
                *t += l;
            }
        }
        arg_max(&total)
    }
}

/// The index of the largest value, ties to the lower index (0 for none).
fn arg_max(xs: &[f64]) -> usize {
    let mut best = 0;
    for (i, x) in xs.iter().enumerate() {
        if *x > xs[best] {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::derive_rng;
    use rand::RngExt;

    /// `n` samples per class of `classes` classes in `p` dimensions, class `k`'s mean `k ×
    /// gap` on every axis, unit Gaussian noise (Box–Muller).
    fn samples(
        classes: usize,
        n: usize,
        p: usize,
        gap: f64,
        seed: u64,
    ) -> (Vec<Vec<f64>>, Vec<usize>) {
        let mut rng = derive_rng(seed, &[]);
        let mut normal = move || {
            let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-12), rng.random());
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        let mut x = Vec::new();
        let mut y = Vec::new();
        for k in 0..classes {
            for _ in 0..n {
                x.push((0..p).map(|_| k as f64 * gap + normal()).collect());
                y.push(k);
            }
        }
        (x, y)
    }

    fn accuracy(lda: &Lda, s: &Standardiser, x: &[Vec<f64>], y: &[usize]) -> f64 {
        let right = x
            .iter()
            .zip(y)
            .filter(|(r, k)| lda.name(&[&s.apply(r)]) == **k)
            .count();
        right as f64 / x.len() as f64
    }

    #[test]
    fn separable_classes_are_named_every_time() {
        let (x, y) = samples(4, 30, 6, 10.0, 1);
        let s = Standardiser::fit(&x);
        let z: Vec<Vec<f64>> = x.iter().map(|r| s.apply(r)).collect();
        let lda = Lda::fit(&z, &y, 4).unwrap();
        let (tx, ty) = samples(4, 50, 6, 10.0, 2);
        assert_eq!(accuracy(&lda, &s, &tx, &ty), 1.0);
    }

    #[test]
    fn identical_classes_are_named_near_chance() {
        let (x, y) = samples(4, 50, 5, 0.0, 3);
        let s = Standardiser::fit(&x);
        let z: Vec<Vec<f64>> = x.iter().map(|r| s.apply(r)).collect();
        let lda = Lda::fit(&z, &y, 4).unwrap();
        let (tx, ty) = samples(4, 250, 5, 0.0, 4);
        let acc = accuracy(&lda, &s, &tx, &ty);
        // Chance is 0.25; 1000 test samples put 95 % of chance outcomes within ±0.027.
        assert!((0.18..0.32).contains(&acc), "{acc}");
    }

    #[test]
    fn more_columns_than_samples_still_fit_and_shrink() {
        // 3 classes × 4 samples in 40 dimensions: the plain covariance is singular.
        let (x, y) = samples(3, 4, 40, 3.0, 5);
        let s = Standardiser::fit(&x);
        let z: Vec<Vec<f64>> = x.iter().map(|r| s.apply(r)).collect();
        let lda = Lda::fit(&z, &y, 3).unwrap();
        assert!(
            lda.shrinkage > 0.0 && lda.shrinkage <= 1.0,
            "{}",
            lda.shrinkage
        );
        let (tx, ty) = samples(3, 30, 40, 3.0, 6);
        assert!(accuracy(&lda, &s, &tx, &ty) > 0.9);
    }

    #[test]
    fn summed_log_posteriors_name_a_group_and_posteriors_normalise() {
        let (x, y) = samples(3, 20, 2, 1.0, 7);
        let s = Standardiser::fit(&x);
        let z: Vec<Vec<f64>> = x.iter().map(|r| s.apply(r)).collect();
        let lda = Lda::fit(&z, &y, 3).unwrap();
        let post = lda.log_posteriors(&z[0]);
        let total: f64 = post.iter().map(|l| l.exp()).sum();
        assert!((total - 1.0).abs() < 1e-12);
        // Three samples of class 2 pulled together are named as their summed evidence says.
        let group: Vec<&[f64]> = z[40..43].iter().map(Vec::as_slice).collect();
        let mut sum = vec![0.0; 3];
        for g in &group {
            for (t, l) in sum.iter_mut().zip(lda.log_posteriors(g)) {
                *t += l;
            }
        }
        assert_eq!(lda.name(&group), arg_max(&sum));
    }

    #[test]
    fn constant_columns_are_dropped_and_bad_fits_are_errors() {
        let x = vec![vec![1.0, 5.0], vec![2.0, 5.0], vec![3.0, 5.0]];
        let s = Standardiser::fit(&x);
        assert_eq!(s.kept, [0]);
        assert_eq!(s.apply(&[2.0, 9.0]), [0.0]);
        let z: Vec<Vec<f64>> = x.iter().map(|r| s.apply(r)).collect();
        assert!(
            Lda::fit(&z, &[0, 1, 0], 3).is_err(),
            "class 2 has no sample"
        );
        assert!(Lda::fit(&[], &[], 2).is_err());
        assert!(Lda::fit(&z, &[0, 1], 2).is_err());
        assert_eq!(ledoit_wolf(&[]), 0.0);
    }
}
