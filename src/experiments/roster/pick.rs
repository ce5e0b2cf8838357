//! The pick: greedy farthest-point order of the candidates in standardised feature space
//! (see the [module docs](super)).

use super::Candidate;

/// The first `n` candidates (or all, if fewer) in greedy farthest-point order, as indices into
/// `candidates`: the strongest first (highest `win_rate_lo`, then `win_rate`, then lowest
/// cell), then each time the candidate farthest from the members so far (largest smallest
/// Euclidean distance over the standardised feature means; ties to the earlier candidate, the
/// lower cell when they are in cell order).
pub fn farthest_first(candidates: &[Candidate], n: usize) -> Vec<usize> {
    let m = candidates.len();
    if m == 0 || n == 0 {
        return Vec::new();
    }
    let points = standardised(candidates);
    let first = (0..m)
        .max_by(|&a, &b| {
            let (x, y) = (&candidates[a], &candidates[b]);
            x.win_rate_lo
                .total_cmp(&y.win_rate_lo)
                .then(x.win_rate.total_cmp(&y.win_rate))
                .then(y.row.cell.cmp(&x.row.cell))
        })
        .unwrap_or(0);
    let mut order = vec![first];
    let mut nearest: Vec<f64> = points
        .iter()
        .map(|p| distance2(p, &points[first]))
        .collect();
    while order.len() < n.min(m) {
        let mut best: Option<usize> = None;
        for i in 0..m {
            if order.contains(&i) {
                continue;
            }
            if best.is_none_or(|b| nearest[i] > nearest[b]) {
                best = Some(i);
            }
        }
        let Some(next) = best else { break };
        order.push(next);
        for (i, d) in nearest.iter_mut().enumerate() {
            *d = d.min(distance2(&points[i], &points[next]));
        }
    }
    order
}

/// The candidates' feature means, each feature standardised over them (population standard
/// deviation; a feature constant over them becomes 0 everywhere).
fn standardised(candidates: &[Candidate]) -> Vec<Vec<f64>> {
    let k = candidates.first().map_or(0, |c| c.means.len());
    let n = candidates.len() as f64;
    let mut out = vec![vec![0.0; k]; candidates.len()];
    for j in 0..k {
        let mean = candidates.iter().map(|c| c.means[j]).sum::<f64>() / n;
        let sd = (candidates
            .iter()
            .map(|c| (c.means[j] - mean).powi(2))
            .sum::<f64>()
            / n)
            .sqrt();
        if sd > 0.0 && sd.is_finite() {
            for (o, c) in out.iter_mut().zip(candidates) {
                o[j] = (c.means[j] - mean) / sd;
            }
        }
    }
    out
}

/// Squared Euclidean distance.
fn distance2(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::archive::ArchiveRow;

    fn candidate(cell: usize, lo: f64, means: [f64; 2]) -> Candidate {
        Candidate {
            row: ArchiveRow {
                cell,
                coords: vec![0, 0],
                means: means.to_vec(),
                sds: vec![0.0, 0.0],
                win_rate: lo + 0.1,
                games: 10,
                wins: 5,
                draws: 0,
                mean_score: 0.0,
                evaluation: 0,
                weights: Vec::new(),
                extra: Default::default(),
            },
            spec: "x".into(),
            win_rate: lo + 0.1,
            win_rate_lo: lo,
            means: means.to_vec(),
        }
    }

    #[test]
    fn the_strongest_comes_first_then_the_farthest_and_the_order_nests() {
        // A square's corners and its centre; a corner is strongest.
        let c = vec![
            candidate(0, 0.3, [0.0, 0.0]),
            candidate(1, 0.1, [10.0, 0.0]),
            candidate(2, 0.1, [0.0, 10.0]),
            candidate(3, 0.1, [10.0, 10.0]),
            candidate(4, 0.1, [5.0, 5.0]),
        ];
        let order = farthest_first(&c, 5);
        // The opposite corner, then the other two corners (tied: the lower cell first), then
        // the centre, nearer to every corner than they are to each other.
        assert_eq!(order, [0, 3, 1, 2, 4]);
        for n in 1..=5 {
            assert_eq!(farthest_first(&c, n), order[..n]);
        }
        assert_eq!(farthest_first(&c, 9).len(), 5);
        assert!(farthest_first(&[], 3).is_empty());
    }

    #[test]
    fn features_count_alike_whatever_their_scale() {
        // x spans 0–1000, y 0–1: standardised, the corner far in y counts as much.
        let c = vec![
            candidate(0, 0.5, [0.0, 0.0]),
            candidate(1, 0.1, [600.0, 0.0]),
            candidate(2, 0.1, [0.0, 1.0]),
            candidate(3, 0.1, [1000.0, 1.0]),
        ];
        assert_eq!(farthest_first(&c, 2), [0, 3]);
        assert_eq!(farthest_first(&c, 3), [0, 3, 2]);
    }
}
