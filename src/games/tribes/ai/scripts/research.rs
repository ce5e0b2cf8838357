//! RESEARCH_TECH scripts: the lowest-tier available technology of one branch (spec §15.5).

use super::ScriptCtx;
use super::common::Pick;
use super::simple::DEFAULT_VALUE;
use crate::games::tribes::{Action, Tech};
use crate::rng::Rng;

/// The five research branches, in the order of [`crate::games::tribes::ai::EVOLVED_WEIGHTS`].
pub const BRANCHES: [(&str, &[Tech]); 5] = {
    use Tech::*;
    [
        ("farms", &[Organization, Farming, Shields, Construction]),
        ("naval", &[Fishing, Whaling, Sailing, Navigation, Aquatism]),
        (
            "mountains",
            &[Climbing, Mining, Meditation, Smithery, Philosophy],
        ),
        (
            "range",
            &[Hunting, Archery, Forestry, Spiritualism, Mathematics],
        ),
        ("roads", &[Riding, Roads, FreeSpirit, Chivalry, Trade]),
    ]
};

/// A uniform choice among the branch's available techs of the lowest tier, valued
/// `(4 − tier) / 4`; a lone research action is returned whatever its branch, valued 0.5.
fn preferred(branch: &[Tech], actions: &[Action], rng: &mut Rng) -> Option<(Action, f64)> {
    if let [only] = actions {
        return Some((*only, DEFAULT_VALUE));
    }
    let mut lowest = u32::MAX;
    let mut pick = Pick::default();
    for &a in actions {
        let tech = a.tech();
        if !branch.contains(&tech) {
            continue;
        }
        let tier = tech.tier();
        if tier < lowest {
            lowest = tier;
            pick.reset();
        }
        if tier == lowest {
            pick.add(a, rng);
        }
    }
    pick.get().map(|a| (a, (4 - lowest) as f64 / 4.0))
}

/// `research.farms`: ORGANIZATION, FARMING, SHIELDS, CONSTRUCTION.
pub fn farms(_: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Option<(Action, f64)> {
    preferred(BRANCHES[0].1, a, rng)
}

/// `research.naval`: FISHING, WHALING, SAILING, NAVIGATION, AQUATISM.
pub fn naval(_: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Option<(Action, f64)> {
    preferred(BRANCHES[1].1, a, rng)
}

/// `research.mountains`: CLIMBING, MINING, MEDITATION, SMITHERY, PHILOSOPHY.
pub fn mountains(_: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Option<(Action, f64)> {
    preferred(BRANCHES[2].1, a, rng)
}

/// `research.range`: HUNTING, ARCHERY, FORESTRY, SPIRITUALISM, MATHEMATICS.
pub fn range(_: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Option<(Action, f64)> {
    preferred(BRANCHES[3].1, a, rng)
}

/// `research.roads`: RIDING, ROADS, FREE_SPIRIT, CHIVALRY, TRADE.
pub fn roads(_: &mut ScriptCtx<'_>, a: &[Action], rng: &mut Rng) -> Option<(Action, f64)> {
    preferred(BRANCHES[4].1, a, rng)
}
