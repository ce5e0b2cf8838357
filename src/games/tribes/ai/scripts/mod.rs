//! The scripts of the Tribes portfolio (spec §15.5; after GAIGResearch/Tribes, branch
//! `portfolio`, `src/players/portfolio/scripts/`).
//!
//! A script serves one action kind. It is handed one actor's legal actions of that kind and
//! returns at most one of them with a value in [0, 1] (the prune heuristic multiplies it by the
//! script's weight). Every script has a stable name `<action>.<style>`; [`SCRIPTS`] lists them
//! grouped by [`ActionKind`] order, and a script's position there is its id.
//!
//! Where the Java scripts have a defect that changes behaviour, the intended behaviour is the
//! default and the Java behaviour is used when the game's rules say `compat = "java"`
//! ([`ScriptCtx::java`]); each such script says so in its documentation.

mod attack;
mod build;
mod city;
pub mod common;
mod move_;
mod research;
mod road;
mod simple;
mod sites;
mod spawn;

use crate::games::tribes::{Action, ActionKind, State, TribesGame};
use crate::rng::Rng;

pub use research::BRANCHES as RESEARCH_BRANCHES;

/// Reusable buffers of the scripts (a few KiB; keep one per thread and reuse it, so that
/// running the scripts does not allocate).
#[derive(Clone, Default)]
pub struct ScriptScratch {
    interest: move_::InterestCache,
}

/// What a script sees besides its actions: the state, the compatibility switch, and caches
/// shared by the scripts of one [`crate::agent::Portfolio::assignments`] call.
pub struct ScriptCtx<'a> {
    /// The state the actions are legal in.
    pub state: &'a State,
    /// Replicate the Java scripts' defects (spec §18 quirk 6).
    pub java: bool,
    /// The tribe whose actors the scripts serve (the active tribe).
    pub tribe: u8,
    interest: &'a mut move_::InterestCache,
}

impl<'a> ScriptCtx<'a> {
    /// A context for the active tribe of `state` under `game`'s rules, using (and clearing)
    /// the buffers in `scratch`.
    pub fn new(game: &TribesGame, state: &'a State, scratch: &'a mut ScriptScratch) -> Self {
        ScriptCtx::with_board(game, state, scratch, false)
    }

    /// [`ScriptCtx::new`]; `same_board` tells that the tiles' terrain, resources, buildings
    /// and owners are those of the state `scratch` was last prepared for (only units moved
    /// or changed since), so that board-derived buffers need no check.
    pub fn with_board(
        game: &TribesGame,
        state: &'a State,
        scratch: &'a mut ScriptScratch,
        same_board: bool,
    ) -> Self {
        scratch.interest.prepare(same_board);
        ScriptCtx {
            state,
            java: game.rules.java(),
            tribe: state.active,
            interest: &mut scratch.interest,
        }
    }
}

/// A script: given one actor's legal actions of one kind (never empty), proposes at most one
/// of them with a value in [0, 1].
pub type ScriptFn = fn(&mut ScriptCtx<'_>, &[Action], &mut Rng) -> Option<(Action, f64)>;

/// A script's check from the first of an actor's actions alone: false only where the script
/// would propose nothing for those actions, and draw no random number (see
/// [`crate::agents::script_table::ScriptTable::may_propose`]).
pub type CheckFn = fn(&mut ScriptCtx<'_>, Action) -> bool;

/// One script of the portfolio.
#[derive(Clone, Copy)]
pub struct Script {
    /// Stable name `<action>.<style>`.
    pub name: &'static str,
    /// The action kind it serves.
    pub kind: ActionKind,
    /// What it does.
    pub run: ScriptFn,
    /// The check a rollout makes before listing the actor's actions for it, if any.
    pub may_propose: Option<CheckFn>,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

const fn s(name: &'static str, kind: ActionKind, run: ScriptFn) -> Script {
    Script {
        name,
        kind,
        run,
        may_propose: None,
    }
}

/// [`s`] with a check before listing.
const fn checked(
    name: &'static str,
    kind: ActionKind,
    run: ScriptFn,
    may_propose: CheckFn,
) -> Script {
    Script {
        may_propose: Some(may_propose),
        ..s(name, kind, run)
    }
}

/// Number of scripts.
pub const NUM_SCRIPTS: usize = 55;

/// Every script, grouped by [`ActionKind`] order (within a kind, in the Java portfolio's
/// order). DESTROY and DISBAND have none.
pub const SCRIPTS: [Script; NUM_SCRIPTS] = {
    use ActionKind as K;
    [
        s("build.customs_house", K::Build, build::customs_house),
        s("build.sawmill", K::Build, build::sawmill),
        s("build.windmill", K::Build, build::windmill),
        s("build.forge", K::Build, build::forge),
        s("build.farm", K::Build, build::farm),
        s("build.mine", K::Build, build::mine),
        s("build.lumber_hut", K::Build, build::lumber_hut),
        s("build.port", K::Build, build::port),
        s("build.monument", K::Build, build::monument),
        s("build.temple", K::Build, build::temple),
        s("burn_forest.best", K::BurnForest, city::burn_forest),
        s(
            "clear_forest.customs_house",
            K::ClearForest,
            build::clear_for_customs_house,
        ),
        s("clear_forest.forge", K::ClearForest, build::clear_for_forge),
        s(
            "clear_forest.sawmill",
            K::ClearForest,
            build::clear_for_sawmill,
        ),
        s(
            "clear_forest.windmill",
            K::ClearForest,
            build::clear_for_windmill,
        ),
        s("grow_forest.best", K::GrowForest, city::grow_forest),
        s("level_up.growth", K::LevelUp, city::level_up_growth),
        s("level_up.military", K::LevelUp, city::level_up_military),
        s(
            "resource_gathering.best",
            K::ResourceGathering,
            city::resource_gathering,
        ),
        s("spawn.strongest", K::Spawn, spawn::strongest),
        s("spawn.defensive", K::Spawn, spawn::defensive),
        s("spawn.cheapest", K::Spawn, spawn::cheapest),
        s("spawn.fastest", K::Spawn, spawn::fastest),
        s("spawn.max_hp", K::Spawn, spawn::max_hp),
        s("spawn.range", K::Spawn, spawn::range),
        s("build_road.random", K::BuildRoad, road::build_road),
        s("research.farms", K::ResearchTech, research::farms),
        s("research.naval", K::ResearchTech, research::naval),
        s("research.mountains", K::ResearchTech, research::mountains),
        s("research.range", K::ResearchTech, research::range),
        s("research.roads", K::ResearchTech, research::roads),
        s("end_turn.first", K::EndTurn, simple::first),
        s("attack.closest", K::Attack, attack::closest),
        s("attack.weakest", K::Attack, attack::weakest),
        s("attack.max_damage", K::Attack, attack::max_damage),
        s("attack.strongest", K::Attack, attack::strongest),
        s("capture.first", K::Capture, simple::first),
        s("convert.strongest", K::Convert, attack::convert_strongest),
        s("convert.highest_hp", K::Convert, attack::convert_highest_hp),
        s(
            "convert.highest_defence",
            K::Convert,
            attack::convert_highest_defence,
        ),
        s("examine.first", K::Examine, simple::first),
        s("heal_others.first", K::HealOthers, simple::first),
        s("make_veteran.first", K::MakeVeteran, simple::first),
        s("move.to_capture", K::Move, move_::to_capture),
        s("move.to_own_city", K::Move, move_::to_own_city),
        s("move.defensively", K::Move, move_::defensively),
        s("move.offensively", K::Move, move_::offensively),
        checked(
            "move.to_disembark",
            K::Move,
            move_::to_disembark,
            move_::may_disembark,
        ),
        checked(
            "move.to_embark",
            K::Move,
            move_::to_embark,
            move_::may_embark,
        ),
        s("move.to_attack_range", K::Move, move_::to_attack_range),
        s("move.to_converge", K::Move, move_::to_converge),
        s("move.to_diverge", K::Move, move_::to_diverge),
        s("recover.first", K::Recover, simple::first),
        s("upgrade_boat.first", K::UpgradeBoat, simple::first),
        s("upgrade_ship.first", K::UpgradeShip, simple::first),
    ]
};

/// The names of [`SCRIPTS`], in the same order.
pub static SCRIPT_NAMES: [&str; NUM_SCRIPTS] = {
    let mut out = [""; NUM_SCRIPTS];
    let mut i = 0;
    while i < NUM_SCRIPTS {
        out[i] = SCRIPTS[i].name;
        i += 1;
    }
    out
};

/// `KIND_START[k]..KIND_START[k + 1]` are the ids of the scripts of action kind `k`.
const KIND_START: [u16; ActionKind::COUNT + 1] = {
    let mut out = [0u16; ActionKind::COUNT + 1];
    let mut k = 0;
    while k <= ActionKind::COUNT {
        let mut n = 0;
        while n < NUM_SCRIPTS && (SCRIPTS[n].kind as usize) < k {
            n += 1;
        }
        out[k] = n as u16;
        k += 1;
    }
    out
};

// The table must be sorted by kind for `KIND_START` to be right.
const _: () = {
    let mut i = 1;
    while i < NUM_SCRIPTS {
        assert!(SCRIPTS[i - 1].kind as usize <= SCRIPTS[i].kind as usize);
        i += 1;
    }
};

/// The ids (indices into [`SCRIPTS`]) of the scripts serving `kind`; empty for DESTROY and
/// DISBAND.
#[inline]
pub fn scripts_for(kind: ActionKind) -> std::ops::Range<usize> {
    let k = kind as usize;
    KIND_START[k] as usize..KIND_START[k + 1] as usize
}

/// The id of the script called `name`.
pub fn script_id(name: &str) -> Option<usize> {
    SCRIPT_NAMES.iter().position(|&n| n == name)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Runs the script called `name` on `actions`.
    pub fn run(
        game: &TribesGame,
        s: &State,
        name: &str,
        actions: &[Action],
    ) -> Option<(Action, f64)> {
        let mut scratch = ScriptScratch::default();
        let mut ctx = ScriptCtx::new(game, s, &mut scratch);
        let mut rng = crate::rng::rng_from_seed(5);
        (SCRIPTS[script_id(name).expect(name)].run)(&mut ctx, actions, &mut rng)
    }

    #[test]
    fn kind_ranges_cover_the_table() {
        let total: usize = ActionKind::ALL.iter().map(|&k| scripts_for(k).len()).sum();
        assert_eq!(total, NUM_SCRIPTS);
        assert_eq!(scripts_for(ActionKind::Move).len(), 9);
        assert_eq!(scripts_for(ActionKind::Build).len(), 10);
    }
}
