//! The invariant suite for a game of your own: what this crate checks of its own games
//! (OpenSpiel's random-simulation test), to call from your tests.
//!
//! - [`game_invariants`]: one random game, checked at every step against the [`Game`] API
//!   (clones, legal actions, listings, outcome, round cap, replay);
//! - [`portfolio_contract`]: every proposal of the game's [`Portfolio`], at every step of a
//!   random game, keeps the contract (a legal action, a known script, a value in [0, 1]);
//! - [`agents_finish`]: search agents, each in every seat, finish whole games with legal
//!   actions only;
//! - [`suite`]: the three over levels and seeds.
//!
//! Each returns the first broken rule as a [`Failure`] naming the game, level, seed (and agent
//! and step where there is one) rather than panicking, so that a harness can go on, count or
//! shrink; its `Debug` is its message, so `.unwrap()`, `?` in a test returning
//! `Result<(), Failure>` or `panic!("{e}")` all print the same readable line.
//!
//! ```no_run
//! use playstyles::check;
//! use playstyles::kit::GameKit;
//!
//! // In a test of the crate whose `MyGame` implements `GameKit`:
//! fn my_game_keeps_the_rules<MyGame: GameKit + Default>() -> Result<(), check::Failure> {
//!     let game = MyGame::default();
//!     let level = MyGame::load_level("1").expect("level 1 loads");
//!     check::suite(&game, &[("1", level)], 0..4)
//! }
//! ```
//!
//! `tests/invariants.rs` runs it on `examples/pig`'s game, and its parts on every built-in game.

use std::fmt;
use std::ops::Range;

use rand::RngExt;

#[cfg(doc)]
use crate::agent::Portfolio;
use crate::agent::{Agent, Assignment, SearchSupport};
use crate::agents::build_agent;
use crate::arena::{MAX_ACTIONS, initial_state, play_match, replay};
use crate::game::{Game, Listing, Outcome, Turn};
use crate::rng::derive_rng;

/// The search agents [`suite`] runs through [`agents_finish`], with small budgets.
pub const AGENTS: [&str; 5] = [
    "random",
    "osla(budget=20)",
    "mcts(budget=30)",
    "rhea(budget=30)",
    "pmcts(budget=30,bias=true,pruning=true)",
];

/// The seed of the match each agent plays in [`suite`].
pub const AGENT_SEED: u64 = 5;

/// A broken invariant: where it broke and what is wrong.
#[derive(Clone, PartialEq, Eq)]
pub struct Failure {
    /// The game's name ([`crate::game::GameInfo::name`]).
    pub game: String,
    /// The level's name, as the caller gave it.
    pub level: String,
    /// The match seed.
    pub seed: u64,
    /// The agent spec ([`agents_finish`]), if an agent was playing.
    pub agent: Option<String>,
    /// Actions played before the state at fault, if the fault is in one state.
    pub step: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} level {} seed {}", self.game, self.level, self.seed)?;
        if let Some(agent) = &self.agent {
            write!(f, " agent {agent}")?;
        }
        if let Some(step) = self.step {
            write!(f, " step {step}")?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// The message, as [`fmt::Display`] (what `.unwrap()` and failing tests print).
impl fmt::Debug for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Failure {}

/// Where a check is: builds a [`Failure`] for a reason.
struct Place<'a> {
    game: &'a str,
    level: &'a str,
    seed: u64,
    agent: Option<&'a str>,
}

impl Place<'_> {
    fn fail(&self, step: Option<usize>, reason: String) -> Failure {
        Failure {
            game: self.game.to_string(),
            level: self.level.to_string(),
            seed: self.seed,
            agent: self.agent.map(str::to_string),
            step,
            reason,
        }
    }

    /// `Ok` if `ok`, else the failure at `step` with the reason `why` gives.
    fn ensure(&self, ok: bool, step: usize, why: impl FnOnce() -> String) -> Result<(), Failure> {
        if ok {
            Ok(())
        } else {
            Err(self.fail(Some(step), why()))
        }
    }
}

/// Plays one uniformly random game of `game` on `level` (named `level_name` in failures) with
/// match seed `seed` ([`initial_state`]) and checks, at every step:
/// - the number of players is within [`crate::game::GameInfo`]'s bounds;
/// - a clone equals its original;
/// - the legal actions are empty exactly when the game is over ([`Game::turn`],
///   [`Game::is_terminal`]), the player to move is a seat, and what that player observes
///   ([`Game::observe`]) lists the same legal actions;
/// - every legal action applies ([`Game::try_apply`]), and [`Game::relist`] after it gives what
///   [`Game::list`] does, as does the listing kept up to date along the game;
/// - the round is within [`Game::max_rounds`], and the scores are finite, one per seat;
/// - the outcome appears only at the end and is a ranking of every seat;
///
/// and at the end that replaying the actions ([`replay`]) gives the same final state.
///
/// # Errors
///
/// The first broken rule, with the step (actions played) where it broke.
pub fn game_invariants<G: Game>(
    game: &G,
    level: &G::Level,
    level_name: &str,
    seed: u64,
) -> Result<usize, Failure> {
    let info = game.info();
    let at = Place {
        game: info.name,
        level: level_name,
        seed,
        agent: None,
    };
    let mut rng = derive_rng(seed, &[99]);
    let mut state = initial_state(game, level, seed);
    let players = game.num_players(&state);
    at.ensure(
        (info.min_players..=info.max_players).contains(&players),
        0,
        || format!("{players} players"),
    )?;
    let (mut legal, mut seen_legal, mut actions) = (Vec::new(), Vec::new(), Vec::new());
    let (mut listing, mut fresh) = (Listing::default(), Listing::default());
    game.list(&state, &mut listing);
    for step in 0.. {
        at.ensure(step < MAX_ACTIONS, step, || "runaway game".into())?;
        at.ensure(state.clone() == state, step, || "a clone differs".into())?;
        game.legal_actions(&state, &mut legal);
        at.ensure(listing.actions == legal, step, || {
            "the listing kept up to date differs from the legal actions".into()
        })?;
        let turn = game.turn(&state);
        at.ensure(legal.is_empty() == (turn == Turn::Terminal), step, || {
            format!("{} legal actions in turn {turn:?}", legal.len())
        })?;
        at.ensure(
            game.is_terminal(&state) == (turn == Turn::Terminal),
            step,
            || format!("is_terminal disagrees with turn {turn:?}"),
        )?;
        if let Some(max) = game.max_rounds() {
            let round = game.round(&state);
            at.ensure(round <= max, step, || {
                format!("round {round} past the cap {max}")
            })?;
        }
        let scores = game.scores(&state);
        at.ensure(
            scores.len() == players && scores.iter().all(|s| s.is_finite()),
            step,
            || format!("scores {scores:?} of {players} players"),
        )?;
        let Turn::Player(p) = turn else {
            let Some(o) = game.outcome(&state) else {
                return Err(at.fail(Some(step), "terminal without outcome".into()));
            };
            at.ensure(o.seats() == players, step, || {
                format!("{o:?} of {players} players")
            })?;
            at.ensure(Outcome::from_ranks(o.ranks()) == Some(o), step, || {
                format!("{o:?} is not a ranking")
            })?;
            break;
        };
        at.ensure(p < players, step, || format!("player {p} of {players}"))?;
        at.ensure(game.outcome(&state).is_none(), step, || {
            "outcome mid-game".into()
        })?;
        game.legal_actions(&game.observe(&state, p), &mut seen_legal);
        at.ensure(seen_legal == legal, step, || {
            format!("what player {p} observes lists other legal actions")
        })?;
        for &a in &legal {
            let mut next = state.clone();
            if let Err(e) = game.try_apply(&mut next, a) {
                return Err(at.fail(Some(step), format!("listed action refused: {e}")));
            }
            let mut after = listing.clone();
            game.relist(&mut after, a, &next);
            game.list(&next, &mut fresh);
            at.ensure(after.actions == fresh.actions, step, || {
                format!("relisting after {a:?} differs from a fresh listing")
            })?;
        }
        let a = legal[rng.random_range(0..legal.len())];
        game.apply(&mut state, a);
        game.relist(&mut listing, a, &state);
        actions.push(a);
    }
    let end = actions.len();
    let replayed = replay(game, level, seed, &actions)
        .map_err(|e| at.fail(Some(end), format!("replay failed: {e}")))?;
    at.ensure(replayed == state, end, || "replay differs".into())?;
    Ok(end)
}

/// Plays one random game of `game` on `level` (named `level_name` in failures) with match
/// seed `seed` and checks at every step that the game's portfolio ([`SearchSupport::portfolio`])
/// keeps the [`Portfolio`] contract: every proposal of [`Portfolio::assignments`] (on the state
/// and on what the player to move observes) and of [`Portfolio::sample`] (along the game, as a
/// rollout calls it) is a legal action, names a script of [`Portfolio::script_names`] and has
/// a value in [0, 1]. The script names must be distinct. Each action is a random proposal half
/// of the time (so that the game reaches the states the scripts lead to) and a uniformly
/// random legal action otherwise. Returns the number of actions played.
///
/// # Errors
///
/// The first broken rule, naming the script and the action, with the step where it broke.
pub fn portfolio_contract<G: SearchSupport>(
    game: &G,
    level: &G::Level,
    level_name: &str,
    seed: u64,
) -> Result<usize, Failure> {
    let at = Place {
        game: game.info().name,
        level: level_name,
        seed,
        agent: None,
    };
    let portfolio = game.portfolio();
    let names = portfolio.script_names();
    if let Some(i) = (1..names.len()).find(|&i| names[..i].contains(&names[i])) {
        return Err(at.fail(None, format!("script name `{}` appears twice", names[i])));
    }
    let mut rng = derive_rng(seed, &[98]);
    let mut state = initial_state(game, level, seed);
    let (mut legal, mut proposals, mut buf) = (Vec::new(), Vec::new(), Vec::new());
    let (mut last, mut step) = (None, 0);
    while let Turn::Player(p) = game.turn(&state) {
        at.ensure(step < MAX_ACTIONS, step, || "runaway game".into())?;
        game.legal_actions(&state, &mut legal);
        // The search proposes on what the player observes (at its root) and on full states.
        let seen = game.observe(&state, p);
        let views = [&seen, &state];
        let distinct = if seen == state { 1 } else { 2 };
        for view in &views[..distinct] {
            portfolio.assignments(game, view, &mut rng, &mut proposals);
            for a in &proposals {
                keeps_contract(&at, step, names, &legal, a, "proposed")?;
            }
        }
        if let Some(a) = portfolio.sample(game, &state, last, &mut rng, &mut buf) {
            keeps_contract(&at, step, names, &legal, &a, "sampled")?;
        }
        let a = if !proposals.is_empty() && rng.random_bool(0.5) {
            proposals[rng.random_range(0..proposals.len())].action
        } else {
            legal[rng.random_range(0..legal.len())]
        };
        game.apply(&mut state, a);
        last = Some(a);
        step += 1;
    }
    Ok(step)
}

/// `Ok` if proposal `a` keeps the [`Portfolio`] contract in a state with the `legal` actions.
fn keeps_contract<A: std::fmt::Debug + PartialEq>(
    at: &Place<'_>,
    step: usize,
    names: &[&str],
    legal: &[A],
    a: &Assignment<A>,
    how: &str,
) -> Result<(), Failure> {
    let Some(name) = names.get(usize::from(a.script)) else {
        return Err(at.fail(
            Some(step),
            format!(
                "{how} {:?} for script #{}, which does not exist ({} scripts)",
                a.action,
                a.script,
                names.len()
            ),
        ));
    };
    at.ensure(legal.contains(&a.action), step, || {
        format!("script `{name}` {how} the illegal action {:?}", a.action)
    })?;
    at.ensure((0.0..=1.0).contains(&a.value), step, || {
        format!(
            "script `{name}` {how} {:?} with value {}, outside [0, 1]",
            a.action, a.value
        )
    })
}

/// Plays one match on `level` (named `level_name` in failures) with seed `seed` for each of
/// the agent specs `agents` ([`build_agent`]), that agent in every seat, and checks that it
/// ends (not stopped by [`MAX_ACTIONS`]) with an outcome for every seat, having played legal
/// actions only ([`play_match`] checks each, and the game is replayed).
///
/// # Errors
///
/// The first agent that does not build, fails ([`crate::Error::IllegalChoice`]) or does not
/// finish.
pub fn agents_finish<G: SearchSupport>(
    game: &G,
    level: &G::Level,
    level_name: &str,
    agents: &[&str],
    seed: u64,
) -> Result<(), Failure> {
    let players = game.num_players(&initial_state(game, level, seed));
    for &spec in agents {
        let at = Place {
            game: game.info().name,
            level: level_name,
            seed,
            agent: Some(spec),
        };
        let mut seats = (0..players)
            .map(|_| build_agent(game, spec))
            .collect::<crate::Result<Vec<Box<dyn Agent<G>>>>>()
            .map_err(|e| at.fail(None, e.to_string()))?;
        let record = play_match(game, level, &mut seats, seed, |_, _| {})
            .map_err(|e| at.fail(None, e.to_string()))?;
        let end = record.actions.len();
        at.ensure(!record.capped, end, || {
            format!("stopped after {MAX_ACTIONS} actions")
        })?;
        let Some(o) = record.outcome else {
            return Err(at.fail(Some(end), "no outcome".into()));
        };
        at.ensure(o.seats() == players, end, || {
            format!("{o:?} of {players} players")
        })?;
        let last = replay(game, level, record.seed, &record.actions)
            .map_err(|e| at.fail(Some(end), format!("replay failed: {e}")))?;
        at.ensure(game.is_terminal(&last), end, || {
            "the replayed game is not over".into()
        })?;
    }
    Ok(())
}

/// The whole suite on `levels` (name, level): [`game_invariants`] and
/// [`portfolio_contract`] for every level and seed of `seeds`, then [`agents_finish`] with
/// [`AGENTS`] on every level (match seed [`AGENT_SEED`]).
///
/// # Errors
///
/// The first failure.
pub fn suite<G: SearchSupport>(
    game: &G,
    levels: &[(&str, G::Level)],
    seeds: Range<u64>,
) -> Result<(), Failure> {
    for (name, level) in levels {
        for seed in seeds.clone() {
            game_invariants(game, level, name, seed)?;
            portfolio_contract(game, level, name, seed)?;
        }
    }
    for (name, level) in levels {
        agents_finish(game, level, name, &AGENTS, AGENT_SEED)?;
    }
    Ok(())
}
