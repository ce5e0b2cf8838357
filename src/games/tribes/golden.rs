//! Golden tests of Tribes: small hand-built positions, actions applied through the public game
//! API, and exact numbers worked out by hand from the rules reference
//! (`shared/spec/tribes-rules.md`, section numbers below). Each expected number carries its
//! arithmetic in a comment.
//!
//! Coordinates are (row, column) as in the spec (§1); boards are written with [`grid`], one
//! character per cell.

use super::check::{check_invariants, recompute_score};
use super::economy::{found_city, production, tech_cost, tribe_production};
use super::state::{NONE, State, TribeResult, Unit};
use super::{
    Action, ActionKind as K, Building, Compat, GameMode, Level, LevelUpBonus, MonumentStatus,
    Resource, Tech, TechSet, Terrain, TribesGame, TribesRules, UnitKind, UnitStatus,
};
use crate::game::{Game, Outcome};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Level text (spec §2.2) from compact rows, one character per cell: `.` plain, `f` forest,
/// `m` mountain, `s` shallow water, `d` deep water, `v` village, `0`–`3` the capital of that
/// tribe key, `r` plain with ruins, `F` plain with fruit.
fn grid(rows: &[&str]) -> String {
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .chars()
            .map(|c| match c {
                '0'..='3' => format!("c:{c}"),
                'r' => ".:r".to_string(),
                'F' => ".:f".to_string(),
                t => format!("{t}:"),
            })
            .collect();
        text.push_str(&cells.join(","));
        text.push('\n');
    }
    text
}

/// The game with the given compatibility and mode, and the initial state of `rows` (seed 1).
fn start_with(compat: Compat, mode: GameMode, rows: &[&str]) -> (TribesGame, State) {
    let game = TribesGame::new(TribesRules { compat, mode });
    let level = Level::parse(&grid(rows), "golden").expect("test level parses");
    let s = game.new_initial_state(&level, 1);
    assert_consistent(&game, &s);
    (game, s)
}

/// The default game (intended rules, CAPITALS mode) and the initial state of `rows`.
fn start(rows: &[&str]) -> (TribesGame, State) {
    start_with(Compat::Intended, GameMode::Capitals, rows)
}

/// A 7×7 plain board: Xin-Xi (tribe 0) in the top-left corner, Imperius (tribe 1) in the
/// bottom-right one; their territories are rows/cols 0–1 and 5–6.
const OPEN: &[&str] = &[
    "0......", ".......", ".......", ".......", ".......", ".......", "......1",
];

/// The invariants hold, and under the intended rules every tribe's tracked score equals the
/// score recomputed from the board.
fn assert_consistent(game: &TribesGame, s: &State) {
    if let Err(e) = check_invariants(s) {
        panic!("invariant violated: {e}\n{}", game.render(s));
    }
    if game.rules.compat == Compat::Intended {
        for p in 0..s.num_tribes {
            assert_eq!(
                s.tribes[p as usize].score,
                recompute_score(s, p),
                "tracked vs recomputed score of tribe {p}"
            );
        }
    }
}

/// Tile index of (row, column).
fn at(s: &State, x: i32, y: i32) -> usize {
    s.idx(x, y).expect("on the board")
}

/// A tile named by its index or by its (row, column).
trait Where: Copy {
    /// The tile index on `s`'s board.
    fn tile(self, s: &State) -> usize;
}

impl Where for usize {
    fn tile(self, _: &State) -> usize {
        self
    }
}

impl Where for (i32, i32) {
    fn tile(self, s: &State) -> usize {
        at(s, self.0, self.1)
    }
}

/// Founds a level-1 non-capital city of `tribe` at `place`, as a captured village becomes one
/// (§5.6), and returns its index.
fn found(game: &TribesGame, s: &mut State, place: impl Where, tribe: u8) -> usize {
    let t = place.tile(s);
    found_city(&game.rules, s, t, tribe, false)
}

/// Places a fresh, full-HP, homeless unit on the empty tile `tile` and returns its slot; the
/// tribe's score gains the unit's points so that the score stays recomputable. Naval units
/// carry a warrior (10 HP).
fn place_unit(s: &mut State, kind: UnitKind, tribe: u8, tile: impl Where) -> usize {
    let tile = tile.tile(s);
    assert_eq!(s.tiles[tile].unit, NONE, "tile {tile} is occupied");
    let (base, max_hp) = if kind.is_naval() {
        (UnitKind::Warrior, UnitKind::Warrior.stats().max_hp as u8)
    } else {
        (kind, kind.stats().max_hp as u8)
    };
    let points = kind.stats().points as u8;
    let unit = Unit {
        id: s.next_unit_id,
        kind,
        base,
        tribe,
        home: NONE,
        status: UnitStatus::Fresh,
        hp: max_hp,
        max_hp,
        kills: 0,
        veteran: false,
        pos: tile as u16,
        alive: true,
        points,
    };
    s.next_unit_id += 1;
    let slot = match s.units.iter().position(|u| !u.alive) {
        Some(i) => {
            s.units[i] = unit;
            i
        }
        None => {
            s.units.push(unit);
            s.units.len() - 1
        }
    };
    s.tiles[tile].unit = slot as u8;
    s.tribes[tribe as usize].score += points as i32;
    slot
}

/// Gives `tribe` a technology with its 100 × tier points (spec §6), as research would.
fn learn(s: &mut State, tribe: u8, tech: Tech) {
    let ts = &mut s.tribes[tribe as usize];
    assert!(ts.techs.can_research(tech), "{tech} needs its parent");
    ts.techs.insert(tech);
    ts.score += 100 * tech.tier() as i32;
}

/// Takes every technology away from `tribe`, with their points.
fn forget_techs(s: &mut State, tribe: u8) {
    let ts = &mut s.tribes[tribe as usize];
    for &t in Tech::ALL {
        if ts.techs.has(t) {
            ts.score -= 100 * t.tier() as i32;
        }
    }
    ts.techs = TechSet::default();
}

/// Removes every unit from the board (their tribes lose their points).
fn clear_units(s: &mut State) {
    for slot in 0..s.units.len() {
        let u = s.units[slot];
        if u.alive {
            s.tiles[u.pos as usize].unit = NONE;
            s.units[slot].alive = false;
            s.tribes[u.tribe as usize].score -= u.points as i32;
        }
    }
}

/// Moves a unit to an empty tile by editing the board (no rules applied).
fn teleport(s: &mut State, slot: usize, tile: impl Where) {
    let tile = tile.tile(s);
    assert_eq!(s.tiles[tile].unit, NONE);
    let from = s.units[slot].pos as usize;
    s.tiles[from].unit = NONE;
    s.tiles[tile].unit = slot as u8;
    s.units[slot].pos = tile as u16;
}

/// Every legal action of the player to move (after checking that the position, often edited
/// by hand, is consistent).
fn legal(game: &TribesGame, s: &State) -> Vec<Action> {
    assert_consistent(game, s);
    let mut out = Vec::new();
    game.legal_actions(s, &mut out);
    out
}

/// Legal actions of `kind` by unit (or city, or tribe) `actor`.
fn legal_of(game: &TribesGame, s: &State, kind: K, actor: usize) -> Vec<Action> {
    legal(game, s)
        .into_iter()
        .filter(|a| a.kind == kind && a.actor as usize == actor)
        .collect()
}

/// Tiles the unit in `slot` may move to, sorted.
fn moves(game: &TribesGame, s: &State, slot: usize) -> Vec<usize> {
    let mut v: Vec<usize> = legal_of(game, s, K::Move, slot)
        .iter()
        .map(|a| a.target as usize)
        .collect();
    v.sort_unstable();
    v
}

/// Sorted tile indices of (row, column) pairs.
fn tiles(s: &State, cells: &[(i32, i32)]) -> Vec<usize> {
    let mut v: Vec<usize> = cells.iter().map(|&(x, y)| at(s, x, y)).collect();
    v.sort_unstable();
    v
}

/// Applies a legal action (panics, naming it, if it is not legal) and checks consistency.
fn act(game: &TribesGame, s: &mut State, kind: K, actor: usize, arg: u8, target: impl Where) {
    let a = Action::new(kind, actor, arg, target.tile(s));
    assert_consistent(game, s);
    if let Err(e) = game.try_apply(s, a) {
        panic!("{e}; legal: {:?}", legal(game, s));
    }
    assert_consistent(game, s);
}

/// True if the action is legal now.
fn is_legal(
    game: &TribesGame,
    s: &State,
    kind: K,
    actor: usize,
    arg: u8,
    target: impl Where,
) -> bool {
    assert_consistent(game, s);
    game.is_legal(s, Action::new(kind, actor, arg, target.tile(s)))
}

/// Ends the active tribe's turn.
fn end_turn(game: &TribesGame, s: &mut State) {
    let a = Action::end_turn(s.active as usize);
    act(game, s, a.kind, a.actor as usize, 0, 0);
}

/// Ends turns until it is tribe `tribe`'s turn again (a full round for a tribe that is to move).
fn next_turn_of(game: &TribesGame, s: &mut State, tribe: u8) {
    end_turn(game, s);
    while s.active != tribe {
        end_turn(game, s);
    }
}

/// An attack by `attacker` on the unit at `target`, applied legally.
fn attack(game: &TribesGame, s: &mut State, attacker: usize, target: impl Where) {
    act(game, s, K::Attack, attacker, 0, target);
}

// ---------------------------------------------------------------------------------------------
// Initial state (§2.2, §3)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_new_capital_scores_its_centre_and_all_nine_tiles_of_its_territory() {
    let (game, s) = start(&[
        ".........",
        ".........",
        "..0......",
        ".........",
        ".........",
        ".........",
        "......3..",
        ".........",
        ".........",
    ]);
    // Xin-Xi: 100 (CLIMBING, tier 1) + 100 (centre) + 9 × 20 (territory, centre included)
    // + 10 (warrior) = 390 (spec §3).
    assert_eq!(s.tribes[0].score, 390);
    // Oumaji: 100 (RIDING) + 100 + 9 × 20 + 15 (rider) = 395.
    assert_eq!(s.tribes[1].score, 395);
    // Capital production: level 1 + bonus 0 + capital 1 = 2.
    assert_eq!(production(&game.rules, &s, 0), 2);
    assert_eq!(production(&game.rules, &s, 1), 2);
    // Stars 5 at tick 0.
    assert_eq!(s.tribes[0].stars, 5);
}

#[test]
fn a_capital_in_a_corner_claims_only_the_four_tiles_on_the_board() {
    let (_, s) = start(OPEN);
    // 100 (tech) + 100 (centre) + 4 × 20 (2×2 corner square) + 10 (warrior) = 290.
    assert_eq!(s.tribes[0].score, 290);
    assert_eq!(s.tribes[1].score, 290);
}

// ---------------------------------------------------------------------------------------------
// Combat (§7.4)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_warrior_attacking_a_warrior_on_plain_deals_5_and_takes_5() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let a = place_unit(&mut s, UnitKind::Warrior, 0, (3, 2));
    let d = place_unit(&mut s, UnitKind::Warrior, 1, (3, 3));
    attack(&game, &mut s, a, (3, 3));
    // aF = 2·10/10 = 2, dF = 2·10/10·1 = 2; damage = round(2/4·2·4.5) = round(4.5) = 5,
    // retaliation = round(2/4·2·4.5) = 5.
    assert_eq!(s.units[d].hp, 10 - 5);
    assert_eq!(s.units[a].hp, 10 - 5);
    // A warrior (dash) is finished after attacking (§7.2).
    assert_eq!(s.units[a].status, UnitStatus::Finished);
    assert_eq!(s.units[a].kills, 0);
}

#[test]
fn a_defender_in_a_forest_resists_a_swordsman_better_when_its_tribe_knows_archery() {
    for archery in [false, true] {
        let (game, mut s) = start(OPEN);
        clear_units(&mut s);
        let t = at(&s, 3, 3);
        s.tiles[t].terrain = Terrain::Forest;
        if archery {
            learn(&mut s, 1, Tech::Hunting);
            learn(&mut s, 1, Tech::Archery);
        }
        let a = place_unit(&mut s, UnitKind::Swordsman, 0, (3, 2));
        let d = place_unit(&mut s, UnitKind::Defender, 1, t);
        assert_consistent(&game, &s);
        attack(&game, &mut s, a, t);
        if archery {
            // aF = 3, dF = 3·1.5 = 4.5, total 7.5; damage = round(3/7.5·3·4.5) = round(5.4) = 5;
            // retaliation = round(4.5/7.5·3·4.5) = round(8.1) = 8.
            assert_eq!(s.units[d].hp, 15 - 5);
            assert_eq!(s.units[a].hp, 15 - 8);
        } else {
            // aF = 3, dF = 3, total 6; damage = round(3/6·3·4.5) = round(6.75) = 7;
            // retaliation = round(6.75) = 7.
            assert_eq!(s.units[d].hp, 15 - 7);
            assert_eq!(s.units[a].hp, 15 - 7);
        }
    }
}

#[test]
fn a_unit_in_its_own_walled_city_defends_four_times_as_hard() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    s.cities[1].walls = true;
    let a = place_unit(&mut s, UnitKind::Warrior, 0, (5, 5));
    let d = place_unit(&mut s, UnitKind::Warrior, 1, (6, 6));
    attack(&game, &mut s, a, (6, 6));
    // aF = 2, dF = 2·4 = 8, total 10; damage = round(2/10·2·4.5) = round(1.8) = 2;
    // retaliation = round(8/10·2·4.5) = round(7.2) = 7.
    assert_eq!(s.units[d].hp, 10 - 2);
    assert_eq!(s.units[a].hp, 10 - 7);
}

#[test]
fn a_fortify_unit_in_its_own_unwalled_city_defends_one_and_a_half_times_as_hard() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let a = place_unit(&mut s, UnitKind::Warrior, 0, (5, 5));
    let d = place_unit(&mut s, UnitKind::Warrior, 1, (6, 6));
    attack(&game, &mut s, a, (6, 6));
    // aF = 2, dF = 2·1.5 = 3, total 5; damage = round(2/5·2·4.5) = round(3.6) = 4;
    // retaliation = round(3/5·2·4.5) = round(5.4) = 5.
    assert_eq!(s.units[d].hp, 10 - 4);
    assert_eq!(s.units[a].hp, 10 - 5);
}

#[test]
fn a_unit_on_an_enemy_city_gets_no_city_bonus() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    // A tribe-1 warrior standing on tribe 0's capital, attacked by a tribe-0 warrior.
    let a = place_unit(&mut s, UnitKind::Warrior, 0, (1, 1));
    let d = place_unit(&mut s, UnitKind::Warrior, 1, (0, 0));
    attack(&game, &mut s, a, (0, 0));
    // Bonus ×1: damage = round(2/4·2·4.5) = 5, retaliation = 5.
    assert_eq!(s.units[d].hp, 10 - 5);
    assert_eq!(s.units[a].hp, 10 - 5);
}

#[test]
fn units_that_cannot_fortify_get_no_bonus_in_their_own_unwalled_city() {
    // A catapult (DEF 0) in its city.
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let a = place_unit(&mut s, UnitKind::Warrior, 0, (5, 5));
    let d = place_unit(&mut s, UnitKind::Catapult, 1, (6, 6));
    attack(&game, &mut s, a, (6, 6));
    // aF = 2, dF = 0·1 = 0; damage = round(2/2·2·4.5) = 9; retaliation = round(0) = 0.
    assert_eq!(s.units[d].hp, 10 - 9);
    assert_eq!(s.units[a].hp, 10);

    // A mind bender (DEF 1, cannot fortify) against an archer shooting from range 2.
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let a = place_unit(&mut s, UnitKind::Archer, 0, (4, 4));
    let d = place_unit(&mut s, UnitKind::MindBender, 1, (6, 6));
    attack(&game, &mut s, a, (6, 6));
    // aF = 2, dF = 1·1 = 1; damage = round(2/3·2·4.5) = round(6.0) = 6; the mind bender's
    // range is 1 < 2, so no retaliation.
    assert_eq!(s.units[d].hp, 10 - 6);
    assert_eq!(s.units[a].hp, 10);

    // The same shot at an archer (DEF 1, fortifies) in the same city.
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let a = place_unit(&mut s, UnitKind::Archer, 0, (4, 4));
    let d = place_unit(&mut s, UnitKind::Archer, 1, (6, 6));
    attack(&game, &mut s, a, (6, 6));
    // aF = 2, dF = 1·1.5 = 1.5, total 3.5; damage = round(2/3.5·2·4.5) = round(5.14) = 5;
    // the archer's range 2 reaches back: retaliation = round(1.5/3.5·1·4.5) = round(1.93) = 2.
    assert_eq!(s.units[d].hp, 10 - 5);
    assert_eq!(s.units[a].hp, 10 - 2);
}

#[test]
fn a_ranged_attack_from_outside_the_defenders_range_gets_no_retaliation() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let far = place_unit(&mut s, UnitKind::Archer, 0, (3, 1));
    let near = place_unit(&mut s, UnitKind::Archer, 0, (2, 4));
    let d1 = place_unit(&mut s, UnitKind::Warrior, 1, (3, 3));
    let d2 = place_unit(&mut s, UnitKind::Warrior, 1, (2, 5));
    // From distance 2 (archer range 2, warrior range 1).
    attack(&game, &mut s, far, (3, 3));
    // aF = 2, dF = 2; damage = round(2/4·2·4.5) = 5; retaliation would be 5 but the warrior
    // cannot reach distance 2.
    assert_eq!(s.units[d1].hp, 10 - 5);
    assert_eq!(s.units[far].hp, 10);
    // From distance 1 the warrior strikes back: round(2/4·2·4.5) = 5.
    attack(&game, &mut s, near, (2, 5));
    assert_eq!(s.units[d2].hp, 10 - 5);
    assert_eq!(s.units[near].hp, 10 - 5);
}

#[test]
fn a_killing_blow_moves_a_melee_attacker_in_and_credits_the_kill() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let (from, to) = (at(&s, 3, 2), at(&s, 3, 3));
    let a = place_unit(&mut s, UnitKind::Warrior, 0, from);
    let d = place_unit(&mut s, UnitKind::Warrior, 1, to);
    s.units[d].hp = 4;
    let loser_score = s.tribes[1].score;
    attack(&game, &mut s, a, to);
    // aF = 2, dF = 2·4/10 = 0.8; damage = round(2/2.8·2·4.5) = round(6.43) = 6 ≥ 4: killed.
    assert!(!s.units[d].alive);
    assert_eq!(s.units[a].pos as usize, to);
    assert_eq!(s.tiles[to].unit as usize, a);
    assert_eq!(s.tiles[from].unit, NONE);
    // No retaliation from a dead unit.
    assert_eq!(s.units[a].hp, 10);
    assert_eq!((s.units[a].kills, s.tribes[0].kills), (1, 1));
    // The loser loses the warrior's 10 points.
    assert_eq!(s.tribes[1].score, loser_score - 10);
}

#[test]
fn an_archer_that_kills_stays_where_it_is() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let (from, to) = (at(&s, 3, 2), at(&s, 3, 3));
    let a = place_unit(&mut s, UnitKind::Archer, 0, from);
    let d = place_unit(&mut s, UnitKind::Warrior, 1, to);
    s.units[d].hp = 4;
    attack(&game, &mut s, a, to);
    // damage = round(2/(2 + 0.8)·2·4.5) = round(6.43) = 6 ≥ 4: killed.
    assert!(!s.units[d].alive);
    assert_eq!(s.units[a].pos as usize, from);
    assert_eq!(s.tiles[to].unit, NONE);
    assert_eq!((s.units[a].kills, s.tribes[0].kills), (1, 1));
}

#[test]
fn an_attacker_killed_by_retaliation_dies_and_the_defender_gets_the_kill() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let from = at(&s, 3, 2);
    let a = place_unit(&mut s, UnitKind::Warrior, 0, from);
    s.units[a].hp = 2;
    let d = place_unit(&mut s, UnitKind::Defender, 1, (3, 3));
    let attacker_score = s.tribes[0].score;
    attack(&game, &mut s, a, (3, 3));
    // aF = 2·2/10 = 0.4, dF = 3, total 3.4; damage = round(0.4/3.4·2·4.5) = round(1.06) = 1;
    // retaliation = round(3/3.4·3·4.5) = round(11.91) = 12 ≥ 2: the attacker dies.
    assert_eq!(s.units[d].hp, 15 - 1);
    assert!(!s.units[a].alive);
    assert_eq!(s.tiles[from].unit, NONE);
    assert_eq!((s.units[d].kills, s.tribes[1].kills), (1, 1));
    assert_eq!(s.tribes[0].kills, 0);
    assert_eq!(s.tribes[0].score, attacker_score - 10);
}

#[test]
fn a_rider_can_still_move_after_attacking() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let r = place_unit(&mut s, UnitKind::Rider, 0, (3, 2));
    let d = place_unit(&mut s, UnitKind::Warrior, 1, (3, 3));
    attack(&game, &mut s, r, (3, 3));
    // damage = round(2/4·2·4.5) = 5; retaliation = 5.
    assert_eq!((s.units[d].hp, s.units[r].hp), (5, 5));
    // Escape: FRESH → attack → ATTACKED, which may move but not attack again (§7.2).
    assert_eq!(s.units[r].status, UnitStatus::Attacked);
    assert!(legal_of(&game, &s, K::Attack, r).is_empty());
    assert!(moves(&game, &s, r).contains(&at(&s, 2, 1)));
    act(&game, &mut s, K::Move, r, 0, (2, 1));
    assert_eq!(s.units[r].status, UnitStatus::MovedAndAttacked);
}

#[test]
fn a_knight_that_kills_may_attack_again_but_not_move() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let k = place_unit(&mut s, UnitKind::Knight, 0, (3, 1));
    let w = place_unit(&mut s, UnitKind::Warrior, 1, (3, 2));
    let def = place_unit(&mut s, UnitKind::Defender, 1, (3, 3));
    attack(&game, &mut s, k, (3, 2));
    // aF = 4, dF = 2; damage = round(4/6·4·4.5) = 12 ≥ 10: killed; the knight moves in.
    assert!(!s.units[w].alive);
    assert_eq!(s.units[k].pos as usize, at(&s, 3, 2));
    assert_eq!(s.units[k].status, UnitStatus::Attacked);
    assert!(moves(&game, &s, k).is_empty());
    assert!(is_legal(&game, &s, K::Attack, k, 0, (3, 3)));
    attack(&game, &mut s, k, (3, 3));
    // aF = 4, dF = 3, total 7; damage = round(4/7·4·4.5) = round(10.29) = 10 < 15;
    // retaliation = round(3/7·3·4.5) = round(5.79) = 6.
    assert_eq!(s.units[def].hp, 15 - 10);
    assert_eq!(s.units[k].hp, 15 - 6);
    assert_eq!(s.units[k].status, UnitStatus::Finished);
}

// ---------------------------------------------------------------------------------------------
// Technology (§6)
// ---------------------------------------------------------------------------------------------

#[test]
fn tech_cost_is_4_plus_tier_times_cities() {
    let (game, mut s) = start(OPEN);
    let r = game.rules;
    let costs =
        |s: &State| [Tech::Fishing, Tech::Mining, Tech::Philosophy].map(|t| tech_cost(&r, s, 0, t));
    // 1 city: tier 1 → 4 + 1·1 = 5, tier 2 → 4 + 2·1 = 6, tier 3 → 4 + 3·1 = 7.
    assert_eq!(costs(&s), [5, 6, 7]);
    found(&game, &mut s, (3, 3), 0);
    // 2 cities: 4 + 1·2 = 6, 4 + 2·2 = 8, 4 + 3·2 = 10.
    assert_eq!(costs(&s), [6, 8, 10]);
    found(&game, &mut s, (0, 4), 0);
    // 3 cities: 4 + 1·3 = 7, 4 + 2·3 = 10, 4 + 3·3 = 13.
    assert_eq!(costs(&s), [7, 10, 13]);
    assert_consistent(&game, &s);
    // The research action charges exactly that.
    s.tribes[0].stars = 20;
    act(&game, &mut s, K::ResearchTech, 0, Tech::Mining as u8, 0);
    assert_eq!(s.tribes[0].stars, 20 - 10);
}

#[test]
fn philosophy_discounts_research_by_a_fifth_while_java_charges_only_a_fifth() {
    for compat in [Compat::Intended, Compat::Java] {
        let (game, mut s) = start_with(compat, GameMode::Capitals, OPEN);
        let r = game.rules;
        learn(&mut s, 0, Tech::Meditation);
        learn(&mut s, 0, Tech::Philosophy);
        let cost = |s: &State, t| tech_cost(&r, s, 0, t);
        if compat == Compat::Intended {
            // 80 %: tier 1, 1 city: floor(0.8·5) = 4; tier 2: floor(0.8·6) = 4.
            assert_eq!(cost(&s, Tech::Fishing), 4);
            assert_eq!(cost(&s, Tech::Mining), 4);
        } else {
            // Java pays 20 %: floor(0.2·5) = 1; floor(0.2·6) = 1.
            assert_eq!(cost(&s, Tech::Fishing), 1);
            assert_eq!(cost(&s, Tech::Mining), 1);
        }
        found(&game, &mut s, (3, 3), 0);
        found(&game, &mut s, (0, 4), 0);
        if compat == Compat::Intended {
            // 3 cities: tier 3 → floor(0.8·13) = floor(10.4) = 10; tier 2 → floor(0.8·10) = 8.
            assert_eq!(cost(&s, Tech::Navigation), 10);
            assert_eq!(cost(&s, Tech::Mining), 8);
        } else {
            // floor(0.2·13) = 2; floor(0.2·10) = 2.
            assert_eq!(cost(&s, Tech::Navigation), 2);
            assert_eq!(cost(&s, Tech::Mining), 2);
        }
        // The research action charges the discounted cost.
        s.tribes[0].stars = 10;
        act(&game, &mut s, K::ResearchTech, 0, Tech::Mining as u8, 0);
        let expected = if compat == Compat::Intended { 8 } else { 2 };
        assert_eq!(s.tribes[0].stars, 10 - expected);
    }
}

#[test]
fn research_needs_the_parent_tech_and_scores_100_per_tier() {
    let (game, mut s) = start(OPEN);
    s.tribes[0].stars = 50;
    let score = s.tribes[0].score;
    // Xin-Xi knows CLIMBING only: ARCHERY (parent HUNTING) is not offered, CLIMBING neither.
    assert!(!is_legal(
        &game,
        &s,
        K::ResearchTech,
        0,
        Tech::Archery as u8,
        0
    ));
    assert!(!is_legal(
        &game,
        &s,
        K::ResearchTech,
        0,
        Tech::Climbing as u8,
        0
    ));
    assert!(
        game.try_apply(
            &mut s,
            Action::new(K::ResearchTech, 0, Tech::Archery as u8, 0)
        )
        .is_err()
    );
    // MINING (parent CLIMBING) is offered at once.
    assert!(is_legal(
        &game,
        &s,
        K::ResearchTech,
        0,
        Tech::Mining as u8,
        0
    ));
    act(&game, &mut s, K::ResearchTech, 0, Tech::Hunting as u8, 0);
    // HUNTING: cost 4 + 1·1 = 5, score +100·1.
    assert_eq!(s.tribes[0].stars, 50 - 5);
    assert_eq!(s.tribes[0].score, score + 100);
    act(&game, &mut s, K::ResearchTech, 0, Tech::Archery as u8, 0);
    // ARCHERY: cost 4 + 2·1 = 6, score +100·2.
    assert_eq!(s.tribes[0].stars, 45 - 6);
    assert_eq!(s.tribes[0].score, score + 100 + 200);
    assert!(s.tribes[0].techs.has(Tech::Archery));
    // Not enough stars: a tier-3 tech costing 7 is not offered with 6 stars.
    s.tribes[0].stars = 6;
    assert!(!is_legal(
        &game,
        &s,
        K::ResearchTech,
        0,
        Tech::Spiritualism as u8,
        0
    ));
    s.tribes[0].stars = 7;
    assert!(is_legal(
        &game,
        &s,
        K::ResearchTech,
        0,
        Tech::Spiritualism as u8,
        0
    ));
}

// ---------------------------------------------------------------------------------------------
// City growth and level-up (§5.2–§5.5)
// ---------------------------------------------------------------------------------------------

/// Imperius (ORGANIZATION) alone, its capital at (1,1) with fruit on (0,0) and (0,1).
const ORCHARD: &[&str] = &["FF...", ".1...", ".....", ".....", "....."];

#[test]
fn a_city_that_reaches_its_population_need_must_level_up_before_ending_the_turn() {
    let (game, mut s) = start(ORCHARD);
    let score = s.tribes[0].score;
    // Level 1 needs level + 1 = 2 population.
    assert_eq!(s.cities[0].population_need(), 2);
    act(&game, &mut s, K::ResourceGathering, 0, 0, (0, 0));
    // Fruit: −2 stars, +1 population, +5 score.
    assert_eq!(s.tribes[0].stars, 5 - 2);
    assert_eq!(s.cities[0].population, 1);
    assert_eq!(s.tribes[0].score, score + 5);
    assert!(is_legal(&game, &s, K::EndTurn, 0, 0, 0));
    act(&game, &mut s, K::ResourceGathering, 0, 0, (0, 1));
    assert_eq!(s.tribes[0].stars, 3 - 2);
    assert_eq!(s.cities[0].population, 2);
    // Population 2 = need 2: the city's two level-up options are the only legal actions.
    let l = legal(&game, &s);
    assert_eq!(
        l,
        vec![
            Action::new(K::LevelUp, 0, LevelUpBonus::Workshop as u8, 0),
            Action::new(K::LevelUp, 0, LevelUpBonus::Explorer as u8, 0),
        ]
    );
    let a = Action::end_turn(0);
    assert!(game.try_apply(&mut s, a).is_err());
    act(
        &game,
        &mut s,
        K::LevelUp,
        0,
        LevelUpBonus::Workshop as u8,
        0,
    );
    let c = s.cities[0];
    // Level 2, population 2 − 2 = 0, workshop +1 production.
    assert_eq!((c.level, c.population, c.bonus_production), (2, 0, 1));
    // +10 (two fruit) + 40 (level 2).
    assert_eq!(s.tribes[0].score, score + 10 + 40);
    // Production = level 2 + bonus 1 + capital 1 = 4.
    assert_eq!(production(&game.rules, &s, 0), 4);
    assert!(is_legal(&game, &s, K::EndTurn, 0, 0, 0));
    // Level 2 needs 3.
    assert_eq!(s.cities[0].population_need(), 3);
}

/// Xin-Xi's capital in the middle of a 7×7 board, Imperius in the bottom-left corner (its
/// territory rows 5–6, columns 0–1). Row-major capital order equals tribe-key order, so tribe
/// indices are the same in both compat modes.
const HUB: &[&str] = &[
    ".......", ".......", ".......", "...0...", ".......", ".......", "1......",
];

/// Brings city 0 to `level` with a full population and takes `bonus`; returns the score gain.
fn level_up_with(game: &TribesGame, s: &mut State, level: u8, bonus: LevelUpBonus) -> i32 {
    s.cities[0].level = level;
    s.cities[0].population = level as i8 + 1;
    let before = s.tribes[0].score;
    assert_eq!(
        legal(game, s),
        LevelUpBonus::options(level)
            .map(|b| Action::new(K::LevelUp, 0, b as u8, 0))
            .to_vec()
    );
    act(game, s, K::LevelUp, 0, bonus as u8, 0);
    assert_eq!(s.cities[0].level, level + 1);
    s.tribes[0].score - before
}

#[test]
fn level_up_to_2_gives_a_workshop_or_an_explorer_for_40() {
    let (game, mut s) = start(HUB);
    // Workshop: +1 production, 40 points.
    assert_eq!(level_up_with(&game, &mut s, 1, LevelUpBonus::Workshop), 40);
    assert_eq!(s.cities[0].bonus_production, 1);
    let (game, mut s) = start(HUB);
    let before = s.clone();
    // Explorer: no visible effect under full observability, 40 points.
    assert_eq!(level_up_with(&game, &mut s, 1, LevelUpBonus::Explorer), 40);
    assert_eq!(s.cities[0].bonus_production, 0);
    assert_eq!(s.tribes[0].stars, before.tribes[0].stars);
    assert_eq!(s.tiles, before.tiles);
    assert_eq!(s.units, before.units);
}

#[test]
fn level_up_to_3_gives_walls_or_5_stars_for_35() {
    let (game, mut s) = start(HUB);
    assert!(!s.cities[0].walls);
    assert_eq!(level_up_with(&game, &mut s, 2, LevelUpBonus::CityWall), 35);
    assert!(s.cities[0].walls);
    let (game, mut s) = start(HUB);
    assert_eq!(level_up_with(&game, &mut s, 2, LevelUpBonus::Resources), 35);
    // 5 + 5 stars.
    assert_eq!(s.tribes[0].stars, 10);
    assert!(!s.cities[0].walls);
}

#[test]
fn level_up_to_4_gives_3_population_or_a_radius_2_border_for_30() {
    let (game, mut s) = start(HUB);
    // Pop growth: population 4 − 4 = 0, then +3 = 3 (need 5 at level 4, so no new level-up);
    // score 30 + 3·5 = 45.
    assert_eq!(
        level_up_with(&game, &mut s, 3, LevelUpBonus::PopGrowth),
        30 + 15
    );
    assert_eq!(s.cities[0].population, 3);
    assert!(is_legal(&game, &s, K::EndTurn, 0, 0, 0));

    let (game, mut s) = start(HUB);
    let owned = |s: &State| s.tiles.iter().filter(|t| t.owner == 0).count();
    assert_eq!(owned(&s), 9);
    // Border growth: the 5×5 square around (3,3) has 25 tiles, 9 already owned and (5,1)
    // owned by Imperius' capital: 25 − 9 − 1 = 15 new tiles, 15·20 = 300, plus 30.
    assert_eq!(
        level_up_with(&game, &mut s, 3, LevelUpBonus::BorderGrowth),
        30 + 300
    );
    assert_eq!(s.cities[0].radius, 2);
    assert_eq!(owned(&s), 24);
    assert_eq!(s.tiles[at(&s, 5, 1)].owner, 1);
    assert_eq!(s.tiles[at(&s, 1, 5)].owner, 0);
}

#[test]
fn level_up_to_5_gives_a_park_for_275_or_a_super_unit_that_pushes_the_occupant() {
    let (game, mut s) = start(HUB);
    // Park: 25 + 250 = 275; Park of Fortune becomes available.
    assert_eq!(level_up_with(&game, &mut s, 4, LevelUpBonus::Park), 275);
    let park = Building::ParkOfFortune.monument_index();
    assert_eq!(s.tribes[0].monuments[park], MonumentStatus::Available);

    for compat in [Compat::Intended, Compat::Java] {
        let (game, mut s) = start_with(compat, GameMode::Capitals, HUB);
        let centre = at(&s, 3, 3);
        let warrior = s.tiles[centre].unit as usize;
        assert_eq!(s.units[warrior].kind, UnitKind::Warrior);
        let gain = level_up_with(&game, &mut s, 4, LevelUpBonus::SuperUnit);
        // Intended: 25 + 50 (the super unit's points); Java adds no score for it (quirk 9).
        assert_eq!(gain, if compat == Compat::Java { 25 } else { 25 + 50 });
        // The warrior is pushed to the first offset, (0, +1): (3,4), and starts next turn MOVED.
        assert_eq!(s.units[warrior].pos as usize, at(&s, 3, 4));
        assert_eq!(s.units[warrior].status, UnitStatus::Pushed);
        let su = s.units[s.tiles[centre].unit as usize];
        assert_eq!((su.kind, su.tribe, su.hp), (UnitKind::SuperUnit, 0, 40));
        // It belongs to the city (capacity 5 + 1 = 6 > 1 unit).
        assert_eq!(su.home, 0);
        assert_eq!(s.tribes[0].monuments[park], MonumentStatus::Available);
    }
}

#[test]
fn production_is_level_plus_bonus_plus_one_for_a_capital() {
    let (game, mut s) = start(HUB);
    let r = game.rules;
    // Capital, level 1: 1 + 0 + 1 = 2.
    assert_eq!(production(&r, &s, 0), 2);
    let c = found(&game, &mut s, (0, 0), 0);
    // Non-capital, level 1: 1 + 0 + 0 = 1.
    assert_eq!(production(&r, &s, c), 1);
    s.cities[c].level = 3;
    s.cities[c].bonus_production = 2;
    // 3 + 2 + 0 = 5.
    assert_eq!(production(&r, &s, c), 5);
    s.cities[0].level = 2;
    s.cities[0].bonus_production = 1;
    // 2 + 1 + 1 = 4; the tribe makes 4 + 5 = 9.
    assert_eq!(production(&r, &s, 0), 4);
    assert_eq!(tribe_production(&r, &s, 0, true), 9);
    // A negative population is the production (§5.2).
    s.cities[c].population = -2;
    assert_eq!(production(&r, &s, c), -2);
    assert_eq!(tribe_production(&r, &s, 0, true), 4 - 2);
}

// ---------------------------------------------------------------------------------------------
// Capture (§5.6)
// ---------------------------------------------------------------------------------------------

/// Xin-Xi at (1,1), a village at (1,3) whose square overlaps the capital's column 2, Imperius
/// at (5,5).
const VILLAGE: &[&str] = &[
    ".......", ".0.v...", ".......", ".......", ".......", ".....1.", ".......",
];

#[test]
fn a_unit_must_start_its_turn_on_a_village_to_capture_it() {
    let (game, mut s) = start(VILLAGE);
    let w = s.tiles[at(&s, 1, 1)].unit as usize;
    teleport(&mut s, w, (1, 2));
    let village = at(&s, 1, 3);
    act(&game, &mut s, K::Move, w, 0, village);
    assert_eq!(s.units[w].status, UnitStatus::Moved);
    assert!(legal_of(&game, &s, K::Capture, w).is_empty());
    next_turn_of(&game, &mut s, 0);
    assert_eq!(s.units[w].status, UnitStatus::Fresh);
    assert!(is_legal(&game, &s, K::Capture, w, 0, village));
}

#[test]
fn a_captured_village_becomes_a_level_1_city_worth_100_plus_20_per_claimed_tile() {
    let (game, mut s) = start(VILLAGE);
    let w = s.tiles[at(&s, 1, 1)].unit as usize;
    let village = at(&s, 1, 3);
    teleport(&mut s, w, village);
    assert_consistent(&game, &s);
    let score = s.tribes[0].score;
    act(&game, &mut s, K::Capture, w, 0, village);
    assert_eq!(s.cities.len(), 3);
    let c = s.cities[2];
    assert_eq!(
        (c.tribe, c.level, c.population, c.radius, c.capital_of),
        (0, 1, 0, 1, NONE)
    );
    assert_eq!(s.tiles[village].terrain, Terrain::City);
    // The 3×3 square around (1,3) has 9 tiles; column 2 (3 tiles) is the capital's already:
    // 6 claimed, centre included: 100 + 6·20 = 220.
    assert_eq!(s.tribes[0].score, score + 220);
    assert_eq!(c.points, 220);
    assert_eq!(s.tiles[at(&s, 0, 2)].owner, 0);
    assert_eq!(s.tiles[at(&s, 0, 4)].owner, 2);
    // The capturer is finished, and the capital's newest unit (the capturer itself) now
    // belongs to the new city.
    assert_eq!(s.units[w].status, UnitStatus::Finished);
    assert_eq!(s.units[w].home, 2);
    assert!(!s.over);
}

/// Xin-Xi at (1,1); Imperius' capital at (5,5) and a second Imperius city at (5,2).
fn two_city_enemy(mode: GameMode) -> (TribesGame, State) {
    let (game, mut s) = start_with(Compat::Intended, mode, VILLAGE);
    clear_units(&mut s);
    found(&game, &mut s, (5, 2), 1);
    assert_consistent(&game, &s);
    (game, s)
}

#[test]
fn capturing_the_enemy_capital_wins_in_capitals_mode_but_not_in_score_mode() {
    for mode in [GameMode::Capitals, GameMode::Score] {
        let (game, mut s) = two_city_enemy(mode);
        let capital = at(&s, 5, 5);
        let w = place_unit(&mut s, UnitKind::Warrior, 0, capital);
        act(&game, &mut s, K::Capture, w, 0, capital);
        assert_eq!(s.cities[1].tribe, 0);
        // Imperius still has its second city either way.
        assert_eq!(s.num_cities(1), 1);
        if mode == GameMode::Capitals {
            // Xin-Xi owns every original capital (§4.4).
            assert!(s.over);
            assert_eq!(game.outcome(&s), Some(Outcome::win(0, 2)));
            assert_eq!(s.tribes[1].result, TribeResult::Loss);
        } else {
            assert!(!s.over);
            assert_eq!(game.outcome(&s), None);
            assert_eq!(s.tribes[1].result, TribeResult::Playing);
        }
    }
}

#[test]
fn capturing_a_city_moves_its_points_worth_from_loser_to_captor() {
    let (game, mut s) = two_city_enemy(GameMode::Capitals);
    let centre = at(&s, 5, 2);
    // A second city founded at (5,2): 100 + 9 free tiles·20 = 280 points worth.
    assert_eq!(s.cities[2].points, 280);
    // An Imperius unit at home in that city, standing elsewhere.
    let orphan = place_unit(&mut s, UnitKind::Warrior, 1, (3, 3));
    s.units[orphan].home = 2;
    let w = place_unit(&mut s, UnitKind::Warrior, 0, centre);
    let (mine, theirs) = (s.tribes[0].score, s.tribes[1].score);
    act(&game, &mut s, K::Capture, w, 0, centre);
    assert_eq!(s.cities[2].tribe, 0);
    assert_eq!(s.tribes[0].score, mine + 280);
    assert_eq!(s.tribes[1].score, theirs - 280);
    assert_eq!(s.tiles[at(&s, 6, 3)].tribe, 0);
    // The loser's unit moves home to its capital (capacity 2); units stay where they are.
    assert_eq!(s.units[orphan].home, 1);
    assert_eq!(s.units[orphan].pos as usize, at(&s, 3, 3));
    // Imperius still owns its capital: the game goes on.
    assert!(!s.over);
}

// ---------------------------------------------------------------------------------------------
// Healing and veterans (§7.5–§7.7)
// ---------------------------------------------------------------------------------------------

#[test]
fn recover_heals_2_outside_own_territory_and_4_inside_capped_at_max() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    // (hp before, tile, expected hp): neutral +2, own territory +4, capped at 10, enemy
    // territory +2.
    let cases = [
        (5, (3, 3), 5 + 2),
        (5, (1, 0), 5 + 4),
        (8, (1, 1), 10),
        (5, (5, 5), 5 + 2),
    ];
    let slots: Vec<usize> = cases
        .iter()
        .map(|&(hp, (x, y), _)| {
            let t = at(&s, x, y);
            let u = place_unit(&mut s, UnitKind::Warrior, 0, t);
            s.units[u].hp = hp;
            u
        })
        .collect();
    // A full-HP unit cannot recover.
    let full = place_unit(&mut s, UnitKind::Warrior, 0, (2, 2));
    assert!(legal_of(&game, &s, K::Recover, full).is_empty());
    for (&u, &(_, _, hp)) in slots.iter().zip(&cases) {
        act(&game, &mut s, K::Recover, u, 0, 0);
        assert_eq!(s.units[u].hp, hp);
        assert_eq!(s.units[u].status, UnitStatus::Finished);
    }
}

#[test]
fn a_fresh_damaged_unit_recovers_automatically_at_end_of_turn() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let idle = place_unit(&mut s, UnitKind::Warrior, 0, (1, 0));
    let moved = place_unit(&mut s, UnitKind::Warrior, 0, (0, 1));
    let outside = place_unit(&mut s, UnitKind::Warrior, 0, (3, 3));
    let enemy = place_unit(&mut s, UnitKind::Warrior, 1, (5, 6));
    for u in [idle, moved, outside, enemy] {
        s.units[u].hp = 5;
    }
    s.units[moved].status = UnitStatus::Moved;
    end_turn(&game, &mut s);
    // Own territory +4, neutral +2; the unit that moved and the other tribe's unit do not heal.
    assert_eq!(s.units[idle].hp, 5 + 4);
    assert_eq!(s.units[outside].hp, 5 + 2);
    assert_eq!(s.units[moved].hp, 5);
    assert_eq!(s.units[enemy].hp, 5);
}

#[test]
fn a_mind_bender_heals_each_damaged_adjacent_own_unit_by_4() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    learn(&mut s, 0, Tech::Meditation);
    learn(&mut s, 0, Tech::Philosophy);
    let mb = place_unit(&mut s, UnitKind::MindBender, 0, (3, 3));
    let w = place_unit(&mut s, UnitKind::Warrior, 0, (3, 4));
    let d = place_unit(&mut s, UnitKind::Defender, 0, (2, 3));
    let full = place_unit(&mut s, UnitKind::Warrior, 0, (4, 4));
    let far = place_unit(&mut s, UnitKind::Warrior, 0, (3, 5));
    let enemy = place_unit(&mut s, UnitKind::Warrior, 1, (2, 2));
    s.units[w].hp = 3;
    s.units[d].hp = 12;
    s.units[far].hp = 3;
    s.units[enemy].hp = 3;
    act(&game, &mut s, K::HealOthers, mb, 0, 0);
    // 3 + 4 = 7; 12 + 4 = 16 capped at 15; full stays 10; distance 2 and the enemy unchanged.
    assert_eq!(s.units[w].hp, 7);
    assert_eq!(s.units[d].hp, 15);
    assert_eq!(s.units[full].hp, 10);
    assert_eq!(s.units[far].hp, 3);
    assert_eq!(s.units[enemy].hp, 3);
    // Healing counts as the mind bender's attack: it is finished.
    assert_eq!(s.units[mb].status, UnitStatus::Finished);
}

#[test]
fn three_kills_allow_make_veteran_for_5_more_max_hp_and_a_full_heal() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let w = place_unit(&mut s, UnitKind::Warrior, 0, (3, 3));
    s.units[w].hp = 4;
    s.units[w].kills = 2;
    assert!(legal_of(&game, &s, K::MakeVeteran, w).is_empty());
    s.units[w].kills = 3;
    act(&game, &mut s, K::MakeVeteran, w, 0, 0);
    let u = s.units[w];
    // Max HP 10 + 5 = 15, HP = 15; the status does not change.
    assert_eq!((u.max_hp, u.hp, u.veteran), (15, 15, true));
    assert_eq!(u.status, UnitStatus::Fresh);
    assert!(legal_of(&game, &s, K::MakeVeteran, w).is_empty());
    // A super unit never becomes a veteran.
    let su = place_unit(&mut s, UnitKind::SuperUnit, 0, (4, 4));
    s.units[su].kills = 3;
    assert!(legal_of(&game, &s, K::MakeVeteran, su).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Ruins (§7.10)
// ---------------------------------------------------------------------------------------------

/// Xin-Xi at (0,0), Imperius at (4,4), ruins at (2,2).
const RUINS: &[&str] = &["0....", ".....", "..r..", ".....", "....1"];

#[test]
fn examining_ruins_needs_a_fresh_unit_and_a_city() {
    let (game, mut s) = start(RUINS);
    clear_units(&mut s);
    let ruin = at(&s, 2, 2);
    let w = place_unit(&mut s, UnitKind::Warrior, 0, (2, 1));
    act(&game, &mut s, K::Move, w, 0, ruin);
    assert!(legal_of(&game, &s, K::Examine, w).is_empty());
    s.units[w].status = UnitStatus::Fresh;
    assert!(is_legal(&game, &s, K::Examine, w, 0, ruin));

    // A tribe without a city cannot examine: hand Imperius' only city to Xin-Xi.
    let (game, mut s) = start(RUINS);
    clear_units(&mut s);
    s.cities[1].tribe = 0;
    s.tribes[1].score -= s.cities[1].points;
    s.tribes[0].score += s.cities[1].points;
    for t in s.tiles.iter_mut().filter(|t| t.owner == 1) {
        t.tribe = 0;
    }
    s.active = 1;
    let u = place_unit(&mut s, UnitKind::Warrior, 1, ruin);
    assert_consistent(&game, &s);
    assert!(!moves(&game, &s, u).is_empty());
    assert!(legal_of(&game, &s, K::Examine, u).is_empty());
}

#[test]
fn over_many_seeds_ruins_give_all_five_bonuses_with_their_documented_effects() {
    let game = TribesGame::default();
    let level = Level::parse(&grid(RUINS), "ruins").expect("parses");
    let mut seen = [0usize; 5]; // super unit, research, population, explorer, stars
    const SEEDS: u64 = 200;
    for seed in 0..SEEDS {
        let mut s = game.new_initial_state(&level, seed);
        clear_units(&mut s);
        let ruin = at(&s, 2, 2);
        let w = place_unit(&mut s, UnitKind::Warrior, 0, ruin);
        let before = s.clone();
        act(&game, &mut s, K::Examine, w, 0, ruin);
        assert_eq!(s.tiles[ruin].resource, None, "seed {seed}: ruin removed");
        let b = &before.tribes[0];
        let a = &s.tribes[0];
        let occupant = s.units[s.tiles[ruin].unit as usize];
        if s.units[w].pos as usize != ruin {
            // Super unit: an extra unit on the ruin; the examiner is pushed to (2,3), the
            // first offset (0, +1); intended score +50 for the super unit.
            seen[0] += 1;
            assert_eq!((occupant.kind, occupant.tribe), (UnitKind::SuperUnit, 0));
            assert_eq!((occupant.home, occupant.hp), (NONE, 40));
            assert_eq!(s.units[w].pos as usize, at(&s, 2, 3));
            assert_eq!(s.units[w].status, UnitStatus::Pushed);
            assert_eq!(a.score, b.score + 50);
            continue;
        }
        assert_eq!(s.units[w].status, UnitStatus::Finished, "seed {seed}");
        if a.techs != b.techs {
            // Research: exactly one new tech whose parent was known; intended +100·tier.
            seen[1] += 1;
            let new = TechSet(a.techs.0 & !b.techs.0);
            assert_eq!(new.len(), 1);
            let tech = *Tech::ALL.iter().find(|&&t| new.has(t)).unwrap();
            assert!(b.techs.can_research(tech), "seed {seed}: {tech}");
            assert_eq!(a.score, b.score + 100 * tech.tier() as i32);
            assert_eq!(a.stars, b.stars);
        } else if s.cities[0].population != before.cities[0].population {
            // Population growth: +3 to the capital, +15 score.
            seen[2] += 1;
            assert_eq!(s.cities[0].population, 3);
            assert_eq!(a.score, b.score + 15);
            assert_eq!(a.stars, b.stars);
        } else if a.stars != b.stars {
            // Resources: +10 stars.
            seen[4] += 1;
            assert_eq!(a.stars, b.stars + 10);
            assert_eq!(a.score, b.score);
        } else {
            // Explorer: nothing visible changes but the ruin, the unit's status and the RNG.
            seen[3] += 1;
            let mut expected = before.clone();
            expected.tiles[ruin].resource = None;
            expected.units[w].status = UnitStatus::Finished;
            expected.rng = s.rng;
            assert_eq!(s, expected, "seed {seed}");
        }
    }
    // Uniform over five: about 40 each of 200; every bonus shows up at least 20 times.
    assert!(seen.iter().all(|&n| n >= 20), "bonus counts {seen:?}");
    assert_eq!(seen.iter().sum::<usize>(), SEEDS as usize);
}

// ---------------------------------------------------------------------------------------------
// Movement (§7.3)
// ---------------------------------------------------------------------------------------------

/// Xin-Xi's capital at (3,1) with roads on (3,2)…(3,5); Imperius at (6,6) (after Xin-Xi in
/// row-major order, so the tribe indices agree in both compat modes).
fn road_state(compat: Compat) -> (TribesGame, State) {
    let (game, mut s) = start_with(
        compat,
        GameMode::Capitals,
        &[
            ".......", ".......", ".......", ".0.....", ".......", ".......", "......1",
        ],
    );
    for y in 2..=5 {
        let t = at(&s, 3, y);
        s.tiles[t].road = true;
    }
    (game, s)
}

#[test]
fn along_own_roads_a_warrior_reaches_two_tiles_and_a_rider_four() {
    let (game, s) = road_state(Compat::Intended);
    let w = s.tiles[at(&s, 3, 1)].unit as usize;
    // Warrior (MOV 1): city → road costs ½, road → road ½: (3,2) at ½, (3,3) at 1; off-road
    // plains next to the city cost 1; (3,4) would need 1½.
    assert_eq!(
        moves(&game, &s, w),
        tiles(
            &s,
            &[
                (2, 0),
                (2, 1),
                (2, 2),
                (3, 0),
                (3, 2),
                (3, 3),
                (4, 0),
                (4, 1),
                (4, 2)
            ]
        )
    );

    let (game, mut s) = road_state(Compat::Intended);
    clear_units(&mut s);
    let r = place_unit(&mut s, UnitKind::Rider, 0, (3, 1));
    // Rider (MOV 2): four road steps of ½: (3,5) at 2; (3,6) has no road.
    let m = moves(&game, &s, r);
    assert!(m.contains(&at(&s, 3, 5)));
    assert!(!m.contains(&at(&s, 3, 6)));
    // Without roads the rider gets only two tiles far.
    for y in 2..=5 {
        let t = at(&s, 3, y);
        s.tiles[t].road = false;
    }
    let m = moves(&game, &s, r);
    assert!(m.contains(&at(&s, 3, 3)));
    assert!(!m.contains(&at(&s, 3, 4)));
}

#[test]
fn java_floor_rule_lets_a_warrior_step_off_a_road_after_half_a_move() {
    let (game, s) = road_state(Compat::Intended);
    let w = s.tiles[at(&s, 3, 1)].unit as usize;
    // Intended: (2,3) costs ½ (road) + 1 (plain) = 1½ > 1.
    assert!(!moves(&game, &s, w).contains(&at(&s, 2, 3)));
    let (java, s) = road_state(Compat::Java);
    let w = s.tiles[at(&s, 3, 1)].unit as usize;
    // Java: floor(½ + 1) = 1 ≤ 1 (quirk 10), so (2,3) and (4,3) are reached as well.
    let m = moves(&java, &s, w);
    assert!(m.contains(&at(&s, 2, 3)));
    assert!(m.contains(&at(&s, 4, 3)));
    // Nothing is expanded from a tile reached with the whole move spent: (3,4) stays out.
    assert!(!m.contains(&at(&s, 3, 4)));
    assert_eq!(m.len(), 9 + 2);
}

/// A corridor on row 1 between mountain rows: (1,1) forest, (1,3) mountain; Xin-Xi at (6,0),
/// Imperius at (6,6).
const CORRIDOR: &[&str] = &[
    "mmmmmmm", ".f.m...", "mmmmmmm", ".......", ".......", ".......", "0.....1",
];

#[test]
fn a_forest_ends_movement() {
    let (game, mut s) = start(CORRIDOR);
    clear_units(&mut s);
    forget_techs(&mut s, 0); // no CLIMBING: the mountain rows are walls
    let r = place_unit(&mut s, UnitKind::Rider, 0, (1, 0));
    // The forest costs all that remains: the rider stops there and cannot reach (1,2).
    assert_eq!(moves(&game, &s, r), tiles(&s, &[(1, 1)]));
    let f = at(&s, 1, 1);
    s.tiles[f].terrain = Terrain::Plain;
    // On plain: (1,1) at 1, (1,2) at 2.
    assert_eq!(moves(&game, &s, r), tiles(&s, &[(1, 1), (1, 2)]));
}

#[test]
fn a_mountain_needs_climbing_and_ends_movement() {
    let (game, mut s) = start(CORRIDOR);
    clear_units(&mut s);
    forget_techs(&mut s, 0);
    let r = place_unit(&mut s, UnitKind::Rider, 0, (1, 2));
    // Without CLIMBING only the forest behind is reachable.
    assert_eq!(moves(&game, &s, r), tiles(&s, &[(1, 1)]));
    learn(&mut s, 0, Tech::Climbing);
    // With it every neighbouring mountain is reachable, and movement ends there: (1,4)
    // behind the mountain is not.
    let m = moves(&game, &s, r);
    assert_eq!(
        m,
        tiles(
            &s,
            &[
                (0, 1),
                (0, 2),
                (0, 3),
                (1, 1),
                (1, 3),
                (2, 1),
                (2, 2),
                (2, 3)
            ]
        )
    );
    act(&game, &mut s, K::Move, r, 0, (1, 3));
    assert_eq!(s.units[r].status, UnitStatus::Moved);
}

/// Xin-Xi at (0,0), Imperius at (4,4), shallow water at (2,2), (2,3), (3,2), (3,3).
const COAST: &[&str] = &["0....", ".....", "..ss.", "..ss.", "....1"];

#[test]
fn a_land_unit_embarks_only_onto_a_port_and_only_with_sailing() {
    for (sailing, port, reachable) in [
        (false, true, false),
        (true, false, false),
        (true, true, true),
    ] {
        let (game, mut s) = start(COAST);
        clear_units(&mut s);
        if sailing {
            learn(&mut s, 0, Tech::Fishing);
            learn(&mut s, 0, Tech::Sailing);
        }
        let water = at(&s, 2, 2);
        if port {
            s.tiles[water].building = Some(Building::Port);
        }
        let w = place_unit(&mut s, UnitKind::Warrior, 0, (2, 1));
        s.units[w].hp = 7;
        let m = moves(&game, &s, w);
        assert_eq!(
            m.contains(&water),
            reachable,
            "sailing {sailing}, port {port}"
        );
        // Water without a port is never a land unit's destination.
        assert!(!m.contains(&at(&s, 3, 2)));
        if reachable {
            act(&game, &mut s, K::Move, w, 0, water);
            let u = s.units[w];
            // It embarks: a boat carrying the warrior, same HP.
            assert_eq!(
                (u.kind, u.base, u.hp, u.max_hp),
                (UnitKind::Boat, UnitKind::Warrior, 7, 10)
            );
            assert_eq!(u.status, UnitStatus::Moved);
        }
    }
}

#[test]
fn a_boat_moves_two_water_tiles_and_disembarks_onto_land() {
    let (game, mut s) = start(&[
        "0......", ".......", ".ssss..", ".......", ".......", ".......", "......1",
    ]);
    clear_units(&mut s);
    learn(&mut s, 0, Tech::Fishing);
    learn(&mut s, 0, Tech::Sailing);
    let b = place_unit(&mut s, UnitKind::Boat, 0, (2, 1));
    let m = moves(&game, &s, b);
    // Boat MOV 2: (2,2) at 1, (2,3) at 2; (2,4) would need 3.
    assert!(m.contains(&at(&s, 2, 2)));
    assert!(m.contains(&at(&s, 2, 3)));
    assert!(!m.contains(&at(&s, 2, 4)));
    // Land costs all that remains: reachable from (2,1) at 0 or (2,2) at 1, not beyond.
    assert!(m.contains(&at(&s, 1, 0)));
    assert!(m.contains(&at(&s, 3, 3)));
    assert!(!m.contains(&at(&s, 1, 4)));
    act(&game, &mut s, K::Move, b, 0, (2, 3));
    assert_eq!(s.units[b].kind, UnitKind::Boat);
    next_turn_of(&game, &mut s, 0);
    // From (2,3), land at (1,4) costs the whole move; the warrior steps ashore.
    act(&game, &mut s, K::Move, b, 0, (1, 4));
    let u = s.units[b];
    assert_eq!(
        (u.kind, u.hp, u.status),
        (UnitKind::Warrior, 10, UnitStatus::Moved)
    );
}

#[test]
fn zone_of_control_stops_a_unit_next_to_an_enemy() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let r = place_unit(&mut s, UnitKind::Rider, 0, (3, 1));
    let free = moves(&game, &s, r);
    // Without enemies the rider reaches (1,3) via (2,2).
    assert!(free.contains(&at(&s, 1, 3)));
    assert!(free.contains(&at(&s, 3, 3)));
    place_unit(&mut s, UnitKind::Warrior, 1, (3, 3));
    let m = moves(&game, &s, r);
    // Next to the enemy movement ends: (2,2) and (3,2) are reachable, (1,3) and (2,3)
    // (only through them) are not; (1,1) around the zone still is.
    assert!(m.contains(&at(&s, 2, 2)));
    assert!(m.contains(&at(&s, 3, 2)));
    assert!(m.contains(&at(&s, 1, 1)));
    assert!(!m.contains(&at(&s, 1, 3)));
    assert!(!m.contains(&at(&s, 2, 3)));
    assert!(!m.contains(&at(&s, 3, 3)));
}

#[test]
fn units_pass_through_own_units_but_never_onto_or_through_enemies() {
    let (game, mut s) = start(CORRIDOR);
    clear_units(&mut s);
    forget_techs(&mut s, 0);
    let r = place_unit(&mut s, UnitKind::Rider, 0, (1, 4));
    place_unit(&mut s, UnitKind::Warrior, 0, (1, 5));
    // Through the own warrior to (1,6); the warrior's own tile is no destination.
    assert_eq!(moves(&game, &s, r), tiles(&s, &[(1, 6)]));
    clear_units(&mut s);
    let r = place_unit(&mut s, UnitKind::Rider, 0, (1, 4));
    place_unit(&mut s, UnitKind::Warrior, 1, (1, 5));
    // An enemy there: neither its tile nor the tile behind it.
    assert!(moves(&game, &s, r).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Start of turn (§4.2)
// ---------------------------------------------------------------------------------------------

#[test]
fn stars_are_set_to_5_at_tick_0_and_grow_by_production_afterwards() {
    let (game, mut s) = start(OPEN);
    assert_eq!((s.tick, s.active, s.tribes[0].stars), (0, 0, 5));
    s.tribes[0].stars = 3;
    s.tribes[1].stars = 0;
    end_turn(&game, &mut s);
    // Imperius' first turn at tick 0: stars set to 5, not increased.
    assert_eq!((s.tick, s.active, s.tribes[1].stars), (0, 1, 5));
    s.tribes[1].stars = 4;
    end_turn(&game, &mut s);
    // Tick 1: Xin-Xi gets its production, 1 (level) + 0 + 1 (capital) = 2: 3 + 2 = 5.
    assert_eq!((s.tick, s.active, s.tribes[0].stars), (1, 0, 3 + 2));
    found(&game, &mut s, (3, 3), 0);
    end_turn(&game, &mut s);
    assert_eq!(s.tribes[1].stars, 4 + 2);
    end_turn(&game, &mut s);
    // Tick 2 with a second city: 5 + 2 + 1 = 8.
    assert_eq!((s.tick, s.tribes[0].stars), (2, 5 + 3));
}

#[test]
fn units_start_the_turn_fresh_and_pushed_units_start_it_moved() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let statuses = [
        UnitStatus::Moved,
        UnitStatus::Attacked,
        UnitStatus::MovedAndAttacked,
        UnitStatus::Finished,
        UnitStatus::Pushed,
    ];
    let slots: Vec<usize> = statuses
        .iter()
        .enumerate()
        .map(|(i, &st)| {
            let t = at(&s, 3, i as i32);
            let u = place_unit(&mut s, UnitKind::Rider, 0, t);
            s.units[u].status = st;
            u
        })
        .collect();
    let other = place_unit(&mut s, UnitKind::Warrior, 1, (5, 5));
    s.units[other].status = UnitStatus::Finished;
    end_turn(&game, &mut s);
    // Imperius' units are reset at its own turn start; Xin-Xi's are not yet.
    assert_eq!(s.units[other].status, UnitStatus::Fresh);
    assert_eq!(s.units[slots[0]].status, UnitStatus::Moved);
    end_turn(&game, &mut s);
    let after: Vec<UnitStatus> = slots.iter().map(|&u| s.units[u].status).collect();
    assert_eq!(
        after,
        [
            UnitStatus::Fresh,
            UnitStatus::Fresh,
            UnitStatus::Fresh,
            UnitStatus::Fresh,
            UnitStatus::Moved
        ]
    );
}

#[test]
fn a_city_with_an_enemy_unit_on_its_centre_produces_nothing() {
    let (game, mut s) = start(OPEN);
    clear_units(&mut s);
    let c = found(&game, &mut s, (3, 3), 0);
    // Capital 2 + city 1 = 3 without occupation.
    assert_eq!(tribe_production(&game.rules, &s, 0, true), 3);
    let centre = s.cities[c].tile as usize;
    place_unit(&mut s, UnitKind::Warrior, 1, centre);
    // Occupied: only the capital's 2 counts; without the occupation rule still 3.
    assert_eq!(tribe_production(&game.rules, &s, 0, true), 2);
    assert_eq!(tribe_production(&game.rules, &s, 0, false), 3);
    s.tribes[0].stars = 0;
    next_turn_of(&game, &mut s, 0);
    // Tick 1 income: 0 + 2.
    assert_eq!(s.tribes[0].stars, 2);
    // An own unit on the centre does not block production.
    clear_units(&mut s);
    place_unit(&mut s, UnitKind::Warrior, 0, centre);
    next_turn_of(&game, &mut s, 0);
    assert_eq!(s.tribes[0].stars, 2 + 3);
}

/// `Resource` is part of the level vocabulary the helpers rely on.
#[test]
fn the_grid_helper_writes_ruins_and_fruit_as_resources() {
    let level = Level::parse(&grid(&["r0F", "...", "..."]), "g").expect("parses");
    assert_eq!(level.resource[0], Some(Resource::Ruins));
    assert_eq!(level.resource[2], Some(Resource::Fruit));
    assert_eq!(level.capitals.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Java compatibility (README, "Rules fidelity and Java compatibility"): each Java behaviour
// under both rule sets.
// ---------------------------------------------------------------------------------------------

#[test]
fn java_makes_a_built_altar_of_peace_available_again_when_the_pacifist_count_reaches_5() {
    let altar = Building::AltarOfPeace.monument_index();
    for compat in [Compat::Intended, Compat::Java] {
        let java = compat == Compat::Java;
        let (game, mut s) = start_with(compat, GameMode::Capitals, OPEN);
        learn(&mut s, 0, Tech::Meditation);
        // The altar stands; an attack reset the counter, and four peaceful turns followed.
        s.tribes[0].monuments[altar] = MonumentStatus::Built;
        s.tribes[0].pacifist = 4;
        next_turn_of(&game, &mut s, 0);
        assert_eq!(s.tribes[0].pacifist, 5);
        let now = s.tribes[0].monuments[altar];
        if java {
            assert_eq!(now, MonumentStatus::Available);
        } else {
            assert_eq!(now, MonumentStatus::Built);
        }
        // Java offers a second altar on a plain tile of the capital (monuments cost nothing).
        let build =
            |s: &State| is_legal(&game, s, K::Build, 0, Building::AltarOfPeace as u8, (1, 1));
        assert_eq!(build(&s), java, "{compat:?}");
        if java {
            act(
                &game,
                &mut s,
                K::Build,
                0,
                Building::AltarOfPeace as u8,
                (1, 1),
            );
            assert_eq!(s.tribes[0].monuments[altar], MonumentStatus::Built);
            // Its 3 population level the capital up.
            act(
                &game,
                &mut s,
                K::LevelUp,
                0,
                LevelUpBonus::Workshop as u8,
                0,
            );
            // The count goes on to 6: no third altar until an attack resets it.
            next_turn_of(&game, &mut s, 0);
            assert_eq!(s.tribes[0].monuments[altar], MonumentStatus::Built);
        }
    }
}

/// OPEN with a forest at (0,1), in Xin-Xi's capital's territory.
const GROVE: &[&str] = &[
    "0f.....", ".......", ".......", ".......", ".......", ".......", "......1",
];

#[test]
fn java_clear_forest_leaves_animals_to_gather_and_ruins_to_examine() {
    for compat in [Compat::Intended, Compat::Java] {
        let java = compat == Compat::Java;
        for resource in [Resource::Animal, Resource::Ruins] {
            let (game, mut s) = start_with(compat, GameMode::Capitals, GROVE);
            learn(&mut s, 0, Tech::Hunting);
            learn(&mut s, 0, Tech::Forestry);
            let forest = at(&s, 0, 1);
            s.tiles[forest].resource = Some(resource);
            act(&game, &mut s, K::ClearForest, 0, 0, forest);
            // Plain, +2 stars either way (§9).
            assert_eq!(s.tiles[forest].terrain, Terrain::Plain);
            assert_eq!(s.tribes[0].stars, 5 + 2);
            let kept = java.then_some(resource);
            assert_eq!(s.tiles[forest].resource, kept, "{compat:?}");
            if resource == Resource::Animal {
                // HUNTING and 2 stars: Java's animal on the plain can still be gathered.
                let gather = is_legal(&game, &s, K::ResourceGathering, 0, 0, forest);
                assert_eq!(gather, java, "{compat:?}");
            } else {
                let w = place_unit(&mut s, UnitKind::Warrior, 0, forest);
                assert_eq!(is_legal(&game, &s, K::Examine, w, 0, forest), java);
            }
        }
    }
}

#[test]
fn java_clears_and_burns_a_forest_that_carries_a_building() {
    for compat in [Compat::Intended, Compat::Java] {
        let java = compat == Compat::Java;
        for kind in [K::ClearForest, K::BurnForest] {
            let (game, mut s) = start_with(compat, GameMode::Capitals, GROVE);
            for tech in [
                Tech::Hunting,
                Tech::Forestry,
                Tech::Riding,
                Tech::FreeSpirit,
                Tech::Chivalry,
            ] {
                learn(&mut s, 0, tech);
            }
            let forest = at(&s, 0, 1);
            // Without a building both rule sets clear and burn it (5 stars for burning).
            assert!(is_legal(&game, &s, kind, 0, 0, forest));
            s.tiles[forest].building = Some(Building::ForestTemple);
            s.tiles[forest].temple_level = 1;
            s.tiles[forest].temple_timer = 3;
            assert_eq!(is_legal(&game, &s, kind, 0, 0, forest), java, "{kind:?}");
            if java {
                act(&game, &mut s, kind, 0, 0, forest);
                // The temple stays, now on a plain (with crops after burning).
                let t = s.tiles[forest];
                assert_eq!(
                    (t.terrain, t.building),
                    (Terrain::Plain, Some(Building::ForestTemple))
                );
                let crops = (kind == K::BurnForest).then_some(Resource::Crops);
                assert_eq!(t.resource, crops);
            }
        }
    }
}

#[test]
fn java_road_chains_run_on_from_a_tile_reached_beyond_the_movement() {
    // Xin-Xi's capital at (3,1); a road from (3,2) through the forest (3,3) to (3,7).
    let rows: &[&str] = &[
        ".........",
        ".........",
        ".........",
        ".0.f.....",
        ".........",
        ".........",
        ".........",
        ".........",
        "........1",
    ];
    for compat in [Compat::Intended, Compat::Java] {
        let (game, mut s) = start_with(compat, GameMode::Capitals, rows);
        clear_units(&mut s);
        for y in 2..=7 {
            let t = at(&s, 3, y);
            s.tiles[t].road = true;
        }
        let r = place_unit(&mut s, UnitKind::Rider, 0, (3, 1));
        let m = moves(&game, &s, r);
        let along: Vec<i32> = (2..=7).filter(|&y| m.contains(&at(&s, 3, y))).collect();
        // Rider, MOV 2. Java: (3,2) at ½; the forest costs all that remains, 1½, halved on
        // the road to ¾: (3,3) at 1¼; (3,4) at 1¾; (3,5) at 2¼ (floor 2 ≤ 2), and from above
        // the movement Java goes on: (3,6) at 2¾; (3,7) at 3¼ is out.
        // Intended, in half steps: the halved 1½ rounds down to ½, so (3,3) at 1, (3,4) at
        // 1½, (3,5) at 2: the whole move spent.
        let expected = if compat == Compat::Java {
            vec![2, 3, 4, 5, 6]
        } else {
            vec![2, 3, 4, 5]
        };
        assert_eq!(along, expected, "{compat:?}");
    }
}

#[test]
fn java_embarking_and_disembarking_make_a_new_finished_unit_worth_its_new_type() {
    for compat in [Compat::Intended, Compat::Java] {
        let java = compat == Compat::Java;
        let (game, mut s) = start_with(compat, GameMode::Capitals, COAST);
        clear_units(&mut s);
        learn(&mut s, 0, Tech::Fishing);
        learn(&mut s, 0, Tech::Sailing);
        let port = at(&s, 2, 2);
        s.tiles[port].building = Some(Building::Port);
        let w = place_unit(&mut s, UnitKind::Warrior, 0, (2, 1));
        let (id, score) = (s.units[w].id, s.tribes[0].score);
        act(&game, &mut s, K::Move, w, 0, port);
        let u = s.units[w];
        assert_eq!((u.kind, u.base), (UnitKind::Boat, UnitKind::Warrior));
        // Nothing is scored on embarking; Java's new boat is finished, has a new id and is
        // worth a boat's 0 points.
        assert_eq!(s.tribes[0].score, score);
        if java {
            assert_eq!((u.status, u.points), (UnitStatus::Finished, 0));
            assert_eq!(u.id, s.next_unit_id - 1);
            assert_ne!(u.id, id);
        } else {
            assert_eq!((u.status, u.points, u.id), (UnitStatus::Moved, 10, id));
        }
        // Java's upgrade makes a new unit as well: a new id, the status kept.
        act(&game, &mut s, K::UpgradeBoat, w, 0, 0);
        let v = s.units[w];
        assert_eq!(
            (v.kind, v.status, v.points),
            (UnitKind::Ship, u.status, u.points)
        );
        assert_eq!(v.id != u.id, java);
        next_turn_of(&game, &mut s, 0);
        act(&game, &mut s, K::Move, w, 0, (3, 1));
        let u = s.units[w];
        assert_eq!((u.kind, u.points), (UnitKind::Warrior, 10));
        let status = if java {
            UnitStatus::Finished
        } else {
            UnitStatus::Moved
        };
        assert_eq!(u.status, status, "{compat:?}");

        // A boat that dies costs its tribe what it is worth: the warrior's 10, or Java's 0.
        let (game, mut s) = start_with(compat, GameMode::Capitals, COAST);
        clear_units(&mut s);
        learn(&mut s, 0, Tech::Fishing);
        learn(&mut s, 0, Tech::Sailing);
        s.tiles[port].building = Some(Building::Port);
        let w = place_unit(&mut s, UnitKind::Warrior, 0, (2, 1));
        act(&game, &mut s, K::Move, w, 0, port);
        end_turn(&game, &mut s);
        s.units[w].hp = 1;
        let a = place_unit(&mut s, UnitKind::Warrior, 1, (1, 2));
        let score = s.tribes[0].score;
        attack(&game, &mut s, a, port);
        assert!(!s.units[w].alive);
        assert_eq!(s.tribes[0].score, score - if java { 0 } else { 10 });
    }
}

#[test]
fn java_a_unit_pushed_onto_a_port_becomes_a_finished_boat_that_starts_its_next_turn_fresh() {
    // HUB with shallow water and a port at (3,4), the first push offset from the centre.
    let rows: &[&str] = &[
        ".......", ".......", ".......", "...0s..", ".......", ".......", "1......",
    ];
    for compat in [Compat::Intended, Compat::Java] {
        let java = compat == Compat::Java;
        let (game, mut s) = start_with(compat, GameMode::Capitals, rows);
        let water = at(&s, 3, 4);
        s.tiles[water].building = Some(Building::Port);
        let w = s.tiles[at(&s, 3, 3)].unit as usize;
        level_up_with(&game, &mut s, 4, LevelUpBonus::SuperUnit);
        // The super unit pushes the warrior onto the own port, where it embarks.
        let u = s.units[w];
        assert_eq!((u.pos as usize, u.kind), (water, UnitKind::Boat));
        let (now, next) = if java {
            (UnitStatus::Finished, UnitStatus::Fresh)
        } else {
            (UnitStatus::Pushed, UnitStatus::Moved)
        };
        assert_eq!(u.status, now, "{compat:?}");
        next_turn_of(&game, &mut s, 0);
        assert_eq!(s.units[w].status, next, "{compat:?}");
    }
}

#[test]
fn java_finishes_a_rider_that_attacks_then_moves() {
    for compat in [Compat::Intended, Compat::Java] {
        let java = compat == Compat::Java;
        let (game, mut s) = start_with(compat, GameMode::Capitals, OPEN);
        clear_units(&mut s);
        let r = place_unit(&mut s, UnitKind::Rider, 0, (3, 2));
        place_unit(&mut s, UnitKind::Warrior, 1, (3, 3));
        attack(&game, &mut s, r, (3, 3));
        assert_eq!(s.units[r].status, UnitStatus::Attacked);
        act(&game, &mut s, K::Move, r, 0, (2, 1));
        // Intended (§7.2): ATTACKED → move → MOVED_AND_ATTACKED, which may move once more.
        // Java's status update runs on into FINISHED.
        if java {
            assert_eq!(s.units[r].status, UnitStatus::Finished);
            assert!(moves(&game, &s, r).is_empty());
        } else {
            assert_eq!(s.units[r].status, UnitStatus::MovedAndAttacked);
            assert!(!moves(&game, &s, r).is_empty());
        }
    }
}

#[test]
fn java_removes_an_eliminated_tribes_units_without_taking_their_points() {
    for compat in [Compat::Intended, Compat::Java] {
        let java = compat == Compat::Java;
        let (game, mut s) = start_with(compat, GameMode::Capitals, OPEN);
        clear_units(&mut s);
        let rider = place_unit(&mut s, UnitKind::Rider, 1, (3, 3));
        let warrior = place_unit(&mut s, UnitKind::Warrior, 1, (4, 4));
        let capital = at(&s, 6, 6);
        let w = place_unit(&mut s, UnitKind::Warrior, 0, capital);
        let worth = s.cities[s.tiles[capital].owner as usize].points;
        let before = s.tribes[1].score;
        act(&game, &mut s, K::Capture, w, 0, capital);
        // Imperius loses its only city and with it the game; its units leave the board.
        assert_eq!(s.tribes[1].result, TribeResult::Loss);
        assert!(!s.units[rider].alive && !s.units[warrior].alive);
        // The city's worth moves to the captor; the intended rule also takes the units'
        // 15 + 10 points, Java leaves them.
        let units = if java { 0 } else { 15 + 10 };
        assert_eq!(s.tribes[1].score, before - worth - units, "{compat:?}");
    }
}
