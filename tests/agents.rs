use playstyles::agent::Agent;
use playstyles::agents::{EndTurnAgent, RandomAgent, build_agent};
use playstyles::arena::play_match;
use playstyles::game::{Game, Outcome, Turn};
use playstyles::rng::rng_from_seed;

use crate::support::{Nim, NimAction, NimLevel};

fn agents(specs: &[&str]) -> Vec<Box<dyn Agent<Nim>>> {
    specs
        .iter()
        .map(|s| build_agent(&Nim::new(), s).unwrap())
        .collect()
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
        })
        .unwrap();
        assert!(record.outcome.is_some(), "seed {seed} did not finish");
        assert!(!record.capped);
    }
}

#[test]
fn every_search_agent_finishes_nim_games_for_two_three_and_four_players() {
    let game = Nim::new();
    for players in [2, 3, 4] {
        let level = NimLevel {
            players,
            ..NimLevel::standard()
        };
        for spec in [
            "osla(budget=30)",
            "mcts(budget=30)",
            "mcts(budget=30,rollouts=true,prioritize_root=false)",
            "rhea(budget=30,length=5)",
            "pmcts(budget=30)",
            "pmcts(budget=30,bias=false,pruning=false,rollout=exact)",
        ] {
            let mut seats = agents(&vec![spec; players]);
            for seed in 0..3 {
                let record = play_match(&game, &level, &mut seats, seed, |state, action| {
                    assert!(game.is_legal(state, action), "{spec}: illegal {action:?}");
                })
                .unwrap();
                assert!(
                    record.outcome.is_some() && !record.capped,
                    "{spec} seed {seed}"
                );
            }
        }
    }
}

#[test]
fn a_game_without_a_rule_based_agent_says_so() {
    match build_agent(&Nim::new(), "rule") {
        Err(playstyles::Error::Config { field, reason }) => {
            assert_eq!(field, "agents");
            assert!(reason.contains("no rule-based agent"), "{reason}");
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("Nim built a rule-based agent"),
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
        })
        .unwrap();
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
        seen.insert(Agent::<Nim>::act(&mut agent, &game, &state, &mut rng).unwrap());
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
    })
    .unwrap();
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
    let action = Agent::<Nim>::act(&mut agent, &game, &state, &mut rng_from_seed(0)).unwrap();
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
    })
    .unwrap();
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
