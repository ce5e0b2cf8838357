//! The trade-off between style and strength that a calibration measures and `sensitivity
//! --strengths` draws: per strength, how well the extreme genomes still play (each one's win
//! rate with its Wilson interval) and how far apart they play (the style spread per feature),
//! whether the strength passes the floor, and the strength chosen ([`choose`]); the table
//! `calibration_strengths.csv` (and `sensitivity_strengths.csv`) that holds it.

use crate::experiments::sensitivity::GenomeGames;
use crate::experiments::sensitivity::tables::{Interval, cell_width, num, opt, paired};
use crate::qd::FeatureAxis;
use crate::report::csv::CsvTable;
use crate::stats::wilson_interval;

/// How far below the floor a lower bound may fall by rounding alone and still pass: 3 wins
/// of 4 at z = 1 have the lower bound ½, computed as 0.49999999999999994.
const ROUNDING: f64 = 1e-9;

/// One extreme genome's win rate at one strength.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtremeRate {
    /// Its label (`min:F`, `max:F`).
    pub label: String,
    /// Games played.
    pub games: u64,
    /// Games won (alone in first place).
    pub wins: u64,
    /// Lower end of the win rate's Wilson interval at the trade-off's `z`.
    pub lo: f64,
}

/// One strength of the ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct Rung {
    /// The strength.
    pub strength: f64,
    /// Its extremes, in the order played (`min:F`, `max:F` per feature).
    pub extremes: Vec<ExtremeRate>,
    /// Per feature, in axis order: `max:F` − `min:F` over paired games, in cell widths, with
    /// its 95 % interval (Student's t; no interval under two pairs).
    pub spread: Vec<Interval>,
    /// Every extreme's lower bound is at least the floor (to rounding, 1e-9).
    pub passes: bool,
}

impl Rung {
    /// The extreme of the lowest lower bound (the first of equals), if any.
    pub fn lowest(&self) -> Option<&ExtremeRate> {
        self.extremes
            .iter()
            .fold(None, |best: Option<&ExtremeRate>, e| match best {
                Some(b) if b.lo <= e.lo => Some(b),
                _ => Some(e),
            })
    }
}

/// The trade-off over a ladder of strengths, and the strength chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Tradeoff {
    /// The style-strength field.
    pub field: String,
    /// The map's axes.
    pub axes: Vec<FeatureAxis>,
    /// The least lower bound an extreme must reach.
    pub floor: f64,
    /// Width of the Wilson interval.
    pub z: f64,
    /// The strengths, ascending.
    pub rungs: Vec<Rung>,
    /// The index of the rung chosen ([`choose`]).
    pub chosen: usize,
    /// Whether the rung chosen passes (false: the weakest failed, and was taken all the same).
    pub passed: bool,
}

/// The strength a ladder's passes choose: the strongest before the first that fails (the
/// index and true), or the weakest when it fails (0 and false). Win rates fall as the style
/// grows, so a rung that passes above one that failed is most likely noise on a style too
/// strong, and is not taken.
pub fn choose(passes: &[bool]) -> (usize, bool) {
    match passes.iter().position(|p| !p) {
        Some(0) => (0, false),
        Some(i) => (i - 1, true),
        None if passes.is_empty() => (0, false),
        None => (passes.len() - 1, true),
    }
}

impl Tradeoff {
    /// The trade-off of `rungs` (per strength, ascending: its extremes, `min:F` then `max:F`
    /// per axis of `axes`, each with its games, game `j` on the same seed for all) for the
    /// style field `field`, with the `floor` and the Wilson interval's `z`.
    pub fn new(
        field: &str,
        axes: Vec<FeatureAxis>,
        floor: f64,
        z: f64,
        rungs: Vec<(f64, Vec<GenomeGames>)>,
    ) -> Self {
        let rungs: Vec<Rung> = rungs
            .into_iter()
            .map(|(strength, genomes)| {
                let extremes: Vec<ExtremeRate> = genomes
                    .iter()
                    .map(|g| {
                        let games = g.games.len() as u64;
                        let wins = g.games.iter().filter(|x| x.won).count() as u64;
                        ExtremeRate {
                            label: g.probe.label.clone(),
                            games,
                            wins,
                            lo: wilson_interval(wins, games, z).0,
                        }
                    })
                    .collect();
                let find = |label: String| genomes.iter().find(|g| g.probe.label == label);
                let spread = axes
                    .iter()
                    .enumerate()
                    .map(|(k, a)| {
                        let w = cell_width(a);
                        match (
                            find(format!("min:{}", a.name)),
                            find(format!("max:{}", a.name)),
                        ) {
                            (Some(low), Some(high)) => {
                                let d = paired(low, high, k + 1);
                                Interval {
                                    mean: d.mean / w,
                                    sd: d.sd / w,
                                    lo: d.lo.map(|x| x / w),
                                    hi: d.hi.map(|x| x / w),
                                    n: d.n,
                                }
                            }
                            _ => Interval::of(&[]),
                        }
                    })
                    .collect();
                let passes =
                    !extremes.is_empty() && extremes.iter().all(|e| e.lo >= floor - ROUNDING);
                Rung {
                    strength,
                    extremes,
                    spread,
                    passes,
                }
            })
            .collect();
        let passes: Vec<bool> = rungs.iter().map(|r| r.passes).collect();
        let (chosen, passed) = choose(&passes);
        Tradeoff {
            field: field.to_string(),
            axes,
            floor,
            z,
            rungs,
            chosen,
            passed,
        }
    }

    /// The strength chosen.
    pub fn chosen_strength(&self) -> f64 {
        self.rungs.get(self.chosen).map_or(0.0, |r| r.strength)
    }

    /// The table of strengths (`calibration_strengths.csv`): per strength `strength`,
    /// `win_rate_lo_min` (the lowest lower bound of its extremes' win rates) and `lowest` (that
    /// extreme's label), per feature `f` `spread_<f>` (`max:f` − `min:f`, in cell widths) with
    /// its 95 % interval `spread_<f>_lo`, `spread_<f>_hi`, then `passes` and `chosen`
    /// (`true`/`false`).
    pub fn table(&self) -> CsvTable {
        let mut header: Vec<String> = ["strength", "win_rate_lo_min", "lowest"]
            .map(String::from)
            .to_vec();
        for a in &self.axes {
            for suffix in ["", "_lo", "_hi"] {
                header.push(format!("spread_{}{suffix}", a.name));
            }
        }
        header.extend(["passes", "chosen"].map(String::from));
        let mut t = CsvTable::new(header);
        for (i, r) in self.rungs.iter().enumerate() {
            let lowest = r.lowest();
            let mut row = vec![
                num(r.strength),
                opt(lowest.map(|e| e.lo)),
                lowest.map_or_else(String::new, |e| e.label.clone()),
            ];
            for s in &r.spread {
                row.extend([num(s.mean), opt(s.lo), opt(s.hi)]);
            }
            row.extend([r.passes.to_string(), (i == self.chosen).to_string()]);
            t.rows.push(row);
        }
        t
    }

    /// The trade-off as printed: a line per strength (lowest lower bound, the extreme that
    /// has it, the spread per feature), then the strength chosen and why; when no strength
    /// passes and the archive has a strength floor (`floored`), a warning that the map will
    /// hold few elites.
    pub fn printed(&self, floored: bool) -> String {
        let mut s = format!(
            "style strength `{}`: per strength the lowest lower bound (z = {}) of the extremes' \
             win rates, floor {:.1} %, and the spread max:F - min:F in cell widths\n",
            self.field,
            self.z,
            100.0 * self.floor
        );
        let label_w = self
            .rungs
            .iter()
            .filter_map(|r| r.lowest().map(|e| e.label.chars().count()))
            .max()
            .unwrap_or(0)
            .max(7);
        s += &format!(
            "{:>9}  {:>9}  {:<label_w$}",
            "strength", "lowest lo", "extreme"
        );
        for a in &self.axes {
            s += &format!("  {:>w$}", a.name, w = a.name.chars().count().max(6));
        }
        s.push('\n');
        for (i, r) in self.rungs.iter().enumerate() {
            let lowest = r.lowest();
            s += &format!(
                "{:>9}  {:>9}  {:<label_w$}",
                num(r.strength),
                lowest.map_or("-".into(), |e| format!("{:.1} %", 100.0 * e.lo)),
                lowest.map_or("-", |e| e.label.as_str()),
            );
            for (a, sp) in self.axes.iter().zip(&r.spread) {
                let w = a.name.chars().count().max(6);
                s += &format!("  {:>w$}", format!("{:+.2}", sp.mean));
            }
            let mark = match (r.passes, i == self.chosen) {
                (true, true) => "  passes, chosen",
                (false, true) => "  fails, chosen (the weakest)",
                (true, false) => "  passes",
                (false, false) => "  fails",
            };
            s += mark;
            s.push('\n');
        }
        let why = if self.passed {
            "the strongest style before the first whose extremes fall below the floor"
        } else {
            "no strength passes: the weakest is taken"
        };
        s += &format!(
            "chosen: {} = {} ({why})\n",
            self.field,
            num(self.chosen_strength())
        );
        if !self.passed && floored {
            s += "warning: even the weakest style's extremes lose to the baseline more often \
                  than the floor allows, and a genome enters the map only once its win rate \
                  clears the floor: expect few elites. Give a weaker baseline, or a lower \
                  [calibration] floor and [map_elites.adaptive] min_win_rate\n";
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::sensitivity::{PlayedGame, Probe};

    #[test]
    fn the_choice_is_the_strongest_before_the_first_failure() {
        assert_eq!(choose(&[true, true, false, true]), (1, true));
        assert_eq!(choose(&[true, true, true]), (2, true));
        assert_eq!(choose(&[false, true, true]), (0, false));
        assert_eq!(choose(&[true]), (0, true));
        assert_eq!(choose(&[false]), (0, false));
        assert_eq!(choose(&[]), (0, false));
    }

    /// A genome `label` whose games are won where `wins[j]`, with feature values `f`.
    fn genome(label: &str, wins: &[bool], f: &[f64]) -> GenomeGames {
        GenomeGames {
            probe: Probe {
                label: label.into(),
                values: vec![0.0],
            },
            games: wins
                .iter()
                .zip(f)
                .map(|(&won, &x)| PlayedGame {
                    won,
                    draw: false,
                    features: vec![Some(x)],
                })
                .collect(),
        }
    }

    #[test]
    fn rungs_pass_on_every_extremes_lower_bound_and_spread_in_cells() {
        let axis = FeatureAxis::bucket("f", 0.0, 10.0, 2.0).unwrap();
        let all = [true; 8];
        let mut half = [true; 8];
        half[..4].fill(false);
        let rungs = vec![
            // Strength 0: both win every game; f apart by 2 (one cell).
            (
                0.0,
                vec![
                    genome("min:f", &all, &[1.0; 8]),
                    genome("max:f", &all, &[3.0; 8]),
                ],
            ),
            // Strength 1: max:f wins half its games, f apart by 6 (three cells).
            (
                1.0,
                vec![
                    genome("min:f", &all, &[1.0; 8]),
                    genome("max:f", &half, &[7.0; 8]),
                ],
            ),
        ];
        let t = Tradeoff::new("persona", vec![axis.clone()], 0.5, 1.0, rungs);
        // 8 of 8 at z = 1: lower bound 8/9; 4 of 8: below 0.5.
        let (lo8, _) = wilson_interval(8, 8, 1.0);
        assert!((t.rungs[0].extremes[0].lo - lo8).abs() < 1e-12);
        assert!(t.rungs[0].passes && !t.rungs[1].passes);
        assert_eq!(t.rungs[1].lowest().unwrap().label, "max:f");
        assert_eq!((t.chosen, t.passed, t.chosen_strength()), (0, true, 0.0));
        assert_eq!(t.rungs[0].spread[0].mean, 1.0);
        assert_eq!(t.rungs[1].spread[0].mean, 3.0);
        let table = t.table();
        assert_eq!(
            table.header,
            [
                "strength",
                "win_rate_lo_min",
                "lowest",
                "spread_f",
                "spread_f_lo",
                "spread_f_hi",
                "passes",
                "chosen"
            ]
        );
        assert_eq!(table.rows[0][0], "0");
        assert_eq!(table.rows[0][3], "1");
        // Every pair differs by exactly 2: no spread, so the interval is the point.
        assert_eq!(table.rows[0][4], "1");
        assert_eq!(&table.rows[0][6..], ["true", "true"]);
        assert_eq!(&table.rows[1][6..], ["false", "false"]);
        let printed = t.printed(true);
        assert!(printed.contains("chosen: persona = 0"), "{printed}");
        assert!(!printed.contains("warning"), "{printed}");
        // Only the failing strength: the weakest is taken, with a warning of an empty map.
        let failing = Tradeoff::new(
            "persona",
            vec![axis.clone()],
            0.5,
            1.0,
            vec![(
                1.0,
                vec![
                    genome("min:f", &all, &[1.0; 8]),
                    genome("max:f", &half, &[7.0; 8]),
                ],
            )],
        );
        let printed = failing.printed(true);
        assert!(!failing.passed, "{printed}");
        assert!(
            printed.contains("no strength passes") && printed.contains("expect few elites"),
            "{printed}"
        );
        // Without a floor in the archive, no warning.
        let printed = failing.printed(false);
        assert!(printed.contains("no strength passes"), "{printed}");
        assert!(!printed.contains("warning"), "{printed}");

        // 3 wins of 4 at z = 1: the lower bound is ½ exactly, which passes a floor of ½.
        let three = [true, true, true, false];
        let rung = vec![(
            0.0,
            vec![
                genome("min:f", &three, &[1.0; 4]),
                genome("max:f", &three, &[1.0; 4]),
            ],
        )];
        let t = Tradeoff::new("persona", vec![axis], 0.5, 1.0, rung);
        assert!(t.rungs[0].extremes[0].lo < 0.5 && t.rungs[0].passes);
    }
}
