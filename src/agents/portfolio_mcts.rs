//! Portfolio MCTS (spec §15.5; Perez-Liebana et al., CoG 2021): MCTS whose children are the
//! actions the portfolio's scripts propose, with progressive bias
//! (`Q + C·sqrt(ln N / n) + w·v / (1 + n)`) and progressive unpruning (keep the best
//! `⌊n·0.5⌋` children after `⌊n·2⌋` visits, then un-prune one each time the visits pass
//! `⌊A·1.3^k⌋`, `A = ⌊T·1.5⌋`). Random rollouts over script proposals to depth 20; the root
//! child with the best mean is played. Budgeted in FM calls.
//!
//! Opt-in steering by the script weights (issue 29; every default is the search above):
//! weighted rollouts (`rollout=weighted`, [`Portfolio::sample_weighted`]), expansion in order
//! of `w·v` (`expand=weighted`), a final move that prefers the highest `w·v` among root
//! children tied with the best (`final=weighted`, `tie`), a persona term in the values
//! (`persona=λ`: the mean weight of the searching player's scripted actions on the path from
//! the root to the end of the rollout, centred) and a style strength `style` in [0, 1] that
//! scales them all. A strength dial `epsilon` plays, with that probability, the
//! personality's instinct (a root proposal drawn ∝ `w·v`) instead of searching; `blunder`
//! swaps, with that probability, the searched move for another legal action of the same
//! [`Game::style_key`].
//!
//! A decision first checks its root's proposals against the legal actions: an illegal one
//! fails it with [`Error::IllegalChoice`] naming the script. Proposals inside the tree and
//! the rollouts are trusted (the [`Portfolio`] contract).
//!
//! With two players the opponent chooses against the searching player (`1 − Q`, or the Java
//! rule under `compat = "java"`); with more, every player maximises its own value plus
//! exploration and progressive bias (max^n, see [`super::tree`]). The Java quirk that lets
//! pruned children win opponent nodes (5b) has no minimising node to apply to under max^n.

use std::sync::Arc;

use rand::RngExt;

use super::arg_max::ArgMax;
use super::compat::SearchCompat;
use super::from_spec::{FromSpec, take_knowledge};
use super::search_loop::{DEFAULT_BUDGET, LeafValues, Limits, TreeSearch, run_search, take_budget};
use super::tree::{
    EPSILON, Headed, NO_PARENT, NodeHead, NodeView, Tree, UNEXPANDED, normalise, selection_score,
};
use crate::agent::{Agent, AgentSpec, Assignment, Knowledge, Portfolio, SearchSupport, StyleField};
use crate::error::{Error, Result};
use crate::game::{Game, Player, Turn};
use crate::rng::{Rng, weighted_index};

/// Portfolio MCTS settings.
#[derive(Clone, Debug, PartialEq)]
pub struct PmctsParams {
    /// FM calls per decision.
    pub budget: u64,
    /// Exploration constant.
    pub c: f64,
    /// Maximum tree depth and rollout horizon.
    pub depth: u32,
    /// Random rollouts over script proposals (on in the experiments).
    pub rollouts: bool,
    /// How a rollout step draws its random proposal.
    pub rollout: RolloutPolicy,
    /// Progressive bias.
    pub bias: bool,
    /// Progressive unpruning.
    pub pruning: bool,
    /// Children kept at the first pruning, per child: `k_init = max(1, ⌊n·k_init_mult⌋)`.
    pub k_init_mult: f64,
    /// Visits before the first pruning, per child: `T = ⌊n·t_mult⌋`.
    pub t_mult: f64,
    /// `A = ⌊T·a_mult⌋`.
    pub a_mult: f64,
    /// Growth of the un-pruning thresholds `⌊A·b^k⌋`.
    pub b: f64,
    /// The order in which a node's children are expanded.
    pub expand: ExpandOrder,
    /// Which root child is played.
    pub final_move: FinalMove,
    /// [`FinalMove::Weighted`]'s tolerance: root children whose value is within `tie` of the
    /// best (values normalised to [0, 1] by the root's bounds) count as tied.
    pub tie: f64,
    /// λ of the persona term (0: none): the mean script weight of the searching player's
    /// actions from the root to the end of the rollout, centred on the mean script weight,
    /// times λ, is added to a child's normalised value where the searching player chooses and
    /// to the final choice's key.
    pub persona: f64,
    /// Style strength `s` in [0, 1]: a weighted rollout step or expansion is weighted with
    /// probability `s` (else uniform), and `persona` and `tie` are scaled by `s`.
    pub style: f64,
    /// A strength dial in [0, 1]: with this probability a decision plays, without searching,
    /// a root proposal drawn ∝ its `w·v` (the personality's instinct; uniformly when every
    /// `w·v` is 0). 0 (the default) never draws.
    pub epsilon: f64,
    /// A strength dial in [0, 1] that keeps the style: with this probability the searched
    /// move is swapped for a uniformly drawn other legal action of the same
    /// [`Game::style_key`] (the game says which actions are alike in style), so the
    /// personality still chooses what to do and loses how well it does it. 0 (the default)
    /// never draws.
    pub blunder: f64,
}

impl Default for PmctsParams {
    /// The intended defaults: the reference's settings (spec §15.5) except `t_mult = 4`, the
    /// unpruning schedule re-tuned for the intended search (`results/unpruning-sweep/`: the
    /// reference's `t_mult = 2` made progressive unpruning cost strength).
    fn default() -> Self {
        PmctsParams {
            t_mult: 4.0,
            ..PmctsParams::reference()
        }
    }
}

impl PmctsParams {
    /// The reference's settings (spec §15.5): `k_init_mult` 0.5, `t_mult` 2, `a_mult` 1.5,
    /// `b` 1.3; the defaults under `compat = "java"`.
    pub fn reference() -> Self {
        PmctsParams {
            budget: DEFAULT_BUDGET,
            c: std::f64::consts::SQRT_2,
            depth: 20,
            rollouts: true,
            rollout: RolloutPolicy::Sampled,
            bias: true,
            pruning: true,
            k_init_mult: 0.5,
            t_mult: 2.0,
            a_mult: 1.5,
            b: 1.3,
            expand: ExpandOrder::Random,
            final_move: FinalMove::Best,
            tie: 0.05,
            persona: 0.0,
            style: 1.0,
            epsilon: 0.0,
            blunder: 0.0,
        }
    }

    /// The settings given by `spec`'s fields `budget`, `c`, `depth`, `rollouts`, `rollout`
    /// (`exact` or `sampled`; no such field when `compat` forces
    /// [exact rollouts](SearchCompat::exact_rollouts)), `bias`, `pruning`, `k_init_mult`,
    /// `t_mult`, `a_mult`, `b`, and the opt-in steering fields `expand` (`random` or
    /// `weighted`), `final` (`best` or `weighted`), `tie` (≥ 0), `persona` (≥ 0) and `style`
    /// (0 to 1), and the strength dials `epsilon` and `blunder` (0 to 1); the defaults for
    /// the others ([`PmctsParams::reference`]'s under `compat = "java"`).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field for a bad value.
    pub fn from_spec(spec: &mut AgentSpec, compat: SearchCompat) -> Result<Self> {
        let d = if compat.reference_unpruning() {
            PmctsParams::reference()
        } else {
            PmctsParams::default()
        };
        Ok(PmctsParams {
            budget: take_budget(spec)?,
            c: spec.take_positive("c", d.c)?,
            depth: spec.take_u32("depth", d.depth)?,
            rollouts: spec.take_bool("rollouts", d.rollouts)?,
            rollout: if compat.exact_rollouts() {
                RolloutPolicy::Exact
            } else {
                spec.take_choice(
                    "rollout",
                    d.rollout,
                    &[
                        ("exact", RolloutPolicy::Exact),
                        ("sampled", RolloutPolicy::Sampled),
                        ("weighted", RolloutPolicy::Weighted),
                    ],
                )?
            },
            bias: spec.take_bool("bias", d.bias)?,
            pruning: spec.take_bool("pruning", d.pruning)?,
            k_init_mult: spec.take_positive("k_init_mult", d.k_init_mult)?,
            t_mult: spec.take_positive("t_mult", d.t_mult)?,
            a_mult: spec.take_positive("a_mult", d.a_mult)?,
            b: spec.take_positive("b", d.b)?,
            expand: spec.take_choice(
                "expand",
                d.expand,
                &[
                    ("random", ExpandOrder::Random),
                    ("weighted", ExpandOrder::Weighted),
                ],
            )?,
            final_move: spec.take_choice(
                "final",
                d.final_move,
                &[("best", FinalMove::Best), ("weighted", FinalMove::Weighted)],
            )?,
            tie: spec.take_in("tie", d.tie, f64::INFINITY)?,
            persona: spec.take_in("persona", d.persona, f64::INFINITY)?,
            style: spec.take_in("style", d.style, 1.0)?,
            epsilon: spec.take_in("epsilon", d.epsilon, 1.0)?,
            blunder: spec.take_in("blunder", d.blunder, 1.0)?,
        })
    }

    /// The persona term's λ scaled by the style strength.
    fn persona_lambda(&self) -> f64 {
        self.persona * self.style
    }

    /// True when the persona term is on (λ > 0): the search then keeps a [`PersonaNode`] per
    /// node.
    fn persona_on(&self) -> bool {
        self.persona_lambda() > 0.0
    }
}

/// The order in which Portfolio MCTS expands a node's children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpandOrder {
    /// A uniformly random unexpanded child each time.
    Random,
    /// The unexpanded child of the highest `w·v` (ties at random); with style strength
    /// `s < 1`, a random one with probability `1 − s`.
    Weighted,
}

/// Which root child Portfolio MCTS plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalMove {
    /// The best mean value.
    Best,
    /// Among the children within `tie·s` of the best value (normalised by the root's bounds),
    /// the one of the highest `w·v` (ties: the better value, then at random).
    Weighted,
}

/// Takes the `weights=[script=w,...]` field: one weight per name of `scripts`, 0.5 unless set.
///
/// # Errors
///
/// [`Error::Config`] naming `weights` for an unknown script or a weight that is not a finite
/// number ≥ 0.
pub fn take_script_weights(spec: &mut AgentSpec, scripts: &[&str]) -> Result<Vec<f64>> {
    let mut weights = vec![0.5; scripts.len()];
    for (name, w) in spec.take_weights("weights")? {
        let i = scripts.iter().position(|n| *n == name).ok_or_else(|| {
            Error::config(
                "weights",
                format!("unknown script `{name}` (known: {})", scripts.join(", ")),
            )
        })?;
        if !w.is_finite() || w < 0.0 {
            return Err(Error::config(
                "weights",
                format!("weight of `{name}` must be a finite number ≥ 0, got {w}"),
            ));
        }
        weights[i] = w;
    }
    Ok(weights)
}

/// How a rollout step picks its random script proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RolloutPolicy {
    /// Every proposal of the state is computed and one is drawn uniformly (the reference's
    /// rule; forced by [`SearchCompat::exact_rollouts`]).
    Exact,
    /// [`Portfolio::sample`]: an (actor, script) pair is drawn uniformly and only its script
    /// runs. Many times cheaper; an action proposed by several scripts weighs more.
    Sampled,
    /// [`Portfolio::sample_weighted`] with the genome's weights: the script proposal of a
    /// step is drawn ∝ its script's weight, so that the search values a plan as this
    /// personality would go on to play it. With style strength `s < 1`, a step is weighted
    /// with probability `s` and [`RolloutPolicy::Sampled`] otherwise.
    Weighted,
}

/// The progressive-unpruning schedule of a node with `n` children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unpruning {
    /// Children kept at the first pruning.
    pub k_init: usize,
    /// Visits before the first pruning.
    pub t: u32,
    /// Base of the un-pruning thresholds.
    pub a: u32,
}

impl PmctsParams {
    /// The schedule for `n` children: `T = ⌊n·t_mult⌋`, `k_init = max(1, ⌊n·k_init_mult⌋)`,
    /// `A = ⌊T·a_mult⌋`.
    pub fn unpruning(&self, n: usize) -> Unpruning {
        let t = (n as f64 * self.t_mult).floor() as u32;
        Unpruning {
            k_init: ((n as f64 * self.k_init_mult).floor() as usize).max(1),
            t,
            a: (t as f64 * self.a_mult).floor() as u32,
        }
    }

    /// Visits after which the `k`-th un-pruning happens: `⌊A·b^k⌋`.
    pub fn unprune_threshold(&self, a: u32, k: u32) -> u32 {
        (a as f64 * self.b.powi(k as i32)).floor() as u32
    }
}

/// A tree node: the shared statistics and child range, and its unpruning progress.
#[derive(Clone, Debug)]
struct Node {
    head: NodeHead,
    /// Un-prunings done (0 before the first pruning).
    k: u32,
    pruned_started: bool,
}

/// A node's part of the persona term (kept beside the tree, and only while the term is on):
/// the searching player's scripted actions from the root to the node, and the sum of the
/// persona values backed up through it.
#[derive(Clone, Copy, Debug, Default)]
struct PersonaNode {
    path: PersonaPath,
    total: f64,
}

/// The searching player's scripted actions on a path and the sum of their script weights.
#[derive(Clone, Copy, Debug, Default)]
struct PersonaPath {
    actions: u32,
    weight: f64,
}

impl PersonaPath {
    /// The path with one more action of the searching player's by a script of weight `w`.
    fn with(self, w: f64) -> Self {
        PersonaPath {
            actions: self.actions + 1,
            weight: self.weight + w,
        }
    }

    /// The mean weight minus `centre` (0 for no action).
    fn value(self, centre: f64) -> f64 {
        if self.actions == 0 {
            0.0
        } else {
            self.weight / self.actions as f64 - centre
        }
    }
}

impl Node {
    fn new(head: NodeHead) -> Self {
        Node {
            head,
            k: 0,
            pruned_started: false,
        }
    }
}

impl Headed for Node {
    fn head(&self) -> &NodeHead {
        &self.head
    }
    fn head_mut(&mut self) -> &mut NodeHead {
        &mut self.head
    }
}

/// The Portfolio MCTS agent.
pub struct PortfolioMcts<G: Game> {
    params: PmctsParams,
    knowledge: Arc<dyn Knowledge<G>>,
    /// The portfolio and its output buffers.
    proposer: Proposer<G>,
    weights: Vec<f64>,
    compat: SearchCompat,
    /// The nodes, their states and child slots.
    tree: Tree<G, Node>,
    /// Per child slot: the proposal, its prune value `w·v`, pruned flag.
    props: Vec<Assignment<G::Action>>,
    prune_value: Vec<f64>,
    pruned: Vec<bool>,
    /// The state a rollout plays on, reused.
    sim: Option<G::State>,
    /// The searching player of the current decision, and the mean script weight (the persona
    /// term's centre).
    me: Player,
    centre: f64,
    /// Per node, its part of the persona term (empty while the term is off).
    persona: Vec<PersonaNode>,
    /// The persona value of the last evaluated leaf.
    leaf_persona: f64,
    /// FM calls of the last decision.
    pub last_fm_calls: u64,
}

impl<G: Game> PortfolioMcts<G> {
    /// A Portfolio MCTS agent; `weights[i]` scales script `i`'s values (missing ones: 0.5).
    pub fn new(
        params: PmctsParams,
        knowledge: Arc<dyn Knowledge<G>>,
        portfolio: Arc<dyn Portfolio<G>>,
        mut weights: Vec<f64>,
        compat: SearchCompat,
    ) -> Self {
        weights.resize(portfolio.script_names().len(), 0.5);
        let centre = if weights.is_empty() {
            0.5
        } else {
            weights.iter().sum::<f64>() / weights.len() as f64
        };
        PortfolioMcts {
            params,
            knowledge,
            proposer: Proposer {
                portfolio,
                buf: Vec::new(),
                legal: Vec::new(),
            },
            weights,
            compat,
            tree: Tree::default(),
            props: Vec::new(),
            prune_value: Vec::new(),
            pruned: Vec::new(),
            sim: None,
            me: 0,
            centre,
            persona: Vec::new(),
            leaf_persona: 0.0,
            last_fm_calls: 0,
        }
    }

    /// The script weights, by script index.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// The error for the proposal `bad`, which is not a legal action in `state`, where `me`
    /// is to move.
    fn illegal_proposal(
        &self,
        game: &G,
        state: &G::State,
        me: Player,
        bad: Assignment<G::Action>,
    ) -> Error {
        let script = match self
            .proposer
            .portfolio
            .script_names()
            .get(usize::from(bad.script))
        {
            Some(name) => format!("`{name}`"),
            None => format!("#{} (no such script)", bad.script),
        };
        Error::IllegalChoice {
            game: game.info().name.to_string(),
            by: format!("script {script} of agent `{}`", self.name()),
            action: format!("{:?}", bad.action),
            at: format!("seat {me}, round {}", game.round(state)),
        }
    }

    fn prune_value_of(&self, a: &Assignment<G::Action>) -> f64 {
        self.weight_of(a.script) * a.value
    }

    /// The weight of script `script` (0.5 for a proposal of no script).
    fn weight_of(&self, script: u16) -> f64 {
        self.weights.get(script as usize).copied().unwrap_or(0.5)
    }

    /// Whether a draw of the style strength says "weighted" (no draw at full strength).
    fn styled(&self, rng: &mut Rng) -> bool {
        self.params.style >= 1.0 || rng.random::<f64>() < self.params.style
    }

    /// The slot of node `n` to expand under [`ExpandOrder::Weighted`]: the unexpanded one of
    /// the highest `w·v`, ties at random.
    fn weighted_slot(&self, n: u32, rng: &mut Rng) -> u32 {
        let node = self.tree.head(n);
        let mut best = ArgMax::default();
        for slot in node.first..node.first + node.len {
            if self.tree.slots[slot as usize] == UNEXPANDED {
                best.offer(self.prune_value[slot as usize], slot, rng);
            }
        }
        best.item
    }

    /// Expands `slot` of node `n`, extending the persona path while the term is on.
    fn expand_slot(&mut self, game: &G, n: u32, slot: u32) -> u32 {
        let a = self.props[slot as usize];
        let mine = self.tree.head(n).to_move == Some(self.me);
        let child = self.tree.expand(game, n, slot, a.action, Node::new);
        if self.params.persona_on() {
            let path = self.persona[n as usize].path;
            let path = if mine && a.script != u16::MAX {
                path.with(self.weight_of(a.script))
            } else {
                path
            };
            debug_assert_eq!(self.persona.len(), child as usize);
            self.persona.push(PersonaNode { path, total: 0.0 });
        }
        child
    }

    /// The root slot to play: by [`FinalMove`], on values plus the persona term.
    fn final_slot(&self, rng: &mut Rng) -> u32 {
        let lambda = self.params.persona_lambda();
        let weighted = self.params.final_move == FinalMove::Weighted;
        if lambda == 0.0 && !weighted {
            // The root child with the best mean value.
            return self.tree.best_root_slot(|c| c.mean, rng);
        }
        let b = self.tree.head(0).bounds;
        let key = |slot: u32, c: &NodeHead| {
            let persona = if lambda == 0.0 {
                0.0
            } else {
                let child = self.tree.slots[slot as usize] as usize;
                lambda * self.persona[child].total / (c.visits as f64 + EPSILON)
            };
            normalise(c.mean, b.lo, b.hi) + persona
        };
        let best_key = self
            .tree
            .root_children()
            .map(|(slot, c)| key(slot, c))
            .fold(f64::NEG_INFINITY, f64::max);
        let tie = if weighted {
            self.params.tie * self.params.style
        } else {
            0.0
        };
        // Among the children within `tie` of the best, the highest w·v, then the best key.
        let mut best = ArgMax::default();
        let mut best_pv = f64::NEG_INFINITY;
        for (slot, c) in self.tree.root_children() {
            let k = key(slot, c);
            if weighted && k < best_key - tie {
                continue;
            }
            let pv = if weighted {
                self.prune_value[slot as usize]
            } else {
                0.0
            };
            if pv > best_pv {
                best_pv = pv;
                best = ArgMax::default();
            }
            if pv == best_pv {
                best.offer(k, slot, rng);
            }
        }
        if best.item == u32::MAX {
            self.tree.head(0).first
        } else {
            best.item
        }
    }

    /// A uniformly drawn legal action other than `best` of `best`'s style key (`best` itself
    /// when it has none): the `blunder` dial's swap.
    fn blunder_for(
        &mut self,
        game: &G,
        state: &G::State,
        best: G::Action,
        rng: &mut Rng,
    ) -> G::Action {
        let key = game.style_key(best);
        game.legal_actions(state, &mut self.proposer.legal);
        self.proposer
            .legal
            .retain(|&a| a != best && game.style_key(a) == key);
        if self.proposer.legal.is_empty() {
            best
        } else {
            self.proposer.legal[rng.random_range(0..self.proposer.legal.len())]
        }
    }

    /// A root proposal drawn ∝ its `w·v` ([`PmctsParams::epsilon`]'s move), uniformly when
    /// every `w·v` is 0.
    fn instinct_slot(&self, rng: &mut Rng) -> usize {
        let n = self.tree.head(0).len as usize;
        weighted_index(self.prune_value[..n].iter().copied(), rng)
            .unwrap_or_else(|| rng.random_range(0..n))
    }

    /// Gives node `n` the last proposals (`self.proposer.buf`) as its child slots.
    fn open_with(&mut self, n: u32) {
        for i in 0..self.proposer.buf.len() {
            let a = self.proposer.buf[i];
            let pv = self.prune_value_of(&a);
            self.props.push(a);
            self.prune_value.push(pv);
            self.pruned.push(false);
        }
        self.tree.open(n, self.proposer.buf.len());
    }

    /// Progressive unpruning bookkeeping at node `n` (called when all children are expanded).
    fn update_pruning(&mut self, n: u32, rng: &mut Rng) {
        let node = &self.tree.nodes[n as usize];
        let (first, len) = (node.head.first as usize, node.head.len as usize);
        let (visits, k) = (node.head.visits, node.k);
        let sched = self.params.unpruning(len);
        if !node.pruned_started {
            if visits < sched.t {
                return;
            }
            // Keep the k_init best by prune value (ties: higher child index first).
            let mut order: Vec<usize> = (0..len).collect();
            order.sort_by(|&i, &j| {
                self.prune_value[first + j]
                    .total_cmp(&self.prune_value[first + i])
                    .then(j.cmp(&i))
            });
            for (rank, &i) in order.iter().enumerate() {
                self.pruned[first + i] = rank >= sched.k_init;
            }
            let nd = &mut self.tree.nodes[n as usize];
            nd.pruned_started = true;
            nd.k = 1;
        } else if visits > self.params.unprune_threshold(sched.a, k) {
            let mut best = ArgMax::default();
            for i in 0..len {
                if self.pruned[first + i] {
                    best.offer(self.prune_value[first + i], i as u32, rng);
                }
            }
            if best.item != u32::MAX {
                self.pruned[first + best.item as usize] = false;
            }
            self.tree.nodes[n as usize].k += 1;
        }
    }
}

/// A portfolio and the buffers its proposals go to.
struct Proposer<G: Game> {
    portfolio: Arc<dyn Portfolio<G>>,
    /// The last proposals.
    buf: Vec<Assignment<G::Action>>,
    legal: Vec<G::Action>,
}

impl<G: Game> Proposer<G> {
    /// The first of the last proposals that is not in `self.legal`.
    fn illegal_proposal(&self) -> Option<Assignment<G::Action>> {
        self.buf
            .iter()
            .find(|a| !self.legal.contains(&a.action))
            .copied()
    }

    /// The portfolio's proposals in `state` into `self.buf`; if it proposes nothing, every
    /// legal action (so the search never stalls).
    fn proposals(&mut self, game: &G, state: &G::State, rng: &mut Rng) {
        self.portfolio.assignments(game, state, rng, &mut self.buf);
        if self.buf.is_empty() && !game.is_terminal(state) {
            game.legal_actions(state, &mut self.legal);
            self.buf.extend(self.legal.iter().map(|&action| Assignment {
                action,
                script: u16::MAX,
                value: 0.5,
            }));
        }
    }
}

/// Fields: those of [`PmctsParams::from_spec`], and `weights` over the game's portfolio
/// ([`take_script_weights`]).
/// The values of `persona` calibration tries: off, then up to 4. Measured: a two-player
/// economy game's extremes separate from λ = 0.5 and stay strong to λ = 1–2 (issue 61), Tribes
/// use case I needed λ = 3 (`results/sensitivity/usecase1-persona/`); 4 leaves room above.
pub const PERSONA_LADDER: [f64; 7] = [0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0];

impl<G: SearchSupport> FromSpec<G> for PortfolioMcts<G> {
    /// `persona`, λ of the persona term ([`PmctsParams::persona`]).
    const STYLE: Option<StyleField> = Some(StyleField {
        field: "persona",
        ladder: &PERSONA_LADDER,
    });

    fn from_spec(game: &G, spec: &mut AgentSpec, compat: SearchCompat) -> Result<Self> {
        let params = PmctsParams::from_spec(spec, compat)?;
        let portfolio = game.portfolio();
        let weights = take_script_weights(spec, portfolio.script_names())?;
        Ok(PortfolioMcts::new(
            params,
            take_knowledge(game, spec)?,
            portfolio,
            weights,
            compat,
        ))
    }
}

impl<G: Game> TreeSearch<G> for PortfolioMcts<G> {
    fn view(&self, n: u32) -> NodeView {
        self.tree.view(n)
    }

    fn open(&mut self, game: &G, n: u32, rng: &mut Rng) {
        self.proposer
            .proposals(game, &self.tree.states[n as usize], rng);
        self.open_with(n);
    }

    /// Expands an unexpanded child of `n`: a uniformly random one, or by [`ExpandOrder`].
    fn expand(&mut self, game: &G, n: u32, rng: &mut Rng) -> u32 {
        if self.params.expand == ExpandOrder::Weighted && self.styled(rng) {
            let slot = self.weighted_slot(n, rng);
            return self.expand_slot(game, n, slot);
        }
        let node = self.tree.head(n);
        let mut pick = rng.random_range(0..node.len - node.expanded);
        let mut slot = node.first;
        loop {
            if self.tree.slots[slot as usize] == UNEXPANDED {
                if pick == 0 {
                    break;
                }
                pick -= 1;
            }
            slot += 1;
        }
        self.expand_slot(game, n, slot)
    }

    /// Selection among the children of `n` with progressive bias, skipping pruned ones.
    fn select(&mut self, n: u32, me: Player, rng: &mut Rng) -> u32 {
        if self.params.pruning {
            self.update_pruning(n, rng);
        }
        let Node {
            head: node,
            pruned_started,
            ..
        } = &self.tree.nodes[n as usize];
        let (first, len) = (node.first as usize, node.len as usize);
        if self.compat.child_zero_before_pruning() && !pruned_started {
            return self.tree.slots[first];
        }
        let mover = self.tree.maxn.selector(node.to_move, me);
        let my_move = mover.is_some() || node.to_move == Some(me);
        let model = self.compat.opponent_model();
        let lambda = self.params.persona_lambda();
        let ln = ((node.visits + 1) as f64).ln();
        let mut best = ArgMax::default();
        for i in first..first + len {
            let child = self.tree.slots[i];
            if self.pruned[i] {
                if self.compat.pruned_children_win_min_nodes() && !my_move {
                    best.offer(-0.0, child, rng);
                }
                continue;
            }
            let c = self.tree.head(child);
            let q = match mover {
                None => normalise(c.mean, node.bounds.lo, node.bounds.hi),
                Some(p) => {
                    let b = self.tree.maxn.bounds(n, p);
                    normalise(self.tree.maxn.mean(child, c.visits, p), b.lo, b.hi)
                }
            };
            let visits = c.visits as f64 + EPSILON;
            let explore = self.params.c * (ln / visits).sqrt();
            let bias = if self.params.bias {
                self.prune_value[i] / visits
            } else {
                0.0
            };
            let q = if lambda > 0.0 && node.to_move == Some(me) {
                q + lambda * self.persona[child as usize].total / visits
            } else {
                q
            };
            best.offer(
                selection_score(q, explore, bias, my_move, model),
                child,
                rng,
            );
        }
        best.item
    }

    /// Random rollout over proposals from `leaf` to the depth limit, then the evaluation.
    fn evaluate(
        &mut self,
        game: &G,
        values: &LeafValues<'_, G>,
        leaf: u32,
        fm: &mut u64,
        rng: &mut Rng,
    ) -> f64 {
        let persona = self.params.persona_on();
        let mut path = self
            .persona
            .get(leaf as usize)
            .map_or_else(PersonaPath::default, |p| p.path);
        let mut v = if self.params.rollouts {
            let from = &self.tree.states[leaf as usize];
            let mut sim = match self.sim.take() {
                Some(mut sim) => {
                    sim.clone_from(from);
                    sim
                }
                None => from.clone(),
            };
            let mut depth = self.tree.head(leaf).depth;
            let mut last = None;
            while depth < self.params.depth && !game.is_terminal(&sim) {
                let mine = persona && game.turn(&sim) == Turn::Player(self.me);
                let drawn = match self.params.rollout {
                    RolloutPolicy::Weighted if self.styled(rng) => {
                        self.proposer.portfolio.sample_weighted(
                            game,
                            &sim,
                            last,
                            &self.weights,
                            rng,
                            &mut self.proposer.buf,
                        )
                    }
                    RolloutPolicy::Sampled | RolloutPolicy::Weighted => self
                        .proposer
                        .portfolio
                        .sample(game, &sim, last, rng, &mut self.proposer.buf),
                    RolloutPolicy::Exact => None,
                };
                let drawn = match drawn {
                    Some(a) => a,
                    None => {
                        self.proposer.proposals(game, &sim, rng);
                        self.proposer.buf[rng.random_range(0..self.proposer.buf.len())]
                    }
                };
                if mine && drawn.script != u16::MAX {
                    path = path.with(self.weight_of(drawn.script));
                }
                let a = drawn.action;
                game.apply(&mut sim, a);
                last = Some(a);
                *fm += 1;
                depth += 1;
            }
            let v = values.value(game, &sim, &mut self.tree.maxn.leaf);
            self.sim = Some(sim);
            v
        } else {
            let leaf = &self.tree.states[leaf as usize];
            values.value(game, leaf, &mut self.tree.maxn.leaf)
        };
        if !v.is_finite() {
            v = 0.0;
        }
        for w in &mut self.tree.maxn.leaf {
            if !w.is_finite() {
                *w = 0.0;
            }
        }
        if persona {
            self.leaf_persona = path.value(self.centre);
        }
        v
    }

    fn backup(&mut self, n: u32, v: f64) {
        if self.params.persona_on() {
            let p = self.leaf_persona;
            let mut at = n;
            while at != NO_PARENT {
                self.persona[at as usize].total += p;
                at = self.tree.head(at).parent;
            }
        }
        self.tree.backup(n, v);
    }
}

impl<G: Game> Agent<G> for PortfolioMcts<G> {
    fn name(&self) -> String {
        format!(
            "pmcts(bias={},pruning={},budget={})",
            self.params.bias, self.params.pruning, self.params.budget
        )
    }

    /// # Errors
    ///
    /// [`Error::IllegalChoice`] naming the script if a proposal in `state` is not a legal
    /// action (the root's proposals are checked before the search plays any of them).
    fn act(&mut self, game: &G, state: &G::State, rng: &mut Rng) -> Result<G::Action> {
        let Turn::Player(me) = game.turn(state) else {
            panic!("Portfolio MCTS asked to act in a terminal state");
        };
        game.legal_actions(state, &mut self.proposer.legal);
        if self.proposer.legal.len() == 1 {
            self.last_fm_calls = 0;
            return Ok(self.proposer.legal[0]);
        }
        self.props.clear();
        self.prune_value.clear();
        self.pruned.clear();
        self.me = me;
        self.tree.set_root_state(game, state, me, rng);
        let root = Node::new(NodeHead::root(me));
        self.tree.start(root, game.num_players(state));
        self.persona.clear();
        if self.params.persona_on() {
            self.persona.push(PersonaNode::default());
        }
        self.proposer.proposals(game, state, rng);
        if let Some(bad) = self.proposer.illegal_proposal() {
            return Err(self.illegal_proposal(game, state, me, bad));
        }
        self.open_with(0);
        if self.tree.head(0).len == 1 {
            self.last_fm_calls = 0;
            return Ok(self.props[0].action);
        }
        if self.params.epsilon > 0.0 && rng.random::<f64>() < self.params.epsilon {
            self.last_fm_calls = 0;
            return Ok(self.props[self.instinct_slot(rng)].action);
        }
        let knowledge = self.knowledge.clone();
        let limits = Limits {
            budget: self.params.budget,
            depth: self.params.depth,
            compat: self.compat,
        };
        self.last_fm_calls = run_search(self, game, &*knowledge, state, me, limits, rng);
        let slot = self.final_slot(rng);
        let best = self.props[slot as usize].action;
        if self.params.blunder > 0.0 && rng.random::<f64>() < self.params.blunder {
            return Ok(self.blunder_for(game, state, best, rng));
        }
        Ok(best)
    }
}
