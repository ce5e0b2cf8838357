//! [`TribesPortfolio`]: every script of [`super::scripts`], applied to every actor of the
//! tribe to move (spec §15.5; Java `SimplePortfolio.produceActionAssignments`), as a
//! [`ScriptTable`].

use std::ops::Range;

use super::scripts::{SCRIPT_NAMES, SCRIPTS, ScriptCtx, ScriptScratch, scripts_for};
use crate::agents::script_table::ScriptTable;
use crate::game::{ActionGroup, Game, GroupedActions, Listing};
use crate::games::tribes::{Action, ActionKind, Scope, State, TribesGame, legal, listing};
use crate::rng::Rng;

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

/// The Tribes portfolio: a [`ScriptTable`] of [`SCRIPTS`] that visits units (in slot order),
/// then cities, then the tribe; for each actor and each action kind in [`ActionKind`] order,
/// every script of that kind may propose one of the actor's legal actions of the kind. DESTROY
/// and DISBAND have no script and are never proposed. Rollouts sample cheaply: only the first
/// action of each group is listed ([`legal::legal_action_groups`]), and updated after each step
/// for the actors the step touched ([`listing`]), then the drawn group in full.
#[derive(Clone, Copy, Debug, Default)]
pub struct TribesPortfolio;

impl TribesPortfolio {
    /// The portfolio.
    pub fn new() -> Self {
        TribesPortfolio
    }
}

/// The groups of a state being sampled from: the first action of each, kept up to date along
/// a rollout ([`listing`]), and the maps that list a group in full.
pub struct GroupListing {
    listing: Listing<Action>,
    groups: legal::GroupLister,
    /// The last update followed an action that changed only units, not the board.
    same_board: bool,
}

impl Default for GroupListing {
    fn default() -> Self {
        GroupListing {
            listing: Listing::default(),
            groups: legal::GroupLister::new(None),
            same_board: false,
        }
    }
}

impl GroupListing {
    /// Copies the listing's groups into `out` and makes the group lister for `state`.
    fn finish(&mut self, game: &TribesGame, state: &State, out: &mut GroupedActions<Action>) {
        out.actions.clone_from(&self.listing.actions);
        out.regroup(|a| (game.actor(state, a), game.action_kind(a)));
        self.groups = listing::group_lister(&self.listing);
    }
}

/// Actor classes in the order the portfolio visits them.
const CLASS_ORDER: [u8; 3] = [Scope::Unit as u8, Scope::City as u8, Scope::Tribe as u8];

impl ScriptTable for TribesPortfolio {
    type Game = TribesGame;
    type Scratch = ScriptScratch;
    type Ctx<'a> = ScriptCtx<'a>;
    type Lister = GroupListing;

    fn names(&self) -> &[&'static str] {
        &SCRIPT_NAMES
    }

    #[inline]
    fn scripts_for(&self, kind: u8) -> Range<usize> {
        ActionKind::from_index(kind as usize).map_or(0..0, scripts_for)
    }

    fn class_order(&self) -> &[u8] {
        &CLASS_ORDER
    }

    fn context<'a>(
        &self,
        game: &'a TribesGame,
        state: &'a State,
        scratch: &'a mut ScriptScratch,
        lister: Option<&GroupListing>,
    ) -> ScriptCtx<'a> {
        let same_board = lister.is_some_and(|l| l.same_board);
        ScriptCtx::with_board(game, state, scratch, same_board)
    }

    #[inline]
    fn run(
        &self,
        id: usize,
        ctx: &mut ScriptCtx<'_>,
        actions: &[Action],
        rng: &mut Rng,
    ) -> Option<(Action, f64)> {
        (SCRIPTS[id].run)(ctx, actions, rng)
    }

    #[inline]
    fn may_propose(&self, id: usize, ctx: &mut ScriptCtx<'_>, first: Action) -> bool {
        SCRIPTS[id]
            .may_propose
            .is_none_or(|check| check(ctx, first))
    }

    fn list_groups(
        &self,
        game: &TribesGame,
        state: &State,
        out: &mut GroupedActions<Action>,
        lister: &mut Self::Lister,
    ) {
        listing::list_groups(&game.rules, state, &mut lister.listing);
        lister.same_board = false;
        lister.finish(game, state, out);
    }

    /// Lists again only the actors `last` touched ([`listing`]).
    fn relist_groups(
        &self,
        game: &TribesGame,
        last: Action,
        state: &State,
        out: &mut GroupedActions<Action>,
        lister: &mut Self::Lister,
    ) {
        lister.same_board = listing::relist_groups(&game.rules, &mut lister.listing, last, state);
        lister.finish(game, state, out);
    }

    fn group_actions<'b>(
        &self,
        lister: &Self::Lister,
        game: &TribesGame,
        state: &State,
        grouped: &'b GroupedActions<Action>,
        group: &ActionGroup,
        buf: &'b mut Vec<Action>,
    ) -> &'b [Action] {
        lister
            .groups
            .group(&game.rules, state, grouped.actions[group.start], buf);
        buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Portfolio;
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
