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
//! kept (an actor's groups are expected to be adjacent in the listing; each run of them is
//! de-duplicated on its own). A kind no script serves proposes nothing.
//!
//! **Sampling** ([`Portfolio::sample`]): an (actor group, script) pair is drawn uniformly among
//! all pairs whose script serves the group's kind (actors of a visited class only), and only
//! that script is run; the draw is repeated (at most 16 times) while the script proposes
//! nothing. Only the groups must be known, so a game may list them cheaply
//! ([`ScriptTable::list_groups`]), update them along a rollout ([`ScriptTable::relist_groups`])
//! and list the drawn group in full ([`ScriptTable::group_actions`]; a group drawn again in
//! the same call is not listed again, nor one whose script
//! [cannot propose](ScriptTable::may_propose) anything for it).
//! [`Portfolio::sample_weighted`] draws the pair ∝ its script's weight instead (uniformly when
//! every pair weighs 0), so that equal weights keep the uniform draw's mix of action kinds.
//!
//! Both reuse per-thread buffers (grown once, never freed), so that neither allocates once warm.
//!
//! Scripts are weighted by name: [`Portfolio::script_names`] are [`ScriptTable::names`], which
//! `weights=[name=w,...]` is resolved against
//! ([`crate::agents::portfolio_mcts::take_script_weights`]).

use std::any::Any;
use std::cell::RefCell;
use std::ops::Range;

use rand::RngExt;

use crate::agent::{Assignment, Portfolio};
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
    /// What [`ScriptTable::list_groups`] keeps for [`ScriptTable::relist_groups`] and
    /// [`ScriptTable::group_actions`] (`()` for a table that keeps the default full listing);
    /// one per thread, reused from call to call.
    type Lister: Default + 'static;

    /// Stable script names (`spawn.defensive`, …); a script's index is its id.
    fn names(&self) -> &[&'static str];

    /// The ids of the scripts serving action kind `kind`, in the order they run; empty when
    /// none does (or `kind` is unknown).
    fn scripts_for(&self, kind: u8) -> Range<usize>;

    /// The actor classes ([`crate::game::Actor::class`]) in the order their actors are visited;
    /// actors of a class not listed propose nothing.
    fn class_order(&self) -> &[u8];

    /// The context for one call on `state`, using (and preparing) this thread's `scratch`.
    /// `lister` is given when sampling: what [`ScriptTable::list_groups`] or
    /// [`ScriptTable::relist_groups`] made for `state`, from which a table may learn what
    /// changed since the previous call.
    fn context<'a>(
        &self,
        game: &'a Self::Game,
        state: &'a StateOf<Self>,
        scratch: &'a mut Self::Scratch,
        lister: Option<&Self::Lister>,
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

    /// False if script `id` would propose nothing for the group whose first action is
    /// `first`, known without listing the group: [`Portfolio::sample`] then lists it not and
    /// draws again. It must be false only where [`ScriptTable::run`] would return `None` on
    /// the group's actions without drawing a random number, so that skipping the run changes
    /// no draw. By default true.
    fn may_propose(&self, id: usize, ctx: &mut Self::Ctx<'_>, first: ActionOf<Self>) -> bool {
        let _ = (id, ctx, first);
        true
    }

    /// Fills `out` with the (actor, kind) groups of `state` for [`Portfolio::sample`], and
    /// `lister` with what listing them further needs. Each group needs only its first action
    /// when [`ScriptTable::group_actions`] lists the rest. By default the full
    /// [`Game::grouped_actions`].
    fn list_groups(
        &self,
        game: &Self::Game,
        state: &StateOf<Self>,
        out: &mut GroupedActions<ActionOf<Self>>,
        lister: &mut Self::Lister,
    ) {
        let _ = lister;
        game.grouped_actions(state, out);
    }

    /// [`ScriptTable::list_groups`] for `state`, reached by `last` from the state `out` and
    /// `lister` were made for: a table may update them instead of listing afresh (the
    /// default).
    fn relist_groups(
        &self,
        game: &Self::Game,
        last: ActionOf<Self>,
        state: &StateOf<Self>,
        out: &mut GroupedActions<ActionOf<Self>>,
        lister: &mut Self::Lister,
    ) {
        let _ = last;
        self.list_groups(game, state, out, lister);
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
                let mut ctx = self.context(game, state, scratch, None);
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
        last: Option<ActionOf<T>>,
        rng: &mut Rng,
        _buf: &mut Vec<Assignment<ActionOf<T>>>,
    ) -> Option<Assignment<ActionOf<T>>> {
        sample_pair(self, game, state, last, None, rng)
    }

    /// Draws an (actor group, script) pair ∝ the script's weight (uniformly if every pair
    /// weighs 0) and runs only that script, as [`Portfolio::sample`] does.
    fn sample_weighted(
        &self,
        game: &T::Game,
        state: &StateOf<T>,
        last: Option<ActionOf<T>>,
        weights: &[f64],
        rng: &mut Rng,
        _buf: &mut Vec<Assignment<ActionOf<T>>>,
    ) -> Option<Assignment<ActionOf<T>>> {
        sample_pair(self, game, state, last, Some(weights), rng)
    }
}

/// One rollout proposal of `this` in `state` (see the module docs): an (actor group, script)
/// pair drawn uniformly, or ∝ `weights[script]` (0.5 beyond `weights`) when given and some
/// pair weighs more than 0; only the drawn script runs, and the draw is repeated (at most
/// [`SAMPLE_TRIES`] times) while it proposes nothing.
fn sample_pair<T: ScriptTable>(
    this: &T,
    game: &T::Game,
    state: &StateOf<T>,
    last: Option<ActionOf<T>>,
    weights: Option<&[f64]>,
    rng: &mut Rng,
) -> Option<Assignment<ActionOf<T>>> {
    with_buffers(
        |Buffers::<T> {
             sampled: grouped,
             lister,
             scratch,
             members,
             ..
         }| {
            match last {
                Some(a) => this.relist_groups(game, a, state, grouped, lister),
                None => this.list_groups(game, state, grouped, lister),
            }
            let lister = &*lister;
            let classes = this.class_order();
            let every_class = (0..game.info().actor_classes.len())
                .all(|c| u8::try_from(c).is_ok_and(|c| classes.contains(&c)));
            let count = |g: &ActionGroup| {
                if every_class || classes.contains(&g.actor.class) {
                    this.scripts_for(g.kind).len()
                } else {
                    0
                }
            };
            let total: usize = grouped.groups.iter().map(count).sum();
            if total == 0 {
                return None;
            }
            let weight = |id: usize| weights.map_or(1.0, |w| w.get(id).map_or(0.5, |w| *w));
            let group_weight = |g: &ActionGroup| {
                if count(g) == 0 {
                    0.0
                } else {
                    this.scripts_for(g.kind).map(weight).sum::<f64>()
                }
            };
            let weighted_total: f64 = match weights {
                Some(_) => grouped.groups.iter().map(group_weight).sum(),
                None => 0.0,
            };
            let mut ctx = this.context(game, state, scratch, Some(lister));
            // The group last listed (by its start) and its actions: a redraw of the same group
            // lists it once.
            let mut listed: Option<(usize, &[ActionOf<T>])> = None;
            for _ in 0..SAMPLE_TRIES {
                let drawn = if weighted_total > 0.0 {
                    draw_weighted(
                        &grouped.groups,
                        weighted_total,
                        group_weight,
                        |g, r| {
                            let mut r = r;
                            for id in this.scripts_for(g.kind) {
                                r -= weight(id);
                                if r < 0.0 {
                                    return id;
                                }
                            }
                            this.scripts_for(g.kind)
                                .rev()
                                .find(|&id| weight(id) > 0.0)
                                .unwrap_or(0)
                        },
                        rng,
                    )
                } else {
                    let mut r = rng.random_range(0..total);
                    grouped.groups.iter().find_map(|g| {
                        let c = count(g);
                        if r >= c {
                            r -= c;
                            None
                        } else {
                            Some((g, this.scripts_for(g.kind).start + r))
                        }
                    })
                };
                let Some((g, id)) = drawn else { break };
                if !this.may_propose(id, &mut ctx, grouped.actions[g.start]) {
                    continue;
                }
                let actions = match listed {
                    Some((start, actions)) if start == g.start => actions,
                    _ => this.group_actions(lister, game, state, grouped, g, members),
                };
                listed = Some((g.start, actions));
                if let Some((action, value)) = this.run(id, &mut ctx, actions, rng) {
                    return Some(Assignment {
                        action,
                        script: id as u16,
                        value: value.clamp(0.0, 1.0),
                    });
                }
            }
            None
        },
    )
}

/// A group drawn ∝ `group_weight` (summing to `total` over `groups`) and the script `pick`
/// chooses in it from the rest of the draw (a number below the group's weight).
fn draw_weighted<'g>(
    groups: &'g [ActionGroup],
    total: f64,
    group_weight: impl Fn(&ActionGroup) -> f64,
    pick: impl Fn(&ActionGroup, f64) -> usize,
    rng: &mut Rng,
) -> Option<(&'g ActionGroup, usize)> {
    let mut r = rng.random::<f64>() * total;
    let mut last = None;
    for g in groups {
        let w = group_weight(g);
        if w <= 0.0 {
            continue;
        }
        if r < w {
            return Some((g, pick(g, r)));
        }
        r -= w;
        last = Some(g);
    }
    // Rounding left `r` past the last group of weight: take that group's last script.
    last.map(|g| (g, pick(g, f64::INFINITY)))
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
    /// The groups of the state last sampled from, and what listing them further needs; kept
    /// apart from `grouped` so that a rollout's listing survives the listings between.
    sampled: GroupedActions<ActionOf<T>>,
    lister: T::Lister,
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
            sampled: GroupedActions::default(),
            lister: T::Lister::default(),
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
            return f(&mut new_buffers::<T>());
        };
        for held in all.iter_mut() {
            if let Some(buffers) = held.downcast_mut::<Buffers<T>>() {
                return f(buffers);
            }
        }
        let mut buffers = new_buffers::<T>();
        let out = f(&mut buffers);
        all.push(buffers);
        out
    })
}

/// Fresh buffers on the heap, made out of line: buffers can be large, and a caller holding
/// them on its stack would probe its pages on every call.
#[cold]
#[inline(never)]
fn new_buffers<T: ScriptTable>() -> Box<Buffers<T>> {
    Box::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Actor, GameInfo, Outcome, Player, Turn};
    use crate::rng::rng_from_seed;

    /// A toy action: who does it (class, id), its kind, and a tag telling it from its siblings.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    struct Act {
        class: u8,
        id: u32,
        kind: u8,
        tag: u8,
    }

    const PIECE: u8 = 0;
    const PLAYER: u8 = 1;
    /// A class the table does not visit.
    const SPECTATOR: u8 = 2;
    const MOVE: u8 = 0;
    const PASS: u8 = 1;
    /// A kind no script serves.
    const RESIGN: u8 = 2;

    const fn act(class: u8, id: u32, kind: u8, tag: u8) -> Act {
        Act {
            class,
            id,
            kind,
            tag,
        }
    }

    /// A game whose state is its list of legal actions (each (actor, kind) group contiguous).
    struct Toy {
        info: GameInfo,
    }

    impl Toy {
        fn new() -> Self {
            Toy {
                info: GameInfo {
                    name: "toy",
                    min_players: 1,
                    max_players: 1,
                    actor_classes: &["piece", "player", "spectator"],
                    action_kinds: &["move", "pass", "resign"],
                    phases: &["play"],
                    stats: &[],
                    action_labels: &[],
                    chance: false,
                    hidden_information: false,
                },
            }
        }
    }

    impl Game for Toy {
        type Level = Vec<Act>;
        type State = Vec<Act>;
        type Action = Act;

        fn info(&self) -> &GameInfo {
            &self.info
        }
        fn new_initial_state(&self, level: &Vec<Act>, _seed: u64) -> Vec<Act> {
            level.clone()
        }
        fn num_players(&self, _state: &Vec<Act>) -> usize {
            1
        }
        fn turn(&self, state: &Vec<Act>) -> Turn {
            if state.is_empty() {
                Turn::Terminal
            } else {
                Turn::Player(0)
            }
        }
        fn round(&self, _state: &Vec<Act>) -> u32 {
            0
        }
        fn legal_actions(&self, state: &Vec<Act>, out: &mut Vec<Act>) {
            out.clone_from(state);
        }
        fn actor(&self, _state: &Vec<Act>, a: Act) -> Actor {
            Actor {
                class: a.class,
                id: a.id,
            }
        }
        fn action_kind(&self, a: Act) -> u8 {
            a.kind
        }
        fn ends_turn(&self, _a: Act) -> bool {
            true
        }
        fn apply(&self, state: &mut Vec<Act>, _a: Act) {
            state.clear();
        }
        fn outcome(&self, state: &Vec<Act>) -> Option<Outcome> {
            state.is_empty().then(|| Outcome::draw(1))
        }
        fn score(&self, _state: &Vec<Act>, _player: Player) -> f64 {
            0.0
        }
    }

    /// The toy's scripts: three MOVE scripts (the third duplicating the first, the fourth
    /// proposing nothing), one PASS script, none for RESIGN; players before pieces.
    struct ToyTable;

    /// The toy's context: the state, to check that scripts see only its actions.
    struct ToyCtx<'a> {
        state: &'a Vec<Act>,
    }

    const TOY_NAMES: [&str; 5] = [
        "move.first",
        "move.last",
        "move.first_again",
        "move.never",
        "pass.first",
    ];

    impl ScriptTable for ToyTable {
        type Game = Toy;
        type Scratch = ();
        type Ctx<'a> = ToyCtx<'a>;
        type Lister = ();

        fn names(&self) -> &[&'static str] {
            &TOY_NAMES
        }
        fn scripts_for(&self, kind: u8) -> Range<usize> {
            match kind {
                MOVE => 0..4,
                PASS => 4..5,
                _ => 0..0,
            }
        }
        fn class_order(&self) -> &[u8] {
            &[PLAYER, PIECE]
        }
        fn context<'a>(
            &self,
            _game: &'a Toy,
            state: &'a Vec<Act>,
            _: &'a mut (),
            _: Option<&()>,
        ) -> ToyCtx<'a> {
            ToyCtx { state }
        }
        fn run(
            &self,
            id: usize,
            ctx: &mut ToyCtx<'_>,
            actions: &[Act],
            _rng: &mut Rng,
        ) -> Option<(Act, f64)> {
            assert!(actions.iter().all(|a| ctx.state.contains(a)));
            match id {
                0 | 2 | 4 => Some((actions[0], 0.5)),
                1 => Some((*actions.last()?, 1.0)),
                _ => None,
            }
        }
    }

    /// Pieces listed before the player; piece 3 lists PASS before MOVE.
    fn level() -> Vec<Act> {
        vec![
            act(PIECE, 7, MOVE, 0),
            act(PIECE, 7, MOVE, 1),
            act(PIECE, 3, PASS, 0),
            act(PIECE, 3, MOVE, 0),
            act(PIECE, 3, MOVE, 1),
            act(PIECE, 3, MOVE, 2),
            act(SPECTATOR, 0, PASS, 0),
            act(PLAYER, 0, PASS, 0),
            act(PLAYER, 0, RESIGN, 0),
        ]
    }

    fn listing(state: &Vec<Act>) -> Vec<Assignment<Act>> {
        let mut out = vec![Assignment {
            action: act(9, 9, 9, 9),
            script: 9,
            value: 0.0,
        }];
        ToyTable.assignments(&Toy::new(), state, &mut rng_from_seed(1), &mut out);
        out
    }

    fn pairs(out: &[Assignment<Act>]) -> Vec<(Act, &'static str)> {
        out.iter()
            .map(|a| (a.action, TOY_NAMES[a.script as usize]))
            .collect()
    }

    #[test]
    fn listing_visits_classes_in_order_then_actors_then_kinds() {
        assert_eq!(
            pairs(&listing(&level())),
            [
                (act(PLAYER, 0, PASS, 0), "pass.first"),
                (act(PIECE, 7, MOVE, 0), "move.first"),
                (act(PIECE, 7, MOVE, 1), "move.last"),
                (act(PIECE, 3, MOVE, 0), "move.first"),
                (act(PIECE, 3, MOVE, 2), "move.last"),
                (act(PIECE, 3, PASS, 0), "pass.first"),
            ]
        );
    }

    #[test]
    fn a_duplicate_proposal_keeps_the_first_script() {
        let out = listing(&level());
        let first = out
            .iter()
            .filter(|a| a.action == act(PIECE, 7, MOVE, 0))
            .map(|a| TOY_NAMES[a.script as usize]);
        assert_eq!(first.collect::<Vec<_>>(), ["move.first"]);
        assert!(out.iter().all(|a| a.script != 2), "{out:?}");
        let values: Vec<f64> = out.iter().map(|a| a.value).collect();
        assert_eq!(values, [0.5, 0.5, 1.0, 0.5, 1.0, 0.5]);
    }

    #[test]
    fn a_kind_without_scripts_and_an_unvisited_class_propose_nothing() {
        let out = listing(&level());
        assert!(out.iter().all(|a| a.action.kind != RESIGN), "{out:?}");
        assert!(out.iter().all(|a| a.action.class != SPECTATOR), "{out:?}");
        let only_resign = vec![act(PLAYER, 0, RESIGN, 0), act(SPECTATOR, 1, PASS, 0)];
        assert!(listing(&only_resign).is_empty());
        let mut buf = Vec::new();
        let sampled = ToyTable.sample(
            &Toy::new(),
            &only_resign,
            None,
            &mut rng_from_seed(3),
            &mut buf,
        );
        assert_eq!(sampled, None);
    }

    #[test]
    fn samples_are_proposals_of_the_listing() {
        let (game, state) = (Toy::new(), level());
        let listed: Vec<Act> = listing(&state).iter().map(|a| a.action).collect();
        let mut rng = rng_from_seed(7);
        let mut seen = Vec::new();
        for _ in 0..500 {
            let s = ToyTable.sample(&game, &state, None, &mut rng, &mut Vec::new());
            // Only `move.never` fails, 2 of the 10 pairs: 16 failures in a row are 0.2^16 ≈ 7e-12.
            let s = s.expect("a proposal");
            assert!(listed.contains(&s.action), "{s:?}");
            assert!(
                ToyTable
                    .scripts_for(s.action.kind)
                    .contains(&(s.script as usize))
            );
            if !seen.contains(&s.action) {
                seen.push(s.action);
            }
        }
        seen.sort_by_key(|a| (a.class, a.id, a.kind, a.tag));
        let mut all = listed.clone();
        all.sort_by_key(|a| (a.class, a.id, a.kind, a.tag));
        assert_eq!(seen, all);
    }

    #[test]
    fn the_same_seed_gives_the_same_draws() {
        let (game, state) = (Toy::new(), level());
        let draws = |seed| {
            let mut rng = rng_from_seed(seed);
            let mut out = Vec::new();
            let samples: Vec<_> = (0..50)
                .map(|_| ToyTable.sample(&game, &state, None, &mut rng, &mut out))
                .collect();
            ToyTable.assignments(&game, &state, &mut rng, &mut out);
            (samples, out, rng.random::<u64>())
        };
        assert_eq!(draws(11), draws(11));
        assert_ne!(draws(11).0, draws(12).0);
    }
}
