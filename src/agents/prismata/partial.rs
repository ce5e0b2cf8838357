//! Partial players (spec §11.2): the building blocks of Hierarchical Portfolio Search. A
//! partial player plays one phase of a turn (defense, the ability part of the action phase,
//! the buy part of the action phase, or breach) for the player to act, appending its actions
//! to a [`Turn`] under construction.
//!
//! The C++ partial players often try an action and take it back (undo, sell). Our engine
//! offers neither, so a [`Turn`] keeps the state at the start of the action phase and takes
//! actions back by replaying the phase without them ([`Turn::without`]): a take-back is
//! possible exactly when the remaining actions still replay, which is when the C++ engine
//! allows the undo.

use std::fmt::Debug;

use crate::games::prismata::rules;
use crate::games::prismata::{Action, Library, Phase, State};
use crate::rng::Rng;

/// The phase a partial player plays (the C++ `PPPhases`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PpPhase {
    /// Blocking the opponent's attack; the player ends the defense phase itself.
    Defense,
    /// Clicking abilities, choosing targets, frontline attacks (first part of the action
    /// phase; does not end it).
    Ability,
    /// Buying (second part of the action phase; does not end it).
    Buy,
    /// Spending attack on the opponent's units after a wipeout; the player ends the breach
    /// itself.
    Breach,
}

impl PpPhase {
    /// The four phases in turn order.
    pub const ALL: [PpPhase; 4] = [
        PpPhase::Defense,
        PpPhase::Ability,
        PpPhase::Buy,
        PpPhase::Breach,
    ];
}

/// A policy for one phase of a turn.
pub trait PartialPlayer: Debug + Send + Sync {
    /// The phase it plays.
    fn phase(&self) -> PpPhase;

    /// Plays its actions for the player to act in `turn` (whose state is in this player's
    /// phase), applying each to the turn. Defense and breach players end their phase; ability
    /// and buy players leave the action phase open. All randomness comes from `rng`.
    fn play(&self, turn: &mut Turn, rng: &mut Rng);
}

/// A turn under construction: the current state, the actions applied so far, and what is
/// needed to take action-phase actions back.
#[derive(Clone, Debug)]
pub struct Turn<'a> {
    /// The unit library of the game.
    pub library: &'a Library,
    /// The state after the actions so far.
    pub state: State,
    /// The player whose turn it is.
    pub player: u8,
    /// The actions applied so far, in order.
    pub actions: Vec<Action>,
    /// The state when the action phase began and the number of actions before it, once the
    /// action phase has begun.
    action_start: Option<(State, usize)>,
}

impl<'a> Turn<'a> {
    /// A turn starting from `state` (the start of the acting player's turn, or any later
    /// point of it).
    pub fn new(library: &'a Library, state: State) -> Turn<'a> {
        let player = state.active;
        let mut turn = Turn {
            library,
            state,
            player,
            actions: Vec::new(),
            action_start: None,
        };
        turn.mark_action_start();
        turn
    }

    fn mark_action_start(&mut self) {
        if self.action_start.is_none() && self.in_turn() && self.state.phase == Phase::Action {
            self.action_start = Some((self.state.clone(), self.actions.len()));
        }
    }

    /// True while it is still this turn's player to act and the game is not over.
    pub fn in_turn(&self) -> bool {
        !self.state.over && self.state.active == self.player
    }

    /// True if `a` is legal now.
    pub fn is_legal(&self, a: Action) -> bool {
        self.in_turn() && rules::is_legal(self.library, &self.state, a)
    }

    /// The legal actions now, into `out` (cleared first; empty once the turn is over).
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.in_turn() {
            rules::legal_actions(self.library, &self.state, out);
        }
    }

    /// Applies the legal action `a` and records it.
    pub fn apply(&mut self, a: Action) {
        debug_assert!(self.is_legal(a), "illegal action {a:?} in a partial player");
        rules::apply(self.library, &mut self.state, a);
        self.actions.push(a);
        self.mark_action_start();
    }

    /// Applies `a` if it is legal; returns whether it was.
    pub fn try_apply(&mut self, a: Action) -> bool {
        let legal = self.is_legal(a);
        if legal {
            self.apply(a);
        }
        legal
    }

    /// The actions of the action phase so far (empty before it began).
    pub fn action_phase_actions(&self) -> &[Action] {
        match &self.action_start {
            Some((_, start)) => &self.actions[*start..],
            None => &[],
        }
    }

    /// The turn with the action-phase actions for which `drop` holds taken back (a dropped
    /// [`Action::Click`] takes its [`Action::Target`] with it): the phase replayed from its
    /// start without them. `None` if a remaining action is then illegal (the take-back is
    /// not possible), or if the action phase has not begun or is over.
    pub fn without(&self, mut drop: impl FnMut(Action) -> bool) -> Option<Turn<'a>> {
        let (start_state, start) = self.action_start.as_ref()?;
        if !self.in_turn() || self.state.phase != Phase::Action {
            return None;
        }
        let mut replay = Turn {
            library: self.library,
            state: start_state.clone(),
            player: self.player,
            actions: self.actions[..*start].to_vec(),
            action_start: self.action_start.clone(),
        };
        let mut dropping_target = false;
        for &a in &self.actions[*start..] {
            if let Action::Target(_) = a
                && dropping_target
            {
                dropping_target = false;
                continue;
            }
            dropping_target = false;
            if drop(a) {
                dropping_target = matches!(a, Action::Click(_));
                continue;
            }
            if !replay.try_apply(a) {
                return None;
            }
        }
        Some(replay)
    }

    /// Ends the current phase if that is legal; returns whether it did.
    pub fn end_phase(&mut self) -> bool {
        self.try_apply(Action::EndPhase)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::{Level, Library};

    fn start() -> (&'static Library, State) {
        let lib = Library::builtin();
        (
            lib,
            State::new(lib, &Level::load(lib, "units:Shiver Yeti").unwrap()),
        )
    }

    fn drone_clicks(turn: &Turn) -> Vec<Action> {
        let drone = turn.library.id("Drone").unwrap();
        let units = &turn.state.sides[turn.player as usize].units;
        (0..units.len() as u16)
            .filter(|&i| units[i as usize].kind == drone)
            .map(Action::Click)
            .collect()
    }

    #[test]
    fn taking_a_click_back_replays_the_phase_without_it() {
        let (lib, s) = start();
        let mut turn = Turn::new(lib, s.clone());
        for a in drone_clicks(&turn) {
            turn.apply(a);
        }
        let gold = |t: &Turn| {
            t.state.sides[0]
                .resources
                .get(crate::games::prismata::Resource::Gold)
        };
        assert_eq!(gold(&turn), 6, "six drones clicked");
        let back = turn.without(|a| a == Action::Click(0)).unwrap();
        assert_eq!(gold(&back), 5);
        assert_eq!(back.actions.len(), 5);
        assert!(!back.actions.contains(&Action::Click(0)));
        assert!(back.is_legal(Action::Click(0)), "the drone is ready again");
    }

    #[test]
    fn a_take_back_that_strands_a_later_action_is_refused() {
        let (lib, s) = start();
        let mut turn = Turn::new(lib, s);
        for a in drone_clicks(&turn) {
            turn.apply(a);
        }
        let engineer = lib.id("Engineer").unwrap();
        let k = turn
            .state
            .buyable
            .iter()
            .position(|&u| u == engineer)
            .unwrap() as u16;
        // Engineers cost 2 gold: buy three, spending all six.
        for _ in 0..3 {
            turn.apply(Action::Buy(k));
        }
        assert!(turn.without(|a| a == Action::Click(0)).is_none());
        assert!(turn.without(|a| a == Action::Buy(k)).is_some());
    }

    #[test]
    fn the_turn_ends_when_the_opponent_is_to_act() {
        let (lib, s) = start();
        let mut turn = Turn::new(lib, s);
        assert!(turn.in_turn());
        assert!(turn.end_phase());
        assert!(!turn.in_turn());
        assert!(!turn.end_phase(), "nothing more to do in a finished turn");
    }
}
