//! Puerto Rico as a [`Game`]: one actor class (`player`), the action kinds of spec §4, the
//! phases of §2, `observe` hiding the stack order and `determinise` sampling it (spec §3).

use std::fmt::Write as _;

use rand::RngExt;

use super::apply;
use super::labels::{LABELS, label};
use super::legal;
use super::scoring;
use super::setup::{Level, Options, initial_state};
use super::state::{NO_GOOD, Phase, State};
use super::types::{
    Action, BUILDING_TABLE, BUILDINGS, GOOD_NAMES, GOODS, KIND_NAMES, ROLE_NAMES, bld,
};
use crate::error::Result;
use crate::game::{Actor, Game, GameInfo, Outcome, Player, Turn};
use crate::rng::Rng;

/// Names of the per-player statistics ([`Game::player_stats`]).
pub const STATS: [&str; 13] = [
    "shipping_vp",
    "building_vp",
    "bonus_vp",
    "doubloons",
    "barrels",
    "colonists",
    "tiles",
    "buildings",
    "large_buildings",
    "produced",
    "sold",
    "shipped",
    "spoiled",
];

static INFO: GameInfo = GameInfo {
    name: "puerto-rico",
    min_players: 2,
    max_players: 5,
    actor_classes: &["player"],
    action_kinds: &KIND_NAMES,
    phases: &[
        "role_selection",
        "settler",
        "mayor",
        "builder",
        "craftsman",
        "trader",
        "captain",
        "storage",
    ],
    stats: &STATS,
    action_labels: &LABELS,
    chance: true,
    hidden_information: true,
};

/// The Puerto Rico rules engine (base game, 2–5 players).
#[derive(Clone, Copy, Debug, Default)]
pub struct PuertoRicoGame {
    /// Rule options.
    pub options: Options,
}

impl PuertoRicoGame {
    /// The engine with these options.
    ///
    /// # Errors
    ///
    /// [`crate::Error::Config`] for invalid options ([`Options::validate`]).
    pub fn new(options: Options) -> Result<Self> {
        options.validate()?;
        Ok(PuertoRicoGame { options })
    }
}

impl Game for PuertoRicoGame {
    type Level = Level;
    type State = State;
    type Action = Action;

    fn info(&self) -> &GameInfo {
        &INFO
    }

    /// Set-up for the level's player count; `seed` shuffles the plantation stack and seeds the
    /// state RNG for later reshuffles.
    fn new_initial_state(&self, level: &Level, seed: u64) -> State {
        initial_state(level, &self.options, seed)
    }

    fn num_players(&self, state: &State) -> usize {
        state.n()
    }

    fn turn(&self, state: &State) -> Turn {
        match state.phase {
            Phase::Over => Turn::Terminal,
            _ => Turn::Player(usize::from(state.actor)),
        }
    }

    fn phase(&self, state: &State) -> u8 {
        match state.phase {
            Phase::RoleSelection | Phase::Over => 0,
            Phase::Settler => 1,
            Phase::Mayor => 2,
            Phase::Builder => 3,
            Phase::Craftsman => 4,
            Phase::Trader => 5,
            Phase::Captain => 6,
            Phase::Storage => 7,
        }
    }

    /// Completed rounds (every player picked a role).
    fn round(&self, state: &State) -> u32 {
        u32::from(state.round)
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        legal::legal_actions(state, out);
    }

    fn actor(&self, state: &State, _action: Action) -> Actor {
        Actor {
            class: 0,
            id: u32::from(state.actor),
        }
    }

    fn action_kind(&self, action: Action) -> u8 {
        action.kind as u8
    }

    /// The bit the legal-action generator stored in the action.
    fn ends_turn(&self, action: Action) -> bool {
        action.ends_turn
    }

    fn apply(&self, state: &mut State, action: Action) {
        apply::apply(state, action);
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        (state.phase == Phase::Over).then(|| scoring::outcome(state))
    }

    /// Chips + building VP + occupied large buildings' bonuses.
    fn score(&self, state: &State, player: Player) -> f64 {
        f64::from(scoring::score(&state.players[player]))
    }

    /// The state with the face-down stack sorted and the state RNG blanked (spec §3).
    fn observe(&self, state: &State, _player: Player) -> State {
        let mut s = *state;
        s.stack[..usize::from(s.stack_len)].sort_unstable();
        s.rng = 0;
        s
    }

    /// Shuffles the face-down stack and reseeds the state RNG from `rng`.
    fn determinise(&self, observed: &State, _viewer: Player, rng: &mut Rng, out: &mut State) {
        *out = *observed;
        let len = usize::from(out.stack_len);
        for i in (1..len).rev() {
            let j = rng.random_range(0..=i);
            out.stack.swap(i, j);
        }
        out.rng = rng.random();
    }

    /// The statistics of [`STATS`].
    fn player_stats(&self, state: &State, player: Player, out: &mut Vec<f64>) {
        let me = &state.players[player];
        out.clear();
        out.extend([
            f64::from(me.chips),
            f64::from(scoring::building_vp(me)),
            f64::from(scoring::bonus_vp(me)),
            f64::from(me.doubloons),
            f64::from(me.barrels()),
            f64::from(me.colonists()),
            f64::from(me.island()),
            f64::from(me.owned.count_ones()),
            f64::from((me.owned >> bld::GUILD_HALL).count_ones()),
            f64::from(me.produced),
            f64::from(me.sold),
            f64::from(me.shipped),
            f64::from(me.spoiled),
        ]);
    }

    fn action_label(&self, action: Action) -> Option<&'static str> {
        Some(label(action))
    }

    fn render(&self, state: &State) -> String {
        render(state)
    }
}

/// A text table of the shared board and every player's island, city, goods, money and VP.
pub fn render(s: &State) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "round {} governor {} phase {:?} actor {}{}",
        s.round,
        s.governor,
        s.phase,
        s.actor,
        if s.end_triggered { " (last round)" } else { "" }
    );
    let roles: Vec<String> = (0..8)
        .filter(|&r| s.roles_in_play & (1 << r) != 0)
        .map(|r| {
            let taken = if s.roles_taken & (1 << r) != 0 {
                "*"
            } else {
                ""
            };
            format!("{}{taken}:{}", ROLE_NAMES[r], s.role_coins[r])
        })
        .collect();
    let _ = writeln!(t, "roles {}", roles.join(" "));
    let ships: Vec<String> = (0..usize::from(s.num_ships))
        .map(|i| {
            let g = if s.ship_good[i] == NO_GOOD {
                "-"
            } else {
                GOOD_NAMES[usize::from(s.ship_good[i])]
            };
            format!("{}/{} {g}", s.ship_load[i], s.ship_cap[i])
        })
        .collect();
    let _ = writeln!(
        t,
        "colonists supply {} ship {} | VP left {} | quarries {} | stack {} | ships [{}]",
        s.colonist_supply,
        s.colonist_ship,
        s.vp_supply,
        s.quarries,
        s.stack_len,
        ships.join(", ")
    );
    let _ = writeln!(
        t,
        "row {:?} | house {:?} | goods supply {:?} (corn indigo sugar tobacco coffee)",
        s.row, s.house, s.goods_supply
    );
    for (p, me) in s.players[..s.n()].iter().enumerate() {
        let tiles: Vec<String> = (0..6)
            .filter(|&c| me.tiles[c] > 0)
            .map(|c| {
                let name = if c < GOODS { GOOD_NAMES[c] } else { "quarry" };
                format!("{name} {}/{}", me.occupied[c], me.tiles[c])
            })
            .collect();
        let city: Vec<String> = (0..BUILDINGS)
            .filter(|&b| me.owns(b as u8))
            .map(|b| {
                format!(
                    "{} {}/{}",
                    BUILDING_TABLE[b].name, me.workers[b], BUILDING_TABLE[b].slots
                )
            })
            .collect();
        let _ = writeln!(
            t,
            "P{p}: {} doubloons, {} chips, score {}, goods {:?}, san juan {}\n    island: {}\n    city: {}",
            me.doubloons,
            me.chips,
            scoring::score(me),
            me.goods,
            me.san_juan,
            tiles.join(", "),
            city.join(", ")
        );
    }
    t
}
