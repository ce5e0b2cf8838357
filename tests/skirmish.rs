//! A game the tool has never seen, given ten lines (issue 61): `examples/skirmish`'s quick
//! start names the game, its training levels, the baseline, the search budget and two features,
//! nothing else, and each of them resolves against the game.

use playstyles::agents::build_agent;
use playstyles::features::Feature;
use playstyles::game::Game;
use playstyles::kit::GameKit;

use crate::invariants::skirmish_game::SkirmishGame;

/// The keys of a TOML table, sorted.
fn keys(t: &toml::Table) -> Vec<&str> {
    let mut keys: Vec<&str> = t.keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

#[test]
fn the_skirmish_quick_start_is_ten_lines_that_resolve_against_the_game() {
    let text = SkirmishGame::quickstart().expect("Skirmish has a quick start");
    assert!(text.lines().count() <= 10, "more than ten lines:\n{text}");
    let file: toml::Table = text.parse().unwrap();
    assert_eq!(keys(&file), ["evaluation", "features", "game"]);
    let game = SkirmishGame::default();
    assert_eq!(file["game"].as_str(), Some(game.info().name));

    let evaluation = file["evaluation"].as_table().unwrap();
    assert_eq!(keys(evaluation), ["baseline", "budget", "levels"]);
    let levels = evaluation["levels"].as_array().unwrap();
    assert!(!levels.is_empty());
    for level in levels {
        SkirmishGame::load_level(level.as_str().unwrap()).unwrap();
    }
    build_agent(&game, evaluation["baseline"].as_str().unwrap()).unwrap();
    let budget = evaluation["budget"].as_integer().unwrap();
    assert!(budget > 0, "budget {budget}");

    let features = file["features"].as_array().unwrap();
    assert_eq!(features.len(), 2);
    for axis in features {
        let axis = axis.as_table().unwrap();
        assert_eq!(keys(axis), ["bins", "max", "min", "name"]);
        let name = axis["name"].as_str().unwrap();
        Feature::resolve(name, "features", game.info(), SkirmishGame::features()).unwrap();
        let bound = |k: &str| {
            let v = &axis[k];
            v.as_float().or(v.as_integer().map(|i| i as f64)).unwrap()
        };
        assert!(bound("min") < bound("max"), "{name}");
    }
}
