//! Each member's style in a designer's words, and its name (see the [module docs](super)).

use super::play::MemberGames;

/// The most statistics a style lists.
const MOST: usize = 5;
/// The fewest it lists (when the members' statistics vary at all).
const FEWEST: usize = 3;
/// How far (in pooled standard deviations) a statistic beyond the first [`FEWEST`] must lie
/// from the roster's mean to be listed.
const APART: f64 = 1.0;

/// How correlated (in absolute value, over the roster's training games) a statistic may be
/// with one listed before it: beyond, it says the same (a role's share of the picks and its
/// picks per turn) and is skipped.
const SAME: f64 = 0.9;

/// The Pearson correlation of statistics `a` and `b` over the training games of `members`
/// where both are defined (0 where either has no spread).
fn correlation(members: &[MemberGames], a: usize, b: usize) -> f64 {
    let pairs: Vec<(f64, f64)> = members
        .iter()
        .flat_map(|m| &m.train)
        .filter_map(|g| Some((g.stats[a]?, g.stats[b]?)))
        .collect();
    let n = pairs.len().max(1) as f64;
    let (ma, mb) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in &pairs {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa <= 0.0 || sbb <= 0.0 {
        0.0
    } else {
        sab / (saa * sbb).sqrt()
    }
}

/// One statistic that sets a member apart.
#[derive(Clone, Debug, PartialEq)]
pub struct Trait {
    /// The statistic's name (`kind:attack/turn`).
    pub statistic: String,
    /// The member's mean over its training games.
    pub mean: f64,
    /// The roster's mean: the mean of its members' means.
    pub roster_mean: f64,
    /// `(mean − roster_mean) / pooled standard deviation`.
    pub z: f64,
}

impl Trait {
    /// The trait in words: `high shipping_pct: 1.6× the roster's mean (62.1 vs 38.9)`, or, when
    /// the roster's mean is not positive or the member's is negative, in standard deviations
    /// (`low growth of gold per turn: 1.2 sd below the roster's mean (-0.500 vs 0.300)`).
    pub fn words(&self) -> String {
        let side = if self.z >= 0.0 { "high" } else { "low" };
        let label = label(&self.statistic);
        let values = format!("({} vs {})", short(self.mean), short(self.roster_mean));
        if self.roster_mean > 0.0 && self.mean >= 0.0 {
            let ratio = self.mean / self.roster_mean;
            format!(
                "{side} {label}: {}× the roster's mean {values}",
                short(ratio)
            )
        } else {
            let dir = if self.z >= 0.0 { "above" } else { "below" };
            format!(
                "{side} {label}: {:.1} sd {dir} the roster's mean {values}",
                self.z.abs()
            )
        }
    }

    /// The trait as a name: `high-` or `low-` and the statistic's short form
    /// (`high-attack`, `low-shipping_pct`, `high-gold-slope`).
    pub fn name(&self) -> String {
        let side = if self.z >= 0.0 { "high" } else { "low" };
        let short = match self.statistic.split_once(':') {
            Some(("slope", s)) => format!("{s}-slope"),
            Some((_, s)) => s.trim_end_matches("/turn").to_string(),
            None => self.statistic.trim_end_matches("/turn").to_string(),
        };
        let clean: String = short
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("{side}-{clean}")
    }
}

/// A statistic's name as a designer reads it: `kind:K/turn` → `K actions per turn`,
/// `label:L/turn` → `L per turn`, `final:S` → `final S`, `slope:S` → `growth of S per turn`;
/// the game's own features as named.
fn label(statistic: &str) -> String {
    match statistic.split_once(':') {
        Some(("kind", k)) => match k.strip_suffix("/turn") {
            Some(k) => format!("{k} actions per turn"),
            None => format!("{k} actions"),
        },
        Some(("label", l)) => match l.strip_suffix("/turn") {
            Some(l) => format!("{l} per turn"),
            None => l.to_string(),
        },
        Some(("final", s)) => format!("final {s}"),
        Some(("slope", s)) => format!("growth of {s} per turn"),
        _ => statistic.to_string(),
    }
}

/// A number with three significant digits (no exponent below a million).
fn short(x: f64) -> String {
    let a = x.abs();
    if a >= 100.0 || a == 0.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// Each member's traits, most distinctive first: over the members' training games, per
/// statistic named in `names`, each member's mean (over the games where it is defined), the
/// roster's mean of those, and the pooled standard deviation (the square root of the mean of
/// the members' variances); the statistics sorted by `|z|` (ties by their order in `names`),
/// the first three kept and up to five as long as `|z| ≥ 1`, each skipped if it is
/// correlated at 0.9 or more (in absolute value, over the roster's training games) with one
/// kept before it. Statistics with no spread within the members are skipped.
pub fn traits(members: &[MemberGames], names: &[String]) -> Vec<Vec<Trait>> {
    let k = members.len();
    let mut stats: Vec<(Vec<f64>, f64, f64)> = Vec::new(); // per statistic: means, roster mean, pooled sd
    for j in 0..names.len() {
        let mut means = Vec::with_capacity(k);
        let mut var_sum = 0.0;
        for m in members {
            let xs: Vec<f64> = m.train.iter().filter_map(|g| g.stats[j]).collect();
            let (mean, sd) = crate::features::mean_sd(&xs);
            means.push(mean);
            var_sum += sd * sd;
        }
        let roster = means.iter().sum::<f64>() / k.max(1) as f64;
        let pooled = (var_sum / k.max(1) as f64).sqrt();
        stats.push((means, roster, pooled));
    }
    (0..k)
        .map(|i| {
            let mut all: Vec<Trait> = stats
                .iter()
                .zip(names)
                .filter(|((_, _, sd), _)| *sd > 1e-12)
                .map(|((means, roster, sd), name)| Trait {
                    statistic: name.clone(),
                    mean: means[i],
                    roster_mean: *roster,
                    z: (means[i] - roster) / sd,
                })
                .collect();
            // Stable: ties keep the order of `names`.
            all.sort_by(|a, b| b.z.abs().total_cmp(&a.z.abs()));
            let mut kept: Vec<Trait> = Vec::new();
            let mut columns: Vec<usize> = Vec::new();
            for t in all {
                if kept.len() >= MOST || (kept.len() >= FEWEST && t.z.abs() < APART) {
                    break;
                }
                let j = names.iter().position(|n| *n == t.statistic).unwrap_or(0);
                if columns
                    .iter()
                    .any(|&c| correlation(members, c, j).abs() >= SAME)
                {
                    continue;
                }
                columns.push(j);
                kept.push(t);
            }
            kept
        })
        .collect()
}

/// A unique name per member from its traits ([`Trait::name`]): the first of its traits' names
/// no member before it took; if all are taken, its first trait's name and `-2`, `-3`, … (the
/// first free); `member-N` (N its place, from 1) for a member without traits.
pub fn member_names(traits: &[Vec<Trait>]) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(traits.len());
    for (i, ts) in traits.iter().enumerate() {
        let free = |n: &String, names: &[String]| !names.contains(n);
        let own: Vec<String> = ts.iter().map(Trait::name).collect();
        let name = match own.iter().find(|n| free(n, &names)) {
            Some(n) => n.clone(),
            None => {
                let stem = own
                    .first()
                    .cloned()
                    .unwrap_or_else(|| format!("member-{}", i + 1));
                (1..)
                    .map(|k| {
                        if k == 1 {
                            stem.clone()
                        } else {
                            format!("{stem}-{k}")
                        }
                    })
                    .find(|n| free(n, &names))
                    .unwrap_or(stem)
            }
        };
        names.push(name);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::roster::GameRow;

    fn member(cell: usize, a: f64, b: f64) -> MemberGames {
        let game = |i: usize| GameRow {
            level: "1".into(),
            won: false,
            draw: false,
            score: 0.0,
            stats: vec![
                Some(a + (i % 2) as f64),
                Some(b + (i % 2) as f64),
                Some(1.0),
            ],
        };
        MemberGames {
            cell,
            spec: "x".into(),
            train: (0..4).map(game).collect(),
            test: Vec::new(),
        }
    }

    #[test]
    fn traits_rank_by_distance_and_read_as_words() {
        let names: Vec<String> = ["kind:attack/turn", "slope:gold", "final:cities"]
            .map(String::from)
            .to_vec();
        let ms = [
            member(1, 9.0, 0.0),
            member(2, 1.0, 0.5),
            member(3, 2.0, -1.0),
        ];
        let ts = traits(&ms, &names);
        // The constant statistic has no spread: two traits each.
        assert_eq!(ts[0].len(), 2);
        assert_eq!(ts[0][0].statistic, "kind:attack/turn");
        // Attacks: means 9.5, 1.5, 2.5 → roster 4.5; pooled sd 0.5.
        assert_eq!(ts[0][0].z, 10.0);
        assert_eq!(
            ts[0][0].words(),
            "high attack actions per turn: 2.11× the roster's mean (9.50 vs 4.50)"
        );
        assert_eq!(ts[0][0].name(), "high-attack");
        let slope = ts[2].iter().find(|t| t.statistic == "slope:gold").unwrap();
        assert!(
            slope
                .words()
                .starts_with("low growth of gold per turn: 1.7 sd below"),
            "{}",
            slope.words()
        );
        assert_eq!(slope.name(), "low-gold-slope");
        let names = member_names(&ts);
        assert_eq!(names, ["high-attack", "low-attack", "low-gold-slope"]);
    }

    #[test]
    fn names_are_unique_even_when_traits_repeat() {
        let t = |s: &str, z: f64| Trait {
            statistic: s.into(),
            mean: 1.0,
            roster_mean: 1.0,
            z,
        };
        let ts = vec![
            vec![t("x", 2.0)],
            vec![t("x", 3.0)],
            vec![t("x", 1.0)],
            Vec::new(),
        ];
        assert_eq!(
            member_names(&ts),
            ["high-x", "high-x-2", "high-x-3", "member-4"]
        );
    }
}
