//! Play-style features (behaviour descriptors) computed from game records: every feature of
//! the reference MAP-Elites (spec §16) plus the paper's support-unit balance.
//!
//! A feature has a value per game (or none, for the features defined on won games only) and
//! is aggregated over an evaluation's games as a mean and a standard deviation. Features read
//! records through game-independent names (the statistic `techs`, the label `spawn.archer`,
//! the action kind `attack`), so any game that reports those names supports them.

use crate::arena::PlayerRecord;
use crate::error::{Error, Result};

/// A play-style feature, selectable by name in configs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// `win`: 100 × won (per game); the mean is the win percentage.
    Win,
    /// `score`: final score.
    Score,
    /// `attacks`: ATTACK actions played.
    Attacks,
    /// `perc_range`: 5 + (archers + catapults) − (knights + swordsmen) spawned.
    PercRange,
    /// `production`: final production.
    Production,
    /// `num_spawn_archers`: archers spawned.
    SpawnArchers,
    /// `num_spawn_catapults`: catapults spawned.
    SpawnCatapults,
    /// `num_spawn_knights`: knights spawned.
    SpawnKnights,
    /// `num_spawn_swordman`: swordsmen spawned (the reference's spelling).
    SpawnSwordsmen,
    /// `num_spawn_defender`: defenders spawned.
    SpawnDefenders,
    /// `speed_win`: round of the player's last action, in won games only (0 if none won).
    SpeedWin,
    /// `research_progress`: 10 × least-squares slope of techs per turn, won games only.
    ResearchProgress,
    /// `owned_tiles_progress`: 10 × least-squares slope of tiles owned per turn, won games only.
    OwnedTilesProgress,
    /// `support_balance`: (archers + catapults) − (knights + swordsmen) spawned: the paper's
    /// ranged-minus-melee balance (`perc_range` without its offset of 5).
    SupportBalance,
}

impl Feature {
    /// Every feature.
    pub const ALL: [Feature; 14] = [
        Feature::Win,
        Feature::Score,
        Feature::Attacks,
        Feature::PercRange,
        Feature::Production,
        Feature::SpawnArchers,
        Feature::SpawnCatapults,
        Feature::SpawnKnights,
        Feature::SpawnSwordsmen,
        Feature::SpawnDefenders,
        Feature::SpeedWin,
        Feature::ResearchProgress,
        Feature::OwnedTilesProgress,
        Feature::SupportBalance,
    ];

    /// The name used in configs and CSV columns.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Win => "win",
            Feature::Score => "score",
            Feature::Attacks => "attacks",
            Feature::PercRange => "perc_range",
            Feature::Production => "production",
            Feature::SpawnArchers => "num_spawn_archers",
            Feature::SpawnCatapults => "num_spawn_catapults",
            Feature::SpawnKnights => "num_spawn_knights",
            Feature::SpawnSwordsmen => "num_spawn_swordman",
            Feature::SpawnDefenders => "num_spawn_defender",
            Feature::SpeedWin => "speed_win",
            Feature::ResearchProgress => "research_progress",
            Feature::OwnedTilesProgress => "owned_tiles_progress",
            Feature::SupportBalance => "support_balance",
        }
    }

    /// Looks a feature up by name.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `field` and listing the known names.
    pub fn from_name(name: &str, field: &str) -> Result<Feature> {
        Feature::ALL
            .iter()
            .copied()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
                Error::config(
                    field,
                    format!("unknown feature `{name}` (known: {})", known.join(", ")),
                )
            })
    }

    /// True for the features defined on won games only (0 when no game was won).
    pub fn won_games_only(self) -> bool {
        matches!(
            self,
            Feature::SpeedWin | Feature::ResearchProgress | Feature::OwnedTilesProgress
        )
    }

    /// The feature's value in one game, or `None` where it is not defined (a lost game for
    /// the won-games-only features).
    pub fn per_game(self, g: &GameView<'_>) -> Option<f64> {
        if self.won_games_only() && !g.won {
            return None;
        }
        let spawns = |unit: &str| g.record.label_count(&format!("spawn.{unit}")) as f64;
        let balance =
            || spawns("archer") + spawns("catapult") - spawns("knight") - spawns("swordsman");
        Some(match self {
            Feature::Win => 100.0 * g.won as u8 as f64,
            Feature::Score => g.final_stat("score"),
            Feature::Attacks => g.actions_of("attack"),
            Feature::PercRange => 5.0 + balance(),
            Feature::Production => g.final_stat("production"),
            Feature::SpawnArchers => spawns("archer"),
            Feature::SpawnCatapults => spawns("catapult"),
            Feature::SpawnKnights => spawns("knight"),
            Feature::SpawnSwordsmen => spawns("swordsman"),
            Feature::SpawnDefenders => spawns("defender"),
            Feature::SpeedWin => g.record.last_action_round as f64,
            Feature::ResearchProgress => 10.0 * g.slope("techs"),
            Feature::OwnedTilesProgress => 10.0 * g.slope("tiles"),
            Feature::SupportBalance => balance(),
        })
    }

    /// Mean and (population) standard deviation over the games where the feature is defined;
    /// `(0, 0)` if it is defined in none.
    pub fn aggregate(self, games: &[GameView<'_>]) -> (f64, f64) {
        let xs: Vec<f64> = games.iter().filter_map(|g| self.per_game(g)).collect();
        mean_sd(&xs)
    }
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

/// One player's view of one game: its record, whether it won, and the game's names for
/// statistics and action kinds.
#[derive(Clone, Copy, Debug)]
pub struct GameView<'a> {
    /// The player won the game.
    pub won: bool,
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

    /// Actions of the named kind played (0 if the game has no such kind).
    pub fn actions_of(&self, kind: &str) -> f64 {
        self.action_kinds
            .iter()
            .position(|k| *k == kind)
            .map_or(0.0, |k| self.record.actions_of_kind(k as u8) as f64)
    }

    /// Least-squares slope of a per-turn statistic against the turn index.
    pub fn slope(&self, name: &str) -> f64 {
        let Some(i) = self.stat_index(name) else {
            return 0.0;
        };
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
        labels.insert("spawn.catapult".to_string(), 1);
        labels.insert("spawn.knight".to_string(), 2);
        labels.insert("spawn.defender".to_string(), 4);
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

    fn view(r: &PlayerRecord, won: bool) -> GameView<'_> {
        GameView {
            won,
            record: r,
            stat_names: &STATS,
            action_kinds: &KINDS,
        }
    }

    #[test]
    fn every_feature_reads_its_documented_quantity() {
        let r = record();
        let g = view(&r, true);
        let v = |f: Feature| f.per_game(&g).unwrap();
        assert_eq!(v(Feature::Win), 100.0);
        assert_eq!(v(Feature::Score), 1234.0);
        assert_eq!(v(Feature::Attacks), 7.0);
        // 5 + (3 archers + 1 catapult) − (2 knights + 0 swordsmen) = 7.
        assert_eq!(v(Feature::PercRange), 7.0);
        assert_eq!(v(Feature::SupportBalance), 2.0);
        assert_eq!(v(Feature::Production), 6.0);
        assert_eq!(v(Feature::SpawnArchers), 3.0);
        assert_eq!(v(Feature::SpawnCatapults), 1.0);
        assert_eq!(v(Feature::SpawnKnights), 2.0);
        assert_eq!(v(Feature::SpawnSwordsmen), 0.0);
        assert_eq!(v(Feature::SpawnDefenders), 4.0);
        assert_eq!(v(Feature::SpeedWin), 33.0);
        assert!((v(Feature::ResearchProgress) - 10.0).abs() < 1e-12);
        assert!((v(Feature::OwnedTilesProgress) - 30.0).abs() < 1e-12);
    }

    #[test]
    fn won_games_only_features_skip_lost_games_and_default_to_zero() {
        let r = record();
        let lost = view(&r, false);
        assert_eq!(Feature::SpeedWin.per_game(&lost), None);
        assert_eq!(Feature::SpeedWin.aggregate(&[lost, lost]), (0.0, 0.0));
        let won = view(&r, true);
        assert_eq!(Feature::SpeedWin.aggregate(&[lost, won]), (33.0, 0.0));
        assert_eq!(Feature::Win.aggregate(&[lost, won]), (50.0, 50.0));
    }

    #[test]
    fn names_round_trip_and_unknown_names_are_errors_naming_the_field() {
        for f in Feature::ALL {
            assert_eq!(Feature::from_name(f.name(), "x").unwrap(), f);
        }
        match Feature::from_name("attaks", "features[0].name") {
            Err(Error::Config { field, .. }) => assert_eq!(field, "features[0].name"),
            other => panic!("{other:?}"),
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
