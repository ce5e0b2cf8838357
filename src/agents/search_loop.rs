//! The iteration MCTS and Portfolio MCTS share (spec §15.3, §15.5): from the root, descend by
//! selection through fully expanded nodes, expand one child, evaluate the leaf, back the value
//! up; until the FM-call budget is spent ([`run_search`]). A leaf is valued by
//! [`LeafValues`]: for the searching player alone with two players, for every player (max^n,
//! see [`super::tree`]) with more. Also the `budget` field every search agent reads
//! ([`take_budget`]).
//!
//! # What the two searches share, and what they keep apart
//!
//! Written once: this loop, and the tree each keeps of a decision ([`Tree`]: its nodes,
//! states and child slots, their expansion and backup, and the root's final choice by a key).
//! Each search supplies through [`TreeSearch`] what differs by design, and keeps it in its own
//! file:
//! - what a node's children are and in which order they are expanded: MCTS shuffles the legal
//!   actions once when it opens a node, Portfolio MCTS draws a random unexpanded proposal at
//!   each expansion (each search's random draws, in its order, are what makes its results
//!   reproducible);
//! - selection: MCTS's UCB1 reads its children's statistics from one contiguous run (its hot
//!   loop); Portfolio MCTS's adds progressive bias, skips pruned children and has the Java
//!   quirks of its own ([`SearchCompat::child_zero_before_pruning`]);
//! - rollouts: uniform over legal actions in MCTS, over script proposals in Portfolio MCTS;
//! - the final choice's key: the most visited child (MCTS), the best mean (Portfolio MCTS);
//! - their settings: the same fields (`budget`, `depth`, `rollouts` and an exploration
//!   constant) are public fields of each search's own settings type, named after each paper
//!   (`k`, `c`) and with each search's defaults; only the budget's rule is shared.

use super::compat::SearchCompat;
#[cfg(doc)]
use super::tree::Tree;
use super::tree::{NodeView, UNOPENED};
use crate::agent::{AgentSpec, Evaluator, Knowledge};
use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::limits;
use crate::rng::Rng;

/// FM calls per decision of a search agent whose spec gives no `budget`.
pub const DEFAULT_BUDGET: u64 = 2000;

/// Takes a search agent's `budget` field (FM calls per decision, [`DEFAULT_BUDGET`] if absent).
///
/// # Errors
///
/// [`Error::Config`] naming `budget` if it is not an integer from 1 to
/// [`limits::MAX_BUDGET`].
pub fn take_budget(spec: &mut AgentSpec) -> Result<u64> {
    let b = spec.take_at_most("budget", DEFAULT_BUDGET, limits::MAX_BUDGET)?;
    if b == 0 {
        return Err(Error::config("budget", "must be at least 1 FM call"));
    }
    Ok(b)
}

/// A search tree the loop can run: node 0 is the root, already opened.
pub trait TreeSearch<G: Game> {
    /// The loop's view of node `n`.
    fn view(&self, n: u32) -> NodeView;
    /// Lists the children of node `n` (called once, when the loop first needs them).
    fn open(&mut self, game: &G, n: u32, rng: &mut Rng);
    /// Adds one not yet expanded child of `n` to the tree (one FM call) and returns it.
    fn expand(&mut self, game: &G, n: u32, rng: &mut Rng) -> u32;
    /// Chooses a child of the fully expanded node `n` for `me`'s search.
    fn select(&mut self, n: u32, me: Player, rng: &mut Rng) -> u32;
    /// The value of `leaf` for the searching player ([`LeafValues::value`], which also gives
    /// every player's value in a max^n search), adding any FM calls it makes (rollouts) to
    /// `fm`.
    fn evaluate(
        &mut self,
        game: &G,
        values: &LeafValues<'_, G>,
        leaf: u32,
        fm: &mut u64,
        rng: &mut Rng,
    ) -> f64;
    /// Adds `v` (and in a max^n search every player's value of the last leaf) to `leaf` and
    /// every node above it.
    fn backup(&mut self, leaf: u32, v: f64);
}

/// How one decision's search values its leaves: the game's knowledge evaluated for the
/// searching player `me` plus its terminal bonus ([`SearchCompat::leaf_value`]); in a game of
/// more than two players, the same for every player (max^n).
pub struct LeafValues<'a, G: Game> {
    compat: SearchCompat,
    me: Player,
    /// `me`'s evaluator with two players; one per player (indexed by player) with more.
    evals: Vec<Evaluator<'a, G::State>>,
}

impl<'a, G: Game> LeafValues<'a, G> {
    /// The leaf values of a search from `root` for `me` in a game of `players` players, with
    /// the knowledge's evaluators built once ([`Knowledge::root_evaluator`]).
    fn new(
        game: &'a G,
        knowledge: &'a dyn Knowledge<G>,
        root: &'a G::State,
        me: Player,
        players: usize,
        compat: SearchCompat,
    ) -> Self {
        let evals = if players > 2 {
            (0..players)
                .map(|p| knowledge.root_evaluator(game, root, p))
                .collect()
        } else {
            vec![knowledge.root_evaluator(game, root, me)]
        };
        LeafValues { compat, me, evals }
    }

    /// The value of `state` for `me`. If `all` is not empty (a max^n search: one slot per
    /// player), writes every player's value into it too.
    pub fn value(&self, game: &G, state: &G::State, all: &mut [f64]) -> f64 {
        if all.is_empty() {
            return self
                .compat
                .leaf_value(game, &*self.evals[0], state, self.me);
        }
        for (p, v) in all.iter_mut().enumerate() {
            *v = self.compat.leaf_value(game, &*self.evals[p], state, p);
        }
        all[self.me]
    }
}

/// How long a search runs and how deep it goes.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// FM calls to spend.
    pub budget: u64,
    /// Maximum tree depth.
    pub depth: u32,
    /// Whether descent steps through the tree cost FM calls
    /// ([`SearchCompat::charges_descent_steps`]).
    pub compat: SearchCompat,
}

/// Runs `me`'s search of one decision from the observed state `observed` (the tree's root is
/// `observed` determinised): iterations until `limits.budget` FM calls are spent (or, in a
/// tree where nothing costs an FM call any more, 4 × budget iterations ran), leaves valued
/// by `knowledge` relative to `observed` ([`LeafValues`]); returns the FM calls spent.
pub fn run_search<G: Game, T: TreeSearch<G>>(
    tree: &mut T,
    game: &G,
    knowledge: &dyn Knowledge<G>,
    observed: &G::State,
    me: Player,
    limits: Limits,
    rng: &mut Rng,
) -> u64 {
    let players = game.num_players(observed);
    let values = LeafValues::new(game, knowledge, observed, me, players, limits.compat);
    let mut fm = 0u64;
    let mut iterations = 0u64;
    while fm < limits.budget && iterations < 4 * limits.budget {
        iterations += 1;
        let mut cur = 0u32;
        let leaf = loop {
            let mut node = tree.view(cur);
            if node.terminal || node.depth >= limits.depth {
                break cur;
            }
            if node.len == UNOPENED {
                tree.open(game, cur, rng);
                node = tree.view(cur);
            }
            if node.len == 0 {
                break cur;
            }
            if node.expanded < node.len {
                fm += 1;
                break tree.expand(game, cur, rng);
            }
            cur = tree.select(cur, me, rng);
            if limits.compat.charges_descent_steps() {
                fm += 1;
            }
        };
        let v = tree.evaluate(game, &values, leaf, &mut fm, rng);
        tree.backup(leaf, v);
    }
    fm
}
