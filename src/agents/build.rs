//! The one factory that builds agents from specs: the table of the generic agents by spec name,
//! then the game's own agents ([`SearchSupport::game_agent`]); each agent reads its own fields
//! ([`FromSpec`]), and a field nobody read is an error ([`AgentSpec::finish`]).

use std::path::Path;

use super::compat::SearchCompat;
use super::end_turn::EndTurnAgent;
use super::from_spec::FromSpec;
use super::mcts::Mcts;
use super::osla::Osla;
use super::portfolio_mcts::PortfolioMcts;
use super::random::RandomAgent;
use super::rhea::Rhea;
use super::roster::{ROSTER_AGENT, member_spec};
use crate::agent::{Agent, AgentSpec, SearchSupport, StyleField};
use crate::error::{Error, Result};

/// Builds one kind of agent (see [`builders`]).
type Builder<G> = fn(&G, &mut AgentSpec, SearchCompat) -> Result<Box<dyn Agent<G>>>;

/// A generic agent as [`build_agent`] knows it: its spec name, its builder and its style
/// strength ([`FromSpec::STYLE`]).
type Entry<G> = (&'static str, Builder<G>, Option<StyleField>);

/// Every agent [`build_agent`] knows, by spec name, in the order the "unknown agent" error
/// lists them.
fn builders<G: SearchSupport>() -> [Entry<G>; 7] {
    [
        entry::<G, RandomAgent<G::Action>>("random"),
        entry::<G, EndTurnAgent<G::Action>>("end_turn"),
        ("rule", rule_agent::<G>, None),
        entry::<G, Osla<G>>("osla"),
        entry::<G, Mcts<G>>("mcts"),
        entry::<G, Rhea<G>>("rhea"),
        entry::<G, PortfolioMcts<G>>("pmcts"),
    ]
}

/// The table entry of agent type `A` under `name`.
fn entry<G: SearchSupport, A: FromSpec<G>>(name: &'static str) -> Entry<G> {
    (name, boxed::<G, A>, A::STYLE)
}

/// The style strength of the agent `spec` names, if it has one ([`StyleField`]): a generic
/// agent's own declaration ([`FromSpec::STYLE`]: Portfolio MCTS's `persona`), else the game's
/// for its own agents ([`SearchSupport::game_style_field`]).
pub fn style_field<G: SearchSupport>(game: &G, spec: &AgentSpec) -> Option<StyleField> {
    match builders::<G>()
        .iter()
        .find(|(name, ..)| *name == spec.name())
    {
        Some(&(_, _, style)) => style,
        None => game.game_style_field(spec),
    }
}

fn boxed<G: SearchSupport, A: FromSpec<G>>(
    game: &G,
    spec: &mut AgentSpec,
    compat: SearchCompat,
) -> Result<Box<dyn Agent<G>>> {
    Ok(Box::new(A::from_spec(game, spec, compat)?))
}

fn rule_agent<G: SearchSupport>(
    game: &G,
    _: &mut AgentSpec,
    _: SearchCompat,
) -> Result<Box<dyn Agent<G>>> {
    game.rule_agent()
        .ok_or_else(|| Error::config("agents", "this game has no rule-based agent"))
}

/// Builds an agent for `game` from a spec string: `random`, `end_turn`, `rule`,
/// `osla(budget)`, `mcts(budget,k,depth,rollouts,prioritize_root)`,
/// `rhea(budget,length,mutation)`,
/// `pmcts(budget,bias,pruning,weights=[script=w,...],c,depth,rollouts,rollout=sampled|exact,
/// k_init_mult,t_mult,a_mult,b)`, or a name of the game's own agents
/// ([`SearchSupport::game_agent`]). Budgets default to 2000 FM calls; the game's
/// [`SearchSupport::java_compat`] switches the search agents' Java quirks
/// ([`compat`](super::compat)). `model=FILE` gives OSLA, MCTS, RHEA and P-MCTS a trained
/// model's evaluation instead of the game's (`from_spec::take_knowledge`).
///
/// # Errors
///
/// [`Error::Config`] if the spec is malformed, names an unknown agent (field `agents`), or has
/// a bad or unknown field (named after the field), or an unknown script in `weights`.
pub fn build_agent<G: SearchSupport>(game: &G, spec: &str) -> Result<Box<dyn Agent<G>>> {
    build_agent_from(game, AgentSpec::parse(spec)?)
}

/// Builds an agent for `game` from a spec string whose relative file paths
/// ([`FILE_FIELDS`](crate::agent::spec::FILE_FIELDS), such as a bot file's `config=`) are
/// relative to the folder `base` (a run directory, whose agents read the copies it keeps)
/// rather than to the working folder.
///
/// # Errors
///
/// As [`build_agent`].
pub fn build_agent_at<G: SearchSupport>(
    game: &G,
    spec: &str,
    base: &Path,
) -> Result<Box<dyn Agent<G>>> {
    let mut spec = AgentSpec::parse(spec)?;
    spec.map_files(|p| base.join(p).to_string_lossy().into_owned());
    build_agent_from(game, spec)
}

/// Builds an agent for `game` from a parsed spec (or a TOML table, [`AgentSpec::from_toml`]).
///
/// # Errors
///
/// As [`build_agent`], except for syntax errors.
pub fn build_agent_from<G: SearchSupport>(
    game: &G,
    mut spec: AgentSpec,
) -> Result<Box<dyn Agent<G>>> {
    if spec.name() == ROSTER_AGENT {
        let member = member_spec(&mut spec)?;
        spec.finish()?;
        return build_agent_from(game, member);
    }
    let table = builders::<G>();
    let agent = match table.iter().find(|(name, ..)| *name == spec.name()) {
        Some(&(_, build, _)) => build(game, &mut spec, SearchCompat::of(game))?,
        None => match game.game_agent(&mut spec) {
            Some(agent) => agent?,
            None => {
                let mut names: Vec<String> =
                    table.iter().map(|(name, ..)| name.to_string()).collect();
                names.extend(game.game_agent_names());
                names.push(ROSTER_AGENT.to_string());
                return Err(Error::config(
                    "agents",
                    format!(
                        "unknown agent `{}` (known agents: {})",
                        spec.name(),
                        names.join(", ")
                    ),
                ));
            }
        },
    };
    spec.finish()?;
    Ok(agent)
}
