//! Puerto Rico's portfolio for the generic Portfolio MCTS: five scripted personalities, each
//! the Scripted AI's heaviest choice ([`ScriptedWeights`] at τ = ∞) under its own play-style
//! factors ([`super::PREFERENCES`]). They differ where a personality shows — the role picked and
//! the building built — and agree on the rest (colonists, goods, loads), where the portfolio
//! then offers one action. Their weights are what a P-MCTS genome evolves.

use super::scripted::ScriptedWeights;
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
    weights: Vec<ScriptedWeights>,
}

impl PuertoRicoScripts {
    /// The scripts of [`SCRIPTS`].
    pub fn new() -> Self {
        let weights = PROFILES
            .iter()
            .map(|profile| {
                let mut w = ScriptedWeights {
                    tau: f64::INFINITY,
                    ..ScriptedWeights::default()
                };
                let factors: Vec<(String, f64)> =
                    profile.iter().map(|&(n, f)| (n.to_string(), f)).collect();
                w.set_preferences(&factors)
                    .expect("profiles name known preferences (tested)");
                w
            })
            .collect();
        PuertoRicoScripts { weights }
    }
}

impl Default for PuertoRicoScripts {
    fn default() -> Self {
        PuertoRicoScripts::new()
    }
}

/// Index of the heaviest of `w` (first on ties).
fn heaviest(w: &[f64]) -> usize {
    let mut best = 0;
    for (i, &x) in w.iter().enumerate() {
        if x > w[best] {
            best = i;
        }
    }
    best
}

impl Portfolio<PuertoRicoGame> for PuertoRicoScripts {
    fn script_names(&self) -> &[&'static str] {
        &SCRIPTS
    }

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
        let mut actions = Vec::new();
        game.legal_actions(state, &mut actions);
        let mut w = Vec::new();
        for (script, weights) in self.weights.iter().enumerate() {
            let action = if actions.len() == 1 {
                actions[0]
            } else {
                weights.weights(state, &actions, &mut w);
                actions[heaviest(&w)]
            };
            if !out.iter().any(|a| a.action == action) {
                out.push(Assignment {
                    action,
                    script: script as u16,
                    value: 1.0,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::puerto_rico::PREFERENCES;
    use crate::games::puerto_rico::test_support::{game, start};
    use crate::rng::rng_from_seed;

    #[test]
    fn profiles_name_known_preferences() {
        for profile in PROFILES {
            for (name, _) in profile {
                assert!(PREFERENCES.contains(name), "{name}");
            }
        }
        assert_eq!(PuertoRicoScripts::new().weights.len(), SCRIPTS.len());
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
