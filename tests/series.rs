use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use playstyles::Error;
use playstyles::agent::Agent;
use playstyles::agents::build_agent;
use playstyles::arena::series::{Series, SeriesGame, seat_of};
use playstyles::arena::summary::{SummaryColumn, summarize};
use playstyles::arena::{initial_state, play_match};
use playstyles::game::{Game, Outcome};
use playstyles::rng::derive_seed;
use playstyles::stats::{Z_95, wilson_interval};

use crate::support::{END_TURN, Nim, NimAction, NimLevel, TAKE};

fn build(spec: &str) -> playstyles::Result<Box<dyn Agent<Nim>>> {
    build_agent(&Nim::new(), spec)
}

fn specs(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// Three Nim levels that differ in their heaps, named `a`, `b`, `c`.
fn series(repetitions: u32, seed: u64) -> Series<Nim> {
    let levels = [vec![5, 7, 9], vec![3, 4], vec![8, 1, 6, 2]]
        .into_iter()
        .zip(["a", "b", "c"])
        .map(|(heaps, name)| {
            (
                name.to_string(),
                NimLevel {
                    heaps,
                    ..NimLevel::standard()
                },
            )
        })
        .collect();
    Series::new(levels, repetitions, seed)
}

fn run_on(threads: usize, s: &Series<Nim>, agents: &[String]) -> Vec<SeriesGame<NimAction>> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| s.run(&Nim::new(), agents, build, |_, _| {}))
        .unwrap()
}

#[test]
fn a_series_gives_the_same_records_on_one_and_four_threads() {
    let s = series(4, 11);
    let agents = specs(&["random", "random"]);
    let one = run_on(1, &s, &agents);
    let four = run_on(4, &s, &agents);
    assert_eq!(one, four);
    assert_eq!(one.len(), 12);
    assert!(one.iter().enumerate().all(|(i, g)| g.index == i));
}

#[test]
fn games_are_level_major_with_seeds_derived_from_the_series_seed_and_index() {
    let s = series(2, 5);
    let games = run_on(2, &s, &specs(&["random", "end_turn"]));
    let levels: Vec<(&str, u32)> = games
        .iter()
        .map(|g| (g.level.as_str(), g.repetition))
        .collect();
    assert_eq!(
        levels,
        [("a", 0), ("a", 1), ("b", 0), ("b", 1), ("c", 0), ("c", 1)]
    );
    for g in &games {
        assert_eq!(g.record.seed, derive_seed(5, &[g.index as u64]));
        assert_eq!(g.record.seed, s.game_seed(g.index));
    }
}

#[test]
fn each_participant_sits_in_each_seat_equally_often() {
    for (reps, n) in [(2, 2), (4, 2), (2, 3), (1, 3)] {
        let mut s = series(reps, 1);
        for (_, level) in &mut s.levels {
            level.players = n;
        }
        let total = s.len();
        assert_eq!(total % n, 0);
        let games = s
            .run(
                &Nim::new(),
                &vec!["random".to_string(); n],
                build,
                |_, _| {},
            )
            .unwrap();
        let mut count = vec![vec![0; n]; n];
        for (i, g) in games.iter().enumerate() {
            for j in 0..n {
                assert_eq!(g.seats[j], seat_of(i, j, n));
                count[j][g.seats[j]] += 1;
            }
            // The rotation moves participant 0 one seat on after every game.
            assert_eq!(g.seats[0], i % n);
        }
        for row in &count {
            assert!(row.iter().all(|&c| c == total / n), "{reps}x{n}: {count:?}");
        }
    }
}

#[test]
fn the_winner_is_the_participant_in_the_winning_seat() {
    let games = run_on(2, &series(4, 3), &specs(&["random", "end_turn"]));
    for g in &games {
        let seat = g.record.outcome.and_then(Outcome::winner);
        assert_eq!(
            g.winner,
            seat.map(|s| g.seats.iter().position(|&x| x == s).unwrap())
        );
    }
    // end_turn never takes an object, so random (participant 0) wins from either seat.
    assert!(games.iter().all(|g| g.winner == Some(0)), "{games:?}");
    assert!(games.iter().any(|g| g.seats[0] == 1));
    // Each participant's record is the one of its seat.
    for g in &games {
        assert_eq!(g.player(1).actions_of_kind(TAKE), 0);
        assert_eq!(g.score(1), 0.0);
        assert_eq!(g.score(0), g.record.scores[g.seats[0]]);
    }
}

#[test]
fn progress_counts_every_game_once() {
    let s = series(3, 0);
    let calls = AtomicUsize::new(0);
    let seen = std::sync::Mutex::new(Vec::new());
    s.run(
        &Nim::new(),
        &specs(&["random", "random"]),
        build,
        |done, total| {
            calls.fetch_add(1, Ordering::Relaxed);
            assert_eq!(total, 9);
            seen.lock().unwrap().push(done);
        },
    )
    .unwrap();
    let mut seen = seen.into_inner().unwrap();
    seen.sort_unstable();
    assert_eq!(seen, (1..=9).collect::<Vec<_>>());
    assert_eq!(calls.into_inner(), 9);
}

#[test]
fn run_each_plays_the_given_games_as_run_does_and_hands_each_over_once() {
    let s = series(3, 4);
    let agents = specs(&["random", "end_turn"]);
    let all = run_on(1, &s, &agents);
    let subset = [7, 0, 4, 8];
    let got = std::sync::Mutex::new(Vec::new());
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(|| {
            s.run_each(&Nim::new(), &agents, build, &subset, |g| {
                got.lock().unwrap().push(g);
                Ok(())
            })
        })
        .unwrap();
    let mut got = got.into_inner().unwrap();
    got.sort_by_key(|g| g.index);
    let want: Vec<_> = [0, 4, 7, 8].iter().map(|&i| all[i].clone()).collect();
    assert_eq!(got, want);

    // An index outside the series fails before any game.
    let e = s
        .run_each(&Nim::new(), &agents, build, &[2, 9], |_| {
            panic!("no game should be played")
        })
        .unwrap_err();
    assert!(
        matches!(&e, Error::Config { field, reason } if field == "game" && reason.contains("9")),
        "{e}"
    );

    // The sink's error stops the series (on one thread: at once) and is returned.
    let handed = AtomicUsize::new(0);
    let every: Vec<usize> = (0..9).collect();
    let e = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| {
            s.run_each(&Nim::new(), &agents, build, &every, |_| {
                handed.fetch_add(1, Ordering::Relaxed);
                Err(Error::config("sink", "full"))
            })
        })
        .unwrap_err();
    assert!(
        matches!(&e, Error::Config { field, .. } if field == "sink"),
        "{e}"
    );
    assert_eq!(handed.into_inner(), 1);
}

#[test]
fn an_unknown_agent_fails_before_any_game() {
    let games = AtomicUsize::new(0);
    let e = series(2, 0)
        .run(&Nim::new(), &specs(&["random", "nobody"]), build, |_, _| {
            games.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap_err();
    assert!(e.to_string().contains("nobody"), "{e}");
    assert_eq!(games.into_inner(), 0);
}

#[test]
fn a_level_with_another_number_of_players_names_the_agents() {
    let e = series(1, 0)
        .run(
            &Nim::new(),
            &specs(&["random", "random", "random"]),
            build,
            |_, _| {},
        )
        .unwrap_err();
    assert!(
        matches!(&e, Error::Config { field, reason } if field == "agents" && reason.contains("3 agents")),
        "{e}"
    );
}

#[test]
fn records_count_every_action_end_turn_included_and_its_label() {
    let game = Nim::new();
    let level = NimLevel::standard();
    for seed in 0..10 {
        let mut agents: Vec<Box<dyn Agent<Nim>>> =
            vec![build("random").unwrap(), build("random").unwrap()];
        let record = play_match(&game, &level, &mut agents, seed, |_, _| {}).unwrap();
        assert_eq!(record.players.len(), 2);
        let all: u64 = record.players.iter().map(|r| r.actions()).sum();
        assert_eq!(all, record.actions.len() as u64);

        // Replay, logging what the record should hold.
        let mut state = initial_state(&game, &level, seed);
        let mut kinds = [[0u32; 2]; 2];
        let mut labels = [BTreeMap::new(), BTreeMap::new()];
        let mut turns: [Vec<Vec<f64>>; 2] = [Vec::new(), Vec::new()];
        let mut last_round = [0; 2];
        for &a in &record.actions {
            let playstyles::Turn::Player(p) = game.turn(&state) else {
                panic!("action after the end")
            };
            kinds[p][usize::from(game.action_kind(a))] += 1;
            if let NimAction::Take { count, .. } = a {
                *labels[p].entry(format!("take.{count}")).or_insert(0) += 1;
            }
            last_round[p] = game.round(&state);
            game.apply(&mut state, a);
            if a == NimAction::EndTurn {
                let mut stats = Vec::new();
                game.player_stats(&state, p, &mut stats);
                turns[p].push(stats);
            }
        }
        for p in 0..2 {
            let r = &record.players[p];
            assert_eq!(r.actions_by_kind, kinds[p], "seed {seed} seat {p}");
            assert_eq!(r.labels, labels[p]);
            assert_eq!(r.turns, turns[p]);
            assert_eq!(r.turns.len() as u32, r.actions_of_kind(END_TURN));
            assert_eq!(r.last_action_round, last_round[p]);
            let mut stats = Vec::new();
            game.player_stats(&state, p, &mut stats);
            assert_eq!(r.final_stats, stats);
            assert_eq!(r.final_stat(0), Some(record.scores[p]));
            let takes: u32 = r.labels.values().sum();
            assert_eq!(takes, r.actions_of_kind(TAKE));
        }
    }
}

#[test]
fn a_passive_player_logs_one_end_turn_and_one_stats_row_per_turn() {
    let game = Nim::new();
    let level = NimLevel::standard();
    let mut agents: Vec<Box<dyn Agent<Nim>>> =
        vec![build("end_turn").unwrap(), build("end_turn").unwrap()];
    let record = play_match(&game, &level, &mut agents, 0, |_, _| {}).unwrap();
    // Nobody takes: the game is drawn after 50 rounds of END_TURN only.
    assert_eq!(record.outcome, Some(Outcome::draw(2)));
    for r in &record.players {
        assert_eq!(r.actions_by_kind, [0, 50]);
        assert!(r.labels.is_empty());
        assert_eq!(r.turns.len(), 50);
        assert_eq!(r.last_action_round, 49);
        assert_eq!(r.turns[0], [0.0, r.final_stats[1]]);
    }
}

#[test]
fn the_summary_counts_wins_and_draws_and_reads_statistics_by_name() {
    let games = run_on(1, &series(2, 9), &specs(&["random", "end_turn"]));
    // Nim's statistics are `taken` and `left`; present them under other names.
    let col = |column, stat, percent_of| SummaryColumn {
        column,
        stat,
        percent_of,
        decimals: 1,
        short: column,
    };
    let columns = [
        col("techs_pct", "techs", Some(8.0)),
        col("cities", "cities", None),
        col("production", "production", None),
    ];
    let s = summarize(&games, 0, &["cities", "production"], &columns);
    assert_eq!((s.games, s.wins, s.draws), (6, 6, 0));
    assert_eq!(s.win_rate, 1.0);
    assert_eq!((s.win_rate_lo, s.win_rate_hi), wilson_interval(6, 6, Z_95));
    let taken: f64 = games.iter().map(|g| g.score(0)).sum::<f64>() / 6.0;
    assert_eq!(s.mean_score, Some(taken));
    assert_eq!(s.stats, [None, Some(taken), Some(0.0)]);
    assert_eq!(s.mean_rank, Some(1.0));

    let theirs = summarize(&games, 1, &["techs", "left"], &columns);
    assert_eq!((theirs.wins, theirs.win_rate), (0, 0.0));
    assert_eq!(theirs.stats, [Some(0.0), None, None]);
    assert_eq!(theirs.mean_rank, Some(2.0));

    // With the game's real names, no column matches.
    let plain = summarize(&games, 0, Nim::new().info().stats, &columns);
    assert_eq!(plain.stats, [None, None, None]);
}

#[test]
fn draws_count_as_non_wins() {
    let games = run_on(1, &series(2, 9), &specs(&["end_turn", "end_turn"]));
    let s = summarize(&games, 0, &[], &[]);
    assert_eq!((s.games, s.wins, s.draws, s.win_rate), (6, 0, 6, 0.0));
    assert_eq!((s.win_rate_lo, s.win_rate_hi), wilson_interval(0, 6, Z_95));
}

/// Known values, by hand with z = 1.96 (z² = 3.8416), n = 10:
/// denominator 1 + z²/n = 1.38416, z²/(2n) = 0.19208, z²/(4n²) = 0.009604.
/// - 0 of 10: centre = 0.19208 / 1.38416 = 0.138770; half = 1.96/1.38416 · √0.009604
///   = 1.416021 · 0.098000 = 0.138770 → (0.0000, 0.2775).
/// - 5 of 10: centre = 0.69208 / 1.38416 = 0.5; half = 1.416021 · √(0.025 + 0.009604)
///   = 1.416021 · 0.186021 = 0.263410 → (0.2366, 0.7634).
/// - 10 of 10: mirror of 0 of 10 → (0.7225, 1.0000).
/// - 15 of 20 (n = 20: denominator 1.19208, z²/(2n) = 0.09604, z²/(4n²) = 0.002401):
///   centre = 0.84604 / 1.19208 = 0.709717; half = 1.644185 · √(0.009375 + 0.002401)
///   = 1.644185 · 0.108517 = 0.178421 → (0.5313, 0.8881).
#[test]
fn wilson_interval_known_values() {
    let cases = [
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (15, 20, 0.5313, 0.8881),
    ];
    for (wins, n, lo, hi) in cases {
        let (l, h) = wilson_interval(wins, n, Z_95);
        assert!(
            (l - lo).abs() < 5e-5 && (h - hi).abs() < 5e-5,
            "{wins}/{n}: ({l}, {h})"
        );
    }
    assert_eq!(wilson_interval(3, 0, Z_95), (0.0, 1.0));
    // Wins beyond n are clamped; z = 0 collapses the interval onto the proportion.
    assert_eq!(wilson_interval(12, 10, Z_95), wilson_interval(10, 10, Z_95));
    let (l, h) = wilson_interval(3, 10, 0.0);
    assert!((l - 0.3).abs() < 1e-12 && (h - 0.3).abs() < 1e-12);
}
