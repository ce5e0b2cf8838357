//! Skirmish, a two-player economy game written against playstyles' public API only: the rules
//! ([`Game`]), what the search agents use ([`SearchSupport`]: a [`Knowledge`], a [`Portfolio`]
//! of four scripts, and each script as an agent of its own), and what the workflows use
//! ([`GameKit`]: rules options, levels, play-style features).
//!
//! Rules: two players each hold a base (hit points), gold, workers, soldiers and walls; a
//! level sets what they start with. They take turns, one action a turn: spend all the gold it
//! can on workers (the next one costs [`WORKER_COST`] plus the workers it has; at most
//! [`MAX_WORKERS`]), on soldiers ([`SOLDIER_COST`] each) or on walls ([`WALL_COST`] each);
//! attack with every soldier; or pass. After its action a player collects 1 gold plus 1 per
//! worker. An attack meets the walls first: each wall stops [`WALL_BLOCKS`] attackers, who
//! die, and a wall falls for every [`WALLS_PER_LOSS`] stopped (rounded up); the attackers left
//! fight the defending soldiers one for one; those still standing hit the base for 1 each and
//! come home. A base at 0 loses at once; after [`SkirmishRules::max_rounds`] rounds the higher
//! score (hit points plus workers) wins, then the more gold collected; else a draw.
//!
//! So there are three ways to play, and each tends to beat one of the others: soldiers and
//! attacks before the other side has defences (*rush*) beat a side that builds workers;
//! workers that outgrow the other side (*boom*) beat a side that sits behind walls; walls
//! that attacks break on, and a counter-attack late (*turtle*), beat a rush. A fourth script
//! (*counter*) answers the other side's army and builds workers otherwise. The game has no
//! chance: a game replays from its level and the players' moves.

use std::sync::Arc;

use playstyles::agent::{Agent, AgentSpec, Assignment, Knowledge, Portfolio, SearchSupport};
use playstyles::error::{Error, Result};
use playstyles::features::{Composite, GameView};
use playstyles::game::{Actor, Game, GameInfo, Outcome, Player, Turn};
use playstyles::kit::GameKit;
use playstyles::rng::{Rng, mix64};

/// Gold the next worker costs: this plus the workers a player has.
pub const WORKER_COST: u32 = 2;
/// Gold a soldier costs.
pub const SOLDIER_COST: u32 = 2;
/// Gold a wall costs.
pub const WALL_COST: u32 = 3;
/// The most workers a player may have.
pub const MAX_WORKERS: u32 = 12;
/// Attackers one wall stops (they die).
pub const WALL_BLOCKS: u32 = 2;
/// Stopped attackers it takes to bring down one wall.
pub const WALLS_PER_LOSS: u32 = 3;

/// A point of score in the ranking at the round cap, in gold collected (which breaks ties):
/// more than any `u32` of gold, so that gold never outweighs a point.
const POINT: f64 = 4_294_967_296.0;

/// The rules options (a config's `[rules]` table).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkirmishRules {
    /// Rounds after which the game ends and the higher score wins.
    pub max_rounds: u32,
}

impl Default for SkirmishRules {
    fn default() -> Self {
        SkirmishRules { max_rounds: 30 }
    }
}

/// A level: what each player starts with (both the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkirmishLevel {
    /// The base's hit points, at least 1.
    pub hp: u32,
    /// Gold.
    pub gold: u32,
    /// Workers, at most [`MAX_WORKERS`].
    pub workers: u32,
    /// Walls.
    pub walls: u32,
}

/// The built-in levels, by name: `(name, level)`.
const LEVELS: [(&str, SkirmishLevel); 6] = [
    ("open", level(15, 3, 1, 0)),
    ("frail", level(8, 3, 1, 0)),
    ("sturdy", level(24, 3, 1, 0)),
    ("rich", level(15, 12, 1, 0)),
    ("walled", level(15, 3, 1, 3)),
    ("settled", level(15, 0, 3, 0)),
];

const fn level(hp: u32, gold: u32, workers: u32, walls: u32) -> SkirmishLevel {
    SkirmishLevel {
        hp,
        gold,
        workers,
        walls,
    }
}

/// One action; a player takes one a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SkirmishAction {
    /// Hire as many workers as the gold pays for (each: +1 gold a turn).
    Worker,
    /// Train as many soldiers as the gold pays for.
    Soldier,
    /// Attack the other base with every soldier.
    Attack,
    /// Build as many walls as the gold pays for.
    Wall,
    /// Do nothing (save gold).
    Pass,
}

/// Action kinds, indexed as in [`GameInfo::action_kinds`] (the action's discriminant).
const KINDS: [&str; 5] = ["worker", "soldier", "attack", "wall", "pass"];

/// Per-player statistics, as in [`GameInfo::stats`] and [`Side::stats`].
const STATS: [&str; 11] = [
    "hp",
    "gold",
    "workers",
    "soldiers",
    "walls",
    "income",
    "military",
    "defence",
    "economy",
    "damage_dealt",
    "first_attack",
];

/// One player's holdings and what it has done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Side {
    /// The base's hit points (0: destroyed).
    pub hp: u32,
    /// Gold in hand.
    pub gold: u32,
    /// Workers.
    pub workers: u32,
    /// Soldiers at home.
    pub soldiers: u32,
    /// Walls.
    pub walls: u32,
    /// Gold collected so far.
    pub income: u32,
    /// Actions that trained soldiers or attacked.
    pub military: u32,
    /// Actions that built walls.
    pub defence: u32,
    /// Actions that hired workers.
    pub economy: u32,
    /// Hit points taken from the other base.
    pub damage_dealt: u32,
    /// The round (1 = the first) of the first attack; 0 while there has been none.
    pub first_attack: u32,
}

impl Side {
    /// Gold the next worker costs.
    pub fn worker_cost(&self) -> u32 {
        WORKER_COST + self.workers
    }

    /// The score that decides a game at the round cap: hit points plus workers.
    pub fn score(&self) -> u32 {
        self.hp + self.workers
    }

    /// The values of [`STATS`]; a player who never attacked has `first_attack` one past the
    /// round cap.
    fn stats(&self, max_rounds: u32) -> [u32; STATS.len()] {
        let first_attack = if self.first_attack == 0 {
            max_rounds.saturating_add(1)
        } else {
            self.first_attack
        };
        [
            self.hp,
            self.gold,
            self.workers,
            self.soldiers,
            self.walls,
            self.income,
            self.military,
            self.defence,
            self.economy,
            self.damage_dealt,
            first_attack,
        ]
    }
}

/// A position of Skirmish.
#[derive(Clone, Debug, PartialEq)]
pub struct SkirmishState {
    sides: [Side; 2],
    to_move: usize,
    round: u32,
    over: bool,
}

impl SkirmishState {
    /// A player's side.
    pub fn side(&self, player: Player) -> &Side {
        &self.sides[player]
    }

    /// Damage an attack by `player` now would do to the other base (0 if it would not get
    /// through the walls and soldiers).
    pub fn attack_damage(&self, player: Player) -> u32 {
        let (me, them) = (&self.sides[player], &self.sides[1 - player]);
        me.soldiers.saturating_sub(
            WALL_BLOCKS
                .saturating_mul(them.walls)
                .saturating_add(them.soldiers),
        )
    }

    fn can(&self, action: SkirmishAction) -> bool {
        let me = &self.sides[self.to_move];
        match action {
            SkirmishAction::Worker => me.gold >= me.worker_cost() && me.workers < MAX_WORKERS,
            SkirmishAction::Soldier => me.gold >= SOLDIER_COST,
            SkirmishAction::Attack => me.soldiers > 0,
            SkirmishAction::Wall => me.gold >= WALL_COST,
            SkirmishAction::Pass => true,
        }
    }
}

/// The game of Skirmish under some rules.
#[derive(Clone, Debug)]
pub struct SkirmishGame {
    /// The rules.
    pub rules: SkirmishRules,
    info: GameInfo,
}

impl SkirmishGame {
    /// Skirmish with these rules.
    pub fn new(rules: SkirmishRules) -> Self {
        SkirmishGame {
            rules,
            info: GameInfo {
                name: "skirmish",
                min_players: 2,
                max_players: 2,
                actor_classes: &["player"],
                action_kinds: &KINDS,
                phases: &["turn"],
                stats: &STATS,
                action_labels: &[],
                chance: false,
                hidden_information: false,
            },
        }
    }

    /// `player`'s attack on the other base.
    fn attack(s: &mut SkirmishState, player: Player) {
        let round = s.round + 1;
        let [a, b] = &mut s.sides;
        let (me, them) = if player == 0 { (a, b) } else { (b, a) };
        let mut attackers = me.soldiers;
        let stopped = attackers.min(WALL_BLOCKS.saturating_mul(them.walls));
        attackers -= stopped;
        them.walls -= stopped.div_ceil(WALLS_PER_LOSS).min(them.walls);
        let clash = attackers.min(them.soldiers);
        attackers -= clash;
        them.soldiers -= clash;
        let damage = attackers.min(them.hp);
        them.hp -= damage;
        me.damage_dealt += damage;
        me.soldiers = attackers;
        me.military += 1;
        if me.first_attack == 0 {
            me.first_attack = round;
        }
    }
}

impl Default for SkirmishGame {
    fn default() -> Self {
        SkirmishGame::new(SkirmishRules::default())
    }
}

impl Game for SkirmishGame {
    type Level = SkirmishLevel;
    type State = SkirmishState;
    type Action = SkirmishAction;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_initial_state(&self, level: &SkirmishLevel, _seed: u64) -> SkirmishState {
        let side = Side {
            hp: level.hp.max(1),
            gold: level.gold,
            workers: level.workers.min(MAX_WORKERS),
            walls: level.walls,
            ..Side::default()
        };
        SkirmishState {
            sides: [side; 2],
            to_move: 0,
            round: 0,
            over: self.rules.max_rounds == 0,
        }
    }

    fn num_players(&self, _state: &SkirmishState) -> usize {
        2
    }

    fn turn(&self, state: &SkirmishState) -> Turn {
        if state.over {
            Turn::Terminal
        } else {
            Turn::Player(state.to_move)
        }
    }

    fn round(&self, state: &SkirmishState) -> u32 {
        state.round
    }

    fn max_rounds(&self) -> Option<u32> {
        Some(self.rules.max_rounds)
    }

    fn legal_actions(&self, state: &SkirmishState, out: &mut Vec<SkirmishAction>) {
        use SkirmishAction::*;
        out.clear();
        if !state.over {
            out.extend(
                [Worker, Soldier, Attack, Wall, Pass]
                    .into_iter()
                    .filter(|&a| state.can(a)),
            );
        }
    }

    fn actor(&self, state: &SkirmishState, _action: SkirmishAction) -> Actor {
        Actor {
            class: 0,
            id: state.to_move as u32,
        }
    }

    fn action_kind(&self, action: SkirmishAction) -> u8 {
        action as u8
    }

    fn ends_turn(&self, _action: SkirmishAction) -> bool {
        true
    }

    fn apply(&self, s: &mut SkirmishState, action: SkirmishAction) {
        let p = s.to_move;
        let me = &mut s.sides[p];
        match action {
            SkirmishAction::Worker => {
                while me.gold >= me.worker_cost() && me.workers < MAX_WORKERS {
                    me.gold -= me.worker_cost();
                    me.workers += 1;
                }
                me.economy += 1;
            }
            SkirmishAction::Soldier => {
                let n = me.gold / SOLDIER_COST;
                me.gold -= n * SOLDIER_COST;
                me.soldiers += n;
                me.military += 1;
            }
            SkirmishAction::Wall => {
                let n = me.gold / WALL_COST;
                me.gold -= n * WALL_COST;
                me.walls += n;
                me.defence += 1;
            }
            SkirmishAction::Attack => Self::attack(s, p),
            SkirmishAction::Pass => {}
        }
        let me = &mut s.sides[p];
        me.gold = me.gold.saturating_add(1 + me.workers);
        me.income = me.income.saturating_add(1 + me.workers);
        s.to_move = 1 - p;
        if s.to_move == 0 {
            s.round += 1;
        }
        s.over = s.sides.iter().any(|side| side.hp == 0) || s.round >= self.rules.max_rounds;
    }

    fn outcome(&self, state: &SkirmishState) -> Option<Outcome> {
        state
            .over
            .then(|| match state.sides.iter().position(|side| side.hp == 0) {
                Some(destroyed) => Outcome::win(1 - destroyed, 2),
                None => Outcome::from_scores(
                    &state
                        .sides
                        .map(|side| f64::from(side.score()) * POINT + f64::from(side.income)),
                ),
            })
    }

    fn score(&self, state: &SkirmishState, player: Player) -> f64 {
        f64::from(state.sides[player].score())
    }

    fn player_stats(&self, s: &SkirmishState, p: Player, out: &mut Vec<f64>) {
        out.clear();
        out.extend(
            s.sides[p]
                .stats(self.rules.max_rounds)
                .into_iter()
                .map(f64::from),
        );
    }

    fn render(&self, s: &SkirmishState) -> String {
        let side = |p: usize| {
            let x = &s.sides[p];
            format!(
                "hp {} gold {} workers {} soldiers {} walls {}",
                x.hp, x.gold, x.workers, x.soldiers, x.walls
            )
        };
        format!(
            "round {} | player 0: {} | player 1: {} | player {} to move",
            s.round,
            side(0),
            side(1),
            s.to_move
        )
    }
}

/// The evaluation the search agents use: the difference in worth, as a share of 40 within
/// ±0.5, so that a finished game, worth its [`Outcome::utility`] ±1, always counts more. A
/// side's worth is its score plus a quarter point per gold it has or will collect from its
/// workers in the rounds left and per gold its soldiers and walls cost.
pub struct SkirmishKnowledge;

impl SkirmishKnowledge {
    fn worth(side: &Side, rounds_left: u32) -> f64 {
        let gold = f64::from(side.gold)
            + f64::from(side.workers) * f64::from(rounds_left)
            + f64::from(SOLDIER_COST) * f64::from(side.soldiers)
            + f64::from(WALL_COST) * f64::from(side.walls);
        f64::from(side.score()) + 0.25 * gold
    }
}

impl Knowledge<SkirmishGame> for SkirmishKnowledge {
    fn evaluate(
        &self,
        game: &SkirmishGame,
        _root: &SkirmishState,
        s: &SkirmishState,
        player: Player,
    ) -> f64 {
        if let Some(o) = game.outcome(s) {
            return o.utility(player);
        }
        let left = game.rules.max_rounds.saturating_sub(s.round);
        let lead = Self::worth(&s.sides[player], left) - Self::worth(&s.sides[1 - player], left);
        (lead / 40.0).clamp(-0.5, 0.5)
    }
}

/// A script: the action it would take in a state that is not over (always a legal one).
type Script = fn(&SkirmishGame, &SkirmishState) -> SkirmishAction;

/// The first of `actions` the state allows, else pass.
fn first_of(s: &SkirmishState, actions: &[SkirmishAction]) -> SkirmishAction {
    actions
        .iter()
        .copied()
        .find(|&a| s.can(a))
        .unwrap_or(SkirmishAction::Pass)
}

/// The scripts, in genome order.
const SCRIPTS: [(&str, Script); 4] = [
    // Soldiers, attacking whenever the attack gets through to the base.
    ("rush", |_, s| {
        use SkirmishAction::*;
        if s.attack_damage(s.to_move) > 0 {
            Attack
        } else {
            first_of(s, &[Soldier])
        }
    }),
    // Workers, saving up for the next one; soldiers once no more can be hired.
    ("boom", |_, s| {
        use SkirmishAction::*;
        if s.side(s.to_move).workers < MAX_WORKERS {
            first_of(s, &[Worker])
        } else {
            first_of(s, &[Soldier])
        }
    }),
    // Walls for the first two thirds of the game; then soldiers, and attacks that get through.
    ("turtle", |g, s| {
        use SkirmishAction::*;
        if 3 * s.round < 2 * g.rules.max_rounds {
            first_of(s, &[Wall])
        } else if s.attack_damage(s.to_move) > 0 {
            Attack
        } else {
            first_of(s, &[Soldier])
        }
    }),
    // Matches the other army: soldiers while the other side's attack would get through, else
    // workers.
    ("counter", |_, s| {
        use SkirmishAction::*;
        if s.attack_damage(1 - s.to_move) > 0 {
            first_of(s, &[Soldier, Wall])
        } else {
            first_of(s, &[Worker, Soldier])
        }
    }),
];

/// The script names, in [`SCRIPTS`] order.
const SCRIPT_NAMES: [&str; 4] = {
    let mut names = [""; 4];
    let mut i = 0;
    while i < SCRIPTS.len() {
        names[i] = SCRIPTS[i].0;
        i += 1;
    }
    names
};

/// Skirmish's portfolio: every script proposes its action, with value 1 (0.5 for a pass);
/// proposals are de-duplicated by action, the first script keeping it.
pub struct SkirmishPortfolio;

impl Portfolio<SkirmishGame> for SkirmishPortfolio {
    fn script_names(&self) -> &[&'static str] {
        &SCRIPT_NAMES
    }

    fn assignments(
        &self,
        game: &SkirmishGame,
        state: &SkirmishState,
        _rng: &mut Rng,
        out: &mut Vec<Assignment<SkirmishAction>>,
    ) {
        out.clear();
        if state.over {
            return;
        }
        for (i, (_, script)) in SCRIPTS.iter().enumerate() {
            let action = script(game, state);
            if !out.iter().any(|a| a.action == action) {
                out.push(Assignment {
                    action,
                    script: i as u16,
                    value: if action == SkirmishAction::Pass {
                        0.5
                    } else {
                        1.0
                    },
                });
            }
        }
    }
}

/// One script played on its own, without search (`script(name=rush)`): the opponents the
/// scripts' names promise.
pub struct ScriptAgent {
    name: &'static str,
    script: Script,
}

impl Agent<SkirmishGame> for ScriptAgent {
    fn name(&self) -> String {
        format!("script(name={})", self.name)
    }

    fn act(
        &mut self,
        game: &SkirmishGame,
        state: &SkirmishState,
        _rng: &mut Rng,
    ) -> Result<SkirmishAction> {
        Ok((self.script)(game, state))
    }
}

impl SearchSupport for SkirmishGame {
    fn knowledge(&self) -> Arc<dyn Knowledge<Self>> {
        Arc::new(SkirmishKnowledge)
    }

    fn portfolio(&self) -> Arc<dyn Portfolio<Self>> {
        Arc::new(SkirmishPortfolio)
    }

    /// `script(name=S)`: script `S` of the portfolio played on its own.
    fn game_agent(&self, spec: &mut AgentSpec) -> Option<Result<Box<dyn Agent<Self>>>> {
        if spec.name() != "script" {
            return None;
        }
        Some(spec.take_word("name", "").and_then(|name| {
            match SCRIPTS.iter().find(|(n, _)| *n == name) {
                Some(&(name, script)) => Ok(Box::new(ScriptAgent { name, script }) as Box<_>),
                None => Err(Error::config(
                    "name",
                    format!(
                        "`{name}` is not a script of skirmish ({})",
                        SCRIPT_NAMES.join(", ")
                    ),
                )),
            }
        }))
    }

    fn game_agent_names(&self) -> Vec<String> {
        vec!["script".into()]
    }
}

/// A share of a player's actions (0 if it took none).
fn share(g: &GameView<'_>, stat: &str) -> f64 {
    let actions: f64 = KINDS.iter().map(|k| g.actions_of(k)).sum();
    g.final_stat(stat) / actions.max(1.0)
}

/// Skirmish's play-style features: what a player spends its turns on, and how soon it strikes.
const FEATURES: [Composite; 4] = [
    Composite::every(
        "military_share",
        "share of actions that train soldiers or attack",
        |g| share(g, "military"),
    ),
    Composite::every("defence_share", "share of actions that build walls", |g| {
        share(g, "defence")
    }),
    Composite::every("economy_share", "share of actions that hire workers", |g| {
        share(g, "economy")
    }),
    Composite::every(
        "first_attack",
        "round of the first attack (the round cap + 1 if none)",
        |g| g.final_stat("first_attack"),
    ),
];

impl GameKit for SkirmishGame {
    type Rules = SkirmishRules;

    fn with_rules(rules: SkirmishRules) -> Self {
        SkirmishGame::new(rules)
    }

    /// A built-in level by name (`open`, `frail`, `sturdy`, `rich`, `walled`, `settled`), or
    /// a number: the generated level of that seed.
    fn load_level(name: &str) -> Result<SkirmishLevel> {
        let name = name.trim();
        if let Some((_, level)) = LEVELS.iter().find(|(n, _)| *n == name) {
            return Ok(*level);
        }
        match name.parse::<u64>() {
            Ok(seed) => Self::generate_level(seed),
            Err(_) => Err(Error::config(
                "level",
                format!(
                    "`{name}` is not a level of skirmish (give a number or one of {})",
                    Self::builtin_levels().join(", ")
                ),
            )),
        }
    }

    fn builtin_levels() -> Vec<String> {
        LEVELS.iter().map(|(n, _)| n.to_string()).collect()
    }

    /// Hit points 8–24, gold 0–12, workers 1–3, walls 0–3, drawn from the seed.
    fn generate_level(seed: u64) -> Result<SkirmishLevel> {
        let h = mix64(seed);
        let pick = |shift: u32, n: u64| ((h >> shift) % n) as u32;
        Ok(level(
            8 + pick(0, 17),
            pick(16, 13),
            1 + pick(32, 3),
            pick(48, 4),
        ))
    }

    fn level_facts(level: &SkirmishLevel) -> Vec<(&'static str, String)> {
        vec![
            ("hp", level.hp.to_string()),
            ("gold", level.gold.to_string()),
            ("workers", level.workers.to_string()),
            ("walls", level.walls.to_string()),
        ]
    }

    fn describe_level(level: &SkirmishLevel) -> String {
        format!(
            "Skirmish, each side starting with: hit points {}, gold {}, workers {}, walls {}\n",
            level.hp, level.gold, level.workers, level.walls
        )
    }

    fn default_genome() -> Vec<&'static str> {
        SCRIPT_NAMES.to_vec()
    }

    /// `examples/skirmish/quickstart.toml`: a map of military × defence shares from ten lines.
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
