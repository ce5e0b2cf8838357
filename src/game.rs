//! The game API: what every rules engine implements and every agent sees.
//!
//! A [`Game`] is a rules value (parameters only), shared by `&` across threads. Positions are
//! [`Game::State`] values: cheap to clone, carrying no history. Randomness lives only in level
//! creation and in agents (a game's own chance events draw from an RNG stored in the state and
//! seeded at creation), so a game replays exactly from `(level, seed, actions)`.
//!
//! A *turn* may hold many actions (Tribes: any number of moves, then END_TURN; Prismata: a
//! sequence of phases). Agents are called once per action. Legal actions are also exposed grouped
//! by *actor* (a unit, a city, the player itself) and *action kind*, because portfolio scripts are
//! built per actor and kind.

use std::fmt::Debug;
use std::hash::Hash;

use crate::rng::Rng;

/// A seat index: 0 moves first in seat order (the game decides the actual turn order).
pub type Player = usize;

/// Whose move it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The given player must act.
    Player(Player),
    /// The game is over.
    Terminal,
}

/// The most seats a game may have ([`GameInfo::max_players`] is at most this).
pub const MAX_SEATS: usize = 8;

/// How a finished game ended: a rank for every seat, 1 being first. Tied seats share the best
/// rank of their group and the next rank skips ("1, 1, 3"), so a two-player draw is `[1, 1]`.
///
/// The *winner* is the seat alone in first place; a game without one (a draw, or a tie for
/// first) has no winner. Fitness and win rates count sole first places only, so shared first
/// places count as not won, as draws always have.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    ranks: [u8; MAX_SEATS],
    seats: u8,
}

impl Outcome {
    /// `winner` first, every other of the `seats` seats second.
    ///
    /// # Panics
    ///
    /// If `winner >= seats` or `seats` is 0 or above [`MAX_SEATS`].
    pub fn win(winner: Player, seats: usize) -> Self {
        assert!(
            winner < seats,
            "winner {winner} is not one of {seats} seats"
        );
        assert!(
            seats <= MAX_SEATS,
            "an outcome has at most {MAX_SEATS} seats"
        );
        let mut ranks = [2u8; MAX_SEATS];
        ranks[winner] = 1;
        Self::new(&ranks[..seats])
    }

    /// Every one of the `seats` seats first.
    ///
    /// # Panics
    ///
    /// If `seats` is 0 or above [`MAX_SEATS`].
    pub fn draw(seats: usize) -> Self {
        assert!(
            seats <= MAX_SEATS,
            "an outcome has at most {MAX_SEATS} seats"
        );
        Self::new(&[1u8; MAX_SEATS][..seats])
    }

    /// Ranks from final scores, higher being better; equal scores share a rank.
    ///
    /// # Panics
    ///
    /// If there are no scores, more than [`MAX_SEATS`], or a score is NaN.
    pub fn from_scores(scores: &[f64]) -> Self {
        assert!(
            scores.iter().all(|s| !s.is_nan()),
            "NaN score in {scores:?}"
        );
        let ranks: Vec<u8> = scores
            .iter()
            .map(|s| 1 + scores.iter().filter(|t| *t > s).count() as u8)
            .collect();
        Self::new(&ranks)
    }

    /// The outcome with these ranks, if they form a ranking: every rank `r` is 1 + the number
    /// of seats ranked strictly better.
    pub fn from_ranks(ranks: &[u8]) -> Option<Self> {
        let valid = !ranks.is_empty()
            && ranks.len() <= MAX_SEATS
            && ranks
                .iter()
                .all(|&r| usize::from(r) == 1 + ranks.iter().filter(|&&t| t < r).count());
        valid.then(|| Self::new(ranks))
    }

    fn new(ranks: &[u8]) -> Self {
        assert!(
            (1..=MAX_SEATS).contains(&ranks.len()),
            "an outcome has 1 to {MAX_SEATS} seats, not {}",
            ranks.len()
        );
        let mut all = [0u8; MAX_SEATS];
        all[..ranks.len()].copy_from_slice(ranks);
        Outcome {
            ranks: all,
            seats: ranks.len() as u8,
        }
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    /// Every seat's rank, in seat order.
    pub fn ranks(&self) -> &[u8] {
        &self.ranks[..self.seats()]
    }

    /// The rank of `seat` (1 = first).
    ///
    /// # Panics
    ///
    /// If `seat` is not a seat of the game.
    pub fn rank(&self, seat: Player) -> u8 {
        self.ranks()[seat]
    }

    /// The seat alone in first place, if any.
    pub fn winner(self) -> Option<Player> {
        let mut firsts = self.ranks().iter().enumerate().filter(|(_, r)| **r == 1);
        match (firsts.next(), firsts.next()) {
            (Some((p, _)), None) => Some(p),
            _ => None,
        }
    }

    /// True if no seat is alone in first place.
    pub fn is_draw(self) -> bool {
        self.winner().is_none()
    }

    /// True if every seat shares first place (a draw in the narrow sense).
    pub fn all_tied(self) -> bool {
        self.ranks().iter().all(|&r| r == 1)
    }

    /// `seat`'s place with ties split evenly: a group of `k` seats tied at rank `r` holds the
    /// places `r ..= r + k − 1` and each gets their mean (a two-player draw: 1.5 each).
    pub fn fractional_rank(&self, seat: Player) -> f64 {
        let r = self.rank(seat);
        let tied = self.ranks().iter().filter(|&&t| t == r).count();
        f64::from(r) + (tied as f64 - 1.0) / 2.0
    }

    /// `seat`'s utility in [−1, 1]: 1 for a sole first place, −1 for a sole last place, linear
    /// in [`Outcome::fractional_rank`] between; the utilities of all seats sum to 0. Two
    /// players: +1 win, −1 loss, 0 draw. The one seat of a one-seat game gets 1.
    pub fn utility(&self, seat: Player) -> f64 {
        let n = self.seats() as f64;
        if n < 2.0 {
            return 1.0;
        }
        1.0 - 2.0 * (self.fractional_rank(seat) - 1.0) / (n - 1.0)
    }
}

impl Debug for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.winner() {
            Some(p) if self.ranks().iter().all(|&r| r <= 2) => write!(f, "Win({p})"),
            _ if self.all_tied() => write!(f, "Draw"),
            _ => write!(f, "Ranks({:?})", self.ranks()),
        }
    }
}

/// Static facts about a game, kept apart from play (OpenSpiel's `GameType`).
#[derive(Clone, Debug)]
pub struct GameInfo {
    /// Short name used on the command line and in configs (`tribes`).
    pub name: &'static str,
    /// Fewest players the game supports.
    pub min_players: usize,
    /// Most players the game supports.
    pub max_players: usize,
    /// Names of actor classes, indexed by [`Actor::class`] (Tribes: tribe, city, unit).
    pub actor_classes: &'static [&'static str],
    /// Names of action kinds, indexed by [`Game::action_kind`].
    pub action_kinds: &'static [&'static str],
    /// Names of the phases of a turn, indexed by [`Game::phase`] (Tribes has one).
    pub phases: &'static [&'static str],
    /// Names of the per-player statistics [`Game::player_stats`] reports, in order.
    pub stats: &'static [&'static str],
    /// Every label [`Game::action_label`] can return.
    pub action_labels: &'static [&'static str],
    /// The game has chance events. They draw from an RNG kept in the state, so a state
    /// determines its future draws: search agents must not rely on them and search
    /// [`Game::determinise`]d states instead.
    pub chance: bool,
    /// Some of the state is hidden from some players ([`Game::observe`] hides it; search agents
    /// search [`Game::determinise`]d states).
    pub hidden_information: bool,
}

impl GameInfo {
    /// True if search agents must determinise the states they search
    /// ([`GameInfo::chance`] or [`GameInfo::hidden_information`]).
    pub fn needs_determinisation(&self) -> bool {
        self.chance || self.hidden_information
    }
}

/// Who performs an action: an actor class (index into [`GameInfo::actor_classes`]) and an id that
/// is unique within that class in one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Actor {
    /// Index into [`GameInfo::actor_classes`].
    pub class: u8,
    /// Identifier within the class (a unit id, a city id, a player index).
    pub id: u32,
}

/// One run of legal actions sharing an actor and an action kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionGroup {
    /// Who would perform these actions.
    pub actor: Actor,
    /// Their common kind (index into [`GameInfo::action_kinds`]).
    pub kind: u8,
    /// Start of the group in [`GroupedActions::actions`].
    pub start: usize,
    /// End (exclusive) of the group in [`GroupedActions::actions`].
    pub end: usize,
}

/// Legal actions partitioned into groups by (actor, kind); a caller-owned, reusable buffer.
#[derive(Clone, Debug)]
pub struct GroupedActions<A> {
    /// All legal actions, each group contiguous.
    pub actions: Vec<A>,
    /// The groups, in order of first appearance; no (actor, kind) pair appears twice.
    pub groups: Vec<ActionGroup>,
}

impl<A> Default for GroupedActions<A> {
    fn default() -> Self {
        GroupedActions {
            actions: Vec::new(),
            groups: Vec::new(),
        }
    }
}

impl<A: Copy> GroupedActions<A> {
    /// The actions of one group.
    pub fn group(&self, g: &ActionGroup) -> &[A] {
        &self.actions[g.start..g.end]
    }

    /// Rebuilds `groups` from `actions`: runs of consecutive actions with the same `key`
    /// (actor, kind) form one group each.
    pub fn regroup(&mut self, key: impl Fn(A) -> (Actor, u8)) {
        self.groups.clear();
        for (i, &a) in self.actions.iter().enumerate() {
            let (actor, kind) = key(a);
            match self.groups.last_mut() {
                Some(g) if g.actor == actor && g.kind == kind => g.end = i + 1,
                _ => self.groups.push(ActionGroup {
                    actor,
                    kind,
                    start: i,
                    end: i + 1,
                }),
            }
        }
    }
}

/// Legal actions with the game's record of what they were listed from, so that
/// [`Game::relist`] can bring them up to date after an action instead of listing afresh
/// ([`Game::list`]); a caller-owned, reusable buffer.
#[derive(Clone, Debug)]
pub struct Listing<A> {
    /// The legal actions, in [`Game::legal_actions`] order.
    pub actions: Vec<A>,
    /// The game's record of the runs of `actions` (its own encoding; empty for a game that
    /// always lists afresh).
    pub spans: Vec<Span>,
    /// The game's per-listing facts (its own encoding).
    pub words: Vec<u64>,
    /// Buffers [`Game::relist`] builds the next listing in.
    pub spare: (Vec<A>, Vec<Span>),
}

impl<A> Default for Listing<A> {
    fn default() -> Self {
        Listing {
            actions: Vec::new(),
            spans: Vec::new(),
            words: Vec::new(),
            spare: (Vec::new(), Vec::new()),
        }
    }
}

/// One run of a [`Listing`]'s actions: where it ends, whose it is and what it depends on, in
/// the game's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// End (exclusive) of the run in [`Listing::actions`].
    pub end: u32,
    /// The run's actor, as the game encodes it.
    pub actor: u32,
    /// What the run was listed from, as the game encodes it.
    pub deps: [u32; 3],
}

/// An action that the state does not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// The action, as `Debug` text.
    pub action: String,
}

impl std::fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "illegal action {}", self.action)
    }
}

impl std::error::Error for IllegalAction {}

/// A rules engine. Implementations are parameter values (`Sync`), positions live in `State`.
pub trait Game: Sync {
    /// The starting situation (a map, a unit set) a game is created from.
    type Level: Clone + Send + Sync + Debug;
    /// A position: cheap to clone, no history.
    type State: Clone + Send + Sync + PartialEq + Debug;
    /// One atomic move.
    type Action: Copy + Eq + Hash + Debug + Send + Sync;

    /// Static facts about the game.
    fn info(&self) -> &GameInfo;

    /// The initial state for a level; `seed` drives the game's own chance events.
    fn new_initial_state(&self, level: &Self::Level, seed: u64) -> Self::State;

    /// Number of players in a state.
    fn num_players(&self, state: &Self::State) -> usize;

    /// Whose move it is, or [`Turn::Terminal`].
    fn turn(&self, state: &Self::State) -> Turn;

    /// The phase of the current turn (index into [`GameInfo::phases`]).
    fn phase(&self, _state: &Self::State) -> u8 {
        0
    }

    /// How many full rounds (every player one turn) have been completed.
    fn round(&self, state: &Self::State) -> u32;

    /// The most rounds a game can last under these rules, if the rules cap it.
    fn max_rounds(&self) -> Option<u32> {
        None
    }

    /// Fills `out` (cleared first) with the legal actions of the player to move, grouped so that
    /// actions with the same (actor, kind) are contiguous. Empty iff the state is terminal.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);

    /// Fills `listing` with the legal actions of `state` ([`Game::legal_actions`]) and what
    /// [`Game::relist`] needs to update them.
    fn list(&self, state: &Self::State, listing: &mut Listing<Self::Action>) {
        self.legal_actions(state, &mut listing.actions);
        listing.spans.clear();
        listing.words.clear();
    }

    /// Brings `listing`, made by [`Game::list`] or `relist` for the state that `action` was
    /// applied to, up to date for `after`, the resulting state: afterwards it is what
    /// [`Game::list`] would make for `after`. A game may re-list only the actors the action
    /// touched; by default it lists afresh.
    fn relist(
        &self,
        listing: &mut Listing<Self::Action>,
        _action: Self::Action,
        after: &Self::State,
    ) {
        self.list(after, listing);
    }

    /// The actor that performs `action` in `state`.
    fn actor(&self, state: &Self::State, action: Self::Action) -> Actor;

    /// The kind of `action` (index into [`GameInfo::action_kinds`]).
    fn action_kind(&self, action: Self::Action) -> u8;

    /// Which choice of play style `action` is: two actions with the same key do the same kind
    /// of thing (a strength dial may swap one for the other without changing the player's
    /// style, only how well it plays). Default: the action's kind.
    fn style_key(&self, action: Self::Action) -> u32 {
        u32::from(self.action_kind(action))
    }

    /// True if `action` ends the current player's turn, or in a game whose turns have
    /// phases, one of its phases (the turn is over once another player is to move).
    fn ends_turn(&self, action: Self::Action) -> bool;

    /// Applies a legal action. Behaviour for an illegal action is unspecified (it may corrupt
    /// the state or panic); use [`Game::try_apply`] for untrusted input.
    fn apply(&self, state: &mut Self::State, action: Self::Action);

    /// The final ranking of the seats, or `None` while the game goes on.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// A player's current score (the game's own notion; Tribes: its score rules).
    fn score(&self, state: &Self::State, player: Player) -> f64;

    /// What `player` is shown of `state` (by default everything).
    fn observe(&self, state: &Self::State, _player: Player) -> Self::State {
        state.clone()
    }

    /// A state consistent with what `viewer` knows of `observed` (the state
    /// [`Game::observe`] gave it), its hidden parts and future chance draws sampled from `rng`;
    /// written into `out`, reusing its buffers. Search agents call it for games whose
    /// [`GameInfo::needs_determinisation`] is true, once per decision. The default copies
    /// `observed`: right for games with neither chance nor hidden information.
    fn determinise(
        &self,
        observed: &Self::State,
        _viewer: Player,
        _rng: &mut Rng,
        out: &mut Self::State,
    ) {
        out.clone_from(observed);
    }

    /// Per-player statistics (named by [`GameInfo::stats`]) written into `out` (cleared first):
    /// logged by the arena at the end of each of the player's turns and at the game's end.
    fn player_stats(&self, _state: &Self::State, _player: Player, out: &mut Vec<f64>) {
        out.clear();
    }

    /// A finer label of an action for statistics (Tribes: `spawn.archer`, `research.mining`),
    /// if it has one beyond its kind.
    fn action_label(&self, _action: Self::Action) -> Option<&'static str> {
        None
    }

    /// A display name for a player, if the game has one (Tribes: its tribe).
    fn player_name(&self, _state: &Self::State, _player: Player) -> Option<String> {
        None
    }

    /// A human-readable picture of the state (a text board for Tribes).
    fn render(&self, state: &Self::State) -> String {
        format!("{state:?}")
    }

    /// Legal actions grouped by (actor, kind), into a reusable buffer.
    fn grouped_actions(&self, state: &Self::State, out: &mut GroupedActions<Self::Action>) {
        self.legal_actions(state, &mut out.actions);
        out.regroup(|a| (self.actor(state, a), self.action_kind(a)));
    }

    /// True if `action` is among the legal actions of `state`.
    fn is_legal(&self, state: &Self::State, action: Self::Action) -> bool {
        let mut buf = Vec::new();
        self.legal_actions(state, &mut buf);
        buf.contains(&action)
    }

    /// Applies `action` if it is legal; otherwise leaves the state unchanged.
    fn try_apply(
        &self,
        state: &mut Self::State,
        action: Self::Action,
    ) -> Result<(), IllegalAction> {
        if self.is_legal(state, action) {
            self.apply(state, action);
            Ok(())
        } else {
            Err(IllegalAction {
                action: format!("{action:?}"),
            })
        }
    }

    /// Scores of every player, in seat order.
    fn scores(&self, state: &Self::State) -> Vec<f64> {
        (0..self.num_players(state))
            .map(|p| self.score(state, p))
            .collect()
    }

    /// True once the game is over.
    fn is_terminal(&self, state: &Self::State) -> bool {
        self.turn(state) == Turn::Terminal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_draws_and_scores_give_shared_competition_ranks() {
        let w = Outcome::win(1, 3);
        assert_eq!(w.ranks(), [2, 1, 2]);
        assert_eq!((w.winner(), w.is_draw()), (Some(1), false));
        let d = Outcome::draw(2);
        assert_eq!((d.ranks(), d.winner()), (&[1u8, 1][..], None));
        let s = Outcome::from_scores(&[3.0, 7.0, 3.0, 1.0]);
        assert_eq!(s.ranks(), [2, 1, 2, 4]);
        let tie = Outcome::from_scores(&[5.0, 5.0, 1.0]);
        assert_eq!((tie.ranks(), tie.winner()), (&[1u8, 1, 3][..], None));
        assert_eq!(
            format!("{w:?} {d:?} {s:?}"),
            "Win(1) Draw Ranks([2, 1, 2, 4])"
        );
        assert_eq!(format!("{:?}", Outcome::win(0, 2)), "Win(0)");
    }

    #[test]
    fn only_rankings_are_accepted() {
        assert!(Outcome::from_ranks(&[1, 2, 2]).is_some());
        assert!(Outcome::from_ranks(&[1, 1, 3]).is_some());
        for bad in [&[][..], &[2, 1, 2, 4, 9], &[1, 1, 2], &[0, 1], &[1, 3]] {
            assert!(Outcome::from_ranks(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn utilities_are_zero_sum_and_two_player_values_are_plus_minus_one() {
        let w = Outcome::win(0, 2);
        assert_eq!((w.utility(0), w.utility(1)), (1.0, -1.0));
        let d = Outcome::draw(2);
        assert_eq!((d.utility(0), d.utility(1)), (0.0, 0.0));
        for o in [
            Outcome::win(2, 4),
            Outcome::from_scores(&[1.0, 5.0, 5.0, 0.0, 2.0]),
        ] {
            let sum: f64 = (0..o.seats()).map(|p| o.utility(p)).sum();
            assert!(sum.abs() < 1e-12, "{o:?}");
        }
        let o = Outcome::from_scores(&[1.0, 5.0, 5.0]);
        assert_eq!(o.fractional_rank(1), 1.5);
        assert_eq!(o.utility(0), -1.0);
        assert_eq!(Outcome::win(0, 1).utility(0), 1.0);
    }
}
