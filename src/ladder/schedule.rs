//! Which games a ladder plays next: between agents adjacent in rating whose difference is
//! least certain. A game between close ratings tells the most (its result's variance
//! `p (1 − p)` is largest), and tiers need exactly the adjacent differences, so the schedule
//! reaches the intervals a round robin would give with far fewer games.

use super::bradley_terry::Ratings;

/// The next games (at most `count`) of a ladder whose ratings are `ratings`: the pairs of
/// agents adjacent in rating order whose difference's 95 % interval is wider than `target`
/// Elo (half-width) and does not lie wholly above `decisive` Elo (a step that clearly large
/// needs no narrower interval; `f64::INFINITY`: none is), widest first, one game each. Empty
/// when every adjacent difference is within `target` or decisive. Ties go to the lower index,
/// so the schedule is a function of the results alone.
pub fn next_games(
    ratings: &Ratings,
    target: f64,
    decisive: f64,
    count: usize,
) -> Vec<(usize, usize)> {
    let n = ratings.elo.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| ratings.elo[a].total_cmp(&ratings.elo[b]).then(a.cmp(&b)));
    let mut wide: Vec<(f64, usize, usize)> = order
        .windows(2)
        .filter_map(|w| {
            // `w[1]` rates at least `w[0]`, so `d ≥ 0`.
            let (d, m) = ratings.difference(w[1], w[0]);
            (m > target && d - m < decisive).then_some((m, w[0].min(w[1]), w[0].max(w[1])))
        })
        .collect();
    wide.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    wide.into_iter()
        .take(count)
        .map(|(_, i, j)| (i, j))
        .collect()
}

/// How many games to give the pair `(i, j)` in the next round so that its difference's
/// interval (half-width `m` now, after `played` games between them) may reach `target`: an
/// interval narrows as one over the square root of the games, so about
/// `played · ((m / target)² − 1)` more are needed; the round gives half of that (the ratings
/// move meanwhile, and the pair's neighbours' games help too), rounded up to a multiple of
/// `batch` and at least `batch`.
pub fn games_for(m: f64, played: f64, target: f64, batch: usize) -> usize {
    let batch = batch.max(1);
    let needed = played * ((m / target).powi(2) - 1.0) / 2.0;
    if !(needed.is_finite() && needed > batch as f64) {
        return batch;
    }
    let rounds = (needed / batch as f64).ceil().min(1e6) as usize;
    rounds * batch
}

/// A round robin's games: every pair once, in index order.
pub fn round_robin(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ladder::bradley_terry::{BradleyTerry, Results, expected_score};
    use rand::RngExt;

    const TRUTH: [f64; 8] = [0.0, 120.0, 240.0, 360.0, 480.0, 600.0, 720.0, 840.0];

    fn play(r: &mut Results, i: usize, j: usize, rng: &mut crate::rng::Rng) {
        let p = expected_score(TRUTH[i] - TRUTH[j]);
        r.add(i, j, if rng.random::<f64>() < p { 1.0 } else { 0.0 });
    }

    fn fit(r: &Results) -> Ratings {
        BradleyTerry {
            prior_draws: 1.0,
            anchor: 0,
        }
        .fit(r)
        .unwrap()
    }

    /// The widest interval of a difference between agents adjacent in rating.
    fn widest(r: &Ratings) -> f64 {
        let mut order: Vec<usize> = (0..r.elo.len()).collect();
        order.sort_by(|&a, &b| r.elo[a].total_cmp(&r.elo[b]));
        order
            .windows(2)
            .map(|w| r.difference(w[1], w[0]).1)
            .fold(0.0, f64::max)
    }

    /// Games a round robin needs (whole rounds) to bring every adjacent difference's interval
    /// within `target`.
    fn round_robin_cost(target: f64, seed: u64) -> usize {
        let mut rng = crate::rng::derive_rng(seed, &[1]);
        let mut r = Results::new(TRUTH.len());
        let mut games = 0;
        loop {
            for (i, j) in round_robin(TRUTH.len()) {
                play(&mut r, i, j, &mut rng);
                games += 1;
            }
            if widest(&fit(&r)) <= target {
                return games;
            }
        }
    }

    /// Games the adaptive schedule needs, after one round robin to start.
    fn adaptive_cost(target: f64, seed: u64) -> (usize, Ratings) {
        let mut rng = crate::rng::derive_rng(seed, &[2]);
        let mut r = Results::new(TRUTH.len());
        let mut games = 0;
        for (i, j) in round_robin(TRUTH.len()) {
            play(&mut r, i, j, &mut rng);
            games += 1;
        }
        loop {
            let ratings = fit(&r);
            let next = next_games(&ratings, target, f64::INFINITY, 8);
            if next.is_empty() {
                return (games, ratings);
            }
            for (i, j) in next {
                play(&mut r, i, j, &mut rng);
                games += 1;
            }
        }
    }

    #[test]
    fn the_schedule_reaches_the_target_intervals_with_far_fewer_games_than_a_round_robin() {
        let target = 60.0;
        let (adaptive, ratings) = adaptive_cost(target, 3);
        let full = round_robin_cost(target, 3);
        assert!(widest(&ratings) <= target);
        assert!(
            (adaptive as f64) < 0.5 * full as f64,
            "adaptive {adaptive} games, round robin {full}"
        );
        // Its adjacent differences are the true ones within their intervals, mostly.
        let near = (1..TRUTH.len())
            .filter(|&k| {
                let (d, m) = ratings.difference(k, k - 1);
                (d - 120.0).abs() <= m
            })
            .count();
        assert!(near >= 5, "{near} of 7: {:?}", ratings.elo);
    }

    #[test]
    fn a_round_gives_a_pair_half_the_games_its_interval_still_needs() {
        // ±100 after 40 games; ±50 needs 4 × 40 = 160, so 120 more; half is 60.
        assert_eq!(games_for(100.0, 40.0, 50.0, 2), 60);
        assert_eq!(games_for(100.0, 40.0, 50.0, 8), 64);
        // Nearly there, or never played: one batch.
        assert_eq!(games_for(51.0, 40.0, 50.0, 2), 2);
        assert_eq!(games_for(100.0, 0.0, 50.0, 2), 2);
    }

    #[test]
    fn it_stops_when_every_adjacent_difference_is_within_the_target() {
        let mut r = Results::new(3);
        let mut rng = crate::rng::derive_rng(9, &[]);
        for _ in 0..400 {
            for (i, j) in round_robin(3) {
                play(&mut r, i, j, &mut rng);
            }
        }
        let ratings = fit(&r);
        assert!(next_games(&ratings, 1000.0, f64::INFINITY, 5).is_empty());
        let next = next_games(&ratings, 1.0, f64::INFINITY, 5);
        assert_eq!(next.len(), 2, "two adjacent pairs among three: {next:?}");
        assert!(next.iter().all(|&(i, j)| i < j));
        assert_eq!(next_games(&ratings, 1.0, f64::INFINITY, 1).len(), 1);
    }

    #[test]
    fn a_decisive_step_needs_no_narrower_interval() {
        // Three agents at 0, 120 and 840 Elo; only neighbours meet.
        let truth = [0.0, 120.0, 840.0];
        let mut r = Results::new(3);
        let mut rng = crate::rng::derive_rng(4, &[]);
        for _ in 0..60 {
            for (i, j) in [(0, 1), (1, 2)] {
                let p = expected_score(truth[i] - truth[j]);
                r.add(i, j, if rng.random::<f64>() < p { 1.0 } else { 0.0 });
            }
        }
        let ratings = fit(&r);
        let (d, m) = ratings.difference(2, 1);
        assert!(d - m > 300.0 && m > 60.0, "the wide step: {d} ± {m}");
        let all = next_games(&ratings, 60.0, f64::INFINITY, 8);
        assert!(all.contains(&(1, 2)), "{all:?}");
        // Above +300 for certain: decided; the close pair is still played.
        let some = next_games(&ratings, 60.0, 300.0, 8);
        assert!(
            !some.contains(&(1, 2)) && some.contains(&(0, 1)),
            "{some:?}"
        );
    }
}
