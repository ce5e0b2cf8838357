//! A toy game for tests: multi-heap Nim with several takes per turn and an explicit end turn.
//!
//! Up to four heaps. On its turn a player may take 1–3 objects from any non-empty heap, at most
//! `takes_per_turn` times, and ends the turn with `EndTurn` (always legal unless `must_take`
//! and nothing was taken yet). Whoever takes the last object wins; with `max_rounds`, the game
//! is a draw once that many rounds are complete. Score = objects taken. The state seed adds one
//! object to some heaps (the game's only chance), so replays must use the right seed.
//! Statistics: objects `taken` by the player and objects left on the heaps (`left`); a take of
//! `n` objects is labelled `take.<n>`. The search agents play it with a knowledge that values
//! objects taken and a two-script portfolio (`take.most`, `end_turn`); [`Nim::overreaching`]
//! has a third script that proposes an illegal take.

#![allow(dead_code)]

pub mod cli;
pub mod errors;

use std::sync::Arc;

use playstyles::agent::{Assignment, Knowledge, Portfolio, SearchSupport};
use playstyles::game::{Actor, Game, GameInfo, Outcome, Player, Turn};
use playstyles::rng::Rng;

/// Actor classes: heaps (for takes) and players (for ending the turn).
pub const HEAP: u8 = 0;
/// Actor class of the player ending its turn.
pub const PLAYER: u8 = 1;
/// Action kind of a take.
pub const TAKE: u8 = 0;
/// Action kind of ending the turn.
pub const END_TURN: u8 = 1;

/// A Nim level.
#[derive(Clone, Debug)]
pub struct NimLevel {
    /// Starting heap sizes (at most four).
    pub heaps: Vec<u32>,
    /// Number of players.
    pub players: usize,
    /// Take actions allowed per turn.
    pub takes_per_turn: u32,
    /// Whether a turn must take at least once before it may end.
    pub must_take: bool,
    /// Rounds after which the game is a draw, if any.
    pub max_rounds: Option<u32>,
}

impl NimLevel {
    /// Two players, heaps 5/7/9, two takes per turn, passing allowed, draw after 50 rounds.
    pub fn standard() -> Self {
        NimLevel {
            heaps: vec![5, 7, 9],
            players: 2,
            takes_per_turn: 2,
            must_take: false,
            max_rounds: Some(50),
        }
    }
}

/// A Nim action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NimAction {
    /// Take `count` objects from heap `heap`.
    Take {
        /// Heap index.
        heap: u8,
        /// Objects taken (1–3).
        count: u8,
    },
    /// End the turn.
    EndTurn,
}

/// A Nim position.
#[derive(Clone, Debug, PartialEq)]
pub struct NimState {
    heaps: [u32; 4],
    players: usize,
    to_move: usize,
    takes: u32,
    takes_per_turn: u32,
    must_take: bool,
    round: u32,
    max_rounds: Option<u32>,
    taken: [u32; 4],
    winner: Option<usize>,
}

/// The Nim rules (no parameters).
pub struct Nim {
    info: GameInfo,
    /// The portfolio has the illegal script `take.too_many` ([`Nim::overreaching`]).
    overreaching: bool,
}

impl Nim {
    /// The game.
    pub fn new() -> Self {
        Nim {
            info: GameInfo {
                name: "nim",
                min_players: 1,
                max_players: 4,
                actor_classes: &["heap", "player"],
                action_kinds: &["take", "end_turn"],
                phases: &["play"],
                stats: &["taken", "left"],
                action_labels: &[],
                chance: false,
                hidden_information: false,
            },
            overreaching: false,
        }
    }

    /// The game with a broken portfolio ([`Overreaching`]): its script `take.too_many` takes
    /// one object more than the largest heap holds, an illegal action that, applied, would wrap
    /// the heap's counter around (or panic with overflow checks).
    pub fn overreaching() -> Self {
        Nim {
            overreaching: true,
            ..Nim::new()
        }
    }
}

impl Game for Nim {
    type Level = NimLevel;
    type State = NimState;
    type Action = NimAction;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_initial_state(&self, level: &NimLevel, seed: u64) -> NimState {
        let mut heaps = [0; 4];
        for (i, &h) in level.heaps.iter().take(4).enumerate() {
            heaps[i] = h + ((playstyles::rng::mix64(seed) >> i) & 1) as u32;
        }
        NimState {
            heaps,
            players: level.players,
            to_move: 0,
            takes: 0,
            takes_per_turn: level.takes_per_turn,
            must_take: level.must_take,
            round: 0,
            max_rounds: level.max_rounds,
            taken: [0; 4],
            winner: None,
        }
    }

    fn num_players(&self, state: &NimState) -> usize {
        state.players
    }

    fn turn(&self, state: &NimState) -> Turn {
        let drawn = state.max_rounds.is_some_and(|m| state.round >= m);
        if state.winner.is_some() || drawn {
            Turn::Terminal
        } else {
            Turn::Player(state.to_move)
        }
    }

    fn round(&self, state: &NimState) -> u32 {
        state.round
    }

    fn legal_actions(&self, state: &NimState, out: &mut Vec<NimAction>) {
        out.clear();
        if self.is_terminal(state) {
            return;
        }
        if state.takes < state.takes_per_turn {
            for (heap, &h) in state.heaps.iter().enumerate() {
                for count in 1..=h.min(3) {
                    out.push(NimAction::Take {
                        heap: heap as u8,
                        count: count as u8,
                    });
                }
            }
        }
        if !(state.must_take && state.takes == 0) || out.is_empty() {
            out.push(NimAction::EndTurn);
        }
    }

    fn actor(&self, state: &NimState, action: NimAction) -> Actor {
        match action {
            NimAction::Take { heap, .. } => Actor {
                class: HEAP,
                id: heap.into(),
            },
            NimAction::EndTurn => Actor {
                class: PLAYER,
                id: state.to_move as u32,
            },
        }
    }

    fn action_kind(&self, action: NimAction) -> u8 {
        match action {
            NimAction::Take { .. } => TAKE,
            NimAction::EndTurn => END_TURN,
        }
    }

    fn ends_turn(&self, action: NimAction) -> bool {
        action == NimAction::EndTurn
    }

    fn apply(&self, state: &mut NimState, action: NimAction) {
        match action {
            NimAction::Take { heap, count } => {
                state.heaps[heap as usize] -= u32::from(count);
                state.taken[state.to_move] += u32::from(count);
                state.takes += 1;
                if state.heaps.iter().all(|&h| h == 0) {
                    state.winner = Some(state.to_move);
                }
            }
            NimAction::EndTurn => {
                state.takes = 0;
                state.to_move += 1;
                if state.to_move == state.players {
                    state.to_move = 0;
                    state.round += 1;
                }
            }
        }
    }

    fn outcome(&self, state: &NimState) -> Option<Outcome> {
        match (state.winner, self.turn(state)) {
            (Some(p), _) => Some(Outcome::win(p, state.players)),
            (None, Turn::Terminal) => Some(Outcome::draw(state.players)),
            (None, Turn::Player(_)) => None,
        }
    }

    fn score(&self, state: &NimState, player: Player) -> f64 {
        f64::from(state.taken[player])
    }

    fn player_stats(&self, state: &NimState, player: Player, out: &mut Vec<f64>) {
        out.clear();
        out.push(f64::from(state.taken[player]));
        out.push(f64::from(state.heaps.iter().sum::<u32>()));
    }

    fn action_label(&self, action: NimAction) -> Option<&'static str> {
        match action {
            NimAction::Take { count, .. } => ["take.0", "take.1", "take.2", "take.3"]
                .get(usize::from(count))
                .copied(),
            NimAction::EndTurn => None,
        }
    }

    fn render(&self, state: &NimState) -> String {
        let heaps: Vec<String> = state.heaps[..].iter().map(u32::to_string).collect();
        format!(
            "heaps {} | round {} | to move {}",
            heaps.join(" "),
            state.round,
            state.to_move
        )
    }
}

/// Nim's knowledge for the search agents: objects the player took minus the most any other
/// player took.
pub struct NimKnowledge;

impl Knowledge<Nim> for NimKnowledge {
    fn evaluate(&self, _: &Nim, _: &NimState, state: &NimState, player: Player) -> f64 {
        let others = (0..state.players).filter(|&p| p != player);
        let best_other = others.map(|p| state.taken[p]).max().unwrap_or(0);
        f64::from(state.taken[player]) - f64::from(best_other)
    }
}

/// Nim's portfolio: `take.most` takes as much as it can from the largest heap (value 1),
/// `end_turn` ends the turn (value 0.5).
pub struct NimPortfolio;

impl Portfolio<Nim> for NimPortfolio {
    fn script_names(&self) -> &[&'static str] {
        &["take.most", "end_turn"]
    }

    fn assignments(
        &self,
        game: &Nim,
        state: &NimState,
        _: &mut Rng,
        out: &mut Vec<Assignment<NimAction>>,
    ) {
        out.clear();
        let mut legal = Vec::new();
        game.legal_actions(state, &mut legal);
        let most = legal
            .iter()
            .filter_map(|&a| match a {
                NimAction::Take { heap, count } => Some((state.heaps[heap as usize], count, a)),
                NimAction::EndTurn => None,
            })
            .max_by_key(|&(heap, count, _)| (heap, count));
        if let Some((_, _, action)) = most {
            out.push(Assignment {
                action,
                script: 0,
                value: 1.0,
            });
        }
        if legal.contains(&NimAction::EndTurn) {
            out.push(Assignment {
                action: NimAction::EndTurn,
                script: 1,
                value: 0.5,
            });
        }
    }
}

/// [`NimPortfolio`] plus the script `take.too_many`, which proposes taking one object more
/// than the largest heap holds (never legal) whenever a take is legal.
pub struct Overreaching;

impl Portfolio<Nim> for Overreaching {
    fn script_names(&self) -> &[&'static str] {
        &["take.most", "end_turn", "take.too_many"]
    }

    fn assignments(
        &self,
        game: &Nim,
        state: &NimState,
        rng: &mut Rng,
        out: &mut Vec<Assignment<NimAction>>,
    ) {
        NimPortfolio.assignments(game, state, rng, out);
        let largest = (0..4).max_by_key(|&h| state.heaps[h]).unwrap_or(0);
        if out
            .iter()
            .any(|a| matches!(a.action, NimAction::Take { .. }))
        {
            out.push(Assignment {
                action: NimAction::Take {
                    heap: largest as u8,
                    count: (state.heaps[largest] + 1).min(255) as u8,
                },
                script: 2,
                value: 1.0,
            });
        }
    }
}

impl SearchSupport for Nim {
    fn knowledge(&self) -> Arc<dyn Knowledge<Self>> {
        Arc::new(NimKnowledge)
    }

    fn portfolio(&self) -> Arc<dyn Portfolio<Self>> {
        if self.overreaching {
            Arc::new(Overreaching)
        } else {
            Arc::new(NimPortfolio)
        }
    }
}
