//! Prismata as a [`Game`]: the built-in unit library, a level's buy pool, the phase machine of
//! [`super::rules`], and the game driver's ply cap (spec §7: 200 plies, then a draw).
//!
//! Actors: the player (ending a phase, choosing targets, frontline and breach attacks), a unit
//! (its click, its block) or a buyable unit (buying it). A player's score is the number of its
//! units in play: the game itself keeps none, and the search agents' evaluations (spec §11.5)
//! come with them.

use super::action::Action;
use super::level::Level;
use super::library::Library;
use super::rules;
use super::state::{State, TurnPhase};
use crate::game::{Actor, Game, GameInfo, Outcome, Player, Turn};

/// Plies after which a game is drawn (the C++ driver's turn limit).
pub const DEFAULT_PLY_CAP: u32 = 200;

/// Actor classes.
const PLAYER: u8 = 0;
const UNIT: u8 = 1;
const BUYABLE: u8 = 2;

/// The game's registered name.
pub const NAME: &str = "prismata";

static INFO: GameInfo = GameInfo {
    name: NAME,
    min_players: 2,
    max_players: 2,
    actor_classes: &["player", "unit", "buyable"],
    action_kinds: &[
        "click",
        "target",
        "buy",
        "frontline",
        "block",
        "breach",
        "end_phase",
    ],
    phases: &["defense", "action", "breach"],
    stats: &super::features::STATS,
    action_labels: &[],
    chance: false,
    hidden_information: false,
};

/// The Prismata rules engine.
#[derive(Clone, Debug)]
pub struct PrismataGame {
    library: &'static Library,
    /// Plies after which the game is a draw.
    pub ply_cap: u32,
    /// End games as the open-source engine does instead of the retail game
    /// ([`State::open_engine`]), to compare with the C++ bots.
    pub open_engine: bool,
}

impl Default for PrismataGame {
    fn default() -> Self {
        PrismataGame {
            library: Library::builtin(),
            ply_cap: DEFAULT_PLY_CAP,
            open_engine: false,
        }
    }
}

impl PrismataGame {
    /// The unit library the game plays with.
    pub fn library(&self) -> &'static Library {
        self.library
    }
}

impl Game for PrismataGame {
    type Level = Level;
    type State = State;
    type Action = Action;

    fn info(&self) -> &GameInfo {
        &INFO
    }

    /// The starting state (the game has no chance: `seed` is not used).
    fn new_initial_state(&self, level: &Level, _seed: u64) -> State {
        let mut s = State::new(self.library, level);
        s.open_engine = self.open_engine;
        s
    }

    fn num_players(&self, _state: &State) -> usize {
        2
    }

    fn turn(&self, state: &State) -> Turn {
        if state.over || state.ply >= self.ply_cap {
            Turn::Terminal
        } else {
            Turn::Player(state.active as usize)
        }
    }

    fn phase(&self, state: &State) -> u8 {
        match state.phase {
            TurnPhase::Defense => 0,
            TurnPhase::Action => 1,
            TurnPhase::Breach => 2,
        }
    }

    /// Full rounds: plies / 2.
    fn round(&self, state: &State) -> u32 {
        state.ply / 2
    }

    fn max_rounds(&self) -> Option<u32> {
        Some(self.ply_cap.div_ceil(2))
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        if self.turn(state) == Turn::Terminal {
            out.clear();
            return;
        }
        rules::legal_actions(self.library, state, out);
    }

    fn actor(&self, state: &State, action: Action) -> Actor {
        let p = state.active as usize;
        let (class, id) = match action {
            Action::Click(i) | Action::Block(i) => (UNIT, state.sides[p].units[i as usize].id),
            Action::Buy(k) => (BUYABLE, u32::from(k)),
            Action::Target(_) | Action::Frontline(_) | Action::Breach(_) | Action::EndPhase => {
                (PLAYER, p as u32)
            }
        };
        Actor { class, id }
    }

    fn action_kind(&self, action: Action) -> u8 {
        match action {
            Action::Click(_) => 0,
            Action::Target(_) => 1,
            Action::Buy(_) => 2,
            Action::Frontline(_) => 3,
            Action::Block(_) => 4,
            Action::Breach(_) => 5,
            Action::EndPhase => 6,
        }
    }

    /// Ending a phase (it ends the turn after the action or breach phase).
    fn ends_turn(&self, action: Action) -> bool {
        action == Action::EndPhase
    }

    fn apply(&self, state: &mut State, action: Action) {
        rules::apply(self.library, state, action);
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        if state.over {
            Some(match state.winner {
                Some(w) => Outcome::win(w as usize, 2),
                None => Outcome::draw(2),
            })
        } else if state.ply >= self.ply_cap {
            Some(Outcome::draw(2))
        } else {
            None
        }
    }

    /// Units in play.
    fn score(&self, state: &State, player: Player) -> f64 {
        state.sides[player].units.iter().filter(|u| u.alive).count() as f64
    }

    fn is_legal(&self, state: &State, action: Action) -> bool {
        self.turn(state) != Turn::Terminal && rules::is_legal(self.library, state, action)
    }

    /// The statistics of [`super::features::STATS`].
    fn player_stats(&self, state: &State, player: Player, out: &mut Vec<f64>) {
        super::features::player_stats(self.library, state, player, out);
    }

    fn render(&self, state: &State) -> String {
        super::render::render(self.library, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;
    use rand::RngExt;

    /// Random games on random sets end (elimination or the cap), with every listed action
    /// legal, every listing empty only at the end, and the game-end bookkeeping consistent.
    #[test]
    fn random_games_on_random_sets_play_to_an_end() {
        let game = PrismataGame::default();
        let mut rng = rng_from_seed(11);
        let mut actions = Vec::new();
        let mut ended = [0u32; 3];
        for g in 0..60u64 {
            let level = Level::random(game.library(), 8, g).unwrap();
            let mut s = game.new_initial_state(&level, 0);
            let mut steps = 0;
            while game.turn(&s) != Turn::Terminal {
                game.legal_actions(&s, &mut actions);
                assert!(!actions.is_empty(), "game {g}: no action in {s:?}");
                // Prefer ending the phase now and then, so games move on.
                let a = if rng.random_range(0..4) == 0 && actions.contains(&Action::EndPhase) {
                    Action::EndPhase
                } else {
                    actions[rng.random_range(0..actions.len())]
                };
                assert!(game.is_legal(&s, a));
                let before = s.ply;
                game.apply(&mut s, a);
                assert!(s.ply == before || s.ply == before + 1);
                steps += 1;
                assert!(steps < 200_000, "game {g} does not end");
            }
            game.legal_actions(&s, &mut actions);
            assert!(actions.is_empty());
            let outcome = game.outcome(&s).expect("an outcome at the end");
            match (s.over, outcome.winner()) {
                (true, Some(w)) => {
                    ended[w] += 1;
                    assert_eq!(s.winner, Some(w as u8));
                }
                _ => ended[2] += 1,
            }
        }
        // Random play ends some games by elimination, not only by the cap.
        assert!(ended[0] + ended[1] > 0, "{ended:?}");
    }

    #[test]
    fn the_cap_draws_and_actors_group_by_kind() {
        let game = PrismataGame {
            ply_cap: 2,
            ..PrismataGame::default()
        };
        let level = Level::load(game.library(), "1").unwrap();
        let mut s = game.new_initial_state(&level, 0);
        game.apply(&mut s, Action::EndPhase);
        assert_eq!(game.turn(&s), Turn::Player(1));
        assert_eq!(
            game.actor(&s, Action::Click(0)).class,
            UNIT,
            "a click is its unit's"
        );
        game.apply(&mut s, Action::EndPhase);
        assert_eq!(game.turn(&s), Turn::Terminal);
        assert_eq!(game.outcome(&s), Some(Outcome::draw(2)));
        assert!(!game.is_legal(&s, Action::EndPhase));
    }
}

#[cfg(test)]
mod every_unit {
    use super::*;
    use crate::games::prismata::library::UnitSet;
    use crate::games::prismata::resources::Resources;

    /// Tops player `p` up with plenty of every resource but attack.
    fn rich(s: &mut State, p: usize) {
        let attack = s.sides[p].resources.0[5];
        s.sides[p].resources = Resources([60, 20, 20, 20, 20, attack]);
    }

    /// Clicks every unit of player `p` whose click needs no target and sacrifices nothing,
    /// except `keep` (so they can be sacrificed, and pay for things).
    fn click_helpers(game: &PrismataGame, s: &mut State, keep: u16) {
        let p = s.active as usize;
        for i in 0..s.sides[p].units.len() as u16 {
            let u = s.sides[p].units[i as usize];
            let t = game.library().get(u.kind);
            let plain = t
                .click
                .as_ref()
                .is_some_and(|c| c.target.is_none() && c.sacrifice.is_empty());
            if u.kind != keep && plain && game.is_legal(s, Action::Click(i)) {
                game.apply(s, Action::Click(i));
            }
        }
    }

    /// Gives player 0 a unit of type `kind` that is ready, as if it had been there since
    /// before the turn started.
    fn add_ready(s: &mut State, kind: u16) {
        let i = s.add_unit(Library::builtin(), 0, kind, 0, 0);
        if Library::builtin().get(kind).click.is_some() {
            s.sides[0].units[i].status = crate::games::prismata::state::Status::Default;
        }
    }

    /// Both players end their turns (player 1 absorbing any attack) until player 0 acts again.
    fn pass_round(game: &PrismataGame, s: &mut State) {
        s.sides[0].resources.0[5] = 0;
        game.apply(s, Action::EndPhase);
        while s.active == 1 || s.phase != TurnPhase::Action {
            let mut out = Vec::new();
            game.legal_actions(s, &mut out);
            let a = if out.contains(&Action::EndPhase) {
                Action::EndPhase
            } else {
                out[0]
            };
            game.apply(s, a);
        }
    }

    /// Every unit of the random pool is bought (its buy script run, its sacrifices made) and
    /// used in a game of its own: once active, its ability clicked (a target chosen where it
    /// has one), or, without an ability, active (its turn-start script run).
    #[test]
    fn every_pool_unit_is_bought_and_used() {
        let game = PrismataGame::default();
        let lib = game.library();
        let mut unused = Vec::new();
        for kind in lib.set(UnitSet::Pool) {
            let t = lib.get(kind);
            let level = Level::named(lib, &[t.name.as_str()]).unwrap();
            let mut s = game.new_initial_state(&level, 0);
            // Units the buy or the click sacrifices, ready to be sacrificed.
            let needs: Vec<(u16, u16)> = t
                .buy
                .iter()
                .chain(&t.click)
                .flat_map(|sc| sc.sacrifice.iter().copied())
                .collect();
            for &(need, n) in &needs {
                for _ in 0..n + 1 {
                    add_ready(&mut s, need);
                }
            }
            rich(&mut s, 0);
            s.sides[0].resources.0[5] = t.cost.0[5]; // Arka Sodara costs attack
            click_helpers(&game, &mut s, kind);
            let k = s.buyable.iter().position(|&b| b == kind).unwrap() as u16;
            assert!(game.is_legal(&s, Action::Buy(k)), "{}: cannot buy", t.name);
            game.apply(&mut s, Action::Buy(k));
            if t.spell {
                continue;
            }
            // Wait for it to be active, then click it (a unit without an ability is used once
            // it is active: its turn-start script runs, it blocks).
            let mut used = false;
            for _ in 0..12 {
                pass_round(&game, &mut s);
                for &(need, n) in &needs {
                    for _ in 0..n {
                        add_ready(&mut s, need);
                    }
                }
                rich(&mut s, 0);
                let i = s.sides[0]
                    .units
                    .iter()
                    .position(|u| u.kind == kind && u.alive);
                // Gone without anyone attacking it: its lifespan ran out or it sacrificed
                // itself at a turn start, both of which need it active.
                let Some(i) = i else {
                    used = true;
                    break;
                };
                let Some(click) = &t.click else {
                    // Built by a turn start: it was active then and ran its script (which may
                    // have exhausted it since).
                    if s.sides[0].units[i].construction == 0 {
                        used = true;
                        break;
                    }
                    continue;
                };
                s.sides[0].resources.0[5] = click.cost.0[5];
                click_helpers(&game, &mut s, kind);
                // Something for the click to hit: a Drone of player 1 that has clicked (cannot
                // block) and a tech building.
                let drone = lib.id("Drone").unwrap();
                if let Some(d) = s.sides[1].units.iter_mut().find(|u| u.kind == drone) {
                    d.status = crate::games::prismata::state::Status::Assigned;
                }
                if click.target == Some(crate::games::prismata::library::Target::SnipeTech) {
                    s.add_unit(lib, 1, lib.id("Conduit").unwrap(), 0, 0);
                }
                let i = s.sides[0]
                    .units
                    .iter()
                    .position(|u| u.kind == kind && u.alive);
                let Some(i) = i else { break };
                if game.is_legal(&s, Action::Click(i as u16)) {
                    game.apply(&mut s, Action::Click(i as u16));
                    if click.target.is_some() {
                        let mut out = Vec::new();
                        game.legal_actions(&s, &mut out);
                        game.apply(&mut s, out[0]);
                    }
                    used = true;
                    break;
                }
            }
            if !used {
                unused.push(t.name.as_str());
            }
        }
        assert!(unused.is_empty(), "never used: {unused:?}");
    }
}
