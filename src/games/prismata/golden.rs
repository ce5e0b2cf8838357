//! Golden tests of Prismata: the base-set scenarios of spec §15.5 ("Tests worth having"),
//! numbered as there, each a small position set up by hand with the numbers the rules of
//! spec §3 give. (Scenario 10, the 200-ply draw, is `game`'s test of the turn cap.)

use super::action::can_block;
use super::combat::total_defense;
use super::resources::Resources;
use super::rules::{apply, is_legal, legal_actions};
use super::test_support::{buy_index, count, game, id, lib, next_own_turn};
use super::{Action, Resource, State, Status, TurnPhase};

/// The attack player `p` has to spend.
fn attack(s: &State, p: usize) -> u16 {
    s.sides[p].resources.get(Resource::Attack)
}

/// Gives player `p` exactly `v` attack.
fn set_attack(s: &mut State, p: usize, v: u16) {
    s.sides[p].resources.set(Resource::Attack, v);
}

/// Player `p`'s live units.
fn live(s: &State, p: usize) -> usize {
    s.sides[p].units.iter().filter(|u| u.alive).count()
}

/// Clicks every Drone of the player to act that may click.
fn click_drones(s: &mut State) {
    let p = s.active as usize;
    for i in 0..s.sides[p].units.len() as u16 {
        if s.sides[p].units[i as usize].kind == id("Drone") && is_legal(lib(), s, Action::Click(i))
        {
            apply(lib(), s, Action::Click(i));
        }
    }
}

/// A game whose random units have varied turn-start scripts (the state tests' position).
fn start() -> State {
    game("Amporilla,Savior,Defense Grid,Auric Impulse,Xaetron,Chrono Filter")
}

// 1. A Drone clicked on turn t cannot absorb the opponent's following attack.
#[test]
fn a_drone_clicked_on_turn_t_cannot_absorb_the_following_attack() {
    let mut s = game("Shiver Yeti");
    click_drones(&mut s);
    assert_eq!(total_defense(lib(), &s, 0), 2, "only the Engineers");
    apply(lib(), &mut s, Action::EndPhase);
    // Player 1 attacks with 2: exactly player 0's defense, so it wipes out and breaches.
    set_attack(&mut s, 1, 2);
    apply(lib(), &mut s, Action::EndPhase);
    assert_eq!(s.phase, TurnPhase::Breach);
    assert_eq!(
        s.sides[0]
            .units
            .iter()
            .filter(|u| u.alive && u.kind == id("Engineer"))
            .count(),
        0,
        "both Engineers absorbed"
    );
    assert_eq!(attack(&s, 1), 0);
    assert!(is_legal(lib(), &s, Action::EndPhase));
}

// 2. A Wall bought on t counts as defense for the opponent's next breach check and can absorb.
#[test]
fn a_wall_bought_on_turn_t_blocks_the_opponents_next_attack() {
    let mut s = game("Shiver Yeti");
    click_drones(&mut s);
    s.sides[0].resources.0[Resource::Blue as usize] = 1;
    let wall = s.buyable.iter().position(|&k| k == id("Wall")).unwrap() as u16;
    apply(lib(), &mut s, Action::Buy(wall));
    assert_eq!(total_defense(lib(), &s, 0), 2 + 3);
    apply(lib(), &mut s, Action::EndPhase);
    set_attack(&mut s, 1, 4);
    apply(lib(), &mut s, Action::EndPhase);
    assert_eq!(
        (s.active, s.phase),
        (0, TurnPhase::Defense),
        "4 < 5: pending"
    );
    let w = s.sides[0]
        .units
        .iter()
        .position(|u| u.kind == id("Wall"))
        .unwrap() as u16;
    apply(lib(), &mut s, Action::Block(w));
    assert!(!s.sides[0].units[w as usize].alive, "3 HP absorbed 3");
    assert_eq!(attack(&s, 1), 1);
}

// 3. A Tarsier bought on own turn t attacks on own turn t+2.
#[test]
fn a_tarsier_bought_on_turn_t_attacks_on_turn_t_plus_2() {
    let mut s = start();
    s.add_unit(lib(), 0, id("Tarsier"), 2, 0);
    next_own_turn(&mut s);
    assert_eq!(s.sides[0].resources.get(Resource::Attack), 0, "t + 1");
    next_own_turn(&mut s);
    assert_eq!(s.sides[0].resources.get(Resource::Attack), 1, "t + 2");
    next_own_turn(&mut s);
    assert_eq!(
        s.sides[0].resources.get(Resource::Attack),
        1,
        "reset, then 1 again"
    );
}

// 4. Rhino has two clicks, then only blocks.
#[test]
fn rhino_charges_run_out() {
    let mut s = game("Apollo");
    let rhino = buy_index(&s, "Rhino");
    s.sides[0].resources = Resources::parse("5$ 1R", "test").unwrap();
    apply(lib(), &mut s, Action::Buy(rhino));
    let r = (s.sides[0].units.len() - 1) as u16;
    assert!(
        !is_legal(lib(), &s, Action::Click(r)),
        "not on the turn it is bought"
    );
    s.ply += 2;
    s.begin_turn(lib());
    for turn in 0..3 {
        let legal = is_legal(lib(), &s, Action::Click(r));
        assert_eq!(legal, turn < 2, "turn {turn}");
        if legal {
            apply(lib(), &mut s, Action::Click(r));
            assert_eq!(s.sides[0].resources.get(Resource::Attack), 1);
        }
        s.ply += 2;
        s.begin_turn(lib());
    }
    let rhino = s.sides[0].units[r as usize];
    assert!(can_block(&rhino, lib().get(rhino.kind)), "it still blocks");
}

// 5. Forcefield fragile damage persists.
#[test]
fn fragile_damage_persists_across_turns() {
    let mut s = game("Shiver Yeti");
    let ff = s.add_unit(lib(), 1, id("Forcefield"), 0, 0);
    // Player 1 defends 1 attack with the Forcefield (2 HP, fragile).
    set_attack(&mut s, 0, 1);
    apply(lib(), &mut s, Action::EndPhase);
    apply(lib(), &mut s, Action::Block(ff as u16));
    apply(lib(), &mut s, Action::EndPhase);
    let f = s.sides[1]
        .units
        .iter()
        .find(|u| u.kind == id("Forcefield"))
        .unwrap();
    assert_eq!((f.hp, f.alive), (1, true));
}

// 6. The breach threshold: attack ≥ total defense (below it the attack is pending and the
// defender absorbs it all).
#[test]
fn attack_below_the_defense_is_pending_and_the_defender_must_absorb_it_all() {
    let mut s = game("Shiver Yeti");
    // Player 0: 3 attack against player 1's 9 one-HP blockers.
    set_attack(&mut s, 0, 3);
    apply(lib(), &mut s, Action::EndPhase);
    assert_eq!((s.active, s.phase, s.ply), (1, TurnPhase::Defense, 1));
    let mut out = Vec::new();
    legal_actions(lib(), &s, &mut out);
    assert_eq!(
        out,
        (0..9).map(Action::Block).collect::<Vec<_>>(),
        "no EndPhase yet"
    );
    for i in [0, 1, 2] {
        apply(lib(), &mut s, Action::Block(i));
    }
    assert_eq!(attack(&s, 0), 0);
    assert!(is_legal(lib(), &s, Action::EndPhase));
    apply(lib(), &mut s, Action::EndPhase);
    // Player 1's turn starts; its 3 dead Drones are gone.
    assert_eq!((s.active, s.phase), (1, TurnPhase::Action));
    assert_eq!(live(&s, 1), 6);
    assert_eq!(s.sides[1].resources.to_string(), "2E");
}

// 7. A frozen blocker is ignored for the threshold.
#[test]
fn frozen_blockers_do_not_count_and_breach_kills_what_the_attack_can() {
    let mut s = game("Shiver Yeti");
    // Player 0 chills 8 of player 1's 9 blockers (1 HP each), then attacks with 3.
    for j in 0..8 {
        s.sides[1].units[j].chill = 1;
    }
    assert_eq!(total_defense(lib(), &s, 1), 1);
    set_attack(&mut s, 0, 3);
    apply(lib(), &mut s, Action::EndPhase);
    assert_eq!(s.phase, TurnPhase::Breach);
    assert!(s.can_breach_frozen, "a blocker absorbed");
    let mut out = Vec::new();
    legal_actions(lib(), &s, &mut out);
    assert_eq!(
        out.len(),
        8,
        "the 8 frozen units, no EndPhase while one can die"
    );
    apply(lib(), &mut s, Action::Breach(0));
    apply(lib(), &mut s, Action::Breach(1));
    assert!(is_legal(lib(), &s, Action::EndPhase));
    apply(lib(), &mut s, Action::EndPhase);
    assert_eq!(live(&s, 1), 6);
    assert_eq!((s.active, s.phase), (1, TurnPhase::Action));
}

// 8. Supply caps.
#[test]
fn supply_caps_buying() {
    let mut s = game("Apollo");
    s.sides[0].resources.0[Resource::Gold as usize] = 100;
    s.sides[0].resources.0[Resource::Blue as usize] = 10;
    let apollo = buy_index(&s, "Apollo");
    assert!(is_legal(lib(), &s, Action::Buy(apollo)));
    apply(lib(), &mut s, Action::Buy(apollo));
    assert!(!is_legal(lib(), &s, Action::Buy(apollo)), "legendary: 1");
}

// 9. The start state: 6 Drones + 2 Engineers against 7 + 2.
#[test]
fn the_first_player_starts_with_6_drones_2_engineers_and_2_energy_the_second_with_7() {
    let s = start();
    assert_eq!((count(&s, 0, "Drone"), count(&s, 0, "Engineer")), (6, 2));
    assert_eq!((count(&s, 1, "Drone"), count(&s, 1, "Engineer")), (7, 2));
    assert_eq!(s.sides[0].resources.to_string(), "2E");
    assert!(s.sides[1].resources.is_empty());
    assert!(s.sides[0].units.iter().all(|u| u.is_active()));
    // Drones have a click, Engineers do not.
    let d = s.sides[0]
        .units
        .iter()
        .find(|u| u.kind == id("Drone"))
        .unwrap();
    let e = s.sides[0]
        .units
        .iter()
        .find(|u| u.kind == id("Engineer"))
        .unwrap();
    assert_eq!((d.status, e.status), (Status::Default, Status::Inert));
    assert_eq!(
        (s.active, s.phase, s.buyable.len()),
        (0, TurnPhase::Action, 17)
    );
}

// 11. The retail "all doomed" win (and a player left without units loses; the open engine
// has no doomed win).
#[test]
fn a_player_whose_every_unit_is_doomed_loses_at_the_opponents_confirm() {
    let mut s = game("Shiver Yeti");
    for u in &mut s.sides[1].units {
        u.lifespan = 1;
    }
    apply(lib(), &mut s, Action::EndPhase);
    assert!(s.over);
    assert_eq!(s.winner, Some(0));
}

#[test]
fn a_player_left_without_units_loses_at_the_confirm() {
    let mut s = game("Shiver Yeti");
    set_attack(&mut s, 0, 9);
    apply(lib(), &mut s, Action::EndPhase);
    assert_eq!(live(&s, 1), 0, "9 blockers of 1 HP wiped out");
    apply(lib(), &mut s, Action::EndPhase);
    assert!(s.over);
    assert_eq!(s.winner, Some(0));
    let mut out = Vec::new();
    legal_actions(lib(), &s, &mut out);
    assert!(out.is_empty());
}

#[test]
fn the_open_engine_has_no_doomed_win_and_favours_player_1_in_mutual_elimination() {
    let mut s = game("Shiver Yeti");
    s.open_engine = true;
    for u in &mut s.sides[1].units {
        u.lifespan = 1;
    }
    apply(lib(), &mut s, Action::EndPhase);
    assert!(!s.over, "no doomed win");
    for mode in [false, true] {
        let mut s = game("Shiver Yeti");
        s.open_engine = mode;
        // Both sides lose every unit in player 0's turn (its own by hand).
        set_attack(&mut s, 0, 9);
        for u in &mut s.sides[0].units {
            u.alive = false;
        }
        apply(lib(), &mut s, Action::EndPhase);
        apply(lib(), &mut s, Action::EndPhase);
        assert!(s.over);
        assert_eq!(s.winner, mode.then_some(1), "open engine: {mode}");
    }
}
