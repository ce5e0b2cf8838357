//! Alpha-Beta over whole-turn portfolio moves with iterative deepening (C++
//! `StackAlphaBetaSearch`, spec §11.4).
//!
//! As the C++: depths 1, 2, … up to `max_depth`, plain alpha-beta in iterator order, at most
//! `max_children` children a node (0: all), the root's moves from the root portfolio and
//! deeper ones from the inner portfolio, leaves (the depth limit or a finished game) scored by
//! the evaluation; the search stops after an iteration that expanded no more nodes than the
//! one before (the tree is exhausted) and returns the best root move of the deepest completed
//! iteration (of the unfinished first one if none completed).
//!
//! Where the C++ has a time limit checked at every node, ours is a budget of leaf
//! evaluations checked at the same place, so a decision does not depend on the machine.
//!
//! Each iteration walks the tree of the one before, so a node's moves are kept from one
//! iteration to the next (`Expansion`) instead of generated again: the portfolio's players
//! are functions of the state unless they draw random numbers, and a node whose generation drew
//! any is generated afresh on every visit, so the search plays exactly as one that keeps
//! nothing.

use super::eval::{LearnedLeaf, LearnedVerdict, PlayoutResult, WIN_SCORE, playout, playout_score};
use super::heuristics::{will_score, will_score_inflation};
use super::portfolio::{Children, PartialPortfolio};
use super::sequence::Sequence;
use crate::games::prismata::{Action, Library, State};
use crate::rng::Rng;

/// How leaves are scored (C++ `Eval`, spec §11.5).
#[derive(Clone, Debug)]
pub enum LeafEval {
    /// A playout by this scripted player for both sides ([`playout_score`]).
    Playout(Sequence),
    /// The searching player's [`will_score`] (a finished game: ±[`super::eval::WIN_SCORE`]).
    WillScore,
    /// [`will_score_inflation`] (a finished game: ±[`super::eval::WIN_SCORE`]).
    WillScoreInflation,
    /// A learned model's probability `p` that the searching player wins ([`LearnedLeaf`],
    /// looking ahead with the scripted player given, if any), as `(2p − 1) ·`
    /// [`LEARNED_SCALE`]; a game that ends first scores as a playout does.
    Learned(LearnedLeaf, Option<Sequence>),
}

/// A learned leaf's score for a sure win: half a playout win, so that a finished game
/// always outranks a prediction.
pub const LEARNED_SCALE: f64 = WIN_SCORE / 2.0;

/// The search's settings.
#[derive(Clone, Debug)]
pub struct AlphaBeta {
    /// Moves at the root.
    pub root: PartialPortfolio,
    /// Moves below the root.
    pub inner: PartialPortfolio,
    /// Deepest iteration (C++ `MaxDepth`, default 20).
    pub max_depth: u32,
    /// Children searched per node (C++ `MaxChildren`; 0 = all).
    pub max_children: usize,
    /// Leaf evaluation.
    pub eval: LeafEval,
    /// Leaf evaluations per decision (our stand-in for the C++ `TimeLimit`).
    pub evaluations: u64,
}

/// The search ran out of budget.
struct OutOfBudget;

/// A node's moves as generated so far, kept for the next iteration's visit.
struct Expansion<'a> {
    /// The generator of the moves not yet generated; `None` once they are exhausted.
    rest: Option<Children<'a>>,
    /// The moves generated so far, in order.
    kids: Vec<Kid<'a>>,
    /// Generating drew random numbers: the next visit generates afresh, as it would without
    /// the cache, so that it draws the same numbers.
    drew: bool,
}

/// One move of an [`Expansion`].
struct Kid<'a> {
    /// The move's actions.
    actions: Vec<Action>,
    /// The state after it.
    state: State,
    /// The child node's own moves, once it has been expanded.
    below: Option<Box<Expansion<'a>>>,
}

impl<'a> Expansion<'a> {
    fn new(children: Children<'a>) -> Expansion<'a> {
        Expansion {
            rest: Some(children),
            kids: Vec::new(),
            drew: false,
        }
    }

    /// Makes sure the `i`-th move is generated if there is one; false if there is none.
    fn reach(&mut self, i: usize, rng: &mut Rng) -> bool {
        while self.kids.len() <= i {
            let Some(rest) = self.rest.as_mut() else {
                return false;
            };
            let before = rng.clone();
            let next = rest.next_move(rng);
            self.drew |= *rng != before;
            match next {
                Some(turn) => self.kids.push(Kid {
                    actions: turn.actions,
                    state: turn.state,
                    below: None,
                }),
                None => self.rest = None,
            }
        }
        true
    }
}

/// One decision's search.
struct Search<'a> {
    params: &'a AlphaBeta,
    library: &'a Library,
    max_player: u8,
    evaluations: u64,
    nodes: u64,
    depth_limit: u32,
    /// Best root move and its value in the current iteration.
    best: Option<(Vec<Action>, f64)>,
    /// Keep each node's moves for the next iteration (false only in the test that shows
    /// keeping them changes nothing).
    keep_moves: bool,
}

impl AlphaBeta {
    /// The whole-turn move for the player to act in `state` (which must be at the start of
    /// its turn or later in it, not over).
    pub fn search(&self, library: &Library, state: &State, rng: &mut Rng) -> Vec<Action> {
        self.search_keeping(library, state, rng, true)
    }

    /// [`AlphaBeta::search`], keeping each node's moves between iterations or not.
    fn search_keeping(
        &self,
        library: &Library,
        state: &State,
        rng: &mut Rng,
        keep_moves: bool,
    ) -> Vec<Action> {
        let mut search = Search {
            params: self,
            library,
            max_player: state.active,
            evaluations: 0,
            nodes: 0,
            depth_limit: 0,
            best: None,
            keep_moves,
        };
        let mut completed: Option<Vec<Action>> = None;
        let mut last_nodes = None;
        let mut root = None;
        for depth in 1..=self.max_depth.max(1) {
            search.depth_limit = depth;
            search.best = None;
            let before = search.nodes;
            let result = search.node(state, 0, f64::NEG_INFINITY, f64::INFINITY, rng, &mut root);
            let Ok(_) = result else {
                if completed.is_none() {
                    completed = search.best.take().map(|(m, _)| m);
                }
                break;
            };
            completed = search.best.take().map(|(m, _)| m);
            let expanded = search.nodes - before;
            if last_nodes == Some(expanded) {
                break;
            }
            last_nodes = Some(expanded);
        }
        completed.expect("the root has at least one move")
    }
}

impl<'a> Search<'a> {
    /// The alpha-beta value of `state` at `depth`; `memo` keeps its moves between iterations.
    fn node(
        &mut self,
        state: &State,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        rng: &mut Rng,
        memo: &mut Option<Box<Expansion<'a>>>,
    ) -> Result<f64, OutOfBudget> {
        if self.evaluations >= self.params.evaluations && !(depth == 0 && self.best.is_none()) {
            return Err(OutOfBudget);
        }
        self.nodes += 1;
        if depth >= self.depth_limit || state.over {
            return Ok(self.evaluate(state, rng));
        }
        let portfolio = if depth == 0 {
            &self.params.root
        } else {
            &self.params.inner
        };
        let max_node = state.active == self.max_player;
        if !self.keep_moves || memo.as_ref().is_none_or(|m| m.drew) {
            *memo = Some(Box::new(Expansion::new(
                portfolio.children(self.library, state),
            )));
        }
        let expansion = memo.as_mut().expect("just made");
        let mut count = 0;
        while self.params.max_children == 0 || count < self.params.max_children {
            if !expansion.reach(count, rng) {
                break;
            }
            let kid = &mut expansion.kids[count];
            count += 1;
            if depth == 0 && self.best.is_none() {
                self.best = Some((kid.actions.clone(), f64::NEG_INFINITY));
            }
            let value = self.node(&kid.state, depth + 1, alpha, beta, rng, &mut kid.below)?;
            if max_node && value > alpha {
                alpha = value;
            } else if !max_node && value < beta {
                beta = value;
            }
            if depth == 0 && self.best.as_ref().is_none_or(|(_, v)| value > *v) {
                self.best = Some((kid.actions.clone(), value));
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(if max_node { alpha } else { beta })
    }

    fn evaluate(&mut self, state: &State, rng: &mut Rng) -> f64 {
        self.evaluations += 1;
        let me = usize::from(self.max_player);
        match &self.params.eval {
            LeafEval::Playout(player) => {
                let result: PlayoutResult = playout(self.library, state, player, rng);
                playout_score(result, self.max_player)
            }
            _ if state.over => playout_score(
                PlayoutResult {
                    winner: state.winner,
                    turns: 0,
                },
                self.max_player,
            ),
            LeafEval::WillScore => will_score(self.library, state, me),
            LeafEval::WillScoreInflation => will_score_inflation(self.library, state, me),
            LeafEval::Learned(leaf, player) => {
                match leaf.verdict(self.library, state, self.max_player, player.as_ref(), rng) {
                    LearnedVerdict::Ended(result) => playout_score(result, self.max_player),
                    LearnedVerdict::Model(p) => (2.0 * p - 1.0) * LEARNED_SCALE,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::sequence::tests::{first_or_wander, firsts};
    use crate::games::prismata::{Level, rules};
    use crate::rng::rng_from_seed;

    fn portfolio() -> PartialPortfolio {
        first_or_wander()
    }

    fn ab(max_depth: u32, evaluations: u64) -> AlphaBeta {
        AlphaBeta {
            root: portfolio(),
            inner: portfolio(),
            max_depth,
            max_children: 0,
            eval: LeafEval::Playout(Sequence { players: firsts() }),
            evaluations,
        }
    }

    #[test]
    fn depth_one_picks_the_root_move_with_the_best_playout() {
        let lib = Library::builtin();
        let s = State::new(lib, &Level::random(lib, 8, 2).unwrap());
        let search = ab(1, 1000);
        let chosen = search.search(lib, &s, &mut rng_from_seed(4));
        // Score every root move the same way, with the same random stream.
        let mut rng = rng_from_seed(4);
        let mut children = search.root.children(lib, &s);
        let playout_player = Sequence { players: firsts() };
        let mut best: Option<(Vec<Action>, f64)> = None;
        while let Some(child) = children.next_move(&mut rng) {
            let v = playout_score(playout(lib, &child.state, &playout_player, &mut rng), 0);
            if best.as_ref().is_none_or(|(_, b)| v > *b) {
                best = Some((child.actions, v));
            }
        }
        assert_eq!(chosen, best.unwrap().0);
    }

    #[test]
    fn a_search_returns_a_legal_whole_turn_whatever_its_budget() {
        let lib = Library::builtin();
        let s = State::new(lib, &Level::random(lib, 8, 7).unwrap());
        for evaluations in [0, 1, 3, 40] {
            let actions = ab(20, evaluations).search(lib, &s, &mut rng_from_seed(1));
            let mut replay = s.clone();
            for a in actions {
                assert!(rules::is_legal(lib, &replay, a));
                rules::apply(lib, &mut replay, a);
            }
            assert_eq!(replay.active, 1, "the move is player 0's whole turn");
        }
    }

    #[test]
    fn keeping_the_moves_between_iterations_changes_no_decision() {
        use crate::games::prismata::ai::config::BotConfig;
        let lib = Library::builtin();
        let hard = BotConfig::builtin()
            .portfolio("HardIterator")
            .unwrap()
            .clone();
        let searches = [
            // Random players: the nodes that drew are generated afresh.
            ab(20, 60),
            AlphaBeta {
                root: hard.clone(),
                inner: hard,
                max_depth: 20,
                max_children: 3,
                eval: LeafEval::WillScore,
                evaluations: 150,
            },
        ];
        for (i, search) in searches.iter().enumerate() {
            for seed in 0..6u64 {
                let mut s = State::new(lib, &Level::random(lib, 8, seed).unwrap());
                let mut play = rng_from_seed(seed);
                // Mid-game states, with something to attack and defend.
                while s.ply < 8 + 2 * seed as u32 && !s.over {
                    let actions = Sequence { players: firsts() }.actions(lib, &s, &mut play);
                    actions
                        .into_iter()
                        .for_each(|a| rules::apply(lib, &mut s, a));
                }
                let mut kept_rng = rng_from_seed(seed);
                let mut fresh_rng = rng_from_seed(seed);
                let kept = search.search_keeping(lib, &s, &mut kept_rng, true);
                let fresh = search.search_keeping(lib, &s, &mut fresh_rng, false);
                assert_eq!(kept, fresh, "search {i}, seed {seed}");
                assert!(
                    kept_rng == fresh_rng,
                    "search {i}, seed {seed}: the same draws"
                );
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_decision() {
        let lib = Library::builtin();
        let s = State::new(lib, &Level::random(lib, 8, 3).unwrap());
        let a = ab(20, 30).search(lib, &s, &mut rng_from_seed(8));
        let b = ab(20, 30).search(lib, &s, &mut rng_from_seed(8));
        assert_eq!(a, b);
    }
}
