use playstyles::agent::Agent;
use playstyles::agents::{EndTurnAgent, RandomAgent, build_agent};
use playstyles::arena::play_match;
use playstyles::game::{Game, Outcome, Turn};
use playstyles::rng::rng_from_seed;

use crate::support::{Nim, NimAction, NimLevel};

fn agents(specs: &[&str]) -> Vec<Box<dyn Agent<Nim>>> {
    specs.iter().map(|s| build_agent(s).unwrap()).collect()
}

#[test]
fn random_agents_finish_games_with_only_legal_actions() {
    let game = Nim::new();
    let level = NimLevel::standard();
    let mut players = agents(&["random", "random"]);
    for seed in 0..200 {
        let record = play_match(&game, &level, &mut players, seed, |state, action| {
            assert!(
                game.is_legal(state, action),
                "seed {seed}: illegal {action:?}"
            );
        });
        assert!(record.outcome.is_some(), "seed {seed} did not finish");
        assert!(!record.capped);
    }
}

#[test]
fn random_agents_finish_three_player_games_without_passing_allowed() {
    let game = Nim::new();
    let level = NimLevel {
        players: 3,
        must_take: true,
        max_rounds: None,
        ..NimLevel::standard()
    };
    let mut players = agents(&["random", "random", "random"]);
    for seed in 0..50 {
        let record = play_match(&game, &level, &mut players, seed, |state, action| {
            assert!(game.is_legal(state, action));
        });
        assert!(
            record.outcome.and_then(Outcome::winner).is_some(),
            "seed {seed}"
        );
    }
}

#[test]
fn random_agent_plays_every_legal_action_sometimes() {
    let game = Nim::new();
    let state = game.new_initial_state(&NimLevel::standard(), 0);
    let mut legal = Vec::new();
    game.legal_actions(&state, &mut legal);
    let mut agent = RandomAgent::new();
    let mut rng = rng_from_seed(1);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..2_000 {
        seen.insert(Agent::<Nim>::act(&mut agent, &game, &state, &mut rng));
    }
    assert_eq!(seen.len(), legal.len());
}

#[test]
fn end_turn_agents_only_end_turns_when_they_may() {
    let game = Nim::new();
    let level = NimLevel::standard();
    let mut players = agents(&["end_turn", "end_turn"]);
    let record = play_match(&game, &level, &mut players, 3, |_, action| {
        assert_eq!(action, NimAction::EndTurn);
    });
    assert_eq!(record.outcome, Some(Outcome::draw(2)));
    assert_eq!(record.rounds, 50);
    assert_eq!(record.actions.len(), 100);
}

#[test]
fn end_turn_agent_plays_the_first_legal_action_when_it_may_not_end_its_turn() {
    let game = Nim::new();
    let level = NimLevel {
        must_take: true,
        ..NimLevel::standard()
    };
    let state = game.new_initial_state(&level, 0);
    let mut legal = Vec::new();
    game.legal_actions(&state, &mut legal);
    assert!(!legal.contains(&NimAction::EndTurn));
    let mut agent = EndTurnAgent::new();
    let action = Agent::<Nim>::act(&mut agent, &game, &state, &mut rng_from_seed(0));
    assert_eq!(action, legal[0]);
}

#[test]
fn end_turn_agents_finish_a_game_that_forces_takes() {
    let game = Nim::new();
    let level = NimLevel {
        must_take: true,
        max_rounds: None,
        ..NimLevel::standard()
    };
    let mut players = agents(&["end_turn", "end_turn"]);
    let record = play_match(&game, &level, &mut players, 0, |state, action| {
        assert!(game.is_legal(state, action));
        assert_ne!(game.turn(state), Turn::Terminal);
    });
    assert!(record.outcome.and_then(Outcome::winner).is_some());
    // One take (the first legal action), then the end of the turn, every turn.
    for (i, &a) in record.actions.iter().enumerate() {
        assert_eq!(a == NimAction::EndTurn, i % 2 == 1, "action {i}: {a:?}");
    }
}

#[test]
fn built_agents_report_their_names() {
    let players = agents(&["random", "end_turn"]);
    let names: Vec<String> = players.iter().map(|a| a.name()).collect();
    assert_eq!(names, ["random", "end_turn"]);
}
