//! Golden tests of Puerto Rico: the scenarios of spec §7.3 (numbered as there), and random
//! games for every player count, checked for the invariants and against their golden numbers.

use super::setup::{Level, barrel_pool, colonists_in_play, plantation_pool, quarry_pool};
use super::state::{Phase, State};
use super::test_support::{game, start};
use super::types::{
    Action, BUILDINGS, COFFEE, CORN, DRAW, INDIGO, Kind, PASS, QUARRY, SKIP, SUGAR, TOBACCO, bld,
    role,
};
use super::{PuertoRicoGame, legal, scoring};
use crate::game::{Game, Turn};

fn legal(s: &State) -> Vec<Action> {
    let mut v = Vec::new();
    game().legal_actions(s, &mut v);
    v
}

fn has(s: &State, kind: Kind, payload: u8) -> bool {
    legal(s)
        .iter()
        .any(|a| a.kind == kind && a.payload == payload)
}

/// The legal action of this kind and payload.
fn find(s: &State, kind: Kind, payload: u8) -> Action {
    *legal(s)
        .iter()
        .find(|a| a.kind == kind && a.payload == payload)
        .unwrap_or_else(|| {
            panic!(
                "{kind:?} {payload} not legal in {:?}: {:?}",
                s.phase,
                legal(s)
            )
        })
}

fn act(s: &mut State, kind: Kind, payload: u8) {
    let a = find(s, kind, payload);
    game().apply(s, a);
}

/// Plays the last legal action (a pass where there is one) until the next role pick.
fn finish_phase(s: &mut State) {
    while s.phase != Phase::RoleSelection && s.phase != Phase::Over {
        let a = *legal(s).last().unwrap();
        game().apply(s, a);
    }
}

/// Gives `p` building `b`, with `workers` colonists on it.
fn give(s: &mut State, p: usize, b: u8, workers: u8) {
    let me = &mut s.players[p];
    me.owned |= 1 << b;
    me.workers[usize::from(b)] = workers;
    me.city += super::types::BUILDING_TABLE[usize::from(b)].size();
}

// 1
#[test]
fn set_up_follows_the_component_tables_for_every_player_count() {
    let expected = [
        // n, supply, ship, vp, coins, caps, stack left
        (2, 40, 2, 65, 3, [4, 6, 0], 35 - 2 - 3),
        (3, 55, 3, 75, 2, [4, 5, 6], 43),
        (4, 75, 4, 100, 3, [5, 6, 7], 50 - 4 - 5),
        (5, 95, 5, 122, 4, [6, 7, 8], 50 - 5 - 6),
    ];
    for (n, supply, ship, vp, coins, caps, left) in expected {
        let s = start(n, 7);
        assert_eq!(
            (s.colonist_supply, s.colonist_ship, s.vp_supply),
            (supply, ship, vp)
        );
        assert_eq!(s.ship_cap, caps);
        assert_eq!(usize::from(s.stack_len), left, "{n} players");
        assert_eq!(s.row.iter().sum::<u8>(), n as u8 + 1);
        assert_eq!(s.goods_supply, barrel_pool(n));
        assert_eq!(s.quarries, quarry_pool(n));
        let indigo: Vec<bool> = (0..n).map(|p| s.players[p].tiles[1] == 1).collect();
        let want = match n {
            2 => vec![true, false],
            3 => vec![true, true, false],
            4 => vec![true, true, false, false],
            _ => vec![true, true, true, false, false],
        };
        assert_eq!(indigo, want);
        for p in 0..n {
            assert_eq!(s.players[p].doubloons, coins);
            assert_eq!(s.players[p].island(), 1);
            assert_eq!(s.players[p].colonists(), 0);
        }
        let small_violet = if n == 2 { 1 } else { 2 };
        assert_eq!(s.copies[usize::from(bld::HARBOR)], small_violet);
        assert_eq!(
            s.copies[usize::from(bld::SMALL_INDIGO)],
            if n == 2 { 2 } else { 4 }
        );
        assert_eq!(
            s.copies[usize::from(bld::SUGAR_MILL)],
            if n == 2 { 2 } else { 3 }
        );
        assert_eq!(s.copies[usize::from(bld::CITY_HALL)], 1);
        assert_eq!(s.roles_in_play.count_ones(), [0, 0, 7, 6, 7, 8][n]);
        assert_eq!(s.num_ships, if n == 2 { 2 } else { 3 });
    }
    assert!(Level::new(1).is_err() && Level::new(6).is_err());
    let five = PuertoRicoGame::new(super::Options { vp_chips_5p: 126 }).unwrap();
    assert_eq!(
        five.new_initial_state(&Level::new(5).unwrap(), 1).vp_supply,
        126
    );
    assert!(PuertoRicoGame::new(super::Options { vp_chips_5p: 100 }).is_err());
}

// 2
#[test]
fn unpicked_roles_gain_a_doubloon_each_round() {
    let mut s = start(3, 1);
    for _ in 0..2 {
        for r in [role::BUILDER, role::TRADER, role::CAPTAIN] {
            act(&mut s, Kind::Role, r);
            finish_phase(&mut s);
        }
    }
    assert_eq!(s.round, 2);
    assert_eq!(s.governor, 2);
    assert_eq!(s.role_coins[..6], [2, 2, 0, 2, 0, 0]);
    let before = s.players[2].doubloons;
    assert_eq!(s.actor, 2);
    act(&mut s, Kind::Role, role::MAYOR);
    assert_eq!(s.players[2].doubloons, before + 2);

    let mut s = start(2, 1);
    let mut pickers = Vec::new();
    for r in [
        role::BUILDER,
        role::TRADER,
        role::CAPTAIN,
        role::MAYOR,
        role::PROSPECTOR,
        role::CRAFTSMAN,
    ] {
        pickers.push(s.actor);
        act(&mut s, Kind::Role, r);
        finish_phase(&mut s);
    }
    assert_eq!(pickers, [0, 1, 0, 1, 0, 1]);
    assert_eq!(s.role_coins[..7], [1, 0, 0, 0, 0, 0, 0]);
    assert_eq!((s.round, s.governor, s.actor), (1, 1, 1));
}

// 7
#[test]
fn hospice_occupies_the_taken_tile_from_the_supply_then_the_ship() {
    for (supply, ship, occupied) in [(5, 3, (1, 4, 3)), (0, 3, (1, 0, 2)), (0, 0, (0, 0, 0))] {
        let mut s = start(3, 2);
        give(&mut s, 0, bld::HOSPICE, 1);
        s.colonist_supply = supply;
        s.colonist_ship = ship;
        act(&mut s, Kind::Role, role::SETTLER);
        let crop = (0..5u8).find(|&c| s.row[usize::from(c)] > 0).unwrap();
        act(&mut s, Kind::Plantation, crop);
        let me = &s.players[0];
        assert_eq!(
            me.occupied[usize::from(crop)],
            occupied.0,
            "supply {supply} ship {ship}"
        );
        assert_eq!(
            (s.colonist_supply, s.colonist_ship),
            (occupied.1, occupied.2)
        );
    }
    // Not the hacienda's tile.
    let mut s = start(3, 2);
    give(&mut s, 0, bld::HOSPICE, 1);
    give(&mut s, 0, bld::HACIENDA, 1);
    act(&mut s, Kind::Role, role::SETTLER);
    act(&mut s, Kind::Hacienda, DRAW);
    assert_eq!(s.players[0].colonists(), 2);
    assert_eq!(s.colonist_supply, 55);
}

// 8
#[test]
fn hacienda_draws_the_top_of_the_stack_then_the_row() {
    let mut s = start(3, 3);
    give(&mut s, 0, bld::HACIENDA, 1);
    let top = s.stack[usize::from(s.stack_len) - 1];
    act(&mut s, Kind::Role, role::SETTLER);
    assert_eq!(
        legal(&s),
        [
            Action::new(Kind::Hacienda, DRAW).with_end(false),
            Action::new(Kind::Hacienda, SKIP).with_end(false)
        ]
    );
    act(&mut s, Kind::Hacienda, DRAW);
    assert_eq!(
        s.players[0].tiles[usize::from(top)],
        1 + u8::from(top == INDIGO)
    );
    assert_eq!((s.phase, s.actor, s.sub), (Phase::Settler, 0, 1));
    assert!(has(&s, Kind::Plantation, QUARRY) && has(&s, Kind::Plantation, PASS));
    // One free island space: the draw fills it and ends the turn.
    let mut s = start(3, 3);
    give(&mut s, 0, bld::HACIENDA, 1);
    s.players[0].tiles[CORN as usize] = 10;
    act(&mut s, Kind::Role, role::SETTLER);
    let draw = find(&s, Kind::Hacienda, DRAW);
    assert!(draw.ends_turn);
    assert!(!find(&s, Kind::Hacienda, SKIP).ends_turn);
    game().apply(&mut s, draw);
    assert_eq!(s.players[0].island(), 12);
    assert_eq!(s.actor, 1);
}

// 9
#[test]
fn only_the_settler_or_a_construction_hut_gives_one_quarry() {
    let mut s = start(3, 4);
    give(&mut s, 0, bld::CONSTRUCTION_HUT, 1);
    act(&mut s, Kind::Role, role::SETTLER);
    act(&mut s, Kind::Plantation, QUARRY);
    assert_eq!((s.players[0].tiles[5], s.quarries, s.actor), (1, 7, 1));
    assert!(!has(&s, Kind::Plantation, QUARRY));
    // An occupied hut gives the right to a non-settler; none left, no option.
    let mut s = start(3, 4);
    give(&mut s, 1, bld::CONSTRUCTION_HUT, 1);
    act(&mut s, Kind::Role, role::SETTLER);
    act(&mut s, Kind::Plantation, PASS);
    assert!(has(&s, Kind::Plantation, QUARRY));
    let mut s = start(3, 4);
    s.quarries = 0;
    act(&mut s, Kind::Role, role::SETTLER);
    assert!(!has(&s, Kind::Plantation, QUARRY));
}

// 10
#[test]
fn row_refill_reshuffles_the_discards_when_the_stack_runs_out() {
    let mut s = start(3, 5);
    s.stack_len = 2;
    s.discard = [3, 0, 0, 0, 0];
    let row = s.row;
    let bottom = [s.stack[0], s.stack[1]];
    act(&mut s, Kind::Role, role::SETTLER);
    let mut replay = s;
    finish_phase(&mut s);
    finish_phase(&mut replay);
    assert_eq!(s, replay, "reshuffles replay from the state RNG");
    assert_eq!(s.row.iter().sum::<u8>(), 4);
    assert_eq!(s.discard, [0; 5]);
    assert_eq!(s.stack_len, 3 + 4 + 2 - 4);
    let mut all = [0u8; 5];
    for &c in &s.stack[..usize::from(s.stack_len)] {
        all[usize::from(c)] += 1;
    }
    for (a, r) in all.iter_mut().zip(s.row) {
        *a += r;
    }
    let mut want = row;
    want[0] += 3;
    for c in bottom {
        want[usize::from(c)] += 1;
    }
    assert_eq!(all, want);
}

// 13
#[test]
fn builder_price_counts_privilege_and_occupied_quarries_up_to_the_column() {
    let mut s = start(3, 6);
    s.players[0].tiles[5] = 3;
    s.players[0].occupied[5] = 3;
    s.players[1].tiles[5] = 3;
    for p in 0..3 {
        s.players[p].doubloons = 20;
    }
    act(&mut s, Kind::Role, role::BUILDER);
    assert_eq!(legal::price(&s, 0, bld::CITY_HALL), 6);
    assert_eq!(legal::price(&s, 0, bld::SMALL_MARKET), 0);
    assert_eq!(legal::price(&s, 0, bld::OFFICE), 2);
    assert_eq!(legal::price(&s, 1, bld::CITY_HALL), 10);
    assert_eq!(legal::price(&s, 1, bld::HARBOR), 8);
    act(&mut s, Kind::Build, bld::CITY_HALL);
    assert_eq!((s.players[0].doubloons, s.players[0].city), (14, 2));
    // Seat 1 cannot build the last city hall; seat 2 with 11 spaces used builds no large one.
    assert!(!has(&s, Kind::Build, bld::CITY_HALL));
    act(&mut s, Kind::Build, bld::SMALL_MARKET);
    assert_eq!(s.players[1].doubloons, 19);
    s.players[2].city = 11;
    assert!(!has(&s, Kind::Build, bld::GUILD_HALL) && has(&s, Kind::Build, bld::WHARF));
    s.players[2].city = 12;
    assert_eq!(legal(&s), [Action::new(Kind::Build, PASS)]);
    // A duplicate is never offered.
    let mut s = start(3, 6);
    give(&mut s, 0, bld::SMALL_MARKET, 0);
    act(&mut s, Kind::Role, role::BUILDER);
    assert!(!has(&s, Kind::Build, bld::SMALL_MARKET) && has(&s, Kind::Build, bld::HACIENDA));
}

// 14
#[test]
fn university_staffs_the_new_building_from_the_supply_then_the_ship() {
    for (b, supply, ship, after) in [
        (bld::COFFEE_ROASTER, 10, 3, (9, 3)),
        (bld::CITY_HALL, 0, 3, (0, 2)),
    ] {
        let mut s = start(3, 8);
        give(&mut s, 0, bld::UNIVERSITY, 1);
        s.players[0].doubloons = 20;
        s.colonist_supply = supply;
        s.colonist_ship = ship;
        act(&mut s, Kind::Role, role::BUILDER);
        act(&mut s, Kind::Build, b);
        assert_eq!(s.players[0].workers[usize::from(b)], 1);
        assert_eq!((s.colonist_supply, s.colonist_ship), after);
    }
}

// 12th city space (§2.5): the trigger fires, the round finishes.
#[test]
fn filling_the_twelfth_city_space_ends_the_game_after_the_round() {
    let mut s = start(3, 9);
    s.players[0].city = 10;
    s.players[0].doubloons = 20;
    act(&mut s, Kind::Role, role::BUILDER);
    act(&mut s, Kind::Build, bld::FORTRESS);
    finish_phase(&mut s);
    assert!(s.end_triggered);
    assert_eq!((s.phase, s.actor), (Phase::RoleSelection, 1));
    act(&mut s, Kind::Role, role::TRADER);
    finish_phase(&mut s);
    act(&mut s, Kind::Role, role::CAPTAIN);
    finish_phase(&mut s);
    assert_eq!(game().turn(&s), Turn::Terminal);
    assert!(game().outcome(&s).is_some());
    assert!(legal(&s).is_empty());
    let _ = (
        SUGAR,
        TOBACCO,
        COFFEE,
        BUILDINGS,
        scoring::score,
        colonists_in_play,
        plantation_pool,
    );
}

/// Conservation of colonists, barrels, tiles and buildings, and bounds on islands and cities.
fn check_invariants(s: &State) {
    let n = s.n();
    let ps = &s.players[..n];
    let colonists: u32 = ps.iter().map(|p| p.colonists()).sum::<u32>()
        + u32::from(s.colonist_supply)
        + u32::from(s.colonist_ship);
    assert_eq!(colonists, colonists_in_play(n), "colonists");
    for g in 0..5 {
        let ships: u8 = (0..usize::from(s.num_ships))
            .filter(|&i| usize::from(s.ship_good[i]) == g)
            .map(|i| s.ship_load[i])
            .sum();
        let held: u8 = ps.iter().map(|p| p.goods[g]).sum();
        assert_eq!(
            held + ships + s.house[g] + s.goods_supply[g],
            barrel_pool(n)[g],
            "barrels of {g}"
        );
        let stack = s.stack[..usize::from(s.stack_len)]
            .iter()
            .filter(|&&c| usize::from(c) == g)
            .count();
        let tiles: u8 = ps.iter().map(|p| p.tiles[g]).sum();
        assert_eq!(
            stack as u8 + s.row[g] + s.discard[g] + tiles,
            plantation_pool(n)[g],
            "tiles of {g}"
        );
    }
    for i in 0..usize::from(s.num_ships) {
        assert!(s.ship_load[i] <= s.ship_cap[i]);
        assert_eq!(s.ship_load[i] == 0, s.ship_good[i] == super::state::NO_GOOD);
    }
    assert_eq!(
        s.quarries + ps.iter().map(|p| p.tiles[5]).sum::<u8>(),
        quarry_pool(n)
    );
    for b in 0..BUILDINGS {
        let owners = ps.iter().filter(|p| p.owns(b as u8)).count() as u8;
        assert_eq!(
            s.copies[b] + owners,
            super::setup::building_copies(n, b),
            "building {b}"
        );
    }
    for p in ps {
        assert!(p.island() <= 12 && p.city <= 12);
        for t in 0..6 {
            assert!(p.occupied[t] <= p.tiles[t]);
        }
        for (b, t) in super::types::BUILDING_TABLE.iter().enumerate() {
            assert!(p.workers[b] <= t.slots && (p.workers[b] == 0 || p.owns(b as u8)));
        }
    }
    assert!(s.house_fill() <= 4);
}

/// Plays a random game, checking invariants and the legal lists at every step; returns the
/// final state and the actions.
fn random_game(n: usize, seed: u64) -> (State, Vec<Action>) {
    use rand::RngExt;
    let g = game();
    let mut rng = crate::rng::derive_rng(seed, &[n as u64]);
    let mut s = start(n, seed);
    let mut actions = Vec::new();
    let mut buf = Vec::new();
    loop {
        check_invariants(&s);
        g.legal_actions(&s, &mut buf);
        if g.turn(&s) == Turn::Terminal {
            assert!(buf.is_empty());
            break;
        }
        assert!(!buf.is_empty(), "no legal action in\n{}", g.render(&s));
        assert!(
            buf.windows(2)
                .all(|w| (w[0].kind, w[0].payload) < (w[1].kind, w[1].payload))
        );
        // No fake decisions: a lone action is never a pass, except a declined wharf.
        if buf.len() == 1 {
            assert!(!buf[0].is_pass(), "lone pass in\n{}", g.render(&s));
        }
        let a = buf[rng.random_range(0..buf.len())];
        let label = g.action_label(a).unwrap();
        assert!(g.info().action_labels.contains(&label), "{label}");
        assert!(label.starts_with(g.info().action_kinds[usize::from(g.action_kind(a))]));
        let (before, phase) = (s.actor, s.phase);
        g.apply(&mut s, a);
        actions.push(a);
        if !a.ends_turn {
            assert_eq!(
                (s.actor, s.phase),
                (before, phase),
                "{a:?} does not end the turn"
            );
        } else if matches!(a.kind, Kind::Colonist | Kind::Store | Kind::Hacienda)
            && s.phase == phase
        {
            assert_ne!(s.actor, before, "{a:?} ends the turn");
        }
        assert!(s.round < 80, "game too long");
    }
    (s, actions)
}

// Random play for every player count: invariants, replay, every building built somewhere.
#[test]
fn random_games_keep_invariants_replay_and_build_everything() {
    let g = game();
    for n in 2..=5 {
        let mut built = 0u32;
        let mut rounds = 0u32;
        for seed in 0..300 {
            let (end, actions) = random_game(n, seed);
            let mut replay = start(n, seed);
            for &a in &actions {
                assert!(g.is_legal(&replay, a));
                g.apply(&mut replay, a);
            }
            assert_eq!(replay, end);
            let outcome = g.outcome(&end).unwrap();
            assert_eq!(outcome.seats(), n);
            let mut stats = Vec::new();
            g.player_stats(&end, 0, &mut stats);
            assert_eq!(stats.len(), g.info().stats.len());
            assert!(g.render(&end).contains(&format!("P{}:", n - 1)));
            built |= end.players[..n].iter().fold(0, |m, p| m | p.owned);
            rounds += u32::from(end.round);
        }
        assert_eq!(
            built,
            (1 << BUILDINGS) - 1,
            "{n} players: buildings never built {built:b}"
        );
        eprintln!(
            "{n} players: {:.1} rounds per random game",
            f64::from(rounds) / 300.0
        );
    }
}

/// Gives `p` `k` tiles of `t` (crop or quarry), `occ` of them occupied.
fn tiles(s: &mut State, p: usize, t: u8, k: u8, occ: u8) {
    s.players[p].tiles[usize::from(t)] = k;
    s.players[p].occupied[usize::from(t)] = occ;
}

// 11
#[test]
fn factory_pays_for_kinds_received_and_the_extra_barrel_is_of_a_kind_received() {
    let cases = [
        (3, false, 2), // corn, indigo, sugar
        (5, false, 5),
        (5, true, 3), // coffee supply empty: four kinds
    ];
    for (kinds, no_coffee, income) in cases {
        let mut s = start(3, 10);
        give(&mut s, 0, bld::FACTORY, 1);
        tiles(&mut s, 0, CORN, 1, 1);
        tiles(&mut s, 0, INDIGO, 1, 1);
        tiles(&mut s, 0, SUGAR, 1, 1);
        give(&mut s, 0, bld::SMALL_INDIGO, 1);
        give(&mut s, 0, bld::SMALL_SUGAR, 1);
        if kinds == 5 {
            tiles(&mut s, 0, TOBACCO, 1, 1);
            tiles(&mut s, 0, COFFEE, 1, 1);
            give(&mut s, 0, bld::TOBACCO_STORAGE, 1);
            give(&mut s, 0, bld::COFFEE_ROASTER, 1);
        }
        if no_coffee {
            s.goods_supply[usize::from(COFFEE)] = 0;
        }
        let before = s.players[0].doubloons;
        act(&mut s, Kind::Role, role::CRAFTSMAN);
        assert_eq!(
            s.players[0].doubloons - before,
            income,
            "{kinds} kinds, coffee {no_coffee}"
        );
        let extra: Vec<u8> = legal(&s).iter().map(|a| a.payload).collect();
        let mut want: Vec<u8> = (0..kinds)
            .filter(|&g| !(no_coffee && g == COFFEE))
            .collect();
        want.push(PASS);
        assert_eq!(extra, want);
        act(&mut s, Kind::ExtraGood, INDIGO);
        assert_eq!(s.players[0].goods[usize::from(INDIGO)], 2);
        assert_eq!(s.phase, Phase::RoleSelection);
    }
    // Without production the craftsman has no extra barrel; a short supply serves in seat order.
    let mut s = start(3, 10);
    s.actor = 2;
    s.governor = 2;
    tiles(&mut s, 2, CORN, 2, 2);
    tiles(&mut s, 0, CORN, 2, 2);
    tiles(&mut s, 1, INDIGO, 1, 1);
    s.goods_supply[usize::from(CORN)] = 3;
    act(&mut s, Kind::Role, role::CRAFTSMAN);
    assert_eq!(s.players[2].goods[0], 2);
    assert_eq!(s.players[0].goods[0], 1);
    assert_eq!(s.players[1].goods, [0; 5], "indigo needs a plant");
    assert_eq!(
        s.phase,
        Phase::RoleSelection,
        "no corn left for the extra barrel"
    );
}

// 12
#[test]
fn trader_sells_one_kind_once_unless_office_and_the_house_empties_only_when_full() {
    let mut s = start(3, 11);
    s.house[usize::from(INDIGO)] = 1;
    for p in 0..3 {
        s.players[p].goods = [0, 1, 0, 0, 1];
    }
    give(&mut s, 0, bld::SMALL_MARKET, 1);
    give(&mut s, 0, bld::LARGE_MARKET, 1);
    give(&mut s, 1, bld::OFFICE, 1);
    act(&mut s, Kind::Role, role::TRADER);
    assert!(!has(&s, Kind::Sell, INDIGO) && has(&s, Kind::Sell, COFFEE));
    let before = s.players[0].doubloons;
    act(&mut s, Kind::Sell, COFFEE);
    assert_eq!(s.players[0].doubloons - before, 4 + 1 + 1 + 2);
    assert_eq!(s.actor, 1);
    assert!(
        has(&s, Kind::Sell, INDIGO) && has(&s, Kind::Sell, COFFEE),
        "office"
    );
    act(&mut s, Kind::Sell, INDIGO);
    assert_eq!(s.players[1].doubloons, 2 + 1);
    // Seat 2 has only kinds already in the house: no turn; the house of 3 stays.
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!(s.house, [0, 2, 0, 0, 1]);
    // A fourth barrel fills the house, emptied at the end of the phase.
    s.players[2].goods = [1, 0, 0, 0, 0];
    s.players[1].goods = [0; 5];
    (s.roles_taken, s.picks, s.actor) = (0, 2, 2);
    act(&mut s, Kind::Role, role::TRADER);
    assert_eq!(s.actor, 2);
    act(&mut s, Kind::Sell, CORN);
    assert_eq!(s.players[2].doubloons, 2 + 1);
    assert_eq!(s.house, [0; 5]);
    assert_eq!(s.goods_supply, [11, 13, 11, 9, 10]);
}

// 15
#[test]
fn mayor_deals_from_the_mayor_fills_forced_circles_and_refills_by_building_circles() {
    let mut s = start(3, 12);
    s.governor = 1;
    s.actor = 1;
    s.colonist_ship = 5;
    act(&mut s, Kind::Role, role::MAYOR);
    // 1 + 2 to the mayor, 2 to seat 2, 1 to seat 0; one tile each: all forced.
    let c: Vec<u32> = (0..3).map(|p| s.players[p].colonists()).collect();
    assert_eq!(c, [1, 3, 2]);
    for p in 0..3 {
        assert_eq!(s.players[p].occupied.iter().sum::<u8>(), 1);
    }
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!((s.colonist_supply, s.colonist_ship), (55 - 1 - 3, 3));

    // A real choice, one colonist at a time; island circles do not count for the refill.
    let mut s = start(3, 12);
    tiles(&mut s, 0, CORN, 10, 0);
    give(&mut s, 0, bld::INDIGO_PLANT, 0);
    give(&mut s, 0, bld::COFFEE_ROASTER, 0);
    give(&mut s, 0, bld::TOBACCO_STORAGE, 1);
    act(&mut s, Kind::Role, role::MAYOR);
    assert_eq!(s.players[0].san_juan, 3, "privilege + 1 dealt + 1 lifted");
    let targets: Vec<u8> = legal(&s).iter().map(|a| a.payload).collect();
    assert_eq!(targets, [0, 1, 6 + 2, 6 + 4, 6 + 5]);
    assert!(legal(&s).iter().all(|a| !a.ends_turn));
    act(&mut s, Kind::Colonist, 0);
    act(&mut s, Kind::Colonist, 0);
    let last = find(&s, Kind::Colonist, 0);
    assert!(last.ends_turn);
    game().apply(&mut s, last);
    assert_eq!(s.players[0].occupied[0], 3);
    assert_eq!(s.players[0].empty_building_circles(), 8);
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!((s.colonist_supply, s.colonist_ship), (55 - 1 - 8, 8));
    // Seat 0 keeps one more colonist than circles of one kind: forced, the rest in San Juan.
    let mut s = start(3, 12);
    s.colonist_ship = 9;
    act(&mut s, Kind::Role, role::MAYOR);
    assert_eq!((s.players[0].occupied[1], s.players[0].san_juan), (1, 3));
}

/// Puts `load` barrels of `good` on ship `i`.
fn ship(s: &mut State, i: usize, good: u8, load: u8) {
    s.ship_good[i] = good;
    s.ship_load[i] = load;
    s.goods_supply[usize::from(good)] -= load;
}

/// Gives `p` barrels from the supply.
fn goods(s: &mut State, p: usize, held: [u8; 5]) {
    for (g, k) in held.into_iter().enumerate() {
        s.goods_supply[g] -= k;
        s.players[p].goods[g] += k;
    }
}

fn load(good: u8, target: u8) -> u8 {
    good * 4 + target
}

// 3
#[test]
fn captain_must_load_on_the_ship_of_the_kind_or_the_largest_empty_one() {
    let mut s = start(3, 13);
    ship(&mut s, 1, SUGAR, 3);
    goods(&mut s, 0, [5, 0, 2, 0, 0]);
    act(&mut s, Kind::Role, role::CAPTAIN);
    assert_eq!(
        legal(&s),
        [
            Action::new(Kind::Load, load(CORN, 2)),
            Action::new(Kind::Load, load(SUGAR, 1))
        ]
    );
    act(&mut s, Kind::Load, load(CORN, 2));
    assert_eq!((s.players[0].chips, s.vp_supply), (6, 75 - 6));
    assert_eq!(s.actor, 0, "the others cannot load");
    act(&mut s, Kind::Load, load(SUGAR, 1));
    assert_eq!(s.players[0].chips, 8);
    // Out, storage: nothing left; the full sugar ship is emptied, the corn ship keeps its cargo.
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!(
        (s.ship_good, s.ship_load),
        (
            [super::state::NO_GOOD, super::state::NO_GOOD, CORN],
            [0, 0, 5]
        )
    );
    assert_eq!(s.goods_supply[usize::from(SUGAR)], 11);
    // A player who is not the captain gets no bonus.
    let mut s = start(3, 13);
    goods(&mut s, 1, [1, 0, 0, 0, 0]);
    act(&mut s, Kind::Role, role::CAPTAIN);
    assert_eq!(s.actor, 1);
    assert_eq!(legal(&s).len(), 3, "one barrel: every empty ship takes it");
    act(&mut s, Kind::Load, load(CORN, 0));
    assert_eq!(s.players[1].chips, 1);
}

// 4
#[test]
fn a_kind_on_a_full_ship_cannot_be_loaded_and_storage_keeps_one_barrel() {
    for (warehouse, kept) in [(false, 1), (true, 3)] {
        let mut s = start(3, 14);
        ship(&mut s, 1, SUGAR, 5);
        goods(&mut s, 0, [0, 0, 3, 0, 0]);
        if warehouse {
            give(&mut s, 0, bld::SMALL_WAREHOUSE, 1);
        }
        act(&mut s, Kind::Role, role::CAPTAIN);
        assert_eq!(s.phase, Phase::RoleSelection, "no load, storage forced");
        assert_eq!(s.players[0].goods[usize::from(SUGAR)], kept);
        assert_eq!(s.ship_load, [0; 3]);
        assert_eq!(s.goods_supply[usize::from(SUGAR)], 11 - kept);
    }
}

// 5
#[test]
fn wharf_ships_all_of_one_kind_once_and_may_be_declined() {
    let mut s = start(3, 15);
    ship(&mut s, 0, CORN, 4);
    ship(&mut s, 1, INDIGO, 5);
    // The spec's scenario has 7 corn; with 3 players 4 are on the ship and 6 are left.
    goods(&mut s, 1, [6, 2, 0, 0, 0]);
    give(&mut s, 1, bld::WHARF, 1);
    give(&mut s, 1, bld::HARBOR, 1);
    act(&mut s, Kind::Role, role::CAPTAIN);
    assert_eq!(s.actor, 1);
    assert_eq!(
        legal(&s),
        [
            Action::new(Kind::Load, load(CORN, 3)),
            Action::new(Kind::Load, load(INDIGO, 3)),
            Action::new(Kind::Load, PASS)
        ]
    );
    let mut declined = s;
    act(&mut declined, Kind::Load, PASS);
    assert_eq!(declined.players[1].chips, 0);
    act(&mut s, Kind::Load, load(CORN, 3));
    assert_eq!(s.players[1].chips, 6 + 1);
    assert_eq!(s.players[1].goods[0], 0);
    // No second wharf: seat 1 is out, storage keeps one indigo.
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!(s.players[1].goods, [0, 1, 0, 0, 0]);
    // A cargo load possible: the wharf is an option, Pass is not.
    let mut s = start(3, 15);
    goods(&mut s, 0, [2, 0, 0, 0, 0]);
    give(&mut s, 0, bld::WHARF, 1);
    act(&mut s, Kind::Role, role::CAPTAIN);
    let l = legal(&s);
    assert_eq!(l.len(), 4);
    assert!(l.iter().all(|a| !a.is_pass()) && l[3].payload == load(CORN, 3));
}

// 6
#[test]
fn captain_bonus_once_harbor_on_every_load() {
    for (harbor, chips) in [(false, 3 + 2), (true, 4 + 3)] {
        let mut s = start(3, 16);
        goods(&mut s, 0, [2, 2, 0, 0, 0]);
        if harbor {
            give(&mut s, 0, bld::HARBOR, 1);
        }
        act(&mut s, Kind::Role, role::CAPTAIN);
        act(&mut s, Kind::Load, load(CORN, 0));
        act(&mut s, Kind::Load, load(INDIGO, 1));
        assert_eq!(s.players[0].chips, chips);
    }
}

// 18
#[test]
fn storage_keeps_warehouse_kinds_and_one_free_barrel() {
    let mut s = start(3, 17);
    ship(&mut s, 0, CORN, 4);
    ship(&mut s, 1, INDIGO, 5);
    ship(&mut s, 2, SUGAR, 6);
    goods(&mut s, 0, [3, 3, 3, 3, 3]);
    give(&mut s, 0, bld::SMALL_WAREHOUSE, 1);
    give(&mut s, 0, bld::LARGE_WAREHOUSE, 1);
    act(&mut s, Kind::Role, role::CAPTAIN);
    assert_eq!(s.phase, Phase::Storage);
    let l = legal(&s);
    assert_eq!(
        l.iter().map(|a| a.payload).collect::<Vec<_>>(),
        [1, 3, 5, 7, 9]
    );
    assert!(l.iter().all(|a| !a.ends_turn));
    act(&mut s, Kind::Store, COFFEE * 2 + 1);
    act(&mut s, Kind::Store, TOBACCO * 2 + 1);
    act(&mut s, Kind::Store, SUGAR * 2 + 1);
    assert_eq!(
        legal(&s),
        [
            Action::new(Kind::Store, CORN * 2),
            Action::new(Kind::Store, INDIGO * 2)
        ]
    );
    act(&mut s, Kind::Store, CORN * 2);
    assert_eq!(s.players[0].goods, [1, 0, 3, 3, 3]);
    assert_eq!(s.players[0].spoiled, 5);
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!(s.ship_load, [0; 3], "full ships emptied");
    assert_eq!(s.goods_supply, [9, 11, 8, 6, 6]);
    // Everything fits: one warehouse kind plus a single barrel, no decision.
    let mut s = start(3, 17);
    ship(&mut s, 0, CORN, 4);
    ship(&mut s, 1, INDIGO, 5);
    ship(&mut s, 2, SUGAR, 6);
    goods(&mut s, 0, [0, 0, 0, 4, 1]);
    give(&mut s, 0, bld::SMALL_WAREHOUSE, 1);
    act(&mut s, Kind::Role, role::CAPTAIN);
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!(s.players[0].goods, [0, 0, 0, 4, 1]);
}

/// Picks `r` with whoever is to pick and plays the phase out with passes.
fn pick_and_pass(s: &mut State, r: u8) {
    act(s, Kind::Role, r);
    finish_phase(s);
}

// 16 (a is `filling_the_twelfth_city_space_ends_the_game_after_the_round`)
#[test]
fn end_triggers_let_the_round_finish() {
    // (b) The VP supply runs out mid-captain: loading goes on, the deficit is paid.
    let mut s = start(3, 18);
    s.vp_supply = 2;
    goods(&mut s, 0, [3, 0, 0, 0, 0]);
    goods(&mut s, 1, [0, 2, 0, 0, 0]);
    act(&mut s, Kind::Role, role::CAPTAIN);
    act(&mut s, Kind::Load, load(CORN, 0));
    assert!(s.end_triggered);
    act(&mut s, Kind::Load, load(INDIGO, 1));
    assert_eq!((s.players[1].chips, s.vp_supply), (2, -4));
    pick_and_pass(&mut s, role::TRADER);
    assert_eq!(game().turn(&s), Turn::Player(2));
    pick_and_pass(&mut s, role::BUILDER);
    assert_eq!(game().turn(&s), Turn::Terminal);

    // (c) A short refill ends the game at round end; a university may still take from the ship.
    let mut s = start(3, 18);
    s.colonist_supply = 2;
    give(&mut s, 1, bld::UNIVERSITY, 1);
    s.players[1].doubloons = 10;
    pick_and_pass(&mut s, role::MAYOR);
    assert!(s.end_triggered);
    assert_eq!((s.colonist_supply, s.colonist_ship), (0, 1));
    act(&mut s, Kind::Role, role::BUILDER);
    act(&mut s, Kind::Build, bld::SMALL_MARKET);
    assert_eq!(
        (
            s.players[1].workers[usize::from(bld::SMALL_MARKET)],
            s.colonist_ship
        ),
        (1, 0)
    );
    finish_phase(&mut s);
    assert_ne!(game().turn(&s), Turn::Terminal);
    pick_and_pass(&mut s, role::TRADER);
    assert_eq!(game().turn(&s), Turn::Terminal);

    // (d) A supply that exactly covers the refill does not end the game; the next mayor does.
    let mut s = start(3, 18);
    s.colonist_supply = 4;
    pick_and_pass(&mut s, role::MAYOR);
    assert_eq!(
        (s.colonist_supply, s.colonist_ship, s.end_triggered),
        (0, 3, false)
    );
    pick_and_pass(&mut s, role::TRADER);
    pick_and_pass(&mut s, role::BUILDER);
    assert_eq!((s.round, game().turn(&s)), (1, Turn::Player(1)));
    pick_and_pass(&mut s, role::MAYOR);
    assert!(s.end_triggered);
}

// 17
#[test]
fn scores_count_chips_buildings_and_occupied_large_bonuses() {
    let mut s = start(3, 19);
    give(&mut s, 0, bld::GUILD_HALL, 0);
    assert_eq!(
        scoring::score(&s.players[0]),
        4,
        "unoccupied: printed VP, no bonus"
    );
    s.players[0].workers[usize::from(bld::GUILD_HALL)] = 1;
    give(&mut s, 0, bld::SMALL_INDIGO, 0);
    give(&mut s, 0, bld::INDIGO_PLANT, 0);
    assert_eq!(scoring::bonus_vp(&s.players[0]), 1 + 2);
    for (island, bonus) in [(9, 4), (10, 5), (11, 6), (12, 7)] {
        let mut s = start(3, 19);
        give(&mut s, 0, bld::RESIDENCE, 1);
        tiles(&mut s, 0, CORN, island - 1, 0);
        assert_eq!(scoring::bonus_vp(&s.players[0]), bonus);
    }
    let mut s = start(3, 19);
    give(&mut s, 0, bld::FORTRESS, 1);
    tiles(&mut s, 0, CORN, 3, 3);
    s.players[0].san_juan = 4;
    assert_eq!(scoring::bonus_vp(&s.players[0]), (1 + 3 + 4) / 3);
    give(&mut s, 0, bld::CUSTOMS_HOUSE, 1);
    s.players[0].chips = 11;
    assert_eq!(
        scoring::bonus_vp(&s.players[0]),
        9 / 3 + 11 / 4,
        "its colonist counts"
    );
    give(&mut s, 0, bld::CITY_HALL, 1);
    give(&mut s, 0, bld::HARBOR, 0);
    give(&mut s, 0, bld::SMALL_SUGAR, 0);
    // Fortress 10 / 3, customs 11 / 4, city hall: fortress, customs, itself, harbor.
    assert_eq!(scoring::bonus_vp(&s.players[0]), 3 + 2 + 4);
    assert_eq!(scoring::score(&s.players[0]), 11 + 4 * 3 + 3 + 1 + 9);

    // Tie-break by doubloons + barrels; a residual tie has no winner.
    let mut s = start(2, 19);
    s.players[0].chips = 5;
    s.players[1].chips = 5;
    s.players[1].goods[0] = 1;
    s.phase = Phase::Over;
    assert_eq!(game().outcome(&s).unwrap().winner(), Some(1));
    s.players[0].doubloons += 1;
    assert!(game().outcome(&s).unwrap().is_draw());
}

// 19
#[test]
fn observe_hides_the_stack_order_and_determinise_samples_it() {
    use crate::rng::rng_from_seed;
    let g = game();
    let s = start(4, 20);
    let seen = g.observe(&s, 1);
    let len = usize::from(s.stack_len);
    assert!(seen.stack[..len].windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(seen.rng, 0);
    let (mut a, mut b) = (seen, seen);
    g.determinise(&seen, 1, &mut rng_from_seed(1), &mut a);
    g.determinise(&seen, 1, &mut rng_from_seed(2), &mut b);
    assert_ne!(a.stack, b.stack);
    for d in [a, b] {
        assert_eq!(
            g.observe(&d, 1),
            seen,
            "only the stack order and the RNG differ"
        );
        assert_ne!(d.rng, 0);
    }
}

// Golden numbers of one random game per player count: any change to the rules or to the order
// of legal actions shows here first (regenerate only for an intended rule change).
#[test]
fn random_games_replay_golden_numbers() {
    let mut got = Vec::new();
    for n in 2..=5 {
        let (end, actions) = random_game(n, 2026);
        let scores: Vec<u32> = end.players[..n].iter().map(scoring::score).collect();
        got.push((n, end.round, actions.len(), scores));
    }
    let want = vec![
        (2, 13, 251, vec![34, 26]),
        (3, 19, 346, vec![20, 16, 13]),
        (4, 22, 523, vec![34, 33, 46, 35]),
        (5, 21, 868, vec![23, 37, 20, 37, 35]),
    ];
    assert_eq!(got, want);
}
