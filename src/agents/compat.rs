//! The Java reference's search defects, switched on for every agent at once.
//!
//! Under `compat = "java"` in a game's rules ([`SearchSupport::java_compat`]) the search agents
//! replicate the Java reference's searches (spec §14, §15.3–§15.5, quirk register §18); by
//! default they run the intended searches. Each quirk is one method of [`SearchCompat`], so an
//! agent asks for the quirk by name:
//!
//! | method | `Intended` | `Java` |
//! |---|---|---|
//! | [`SearchCompat::leaf_value`] | ±[`WIN_BONUS`] on a won or lost leaf | the heuristic alone (DIFF ignores the end of the game) |
//! | [`SearchCompat::charges_descent_steps`] | FM calls are state transitions | each tree-descent (UCT) step costs one FM call too (spec §14) |
//! | [`SearchCompat::opponent_model`] | the opponent maximises `1 − Q + exploration` | it minimises `Q + exploration` |
//! | [`SearchCompat::child_zero_before_pruning`] | P-MCTS selects by UCB from the start | child 0 until the first pruning (quirk 5a) |
//! | [`SearchCompat::pruned_children_win_min_nodes`] | pruned children are skipped | they score 0 at opponent nodes (quirk 5b) |
//! | [`SearchCompat::exact_rollouts`] | `rollout` is a P-MCTS field (`sampled` by default) | every rollout step computes every proposal (the reference's rule) |
//!
//! The Java reference has two players only. With more, the tree searches have no minimising
//! opponent: in both modes every player maximises its own value (max^n, see
//! [`super::tree`]), so `opponent_model` and `pruned_children_win_min_nodes` apply to
//! two-player games alone; the other quirks apply to any number of players.

use super::tree::OpponentModel;
use crate::agent::SearchSupport;
use crate::game::{Game, Outcome, Player};

/// Value added to (or taken from) a leaf the searching player has won (or lost): the
/// reference heuristic ignores the end of the game, the intended search does not.
pub const WIN_BONUS: f64 = 1.0e4;

/// Which searches the agents run: the intended ones or the Java reference's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SearchCompat {
    /// The intended searches (the default).
    #[default]
    Intended,
    /// The Java reference's searches, defects included.
    Java,
}

impl SearchCompat {
    /// The searches `game` asks for ([`SearchSupport::java_compat`]).
    pub fn of<G: SearchSupport>(game: &G) -> Self {
        if game.java_compat() {
            SearchCompat::Java
        } else {
            SearchCompat::Intended
        }
    }

    /// The value for `me` of a search's leaf `state`: its heuristic value `eval(state)`, plus
    /// [`terminal_bonus`] in the intended search; the heuristic alone under Java, whose
    /// heuristic ignores the end of the game.
    pub fn leaf_value<G: Game>(
        self,
        game: &G,
        eval: &dyn Fn(&G::State) -> f64,
        state: &G::State,
        me: Player,
    ) -> f64 {
        let v = eval(state);
        match self {
            SearchCompat::Intended => v + terminal_bonus(game.outcome(state), me),
            SearchCompat::Java => v,
        }
    }

    /// Whether each tree-descent (selection) step costs one FM call although it advances no
    /// state, as the Java MCTS and Portfolio MCTS count them (spec §14).
    pub fn charges_descent_steps(self) -> bool {
        self == SearchCompat::Java
    }

    /// How a tree search's opponent nodes choose among their children.
    pub fn opponent_model(self) -> OpponentModel {
        match self {
            SearchCompat::Intended => OpponentModel::Adversarial,
            SearchCompat::Java => OpponentModel::JavaMin,
        }
    }

    /// Whether Portfolio MCTS takes child 0 until a node's first pruning (and always, with
    /// pruning off): the Java code computes no UCB values before it (quirk 5a, spec §15.5).
    pub fn child_zero_before_pruning(self) -> bool {
        self == SearchCompat::Java
    }

    /// Whether pruned children keep the value 0 in Portfolio MCTS's arg-min at opponent nodes,
    /// so that one beats every positive unpruned value (quirk 5b, spec §15.5).
    pub fn pruned_children_win_min_nodes(self) -> bool {
        self == SearchCompat::Java
    }

    /// Whether Portfolio MCTS's unpruning schedule defaults to the reference's
    /// ([`PmctsParams::reference`](super::portfolio_mcts::PmctsParams::reference)) rather than
    /// the one re-tuned for the intended search.
    pub fn reference_unpruning(self) -> bool {
        self == SearchCompat::Java
    }

    /// Whether Portfolio MCTS rollouts must compute every proposal of a state and draw one
    /// (the reference's rule), leaving no `rollout` field to choose cheaper sampling.
    pub fn exact_rollouts(self) -> bool {
        self == SearchCompat::Java
    }
}

/// [`WIN_BONUS`] × `me`'s [`Outcome::utility`] in a finished game (two players: +bonus for a
/// win, −bonus for a loss, 0 for a draw), 0 while the game goes on.
pub fn terminal_bonus(outcome: Option<Outcome>, me: Player) -> f64 {
    outcome.map_or(0.0, |o| WIN_BONUS * o.utility(me))
}
