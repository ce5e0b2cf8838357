//! `ActionAbility_ChillSolver` (C++ `PartialPlayer_ActionAbility_ChillSolver.cpp`): with
//! attack to send, search the chill actions ([`StateChillIterator`]) and play the best found.

use crate::games::prismata::Resource;
use crate::games::prismata::ai::ability::AbilityPlayer;
use crate::games::prismata::ai::chill::StateChillIterator;
use crate::games::prismata::ai::partial::TurnPlan;
use crate::rng::Rng;

/// Plays the chill actions a [`StateChillIterator`] finds best.
#[derive(Clone, Debug, Default)]
pub struct ChillSolver {
    /// Freeze combinations scored at most (`maxIterations`; 0 = no limit, the C++ default).
    pub max_iterations: usize,
}

impl AbilityPlayer for ChillSolver {
    fn act(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
        if turn.state.sides[turn.player as usize]
            .resources
            .get(Resource::Attack)
            == 0
        {
            return;
        }
        let mut search = StateChillIterator::new(turn.library, &turn.state);
        search.solve(self.max_iterations);
        for &a in search.best_move() {
            turn.apply(a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::ai::ability::basic::{AttackDefault, EconomyDefault};
    use crate::games::prismata::ai::ability::sample;
    use crate::games::prismata::ai::partial::PartialPlayer;
    use crate::games::prismata::ai::testing::facing;
    use crate::games::prismata::{Library, State};
    use crate::rng::rng_from_seed;
    use std::sync::Arc;

    fn lib() -> &'static Library {
        Library::builtin()
    }

    fn position(chillers: &[&str], blockers: &[&str], attack: u16) -> State {
        let mut s = facing("Shiver Yeti", chillers, blockers);
        s.sides[0].resources.set(Resource::Attack, attack);
        s
    }

    #[test]
    fn it_freezes_the_wall_so_the_attack_breaches() {
        // 1 attack against a Wall and a Tarsier (not a blocker): unfrozen, the Wall absorbs
        // it for nothing; frozen by the two Yetis, nothing blocks and the Tarsier is breached.
        let s = position(&["Shiver Yeti", "Shiver Yeti"], &["Wall", "Tarsier"], 1);
        let mut turn = TurnPlan::new(lib(), s);
        ChillSolver {
            max_iterations: 200,
        }
        .play(&mut turn, &mut rng_from_seed(1));
        let wall = &turn.state.sides[1].units[0];
        assert!(
            wall.chill >= wall.hp,
            "the Wall is frozen: {:?}",
            turn.actions
        );
        assert!(turn.state.armed.is_none());
    }

    #[test]
    fn nothing_is_chilled_without_attack() {
        let s = position(&["Shiver Yeti", "Shiver Yeti"], &["Wall", "Tarsier"], 0);
        let mut turn = TurnPlan::new(lib(), s);
        ChillSolver::default().play(&mut turn, &mut rng_from_seed(1));
        assert!(turn.actions.is_empty());
    }

    #[test]
    fn it_plays_legally_in_random_games() {
        let positions = sample::positions(16, 10, 40);
        let before: [Arc<dyn PartialPlayer>; 2] =
            [Arc::new(EconomyDefault), Arc::new(AttackDefault::default())];
        let acted = sample::plays_legally_after(
            &before,
            Arc::new(ChillSolver { max_iterations: 50 }),
            &positions,
        );
        assert!(acted > 0, "it changed the turn somewhere");
    }
}
