//! Pig, the dice game, written against playstyles' public API only: the rules ([`Game`]), what
//! the search agents use ([`SearchSupport`]: a [`Knowledge`] and a [`Portfolio`] of scripts),
//! and what the workflows use ([`GameKit`]: rules options, levels, play-style features).
//!
//! Rules: 2–4 players take turns. On its turn a player rolls a die as often as it likes; each
//! roll adds the die to its *turn total*, except a 1, which wipes the turn total and ends the
//! turn (the player then has only `pass`). Holding banks the turn total into the player's score
//! and ends the turn. The first player to bank [`PigRules::target`] points wins at once; after
//! [`PigRules::max_rounds`] rounds the players are ranked by score (ties shared).
//!
//! Chance: the die is drawn from a seed kept in the state (seeded by `new_initial_state`), so
//! a game replays exactly from `(level, seed, actions)`. A search agent that copied the state
//! would know every future roll; [`Game::determinise`] therefore replaces that seed with one
//! drawn from the agent's own RNG, and the agent searches futures that are as uncertain to it
//! as the real one.

use std::sync::Arc;

use rand::Rng as _;

use playstyles::agent::{Assignment, Knowledge, Portfolio, SearchSupport};
use playstyles::error::{Error, Result};
use playstyles::features::{Composite, GameView};
use playstyles::game::{Actor, Game, GameInfo, Outcome, Player, Turn};
use playstyles::kit::GameKit;
use playstyles::rng::{Rng, mix64};

/// The most players a game of Pig seats.
pub const MAX_PLAYERS: usize = 4;

/// The rules options (a config's `[rules]` table).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PigRules {
    /// Points that win the game.
    pub target: u32,
    /// Rounds after which the game ends and players are ranked by score.
    pub max_rounds: u32,
}

impl Default for PigRules {
    fn default() -> Self {
        PigRules {
            target: 50,
            max_rounds: 100,
        }
    }
}

/// A level: only the number of players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PigLevel {
    /// Players, 2 to [`MAX_PLAYERS`].
    pub players: usize,
}

/// One action: roll the die, bank the turn total, or pass after rolling a 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PigAction {
    /// Roll the die.
    Roll,
    /// Bank the turn total and end the turn.
    Hold,
    /// End the turn after a 1 wiped the turn total (the only legal action then).
    Pass,
}

/// Action kinds, indexed as in [`GameInfo::action_kinds`].
const KINDS: [&str; 3] = ["roll", "hold", "pass"];

/// Per-player statistics, as in [`GameInfo::stats`].
const STATS: [&str; 6] = ["score", "turns", "rolls", "holds", "held_points", "busts"];

/// A position of Pig.
#[derive(Clone, Debug, PartialEq)]
pub struct PigState {
    players: usize,
    to_move: usize,
    round: u32,
    scores: [u32; MAX_PLAYERS],
    turn_total: u32,
    rolls_this_turn: u32,
    busted: bool,
    over: bool,
    /// The die's seed: each roll advances it (the game's only randomness).
    dice: u64,
    turns: [u32; MAX_PLAYERS],
    rolls: [u32; MAX_PLAYERS],
    holds: [u32; MAX_PLAYERS],
    held_points: [u32; MAX_PLAYERS],
    busts: [u32; MAX_PLAYERS],
}

impl PigState {
    /// The best banked score among the other players.
    pub fn best_other(&self, player: Player) -> u32 {
        (0..self.players)
            .filter(|&p| p != player)
            .map(|p| self.scores[p])
            .max()
            .unwrap_or(0)
    }
}

/// The game of Pig under some rules.
#[derive(Clone, Debug)]
pub struct PigGame {
    /// The rules.
    pub rules: PigRules,
    info: GameInfo,
}

impl PigGame {
    /// Pig with these rules.
    pub fn new(rules: PigRules) -> Self {
        PigGame {
            rules,
            info: GameInfo {
                name: "pig",
                min_players: 2,
                max_players: MAX_PLAYERS,
                actor_classes: &["player"],
                action_kinds: &KINDS,
                phases: &["turn"],
                stats: &STATS,
                action_labels: &[],
                chance: true,
                hidden_information: false,
            },
        }
    }

    fn end_turn(&self, s: &mut PigState) {
        let p = s.to_move;
        s.turns[p] += 1;
        s.turn_total = 0;
        s.rolls_this_turn = 0;
        s.busted = false;
        s.to_move = (p + 1) % s.players;
        if s.to_move == 0 {
            s.round += 1;
            s.over |= s.round >= self.rules.max_rounds;
        }
    }
}

impl Default for PigGame {
    fn default() -> Self {
        PigGame::new(PigRules::default())
    }
}

impl Game for PigGame {
    type Level = PigLevel;
    type State = PigState;
    type Action = PigAction;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_initial_state(&self, level: &PigLevel, seed: u64) -> PigState {
        PigState {
            players: level.players.clamp(1, MAX_PLAYERS),
            to_move: 0,
            round: 0,
            scores: [0; MAX_PLAYERS],
            turn_total: 0,
            rolls_this_turn: 0,
            busted: false,
            over: self.rules.max_rounds == 0,
            dice: seed,
            turns: [0; MAX_PLAYERS],
            rolls: [0; MAX_PLAYERS],
            holds: [0; MAX_PLAYERS],
            held_points: [0; MAX_PLAYERS],
            busts: [0; MAX_PLAYERS],
        }
    }

    fn num_players(&self, state: &PigState) -> usize {
        state.players
    }

    fn turn(&self, state: &PigState) -> Turn {
        if state.over {
            Turn::Terminal
        } else {
            Turn::Player(state.to_move)
        }
    }

    fn round(&self, state: &PigState) -> u32 {
        state.round
    }

    fn max_rounds(&self) -> Option<u32> {
        Some(self.rules.max_rounds)
    }

    fn legal_actions(&self, state: &PigState, out: &mut Vec<PigAction>) {
        out.clear();
        if state.over {
            return;
        }
        if state.busted {
            out.push(PigAction::Pass);
        } else if state.rolls_this_turn == 0 {
            out.push(PigAction::Roll);
        } else {
            out.extend([PigAction::Roll, PigAction::Hold]);
        }
    }

    fn actor(&self, state: &PigState, _action: PigAction) -> Actor {
        Actor {
            class: 0,
            id: state.to_move as u32,
        }
    }

    fn action_kind(&self, action: PigAction) -> u8 {
        action as u8
    }

    fn ends_turn(&self, action: PigAction) -> bool {
        action != PigAction::Roll
    }

    fn apply(&self, s: &mut PigState, action: PigAction) {
        let p = s.to_move;
        match action {
            PigAction::Roll => {
                s.dice = s.dice.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let die = (mix64(s.dice) % 6) as u32 + 1;
                s.rolls[p] += 1;
                s.rolls_this_turn += 1;
                if die == 1 {
                    s.turn_total = 0;
                    s.busted = true;
                    s.busts[p] += 1;
                } else {
                    s.turn_total += die;
                }
            }
            PigAction::Hold => {
                s.scores[p] += s.turn_total;
                s.holds[p] += 1;
                s.held_points[p] += s.turn_total;
                if s.scores[p] >= self.rules.target {
                    s.over = true;
                    s.turns[p] += 1;
                } else {
                    self.end_turn(s);
                }
            }
            PigAction::Pass => self.end_turn(s),
        }
    }

    fn outcome(&self, state: &PigState) -> Option<Outcome> {
        state
            .over
            .then(|| Outcome::from_scores(&self.scores(state)))
    }

    fn score(&self, state: &PigState, player: Player) -> f64 {
        f64::from(state.scores[player])
    }

    /// Keeps everything the players see (scores, turn total) and replaces the die's seed with
    /// one drawn from `rng`: the searched futures are the viewer's guesses, not the real rolls.
    fn determinise(&self, observed: &PigState, _viewer: Player, rng: &mut Rng, out: &mut PigState) {
        out.clone_from(observed);
        out.dice = rng.next_u64();
    }

    fn player_stats(&self, s: &PigState, p: Player, out: &mut Vec<f64>) {
        out.clear();
        out.extend(
            [
                s.scores[p],
                s.turns[p],
                s.rolls[p],
                s.holds[p],
                s.held_points[p],
                s.busts[p],
            ]
            .map(f64::from),
        );
    }

    fn render(&self, s: &PigState) -> String {
        format!(
            "round {} | scores {:?} | player {} has {} at stake",
            s.round,
            &s.scores[..s.players],
            s.to_move,
            s.turn_total
        )
    }
}

/// The evaluation the search agents use: the lead over the best opponent, counting the turn
/// total of the player to move, as a share of the target (within ±0.5, so that a finished
/// game, worth its [`Outcome::utility`] ±1, always counts more).
pub struct PigKnowledge;

impl Knowledge<PigGame> for PigKnowledge {
    fn evaluate(&self, game: &PigGame, _root: &PigState, s: &PigState, player: Player) -> f64 {
        if let Some(o) = game.outcome(s) {
            return o.utility(player);
        }
        let stake = |p: Player| s.scores[p] + if s.to_move == p { s.turn_total } else { 0 };
        let best_other = (0..s.players)
            .filter(|&p| p != player)
            .map(stake)
            .max()
            .unwrap_or(0);
        let lead = f64::from(stake(player)) - f64::from(best_other);
        (0.5 * lead / f64::from(game.rules.target.max(1))).clamp(-0.5, 0.5)
    }
}

/// A script: given the state (never terminal, the player free to roll or hold), hold or not.
type Script = fn(&PigGame, &PigState) -> bool;

/// The scripts: each says whether to hold; its proposal is that action, with value 1.
const SCRIPTS: [(&str, Script); 6] = [
    ("hold_at_15", |_, s| s.turn_total >= 15),
    ("hold_at_20", |_, s| s.turn_total >= 20),
    ("hold_at_25", |_, s| s.turn_total >= 25),
    // Roll on while the banked score plus the turn total is behind the leader.
    ("roll_while_behind", |_, s| {
        s.scores[s.to_move] + s.turn_total > s.best_other(s.to_move)
    }),
    // Hold as soon as holding wins; otherwise keep rolling.
    ("go_for_target", |g, s| {
        s.scores[s.to_move] + s.turn_total >= g.rules.target
    }),
    // Bank any points at all: the most cautious play.
    ("bank_anything", |_, s| s.turn_total > 0),
];

/// The script names, in [`SCRIPTS`] order.
const SCRIPT_NAMES: [&str; 6] = {
    let mut names = [""; 6];
    let mut i = 0;
    while i < SCRIPTS.len() {
        names[i] = SCRIPTS[i].0;
        i += 1;
    }
    names
};

/// Pig's portfolio: every script proposes roll or hold; where only one action is legal (the
/// first roll of a turn, the pass after a 1) every script proposes it. Proposals are
/// de-duplicated by action, the first script keeping it.
pub struct PigPortfolio;

impl Portfolio<PigGame> for PigPortfolio {
    fn script_names(&self) -> &[&'static str] {
        &SCRIPT_NAMES
    }

    fn assignments(
        &self,
        game: &PigGame,
        state: &PigState,
        _rng: &mut Rng,
        out: &mut Vec<Assignment<PigAction>>,
    ) {
        out.clear();
        let mut legal = Vec::new();
        game.legal_actions(state, &mut legal);
        for (i, (_, holds)) in SCRIPTS.iter().enumerate() {
            let action = match legal.as_slice() {
                [only] => *only,
                _ if holds(game, state) => PigAction::Hold,
                _ => PigAction::Roll,
            };
            if !out.iter().any(|a| a.action == action) {
                out.push(Assignment {
                    action,
                    script: i as u16,
                    value: 1.0,
                });
            }
        }
    }
}

impl SearchSupport for PigGame {
    fn knowledge(&self) -> Arc<dyn Knowledge<Self>> {
        Arc::new(PigKnowledge)
    }

    fn portfolio(&self) -> Arc<dyn Portfolio<Self>> {
        Arc::new(PigPortfolio)
    }
}

/// Pig's play-style features: how greedy a player is.
const FEATURES: [Composite; 2] = [
    Composite {
        name: "hold_total",
        doc: "mean turn total when holding (points banked per hold)",
        won_only: false,
        value: |g: &GameView<'_>| g.final_stat("held_points") / g.final_stat("holds").max(1.0),
    },
    Composite {
        name: "rolls_per_turn",
        doc: "mean number of rolls per turn",
        won_only: false,
        value: |g: &GameView<'_>| g.final_stat("rolls") / g.final_stat("turns").max(1.0),
    },
];

impl GameKit for PigGame {
    type Rules = PigRules;

    fn with_rules(rules: PigRules) -> Self {
        PigGame::new(rules)
    }

    /// A level is its number of players: `2`, `3` or `4`.
    fn load_level(name: &str) -> Result<PigLevel> {
        match name.trim().parse::<usize>() {
            Ok(players) if (2..=MAX_PLAYERS).contains(&players) => Ok(PigLevel { players }),
            _ => Err(Error::config(
                "level",
                format!("`{name}` is not a number of players from 2 to {MAX_PLAYERS}"),
            )),
        }
    }

    fn builtin_levels() -> Vec<String> {
        (2..=MAX_PLAYERS).map(|n| n.to_string()).collect()
    }

    fn generate_level(seed: u64) -> Result<PigLevel> {
        Ok(PigLevel {
            players: 2 + (seed % (MAX_PLAYERS as u64 - 1)) as usize,
        })
    }

    fn level_facts(level: &PigLevel) -> Vec<(&'static str, String)> {
        vec![("players", level.players.to_string())]
    }

    fn describe_level(level: &PigLevel) -> String {
        format!("Pig for {} players", level.players)
    }

    fn default_genome() -> Vec<&'static str> {
        SCRIPT_NAMES.to_vec()
    }

    /// `examples/pig/quickstart.toml`: a map of how greedy a player is, in under a minute.
    fn quickstart() -> Option<&'static str> {
        Some(include_str!("quickstart.toml"))
    }

    fn features() -> &'static [Composite] {
        &FEATURES
    }

    fn game_columns() -> &'static [&'static str] {
        &STATS
    }
}
