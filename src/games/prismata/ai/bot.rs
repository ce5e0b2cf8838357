//! Prismata's whole-turn bots as [`Agent`]s: a bot plans its whole turn at the turn's first
//! decision (spec §12: a scripted sequence, a random portfolio move, Alpha-Beta, UCT or
//! Portfolio Greedy Search over portfolio moves; and our Portfolio MCTS) and then plays the
//! plan one action per call.

use std::collections::VecDeque;

use super::alpha_beta::AlphaBeta;
use super::pgs::PortfolioGreedy;
use super::pmcts::TurnPmcts;
use super::portfolio::PartialPortfolio;
use super::sequence::Sequence;
use super::uct::Uct;
use crate::agent::Agent;
use crate::error::{Error, Result};
use crate::games::prismata::{Action, Library, PrismataGame, State, rules};
use crate::rng::Rng;

/// How a bot chooses its whole turn.
#[derive(Clone, Debug)]
pub enum Planner {
    /// A scripted player (C++ `Player_PPSequence`).
    Sequence(Sequence),
    /// One random partial player per phase of a portfolio, each turn (C++
    /// `Player_RandomFromIterator`).
    RandomFromPortfolio(PartialPortfolio),
    /// Alpha-Beta over portfolio moves (C++ `Player_StackAlphaBeta`).
    AlphaBeta(AlphaBeta),
    /// UCT over portfolio moves (C++ `Player_UCT`).
    Uct(Uct),
    /// Portfolio MCTS over portfolio moves, partial players weighted (ours).
    Pmcts(TurnPmcts),
    /// Portfolio Greedy Search (C++ `Player_PortfolioGreedySearch`).
    Pgs(PortfolioGreedy),
}

impl Planner {
    /// True for a search that scores leaves with a learned model and has none yet: its agent
    /// spec must name one (`AB_Learned(model=FILE)`).
    pub fn needs_model(&self) -> bool {
        use super::alpha_beta::LeafEval;
        match self {
            Planner::AlphaBeta(ab) => {
                matches!(&ab.eval, LeafEval::Learned(leaf, _) if leaf.model.is_none())
            }
            Planner::Uct(u) => u.leaf.learned().is_some_and(|l| l.model.is_none()),
            Planner::Pmcts(p) => p.leaf.learned().is_some_and(|l| l.model.is_none()),
            _ => false,
        }
    }

    /// The actions of the player to act in `state` until its turn ends.
    pub fn plan(&self, library: &Library, state: &State, rng: &mut Rng) -> Vec<Action> {
        match self {
            Planner::Sequence(seq) => seq.actions(library, state, rng),
            Planner::RandomFromPortfolio(p) => p.random_sequence(rng).actions(library, state, rng),
            Planner::AlphaBeta(ab) => ab.search(library, state, rng),
            Planner::Uct(uct) => uct.search(library, state, rng),
            Planner::Pmcts(pmcts) => pmcts.search(library, state, rng),
            Planner::Pgs(pgs) => pgs.search(library, state, rng),
        }
    }
}

/// A named whole-turn bot.
#[derive(Clone, Debug)]
pub struct Bot {
    name: String,
    planner: Planner,
    plan: VecDeque<Action>,
    /// The state the next planned action is for.
    expected: Option<State>,
}

impl Bot {
    /// A bot called `name` that plans with `planner`.
    pub fn new(name: impl Into<String>, planner: Planner) -> Bot {
        Bot {
            name: name.into(),
            planner,
            plan: VecDeque::new(),
            expected: None,
        }
    }
}

impl Agent<PrismataGame> for Bot {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The next action of the plan; a new plan when the state is not the one the plan
    /// expected (a new turn, or a game the bot did not see move).
    fn act(&mut self, game: &PrismataGame, state: &State, rng: &mut Rng) -> Result<Action> {
        let library = game.library();
        if self.expected.as_ref() != Some(state) || self.plan.is_empty() {
            self.plan = self.planner.plan(library, state, rng).into();
        }
        // A plan holds the turn's actions up to its last end of phase; none means a partial
        // player left its phase open (the bot file's slots are checked when it is loaded).
        let action = self.plan.pop_front().ok_or_else(|| {
            Error::config(
                "agents",
                format!("bot `{}` planned no action for its turn", self.name),
            )
        })?;
        let mut next = state.clone();
        rules::apply(library, &mut next, action);
        self.expected = Some(next);
        Ok(action)
    }

    fn new_game(&mut self) {
        self.plan.clear();
        self.expected = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::prismata::Level;
    use crate::games::prismata::ai::sequence::tests::firsts;
    use crate::rng::rng_from_seed;

    #[test]
    fn a_bot_plays_its_planned_turns_action_by_action() {
        let game = PrismataGame::default();
        let lib = game.library();
        let seq = Sequence { players: firsts() };
        let mut bot = Bot::new("firsts", Planner::Sequence(seq.clone()));
        let mut rng = rng_from_seed(1);
        let level = Level::random(lib, 8, 12).unwrap();
        let mut s = game.new_initial_state(&level, 0);
        while game.outcome(&s).is_none() && s.ply < 20 {
            let turn = seq.actions(lib, &s, &mut rng);
            for expected in turn {
                let a = bot.act(&game, &s, &mut rng).unwrap();
                assert_eq!(a, expected);
                game.apply(&mut s, a);
            }
        }
        assert_eq!(bot.name(), "firsts");
    }
}
