use playstyles::Error;
use playstyles::agent::Agent;
use playstyles::agents::build_agent;
use playstyles::arena::{MAX_ACTIONS, initial_state, play_match, replay};
use playstyles::game::Game;

use crate::support::{Nim, NimAction, NimLevel};

fn randoms(n: usize) -> Vec<Box<dyn Agent<Nim>>> {
    (0..n)
        .map(|_| build_agent(&Nim::new(), "random").unwrap())
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_match() {
    let game = Nim::new();
    let level = NimLevel::standard();
    for seed in [0, 1, 99, u64::MAX] {
        let a = play_match(&game, &level, &mut randoms(2), seed, |_, _| {}).unwrap();
        // Fresh agents and reused agents alike.
        let mut reused = randoms(2);
        play_match(&game, &level, &mut reused, seed ^ 1, |_, _| {}).unwrap();
        let b = play_match(&game, &level, &mut reused, seed, |_, _| {}).unwrap();
        assert_eq!(a, b, "seed {seed}");
        assert_eq!(a.seed, seed);
    }
}

#[test]
fn different_seeds_give_different_matches() {
    let game = Nim::new();
    let level = NimLevel::standard();
    let records: Vec<_> = (0..10)
        .map(|seed| {
            play_match(&game, &level, &mut randoms(2), seed, |_, _| {})
                .unwrap()
                .actions
        })
        .collect();
    for (i, a) in records.iter().enumerate() {
        for b in &records[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn the_observer_sees_every_action_with_the_state_it_is_applied_to() {
    let game = Nim::new();
    let level = NimLevel::standard();
    let mut seen = Vec::new();
    let mut state = initial_state(&game, &level, 5);
    let record = play_match(&game, &level, &mut randoms(2), 5, |s, a| {
        assert_eq!(*s, state);
        game.apply(&mut state, a);
        seen.push(a);
    })
    .unwrap();
    assert_eq!(seen, record.actions);
    assert_eq!(record.outcome, game.outcome(&state));
    assert_eq!(record.scores, game.scores(&state));
    assert_eq!(record.rounds, game.round(&state));
}

#[test]
fn replay_reproduces_the_final_state() {
    let game = Nim::new();
    let level = NimLevel::standard();
    for seed in 0..20 {
        let mut last = None;
        let record = play_match(&game, &level, &mut randoms(2), seed, |s, a| {
            let mut next = s.clone();
            game.apply(&mut next, a);
            last = Some(next);
        })
        .unwrap();
        let state = replay(&game, &level, seed, &record.actions).unwrap();
        assert_eq!(Some(state.clone()), last);
        assert_eq!(game.outcome(&state), record.outcome);
        assert_eq!(game.scores(&state), record.scores);
    }
}

#[test]
fn replay_rejects_an_illegal_action_with_an_error() {
    let game = Nim::new();
    let level = NimLevel::standard();
    let record = play_match(&game, &level, &mut randoms(2), 7, |_, _| {}).unwrap();
    let too_many = NimAction::Take {
        heap: 0,
        count: 200,
    };
    let e = replay(&game, &level, 7, &[too_many]).unwrap_err();
    assert!(matches!(e, Error::Illegal(_)), "{e}");
    assert!(e.to_string().contains("200"), "{e}");

    // Any action after the end of the game is illegal too.
    let mut actions = record.actions.clone();
    actions.push(NimAction::EndTurn);
    assert!(matches!(
        replay(&game, &level, 7, &actions),
        Err(Error::Illegal(_))
    ));
}

#[test]
fn a_runaway_game_is_stopped_by_the_action_cap_as_a_draw_by_cap() {
    let game = Nim::new();
    let level = NimLevel {
        max_rounds: None,
        ..NimLevel::standard()
    };
    let mut passive: Vec<Box<dyn Agent<Nim>>> = (0..2)
        .map(|_| build_agent(&game, "end_turn").unwrap())
        .collect();
    let record = play_match(&game, &level, &mut passive, 0, |_, _| {}).unwrap();
    assert!(record.capped);
    assert_eq!(record.outcome, None);
    assert_eq!(record.actions.len(), MAX_ACTIONS);
    assert_eq!(record.rounds as usize, MAX_ACTIONS / 2);
}

#[test]
fn a_finished_game_is_not_capped() {
    let game = Nim::new();
    let record = play_match(&game, &NimLevel::standard(), &mut randoms(2), 0, |_, _| {}).unwrap();
    assert!(!record.capped);
    let outcome = record.outcome.expect("the game finished");
    assert!(outcome.winner().is_some() || outcome.ranks() == [1, 1]);
}

#[test]
#[should_panic(expected = "players")]
fn a_wrong_number_of_agents_is_a_bug() {
    let game = Nim::new();
    play_match(&game, &NimLevel::standard(), &mut randoms(3), 0, |_, _| {}).unwrap();
}
