//! Partial players (spec §11.2): the building blocks of Hierarchical Portfolio Search. A
//! partial player plays one phase of a turn (defense, the ability part of the action phase,
//! the buy part of the action phase, or breach) for the player to act, appending its actions
//! to a [`TurnPlan`] under construction.
//!
//! The C++ partial players often try an action and take it back (undo, sell). Our engine
//! offers neither, so a [`TurnPlan`] keeps the state at the start of the action phase and takes
//! actions back by replaying the phase without them ([`TurnPlan::without`]): a take-back is
//! possible exactly when the remaining actions still replay, which is when the C++ engine
//! allows the undo.

use std::fmt::Debug;
use std::sync::Arc;

use crate::games::prismata::rules;
use crate::games::prismata::{Action, Library, State, TurnPhase};
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
pub trait PartialPlayer: CloneArc + Debug + Send + Sync {
    /// The phase it plays.
    fn phase(&self) -> PpPhase;

    /// Plays its actions for the player to act in `turn` (whose state is in this player's
    /// phase), applying each to the turn. Defense and breach players end their phase; ability
    /// and buy players leave the action phase open. All randomness comes from `rng`.
    fn play(&self, turn: &mut TurnPlan, rng: &mut Rng);

    /// A copy of this player with `limits` added to its buy limits (a limit in `limits`
    /// replaces the player's own for that unit), as a portfolio's or a combination's limits
    /// are pushed into its players (C++ `setBuyLimits`). By default (players that buy
    /// nothing) a plain copy.
    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        let _ = limits;
        self.clone_arc()
    }
}

/// A shared copy of a partial player (implemented for every `Clone` partial player).
pub trait CloneArc {
    /// The player, copied into a new `Arc`.
    fn clone_arc(&self) -> Arc<dyn PartialPlayer>;
}

impl<T: PartialPlayer + Clone + 'static> CloneArc for T {
    fn clone_arc(&self) -> Arc<dyn PartialPlayer> {
        Arc::new(self.clone())
    }
}

/// The most copies of a unit type a player may own for a buying partial player to buy one
/// more (C++ `BuyLimits`): (library id, limit) pairs, at most one per type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuyLimits(Vec<(u16, u16)>);

impl BuyLimits {
    /// Limits from (library id, limit) pairs; a later pair for the same type wins.
    #[cfg(test)]
    pub(crate) fn new(pairs: impl IntoIterator<Item = (u16, u16)>) -> BuyLimits {
        let mut limits = BuyLimits::default();
        for (kind, max) in pairs {
            limits.set(kind, max);
        }
        limits
    }

    /// Sets the limit of `kind`.
    pub fn set(&mut self, kind: u16, max: u16) {
        match self.0.iter_mut().find(|(k, _)| *k == kind) {
            Some(pair) => pair.1 = max,
            None => self.0.push((kind, max)),
        }
    }

    /// The limit of `kind`, if it has one.
    pub fn limit(&self, kind: u16) -> Option<u16> {
        self.0.iter().find(|(k, _)| *k == kind).map(|&(_, max)| max)
    }

    /// These limits with `other`'s added (C++ `addLimits`: `other` wins where both limit a
    /// type).
    pub fn merged(&self, other: &BuyLimits) -> BuyLimits {
        let mut limits = self.clone();
        for &(kind, max) in &other.0 {
            limits.set(kind, max);
        }
        limits
    }

    /// True if no type is limited.
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A unit-type filter (C++ `CardFilter`): which types a partial player leaves alone (does not
/// buy, does not click).
pub trait UnitFilter: Debug + Send + Sync {
    /// True if `kind` is excluded for `player` in `state`.
    fn excludes(&self, library: &Library, state: &State, player: usize, kind: u16) -> bool;
}

/// Partial players run one after the other in the same phase (C++
/// `ActionAbility_Combination`, `ActionBuy_Combination`). An ability or buy combination stops
/// once the action phase is over.
#[derive(Clone, Debug)]
pub struct Combination {
    /// The phase it plays (that of its first player, in configs).
    pub phase: PpPhase,
    /// Its players, in order.
    pub players: Vec<Arc<dyn PartialPlayer>>,
}

impl PartialPlayer for Combination {
    fn phase(&self) -> PpPhase {
        self.phase
    }

    fn play(&self, turn: &mut TurnPlan, rng: &mut Rng) {
        let action_phase = matches!(self.phase, PpPhase::Ability | PpPhase::Buy);
        for player in &self.players {
            if action_phase && !(turn.in_turn() && turn.state.phase == TurnPhase::Action) {
                return;
            }
            player.play(turn, rng);
        }
    }

    /// Pushes `limits` into every player of the combination.
    fn with_buy_limits(&self, limits: &BuyLimits) -> Arc<dyn PartialPlayer> {
        Arc::new(Combination {
            phase: self.phase,
            players: self
                .players
                .iter()
                .map(|p| p.with_buy_limits(limits))
                .collect(),
        })
    }
}

/// A turn under construction: the current state, the actions applied so far, and what is
/// needed to take action-phase actions back.
#[derive(Clone, Debug)]
pub struct TurnPlan<'a> {
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

impl<'a> TurnPlan<'a> {
    /// A turn starting from `state` (the start of the acting player's turn, or any later
    /// point of it).
    pub fn new(library: &'a Library, state: State) -> TurnPlan<'a> {
        let player = state.active;
        let mut turn = TurnPlan {
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
        if self.action_start.is_none() && self.in_turn() && self.state.phase == TurnPhase::Action {
            self.action_start = Some((self.state.clone(), self.actions.len()));
        }
    }

    /// True while it is still this turn's player to act and the game is not over.
    pub fn in_turn(&self) -> bool {
        !self.state.over && self.state.active == self.player
    }

    /// True if the player may click or buy now: its action phase, with no click waiting for
    /// its target.
    pub fn acting(&self) -> bool {
        self.in_turn() && self.state.phase == TurnPhase::Action && self.state.armed.is_none()
    }

    /// Applies uniformly random legal actions while `go` holds and one is legal (the
    /// `*_Random` defense and breach players).
    pub fn play_randomly(&mut self, rng: &mut Rng, go: impl Fn(&TurnPlan) -> bool) {
        use rand::RngExt;
        let mut legal = Vec::new();
        while go(self) {
            self.legal_actions(&mut legal);
            if legal.is_empty() {
                break;
            }
            self.apply(legal[rng.random_range(0..legal.len())]);
        }
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
    pub fn without(&self, mut drop: impl FnMut(Action) -> bool) -> Option<TurnPlan<'a>> {
        let (start_state, start) = self.action_start.as_ref()?;
        if !self.in_turn() || self.state.phase != TurnPhase::Action {
            return None;
        }
        let mut replay = TurnPlan {
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

    fn drone_clicks(turn: &TurnPlan) -> Vec<Action> {
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
        let mut turn = TurnPlan::new(lib, s.clone());
        for a in drone_clicks(&turn) {
            turn.apply(a);
        }
        let gold = |t: &TurnPlan| {
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
        let mut turn = TurnPlan::new(lib, s);
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
    fn later_buy_limits_replace_earlier_ones() {
        let a = BuyLimits::new([(1, 15), (2, 2)]);
        let b = a.merged(&BuyLimits::new([(2, 3), (4, 0)]));
        assert_eq!(
            (b.limit(1), b.limit(2), b.limit(4), b.limit(3)),
            (Some(15), Some(3), Some(0), None)
        );
        assert!(BuyLimits::default().is_empty() && !b.is_empty());
    }

    /// Clicks the first ready Drone, if any (a stand-in ability player).
    #[derive(Clone, Debug)]
    struct OneDrone;

    impl PartialPlayer for OneDrone {
        fn phase(&self) -> PpPhase {
            PpPhase::Ability
        }
        fn play(&self, turn: &mut TurnPlan, _rng: &mut Rng) {
            if let Some(&a) = drone_clicks(turn).iter().find(|&&a| turn.is_legal(a)) {
                turn.apply(a);
            }
        }
    }

    #[test]
    fn a_combination_runs_its_players_in_order_while_the_action_phase_lasts() {
        let (lib, s) = start();
        let combo = Combination {
            phase: PpPhase::Ability,
            players: vec![Arc::new(OneDrone), Arc::new(OneDrone)],
        };
        let mut rng = crate::rng::rng_from_seed(1);
        let mut turn = TurnPlan::new(lib, s);
        combo.play(&mut turn, &mut rng);
        assert_eq!(turn.actions, vec![Action::Click(0), Action::Click(1)]);
        turn.end_phase();
        combo.play(&mut turn, &mut rng);
        assert_eq!(
            turn.actions.len(),
            3,
            "nothing played once the turn is over"
        );
    }

    #[test]
    fn the_turn_ends_when_the_opponent_is_to_act() {
        let (lib, s) = start();
        let mut turn = TurnPlan::new(lib, s);
        assert!(turn.in_turn());
        assert!(turn.end_phase());
        assert!(!turn.in_turn());
        assert!(!turn.end_phase(), "nothing more to do in a finished turn");
    }
}
