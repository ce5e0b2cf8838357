//! The wrapper script (Java `BaseScript`): CAPTURE, EXAMINE, HEAL_OTHERS, MAKE_VETERAN, RECOVER,
//! UPGRADE_BOAT, UPGRADE_SHIP and END_TURN.

use super::ScriptCtx;
use crate::games::tribes::Action;
use crate::rng::Rng;

/// Value of the wrapper script's proposals (Java `DEFAULT_VALUE`).
pub const DEFAULT_VALUE: f64 = 0.5;

/// `<kind>.first`: the first action, valued 0.5.
pub fn first(_: &mut ScriptCtx<'_>, actions: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    actions.first().map(|&a| (a, DEFAULT_VALUE))
}
