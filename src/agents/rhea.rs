//! Rolling Horizon Evolutionary Algorithm as configured in the Tribes experiments (spec §15.4):
//! one individual of 20 actions played from the current state (across turn ends), mutated
//! gene-wise with probability 0.1, kept when the mutant is at least as good; shifted by one
//! action between decisions of the same turn. Budgeted in FM calls.

use std::sync::Arc;

use rand::RngExt;

use super::compat::SearchCompat;
use super::from_spec::{FromSpec, take_knowledge};
use super::search_loop::{DEFAULT_BUDGET, take_budget};
use crate::agent::{Agent, AgentSpec, Knowledge, SearchSupport};
use crate::error::{Error, Result};
use crate::game::{Game, Player, Turn};
use crate::limits;
use crate::rng::Rng;

/// RHEA settings.
#[derive(Clone, Debug, PartialEq)]
pub struct RheaParams {
    /// FM calls per decision.
    pub budget: u64,
    /// Actions per individual.
    pub length: usize,
    /// Probability of replacing each gene when mutating.
    pub mutation: f64,
}

impl Default for RheaParams {
    fn default() -> Self {
        RheaParams {
            budget: DEFAULT_BUDGET,
            length: 20,
            mutation: 0.1,
        }
    }
}

impl RheaParams {
    /// The settings given by `spec`'s fields `mutation` (within [0, 1]), `length` (1 to
    /// [`limits::MAX_RHEA_LENGTH`]) and `budget`, the defaults for the others.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field for a bad value.
    pub fn from_spec(spec: &mut AgentSpec) -> Result<Self> {
        let d = RheaParams::default();
        let mutation = spec.take_f64("mutation", d.mutation)?;
        if !(0.0..=1.0).contains(&mutation) {
            return Err(Error::config("mutation", "must be within [0, 1]"));
        }
        let length =
            spec.take_at_most("length", d.length as u64, limits::MAX_RHEA_LENGTH)? as usize;
        if length == 0 {
            return Err(Error::config("length", "must be at least 1"));
        }
        Ok(RheaParams {
            budget: take_budget(spec)?,
            length,
            mutation,
        })
    }
}

/// The RHEA agent (population size 1).
pub struct Rhea<G: Game> {
    params: RheaParams,
    knowledge: Arc<dyn Knowledge<G>>,
    compat: SearchCompat,
    genes: Vec<Option<G::Action>>,
    /// (round, player) of the last decision, and whether it ended the turn.
    last: Option<(u32, Player, bool)>,
    buf: Vec<G::Action>,
    sim: Option<G::State>,
}

impl<G: Game> Rhea<G> {
    /// A RHEA agent with the given settings, game knowledge and compatibility.
    pub fn new(params: RheaParams, knowledge: Arc<dyn Knowledge<G>>, compat: SearchCompat) -> Self {
        Rhea {
            params,
            knowledge,
            compat,
            genes: Vec::new(),
            last: None,
            buf: Vec::new(),
            sim: None,
        }
    }

    #[allow(clippy::too_many_arguments)] // the search loop's working set, passed explicitly
    /// Plays `genes` from `state`, repairing infeasible genes (and, with `mutate`, replacing
    /// each with probability `mutation`) by random legal actions; returns the fitness.
    fn evaluate(
        &mut self,
        game: &G,
        state: &G::State,
        eval: &dyn Fn(&G::State) -> f64,
        genes: &mut [Option<G::Action>],
        mutate: bool,
        me: Player,
        fm: &mut u64,
        rng: &mut Rng,
    ) -> f64 {
        let mut sim = self.sim.take().unwrap_or_else(|| state.clone());
        sim.clone_from(state);
        for g in genes.iter_mut() {
            if game.is_terminal(&sim) {
                break;
            }
            game.legal_actions(&sim, &mut self.buf);
            let keep = match *g {
                Some(a) => {
                    !(mutate && rng.random_bool(self.params.mutation)) && self.buf.contains(&a)
                }
                None => false,
            };
            if !keep {
                *g = Some(random_action(game, &*self.knowledge, &self.buf, rng));
            }
            if let Some(a) = *g {
                game.apply(&mut sim, a);
            }
            *fm += 1;
        }
        let v = self.compat.leaf_value(game, eval, &sim, me);
        self.sim = Some(sim);
        v
    }
}

/// Fields: those of [`RheaParams::from_spec`].
impl<G: SearchSupport> FromSpec<G> for Rhea<G> {
    fn from_spec(game: &G, spec: &mut AgentSpec, compat: SearchCompat) -> Result<Self> {
        Ok(Rhea::new(
            RheaParams::from_spec(spec)?,
            take_knowledge(game, spec)?,
            compat,
        ))
    }
}

/// A uniformly random legal action, avoiding the game's avoided actions when possible.
fn random_action<G: Game>(
    game: &G,
    knowledge: &dyn Knowledge<G>,
    legal: &[G::Action],
    rng: &mut Rng,
) -> G::Action {
    let n = legal.iter().filter(|&&a| !knowledge.avoid(game, a)).count();
    if n == 0 {
        return legal[rng.random_range(0..legal.len())];
    }
    let k = rng.random_range(0..n);
    legal
        .iter()
        .copied()
        .filter(|&a| !knowledge.avoid(game, a))
        .nth(k)
        .unwrap_or(legal[0])
}

impl<G: Game> Agent<G> for Rhea<G> {
    fn name(&self) -> String {
        format!("rhea(budget={})", self.params.budget)
    }

    fn new_game(&mut self) {
        self.last = None;
        self.genes.clear();
    }

    fn act(&mut self, game: &G, state: &G::State, rng: &mut Rng) -> Result<G::Action> {
        let Turn::Player(me) = game.turn(state) else {
            panic!("RHEA asked to act in a terminal state");
        };
        game.legal_actions(state, &mut self.buf);
        if self.buf.len() == 1 {
            let a = self.buf[0];
            self.last = Some((game.round(state), me, game.ends_turn(a)));
            return Ok(a);
        }
        let world = super::tree::determinised(game, state, me, rng);
        let state = world.as_ref().unwrap_or(state);
        let round = game.round(state);
        let same_turn = matches!(self.last, Some((r, p, false)) if r == round && p == me);
        let mut parent = std::mem::take(&mut self.genes);
        if same_turn && !parent.is_empty() {
            parent.remove(0);
            parent.push(None);
        } else {
            parent = vec![None; self.params.length];
        }
        parent.resize(self.params.length, None);
        let knowledge = self.knowledge.clone();
        let eval = knowledge.root_evaluator(game, state, me);
        let mut fm = 0;
        let mut best = self.evaluate(game, state, &*eval, &mut parent, false, me, &mut fm, rng);
        let mut child = parent.clone();
        while fm < self.params.budget {
            child.clone_from(&parent);
            let v = self.evaluate(game, state, &*eval, &mut child, true, me, &mut fm, rng);
            if v >= best {
                best = v;
                std::mem::swap(&mut parent, &mut child);
            }
        }
        let a = parent[0].expect("the first gene is filled by evaluation");
        self.last = Some((round, me, game.ends_turn(a)));
        self.genes = parent;
        Ok(a)
    }
}
