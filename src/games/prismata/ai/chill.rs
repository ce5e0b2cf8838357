//! Chill arithmetic (C++ `ChillScenario.cpp`, `ChillIterator.cpp`): how much of one player's
//! chill can be spent freezing the other player's blockers, from histograms of chill amounts
//! and blocker HPs.
//!
//! A [`ChillScenario`] counts the chillers of one side (ready units whose click chills) and
//! the blockers of the other; [`ChillScenario::heuristic_used_chill`] estimates the chill that
//! ends up in frozen blockers and [`ChillIterator`] searches for it (branch and bound over
//! histogram counts). [`ChillScenario::used_chill`] combines the two as the C++ does.
//!
//! The iterator is the C++ search as it is, not an exact solver: its bound starts from a greedy
//! assignment with no waste recorded, it prunes any branch wasting more than the best so far,
//! and when no chiller covers a blocker's remaining HP it skips the largest chiller size; we
//! keep all three so that predictions match the reference bots.
//!
//! [`StateChillIterator`] (C++ `StateChillIterator.cpp`) searches chill actions on a state
//! itself, scoring each freeze combination by the enemy's predicted blocking loss.
//!
//! Where we differ from the C++: its top-down waste heuristic reads the histogram at index −1
//! once every blocker is matched (undefined behaviour); ours stops there. Its twos heuristic's
//! "odd blockers left" is an unsigned difference that wraps when chillers outnumber them (and
//! then adds no waste); ours says so directly.

use crate::games::prismata::action::can_block;
use crate::games::prismata::ai::heuristics::will_score_sum;
use crate::games::prismata::ai::predict::enemy_next_turn_defense_loss;
use crate::games::prismata::library::Target;
use crate::games::prismata::{Action, Library, State, Status, Unit, UnitType, rules};

/// The chill a unit type's click applies, if its click chills.
pub fn chill_amount(t: &UnitType) -> Option<u16> {
    match t.click.as_ref()?.target? {
        Target::Chill(n) => Some(n),
        _ => None,
    }
}

/// True if a type blocks the turn it is bought (C++ `isPromptBlocker`).
pub fn is_prompt_blocker(t: &UnitType) -> bool {
    t.blocks && t.build == 0
}

/// Counts of chillers by chill amount and of blockers by HP, with running totals (C++
/// `ChillScenario`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChillScenario {
    chill: Histogram,
    defense: Histogram,
    total_defense_bought: u32,
}

/// How many items there are of each size (a chill amount, a blocker's HP), with their count,
/// the sum of their sizes and the smallest and largest size present (0 and 0 when empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Histogram {
    counts: Vec<u32>,
    count: u32,
    total: u32,
    smallest: u32,
    largest: u32,
}

impl Histogram {
    /// Adds `n` items of size `i`.
    fn add(&mut self, i: u32, n: u32) {
        if n == 0 {
            return;
        }
        if i as usize >= self.counts.len() {
            self.counts.resize(i as usize + 1, 0);
        }
        self.counts[i as usize] += n;
        self.total += n * i;
        self.smallest = if self.count == 0 {
            i
        } else {
            self.smallest.min(i)
        };
        self.count += n;
        self.largest = self.largest.max(i);
    }

    /// Removes `n` items of size `i` (which it must hold).
    fn remove(&mut self, i: u32, n: u32) {
        if n == 0 {
            return;
        }
        let h = &mut self.counts;
        debug_assert!(
            h[i as usize] >= n,
            "removing what the scenario does not hold"
        );
        h[i as usize] -= n;
        self.total -= n * i;
        self.count -= n;
        if h[i as usize] == 0 {
            if self.count == 0 {
                self.smallest = 0;
                self.largest = 0;
                return;
            }
            if i == self.smallest {
                self.smallest = (i..h.len() as u32)
                    .find(|&k| h[k as usize] > 0)
                    .unwrap_or(0);
            }
            if i == self.largest {
                self.largest = (1..=i).rev().find(|&k| h[k as usize] > 0).unwrap_or(0);
            }
        }
    }
}

impl ChillScenario {
    /// The chillers of `chill_player` that are neither under construction nor exhausted
    /// (whether their click is legal now is not checked) against the units of its opponent
    /// that can block now.
    pub fn from_state(library: &Library, state: &State, chill_player: usize) -> ChillScenario {
        let mut s = ChillScenario::default();
        for u in &state.sides[chill_player].units {
            if u.alive
                && u.is_active()
                && let Some(c) = chill_amount(library.get(u.kind))
            {
                s.add_chiller(c, 1);
            }
        }
        for u in &state.sides[1 - chill_player].units {
            if can_block(u, library.get(u.kind)) {
                s.add_defender(u.hp, 1);
            }
        }
        s
    }

    /// Chillers counted.
    #[cfg(test)]
    fn num_chillers(&self) -> u32 {
        self.chill.count
    }

    /// Blockers counted.
    #[cfg(test)]
    fn num_defenders(&self) -> u32 {
        self.defense.count
    }

    /// Sum of the chill amounts.
    #[cfg(test)]
    fn total_chill(&self) -> u32 {
        self.chill.total
    }

    /// Sum of the blockers' HP.
    #[cfg(test)]
    fn total_defense(&self) -> u32 {
        self.defense.total
    }

    /// HP added by [`ChillScenario::buy_defender`] (less what selling took back).
    pub fn total_defense_bought(&self) -> u32 {
        self.total_defense_bought
    }

    /// The largest chill amount held (0 if none).
    #[cfg(test)]
    fn largest_chiller(&self) -> u32 {
        self.chill.largest
    }

    /// The largest blocker HP held (0 if none).
    #[cfg(test)]
    fn largest_defender(&self) -> u32 {
        self.defense.largest
    }

    /// Adds `n` chillers of `chill`.
    pub fn add_chiller(&mut self, chill: u16, n: u32) {
        self.chill.add(chill as u32, n);
    }

    /// Removes `n` chillers of `chill` (they must be there).
    #[cfg(test)]
    fn remove_chiller(&mut self, chill: u16, n: u32) {
        self.chill.remove(chill as u32, n);
    }

    /// Adds `n` blockers of `hp`.
    pub fn add_defender(&mut self, hp: u16, n: u32) {
        self.defense.add(hp as u32, n);
    }

    /// Removes `n` blockers of `hp` (they must be there).
    pub fn remove_defender(&mut self, hp: u16, n: u32) {
        self.defense.remove(hp as u32, n);
    }

    /// The prompt blockers buying one `kind` adds: the unit itself if it is one, and those its
    /// buy script creates for its owner, each `(hp, count)`.
    fn bought_blockers(library: &Library, kind: u16) -> impl Iterator<Item = (u16, u32)> + '_ {
        let t = library.get(kind);
        let own = is_prompt_blocker(t).then_some((t.hp, 1));
        let created = t.buy.iter().flat_map(|b| &b.create).filter_map(|c| {
            let ct = library.get(c.unit);
            (!c.opponent && is_prompt_blocker(ct)).then_some((ct.hp, c.count as u32))
        });
        own.into_iter().chain(created)
    }

    /// Adds the prompt blockers that buying one `kind` gives (C++ `buyDefender`).
    pub fn buy_defender(&mut self, library: &Library, kind: u16) {
        for (hp, n) in Self::bought_blockers(library, kind) {
            self.add_defender(hp, n);
            self.total_defense_bought += hp as u32 * n;
        }
    }

    /// Takes back [`ChillScenario::buy_defender`] (C++ `sellDefender`).
    pub fn sell_defender(&mut self, library: &Library, kind: u16) {
        for (hp, n) in Self::bought_blockers(library, kind) {
            self.remove_defender(hp, n);
            self.total_defense_bought -= hp as u32 * n;
        }
    }

    /// The chill the chillers can put into frozen blockers: the iterator's answer if it
    /// finished within `max_nodes` (0 = no limit), else the better of its best so far and
    /// the heuristic (C++ `calculateUsedChill`).
    pub fn used_chill(&self, max_nodes: usize) -> u32 {
        let mut it = ChillIterator::new(self);
        it.solve(max_nodes);
        if it.is_solved() {
            it.best_used_chill()
        } else {
            it.best_used_chill().max(self.heuristic_used_chill())
        }
    }

    /// The exact chill the chillers can put into frozen blockers (an unlimited solve).
    #[cfg(test)]
    fn exact_used_chill(&self) -> u32 {
        let mut it = ChillIterator::new(self);
        it.solve(0);
        it.best_used_chill()
    }

    /// A fast estimate of the chill that freezes blockers (C++ `calculateHeuristicUsedChill`):
    /// all chill less the waste of matching chillers top-down to blockers, less the largest
    /// of three lower bounds on the rest's waste (totals, parity, multiples of three).
    pub fn heuristic_used_chill(&self) -> u32 {
        if self.chill.count == 0 || self.defense.count == 0 {
            return 0;
        }
        if self.chill.count >= self.defense.count && self.chill.smallest >= self.defense.largest {
            return self.defense.total;
        }
        let mut chill = self.chill.counts.clone();
        let mut defense = self.defense.counts.clone();
        let top_down = self.top_down_waste(&mut chill, &mut defense);
        let waste = self
            .totals_waste(&chill, &defense)
            .max(self.twos_waste(&chill, &defense))
            .max(self.threes_waste(&chill, &defense));
        debug_assert!(self.chill.total >= waste + top_down);
        self.chill.total.saturating_sub(waste + top_down)
    }

    /// Matches the largest chillers with the largest blockers they cover, removing the
    /// matched pairs from the histograms; returns the chill this overshoots by.
    fn top_down_waste(&self, chill: &mut [u32], defense: &mut [u32]) -> u32 {
        if self.chill.largest < self.defense.largest {
            return 0;
        }
        let mut waste = 0;
        let (mut ci, mut di) = (self.chill.largest, self.defense.largest);
        let (mut c_used, mut d_used) = (0, 0);
        while ci > 0 && di > 0 && ci >= di {
            let take = (self.chill.counts[ci as usize] - c_used)
                .min(self.defense.counts[di as usize] - d_used);
            c_used += take;
            d_used += take;
            waste += take * (ci - di);
            chill[ci as usize] -= take;
            defense[di as usize] -= take;
            if c_used == self.chill.counts[ci as usize] {
                c_used = 0;
                ci -= 1;
            }
            if d_used == self.defense.counts[di as usize] {
                d_used = 0;
                di -= 1;
            }
        }
        waste
    }

    fn sums(&self, chill: &[u32], defense: &[u32], f: impl Fn(u32) -> u32) -> (u32, u32) {
        let c = (self.chill.smallest..=self.chill.largest)
            .map(|i| f(i) * chill[i as usize])
            .sum();
        let d = (self.defense.smallest..=self.defense.largest)
            .map(|i| f(i) * defense[i as usize])
            .sum();
        (c, d)
    }

    /// Chill beyond the total HP is wasted.
    fn totals_waste(&self, chill: &[u32], defense: &[u32]) -> u32 {
        let (c, d) = self.sums(chill, defense, |i| i);
        c.saturating_sub(d)
    }

    /// Waste from parity: chill in pairs that must overshoot odd blockers.
    fn twos_waste(&self, chill: &[u32], defense: &[u32]) -> u32 {
        let (c_sum, d_sum) = self.sums(chill, defense, |i| i);
        let (c_odd, d_odd) = self.sums(chill, defense, |i| i & 1);
        let chill_twos = (c_sum - c_odd) / 2;
        let def_twos = (d_sum - d_odd) / 2;
        let chill_twos = chill_twos - chill_twos.min(def_twos);
        let mut waste = chill_twos;
        if let Some(def_ones_left) = d_odd.checked_sub(c_odd)
            && chill_twos > def_ones_left
        {
            waste += chill_twos - def_ones_left;
        }
        // All-even chill against all-odd blockers wastes at least one.
        let c_even = self.num_in(chill, true) - c_odd;
        let d_even = self.num_in(defense, false) - d_odd;
        if waste == 0 && c_even > 0 && c_odd == 0 && d_even == 0 && d_odd > 0 {
            waste = 1;
        }
        waste
    }

    /// Number of chillers (`chillers`) or blockers in a histogram over this scenario's range.
    fn num_in(&self, h: &[u32], chillers: bool) -> u32 {
        let (lo, hi) = if chillers {
            (self.chill.smallest, self.chill.largest)
        } else {
            (self.defense.smallest, self.defense.largest)
        };
        (lo..=hi).map(|i| h[i as usize]).sum()
    }

    /// Waste from chill in threes against blockers whose HP is not a multiple of three (the
    /// C++ counts each HP that is a multiple of three once, however many blockers have it).
    fn threes_waste(&self, chill: &[u32], defense: &[u32]) -> u32 {
        let (c3, d3) = self.sums(chill, defense, |i| i / 3);
        let d_not3: u32 = (self.defense.smallest..=self.defense.largest)
            .map(|i| if i % 3 == 0 { 1 } else { defense[i as usize] })
            .sum();
        let sub = c3.min(d3);
        let chill_threes = c3 - sub;
        let mut waste = chill_threes;
        if chill_threes > d_not3 {
            waste += 2 * (chill_threes - d_not3);
        }
        waste
    }
}

/// Branch and bound over which chillers freeze which blockers, by histogram counts (C++
/// `ChillIterator`): finds the most blocker HP that can be frozen, and with it the least chill
/// wasted. Blockers are frozen in non-decreasing HP order and a started blocker is finished
/// before the next, so permutations are not revisited.
#[derive(Clone, Debug)]
pub struct ChillIterator<'s> {
    scenario: &'s ChillScenario,
    chill_left: Vec<u32>,
    defense_left: Vec<u32>,
    lower_bound: u32,
    best_used: u32,
    best_wasted: u32,
    nodes: usize,
    max_nodes: usize,
    solved: bool,
}

impl<'s> ChillIterator<'s> {
    /// An iterator over `scenario`, its best so far a greedy assignment's.
    pub fn new(scenario: &'s ChillScenario) -> ChillIterator<'s> {
        let mut it = ChillIterator {
            scenario,
            chill_left: scenario.chill.counts.clone(),
            defense_left: scenario.defense.counts.clone(),
            lower_bound: 0,
            best_used: 0,
            best_wasted: 0,
            nodes: 0,
            max_nodes: 0,
            solved: false,
        };
        it.lower_bound = it.greedy_used_chill();
        it.best_used = it.lower_bound;
        it
    }

    /// Searches, stopping after `max_nodes` nodes (0 = no limit).
    pub fn solve(&mut self, max_nodes: usize) {
        self.chill_left.clone_from(&self.scenario.chill.counts);
        self.defense_left.clone_from(&self.scenario.defense.counts);
        self.best_used = self.lower_bound;
        self.best_wasted = 0;
        self.nodes = 0;
        self.max_nodes = max_nodes;
        self.solved = self.recurse(0, 0, 0, 0);
    }

    /// True if the last solve finished within its node limit.
    pub fn is_solved(&self) -> bool {
        self.solved
    }

    /// Nodes the last solve searched.
    #[cfg(test)]
    fn nodes_searched(&self) -> usize {
        self.nodes
    }

    /// The most blocker HP found frozen.
    pub fn best_used_chill(&self) -> u32 {
        self.best_used
    }

    /// Returns false once the node limit is reached.
    fn recurse(&mut self, used: u32, wasted: u32, min_blocker: u32, partial: u32) -> bool {
        self.nodes += 1;
        if used > self.best_used || (used == self.best_used && wasted < self.best_wasted) {
            self.best_used = used;
            self.best_wasted = wasted;
        }
        if self.scenario.chill.total - wasted <= self.best_used || wasted > self.best_wasted {
            return true;
        }
        if self.max_nodes > 0 && self.nodes >= self.max_nodes {
            return false;
        }
        let (first, end) = if partial > 0 {
            (min_blocker, min_blocker + 1)
        } else if self.scenario.defense.largest > 0 {
            (min_blocker, self.scenario.defense.largest + 1)
        } else {
            (min_blocker, 0)
        };
        for d in first..end {
            if self.defense_left[d as usize] == 0 {
                continue;
            }
            // Chillers up to the smallest one that covers the rest of this blocker's HP (if
            // none does, the C++ stops below the largest chiller size).
            let need = d - partial;
            let chill_end = (need as usize..self.chill_left.len())
                .find(|&c| self.chill_left[c] > 0)
                .map_or(self.scenario.chill.largest, |c| c as u32 + 1);
            for c in 1..chill_end {
                if self.chill_left[c as usize] == 0 {
                    continue;
                }
                let chilled = partial + c;
                self.chill_left[c as usize] -= 1;
                let go_on = if chilled >= d {
                    self.defense_left[d as usize] -= 1;
                    let r = self.recurse(used + d, wasted + chilled - d, min_blocker, 0);
                    self.defense_left[d as usize] += 1;
                    r
                } else {
                    self.recurse(used, wasted, d, chilled)
                };
                self.chill_left[c as usize] += 1;
                if !go_on {
                    return false;
                }
            }
        }
        true
    }

    /// A greedy assignment's frozen HP (C++ `calculateChillUsedLowerBound`): largest blockers
    /// first, each frozen with the smallest chiller covering what is left of it, else the
    /// largest below.
    fn greedy_used_chill(&self) -> u32 {
        let s = self.scenario;
        let mut chill = s.chill.counts.clone();
        let mut defense = s.defense.counts.clone();
        let mut chill_left = s.chill.total;
        let mut applied_total = 0;
        let mut d = s.chill.total.min(s.defense.largest);
        while d > 0 {
            if defense[d as usize] == 0 || chill_left < d {
                d -= 1;
                continue;
            }
            let mut applied = 0;
            while applied < d {
                let rest = d - applied;
                let best = (rest..=s.chill.largest)
                    .find(|&c| chill[c as usize] > 0)
                    .or_else(|| {
                        let top = rest.min(chill.len() as u32 - 1);
                        (1..=top).rev().find(|&c| chill[c as usize] > 0)
                    })
                    .expect("the chill left covers this blocker");
                chill[best as usize] -= 1;
                applied += best;
            }
            chill_left -= applied;
            applied_total += d;
            defense[d as usize] -= 1;
        }
        applied_total
    }
}

/// A unit of player `p` and what makes it interchangeable with others (C++
/// `Card::isIsomorphic`).
fn iso_key(u: &Unit) -> (u16, u16, u16, u16, bool, u16, u16, u16, Status) {
    (
        u.kind,
        u.hp,
        u.chill,
        u.charges,
        u.alive,
        u.delay,
        u.construction,
        u.lifespan,
        u.status,
    )
}

/// Interchangeable units (C++ `IsomorphicCardSet`): used in order.
#[derive(Clone, Debug)]
struct IsoSet {
    units: Vec<u16>,
    used: usize,
}

impl IsoSet {
    fn all_used(&self) -> bool {
        self.used >= self.units.len()
    }

    fn current(&self) -> u16 {
        self.units[self.used]
    }
}

/// Groups units `ids` of side `p` of `s` into sets of interchangeable units, in first-seen
/// order.
fn iso_sets(s: &State, p: usize, ids: impl Iterator<Item = u16>) -> Vec<IsoSet> {
    let mut sets: Vec<IsoSet> = Vec::new();
    for i in ids {
        let key = iso_key(&s.sides[p].units[i as usize]);
        match sets
            .iter_mut()
            .find(|set| iso_key(&s.sides[p].units[set.units[0] as usize]) == key)
        {
            Some(set) => set.units.push(i),
            None => sets.push(IsoSet {
                units: vec![i],
                used: 0,
            }),
        }
    }
    sets
}

/// Search over which of the player to act's chillers freeze which enemy blockers, on the
/// state itself (C++ `StateChillIterator`, its `recurseIsomorphic` search): interchangeable
/// chillers and blockers are grouped, each distinct combination of frozen blockers is scored
/// once (a combination using more chillers of every group than one seen before is skipped),
/// and the best is the one with the highest (enemy's blocking loss − will score given up),
/// then the fewest actions.
///
/// Where we differ from the C++: its per-state group counts are fixed arrays of 10 (more
/// groups overflow them); ours grow. It undoes each chill; we restore a copy of the state.
#[derive(Clone, Debug)]
pub struct StateChillIterator<'a> {
    lib: &'a Library,
    state: State,
    player: usize,
    initial_eval: f64,
    chillers: Vec<IsoSet>,
    blockers: Vec<IsoSet>,
    chiller_counts: Vec<u32>,
    blocker_counts: Vec<u32>,
    seen: Vec<(Vec<u32>, Vec<u32>)>,
    stack: Vec<Action>,
    best: (f64, usize),
    best_move: Vec<Action>,
    max_frozen: usize,
    frozen: usize,
    nodes: usize,
    solved: bool,
}

impl<'a> StateChillIterator<'a> {
    /// A search from `state`, for its player to act.
    pub fn new(lib: &'a Library, state: &State) -> StateChillIterator<'a> {
        let p = state.active as usize;
        let o = 1 - p;
        let chiller_ids = (0..state.sides[p].units.len() as u16).filter(|&i| {
            let u = &state.sides[p].units[i as usize];
            u.alive && u.construction == 0 && chill_amount(lib.get(u.kind)).is_some()
        });
        let mut chillers = iso_sets(state, p, chiller_ids);
        let blocker_ids = (0..state.sides[o].units.len() as u16).filter(|&j| {
            let u = &state.sides[o].units[j as usize];
            can_block(u, lib.get(u.kind))
        });
        let mut blockers = iso_sets(state, o, blocker_ids);
        let amount = |set: &IsoSet| {
            chill_amount(lib.get(state.sides[p].units[set.units[0] as usize].kind)).unwrap_or(0)
        };
        chillers.sort_by_key(|set| std::cmp::Reverse(amount(set)));
        blockers
            .sort_by_key(|set| std::cmp::Reverse(state.sides[o].units[set.units[0] as usize].hp));
        StateChillIterator {
            lib,
            state: state.clone(),
            player: p,
            initial_eval: will_score_sum(lib, state, p),
            chiller_counts: vec![0; chillers.len()],
            blocker_counts: vec![0; blockers.len()],
            chillers,
            blockers,
            seen: Vec::new(),
            stack: Vec::new(),
            best: (f64::NEG_INFINITY, 0),
            best_move: Vec::new(),
            max_frozen: 0,
            frozen: 0,
            nodes: 0,
            solved: false,
        }
    }

    /// Searches, stopping once `max_iterations` freeze combinations were scored (0 = no
    /// limit).
    pub fn solve(&mut self, max_iterations: usize) {
        self.max_frozen = max_iterations;
        let initial = self.state.clone();
        self.evaluate(&initial, 0);
        self.solved = self.recurse(0, 0, false);
    }

    /// True if the last solve finished within its limit.
    #[cfg(test)]
    fn is_solved(&self) -> bool {
        self.solved
    }

    /// The best chill actions found (clicks each followed by its target).
    pub fn best_move(&self) -> &[Action] {
        &self.best_move
    }

    /// Scores `s`, reached by the actions on the stack (the first `len`).
    fn evaluate(&mut self, s: &State, len: usize) {
        let will = will_score_sum(self.lib, s, self.player);
        let loss = enemy_next_turn_defense_loss(self.lib, &mut s.clone());
        let delta = loss - (self.initial_eval - will);
        let (best_delta, best_len) = self.best;
        if delta > best_delta || (delta == best_delta && len < best_len) {
            self.best = (delta, len);
            self.best_move.clear();
            self.best_move.extend_from_slice(&self.stack[..len]);
        }
    }

    fn frozen_blocker(&self, j: u16) -> bool {
        let u = &self.state.sides[1 - self.player].units[j as usize];
        u.chill >= u.hp
    }

    /// Returns false once the limit is reached.
    fn recurse(&mut self, blocker_from: usize, chiller_from: usize, partial: bool) -> bool {
        self.nodes += 1;
        if self.max_frozen > 0 && self.frozen >= self.max_frozen {
            return false;
        }
        if blocker_from >= self.blockers.len() {
            return true;
        }
        let blocker_end = if partial {
            blocker_from + 1
        } else {
            self.blockers.len()
        };
        for b in blocker_from..blocker_end {
            if self.blockers[b].all_used() {
                continue;
            }
            let j = self.blockers[b].current();
            for c in chiller_from..self.chillers.len() {
                if self.chillers[c].all_used() {
                    continue;
                }
                let i = self.chillers[c].current();
                let saved = self.state.clone();
                if !rules::is_legal(self.lib, &self.state, Action::Click(i)) {
                    continue;
                }
                rules::apply(self.lib, &mut self.state, Action::Click(i));
                if !rules::is_legal(self.lib, &self.state, Action::Target(j)) {
                    self.state = saved;
                    continue;
                }
                rules::apply(self.lib, &mut self.state, Action::Target(j));
                self.stack.push(Action::Click(i));
                self.stack.push(Action::Target(j));
                self.chillers[c].used += 1;
                self.chiller_counts[c] += 1;
                let frozen = self.frozen_blocker(j);
                let mut go_on = true;
                if frozen {
                    self.blockers[b].used += 1;
                    self.blocker_counts[b] += 1;
                    if self.check_unique() {
                        self.frozen += 1;
                        let s = self.state.clone();
                        self.evaluate(&s, self.stack.len());
                        go_on = self.recurse(b, 0, false);
                    }
                    self.blockers[b].used -= 1;
                    self.blocker_counts[b] -= 1;
                } else {
                    go_on = self.recurse(b, c, true);
                }
                self.chillers[c].used -= 1;
                self.chiller_counts[c] -= 1;
                self.stack.truncate(self.stack.len() - 2);
                self.state = saved;
                if !go_on {
                    return false;
                }
            }
        }
        true
    }

    /// False if a combination seen before froze the same blockers with no more chillers of
    /// any group; else remembers this one.
    fn check_unique(&mut self) -> bool {
        let dominated = self.seen.iter().any(|(blockers, chillers)| {
            *blockers == self.blocker_counts
                && chillers
                    .iter()
                    .zip(&self.chiller_counts)
                    .all(|(seen, now)| seen <= now)
        });
        if !dominated {
            self.seen
                .push((self.blocker_counts.clone(), self.chiller_counts.clone()));
        }
        !dominated
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::{Level, Status};
    use crate::rng::{Rng, rng_from_seed};
    use rand::RngExt;

    fn scenario(chill: &[u16], defense: &[u16]) -> ChillScenario {
        let mut s = ChillScenario::default();
        for &c in chill {
            s.add_chiller(c, 1);
        }
        for &d in defense {
            s.add_defender(d, 1);
        }
        s
    }

    /// The most HP that chillers can freeze, by trying every assignment of chillers to
    /// blockers (or to nothing).
    fn brute_force(chill: &[u16], defense: &[u16]) -> u32 {
        fn go(chill: &[u16], applied: &mut Vec<u16>, defense: &[u16]) -> u32 {
            let Some((&c, rest)) = chill.split_first() else {
                return defense
                    .iter()
                    .zip(applied.iter())
                    .filter(|(d, a)| a >= d)
                    .map(|(&d, _)| d as u32)
                    .sum();
            };
            let mut best = go(rest, applied, defense);
            for j in 0..defense.len() {
                applied[j] += c;
                best = best.max(go(rest, applied, defense));
                applied[j] -= c;
            }
            best
        }
        go(chill, &mut vec![0; defense.len()], defense)
    }

    fn random_sizes(rng: &mut Rng, n: usize, max: u16) -> Vec<u16> {
        (0..rng.random_range(0..=n))
            .map(|_| rng.random_range(1..=max))
            .collect()
    }

    #[test]
    fn a_solve_lies_between_the_greedy_bound_and_the_optimum() {
        let mut rng = rng_from_seed(7);
        let mut below_optimum = 0;
        for _ in 0..300 {
            let chill = random_sizes(&mut rng, 5, 5);
            let defense = random_sizes(&mut rng, 4, 6);
            let s = scenario(&chill, &defense);
            let it = ChillIterator::new(&s);
            let greedy = it.best_used_chill();
            let solved = s.exact_used_chill();
            let optimum = brute_force(&chill, &defense);
            assert!(
                greedy <= solved && solved <= optimum,
                "chill {chill:?} defense {defense:?}: {greedy} {solved} {optimum}"
            );
            below_optimum += usize::from(solved < optimum);
        }
        assert!(below_optimum < 30, "the search is close to exact");
    }

    #[test]
    fn the_search_improves_on_the_greedy_assignment() {
        // Greedy freezes the 5 with 2+2+1 and has 1+1 left; the search freezes the 4 with
        // 2+2 and a 3 with 1+1+1.
        let (chill, defense) = ([1, 1, 1, 2, 2], [3, 3, 5, 4]);
        let s = scenario(&chill, &defense);
        let mut it = ChillIterator::new(&s);
        assert_eq!(it.best_used_chill(), 5);
        it.solve(0);
        assert!(it.is_solved());
        assert_eq!(it.best_used_chill(), 7);
        assert_eq!(brute_force(&chill, &defense), 7);
    }

    #[test]
    fn a_node_limit_falls_back_on_the_heuristic() {
        let s = scenario(&[1, 1, 1, 2, 2], &[3, 3, 5, 4]);
        let mut it = ChillIterator::new(&s);
        it.solve(2);
        assert!(!it.is_solved());
        assert_eq!(it.nodes_searched(), 2);
        assert_eq!(
            s.used_chill(2),
            it.best_used_chill().max(s.heuristic_used_chill())
        );
    }

    #[test]
    fn the_heuristic_is_exact_in_the_easy_cases() {
        assert_eq!(scenario(&[], &[3]).heuristic_used_chill(), 0);
        assert_eq!(scenario(&[2], &[]).heuristic_used_chill(), 0);
        // Every chiller covers the largest blocker and there are enough of them.
        assert_eq!(scenario(&[5, 4, 4], &[3, 4]).heuristic_used_chill(), 7);
        // 2-chillers on 1-HP blockers waste half their chill.
        let s = scenario(&[2, 2], &[1, 1]);
        assert_eq!(s.heuristic_used_chill(), 2);
        assert_eq!(s.exact_used_chill(), 2);
    }

    #[test]
    fn adding_and_removing_keeps_the_extremes() {
        let mut s = scenario(&[1, 3, 3], &[2, 5]);
        assert_eq!((s.total_chill(), s.largest_chiller()), (7, 3));
        s.remove_chiller(3, 2);
        assert_eq!(
            (s.total_chill(), s.largest_chiller(), s.num_chillers()),
            (1, 1, 1)
        );
        s.remove_defender(5, 1);
        assert_eq!((s.total_defense(), s.largest_defender()), (2, 2));
        s.remove_defender(2, 1);
        assert_eq!((s.num_defenders(), s.largest_defender()), (0, 0));
        let lib = Library::builtin();
        let wall = lib.id("Wall").unwrap();
        s.buy_defender(lib, wall);
        assert_eq!((s.total_defense_bought(), s.largest_defender()), (3, 3));
        s.sell_defender(lib, wall);
        assert_eq!((s.total_defense_bought(), s.num_defenders()), (0, 0));
    }

    #[test]
    fn a_state_gives_active_chillers_and_current_blockers() {
        let lib = Library::builtin();
        let mut s = State::new(lib, &Level::load(lib, "units:Shiver Yeti").unwrap());
        let yeti = lib.id("Shiver Yeti").unwrap();
        let ready = s.add_unit(lib, 0, yeti, 0, 0);
        s.sides[0].units[ready].status = Status::Default;
        s.add_unit(lib, 0, yeti, 1, 0); // under construction
        s.sides[1].units[0].status = Status::Assigned; // a clicked drone does not block
        let sc = ChillScenario::from_state(lib, &s, 0);
        assert_eq!((sc.num_chillers(), sc.total_chill()), (1, 2));
        // Player 1 has 7 Drones (1 HP) and 2 Engineers (1 HP); one Drone is clicked.
        assert_eq!((sc.num_defenders(), sc.total_defense()), (8, 8));
    }

    #[test]
    fn the_state_search_scores_distinct_freezes_within_its_limit() {
        let lib = Library::builtin();
        let mut s = State::new(lib, &Level::load(lib, "units:Shiver Yeti").unwrap());
        let yeti = lib.id("Shiver Yeti").unwrap();
        for _ in 0..3 {
            let i = s.add_unit(lib, 0, yeti, 0, 0);
            s.sides[0].units[i].status = Status::Default;
        }
        s.sides[0]
            .resources
            .set(crate::games::prismata::Resource::Attack, 2);
        // Nine 1-HP blockers in two interchangeable groups (Drones, Engineers).
        let mut it = StateChillIterator::new(lib, &s);
        it.solve(2);
        assert!(!it.is_solved());
        let mut it = StateChillIterator::new(lib, &s);
        it.solve(0);
        assert!(it.is_solved());
        let mut replay = s.clone();
        for &a in it.best_move() {
            assert!(rules::is_legal(lib, &replay, a), "{a:?}");
            rules::apply(lib, &mut replay, a);
        }
        assert!(replay.armed.is_none());
        // 2 attack kills the two cheapest blockers, the Engineers; with both frozen, two
        // Drones die instead. Freezing a Drone as well changes nothing, so the search keeps
        // the two freezes.
        let engineer = lib.id("Engineer").unwrap();
        let targets: Vec<u16> = it
            .best_move()
            .iter()
            .filter_map(|&a| match a {
                Action::Target(j) => Some(s.sides[1].units[j as usize].kind),
                _ => None,
            })
            .collect();
        assert_eq!(targets, [engineer, engineer]);
    }
}
