//! The play-style features of Tribes: every feature of the reference MAP-Elites (spec §16) plus
//! the paper's support-unit balance, as [`Composite`]s under the reference's names.

use crate::features::{Composite, GameView};

/// Units of `unit` spawned.
fn spawns(g: &GameView<'_>, unit: &str) -> f64 {
    g.labelled(&format!("spawn.{unit}"))
}

/// (archers + catapults) − (knights + swordsmen) spawned.
fn balance(g: &GameView<'_>) -> f64 {
    spawns(g, "archer") + spawns(g, "catapult") - spawns(g, "knight") - spawns(g, "swordsman")
}

/// The Tribes features, under the reference's names.
pub static FEATURES: [Composite; 13] = [
    Composite::every("score", "final score", |g| g.final_stat("score")),
    Composite::every("attacks", "ATTACK actions played", |g| {
        g.actions_of("attack")
    }),
    Composite::every(
        "perc_range",
        "5 + (archers + catapults) − (knights + swordsmen) spawned",
        |g| 5.0 + balance(g),
    ),
    Composite::every("production", "final production", |g| {
        g.final_stat("production")
    }),
    Composite::every("num_spawn_archers", "archers spawned", |g| {
        spawns(g, "archer")
    }),
    Composite::every("num_spawn_catapults", "catapults spawned", |g| {
        spawns(g, "catapult")
    }),
    Composite::every("num_spawn_knights", "knights spawned", |g| {
        spawns(g, "knight")
    }),
    Composite::every(
        "num_spawn_swordman",
        "swordsmen spawned (the reference's spelling)",
        |g| spawns(g, "swordsman"),
    ),
    Composite::every("num_spawn_defender", "defenders spawned", |g| {
        spawns(g, "defender")
    }),
    Composite::won("speed_win", "round of the player's last action", |g| {
        g.record.last_action_round as f64
    }),
    Composite::won(
        "research_progress",
        "10 × least-squares slope of techs per turn",
        |g| 10.0 * g.slope("techs"),
    ),
    Composite::won(
        "owned_tiles_progress",
        "10 × least-squares slope of tiles owned per turn",
        |g| 10.0 * g.slope("tiles"),
    ),
    Composite::every(
        "support_balance",
        "(archers + catapults) − (knights + swordsmen) spawned: the paper's ranged-minus-melee balance",
        balance,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::PlayerRecord;
    use crate::features::Feature;
    use crate::game::Game;
    use crate::games::tribes::TribesGame;
    use std::collections::BTreeMap;

    #[test]
    fn every_feature_reads_its_documented_quantity() {
        let mut labels = BTreeMap::new();
        for (unit, n) in [
            ("archer", 3),
            ("catapult", 1),
            ("knight", 2),
            ("defender", 4),
        ] {
            labels.insert(format!("spawn.{unit}"), n);
        }
        let game = TribesGame::default();
        let info = game.info();
        let stat = |name: &str| info.stats.iter().position(|s| *s == name).unwrap();
        let mut final_stats = vec![0.0; info.stats.len()];
        final_stats[stat("score")] = 1234.0;
        final_stats[stat("production")] = 6.0;
        let turns = (1..=4)
            .map(|t| {
                let mut row = vec![0.0; info.stats.len()];
                // techs rise by 1 a turn, tiles by 3.
                row[stat("techs")] = f64::from(t);
                row[stat("tiles")] = 6.0 + 3.0 * f64::from(t);
                row
            })
            .collect();
        let attack = info
            .action_kinds
            .iter()
            .position(|k| *k == "attack")
            .unwrap();
        let mut actions_by_kind = vec![0; info.action_kinds.len()];
        actions_by_kind[attack] = 7;
        let record = PlayerRecord {
            actions_by_kind,
            labels,
            turns,
            final_stats,
            last_action_round: 33,
        };
        let g = GameView {
            won: true,
            rank: 1,
            record: &record,
            stat_names: info.stats,
            action_kinds: info.action_kinds,
        };
        let v = |name: &str| {
            Feature::resolve(name, "f", info, &FEATURES)
                .unwrap()
                .per_game(&g)
                .unwrap()
        };
        assert_eq!(v("win"), 100.0);
        assert_eq!(v("score"), 1234.0);
        assert_eq!(v("attacks"), 7.0);
        // 5 + (3 archers + 1 catapult) − (2 knights + 0 swordsmen) = 7.
        assert_eq!(v("perc_range"), 7.0);
        assert_eq!(v("support_balance"), 2.0);
        assert_eq!(v("production"), 6.0);
        assert_eq!(v("num_spawn_archers"), 3.0);
        assert_eq!(v("num_spawn_catapults"), 1.0);
        assert_eq!(v("num_spawn_knights"), 2.0);
        assert_eq!(v("num_spawn_swordman"), 0.0);
        assert_eq!(v("num_spawn_defender"), 4.0);
        assert_eq!(v("speed_win"), 33.0);
        assert!((v("research_progress") - 10.0).abs() < 1e-12);
        assert!((v("owned_tiles_progress") - 30.0).abs() < 1e-12);
        let lost = GameView { won: false, ..g };
        for f in ["speed_win", "research_progress", "owned_tiles_progress"] {
            let feature = Feature::resolve(f, "f", info, &FEATURES).unwrap();
            assert_eq!(feature.per_game(&lost), None, "{f}");
        }
    }
}
