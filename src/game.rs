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

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One player won; everybody else lost.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winning player, if any.
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
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

    /// Fills `out` (cleared first) with the legal actions of the player to move, grouped so that
    /// actions with the same (actor, kind) are contiguous. Empty iff the state is terminal.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);

    /// The actor that performs `action` in `state`.
    fn actor(&self, state: &Self::State, action: Self::Action) -> Actor;

    /// The kind of `action` (index into [`GameInfo::action_kinds`]).
    fn action_kind(&self, action: Self::Action) -> u8;

    /// True if `action` ends the current player's turn.
    fn ends_turn(&self, action: Self::Action) -> bool;

    /// Applies a legal action. Behaviour for an illegal action is unspecified (it may corrupt
    /// the state or panic); use [`Game::try_apply`] for untrusted input.
    fn apply(&self, state: &mut Self::State, action: Self::Action);

    /// The final outcome, or `None` while the game goes on.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// A player's current score (the game's own notion; Tribes: its score rules).
    fn score(&self, state: &Self::State, player: Player) -> f64;

    /// What `player` is shown of `state` (by default everything).
    fn observe(&self, state: &Self::State, _player: Player) -> Self::State {
        state.clone()
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

/// A game plus a count of forward-model calls: the budget unit of every search agent.
#[derive(Debug)]
pub struct ForwardModel<'g, G: Game> {
    game: &'g G,
    calls: u64,
}

impl<'g, G: Game> ForwardModel<'g, G> {
    /// Wraps `game` with a zeroed counter.
    pub fn new(game: &'g G) -> Self {
        ForwardModel { game, calls: 0 }
    }

    /// The wrapped game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// Applies an action and counts one FM call.
    pub fn apply(&mut self, state: &mut G::State, action: G::Action) {
        self.calls += 1;
        self.game.apply(state, action);
    }

    /// Counts `n` FM calls without applying anything (for agents that charge tree steps).
    pub fn charge(&mut self, n: u64) {
        self.calls += n;
    }

    /// FM calls so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// Sets the counter back to zero.
    pub fn reset(&mut self) {
        self.calls = 0;
    }
}
