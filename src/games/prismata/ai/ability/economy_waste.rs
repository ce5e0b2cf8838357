//! `ActionAbility_AvoidEconomyWaste` (C++ `PartialPlayer_ActionAbility_AvoidEconomyWaste.cpp`):
//! at the end of the clicking, click the abilities that turn this turn's resources into gold
//! or green (which are kept), and take back clicks whose only output is resources that expire
//! at the end of the turn (blue, red, energy) and that paid with something that would have
//! been kept (gold, green, or the unit itself).
//!
//! The C++ undoes those clicks; we take them back with [`TurnPlan::without`], one at a time, and
//! skip one whose take-back would strand a later action (the C++ undo is illegal then too).

use crate::games::prismata::ai::ability::AbilityPlayer;
use crate::games::prismata::ai::partial::TurnPlan;
use crate::games::prismata::{Action, Library, Resource, Status, UnitType};
use crate::rng::Rng;

/// Clicks resource converters whose output is kept; takes back clicks whose output expires.
#[derive(Clone, Debug, Default)]
pub struct AvoidEconomyWaste;

/// True if a type is a plain economy unit (C++ `isEconCard`): its click makes gold, costs
/// nothing, sacrifices nothing, and the type makes no attack.
pub fn is_econ_unit(t: &UnitType) -> bool {
    let Some(click) = &t.click else { return false };
    let turn_attack = t
        .turn_start
        .as_ref()
        .map_or(0, |s| s.receive.get(Resource::Attack));
    click.receive.get(Resource::Gold) > 0
        && click.cost.is_empty()
        && click.receive.get(Resource::Attack) + turn_attack == 0
        && click.sacrifice.is_empty()
}

/// True if clicking a unit of type `t` banks resources (C++ `shouldUseCardAbility`).
fn worth_clicking(t: &UnitType) -> bool {
    let Some(click) = &t.click else { return false };
    click.receive.get(Resource::Attack) == 0
        && !click.selfsac
        && click.target.is_none()
        && !is_econ_unit(t)
        && click.cost.get(Resource::Attack) == 0
        && (click.receive.get(Resource::Gold) > 0 || click.receive.get(Resource::Green) > 0)
}

/// True if a clicked unit of type `t` wasted what it paid (C++ `shouldUndoCardAbility`).
fn worth_taking_back(t: &UnitType) -> bool {
    let Some(click) = &t.click else { return false };
    let (cost, receive) = (&click.cost, &click.receive);
    let expiring = |r: &crate::games::prismata::Resources| {
        [
            Resource::Attack,
            Resource::Blue,
            Resource::Red,
            Resource::Energy,
        ]
        .iter()
        .any(|&x| r.get(x) > 0)
    };
    click.target.is_none()
        && receive.get(Resource::Attack) == 0
        && (!cost.is_empty() || click.selfsac)
        && click.create.is_empty()
        && !expiring(cost)
        && receive.get(Resource::Gold) == 0
        && receive.get(Resource::Green) == 0
        && expiring(receive)
}

impl AvoidEconomyWaste {
    fn units_where(
        turn: &TurnPlan,
        lib: &Library,
        f: impl Fn(&UnitType, Status) -> bool,
    ) -> Vec<u16> {
        let units = &turn.state.sides[turn.player as usize].units;
        (0..units.len() as u16)
            .filter(|&i| {
                let u = &units[i as usize];
                f(lib.get(u.kind), u.status)
            })
            .collect()
    }
}

impl AbilityPlayer for AvoidEconomyWaste {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        let lib = turn.library;
        let live = |i: &u16, turn: &TurnPlan| {
            turn.state.sides[turn.player as usize].units[*i as usize].alive
        };
        let to_click = Self::units_where(turn, lib, |t, _| worth_clicking(t));
        for i in to_click {
            if live(&i, turn) {
                turn.try_apply(Action::Click(i));
            }
        }
        // Live units first, then the dead (the C++ walks its killed cards second).
        let mut to_undo = Self::units_where(turn, lib, |t, s| {
            s == Status::Assigned && worth_taking_back(t)
        });
        to_undo.sort_by_key(|i| !live(i, turn));
        for i in to_undo {
            if let Some(back) = turn.without(|a| a == Action::Click(i)) {
                *turn = back;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::ability::sample;
    use crate::games::prismata::ai::partial::PartialPlayer;
    use crate::games::prismata::{Level, Resources, State, TurnPhase};
    use std::sync::Arc;

    fn lib() -> &'static Library {
        Library::builtin()
    }

    /// A game with `names` buyable and one ready unit of each for player 0.
    fn with_ready(names: &[&str]) -> (State, Vec<u16>) {
        let mut s = State::new(
            lib(),
            &Level::load(lib(), &format!("units:{}", names.join(","))).unwrap(),
        );
        let units = names
            .iter()
            .map(|n| {
                let i = s.add_unit(lib(), 0, lib().id(n).unwrap(), 0, 0);
                s.sides[0].units[i].status = Status::Default;
                i as u16
            })
            .collect();
        (s, units)
    }

    #[test]
    fn drones_are_economy_units_and_not_converters() {
        let drone = lib().get(lib().id("Drone").unwrap());
        assert!(is_econ_unit(drone) && !worth_clicking(drone));
        let phage = lib().get(lib().id("Blood Phage").unwrap());
        assert!(worth_clicking(phage) && !is_econ_unit(phage));
        assert!(worth_taking_back(
            lib().get(lib().id("Ferritin Sac").unwrap())
        ));
    }

    #[test]
    fn a_converter_is_clicked_and_a_wasted_click_taken_back() {
        let (mut s, units) = with_ready(&["Blood Phage", "Synthesizer"]);
        let (phage, synth) = (units[0], units[1]);
        s.sides[0].resources = Resources::parse("1R 3G", "test").unwrap();
        let mut turn = TurnPlan::new(lib(), s);
        turn.apply(Action::Click(synth));
        AvoidEconomyWaste.play(&mut turn, &mut crate::rng::rng_from_seed(1));
        assert_eq!(
            turn.actions,
            [Action::Click(phage)],
            "red banked as gold, green kept"
        );
        assert_eq!(turn.state.sides[0].resources.to_string(), "1$ 3G");
        assert!(turn.in_turn() && turn.state.phase == TurnPhase::Action);
    }

    #[test]
    fn a_click_whose_output_was_spent_stays() {
        let (mut s, units) = with_ready(&["Synthesizer", "Ferritin Sac"]);
        let (synth, sac) = (units[0], units[1]);
        s.sides[0].resources = Resources::parse("5$ 3G", "test").unwrap();
        let wall = s
            .buyable
            .iter()
            .position(|&k| k == lib().id("Wall").unwrap())
            .unwrap() as u16;
        let mut turn = TurnPlan::new(lib(), s);
        turn.apply(Action::Click(synth));
        turn.apply(Action::Click(sac));
        turn.apply(Action::Buy(wall));
        AvoidEconomyWaste.play(&mut turn, &mut crate::rng::rng_from_seed(1));
        // The Wall needs one of the three blue: the live Synthesizer's click is taken back
        // first, and then the Ferritin Sac's blue is needed.
        assert_eq!(turn.actions, [Action::Click(sac), Action::Buy(wall)]);
        assert_eq!(turn.state.sides[0].resources.get(Resource::Green), 3);
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        let positions = sample::positions(11, 12, 30);
        assert!(positions.len() > 50);
        sample::plays_legally(Arc::new(AvoidEconomyWaste), &positions);
    }
}
