//! Bradley–Terry ratings on the Elo scale from pairwise results, with 95 % intervals from the
//! likelihood's curvature — what chess-engine rating lists compute with BayesElo or Ordo.
//!
//! Agent `i` has strength `θ_i`; it scores against `j` with probability
//! `p_ij = 1 / (1 + e^(θ_j − θ_i))`, a draw counting as half a win each. The fit maximises the
//! likelihood of the results by Hunter's MM iteration (2004), with the anchor's `θ` held at 0;
//! ratings are `θ · 400 / ln 10` Elo, so 100 Elo is an expected score of 0.64. Every pair that
//! met also gets [`BradleyTerry::prior_draws`] virtual draws (BayesElo's prior), so an agent
//! that won or lost every game still gets a finite rating. Intervals come from the observed
//! information (the negative Hessian of the log-likelihood in `θ` with the anchor fixed): the
//! rating's own (against the anchor) and a difference's (of two agents).
//!
//! An N-player game counts as the pairwise results of its ranks ([`Results::add_ranks`]).

/// Elo per unit of `θ`: 400 / ln 10.
pub const ELO_PER_THETA: f64 = 400.0 / std::f64::consts::LN_10;

/// The z of a two-sided 95 % interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Pairwise results among `n` agents: scores and game counts per ordered pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    n: usize,
    /// `score[i * n + j]`: what `i` scored against `j` (wins + ½ draws).
    score: Vec<f64>,
    /// `games[i * n + j]`: games between `i` and `j` (symmetric).
    games: Vec<f64>,
}

impl Results {
    /// No results among `n` agents.
    pub fn new(n: usize) -> Self {
        Results {
            n,
            score: vec![0.0; n * n],
            games: vec![0.0; n * n],
        }
    }

    /// The number of agents.
    pub fn agents(&self) -> usize {
        self.n
    }

    /// Adds one game of `i` against `j` in which `i` scored `s` (1 win, ½ draw, 0 loss).
    ///
    /// # Panics
    ///
    /// If `i == j` or either is not an agent.
    pub fn add(&mut self, i: usize, j: usize, s: f64) {
        assert!(i != j && i < self.n && j < self.n, "a game of two agents");
        self.score[i * self.n + j] += s;
        self.score[j * self.n + i] += 1.0 - s;
        self.games[i * self.n + j] += 1.0;
        self.games[j * self.n + i] += 1.0;
    }

    /// Adds the pairwise results of one game of several agents: `agents[k]` finished with rank
    /// `ranks[k]` (1 first; equal ranks are a draw between them).
    pub fn add_ranks(&mut self, agents: &[usize], ranks: &[u32]) {
        for a in 0..agents.len() {
            for b in a + 1..agents.len() {
                let s = match ranks[a].cmp(&ranks[b]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                self.add(agents[a], agents[b], s);
            }
        }
    }

    /// Games between `i` and `j`.
    pub fn games(&self, i: usize, j: usize) -> f64 {
        self.games[i * self.n + j]
    }

    /// What `i` scored against `j`.
    pub fn score(&self, i: usize, j: usize) -> f64 {
        self.score[i * self.n + j]
    }
}

/// The fitting options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BradleyTerry {
    /// Virtual draws added to every pair that met (BayesElo's prior; 0: none).
    pub prior_draws: f64,
    /// The agent whose rating is held at 0.
    pub anchor: usize,
}

/// Fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Each agent's rating in Elo (the anchor's is 0).
    pub elo: Vec<f64>,
    /// Covariance of the `θ`s (anchor's row and column 0), in Elo².
    pub cov: Vec<Vec<f64>>,
}

impl Ratings {
    /// Half the width of agent `i`'s 95 % interval, taken relative to the agents' average
    /// rating (BayesElo's convention): the uncertainty of `θ_i − mean θ`, which is the same
    /// whichever agent is the anchor (the anchor only fixes the offset, and its own interval
    /// is not 0). Differences between agents have their own, exact intervals
    /// ([`Ratings::difference`]).
    pub fn margin(&self, i: usize) -> f64 {
        let n = self.cov.len() as f64;
        let row: f64 = self.cov[i].iter().sum();
        let total: f64 = self.cov.iter().flatten().sum();
        let var = self.cov[i][i] - 2.0 * row / n + total / (n * n);
        Z_95 * var.max(0.0).sqrt()
    }

    /// Half the width of agent `i`'s 95 % interval against the anchor (0 for the anchor): the
    /// interval of its difference with the anchor.
    pub fn anchored_margin(&self, i: usize) -> f64 {
        Z_95 * self.cov[i][i].max(0.0).sqrt()
    }

    /// `elo[i] − elo[j]` and half the width of its 95 % interval.
    pub fn difference(&self, i: usize, j: usize) -> (f64, f64) {
        let var = self.cov[i][i] + self.cov[j][j] - 2.0 * self.cov[i][j];
        (self.elo[i] - self.elo[j], Z_95 * var.max(0.0).sqrt())
    }
}

/// Why ratings cannot be fitted, agents given by index: [`FitError::describe`] names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FitError {
    /// The anchor is not one of the agents.
    BadAnchor {
        /// The anchor's index.
        anchor: usize,
        /// The number of agents.
        agents: usize,
    },
    /// An agent met nobody connected to the anchor: its rating is undefined.
    Unconnected {
        /// The agent.
        agent: usize,
        /// The anchor.
        anchor: usize,
    },
    /// An agent won (or lost) every game with no prior draws: its rating is unbounded.
    Unbounded {
        /// The agent.
        agent: usize,
        /// Whether it won every game (else it lost every game).
        won: bool,
    },
    /// The information matrix is singular (no interval can be computed).
    Singular,
}

impl FitError {
    /// What went wrong, naming agent `i` by `names[i]` (by its index where `names` has none).
    pub fn describe(&self, names: &[String]) -> String {
        let name = |i: usize| {
            names
                .get(i)
                .map_or_else(|| format!("agent {i}"), |n| format!("`{n}`"))
        };
        match *self {
            FitError::BadAnchor { anchor, agents } => {
                format!("the anchor (agent {anchor}) is not one of the {agents} agents")
            }
            FitError::Unconnected { agent, anchor } => format!(
                "{} has played no one connected to the anchor {}: its rating is undefined",
                name(agent),
                name(anchor)
            ),
            FitError::Unbounded { agent, won } => format!(
                "{} {} every game: its rating is unbounded without prior draws",
                name(agent),
                if won { "won" } else { "lost" }
            ),
            FitError::Singular => "the ratings' information matrix is singular".to_string(),
        }
    }
}

/// The expected score of a player `diff` Elo above its opponent.
pub fn expected_score(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

impl BradleyTerry {
    /// Fits the ratings of `results`.
    ///
    /// # Errors
    ///
    /// A [`FitError`] when an agent met nobody connected to the anchor (its rating is
    /// undefined), won or lost every game with no prior draws (its rating is unbounded), or the
    /// anchor is not an agent.
    pub fn fit(&self, results: &Results) -> Result<Ratings, FitError> {
        let n = results.agents();
        if self.anchor >= n {
            return Err(FitError::BadAnchor {
                anchor: self.anchor,
                agents: n,
            });
        }
        let reach = connected(results, self.anchor);
        if let Some(i) = (0..n).find(|&i| !reach[i]) {
            return Err(FitError::Unconnected {
                agent: i,
                anchor: self.anchor,
            });
        }
        // Results with the prior's virtual draws.
        let mut w = vec![0.0; n * n];
        let mut g = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let m = results.games(i, j);
                if i != j && m > 0.0 {
                    w[i * n + j] = results.score(i, j) + self.prior_draws / 2.0;
                    g[i * n + j] = m + self.prior_draws;
                }
            }
        }
        let total: Vec<f64> = (0..n).map(|i| (0..n).map(|j| w[i * n + j]).sum()).collect();
        for i in 0..n {
            let played: f64 = (0..n).map(|j| g[i * n + j]).sum();
            if total[i] == 0.0 || total[i] == played {
                return Err(FitError::Unbounded {
                    agent: i,
                    won: total[i] != 0.0,
                });
            }
        }
        let mut gamma = vec![1.0f64; n];
        for _ in 0..10_000 {
            let mut change = 0.0f64;
            let mut next = gamma.clone();
            for i in 0..n {
                let denom: f64 = (0..n)
                    .filter(|&j| g[i * n + j] > 0.0)
                    .map(|j| g[i * n + j] / (gamma[i] + gamma[j]))
                    .sum();
                next[i] = total[i] / denom;
            }
            let a = next[self.anchor];
            for (x, old) in next.iter_mut().zip(&gamma) {
                *x /= a;
                change = change.max((x.ln() - old.ln()).abs());
            }
            gamma = next;
            if change < 1e-12 {
                break;
            }
        }
        let theta: Vec<f64> = gamma.iter().map(|x| x.ln()).collect();
        // Observed information with the anchor fixed.
        let free: Vec<usize> = (0..n).filter(|&i| i != self.anchor).collect();
        let mut info = vec![vec![0.0; free.len()]; free.len()];
        for (a, &i) in free.iter().enumerate() {
            for j in 0..n {
                let m = g[i * n + j];
                if i == j || m == 0.0 {
                    continue;
                }
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                let v = m * p * (1.0 - p);
                info[a][a] += v;
                if let Some(b) = free.iter().position(|&k| k == j) {
                    info[a][b] -= v;
                }
            }
        }
        let inv = invert(info).ok_or(FitError::Singular)?;
        let mut cov = vec![vec![0.0; n]; n];
        for (a, &i) in free.iter().enumerate() {
            for (b, &j) in free.iter().enumerate() {
                cov[i][j] = inv[a][b] * ELO_PER_THETA * ELO_PER_THETA;
            }
        }
        Ok(Ratings {
            elo: theta.iter().map(|t| t * ELO_PER_THETA).collect(),
            cov,
        })
    }
}

/// Which agents are connected to `from` by games.
fn connected(results: &Results, from: usize) -> Vec<bool> {
    let n = results.agents();
    let mut seen = vec![false; n];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(i) = stack.pop() {
        for (j, s) in seen.iter_mut().enumerate() {
            if !*s && results.games(i, j) > 0.0 {
                *s = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// The inverse of a symmetric positive-definite matrix by Gauss–Jordan elimination with
/// partial pivoting; `None` if it is singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        inv.swap(c, p);
        let d = m[c][c];
        for k in 0..n {
            m[c][k] /= d;
            inv[c][k] /= d;
        }
        for r in 0..n {
            if r != c {
                let f = m[r][c];
                if f != 0.0 {
                    for k in 0..n {
                        m[r][k] -= f * m[c][k];
                        inv[r][k] -= f * inv[c][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// Simulated round robin among agents of known Elo.
    fn simulate(elo: &[f64], games: usize, seed: u64) -> Results {
        let mut rng = crate::rng::derive_rng(seed, &[]);
        let mut r = Results::new(elo.len());
        for i in 0..elo.len() {
            for j in i + 1..elo.len() {
                for _ in 0..games {
                    let p = expected_score(elo[i] - elo[j]);
                    r.add(i, j, if rng.random::<f64>() < p { 1.0 } else { 0.0 });
                }
            }
        }
        r
    }

    #[test]
    fn recovers_known_ratings_within_their_intervals() {
        let truth = [0.0, 100.0, 250.0, -150.0];
        let fit = BradleyTerry {
            prior_draws: 0.0,
            anchor: 0,
        }
        .fit(&simulate(&truth, 2000, 7))
        .unwrap();
        assert_eq!(fit.elo[0], 0.0);
        assert_eq!(fit.anchored_margin(0), 0.0);
        for (i, t) in truth.iter().enumerate().skip(1) {
            let m = fit.anchored_margin(i);
            assert!(m > 5.0 && m < 40.0, "margin {m}");
            assert!((fit.elo[i] - t).abs() < m, "{:?}", fit.elo);
        }
        let (d, m) = fit.difference(2, 1);
        assert!((d - 150.0).abs() < m && m > 0.0, "{d} ± {m}");
        // Intervals around the average do not depend on the anchor, differences neither.
        let other = BradleyTerry {
            prior_draws: 0.0,
            anchor: 2,
        }
        .fit(&simulate(&truth, 2000, 7))
        .unwrap();
        for i in 0..truth.len() {
            assert!(fit.margin(i) > 0.0);
            assert!((fit.margin(i) - other.margin(i)).abs() < 1e-6);
            assert!((fit.difference(i, 3).1 - other.difference(i, 3).1).abs() < 1e-6);
            assert!((fit.elo[i] - fit.elo[2] - other.elo[i]).abs() < 1e-6);
        }
    }

    #[test]
    fn the_intervals_cover_the_truth_about_95_percent_of_the_time() {
        let truth = [0.0, 60.0, -40.0];
        let bt = BradleyTerry {
            prior_draws: 0.0,
            anchor: 0,
        };
        let mut covered = 0;
        let trials = 200;
        for seed in 0..trials {
            let fit = bt.fit(&simulate(&truth, 200, seed)).unwrap();
            let (d, m) = fit.difference(1, 2);
            covered += usize::from((d - 100.0).abs() <= m);
        }
        let share = covered as f64 / trials as f64;
        assert!((0.9..=0.99).contains(&share), "coverage {share}");
    }

    #[test]
    fn the_mm_fit_is_the_maximum_of_the_likelihood() {
        // Two agents: the rating difference is the logit of the score share.
        let mut r = Results::new(2);
        for k in 0..10 {
            r.add(0, 1, if k < 7 { 1.0 } else { 0.0 });
        }
        let fit = BradleyTerry {
            prior_draws: 0.0,
            anchor: 1,
        }
        .fit(&r)
        .unwrap();
        let want = (0.7f64 / 0.3).ln() * ELO_PER_THETA;
        assert!((fit.elo[0] - want).abs() < 1e-6, "{} vs {want}", fit.elo[0]);
        // The curvature: var(θ) = 1 / (n p (1 − p)).
        let want_margin = Z_95 * (1.0 / (10.0 * 0.21f64)).sqrt() * ELO_PER_THETA;
        assert!((fit.anchored_margin(0) - want_margin).abs() < 1e-6);
        // Around the average of two, each rating carries half the difference's uncertainty.
        assert!((fit.margin(0) - want_margin / 2.0).abs() < 1e-6);
        assert!((expected_score(fit.elo[0]) - 0.7).abs() < 1e-9);
    }

    #[test]
    fn a_sweep_needs_the_prior_and_ranks_count_as_pairs() {
        let mut r = Results::new(3);
        // Agent 0 first, 1 and 2 tied behind it, in three games of three.
        for _ in 0..3 {
            r.add_ranks(&[0, 1, 2], &[1, 2, 2]);
        }
        assert_eq!(r.games(0, 1), 3.0);
        assert_eq!(r.score(0, 1), 3.0);
        assert_eq!(r.score(1, 2), 1.5);
        let no_prior = BradleyTerry {
            prior_draws: 0.0,
            anchor: 1,
        };
        let e = no_prior.fit(&r).unwrap_err();
        assert_eq!(
            e,
            FitError::Unbounded {
                agent: 0,
                won: true
            }
        );
        let names = ["first", "second", "third"].map(String::from);
        assert_eq!(
            e.describe(&names),
            "`first` won every game: its rating is unbounded without prior draws"
        );
        let fit = BradleyTerry {
            prior_draws: 2.0,
            anchor: 1,
        }
        .fit(&r)
        .unwrap();
        assert!(
            fit.elo[0] > 100.0 && fit.elo[0].is_finite(),
            "{:?}",
            fit.elo
        );
        assert!(fit.elo[2].abs() < 1e-6);
    }

    #[test]
    fn unconnected_agents_and_a_bad_anchor_are_errors() {
        let mut r = Results::new(3);
        r.add(0, 1, 1.0);
        let bt = BradleyTerry {
            prior_draws: 1.0,
            anchor: 0,
        };
        let e = bt.fit(&r).unwrap_err();
        assert_eq!(
            e,
            FitError::Unconnected {
                agent: 2,
                anchor: 0
            }
        );
        let names = ["mcts", "random", "osla"].map(String::from);
        assert_eq!(
            e.describe(&names),
            "`osla` has played no one connected to the anchor `mcts`: its rating is undefined"
        );
        let bad = BradleyTerry { anchor: 5, ..bt };
        assert!(bad.fit(&r).unwrap_err().describe(&names).contains("anchor"));
    }
}
