//! The numbers of a sensitivity measurement: each genome's games summed up with 95 %
//! intervals, the paired high − low effects per unit and measure, and the two CSV tables and
//! the printed summary that hold them (see the [module docs](super)).

use serde::{Deserialize, Serialize};

use super::{Probe, Unit};
use crate::experiments::evaluate::GameResult;
use crate::qd::{AxisKind, FeatureAxis};
use crate::report::csv::CsvTable;
use crate::stats::{Z_95, wilson_interval};

/// File name of the per-genome table.
pub const GENOMES_CSV: &str = "sensitivity_genomes.csv";
/// File name of the effects table.
pub const EFFECTS_CSV: &str = "sensitivity_effects.csv";
/// The measure name of the win rate in the effects table.
pub const WIN_RATE: &str = "win_rate";
/// The unit name of the `all-high` − `all-low` rows.
pub const ALL: &str = "all";
/// The prefix of the unit name of the `max:F` − `min:F` rows, `extremes:F`.
pub const EXTREMES: &str = "extremes:";

/// What a measurement keeps of one game of the player (participant 0).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedGame {
    /// The player finished alone in first place.
    pub won: bool,
    /// Nobody finished alone in first place.
    pub draw: bool,
    /// Each feature's value (`None` where it is not defined in this game).
    pub features: Vec<Option<f64>>,
}

impl From<GameResult> for PlayedGame {
    fn from(r: GameResult) -> Self {
        PlayedGame {
            won: r.won,
            draw: r.draw,
            features: r.features,
        }
    }
}

/// One genome and its games, in game order (game `j` has the same seed for every genome).
#[derive(Clone, Debug, PartialEq)]
pub struct GenomeGames {
    /// The genome.
    pub probe: Probe,
    /// Its games.
    pub games: Vec<PlayedGame>,
}

impl GenomeGames {
    /// The measure `k` of game `j`: the win (0 or 1) for `k = 0`, feature `k − 1` else.
    fn measure(&self, j: usize, k: usize) -> Option<f64> {
        let g = &self.games[j];
        if k == 0 {
            Some(if g.won { 1.0 } else { 0.0 })
        } else {
            g.features[k - 1]
        }
    }
}

/// A mean with its 95 % interval (Student's t; `None` ends with fewer than two values).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The mean (NaN without values).
    pub mean: f64,
    /// Sample standard deviation (NaN with fewer than two values).
    pub sd: f64,
    /// Lower end.
    pub lo: Option<f64>,
    /// Upper end.
    pub hi: Option<f64>,
    /// Values.
    pub n: usize,
}

impl Interval {
    /// The mean of `xs` with its 95 % Student-t interval, `mean ± t(0.975, n − 1) · sd / √n`.
    pub fn of(xs: &[f64]) -> Self {
        let n = xs.len();
        if n == 0 {
            return Interval {
                mean: f64::NAN,
                sd: f64::NAN,
                lo: None,
                hi: None,
                n,
            };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        if n < 2 {
            return Interval {
                mean,
                sd: f64::NAN,
                lo: None,
                hi: None,
                n,
            };
        }
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        let sd = var.sqrt();
        let half = t_975(n - 1) * sd / (n as f64).sqrt();
        Interval {
            mean,
            sd,
            lo: Some(mean - half),
            hi: Some(mean + half),
            n,
        }
    }
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom (`df ≥ 1`): tabulated to
/// 4 decimals up to 30, the Cornish–Fisher expansion above (error under 1e-4 there).
pub fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
        2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739,
        2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    ];
    if (1..=30).contains(&df) {
        return TABLE[df - 1];
    }
    let z = 1.959_963_984_540_054_f64;
    let d = df.max(1) as f64;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * d)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * d * d)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * d * d * d)
}

/// The width of one cell of `axis` (an inner bucket's `step`, or a bin's width).
pub fn cell_width(axis: &FeatureAxis) -> f64 {
    match axis.kind {
        AxisKind::Bucket { step, .. } => step,
        AxisKind::Bins { lo, hi, bins } => (hi - lo) / bins as f64,
    }
}

/// The effect of one unit on one measure: high − low over paired games.
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    /// The unit (`all` for `all-high` − `all-low`, `extremes:F` for `max:F` − `min:F`).
    pub unit: String,
    /// Its scripts joined by `+`.
    pub scripts: String,
    /// `win_rate` or a feature name.
    pub measure: String,
    /// The low genome's mean of the measure.
    pub low_mean: f64,
    /// The high genome's.
    pub high_mean: f64,
    /// Mean of the per-game differences high − low, with its interval.
    pub effect: Interval,
    /// The measure's cell width (`None`: the win rate).
    pub cell_width: Option<f64>,
}

impl Effect {
    /// `x` in cell widths (`None` for the win rate).
    pub fn in_cells(&self, x: f64) -> Option<f64> {
        self.cell_width.map(|w| x / w)
    }
}

/// A finished measurement: the genomes' games and the effects.
#[derive(Clone, Debug, PartialEq)]
pub struct Sensitivity {
    /// The evolved scripts, in genome order.
    pub scripts: Vec<String>,
    /// The features' axes, in map order.
    pub axes: Vec<FeatureAxis>,
    /// Every genome and its games, in play order.
    pub genomes: Vec<GenomeGames>,
    /// Per unit (then `all`, then `extremes:F` per feature), the win rate's effect then each
    /// feature's.
    pub effects: Vec<Effect>,
    /// The series seed every genome played.
    pub seed: u64,
}

impl Sensitivity {
    /// The measurement of `genomes` (as [`super::probes`] lists them for `units`, then the
    /// extremes of [`super::extreme_probes`], if played).
    pub fn new(
        scripts: Vec<String>,
        axes: Vec<FeatureAxis>,
        units: &[Unit],
        genomes: Vec<GenomeGames>,
        seed: u64,
    ) -> Self {
        let find = |label: &str| genomes.iter().find(|g| g.probe.label == label);
        let mut effects = Vec::new();
        let mut pairs: Vec<(String, String, String, String)> = units
            .iter()
            .map(|u| {
                let members: Vec<&str> = u.scripts.iter().map(|&i| scripts[i].as_str()).collect();
                (
                    u.name.clone(),
                    members.join("+"),
                    format!("low:{}", u.name),
                    format!("high:{}", u.name),
                )
            })
            .collect();
        pairs.push((
            ALL.into(),
            scripts.join("+"),
            "all-low".into(),
            "all-high".into(),
        ));
        for a in &axes {
            let (min, max) = (format!("min:{}", a.name), format!("max:{}", a.name));
            let (Some(low), Some(high)) = (find(&min), find(&max)) else {
                continue;
            };
            // The scripts the two extremes set apart (the others stand at the midpoint in both).
            let moved: Vec<&str> = scripts
                .iter()
                .enumerate()
                .filter(|&(i, _)| low.probe.values[i] != high.probe.values[i])
                .map(|(_, s)| s.as_str())
                .collect();
            pairs.push((format!("{EXTREMES}{}", a.name), moved.join("+"), min, max));
        }
        for (unit, members, low, high) in pairs {
            let (Some(low), Some(high)) = (find(&low), find(&high)) else {
                continue;
            };
            for k in 0..=axes.len() {
                let (measure, width) = if k == 0 {
                    (WIN_RATE.to_string(), None)
                } else {
                    (axes[k - 1].name.clone(), Some(cell_width(&axes[k - 1])))
                };
                effects.push(Effect {
                    unit: unit.clone(),
                    scripts: members.clone(),
                    measure,
                    low_mean: measure_interval(low, k).mean,
                    high_mean: measure_interval(high, k).mean,
                    effect: paired(low, high, k),
                    cell_width: width,
                });
            }
        }
        Sensitivity {
            scripts,
            axes,
            genomes,
            effects,
            seed,
        }
    }

    /// `sensitivity_genomes.csv`.
    pub fn genomes_table(&self) -> CsvTable {
        let rows = self
            .genomes
            .iter()
            .map(|g| (vec![g.probe.label.clone()], g));
        genome_table(&self.scripts, &self.axes, &["genome"], rows, Z_95)
    }

    /// `sensitivity_effects.csv`.
    pub fn effects_table(&self) -> CsvTable {
        let header = [
            "unit",
            "scripts",
            "measure",
            "low_mean",
            "high_mean",
            "effect",
            "effect_lo",
            "effect_hi",
            "pairs",
            "cell_width",
            "effect_cells",
            "effect_cells_lo",
            "effect_cells_hi",
        ];
        let mut t = CsvTable::new(header.map(String::from).to_vec());
        for e in &self.effects {
            let cells = |x: Option<f64>| x.and_then(|x| e.in_cells(x));
            t.rows.push(vec![
                e.unit.clone(),
                e.scripts.clone(),
                e.measure.clone(),
                num(e.low_mean),
                num(e.high_mean),
                num(e.effect.mean),
                opt(e.effect.lo),
                opt(e.effect.hi),
                e.effect.n.to_string(),
                opt(e.cell_width),
                opt(cells(Some(e.effect.mean))),
                opt(cells(e.effect.lo)),
                opt(cells(e.effect.hi)),
            ]);
        }
        t
    }

    /// The effects as printed: a row per unit, the win rate's effect in points and each
    /// feature's in cell widths, each with its interval.
    pub fn printed(&self) -> String {
        let mut columns = vec!["win rate (points)".to_string()];
        columns.extend(self.axes.iter().map(|a| format!("{} (cells)", a.name)));
        let label_w = self
            .effects
            .iter()
            .map(|e| e.unit.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let col_w = columns
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0)
            .max(24);
        let mut s = format!(
            "effect of each weight, high - low (95% interval), paired over games with the same seed;\n\
             extremes:F is max:F - min:F (every weight that clearly moves F pushing it up, down):\n{:<label_w$}",
            "unit"
        );
        for c in &columns {
            s.push_str(&format!("  {c:>col_w$}"));
        }
        s.push('\n');
        for chunk in self.effects.chunks(self.axes.len() + 1) {
            s.push_str(&format!("{:<label_w$}", chunk[0].unit));
            for e in chunk {
                let scale = if e.cell_width.is_none() { 100.0 } else { 1.0 };
                let f = |x: f64| e.in_cells(x).unwrap_or(x) * scale;
                let text = match (e.effect.lo, e.effect.hi) {
                    (Some(lo), Some(hi)) => {
                        format!("{:+.2} [{:+.2}, {:+.2}]", f(e.effect.mean), f(lo), f(hi))
                    }
                    _ => format!("{:+.2}", f(e.effect.mean)),
                };
                s.push_str(&format!("  {text:>col_w$}"));
            }
            s.push('\n');
        }
        s
    }
}

/// A table of genomes over `scripts` measured on `axes`, a row per genome of `rows`: the
/// `leading` columns (each row's values given with it), `weight_<script>` per script, `games`,
/// `wins`, `draws`, `win_rate` with its Wilson interval at `z` `win_rate_lo`, `win_rate_hi`
/// (draws are non-wins), and per feature `f`: `<f>_mean`, its 95 % interval `<f>_lo`, `<f>_hi`
/// (Student's t over the games where it is defined), `<f>_sd` and `<f>_games`.
pub fn genome_table<'a>(
    scripts: &[String],
    axes: &[FeatureAxis],
    leading: &[&str],
    rows: impl IntoIterator<Item = (Vec<String>, &'a GenomeGames)>,
    z: f64,
) -> CsvTable {
    let mut header: Vec<String> = leading.iter().map(|s| s.to_string()).collect();
    header.extend(scripts.iter().map(|s| format!("weight_{s}")));
    header.extend(
        [
            "games",
            "wins",
            "draws",
            "win_rate",
            "win_rate_lo",
            "win_rate_hi",
        ]
        .map(String::from),
    );
    for a in axes {
        for suffix in ["mean", "lo", "hi", "sd", "games"] {
            header.push(format!("{}_{suffix}", a.name));
        }
    }
    let mut t = CsvTable::new(header);
    for (mut row, g) in rows {
        let n = g.games.len() as u64;
        let wins = g.games.iter().filter(|x| x.won).count() as u64;
        let draws = g.games.iter().filter(|x| x.draw).count() as u64;
        let (lo, hi) = wilson_interval(wins, n, z);
        row.extend(g.probe.values.iter().map(|v| num(*v)));
        row.extend([
            n.to_string(),
            wins.to_string(),
            draws.to_string(),
            num(wins as f64 / n.max(1) as f64),
            num(lo),
            num(hi),
        ]);
        for k in 1..=axes.len() {
            let i = measure_interval(g, k);
            row.extend([
                num(i.mean),
                opt(i.lo),
                opt(i.hi),
                num(i.sd),
                i.n.to_string(),
            ]);
        }
        t.rows.push(row);
    }
    t
}

/// Measure `k` of genome `g` over the games where it is defined.
fn measure_interval(g: &GenomeGames, k: usize) -> Interval {
    let xs: Vec<f64> = (0..g.games.len()).filter_map(|j| g.measure(j, k)).collect();
    Interval::of(&xs)
}

/// The paired differences high − low of measure `k` (0: the win, else feature `k − 1`) over
/// the games both genomes have it, with their 95 % interval.
pub fn paired(low: &GenomeGames, high: &GenomeGames, k: usize) -> Interval {
    let n = low.games.len().min(high.games.len());
    let d: Vec<f64> = (0..n)
        .filter_map(|j| Some(high.measure(j, k)? - low.measure(j, k)?))
        .collect();
    Interval::of(&d)
}

/// A number as the tables write it: shortest round-trip form; empty for NaN.
pub fn num(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        format!("{x}")
    }
}

/// An optional number, empty if absent.
pub fn opt(x: Option<f64>) -> String {
    x.map_or_else(String::new, num)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(won: bool, f: Option<f64>) -> PlayedGame {
        PlayedGame {
            won,
            draw: false,
            features: vec![f],
        }
    }

    fn genome(label: &str, games: Vec<PlayedGame>) -> GenomeGames {
        GenomeGames {
            probe: Probe {
                label: label.into(),
                values: vec![0.0],
            },
            games,
        }
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        assert_eq!(t_975(1), 12.7062);
        assert_eq!(t_975(30), 2.0423);
        assert!((t_975(40) - 2.0211).abs() < 1e-4);
        assert!((t_975(120) - 1.9799).abs() < 1e-4);
        assert!((t_975(100_000) - 1.96).abs() < 1e-4);
    }

    #[test]
    fn an_effect_is_the_mean_paired_difference_with_its_t_interval() {
        // Differences high - low per game: 2, 4, 6 (game 3 lacks the feature on one side).
        let low = genome(
            "low:a",
            vec![
                game(false, Some(1.0)),
                game(true, Some(2.0)),
                game(false, Some(0.0)),
                game(false, None),
            ],
        );
        let high = genome(
            "high:a",
            vec![
                game(true, Some(3.0)),
                game(true, Some(6.0)),
                game(true, Some(6.0)),
                game(false, Some(9.0)),
            ],
        );
        let axis = FeatureAxis::bucket("f", 0.0, 10.0, 2.0).unwrap();
        let unit = Unit {
            name: "a".into(),
            scripts: vec![0],
        };
        let s = Sensitivity::new(vec!["a".into()], vec![axis], &[unit], vec![low, high], 1);
        assert_eq!(s.effects.len(), 2);
        let f = &s.effects[1];
        assert_eq!((f.measure.as_str(), f.effect.n), ("f", 3));
        assert_eq!(f.effect.mean, 4.0);
        // sd of 2, 4, 6 is 2; half width t(0.975, 2) * 2 / sqrt(3).
        let half = 4.3027 * 2.0 / 3f64.sqrt();
        assert!((f.effect.lo.unwrap() - (4.0 - half)).abs() < 1e-12);
        assert!((f.effect.hi.unwrap() - (4.0 + half)).abs() < 1e-12);
        assert_eq!(f.in_cells(f.effect.mean), Some(2.0));
        assert_eq!((f.low_mean, f.high_mean), (1.0, 6.0));
        // Win rate: differences 1, 0, 1, 0 over all four games.
        let w = &s.effects[0];
        assert_eq!((w.effect.n, w.effect.mean, w.cell_width), (4, 0.5, None));
        let t = s.effects_table();
        assert_eq!(t.rows[1][10], "2");
        assert_eq!(t.rows[0][9], "");
    }
}
