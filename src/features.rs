//! Play-style features (behaviour descriptors) computed from game records.
//!
//! A [`Feature`] is resolved by name against one game: a generic descriptor every game has
//! (counts of actions per kind and label, a statistic's final value or per-turn slope, win,
//! rank; per game or per turn; optionally over won games only) or a [`Composite`] the game
//! defines (Tribes: the features of the reference MAP-Elites, spec §16). A feature has a value
//! per game (or none, for features defined on won games only) and is aggregated over an
//! evaluation's games as a mean and a standard deviation. A name the game does not have is an
//! error listing the names it has.

use crate::arena::PlayerRecord;
use crate::error::{Error, Result};
use crate::game::GameInfo;

/// A play-style feature a game defines under its own name (Tribes: `attacks`,
/// `support_balance`, …), computed from one player's view of one game.
#[derive(Clone, Copy)]
pub struct Composite {
    /// The name configs use (no `:`, `/` or `@`, which the generic names use).
    pub name: &'static str,
    /// One line saying what it measures (listed by `playstyles games`).
    pub doc: &'static str,
    /// Defined on won games only (0 when no game was won).
    pub won_only: bool,
    /// The value in one game.
    pub value: fn(&GameView<'_>) -> f64,
}

impl Composite {
    /// A feature defined on every game.
    pub const fn every(
        name: &'static str,
        doc: &'static str,
        value: fn(&GameView<'_>) -> f64,
    ) -> Composite {
        Composite {
            name,
            doc,
            won_only: false,
            value,
        }
    }

    /// A feature defined on won games only.
    pub const fn won(
        name: &'static str,
        doc: &'static str,
        value: fn(&GameView<'_>) -> f64,
    ) -> Composite {
        Composite {
            won_only: true,
            ..Composite::every(name, doc, value)
        }
    }
}

impl std::fmt::Debug for Composite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Composite")
            .field("name", &self.name)
            .field("won_only", &self.won_only)
            .finish_non_exhaustive()
    }
}

/// What a feature measures in one game, before the `/turn` and `@won` modifiers.
#[derive(Clone, Debug)]
enum Measure {
    /// `win`: 100 × alone in first place.
    Win,
    /// `rank`: the player's rank (1 = first, ties shared).
    Rank,
    /// `kind:K`: actions of kind `K` played.
    Kind(u8),
    /// `label:L`: actions labelled `L` played.
    Label(&'static str),
    /// `final:S`: final value of statistic `S`.
    Final(usize),
    /// `slope:S`: least-squares slope of statistic `S` per turn.
    Slope(usize),
    /// A game's own feature.
    Composite(Composite),
}

/// A play-style feature resolved against one game: a generic descriptor or one of the game's
/// [`Composite`]s.
///
/// Generic names, for every game: `win` (100 × won, so the mean is the win percentage),
/// `rank`, `kind:K` (actions of kind `K`), `label:L` (actions labelled `L`), `final:S` (final
/// value of statistic `S`), `slope:S` (least-squares slope of `S` over the player's turns).
/// Any of them may end in `/turn` (divided by the player's number of turns) and then `@won`
/// (defined on won games only), e.g. `kind:attack/turn@won`; a game's composites may end in
/// `/turn` too.
#[derive(Clone, Debug)]
pub struct Feature {
    name: String,
    measure: Measure,
    per_turn: bool,
    won_only: bool,
}

impl Feature {
    /// Resolves a feature name for a game with facts `info` and features `composites`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `field` and listing the game's features, for a name the game
    /// does not have.
    pub fn resolve(
        name: &str,
        field: &str,
        info: &GameInfo,
        composites: &[Composite],
    ) -> Result<Feature> {
        let unknown = |what: String| {
            Error::config(
                field,
                format!(
                    "{what}; {} has: {}",
                    info.name,
                    feature_names(info, composites).join(", ")
                ),
            )
        };
        let (rest, won_suffix) = match name.strip_suffix("@won") {
            Some(r) => (r, true),
            None => (name, false),
        };
        let (base, per_turn) = match rest.strip_suffix("/turn") {
            Some(b) => (b, true),
            None => (rest, false),
        };
        let find = |names: &[&'static str], x: &str| names.iter().position(|n| *n == x);
        let measure = match base.split_once(':') {
            None => match base {
                "win" => Measure::Win,
                "rank" => Measure::Rank,
                _ => match composites.iter().find(|c| c.name == base) {
                    Some(c) => Measure::Composite(*c),
                    None => return Err(unknown(format!("unknown feature `{name}`"))),
                },
            },
            Some((source, arg)) => {
                let missing = |what: &str| unknown(format!("{} has no {what} `{arg}`", info.name));
                match source {
                    "kind" => Measure::Kind(
                        find(info.action_kinds, arg).ok_or_else(|| missing("action kind"))? as u8,
                    ),
                    "label" => Measure::Label(
                        info.action_labels
                            .iter()
                            .find(|l| **l == arg)
                            .ok_or_else(|| missing("action label"))?,
                    ),
                    "final" => {
                        Measure::Final(find(info.stats, arg).ok_or_else(|| missing("statistic"))?)
                    }
                    "slope" => {
                        Measure::Slope(find(info.stats, arg).ok_or_else(|| missing("statistic"))?)
                    }
                    _ => return Err(unknown(format!("unknown feature `{name}`"))),
                }
            }
        };
        let won_only = won_suffix || matches!(&measure, Measure::Composite(c) if c.won_only);
        Ok(Feature {
            name: name.to_string(),
            measure,
            per_turn,
            won_only,
        })
    }

    /// The name it was resolved from (configs, CSV columns).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// True for a feature defined on won games only (0 when no game was won).
    pub fn won_games_only(&self) -> bool {
        self.won_only
    }

    /// The feature's value in one game, or `None` where it is not defined (a lost game for
    /// the won-games-only features).
    pub fn per_game(&self, g: &GameView<'_>) -> Option<f64> {
        if self.won_only && !g.won {
            return None;
        }
        let v = match &self.measure {
            Measure::Win => 100.0 * g.won as u8 as f64,
            Measure::Rank => f64::from(g.rank),
            Measure::Kind(k) => f64::from(g.record.actions_of_kind(*k)),
            Measure::Label(l) => f64::from(g.record.label_count(l)),
            Measure::Final(i) => g.record.final_stat(*i).unwrap_or(0.0),
            Measure::Slope(i) => g.slope_of(*i),
            Measure::Composite(c) => (c.value)(g),
        };
        Some(if self.per_turn {
            v / g.record.turns.len().max(1) as f64
        } else {
            v
        })
    }

    /// Mean and (population) standard deviation over the games where the feature is defined;
    /// `(0, 0)` if it is defined in none.
    pub fn aggregate(&self, games: &[GameView<'_>]) -> (f64, f64) {
        let xs: Vec<f64> = games.iter().filter_map(|g| self.per_game(g)).collect();
        mean_sd(&xs)
    }
}

/// Every feature name a game accepts, for error messages and `playstyles games`: its
/// composites, then the generic names (every kind, label and statistic spelled out), without
/// the `/turn` and `@won` variants.
pub fn feature_names(info: &GameInfo, composites: &[Composite]) -> Vec<String> {
    let mut names: Vec<String> = composites.iter().map(|c| c.name.to_string()).collect();
    names.extend(["win", "rank"].map(String::from));
    names.extend(info.action_kinds.iter().map(|k| format!("kind:{k}")));
    names.extend(info.action_labels.iter().map(|l| format!("label:{l}")));
    names.extend(info.stats.iter().map(|s| format!("final:{s}")));
    names.extend(info.stats.iter().map(|s| format!("slope:{s}")));
    names
}

/// Mean and population standard deviation; `(0, 0)` for no values.
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}

/// Least-squares slope of `ys` against their index (0 for fewer than two points).
pub fn slope(ys: &[f64]) -> f64 {
    let n = ys.len();
    if n < 2 {
        return 0.0;
    }
    let nf = n as f64;
    let mx = (nf - 1.0) / 2.0;
    let my = ys.iter().sum::<f64>() / nf;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (i, &y) in ys.iter().enumerate() {
        let dx = i as f64 - mx;
        sxy += dx * (y - my);
        sxx += dx * dx;
    }
    sxy / sxx
}

/// One player's view of one game: its record, whether it won, its rank, and the game's names
/// for statistics and action kinds.
#[derive(Clone, Copy, Debug)]
pub struct GameView<'a> {
    /// The player won the game (alone in first place).
    pub won: bool,
    /// The player's rank (1 = first, ties shared).
    pub rank: u8,
    /// The player's record.
    pub record: &'a PlayerRecord,
    /// Names of the per-player statistics (`GameInfo::stats`).
    pub stat_names: &'a [&'a str],
    /// Names of the action kinds (`GameInfo::action_kinds`).
    pub action_kinds: &'a [&'a str],
}

impl GameView<'_> {
    fn stat_index(&self, name: &str) -> Option<usize> {
        self.stat_names.iter().position(|n| *n == name)
    }

    /// A final statistic by name (0 if the game has no such statistic).
    pub fn final_stat(&self, name: &str) -> f64 {
        self.stat_index(name)
            .and_then(|i| self.record.final_stats.get(i))
            .copied()
            .unwrap_or(0.0)
    }

    /// Actions with the label `label` played (0 if never played).
    pub fn labelled(&self, label: &str) -> f64 {
        f64::from(self.record.label_count(label))
    }

    /// Actions of the named kind played (0 if the game has no such kind).
    pub fn actions_of(&self, kind: &str) -> f64 {
        self.action_kinds
            .iter()
            .position(|k| *k == kind)
            .map_or(0.0, |k| self.record.actions_of_kind(k as u8) as f64)
    }

    /// Least-squares slope of a per-turn statistic against the turn index (0 if the game has
    /// no such statistic).
    pub fn slope(&self, name: &str) -> f64 {
        self.stat_index(name).map_or(0.0, |i| self.slope_of(i))
    }

    /// Least-squares slope of statistic `i` against the turn index.
    pub fn slope_of(&self, i: usize) -> f64 {
        let ys: Vec<f64> = self
            .record
            .turns
            .iter()
            .filter_map(|row| row.get(i).copied())
            .collect();
        slope(&ys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn record() -> PlayerRecord {
        let mut labels = BTreeMap::new();
        labels.insert("spawn.archer".to_string(), 3);
        labels.insert("spawn.knight".to_string(), 2);
        PlayerRecord {
            actions_by_kind: vec![0, 7, 2],
            labels,
            // techs, tiles per turn: techs rise by 1 a turn, tiles by 3.
            turns: vec![
                vec![1.0, 9.0],
                vec![2.0, 12.0],
                vec![3.0, 15.0],
                vec![4.0, 18.0],
            ],
            final_stats: vec![4.0, 18.0, 1234.0, 6.0],
            last_action_round: 33,
        }
    }

    const STATS: [&str; 4] = ["techs", "tiles", "score", "production"];
    const KINDS: [&str; 3] = ["end_turn", "attack", "move"];

    fn info() -> GameInfo {
        GameInfo {
            name: "toy",
            min_players: 2,
            max_players: 2,
            actor_classes: &["player"],
            action_kinds: &KINDS,
            phases: &["main"],
            stats: &STATS,
            action_labels: &["spawn.archer", "spawn.knight"],
            chance: false,
            hidden_information: false,
        }
    }

    const DOUBLE_ATTACKS: Composite = Composite {
        name: "double_attacks",
        doc: "2 × attacks",
        won_only: true,
        value: |g| 2.0 * g.actions_of("attack"),
    };

    fn view(r: &PlayerRecord, won: bool) -> GameView<'_> {
        GameView {
            won,
            rank: if won { 1 } else { 2 },
            record: r,
            stat_names: &STATS,
            action_kinds: &KINDS,
        }
    }

    fn value(name: &str, g: &GameView<'_>) -> Option<f64> {
        Feature::resolve(name, "f", &info(), &[DOUBLE_ATTACKS])
            .unwrap()
            .per_game(g)
    }

    #[test]
    fn generic_features_read_their_documented_quantity() {
        let r = record();
        let g = view(&r, true);
        assert_eq!(value("win", &g), Some(100.0));
        assert_eq!(value("rank", &g), Some(1.0));
        assert_eq!(value("kind:attack", &g), Some(7.0));
        assert_eq!(value("kind:attack/turn", &g), Some(7.0 / 4.0));
        assert_eq!(value("label:spawn.archer", &g), Some(3.0));
        assert_eq!(value("final:score", &g), Some(1234.0));
        assert!((value("slope:tiles", &g).unwrap() - 3.0).abs() < 1e-12);
        assert_eq!(value("double_attacks", &g), Some(14.0));
        assert_eq!(value("double_attacks/turn", &g), Some(3.5));
    }

    #[test]
    fn won_games_only_features_skip_lost_games_and_default_to_zero() {
        let r = record();
        let lost = view(&r, false);
        let won = view(&r, true);
        for name in ["double_attacks", "kind:move@won", "kind:move/turn@won"] {
            assert_eq!(value(name, &lost), None, "{name}");
            assert!(value(name, &won).is_some(), "{name}");
        }
        let f = Feature::resolve("kind:move@won", "f", &info(), &[]).unwrap();
        assert!(f.won_games_only());
        assert_eq!(f.aggregate(&[lost, lost]), (0.0, 0.0));
        assert_eq!(f.aggregate(&[lost, won]), (2.0, 0.0));
        let win = Feature::resolve("win", "f", &info(), &[]).unwrap();
        assert_eq!(win.aggregate(&[lost, won]), (50.0, 50.0));
    }

    #[test]
    fn unknown_names_are_errors_naming_the_field_and_listing_the_features() {
        for bad in [
            "attaks",
            "kind:fly",
            "label:spawn.dragon",
            "final:gold",
            "slope:x",
            "foo:bar",
        ] {
            match Feature::resolve(bad, "features[0].name", &info(), &[DOUBLE_ATTACKS]) {
                Err(Error::Config { field, reason }) => {
                    assert_eq!(field, "features[0].name");
                    assert!(
                        reason.contains("double_attacks, win, rank, kind:end_turn"),
                        "{reason}"
                    );
                    assert!(reason.contains("slope:production"), "{reason}");
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
        let names = feature_names(&info(), &[DOUBLE_ATTACKS]);
        assert_eq!(names.len(), 1 + 2 + 3 + 2 + 4 + 4);
        for n in &names {
            let f = Feature::resolve(n, "f", &info(), &[DOUBLE_ATTACKS]).unwrap();
            assert_eq!(f.name(), n);
        }
    }

    #[test]
    fn slope_is_least_squares() {
        assert_eq!(slope(&[]), 0.0);
        assert_eq!(slope(&[5.0]), 0.0);
        assert!((slope(&[1.0, 3.0, 5.0]) - 2.0).abs() < 1e-12);
        // y = 0, 1, 1, 2: slope = Σ dx·dy / Σ dx² = (−1.5·−1 + −.5·0 + .5·0 + 1.5·1) / 5 = 0.6.
        assert!((slope(&[0.0, 1.0, 1.0, 2.0]) - 0.6).abs() < 1e-12);
    }
}
