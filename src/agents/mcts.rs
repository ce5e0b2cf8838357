//! Monte Carlo Tree Search as configured in the Tribes experiments (spec §15.3): UCB1 with
//! `K = √2`, tree depth 20, leaves evaluated by the game's heuristic (rollouts off), root
//! action-group prioritisation, most-visited recommendation. Budgeted in FM calls.
//!
//! With two players the opponent chooses against the searching player (`1 − Q`, or the Java
//! rule under `compat = "java"`); with more, every player maximises its own value (max^n,
//! see [`super::tree`]).

use std::sync::Arc;

use rand::RngExt;

use super::arg_max::arg_max;
use super::compat::SearchCompat;
use super::from_spec::{FromSpec, take_knowledge};
use super::search_loop::{DEFAULT_BUDGET, LeafValues, Limits, TreeSearch, run_search, take_budget};
use super::tree::{Bounds, NodeHead, NodeView, OpponentModel, Tree};
use crate::agent::{Agent, AgentSpec, Knowledge, SearchSupport};
use crate::error::Result;
use crate::game::{Game, Listing, Player, Span, Turn};
use crate::rng::Rng;

/// MCTS settings.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsParams {
    /// FM calls per decision.
    pub budget: u64,
    /// Exploration constant.
    pub k: f64,
    /// Maximum tree depth (and rollout horizon).
    pub depth: u32,
    /// Random rollouts from new leaves up to `depth` (off in the experiments).
    pub rollouts: bool,
    /// Search one uniformly drawn group of root actions (city, unit or tribe actions).
    pub prioritize_root: bool,
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams {
            budget: DEFAULT_BUDGET,
            k: std::f64::consts::SQRT_2,
            depth: 20,
            rollouts: false,
            prioritize_root: true,
        }
    }
}

impl MctsParams {
    /// The settings given by `spec`'s fields `budget`, `k`, `depth`, `rollouts` and
    /// `prioritize_root`, the defaults for the others.
    ///
    /// # Errors
    ///
    /// [`Error::Config`](crate::Error::Config) naming the field for a bad value.
    pub fn from_spec(spec: &mut AgentSpec) -> Result<Self> {
        let d = MctsParams::default();
        Ok(MctsParams {
            budget: take_budget(spec)?,
            k: spec.take_positive("k", d.k)?,
            depth: spec.take_u32("depth", d.depth)?,
            rollouts: spec.take_bool("rollouts", d.rollouts)?,
            prioritize_root: spec.take_bool("prioritize_root", d.prioritize_root)?,
        })
    }
}

const NONE: u32 = u32::MAX;

/// The MCTS agent.
pub struct Mcts<G: Game> {
    params: MctsParams,
    knowledge: Arc<dyn Knowledge<G>>,
    compat: SearchCompat,
    /// The nodes (bare [`NodeHead`]s), their states and child slots.
    tree: Tree<G, NodeHead>,
    /// The legal actions of each opened node's state, kept so that a child's are made from
    /// its parent's ([`Game::relist`]).
    listings: ListingArena<G::Action>,
    /// The listing being made.
    listing: Listing<G::Action>,
    /// The action that led to each node (`None` at the root).
    arrived: Vec<Option<G::Action>>,
    /// Per child slot: its action.
    actions: Vec<G::Action>,
    /// Per child slot: the mean and `1/√visits` of each slot's child, copied at every backup
    /// so that selection reads its children's statistics from one contiguous run.
    slot_stats: Vec<[f64; 2]>,
    /// The slot of each node in its parent's range (`NONE` at the root).
    node_slot: Vec<u32>,
    buf: Vec<G::Action>,
    /// FM calls of the last decision.
    pub last_fm_calls: u64,
}

impl<G: Game> Mcts<G> {
    /// An MCTS agent with the given settings, game knowledge and compatibility.
    pub fn new(params: MctsParams, knowledge: Arc<dyn Knowledge<G>>, compat: SearchCompat) -> Self {
        Mcts {
            params,
            knowledge,
            compat,
            tree: Tree::default(),
            listings: ListingArena::default(),
            listing: Listing::default(),
            arrived: Vec::new(),
            actions: Vec::new(),
            slot_stats: Vec::new(),
            node_slot: Vec::new(),
            buf: Vec::new(),
            last_fm_calls: 0,
        }
    }

    /// Gives node `n` the actions in `self.buf` (in `self.listing` with `listed`), shuffled.
    fn open_with(&mut self, n: u32, listed: bool, rng: &mut Rng) {
        let acts = if listed {
            &self.listing.actions
        } else {
            &self.buf
        };
        let first = self.actions.len();
        self.actions.extend_from_slice(acts);
        let len = acts.len();
        shuffle(&mut self.actions[first..], rng);
        self.tree.open(n, len);
        self.slot_stats.extend(std::iter::repeat_n([0.0; 2], len));
    }

    /// The child of `n` with the best UCB1 score, its value `mean(slot, slot mean)`
    /// normalised by `bounds`; `my_move` says whether the chooser maximises that value. One
    /// loop for both searches, monomorphised per `mean` and per the chooser's rule, so the
    /// loop reads the slots' means with no per-child test.
    #[inline(always)]
    fn ucb1(
        &self,
        n: u32,
        bounds: Bounds,
        my_move: bool,
        mean: impl Fn(u32, f64) -> f64,
        rng: &mut Rng,
    ) -> u32 {
        let node = self.tree.head(n);
        let k_sqrt_ln = self.params.k * sqrt_ln(node.visits + 1);
        let (lo, hi) = (bounds.lo, bounds.hi);
        let (offset, scale) = if lo < hi {
            (lo, 1.0 / (hi - lo))
        } else {
            (0.0, 1.0)
        };
        let (first, len) = (node.first as usize, node.len as usize);
        let stats = &self.slot_stats[first..first + len];
        // `selection_score` with no bias, one loop per rule.
        let scores = ScoreRun {
            first: node.first,
            stats,
            offset,
            scale,
            k_sqrt_ln,
        };
        let best = match (my_move, self.compat.opponent_model()) {
            (true, _) => scores.best(&mean, |q, e| q + e, rng),
            (false, OpponentModel::Adversarial) => scores.best(&mean, |q, e| (1.0 - q) + e, rng),
            (false, OpponentModel::JavaMin) => scores.best(&mean, |q, e| -(q + e), rng),
        };
        self.tree.slots[best as usize]
    }

    /// The root slot to play: the most visited child (random tie-break); the best mean if all
    /// were visited equally.
    fn recommend(&self, rng: &mut Rng) -> u32 {
        let mut visits = self.tree.root_children().map(|(_, c)| c.visits);
        let first = visits.next();
        let all_equal = visits.all(|v| Some(v) == first);
        self.tree
            .best_root_slot(|c| if all_equal { c.mean } else { c.visits as f64 }, rng)
    }
}

/// The children's statistics of one node, as UCB1 reads them.
struct ScoreRun<'a> {
    first: u32,
    stats: &'a [[f64; 2]],
    offset: f64,
    scale: f64,
    k_sqrt_ln: f64,
}

impl ScoreRun<'_> {
    /// The slot of the best `score(q, exploration)`, `q` the normalised `mean`.
    #[inline(always)]
    fn best(
        &self,
        mean: &impl Fn(u32, f64) -> f64,
        score: impl Fn(f64, f64) -> f64,
        rng: &mut Rng,
    ) -> u32 {
        let scored = (self.first..)
            .zip(self.stats)
            .map(|(slot, &[m, inv_sqrt])| {
                let q = (mean(slot, m) - self.offset) * self.scale;
                (score(q, self.k_sqrt_ln * inv_sqrt), slot)
            });
        arg_max(scored, rng)
    }
}

/// The listings of a tree's opened nodes, in flat buffers that grow once and are reused.
struct ListingArena<A> {
    actions: Vec<A>,
    spans: Vec<Span>,
    words: Vec<u64>,
    /// Per node: where its listing starts in each buffer and how long it is (`NONE` for a
    /// node not listed).
    index: Vec<[u32; 6]>,
}

impl<A> Default for ListingArena<A> {
    fn default() -> Self {
        ListingArena {
            actions: Vec::new(),
            spans: Vec::new(),
            words: Vec::new(),
            index: Vec::new(),
        }
    }
}

impl<A: Copy> ListingArena<A> {
    fn clear(&mut self) {
        self.actions.clear();
        self.spans.clear();
        self.words.clear();
        self.index.clear();
    }

    /// Keeps `l` as node `n`'s listing.
    fn store(&mut self, n: u32, l: &Listing<A>) {
        let n = n as usize;
        if self.index.len() <= n {
            self.index.resize(n + 1, [NONE; 6]);
        }
        self.index[n] = [
            self.actions.len() as u32,
            l.actions.len() as u32,
            self.spans.len() as u32,
            l.spans.len() as u32,
            self.words.len() as u32,
            l.words.len() as u32,
        ];
        self.actions.extend_from_slice(&l.actions);
        self.spans.extend_from_slice(&l.spans);
        self.words.extend_from_slice(&l.words);
    }

    /// Copies node `n`'s listing into `l`.
    fn load(&self, n: u32, l: &mut Listing<A>) {
        let [a, na, s, ns, w, nw] = self.index[n as usize].map(|x| x as usize);
        l.actions.clear();
        l.actions.extend_from_slice(&self.actions[a..a + na]);
        l.spans.clear();
        l.spans.extend_from_slice(&self.spans[s..s + ns]);
        l.words.clear();
        l.words.extend_from_slice(&self.words[w..w + nw]);
    }
}

/// Fields: those of [`MctsParams::from_spec`].
impl<G: SearchSupport> FromSpec<G> for Mcts<G> {
    fn from_spec(game: &G, spec: &mut AgentSpec, compat: SearchCompat) -> Result<Self> {
        Ok(Mcts::new(
            MctsParams::from_spec(spec)?,
            take_knowledge(game, spec)?,
            compat,
        ))
    }
}

impl<G: Game> TreeSearch<G> for Mcts<G> {
    fn view(&self, n: u32) -> NodeView {
        self.tree.view(n)
    }

    /// Lists the actions of node `n` (once), in a random order: children are expanded in
    /// that order, i.e. each expansion picks a uniformly random unexpanded child.
    /// The actions are the parent's updated for the action that led here ([`Game::relist`]).
    fn open(&mut self, game: &G, n: u32, rng: &mut Rng) {
        let i = n as usize;
        let parent = self.tree.nodes[i].parent;
        let action = self.arrived[i].expect("only the root has no parent, and it is open");
        self.listings.load(parent, &mut self.listing);
        game.relist(&mut self.listing, action, &self.tree.states[i]);
        self.listings.store(n, &self.listing);
        self.open_with(n, true, rng);
    }

    /// Expands the next (randomly ordered) unexpanded child of `n`.
    fn expand(&mut self, game: &G, n: u32, _rng: &mut Rng) -> u32 {
        let node = self.tree.head(n);
        let slot = node.first + node.expanded;
        let action = self.actions[slot as usize];
        let child = self.tree.expand(game, n, slot, action, |head| head);
        self.arrived.push(Some(action));
        self.node_slot.push(slot);
        child
    }

    /// UCB1 selection among the (fully expanded) children of `n`: by `me`'s values (the
    /// opponent by [`SearchCompat::opponent_model`]), or under max^n by the mover's own.
    fn select(&mut self, n: u32, me: Player, rng: &mut Rng) -> u32 {
        let node = self.tree.head(n);
        match self.tree.maxn.selector(node.to_move, me) {
            None => self.ucb1(n, node.bounds, node.to_move == Some(me), |_, m| m, rng),
            Some(p) => {
                let Tree {
                    maxn, nodes, slots, ..
                } = &self.tree;
                let mean = |slot: u32, _| {
                    let child = slots[slot as usize];
                    maxn.mean(child, nodes[child as usize].visits, p)
                };
                self.ucb1(n, maxn.bounds(n, p), true, mean, rng)
            }
        }
    }

    /// Evaluates a leaf (random rollout first if enabled).
    fn evaluate(
        &mut self,
        game: &G,
        values: &LeafValues<'_, G>,
        leaf: u32,
        fm: &mut u64,
        rng: &mut Rng,
    ) -> f64 {
        let mut rolled;
        let mut state = &self.tree.states[leaf as usize];
        if self.params.rollouts {
            rolled = state.clone();
            let mut depth = self.tree.nodes[leaf as usize].depth;
            while depth < self.params.depth && !game.is_terminal(&rolled) {
                game.legal_actions(&rolled, &mut self.buf);
                let a = self.buf[rng.random_range(0..self.buf.len())];
                game.apply(&mut rolled, a);
                *fm += 1;
                depth += 1;
            }
            state = &rolled;
        }
        values.value(game, state, &mut self.tree.maxn.leaf)
    }

    fn backup(&mut self, n: u32, v: f64) {
        self.tree.backup(n, v);
        let mut n = n;
        while n != 0 {
            let node = &self.tree.nodes[n as usize];
            self.slot_stats[self.node_slot[n as usize] as usize] = [node.mean, node.inv_sqrt];
            n = node.parent;
        }
    }
}

/// `(n as f64).ln().sqrt()`, from a table made once per process for the counts a search
/// usually sees.
#[inline]
pub fn sqrt_ln(n: u32) -> f64 {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    const LEN: u32 = 1 << 16;
    if n >= LEN {
        return (n as f64).ln().sqrt();
    }
    TABLE.get_or_init(|| (0..LEN).map(|i| (i as f64).ln().sqrt()).collect())[n as usize]
}

/// Fisher–Yates shuffle.
pub fn shuffle<T>(xs: &mut [T], rng: &mut Rng) {
    for i in (1..xs.len()).rev() {
        xs.swap(i, rng.random_range(0..=i));
    }
}

/// The root actions to search: all legal actions, or (with prioritisation) one uniformly drawn
/// group among those that hold more than turn-ending actions.
pub fn root_actions<G: Game>(
    game: &G,
    knowledge: &dyn Knowledge<G>,
    state: &G::State,
    legal: &[G::Action],
    rng: &mut Rng,
    out: &mut Vec<G::Action>,
) {
    out.clear();
    let mut eligible: Vec<u8> = Vec::new();
    for &a in legal {
        if let Some(g) = knowledge.root_group(game, state, a)
            && !game.ends_turn(a)
            && !eligible.contains(&g)
        {
            eligible.push(g);
        }
    }
    if eligible.is_empty() {
        out.extend_from_slice(legal);
        return;
    }
    eligible.sort_unstable();
    let g = eligible[rng.random_range(0..eligible.len())];
    out.extend(
        legal
            .iter()
            .copied()
            .filter(|&a| knowledge.root_group(game, state, a) == Some(g)),
    );
}

impl<G: Game> Agent<G> for Mcts<G> {
    fn name(&self) -> String {
        format!("mcts(budget={})", self.params.budget)
    }

    fn act(&mut self, game: &G, state: &G::State, rng: &mut Rng) -> Result<G::Action> {
        let Turn::Player(me) = game.turn(state) else {
            panic!("MCTS asked to act in a terminal state");
        };
        game.list(state, &mut self.listing);
        let legal = &self.listing.actions;
        if legal.len() == 1 {
            self.last_fm_calls = 0;
            return Ok(legal[0]);
        }
        let legal = legal.clone();
        self.node_slot.clear();
        self.slot_stats.clear();
        self.listings.clear();
        self.arrived.clear();
        self.actions.clear();
        // The root: its actions are the legal ones, or one prioritised group of them.
        let mut root_acts = Vec::new();
        if self.params.prioritize_root {
            root_actions(game, &*self.knowledge, state, &legal, rng, &mut root_acts);
        } else {
            root_acts = legal;
        }
        self.tree.start(NodeHead::root(me), game.num_players(state));
        self.node_slot.push(NONE);
        self.arrived.push(None);
        std::mem::swap(&mut self.buf, &mut root_acts);
        self.open_with(0, false, rng);
        std::mem::swap(&mut self.buf, &mut root_acts);
        self.tree.set_root_state(game, state, me, rng);
        if self.tree.states[0] != *state {
            // The children's listings are made from the searched (determinised) root's.
            game.list(&self.tree.states[0], &mut self.listing);
        }
        self.listings.store(0, &self.listing);

        let knowledge = self.knowledge.clone();
        let limits = Limits {
            budget: self.params.budget,
            depth: self.params.depth,
            compat: self.compat,
        };
        self.last_fm_calls = run_search(self, game, &*knowledge, state, me, limits, rng);
        let slot = self.recommend(rng);
        Ok(self.actions[slot as usize])
    }
}
