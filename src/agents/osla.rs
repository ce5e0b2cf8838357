//! One-step look-ahead (spec §15.2): tries every action but END_TURN and the avoided ones,
//! evaluates the result with the game's heuristic, and plays the best.

use std::sync::Arc;

use super::arg_max::ArgMax;
use super::compat::SearchCompat;
use super::from_spec::{FromSpec, take_knowledge};
use super::search_loop::take_budget;
use crate::agent::{Agent, AgentSpec, Knowledge, SearchSupport};
use crate::error::Result;
use crate::game::{Game, Turn};
use crate::rng::Rng;

/// The one-step look-ahead agent.
pub struct Osla<G: Game> {
    budget: u64,
    compat: SearchCompat,
    knowledge: Arc<dyn Knowledge<G>>,
    buf: Vec<G::Action>,
}

impl<G: Game> Osla<G> {
    /// An OSLA agent that stops after `budget` FM calls.
    pub fn new(budget: u64, knowledge: Arc<dyn Knowledge<G>>, compat: SearchCompat) -> Self {
        Osla {
            budget,
            compat,
            knowledge,
            buf: Vec::new(),
        }
    }
}

/// Field: `budget`.
impl<G: SearchSupport> FromSpec<G> for Osla<G> {
    fn from_spec(game: &G, spec: &mut AgentSpec, compat: SearchCompat) -> Result<Self> {
        let budget = take_budget(spec)?;
        Ok(Osla::new(budget, take_knowledge(game, spec)?, compat))
    }
}

impl<G: Game> Agent<G> for Osla<G> {
    fn name(&self) -> String {
        format!("osla(budget={})", self.budget)
    }

    fn act(&mut self, game: &G, state: &G::State, rng: &mut Rng) -> Result<G::Action> {
        let Turn::Player(me) = game.turn(state) else {
            panic!("OSLA asked to act in a terminal state");
        };
        game.legal_actions(state, &mut self.buf);
        let world = super::tree::determinised(game, state, me, rng);
        let state = world.as_ref().unwrap_or(state);
        let knowledge = self.knowledge.clone();
        let eval = knowledge.root_evaluator(game, state, me);
        let mut best = ArgMax::default();
        let mut fm = 0;
        let mut next = state.clone();
        for (i, &a) in self.buf.iter().enumerate() {
            if fm >= self.budget {
                break;
            }
            if game.ends_turn(a) || knowledge.avoid(game, a) {
                continue;
            }
            next.clone_from(state);
            game.apply(&mut next, a);
            fm += 1;
            let v = self.compat.leaf_value(game, &*eval, &next, me);
            best.offer(v, i as u32, rng);
        }
        Ok(match best.item {
            u32::MAX => self
                .buf
                .iter()
                .copied()
                .find(|&a| game.ends_turn(a))
                .unwrap_or(self.buf[0]),
            i => self.buf[i as usize],
        })
    }
}
