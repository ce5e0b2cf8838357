use std::collections::HashSet;

use playstyles::game::{Game, GroupedActions};
use playstyles::rng::rng_from_seed;
use rand::RngExt;

use crate::support::{END_TURN, Nim, NimLevel, PLAYER, TAKE};

#[test]
fn grouped_actions_have_no_duplicate_actor_kind_groups_and_cover_the_legal_actions() {
    let game = Nim::new();
    let level = NimLevel {
        takes_per_turn: 3,
        ..NimLevel::standard()
    };
    let mut grouped = GroupedActions::default();
    let mut legal = Vec::new();
    let mut rng = rng_from_seed(11);
    for seed in 0..30 {
        let mut state = game.new_initial_state(&level, seed);
        while !game.is_terminal(&state) {
            game.grouped_actions(&state, &mut grouped);
            game.legal_actions(&state, &mut legal);
            assert_eq!(grouped.actions, legal);

            let mut pairs = HashSet::new();
            let mut covered = 0;
            for g in &grouped.groups {
                assert_eq!(g.start, covered, "groups are contiguous");
                assert!(g.end > g.start, "no empty group");
                covered = g.end;
                assert!(pairs.insert((g.actor, g.kind)), "duplicate group {g:?}");
                for &a in grouped.group(g) {
                    assert_eq!(game.actor(&state, a), g.actor);
                    assert_eq!(game.action_kind(a), g.kind);
                }
            }
            assert_eq!(covered, legal.len());
            let mut end_groups = grouped.groups.iter().filter(|g| g.kind == END_TURN);
            assert!(end_groups.all(|g| g.actor.class == PLAYER && g.end - g.start == 1));

            let a = legal[rng.random_range(0..legal.len())];
            game.apply(&mut state, a);
        }
    }
}

#[test]
fn a_turn_holds_several_actions_and_rounds_count_full_turns() {
    let game = Nim::new();
    let mut state = game.new_initial_state(&NimLevel::standard(), 0);
    let mut legal = Vec::new();
    game.legal_actions(&state, &mut legal);
    let take = *legal
        .iter()
        .find(|&&a| game.action_kind(a) == TAKE)
        .unwrap();
    let end = *legal.iter().find(|&&a| game.ends_turn(a)).unwrap();
    game.apply(&mut state, take);
    assert_eq!(game.turn(&state), playstyles::Turn::Player(0));
    game.apply(&mut state, end);
    assert_eq!(game.turn(&state), playstyles::Turn::Player(1));
    assert_eq!(game.round(&state), 0);
    game.apply(&mut state, end);
    assert_eq!(game.round(&state), 1);
}
