//! ATTACK and CONVERT scripts: the first action whose target has the best value of one feature
//! (spec §15.5), valued as [`by_attr`] does.

use super::ScriptCtx;
use super::common::by_attr;
use crate::games::tribes::Action;
use crate::games::tribes::combat::damage;
use crate::games::tribes::state::{State, Unit};
use crate::rng::Rng;

/// The acting unit and the unit on the action's target tile.
#[inline]
fn pair(s: &State, a: Action) -> Option<(&Unit, &Unit)> {
    let me = s.units.get(a.actor as usize)?;
    Some((me, s.unit_at(a.target as usize)?))
}

fn target_by(
    ctx: &ScriptCtx<'_>,
    actions: &[Action],
    maximise: bool,
    feature: impl Fn(&State, &Unit, &Unit) -> f64,
) -> Option<(Action, f64)> {
    let s = ctx.state;
    by_attr(actions, maximise, |a| {
        pair(s, a).map(|(me, target)| feature(s, me, target))
    })
}

/// Score bonus of a killing blow in `attack.max_damage` (Java: 100).
pub const KILL_BONUS: f64 = 100.0;

/// `attack.closest`: the nearest target (Euclidean distance), valued `1 − nearest/first`.
pub fn closest(ctx: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    target_by(ctx, a, false, |s, me, t| {
        let ((ax, ay), (bx, by)) = (s.xy(me.pos as usize), s.xy(t.pos as usize));
        (((ax - bx).pow(2) + (ay - by).pow(2)) as f64).sqrt()
    })
}

/// `attack.weakest`: the target with the lowest defence, valued `1 − lowest/first`.
pub fn weakest(ctx: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    target_by(ctx, a, false, |_, _, t| t.kind.stats().def as f64)
}

/// `attack.max_damage`: the attack dealing the most damage, +100 when it kills.
///
/// **Java quirk** (spec §15.5, §18 quirk 6): the Java script simulates the attack on a copy but
/// reads the target's HP from the original, so every attack scores 0 and it always returns the
/// first attack with value 0. With `compat = "java"` that is replicated; otherwise the damage
/// comes from [`damage`] on the current state.
pub fn max_damage(ctx: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    let java = ctx.java;
    target_by(ctx, a, true, |s, me, t| {
        if java {
            return 0.0;
        }
        let (dmg, _) = damage(s, me, t);
        dmg as f64 + if dmg >= t.hp as i32 { KILL_BONUS } else { 0.0 }
    })
}

/// `attack.strongest`: the target with the highest attack.
pub fn strongest(ctx: &mut ScriptCtx<'_>, a: &[Action], _: &mut Rng) -> Option<(Action, f64)> {
    target_by(ctx, a, true, |_, _, t| t.kind.stats().atk as f64)
}

/// `convert.strongest`: the target with the highest attack.
pub fn convert_strongest(
    ctx: &mut ScriptCtx<'_>,
    a: &[Action],
    _: &mut Rng,
) -> Option<(Action, f64)> {
    target_by(ctx, a, true, |_, _, t| t.kind.stats().atk as f64)
}

/// `convert.highest_hp`: the target with the most current hit points.
pub fn convert_highest_hp(
    ctx: &mut ScriptCtx<'_>,
    a: &[Action],
    _: &mut Rng,
) -> Option<(Action, f64)> {
    target_by(ctx, a, true, |_, _, t| t.hp as f64)
}

/// `convert.highest_defence`: the target with the highest defence.
pub fn convert_highest_defence(
    ctx: &mut ScriptCtx<'_>,
    a: &[Action],
    _: &mut Rng,
) -> Option<(Action, f64)> {
    target_by(ctx, a, true, |_, _, t| t.kind.stats().def as f64)
}

#[cfg(test)]
mod tests {
    use super::super::tests::run;
    use crate::games::tribes::ai::testing::{put_unit, setup};
    use crate::games::tribes::{Action, ActionKind, UnitKind};

    #[test]
    fn attack_scripts_choose_by_distance_damage_and_stats() {
        for java in [false, true] {
            let (game, mut s) = setup(java);
            let me = put_unit(&mut s, UnitKind::Warrior, 0, 32, 10);
            put_unit(&mut s, UnitKind::Defender, 1, 24, 15); // diagonal, healthy
            put_unit(&mut s, UnitKind::Warrior, 1, 33, 2); // orthogonal, nearly dead
            let at = |t| Action::new(ActionKind::Attack, me, 0, t);
            let acts = [at(24), at(33)];
            let (a, v) = run(&game, &s, "attack.closest", &acts).unwrap();
            assert_eq!(a, at(33));
            assert!((v - (1.0 - 1.0 / 2f64.sqrt())).abs() < 1e-12);
            assert_eq!(
                run(&game, &s, "attack.weakest", &acts),
                Some((at(33), 1.0 - 2.0 / 3.0))
            );
            assert_eq!(
                run(&game, &s, "attack.strongest", &acts),
                Some((at(33), 1.0))
            );
            let max = run(&game, &s, "attack.max_damage", &acts);
            if java {
                assert_eq!(max, Some((at(24), 0.0)));
            } else {
                assert_eq!(max, Some((at(33), 1.0)));
            }
        }
    }
}
