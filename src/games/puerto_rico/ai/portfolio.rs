//! Puerto Rico's portfolio for the generic Portfolio MCTS: five scripted personalities, each
//! the Scripted AI's heaviest choice ([`ScriptedWeights`] at τ = ∞) under its own play-style
//! factors ([`super::PREFERENCES`]). They differ where a personality shows — the role picked and
//! the building built — and agree on the rest (colonists, goods, loads), where the portfolio
//! then offers one action. Their weights are what a P-MCTS genome evolves.

use std::cell::RefCell;

use super::scripted::{PREFERENCES, ScriptedWeights, heaviest, preference_of};
use crate::agent::{Assignment, Portfolio};
use crate::game::{Game, Turn};
use crate::games::puerto_rico::{Action, PuertoRicoGame, State};
use crate::rng::Rng;

/// The scripts, by name: SA-0 itself and four personalities.
pub const SCRIPTS: [&str; 5] = ["sa0", "shipper", "builder", "trader", "planter"];

/// Each script's factors on [`super::PREFERENCES`] (others 1): (preference, factor).
const PROFILES: [&[(&str, f64)]; 5] = [
    &[],
    &[
        ("role.captain", 3.0),
        ("role.craftsman", 2.0),
        ("build.shipping", 3.0),
        ("role.builder", 0.5),
    ],
    &[
        ("role.builder", 3.0),
        ("role.mayor", 1.5),
        ("build.large", 3.0),
        ("role.captain", 0.5),
    ],
    &[
        ("role.trader", 3.0),
        ("role.craftsman", 1.5),
        ("build.trade", 3.0),
        ("role.prospector", 2.0),
    ],
    &[
        ("role.settler", 3.0),
        ("role.mayor", 2.0),
        ("build.planting", 3.0),
        ("build.production", 2.0),
    ],
];

/// The five personalities as a portfolio (see the module docs).
#[derive(Clone, Debug)]
pub struct PuertoRicoScripts {
    /// SA-0's tables, which every script shares.
    base: ScriptedWeights,
    /// Each script's factors on [`super::PREFERENCES`].
    factors: Vec<[f64; PREFERENCES.len()]>,
}

impl PuertoRicoScripts {
    /// The scripts of [`SCRIPTS`].
    pub fn new() -> Self {
        let factors = PROFILES
            .iter()
            .map(|profile| {
                let mut w = ScriptedWeights::default();
                let factors: Vec<(String, f64)> =
                    profile.iter().map(|&(n, f)| (n.to_string(), f)).collect();
                w.set_preferences(&factors)
                    .expect("profiles name known preferences (tested)");
                w.preference
            })
            .collect();
        PuertoRicoScripts {
            base: ScriptedWeights::default(),
            factors,
        }
    }
}

impl Default for PuertoRicoScripts {
    fn default() -> Self {
        PuertoRicoScripts::new()
    }
}

thread_local! {
    /// The legal actions of the state being proposed for, their SA-0 weights, and those weights
    /// scaled by one script's factors.
    static BUFFERS: RefCell<(Vec<Action>, Vec<f64>, Vec<f64>)> =
        const { RefCell::new((Vec::new(), Vec::new(), Vec::new())) };
}

impl Portfolio<PuertoRicoGame> for PuertoRicoScripts {
    fn script_names(&self) -> &[&'static str] {
        &SCRIPTS
    }

    /// SA-0's weights are computed once; each script scales them by its factors
    /// ([`preference_of`]) and proposes the heaviest (first on ties).
    fn assignments(
        &self,
        game: &PuertoRicoGame,
        state: &State,
        _rng: &mut Rng,
        out: &mut Vec<Assignment<Action>>,
    ) {
        out.clear();
        if game.turn(state) == Turn::Terminal {
            return;
        }
        BUFFERS.with_borrow_mut(|(actions, w, scaled)| {
            game.legal_actions(state, actions);
            if actions.len() > 1 {
                self.base.weights(state, actions, w);
            }
            for (script, factors) in self.factors.iter().enumerate() {
                let action = if actions.len() == 1 {
                    actions[0]
                } else {
                    scaled.clear();
                    scaled.extend(
                        actions
                            .iter()
                            .zip(w.iter())
                            .map(|(&a, &x)| preference_of(a).map_or(x, |p| x * factors[p])),
                    );
                    actions[heaviest(scaled)]
                };
                if !out.iter().any(|a| a.action == action) {
                    out.push(Assignment {
                        action,
                        script: script as u16,
                        value: 1.0,
                    });
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puerto_rico::test_support::{game, start};
    use crate::rng::rng_from_seed;

    #[test]
    fn profiles_name_known_preferences() {
        for profile in PROFILES {
            for (name, _) in profile {
                assert!(PREFERENCES.contains(name), "{name}");
            }
        }
        assert_eq!(PuertoRicoScripts::new().factors.len(), SCRIPTS.len());
    }

    #[test]
    fn personalities_pick_different_roles_and_every_proposal_is_legal() {
        let g = game();
        let scripts = PuertoRicoScripts::new();
        let mut rng = rng_from_seed(1);
        let mut out = Vec::new();
        let mut legal = Vec::new();
        let mut distinct_role_picks = 0;
        for seed in 0..20 {
            let mut s = start(4, seed);
            for _ in 0..200 {
                if g.turn(&s) == Turn::Terminal {
                    break;
                }
                scripts.assignments(&g, &s, &mut rng, &mut out);
                g.legal_actions(&s, &mut legal);
                assert!(!out.is_empty());
                assert!(out.iter().all(|a| legal.contains(&a.action)));
                if s.phase == crate::games::puerto_rico::Phase::RoleSelection && out.len() > 1 {
                    distinct_role_picks += 1;
                }
                let a = out[0].action;
                g.apply(&mut s, a);
            }
        }
        assert!(distinct_role_picks > 20, "{distinct_role_picks}");
    }
}
