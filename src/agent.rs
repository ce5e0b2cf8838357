//! The agent API: what picks an action for a state, what a search knows of a game, and the
//! spec strings agents are built from ([`spec`]).
//!
//! An [`Agent`] is called once per action (a turn may hold many actions) and sees only the game
//! API. Its randomness comes from the RNG it is handed, never from a thread RNG, so a match
//! replays exactly from its seed. Search agents count their budget in forward-model (FM) calls,
//! one per [`Game::apply`] they make (the Java-compatible tree searches also count each
//! tree-descent step), and have no wall-clock limit, so a decision is the same on every machine.

pub mod spec;

pub use spec::{AgentSpec, Value, parse_agent_list, split_agent_list};

#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;
use crate::game::{Game, Player};
use crate::learn::encoding::{Count, Encoding};
use crate::rng::Rng;

/// Picks actions for one seat of a game.
///
/// Agents are built from spec strings such as `random` or `mcts(budget=2000)` by
/// [`crate::agents::build_agent`].
pub trait Agent<G: Game>: Send {
    /// A short human-readable name (for tables and logs), e.g. `random`.
    fn name(&self) -> String;

    /// Chooses one legal action in `state`.
    ///
    /// `state` is what the acting player observes ([`Game::observe`]) and is never terminal;
    /// the returned action must be one of [`Game::legal_actions`] of `state` (the arena checks
    /// it before applying it, [`crate::arena::play_match`]). All randomness must come from
    /// `rng`.
    ///
    /// # Errors
    ///
    /// When what the agent was built from breaks its contract: [`Error::IllegalChoice`] when a
    /// script of Portfolio MCTS's portfolio proposes an illegal action
    /// ([`Portfolio::assignments`]).
    fn act(&mut self, game: &G, state: &G::State, rng: &mut Rng) -> Result<G::Action>;

    /// Called once before each match, so that an agent can drop what it remembered of the
    /// previous one. Does nothing by default.
    fn new_game(&mut self) {}
}

/// A state evaluation with its root and player fixed (see [`Knowledge::root_evaluator`]).
pub type Evaluator<'a, S> = Box<dyn Fn(&S) -> f64 + 'a>;

/// Game knowledge that search agents use: a state evaluation and hints about which actions
/// to consider. (Engine knowledge belongs here, not in the rules.)
pub trait Knowledge<G: Game>: Send + Sync {
    /// Value of `state` for `player`, relative to `root` (higher is better for `player`).
    fn evaluate(&self, game: &G, root: &G::State, state: &G::State, player: Player) -> f64;

    /// [`Knowledge::evaluate`] with `root` and `player` fixed, for the many leaves of one
    /// search (implementations may precompute what depends on the root).
    fn root_evaluator<'a>(
        &'a self,
        game: &'a G,
        root: &'a G::State,
        player: Player,
    ) -> Evaluator<'a, G::State> {
        Box::new(move |s| self.evaluate(game, root, s, player))
    }

    /// The group of a root action for root action-group prioritisation (MCTS draws one
    /// non-empty group uniformly and searches only its actions); `None` excludes the action.
    fn root_group(&self, _game: &G, _state: &G::State, _action: G::Action) -> Option<u8> {
        Some(0)
    }

    /// Actions random simulations, mutations and one-step look-ahead avoid (Tribes: DESTROY and
    /// DISBAND).
    fn avoid(&self, _game: &G, _action: G::Action) -> bool {
        false
    }
}

/// One script's proposal for one actor: an action and its value in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assignment<A> {
    /// The proposed action.
    pub action: A,
    /// Index of the script (into [`Portfolio::script_names`]).
    pub script: u16,
    /// The script's value of the action, in [0, 1].
    pub value: f64,
}

/// A set of scripts: for each actor and action kind, scripts propose one action each.
///
/// Portfolio MCTS ([`crate::agents::portfolio_mcts::PortfolioMcts`]) searches only what the
/// scripts propose. What [`Portfolio::assignments`] and [`Portfolio::sample`] return must keep
/// this contract in every state the search reaches:
/// - every proposed action is one of [`Game::legal_actions`] of the state (a script picks one
///   of the legal actions it is given; it never builds an action of its own);
/// - [`Assignment::script`] indexes [`Portfolio::script_names`]: it picks the weight that
///   scales the value;
/// - [`Assignment::value`] is in [0, 1]: times the script's weight, it is the proposal's
///   progressive bias and its rank for progressive unpruning;
/// - an empty set means that no script has anything to propose: the search then takes every
///   legal action instead, each valued 0.5 with weight 0.5.
///
/// Portfolio MCTS checks the proposals at the root of every decision against the legal actions
/// and fails the decision with [`Error::IllegalChoice`] naming the script. Inside its tree and
/// rollouts it trusts them (checking them there cost 22 % more instructions in a Tribes game),
/// so an illegal proposal there plays a move the rules do not allow in the search's
/// imagination: test a portfolio in every state of many games with
/// [`crate::check::portfolio_contract`].
pub trait Portfolio<G: Game>: Send + Sync {
    /// Stable script names (`spawn.defensive`, `research.naval`, …); a script's index is its id.
    fn script_names(&self) -> &[&'static str];

    /// Every script's proposal for the player to move, deduplicated by (actor, action), into
    /// `out` (cleared first): legal actions only, values in [0, 1], possibly none (see the
    /// [trait docs](Portfolio)). Scripts may draw from `rng` (ties, random choices).
    fn assignments(
        &self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        out: &mut Vec<Assignment<G::Action>>,
    );

    /// One random proposal for a rollout step, under the same contract as
    /// [`Portfolio::assignments`]; `None` if there is none (the rollout then draws from
    /// [`Portfolio::assignments`], or from every legal action if that is empty too). By default
    /// every proposal is computed and one is drawn uniformly (the reference's rule); a
    /// portfolio may instead draw an (actor, script) pair uniformly and run only that script,
    /// which is much cheaper and differs only in weighting an action that several scripts
    /// propose more.
    ///
    /// `last` continues a rollout: it is the action that led to `state` from the state of this
    /// thread's previous `sample` call, so that a portfolio may update what it listed then
    /// instead of listing afresh; `None` starts a rollout.
    fn sample(
        &self,
        game: &G,
        state: &G::State,
        last: Option<G::Action>,
        rng: &mut Rng,
        buf: &mut Vec<Assignment<G::Action>>,
    ) -> Option<Assignment<G::Action>> {
        let _ = last;
        use rand::RngExt;
        self.assignments(game, state, rng, buf);
        (!buf.is_empty()).then(|| buf[rng.random_range(0..buf.len())])
    }

    /// [`Portfolio::sample`] with the proposals weighted: a proposal of script `i` is drawn
    /// with probability ∝ `weights[i]` (0.5 for a script `weights` does not cover), uniformly
    /// if every proposal weighs 0; `None` if there is none. `last` as in
    /// [`Portfolio::sample`]. By default every proposal is computed and one is drawn; a
    /// portfolio may instead draw an (actor, script) pair ∝ its script's weight and run only
    /// that script.
    fn sample_weighted(
        &self,
        game: &G,
        state: &G::State,
        last: Option<G::Action>,
        weights: &[f64],
        rng: &mut Rng,
        buf: &mut Vec<Assignment<G::Action>>,
    ) -> Option<Assignment<G::Action>> {
        let _ = last;
        use rand::RngExt;
        self.assignments(game, state, rng, buf);
        let weight =
            |a: &Assignment<G::Action>| weights.get(usize::from(a.script)).map_or(0.5, |w| *w);
        match crate::rng::weighted_index(buf.iter().map(weight), rng) {
            Some(i) => Some(buf[i]),
            None => (!buf.is_empty()).then(|| buf[rng.random_range(0..buf.len())]),
        }
    }
}

/// The field of an agent's spec that sets how strongly its weights steer its play — its *style
/// strength* — and the ladder of values that calibration tries, weakest style first
/// ([`crate::experiments::calibration`]). An agent declares it: Portfolio MCTS its `persona`
/// (the generic agents, [`crate::agents::style_field`]), a game's own agents through
/// [`SearchSupport::game_style_field`]. The value `auto` of the field in a run's player asks
/// for calibration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StyleField {
    /// The spec field (`persona`, `style`).
    pub field: &'static str,
    /// The values calibration tries by default, ascending (0: no style term, where the agent
    /// has one).
    pub ladder: &'static [f64],
}

/// A game that the search agents can play: it supplies their knowledge, portfolio and
/// rule-based agent.
pub trait SearchSupport: Game + Sized + 'static {
    /// The state evaluation and action hints.
    fn knowledge(&self) -> std::sync::Arc<dyn Knowledge<Self>>;

    /// The game's portfolio of scripts.
    fn portfolio(&self) -> std::sync::Arc<dyn Portfolio<Self>>;

    /// True when the game replicates the Java reference's defects (`compat = "java"`): agents
    /// then replicate the Java search's defects too.
    fn java_compat(&self) -> bool {
        false
    }

    /// The game's hand-written rule-based agent, if it has one.
    fn rule_agent(&self) -> Option<Box<dyn Agent<Self>>> {
        None
    }

    /// The game's own agents (Prismata: its difficulty bots), by the names the generic agent
    /// factory does not know: `None` if the game has no agent called `spec`'s name, else the
    /// agent built from the fields it takes out of `spec`.
    fn game_agent(&self, spec: &mut AgentSpec) -> Option<Result<Box<dyn Agent<Self>>>> {
        let _ = spec;
        None
    }

    /// The names of the game's own agents ([`SearchSupport::game_agent`]), for error messages.
    fn game_agent_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The style strength of the game's own agent `spec` names ([`SearchSupport::game_agent`]),
    /// if it has one: the field that sets it and the values calibration tries
    /// ([`StyleField`]). `None` (the default): the agent has none, and its spec cannot say
    /// `auto`.
    fn game_style_field(&self, spec: &AgentSpec) -> Option<StyleField> {
        let _ = spec;
        None
    }

    /// The files that an agent file of the game (named by a spec's `config=FILE`) names in
    /// turn, so that a run directory keeps them beside it
    /// ([`crate::experiments::agent_files`]): `text`, the file read from `origin`, with each
    /// path `p` it names replaced by `rename(p)` (`p` as written: relative to the file's
    /// folder, or absolute); `None` if it names none or `rename` changes none. The default:
    /// an agent file names no file.
    ///
    /// # Errors
    ///
    /// What `rename` reports; [`Error::Config`] naming `origin`
    /// if `text` is not an agent file of the game.
    fn agent_file_paths(
        &self,
        origin: &str,
        text: &str,
        rename: &mut dyn FnMut(&str) -> crate::error::Result<String>,
    ) -> crate::error::Result<Option<String>> {
        let _ = (origin, text, rename);
        Ok(None)
    }

    /// How the game writes positions as counts for learned evaluation ([`crate::learn`]);
    /// `None` (the default): it has none, and `dataset` and learned knowledge refuse it.
    fn encoding(&self) -> Option<Encoding> {
        None
    }

    /// Replaces `out` with `state`'s counts from `player`'s side (a dataset records the side
    /// to move, or every seat), in the slots of [`SearchSupport::encoding`]; called only for
    /// a game that declares one.
    fn encode(&self, state: &Self::State, player: Player, out: &mut Vec<Count>) {
        let _ = (state, player);
        out.clear();
    }
}
