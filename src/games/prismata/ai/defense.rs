//! Defense partial players (spec §11.2): choosing which units absorb the opponent's attack.
//!
//! - [`DefenseSolver`] (`Defense_Solver`) and [`solve_blocks`] follow
//!   `source/ai/PartialPlayer_Defense_Solver.cpp` and `source/ai/BlockIterator.cpp`: branch
//!   and bound over groups of identical blockers, with the "last blocker" shortcut (one more
//!   blocker with HP enough for all that is left) and pruning on the best loss so far.
//! - [`DefenseGreedyKnapsack`] (`Defense_GreedyKnapsack`), [`DefenseDefault`]
//!   (`Defense_Default`) and [`DefenseRandom`] (`Defense_Random`) follow their
//!   `PartialPlayer_Defense_*.cpp`.
//!
//! Differences from the C++: the block iterator's tie-break score is left out (the C++ never
//! lowers its bound, so it prunes nothing the loss does not); a complete assignment reached
//! without the last-blocker shortcut is recorded with no last blocker instead of a stale one
//! (such an assignment never beats the shortcut's, so the choice is the same); the greedy
//! knapsack's sort is stable (ties keep unit order; `std::sort` leaves them unspecified).

use super::heuristics::{DamageLoss, UnitHeuristic, current_value, damage_loss_will_cost};
use super::partial::{PartialPlayer, PpPhase, TurnPlan};
use crate::games::prismata::action::can_block;
use crate::games::prismata::{Action, Library, Resource, State, TurnPhase, Unit};
use crate::rng::Rng;

/// A group of identical blockers (same type, HP, chill, charges, delay, construction,
/// lifespan and status: the C++ `isIsomorphic`).
#[derive(Clone, Debug)]
struct Group {
    /// Its units, in unit order.
    units: Vec<u16>,
    /// HP of each.
    hp: u16,
    /// How many block in the assignment being built.
    blocking: u16,
}

fn isomorphic(a: &Unit, b: &Unit) -> bool {
    a.kind == b.kind
        && a.hp == b.hp
        && a.chill == b.chill
        && a.charges == b.charges
        && a.alive == b.alive
        && a.delay == b.delay
        && a.construction == b.construction
        && a.lifespan == b.lifespan
        && a.status == b.status
}

/// The best blocking of the attack pending against the player to act.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockSolution {
    /// Its summed loss.
    pub loss: f64,
    /// The blockers, in the order to block with (unit indices of the player to act).
    pub blockers: Vec<u16>,
}

/// The branch and bound of `BlockIterator.cpp`.
struct BlockSearch<'a> {
    lib: &'a Library,
    state: &'a State,
    player: usize,
    loss: DamageLoss,
    groups: Vec<Group>,
    best: Option<(Vec<u16>, Option<usize>)>,
    min_loss: f64,
}

impl BlockSearch<'_> {
    fn group_loss(&self, g: usize, damage: u16) -> f64 {
        (self.loss)(
            self.lib,
            self.state,
            self.player,
            self.groups[g].units[0] as usize,
            damage,
        )
    }

    fn record(&mut self, loss: f64, last: Option<usize>) {
        if loss < self.min_loss {
            self.min_loss = loss;
            self.best = Some((self.groups.iter().map(|g| g.blocking).collect(), last));
        }
    }

    fn recurse(&mut self, depth: usize, remaining: u16, loss: f64) {
        if loss > self.min_loss {
            return;
        }
        // The last-blocker shortcut: any group with a free unit that soaks all the rest.
        for b in 0..self.groups.len() {
            let g = &self.groups[b];
            if (g.blocking as usize) < g.units.len() && g.hp >= remaining {
                let l = self.group_loss(b, remaining);
                self.groups[b].blocking += 1;
                self.record(loss + l, Some(b));
                self.groups[b].blocking -= 1;
                if depth == 0 && l == 0.0 {
                    return;
                }
            }
        }
        // Block with one more unit of this group and stay on it.
        let g = &self.groups[depth];
        if (g.blocking as usize) < g.units.len() {
            let take = g.hp.min(remaining);
            let l = self.group_loss(depth, remaining);
            self.groups[depth].blocking += 1;
            if take == remaining {
                self.record(loss + l, None);
            } else {
                self.recurse(depth, remaining - take, loss + l);
            }
            self.groups[depth].blocking -= 1;
        }
        // Or move on to the next group.
        if depth + 1 < self.groups.len() {
            self.recurse(depth + 1, remaining, loss);
        }
    }
}

/// The blocking of the attack pending against the player to act in `s` (in its defense
/// phase) with the least summed `loss` (C++ `BlockIterator::solve`): `None` if its blockers
/// cannot absorb it all. With no attack pending, no blocker and no loss.
pub fn solve_blocks(lib: &Library, s: &State, loss: DamageLoss) -> Option<BlockSolution> {
    let p = s.active as usize;
    let attack = s.sides[1 - p].resources.get(Resource::Attack);
    if attack == 0 {
        return Some(BlockSolution {
            loss: 0.0,
            blockers: Vec::new(),
        });
    }
    let units = &s.sides[p].units;
    let mut groups: Vec<Group> = Vec::new();
    for (i, u) in units.iter().enumerate() {
        if !can_block(u, lib.get(u.kind)) {
            continue;
        }
        match groups
            .iter_mut()
            .find(|g| isomorphic(&units[g.units[0] as usize], u))
        {
            Some(g) => g.units.push(i as u16),
            None => groups.push(Group {
                units: vec![i as u16],
                hp: u.hp,
                blocking: 0,
            }),
        }
    }
    if groups.is_empty() {
        return None;
    }
    let mut search = BlockSearch {
        lib,
        state: s,
        player: p,
        loss,
        groups,
        best: None,
        min_loss: f64::MAX,
    };
    search.recurse(0, attack, 0.0);
    let (counts, last) = search.best?;
    let mut blockers = Vec::new();
    for (g, group) in search.groups.iter().enumerate() {
        let n = counts[g] - u16::from(last == Some(g));
        blockers.extend_from_slice(&group.units[..n as usize]);
    }
    if let Some(g) = last {
        blockers.push(search.groups[g].units[counts[g] as usize - 1]);
    }
    Some(BlockSolution {
        loss: search.min_loss,
        blockers,
    })
}

/// True if `turn` is in the defense phase of its player.
fn defending(turn: &TurnPlan) -> bool {
    turn.in_turn() && turn.state.phase == TurnPhase::Defense
}

/// Blocks with the first legal blocker until the defense may end, then ends it.
fn block_in_order(turn: &mut TurnPlan, order: impl IntoIterator<Item = u16>) {
    for i in order {
        if !defending(turn) || turn.is_legal(Action::EndPhase) {
            break;
        }
        turn.try_apply(Action::Block(i));
    }
    finish_default(turn);
}

/// Blocks with the first legal blocker until the defense may end, then ends it (C++
/// `Defense_Default`).
fn finish_default(turn: &mut TurnPlan) {
    while defending(turn) && !turn.is_legal(Action::EndPhase) {
        let p = turn.player as usize;
        let next = (0..turn.state.sides[p].units.len() as u16)
            .map(Action::Block)
            .find(|&a| turn.is_legal(a));
        match next {
            Some(a) => turn.apply(a),
            None => break,
        }
    }
    if defending(turn) {
        turn.end_phase();
    }
}

/// `Defense_Solver` [Min Cost Loss]: the blocking with the least summed loss
/// ([`solve_blocks`]), then the end of the defense.
#[derive(Clone, Copy, Debug)]
pub struct DefenseSolver {
    /// The loss of a blocker taking damage (C++ `heuristic`; default
    /// [`damage_loss_will_cost`], [`super::heuristics::damage_loss_attack_value`] saves
    /// attackers).
    pub loss: DamageLoss,
}

impl Default for DefenseSolver {
    fn default() -> Self {
        DefenseSolver {
            loss: damage_loss_will_cost,
        }
    }
}

impl PartialPlayer for DefenseSolver {
    fn phase(&self) -> PpPhase {
        PpPhase::Defense
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if !defending(turn) {
            return;
        }
        let blockers = solve_blocks(turn.library, &turn.state, self.loss)
            .map(|b| b.blockers)
            .unwrap_or_default();
        block_in_order(turn, blockers);
    }
}

/// `Defense_GreedyKnapsack`: the legal blockers sorted by a score, lowest first, block in
/// that order until the attack is absorbed.
#[derive(Clone, Copy, Debug)]
pub struct DefenseGreedyKnapsack {
    /// The score (C++ `heuristic`; default [`current_value`]: cheapest first;
    /// [`super::heuristics::defense_heuristic_save_attackers`] saves attackers).
    pub heuristic: UnitHeuristic,
}

impl Default for DefenseGreedyKnapsack {
    fn default() -> Self {
        DefenseGreedyKnapsack {
            heuristic: current_value,
        }
    }
}

impl PartialPlayer for DefenseGreedyKnapsack {
    fn phase(&self) -> PpPhase {
        PpPhase::Defense
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if !defending(turn) {
            return;
        }
        let p = turn.player as usize;
        let mut scored: Vec<(f64, u16)> = (0..turn.state.sides[p].units.len() as u16)
            .filter(|&i| turn.is_legal(Action::Block(i)))
            .map(|i| {
                (
                    (self.heuristic)(turn.library, &turn.state, p, i as usize),
                    i,
                )
            })
            .collect();
        scored.sort_by(|a, b| a.0.total_cmp(&b.0));
        block_in_order(turn, scored.into_iter().map(|(_, i)| i));
    }
}

/// `Defense_Default`: the first legal blocker, repeatedly.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefenseDefault;

impl PartialPlayer for DefenseDefault {
    fn phase(&self) -> PpPhase {
        PpPhase::Defense
    }

    fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if defending(turn) {
            finish_default(turn);
        }
    }
}

/// `Defense_Random`: a uniformly random legal action (a blocker, or the end once the attack
/// is absorbed), repeatedly.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefenseRandom;

impl PartialPlayer for DefenseRandom {
    fn phase(&self) -> PpPhase {
        PpPhase::Defense
    }

    fn play(&self, turn: &mut TurnPlan, rng: &mut Rng) {
        turn.play_randomly(rng, defending);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::heuristics::{
        damage_loss_attack_value, defense_heuristic_save_attackers,
    };
    use crate::games::prismata::ai::testing::{add, clear, lib, random_games, start};
    use crate::rng::rng_from_seed;

    /// A defense position: player 1 defends against `attack` with the named units.
    fn defense(attack: u16, blockers: &[&str]) -> State {
        let mut s = start("Amporilla");
        clear(&mut s, 1);
        for name in blockers {
            add(&mut s, 1, name);
        }
        s.active = 1;
        s.phase = TurnPhase::Defense;
        s.sides[0].resources.set(Resource::Attack, attack);
        s
    }

    fn blocked(player: &dyn PartialPlayer, s: &State) -> Vec<Action> {
        let mut turn = TurnPlan::new(lib(), s.clone());
        player.play(&mut turn, &mut rng_from_seed(0));
        assert_ne!(turn.state.phase, TurnPhase::Defense, "the defense is over");
        turn.actions
    }

    #[test]
    fn the_solver_soaks_with_the_wall_rather_than_lose_drones() {
        // 2 attack: a Wall absorbs it all without dying; two Drones would die.
        let s = defense(2, &["Drone", "Drone", "Drone", "Wall"]);
        let best = solve_blocks(lib(), &s, damage_loss_will_cost).unwrap();
        assert_eq!(best.blockers, vec![3]);
        assert_eq!(best.loss, 0.0);
        assert_eq!(
            blocked(&DefenseSolver::default(), &s),
            vec![Action::Block(3), Action::EndPhase]
        );
    }

    #[test]
    fn the_solver_keeps_the_wall_alive_behind_cheaper_units() {
        // 4 attack against a Drone (3.5), an Engineer (2) and a Wall (3 HP, 6.5 / 1.13):
        // letting the Wall die with the Engineer costs 7.75; the Drone and the Engineer
        // dying in front of the Wall, which then soaks the last 2 and lives, costs 5.5.
        let s = defense(4, &["Drone", "Engineer", "Wall"]);
        let best = solve_blocks(lib(), &s, damage_loss_will_cost).unwrap();
        assert_eq!(best.blockers, vec![0, 1, 2]);
        assert!((best.loss - 5.5).abs() < 1e-9);
        // The blocks replay legally.
        let actions = blocked(&DefenseSolver::default(), &s);
        assert_eq!(actions.len(), 4);
    }

    #[test]
    fn a_forcefield_takes_partial_damage_for_part_of_its_value() {
        // 1 attack: half a Forcefield (3.75 / 2, less the survivor's epsilon) is cheaper than
        // an Engineer (2); 2 attack: a whole Forcefield (3.75) is cheaper than two Engineers
        // (4).
        let s = defense(1, &["Engineer", "Engineer", "Forcefield"]);
        let best = solve_blocks(lib(), &s, damage_loss_will_cost).unwrap();
        assert_eq!(best.blockers, vec![2]);
        assert!((best.loss - (3.75 / 2.0 - 0.001)).abs() < 1e-9);
        let s = defense(2, &["Engineer", "Engineer", "Forcefield"]);
        let best = solve_blocks(lib(), &s, damage_loss_will_cost).unwrap();
        assert_eq!(best.blockers, vec![2]);
        assert!((best.loss - 3.75).abs() < 1e-9);
        // Damaged to 1 HP it is a 1-HP blocker worth 1.875: with 2 attack, it and one
        // Engineer die (3.875) rather than both Engineers (4).
        let mut s = defense(2, &["Engineer", "Engineer", "Forcefield"]);
        s.sides[1].units[2].hp = 1;
        let best = solve_blocks(lib(), &s, damage_loss_will_cost).unwrap();
        let mut set = best.blockers.clone();
        set.sort_unstable();
        assert_eq!(set, vec![0, 2]);
        assert!((best.loss - 3.875).abs() < 1e-9);
    }

    #[test]
    fn identical_blockers_are_one_group() {
        // 2 attack against five Drones and two Engineers: two Engineers die (4 < 7).
        let s = defense(
            2,
            &[
                "Drone", "Drone", "Drone", "Drone", "Drone", "Engineer", "Engineer",
            ],
        );
        let best = solve_blocks(lib(), &s, damage_loss_will_cost).unwrap();
        assert_eq!(best.blockers, vec![5, 6]);
        assert!((best.loss - 4.0).abs() < 1e-9);
    }

    #[test]
    fn saving_attackers_lets_the_wall_die_instead() {
        // 3 attack against a charged Rhino (2 HP, blocks, and clicks for attack) and a Wall.
        let s = defense(3, &["Rhino", "Wall"]);
        let by_value = solve_blocks(lib(), &s, damage_loss_will_cost).unwrap();
        let by_attack = solve_blocks(lib(), &s, damage_loss_attack_value).unwrap();
        // By value the Rhino (5.9 / 1.13) dies in front of the Wall rather than the Wall
        // (6.5 / 1.13).
        assert_eq!(by_value.blockers, vec![0, 1]);
        assert!((by_value.loss - (5.9 / 1.13 - 0.001 / 3.0)).abs() < 1e-9);
        // By attack the Rhino is worth 1 attack, the Wall none: the Wall dies alone.
        assert_eq!(by_attack.blockers, vec![1]);
        assert_eq!(by_attack.loss, 0.0);
    }

    #[test]
    fn the_greedy_knapsack_blocks_cheapest_first() {
        let s = defense(2, &["Wall", "Drone", "Engineer"]);
        assert_eq!(
            blocked(&DefenseGreedyKnapsack::default(), &s),
            vec![Action::Block(2), Action::Block(1), Action::EndPhase]
        );
        let save = DefenseGreedyKnapsack {
            heuristic: defense_heuristic_save_attackers,
        };
        // All three score 0 attack per HP: unit order.
        assert_eq!(blocked(&save, &s), vec![Action::Block(0), Action::EndPhase]);
    }

    #[test]
    fn default_blocks_in_unit_order_and_random_absorbs_everything() {
        let s = defense(2, &["Drone", "Engineer", "Wall"]);
        assert_eq!(
            blocked(&DefenseDefault, &s),
            vec![Action::Block(0), Action::Block(1), Action::EndPhase]
        );
        let actions = blocked(&DefenseRandom, &s);
        assert_eq!(actions.last(), Some(&Action::EndPhase));
    }

    #[test]
    fn defense_players_play_legally_in_random_games() {
        let players: [&dyn PartialPlayer; 5] = [
            &DefenseSolver::default(),
            &DefenseSolver {
                loss: damage_loss_attack_value,
            },
            &DefenseGreedyKnapsack::default(),
            &DefenseDefault,
            &DefenseRandom,
        ];
        for p in players {
            assert!(random_games(p, 6, 80) > 10, "{p:?} defended too rarely");
        }
    }
}
