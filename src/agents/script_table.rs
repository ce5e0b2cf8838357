//! A generic script-table portfolio: a game lists its scripts (each serving one action kind),
//! the order in which its actor classes are visited and the context its scripts read, by
//! implementing [`ScriptTable`]; every such table is a [`Portfolio`] with the traversal,
//! de-duplication and cheap rollout sampling written here once.
//!
//! **Listing** ([`Portfolio::assignments`]): for each actor class in
//! [`ScriptTable::class_order`], each actor of that class (in the order of
//! [`Game::grouped_actions`]), and each of the actor's action groups in increasing kind, every
//! script serving the group's kind ([`ScriptTable::scripts_for`]) is handed the group's actions
//! and may propose one of them. An actor's proposals are de-duplicated by action, the first
//! kept. A kind no script serves proposes nothing.
//!
//! **Sampling** ([`Portfolio::sample`]): an (actor group, script) pair is drawn uniformly among
//! all pairs whose script serves the group's kind, and only that script is run; the draw is
//! repeated (at most 16 times) while the script proposes nothing. Only the groups must be known,
//! so a game may list them cheaply ([`ScriptTable::list_groups`]) and list the drawn group in
//! full ([`ScriptTable::group_actions`]).
//!
//! Both reuse per-thread buffers (grown once, never freed), so that neither allocates once warm.

use std::any::Any;
use std::cell::RefCell;
use std::ops::Range;

use rand::RngExt;

use crate::agent::{Assignment, Portfolio};
use crate::error::{Error, Result};
use crate::game::{ActionGroup, Game, GroupedActions};
use crate::rng::Rng;

/// The action type of the game of table `T`.
type ActionOf<T> = <<T as ScriptTable>::Game as Game>::Action;
/// The state type of the game of table `T`.
type StateOf<T> = <<T as ScriptTable>::Game as Game>::State;

/// How many (group, script) pairs [`Portfolio::sample`] draws before giving up.
const SAMPLE_TRIES: usize = 16;

/// A game's script table. Implementing it makes the type a [`Portfolio`] of [`Self::Game`].
///
/// A script has an id (its index in [`ScriptTable::names`]), serves one action kind, and is
/// run by [`ScriptTable::run`] on one actor's legal actions of that kind (never empty).
pub trait ScriptTable: Send + Sync + 'static {
    /// The game the scripts play.
    type Game: Game<Action: 'static>;
    /// Reusable buffers of the scripts, kept one per thread (so that running them does not
    /// allocate); [`ScriptTable::context`] prepares them for a call.
    type Scratch: Default + 'static;
    /// What a script sees besides its actions, built once per portfolio call.
    type Ctx<'a>;
    /// What [`ScriptTable::list_groups`] hands to [`ScriptTable::group_actions`] (`()` for a
    /// table that keeps the default full listing).
    type Lister: Default;

    /// Stable script names (`spawn.defensive`, …); a script's index is its id.
    fn names(&self) -> &[&'static str];

    /// The ids of the scripts serving action kind `kind`, in the order they run; empty when
    /// none does (or `kind` is unknown).
    fn scripts_for(&self, kind: u8) -> Range<usize>;

    /// The actor classes ([`crate::game::Actor::class`]) in the order their actors are visited;
    /// actors of a class not listed propose nothing.
    fn class_order(&self) -> &[u8];

    /// The context for one call on `state`, using (and preparing) this thread's `scratch`.
    fn context<'a>(
        &self,
        game: &'a Self::Game,
        state: &'a StateOf<Self>,
        scratch: &'a mut Self::Scratch,
    ) -> Self::Ctx<'a>;

    /// Runs script `id` on one actor's legal `actions` of the script's kind: at most one of
    /// them, with a value in [0, 1].
    fn run(
        &self,
        id: usize,
        ctx: &mut Self::Ctx<'_>,
        actions: &[ActionOf<Self>],
        rng: &mut Rng,
    ) -> Option<(ActionOf<Self>, f64)>;

    /// Fills `out` with the (actor, kind) groups of `state` for [`Portfolio::sample`]. Each
    /// group needs only its first action when [`ScriptTable::group_actions`] lists the rest.
    /// By default the full [`Game::grouped_actions`].
    fn list_groups(
        &self,
        game: &Self::Game,
        state: &StateOf<Self>,
        out: &mut GroupedActions<ActionOf<Self>>,
    ) -> Self::Lister {
        game.grouped_actions(state, out);
        Self::Lister::default()
    }

    /// All actions of `group` of the listing `grouped` that [`ScriptTable::list_groups`] made
    /// (with `lister`) for `state`, listed into `buf` if need be. By default the group as
    /// listed.
    fn group_actions<'b>(
        &self,
        _lister: &Self::Lister,
        _game: &Self::Game,
        _state: &StateOf<Self>,
        grouped: &'b GroupedActions<ActionOf<Self>>,
        group: &ActionGroup,
        _buf: &'b mut Vec<ActionOf<Self>>,
    ) -> &'b [ActionOf<Self>] {
        grouped.group(group)
    }
}

impl<T: ScriptTable> Portfolio<T::Game> for T {
    fn script_names(&self) -> &[&'static str] {
        self.names()
    }

    fn assignments(
        &self,
        game: &T::Game,
        state: &StateOf<T>,
        rng: &mut Rng,
        out: &mut Vec<Assignment<ActionOf<T>>>,
    ) {
        out.clear();
        with_buffers(
            |Buffers::<T> {
                 grouped,
                 scratch,
                 order,
                 ..
             }| {
                game.grouped_actions(state, grouped);
                let mut ctx = self.context(game, state, scratch);
                for &class in self.class_order() {
                    let groups = &grouped.groups;
                    let mut i = 0;
                    while i < groups.len() {
                        let actor = groups[i].actor;
                        let mut j = i + 1;
                        while j < groups.len() && groups[j].actor == actor {
                            j += 1;
                        }
                        if actor.class == class {
                            let run = ActorRun {
                                grouped,
                                groups: &groups[i..j],
                            };
                            actor_assignments(self, &mut ctx, run, order, rng, out);
                        }
                        i = j;
                    }
                }
            },
        );
    }

    fn sample(
        &self,
        game: &T::Game,
        state: &StateOf<T>,
        rng: &mut Rng,
        _buf: &mut Vec<Assignment<ActionOf<T>>>,
    ) -> Option<Assignment<ActionOf<T>>> {
        with_buffers(
            |Buffers::<T> {
                 grouped,
                 scratch,
                 members,
                 ..
             }| {
                let lister = self.list_groups(game, state, grouped);
                let count = |g: &ActionGroup| self.scripts_for(g.kind).len();
                let total: usize = grouped.groups.iter().map(count).sum();
                if total == 0 {
                    return None;
                }
                let mut ctx = self.context(game, state, scratch);
                for _ in 0..SAMPLE_TRIES {
                    let mut r = rng.random_range(0..total);
                    for g in &grouped.groups {
                        let c = count(g);
                        if r >= c {
                            r -= c;
                            continue;
                        }
                        let id = self.scripts_for(g.kind).start + r;
                        let actions = self.group_actions(&lister, game, state, grouped, g, members);
                        if let Some((action, value)) = self.run(id, &mut ctx, actions, rng) {
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

/// The consecutive groups of one actor in a listing.
struct ActorRun<'a, A> {
    grouped: &'a GroupedActions<A>,
    groups: &'a [ActionGroup],
}

/// Runs the scripts for one actor's groups (kinds in increasing order) and appends its
/// proposals to `out`, each action once. `order` is a reusable buffer.
fn actor_assignments<T: ScriptTable>(
    table: &T,
    ctx: &mut T::Ctx<'_>,
    run: ActorRun<'_, ActionOf<T>>,
    order: &mut Vec<(u8, usize)>,
    rng: &mut Rng,
    out: &mut Vec<Assignment<ActionOf<T>>>,
) {
    order.clear();
    order.extend(run.groups.iter().enumerate().map(|(k, g)| (g.kind, k)));
    order.sort_unstable();
    let start = out.len();
    for &(kind, g) in order.iter() {
        let ids = table.scripts_for(kind);
        if ids.is_empty() {
            continue;
        }
        let actions = run.grouped.group(&run.groups[g]);
        for id in ids {
            let Some((action, value)) = table.run(id, ctx, actions, rng) else {
                continue;
            };
            debug_assert!(
                (0.0..=1.0).contains(&value),
                "{} valued {action:?} at {value}",
                table.names()[id]
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

/// The per-thread buffers of table `T`.
struct Buffers<T: ScriptTable> {
    /// The listing of the state.
    grouped: GroupedActions<ActionOf<T>>,
    /// The scripts' buffers.
    scratch: T::Scratch,
    /// The actions of the drawn group when sampling.
    members: Vec<ActionOf<T>>,
    /// One actor's groups sorted by kind.
    order: Vec<(u8, usize)>,
}

impl<T: ScriptTable> Default for Buffers<T> {
    fn default() -> Self {
        Buffers {
            grouped: GroupedActions::default(),
            scratch: T::Scratch::default(),
            members: Vec::new(),
            order: Vec::new(),
        }
    }
}

thread_local! {
    /// This thread's [`Buffers`], one per table type (a handful at most).
    static BUFFERS: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's buffers for table `T` (a nested call, never made by the crate,
/// gets fresh ones).
fn with_buffers<T: ScriptTable, R>(f: impl FnOnce(&mut Buffers<T>) -> R) -> R {
    BUFFERS.with(|cell| {
        let Ok(mut all) = cell.try_borrow_mut() else {
            return f(&mut Buffers::default());
        };
        let i = match all.iter().position(|b| b.is::<Buffers<T>>()) {
            Some(i) => i,
            None => {
                all.push(Box::new(Buffers::<T>::default()));
                all.len() - 1
            }
        };
        match all[i].downcast_mut::<Buffers<T>>() {
            Some(buffers) => f(buffers),
            None => f(&mut Buffers::default()),
        }
    })
}

/// Script weights from `(name, weight)` pairs, every other script weighing `default`; the
/// result is indexed by script id (`names` as [`Portfolio::script_names`] lists them).
///
/// # Errors
///
/// [`Error::Config`] naming `field` for an unknown script name (listing the known ones) or a
/// weight that is negative or not finite.
pub fn weights_by_name<N: AsRef<str>>(
    names: &[&str],
    pairs: impl IntoIterator<Item = (N, f64)>,
    default: f64,
    field: &str,
) -> Result<Vec<f64>> {
    let mut weights = vec![default; names.len()];
    for (name, w) in pairs {
        let name = name.as_ref();
        let i = names.iter().position(|n| *n == name).ok_or_else(|| {
            Error::config(
                field,
                format!("unknown script `{name}` (known: {})", names.join(", ")),
            )
        })?;
        if !w.is_finite() || w < 0.0 {
            return Err(Error::config(
                field,
                format!("weight of `{name}` must be a finite number ≥ 0, got {w}"),
            ));
        }
        weights[i] = w;
    }
    Ok(weights)
}
