use playstyles::Error;
use playstyles::agents::build_agent_from;
use playstyles::arena::play_match;
use playstyles::bench::bench_fm;
use playstyles::experiments::play::play;
use playstyles::experiments::{BenchConfig, BenchTarget, GameKind, PlayConfig, bench::bench};
use playstyles::game::Game;

use crate::support::{Nim, NimLevel};

fn config(agents: &str) -> PlayConfig {
    PlayConfig::new("tribes".parse::<GameKind>().unwrap(), "toy", agents).unwrap()
}

fn run(cfg: &PlayConfig) -> (String, playstyles::MatchRecord<crate::support::NimAction>) {
    let mut out = Vec::new();
    let record = play(
        &Nim::new(),
        &NimLevel::standard(),
        cfg,
        &|spec| build_agent_from(&Nim::new(), spec),
        &mut out,
    )
    .unwrap();
    (String::from_utf8(out).unwrap(), record)
}

#[test]
fn play_prints_winner_rounds_and_scores_as_text() {
    let mut cfg = config("random,random");
    cfg.seed = 4;
    let (text, record) = run(&cfg);
    let winner = record.outcome.and_then(|o| o.winner()).unwrap();
    assert!(
        text.starts_with(&format!("winner: seat {winner} (random)\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("rounds: {}\n", record.rounds)),
        "{text}"
    );
    let scores: Vec<String> = record.scores.iter().map(|s| s.to_string()).collect();
    assert!(
        text.contains(&format!("scores: {}\n", scores.join(", "))),
        "{text}"
    );
}

#[test]
fn play_json_is_exactly_one_object_with_winner_ticks_and_scores() {
    let mut cfg = config("random,end_turn");
    cfg.json = true;
    cfg.seed = 9;
    let (text, record) = run(&cfg);
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let obj = v.as_object().unwrap();
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["scores", "ticks", "winner"]);
    assert_eq!(
        obj["winner"].as_u64(),
        record.outcome.and_then(|o| o.winner()).map(|w| w as u64)
    );
    assert_eq!(obj["ticks"].as_u64(), Some(u64::from(record.rounds)));
    assert_eq!(obj["scores"].as_array().unwrap().len(), 2);
}

#[test]
fn play_json_gives_null_for_a_draw() {
    let mut cfg = config("end_turn,end_turn");
    cfg.json = true;
    let (text, _) = run(&cfg);
    assert_eq!(
        text.trim(),
        r#"{"winner":null,"ticks":50,"scores":[0.0,0.0]}"#
    );
}

#[test]
fn play_renders_after_every_turn_and_at_the_end() {
    let mut cfg = config("end_turn,end_turn");
    cfg.render = true;
    let (text, record) = run(&cfg);
    let turns = text.matches(" ended its turn:\n").count();
    // 100 turn ends; the last one ends the game and is shown as the final state instead.
    assert_eq!(turns, record.actions.len() - 1);
    assert!(text.contains("final state:\nheaps "), "{text}");
    assert!(text.ends_with("winner: none (draw)\nrounds: 50\nscores: 0, 0\nactions: 100\n"));
}

#[test]
fn play_plays_the_same_match_as_the_arena() {
    let mut cfg = config("random,random");
    cfg.seed = 21;
    let (_, record) = run(&cfg);
    let game = Nim::new();
    let mut agents = vec![
        playstyles::agents::build_agent(&game, "random").unwrap(),
        playstyles::agents::build_agent(&game, "random").unwrap(),
    ];
    let direct = play_match(&game, &NimLevel::standard(), &mut agents, 21, |_, _| {}).unwrap();
    assert_eq!(record, direct);
}

#[test]
fn play_rejects_a_wrong_number_of_agents_naming_the_agents_field() {
    let mut out = Vec::new();
    let e = play(
        &Nim::new(),
        &NimLevel::standard(),
        &config("random,random,random"),
        &|spec| build_agent_from(&Nim::new(), spec),
        &mut out,
    )
    .unwrap_err();
    assert!(
        matches!(&e, Error::Config { field, reason } if field == "agents" && reason.contains("2 players")),
        "{e}"
    );
    assert!(out.is_empty());
}

#[test]
fn play_rejects_an_unknown_agent_before_playing() {
    let mut out = Vec::new();
    let e = play(
        &Nim::new(),
        &NimLevel::standard(),
        &config("random,minimax"),
        &|spec| build_agent_from(&Nim::new(), spec),
        &mut out,
    )
    .unwrap_err();
    assert!(e.to_string().contains("minimax"), "{e}");
}

#[test]
fn bench_fm_reports_the_four_measures_and_games_by_player_count() {
    let game = Nim::new();
    let levels = [
        NimLevel::standard(),
        NimLevel {
            players: 3,
            ..NimLevel::standard()
        },
    ];
    let result = bench_fm(&game, &levels, 2, 0).unwrap();
    for x in [
        result.random_game_ms,
        result.clone_ns,
        result.apply_ns,
        result.actions_per_sec,
    ] {
        assert!(x.is_finite() && x >= 0.0, "{result:?}");
    }
    let json = serde_json::to_value(&result).unwrap();
    let mut keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    // A level with other than two players adds the median game per player count.
    assert_eq!(
        keys,
        [
            "actions_per_sec",
            "apply_ns",
            "clone_ns",
            "random_game_2p_us",
            "random_game_3p_us",
            "random_game_ms"
        ]
    );
    assert_eq!(result.to_table().lines().count(), 7);
    let two_players = bench_fm(&game, &levels[..1], 2, 0).unwrap();
    assert!(two_players.by_players.is_empty(), "{two_players:?}");
    assert_eq!(two_players.to_table().lines().count(), 5);
}

#[test]
fn bench_prints_one_json_line_or_a_table() {
    let game = Nim::new();
    let levels = [NimLevel::standard()];
    let mut cfg = BenchConfig::new("tribes".parse::<GameKind>().unwrap(), BenchTarget::Fm);
    cfg.games_per_level = 1;
    cfg.json = true;
    let mut out = Vec::new();
    bench(&game, &levels, &cfg, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(
        serde_json::from_str::<serde_json::Value>(&text).is_ok(),
        "{text}"
    );

    cfg.json = false;
    let mut out = Vec::new();
    bench(&game, &levels, &cfg, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with(&format!("forward model of {}", game.info().name)));
    assert!(text.contains("apply_ns"));
}

#[test]
fn an_evaluation_counts_games_wins_and_features() {
    use playstyles::experiments::evaluate::evaluate_player;
    use playstyles::features::Feature;
    use playstyles::game::Game;
    use playstyles::games::tribes::{TribesGame, builtin};
    use playstyles::kit::GameKit;
    let game = TribesGame::default();
    let levels: Vec<_> = builtin::SEEDS[..2]
        .iter()
        .map(|&s| (s.to_string(), builtin::level(s).unwrap()))
        .collect();
    let e = evaluate_player(
        &game,
        &levels,
        2,
        7,
        "rule",
        "end_turn",
        &["win", "attacks"]
            .map(|f| Feature::resolve(f, "f", game.info(), TribesGame::features()).unwrap()),
        std::path::Path::new(""),
    )
    .unwrap();
    assert_eq!(e.games, 4);
    assert_eq!(e.descriptor_means.len(), 2);
    assert!((e.descriptor_means[0] - 100.0 * e.fitness).abs() < 1e-9);
    // The rule-based agent beats a passive opponent.
    assert!(e.wins >= 3, "{e:?}");
}

#[test]
fn a_genome_meets_one_baseline_per_other_seat() {
    use playstyles::experiments::evaluate::line_up;
    for players in [2, 3, 4] {
        let level = NimLevel {
            players,
            ..NimLevel::standard()
        };
        let specs = line_up(&Nim::new(), &[("nim".to_string(), level)], "mcts", "random").unwrap();
        assert_eq!(specs.len(), players);
        assert_eq!(specs[0], "mcts");
        assert!(specs[1..].iter().all(|s| s == "random"), "{specs:?}");
    }
    let none: &[(String, NimLevel)] = &[];
    assert!(line_up(&Nim::new(), none, "mcts", "random").is_err());
}
