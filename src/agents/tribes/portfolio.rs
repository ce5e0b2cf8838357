//! [`TribesPortfolio`]: every script of [`super::scripts`], applied to every actor of the
//! tribe to move (spec §15.5; Java `SimplePortfolio.produceActionAssignments`).

use std::cell::RefCell;

use super::scripts::{SCRIPT_NAMES, SCRIPTS, ScriptCtx, ScriptScratch, scripts_for};
use crate::agent::{Assignment, Portfolio};
use crate::game::{ActionGroup, Game, GroupedActions};
use crate::games::tribes::{Action, ActionKind, Scope, State, TribesGame, legal};
use crate::rng::Rng;
use rand::RngExt;

/// The 11 scripts whose weights MAP-Elites evolves, in genome order (spec §15.5): the six
/// SPAWN scripts, then the five RESEARCH_TECH scripts.
pub const EVOLVED_WEIGHTS: [&str; 11] = [
    "spawn.strongest",
    "spawn.defensive",
    "spawn.cheapest",
    "spawn.fastest",
    "spawn.max_hp",
    "spawn.range",
    "research.farms",
    "research.naval",
    "research.mountains",
    "research.range",
    "research.roads",
];

/// Per-thread buffers, reused by every call (no allocation once grown).
#[derive(Default)]
struct Buffers {
    grouped: GroupedActions<Action>,
    scratch: ScriptScratch,
    /// The actions of the drawn group.
    members: Vec<Action>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// Runs `f` with this thread's buffers (a nested call, never made by the crate, gets fresh
/// ones).
fn with_buffers<R>(f: impl FnOnce(&mut Buffers) -> R) -> R {
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut held) => f(&mut held),
        Err(_) => f(&mut Buffers::default()),
    })
}

/// The Tribes portfolio: for each actor of the active tribe (units in slot order, then cities,
/// then the tribe) and each action kind in [`ActionKind`] order, every script of that kind is
/// given the actor's legal actions of the kind and may propose one of them. Proposals are
/// deduplicated by (actor, action), the first one kept. DESTROY and DISBAND have no script and
/// are never proposed.
#[derive(Clone, Copy, Debug, Default)]
pub struct TribesPortfolio;

impl TribesPortfolio {
    /// The portfolio.
    pub fn new() -> Self {
        TribesPortfolio
    }
}

/// Actor classes in the order the portfolio visits them.
const CLASS_ORDER: [Scope; 3] = [Scope::Unit, Scope::City, Scope::Tribe];

impl Portfolio<TribesGame> for TribesPortfolio {
    fn script_names(&self) -> &[&'static str] {
        &SCRIPT_NAMES
    }

    fn sample(
        &self,
        game: &TribesGame,
        state: &State,
        rng: &mut Rng,
        _buf: &mut Vec<Assignment<Action>>,
    ) -> Option<Assignment<Action>> {
        Self::sample_pair(game, state, rng)
    }

    fn assignments(
        &self,
        game: &TribesGame,
        state: &State,
        rng: &mut Rng,
        out: &mut Vec<Assignment<Action>>,
    ) {
        out.clear();
        with_buffers(
            |Buffers {
                 grouped, scratch, ..
             }| {
                game.grouped_actions(state, grouped);
                let mut ctx = ScriptCtx::new(game, state, scratch);
                for class in CLASS_ORDER {
                    let groups = &grouped.groups;
                    let mut i = 0;
                    while i < groups.len() {
                        let actor = groups[i].actor;
                        let mut j = i + 1;
                        while j < groups.len() && groups[j].actor == actor {
                            j += 1;
                        }
                        if actor.class == class as u8 {
                            actor_assignments(&mut ctx, grouped, &groups[i..j], rng, out);
                        }
                        i = j;
                    }
                }
            },
        );
    }
}

impl TribesPortfolio {
    /// The cheap rollout draw of [`Portfolio::sample`]: a uniformly drawn (actor group, script)
    /// pair whose script is run alone, redrawn (up to 16 times) while the script proposes
    /// nothing. Groups are counted from [`legal::legal_action_groups`] and only the drawn one
    /// is listed in full.
    pub fn sample_pair(
        game: &TribesGame,
        state: &State,
        rng: &mut Rng,
    ) -> Option<Assignment<Action>> {
        with_buffers(
            |Buffers {
                 grouped,
                 scratch,
                 members,
             }| {
                let lister = legal::legal_action_groups(&game.rules, state, &mut grouped.actions);
                grouped.regroup(|a| (game.actor(state, a), game.action_kind(a)));
                let count = |g: &ActionGroup| {
                    ActionKind::from_index(g.kind as usize).map_or(0, |k| scripts_for(k).len())
                };
                let total: usize = grouped.groups.iter().map(count).sum();
                if total == 0 {
                    return None;
                }
                let mut ctx = ScriptCtx::new(game, state, scratch);
                for _ in 0..16 {
                    let mut r = rng.random_range(0..total);
                    for g in &grouped.groups {
                        let c = count(g);
                        if r >= c {
                            r -= c;
                            continue;
                        }
                        let kind = ActionKind::from_index(g.kind as usize)?;
                        let id = scripts_for(kind).nth(r)?;
                        lister.group(&game.rules, state, grouped.actions[g.start], members);
                        let actions = &members[..];
                        if let Some((action, value)) = (SCRIPTS[id].run)(&mut ctx, actions, rng) {
                            return Some(Assignment {
                                action,
                                script: id as u16,
                                value: value.clamp(0.0, 1.0),
                            });
                        }
                        break;
                    }
                }
                None
            },
        )
    }
}

/// Runs the scripts for one actor's groups (kinds in enum order) and appends its proposals.
fn actor_assignments(
    ctx: &mut ScriptCtx<'_>,
    grouped: &GroupedActions<Action>,
    groups: &[ActionGroup],
    rng: &mut Rng,
    out: &mut Vec<Assignment<Action>>,
) {
    let mut order = [(0u8, 0usize); ActionKind::COUNT];
    let n = groups.len().min(order.len());
    for (slot, (k, g)) in order.iter_mut().zip(groups.iter().enumerate()) {
        *slot = (g.kind, k);
    }
    let order = &mut order[..n];
    order.sort_unstable();
    let start = out.len();
    for &(kind, g) in order.iter() {
        let Some(kind) = ActionKind::from_index(kind as usize) else {
            continue;
        };
        let actions = grouped.group(&groups[g]);
        for id in scripts_for(kind) {
            let Some((action, value)) = (SCRIPTS[id].run)(ctx, actions, rng) else {
                continue;
            };
            debug_assert!(
                (0.0..=1.0).contains(&value),
                "{} valued {action:?} at {value}",
                SCRIPTS[id].name
            );
            if !out[start..].iter().any(|x| x.action == action) {
                out.push(Assignment {
                    action,
                    script: id as u16,
                    value: value.clamp(0.0, 1.0),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tribes::builtin;

    #[test]
    fn evolved_weights_name_scripts_in_genome_order() {
        let ids: Vec<usize> = EVOLVED_WEIGHTS
            .iter()
            .map(|n| super::super::scripts::script_id(n).expect(n))
            .collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    }

    #[test]
    fn first_state_proposes_end_turn_and_a_move() {
        let game = TribesGame::default();
        let (_, level) = builtin::all().remove(0);
        let state = game.new_initial_state(&level, 1);
        let mut out = Vec::new();
        let mut rng = crate::rng::rng_from_seed(0);
        TribesPortfolio.assignments(&game, &state, &mut rng, &mut out);
        let kinds: Vec<ActionKind> = out.iter().map(|a| a.action.kind).collect();
        assert!(kinds.contains(&ActionKind::EndTurn), "{out:?}");
        assert!(kinds.contains(&ActionKind::Move), "{out:?}");
    }
}
