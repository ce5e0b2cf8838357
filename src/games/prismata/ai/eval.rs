//! Leaf evaluations of the whole-turn searches (C++ `Eval.cpp`, spec §11.5).
//!
//! A playout plays the game on with a scripted player for both sides, as a fresh C++ `Game`
//! does: at most [`PLAYOUT_TURN_LIMIT`] turns counted from the playout's start, and a game
//! still running then is a draw.

use std::sync::Arc;

use super::sequence::Sequence;
use crate::games::prismata::{Library, State, encoding};
use crate::learn::value::LearnedValue;
use crate::rng::Rng;

/// Turns a playout may last (the C++ `Game` turn limit).
pub const PLAYOUT_TURN_LIMIT: u32 = 200;

/// The score of a playout win before the turns it took are taken off (C++ `WinScore`).
pub const WIN_SCORE: f64 = 10000.0;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    /// The winner; `None` for a draw or a game stopped by the turn limit.
    pub winner: Option<u8>,
    /// Turns played.
    pub turns: u32,
}

/// Plays `state` on with `player` for both sides until the game ends or the turn limit.
pub fn playout(
    library: &Library,
    state: &State,
    player: &Sequence,
    rng: &mut Rng,
) -> PlayoutResult {
    playout_with(library, state, [player, player], rng)
}

/// Plays `state` on with `players[p]` for player `p` until the game ends or the turn limit.
pub fn playout_with(
    library: &Library,
    state: &State,
    players: [&Sequence; 2],
    rng: &mut Rng,
) -> PlayoutResult {
    let (s, turns) = play_on(library, state, players, PLAYOUT_TURN_LIMIT, rng);
    PlayoutResult {
        winner: if s.over { s.winner } else { None },
        turns,
    }
}

/// `state` played on by `players[p]` for player `p` for at most `limit` turns (fewer if the
/// game ends), and the turns played.
fn play_on(
    library: &Library,
    state: &State,
    players: [&Sequence; 2],
    limit: u32,
    rng: &mut Rng,
) -> (State, u32) {
    let mut s = state.clone();
    let mut turns = 0;
    while !s.over && turns < limit {
        s = players[usize::from(s.active)].turn(library, s, rng).state;
        turns += 1;
    }
    (s, turns)
}

/// What a game's `winner` is worth to `player` in a UCT-style tree: 1 for a win, ½ for a draw,
/// 0 for a loss.
pub fn win_credit(winner: Option<u8>, player: u8) -> f64 {
    match winner {
        Some(w) if w == player => 1.0,
        None => 0.5,
        Some(_) => 0.0,
    }
}

/// The alpha-beta playout score for `max_player` (C++ `ABPlayoutScore`): a win is worth
/// [`WIN_SCORE`] less the turns it took, a loss the negative of that, a draw 0, so shorter
/// wins and longer losses are preferred.
pub fn playout_score(result: PlayoutResult, max_player: u8) -> f64 {
    match result.winner {
        Some(w) if w == max_player => WIN_SCORE - f64::from(result.turns),
        Some(_) => -WIN_SCORE + f64::from(result.turns),
        None => 0.0,
    }
}

/// Most turns a learned leaf may look ahead ([`LearnedLeaf::turns`]).
pub const MAX_LOOK_AHEAD: u32 = 50;

/// A learned leaf evaluation: the model's value of the position reached after `turns` turns
/// of a scripted player for both sides (of the position itself when 0, the papers' leaf).
/// Looking a few turns ahead moves the model to later positions, which it judges better
/// (spec §14.2; `results/learned-eval/README.md`), at the cost of those turns.
#[derive(Clone, Debug, Default)]
pub struct LearnedLeaf {
    /// The model; `None` until an agent spec names it (`model=FILE`).
    pub model: Option<Arc<LearnedValue>>,
    /// Turns played before the model scores (config and spec field `playout_turns`).
    pub turns: u32,
}

/// What a learned leaf found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LearnedVerdict {
    /// The game ended before the model was asked (at the leaf or while looking ahead).
    Ended(PlayoutResult),
    /// The model's probability that the searching player wins.
    Model(f64),
}

impl LearnedLeaf {
    /// The verdict on `state` for `player`, looking ahead with `playout` for both sides.
    ///
    /// # Panics
    ///
    /// If the model is missing, or `playout` is `None` while [`LearnedLeaf::turns`] is above
    /// 0 (the bot config refuses both: [`super::config`]).
    pub fn verdict(
        &self,
        library: &Library,
        state: &State,
        player: u8,
        playout: Option<&Sequence>,
        rng: &mut Rng,
    ) -> LearnedVerdict {
        let model = self
            .model
            .as_deref()
            .expect("a learned search is built with its model");
        let ended = |s: &State, turns| {
            LearnedVerdict::Ended(PlayoutResult {
                winner: s.winner,
                turns,
            })
        };
        if state.over {
            return ended(state, 0);
        }
        if self.turns == 0 {
            return LearnedVerdict::Model(learned_credit(library, model, state, player));
        }
        let playout = playout.expect("a learned leaf that looks ahead has a playout player");
        let (s, turns) = play_on(library, state, [playout, playout], self.turns, rng);
        if s.over {
            ended(&s, turns)
        } else {
            LearnedVerdict::Model(learned_credit(library, model, &s, player))
        }
    }
}

/// How a UCT or P-MCTS search scores a node reached for the first time.
#[derive(Clone, Debug, Default)]
pub enum Leaf {
    /// One playout by the search's playout player (the C++ searches).
    #[default]
    Playout,
    /// A learned model's value ([`LearnedLeaf`], looking ahead with the search's playout
    /// player).
    Learned(LearnedLeaf),
}

impl Leaf {
    /// The learned leaf (`None` for playouts).
    pub fn learned(&self) -> Option<&LearnedLeaf> {
        match self {
            Leaf::Learned(leaf) => Some(leaf),
            Leaf::Playout => None,
        }
    }

    /// The learned leaf, to name its model or turns (`None` for playouts).
    pub fn learned_mut(&mut self) -> Option<&mut LearnedLeaf> {
        match self {
            Leaf::Learned(leaf) => Some(leaf),
            Leaf::Playout => None,
        }
    }
}

/// Reads the Prismata model at `path` for `library`'s encoding, once per file
/// ([`LearnedValue::shared`]).
///
/// # Errors
///
/// As [`LearnedValue::load`]: the file is named.
pub fn load_model(library: &Library, path: &str) -> crate::error::Result<Arc<LearnedValue>> {
    let game = crate::games::prismata::game::NAME;
    LearnedValue::shared(path, Some(game), &encoding::encoding(library))
}

/// The probability, by `model`, that `player` wins `state` (a finished game: its
/// [`win_credit`]). The model sees the state from the side to move, as datasets record it.
pub fn learned_credit(library: &Library, model: &LearnedValue, state: &State, player: u8) -> f64 {
    if state.over {
        return win_credit(state.winner, player);
    }
    let p = model.value_of(|out| encoding::encode(library, state, usize::from(state.active), out));
    if state.active == player { p } else { 1.0 - p }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::Level;
    use crate::games::prismata::ai::sequence::tests::firsts;
    use crate::rng::rng_from_seed;

    #[test]
    fn a_playout_ends_the_game_or_stops_at_the_turn_limit() {
        let lib = Library::builtin();
        let seq = Sequence { players: firsts() };
        let mut rng = rng_from_seed(9);
        for seed in 0..6u64 {
            let s = State::new(lib, &Level::random(lib, 8, seed).unwrap());
            let r = playout(lib, &s, &seq, &mut rng);
            assert!(r.turns <= PLAYOUT_TURN_LIMIT);
            let again = playout(lib, &s, &seq, &mut rng);
            assert_eq!(r, again, "deterministic players replay the same playout");
        }
    }

    #[test]
    fn quick_wins_and_slow_losses_score_best() {
        let win = |turns| PlayoutResult {
            winner: Some(0),
            turns,
        };
        let loss = |turns| PlayoutResult {
            winner: Some(1),
            turns,
        };
        assert!(playout_score(win(10), 0) > playout_score(win(30), 0));
        assert!(playout_score(loss(30), 0) > playout_score(loss(10), 0));
        assert_eq!(
            playout_score(
                PlayoutResult {
                    winner: None,
                    turns: 200
                },
                0
            ),
            0.0
        );
        assert_eq!(playout_score(win(10), 1), -playout_score(win(10), 0));
    }
}
