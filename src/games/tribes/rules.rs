//! Rules options and the [`TribesGame`] value that implements [`Game`].

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::level::Level;
use super::state::{State, TribeResult};
use super::types::{ACTION_KIND_NAMES, ActionKind};
use super::{apply, economy, init, legal, listing, observe, render};
use crate::game::{Actor, Game, GameInfo, Listing, Outcome, Player, Turn};
use crate::rng::Rng;

/// Which behaviour to follow where the Java reference has a defect (spec §18).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Compat {
    /// The intended rule everywhere (default).
    #[default]
    Intended,
    /// Replicate the Java code's behaviour for the quirks listed in the README.
    Java,
}

/// Game mode (spec §4.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameMode {
    /// Win by owning every original capital; ranking after 51 rounds (the experiments' mode).
    #[default]
    Capitals,
    /// Ranking by score after 31 rounds.
    Score,
}

impl GameMode {
    /// The last round that is played (ticks `0..=max_tick`).
    pub fn max_tick(self) -> u16 {
        match self {
            GameMode::Capitals => 50,
            GameMode::Score => 30,
        }
    }
}

/// Rules parameters of a Tribes game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TribesRules {
    /// Intended rules or Java compatibility.
    pub compat: Compat,
    /// Game mode.
    pub mode: GameMode,
}

impl TribesRules {
    /// True when replicating the Java quirks.
    #[inline]
    pub fn java(&self) -> bool {
        self.compat == Compat::Java
    }
}

/// The Tribes game: a rules value, shared by `&` across threads.
#[derive(Clone, Debug, Default)]
pub struct TribesGame {
    /// The rules options.
    pub rules: TribesRules,
}

impl TribesGame {
    /// A game with the given rules.
    pub fn new(rules: TribesRules) -> Self {
        TribesGame { rules }
    }
}

static INFO: GameInfo = GameInfo {
    name: "tribes",
    min_players: 1,
    max_players: 4,
    actor_classes: &["tribe", "city", "unit"],
    action_kinds: &ACTION_KIND_NAMES,
    phases: &["main"],
    stats: &STAT_NAMES,
    action_labels: &ACTION_LABELS,
    // Ruins draw their reward from the state's RNG (the only chance event).
    chance: true,
    hidden_information: false,
};

/// The per-player statistics of [`TribesGame`], in [`Game::player_stats`] order.
pub const STAT_NAMES: [&str; 9] = [
    "score",
    "techs",
    "tiles",
    "production",
    "cities",
    "units",
    "kills",
    "stars",
    "connected",
];

/// Every action label, in the order of the four lists below.
static ACTION_LABELS: [&str; 63] = {
    let mut all = [""; 63];
    let lists: [&[&str]; 4] = [
        &SPAWN_LABELS,
        &RESEARCH_LABELS,
        &BUILD_LABELS,
        &LEVEL_UP_LABELS,
    ];
    let mut k = 0;
    let mut l = 0;
    while l < lists.len() {
        let mut i = 0;
        while i < lists[l].len() {
            all[k] = lists[l][i];
            k += 1;
            i += 1;
        }
        l += 1;
    }
    assert!(k == all.len());
    all
};

const SPAWN_LABELS: [&str; 12] = [
    "spawn.warrior",
    "spawn.rider",
    "spawn.defender",
    "spawn.swordsman",
    "spawn.archer",
    "spawn.catapult",
    "spawn.knight",
    "spawn.mind_bender",
    "spawn.boat",
    "spawn.ship",
    "spawn.battleship",
    "spawn.super_unit",
];
const RESEARCH_LABELS: [&str; 24] = [
    "research.climbing",
    "research.fishing",
    "research.hunting",
    "research.organization",
    "research.riding",
    "research.archery",
    "research.farming",
    "research.forestry",
    "research.free_spirit",
    "research.meditation",
    "research.mining",
    "research.roads",
    "research.sailing",
    "research.shields",
    "research.whaling",
    "research.aquatism",
    "research.chivalry",
    "research.construction",
    "research.mathematics",
    "research.navigation",
    "research.smithery",
    "research.spiritualism",
    "research.trade",
    "research.philosophy",
];
const BUILD_LABELS: [&str; 19] = [
    "build.port",
    "build.mine",
    "build.forge",
    "build.farm",
    "build.windmill",
    "build.customs_house",
    "build.lumber_hut",
    "build.sawmill",
    "build.temple",
    "build.water_temple",
    "build.forest_temple",
    "build.mountain_temple",
    "build.altar_of_peace",
    "build.emperors_tomb",
    "build.eye_of_god",
    "build.gate_of_power",
    "build.grand_bazar",
    "build.park_of_fortune",
    "build.tower_of_wisdom",
];
const LEVEL_UP_LABELS: [&str; 8] = [
    "level_up.workshop",
    "level_up.explorer",
    "level_up.city_wall",
    "level_up.resources",
    "level_up.pop_growth",
    "level_up.border_growth",
    "level_up.park",
    "level_up.super_unit",
];

impl Game for TribesGame {
    type Level = Level;
    type State = State;
    type Action = Action;

    fn info(&self) -> &GameInfo {
        &INFO
    }

    fn new_initial_state(&self, level: &Level, seed: u64) -> State {
        init::initial_state(&self.rules, level, seed)
    }

    fn num_players(&self, state: &State) -> usize {
        state.num_tribes as usize
    }

    fn turn(&self, state: &State) -> Turn {
        if state.over {
            Turn::Terminal
        } else {
            Turn::Player(state.active as usize)
        }
    }

    fn round(&self, state: &State) -> u32 {
        state.tick as u32
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        legal::legal_actions(&self.rules, state, out);
    }

    fn list(&self, state: &State, listing: &mut Listing<Action>) {
        listing::list::<{ legal::ALL }>(&self.rules, state, listing);
    }

    /// Lists again only the actors `action` touched ([`listing`]).
    fn relist(&self, listing: &mut Listing<Action>, action: Action, after: &State) {
        listing::relist::<{ legal::ALL }>(&self.rules, listing, action, after);
    }

    fn actor(&self, _state: &State, action: Action) -> Actor {
        Actor {
            class: action.kind.scope() as u8,
            id: action.actor as u32,
        }
    }

    fn action_kind(&self, action: Action) -> u8 {
        action.kind as u8
    }

    /// The kind and its argument: a spawn keeps its unit type, a build its building, a
    /// research its technology; a move, an attack or a capture may go elsewhere.
    fn style_key(&self, action: Action) -> u32 {
        (u32::from(action.kind as u8) << 8) | u32::from(action.arg)
    }

    fn ends_turn(&self, action: Action) -> bool {
        action.kind == ActionKind::EndTurn
    }

    fn apply(&self, state: &mut State, action: Action) {
        apply::apply(&self.rules, state, action);
    }

    fn is_legal(&self, state: &State, action: Action) -> bool {
        legal::is_legal(&self.rules, state, action)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        if !state.over {
            return None;
        }
        let seats = state.num_tribes as usize;
        let winner = (0..seats).find(|&p| state.tribes[p].result == TribeResult::Win);
        Some(winner.map_or(Outcome::draw(seats), |w| Outcome::win(w, seats)))
    }

    fn max_rounds(&self) -> Option<u32> {
        Some(u32::from(self.rules.mode.max_tick()) + 1)
    }

    /// The searches see the state's RNG, hence the reward of a ruin before it is examined, as
    /// the reference's searches do (their forward-model copies carry the game's RNG): Tribes
    /// is not determinised, so that its games stay those of the paper's agents.
    fn determinise(&self, observed: &State, _viewer: Player, _rng: &mut Rng, out: &mut State) {
        out.clone_from(observed);
    }

    fn score(&self, state: &State, player: Player) -> f64 {
        state.tribes[player].score as f64
    }

    fn observe(&self, state: &State, player: Player) -> State {
        if self.rules.java() {
            observe::java_observation(state, player as u8)
        } else {
            state.clone()
        }
    }

    fn player_stats(&self, state: &State, player: Player, out: &mut Vec<f64>) {
        let p = player as u8;
        let ts = &state.tribes[player];
        let tiles = state.tiles.iter().filter(|t| t.tribe == p).count();
        let connected = state
            .cities
            .iter()
            .filter(|c| c.tribe == p && c.connected)
            .count();
        out.clear();
        out.extend_from_slice(&[
            ts.score as f64,
            ts.techs.len() as f64,
            tiles as f64,
            economy::tribe_production(&self.rules, state, p, false) as f64,
            state.num_cities(p) as f64,
            state.num_units(p) as f64,
            ts.kills as f64,
            ts.stars as f64,
            connected as f64,
        ]);
    }

    fn action_label(&self, action: Action) -> Option<&'static str> {
        let i = action.arg as usize;
        match action.kind {
            ActionKind::Spawn => SPAWN_LABELS.get(i).copied(),
            ActionKind::ResearchTech => RESEARCH_LABELS.get(i).copied(),
            ActionKind::Build => BUILD_LABELS.get(i).copied(),
            ActionKind::LevelUp => LEVEL_UP_LABELS.get(i).copied(),
            _ => None,
        }
    }

    fn player_name(&self, state: &State, player: Player) -> Option<String> {
        Some(state.tribes[player].kind.title().to_string())
    }

    fn render(&self, state: &State) -> String {
        render::render(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tribes::types::{Building, LevelUpBonus, Tech, UnitKind};

    #[test]
    fn action_labels_match_the_enum_names() {
        for &k in UnitKind::ALL {
            assert_eq!(SPAWN_LABELS[k.index()], format!("spawn.{}", k.name()));
        }
        for &t in Tech::ALL {
            assert_eq!(RESEARCH_LABELS[t.index()], format!("research.{}", t.name()));
        }
        for &b in Building::ALL {
            assert_eq!(BUILD_LABELS[b.index()], format!("build.{}", b.name()));
        }
        for &b in LevelUpBonus::ALL {
            assert_eq!(LEVEL_UP_LABELS[b.index()], format!("level_up.{}", b.name()));
        }
    }
}
