//! SPAWN scripts: the first spawnable unit type with the best value of one stat (spec §15.5).
//! Values follow [`by_attr`]: 1 for a maximised stat, `1 − cheapest/first` for the cost.

use super::ScriptCtx;
use super::common::by_attr;
use crate::games::tribes::{Action, UnitStats};
use crate::rng::Rng;

fn spawn_by(
    actions: &[Action],
    maximise: bool,
    stat: fn(&UnitStats) -> i32,
) -> Option<(Action, f64)> {
    by_attr(actions, maximise, |a| {
        Some(stat(a.unit_kind().stats()) as f64)
    })
}

/// `spawn.strongest`: highest attack.
pub fn strongest(_: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    spawn_by(a, true, |s| s.atk)
}

/// `spawn.defensive`: highest defence.
pub fn defensive(_: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    spawn_by(a, true, |s| s.def)
}

/// `spawn.cheapest`: lowest cost.
pub fn cheapest(_: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    spawn_by(a, false, |s| s.cost)
}

/// `spawn.fastest`: most movement.
pub fn fastest(_: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    spawn_by(a, true, |s| s.mov)
}

/// `spawn.max_hp`: highest starting (maximum) hit points.
pub fn max_hp(_: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    spawn_by(a, true, |s| s.max_hp)
}

/// `spawn.range`: longest attack range.
pub fn range(_: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    spawn_by(a, true, |s| s.range)
}
