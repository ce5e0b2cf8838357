//! A Prismata game state (spec §2 instance state, §6 set-up) and the automatic turn start, the
//! "swoosh" (spec §3.2): resources reset, units age, finish construction, recover from
//! exhaustion, heal and run their turn-start scripts.
//!
//! Units are kept per player in creation order (so the engine's "lowest id first" rules are
//! index order); a unit dies by leaving its player's list at the next clean-up.

use super::level::Level;
use super::library::{Create, Library, Script};
use super::resources::{Resource, Resources};

/// Whether a unit may use its ability (spec §2 status).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Ready: it may click.
    Default,
    /// Clicked this turn.
    Assigned,
    /// No ability, or not ready.
    Inert,
}

/// A unit in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Unique within the game, in creation order.
    pub id: u32,
    /// Its type (library index).
    pub kind: u16,
    /// Current HP.
    pub hp: u16,
    /// Chill on it (frozen when chill ≥ HP).
    pub chill: u16,
    /// Own turns left under construction.
    pub construction: u16,
    /// Own turns left exhausted.
    pub delay: u16,
    /// Own turn starts left to live once active (0 = unlimited).
    pub lifespan: u16,
    /// Clicks left (for a type with charges).
    pub charges: u16,
    /// Ability status.
    pub status: Status,
    /// Bought this turn (so it may be sold).
    pub bought: bool,
    /// False once it died (removed at the next clean-up).
    pub alive: bool,
}

impl Unit {
    /// True if neither under construction nor exhausted.
    pub fn is_active(&self) -> bool {
        self.construction == 0 && self.delay == 0
    }
}

/// One player's side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Side {
    /// Units in creation order.
    pub units: Vec<Unit>,
    /// Resource pools.
    pub resources: Resources,
    /// Copies bought of each buyable unit (indexed like [`State::buyable`]).
    pub bought: Vec<u16>,
    /// Attack produced so far in the game (a play-style statistic; no rule reads it).
    pub attack_made: u32,
}

impl Side {
    /// Adds `gain` to the pools (saturating), counting the attack produced.
    pub fn gain(&mut self, gain: &Resources) {
        self.resources.gain(gain);
        self.attack_made += u32::from(gain.get(Resource::Attack));
    }
}

/// The phase of the active player's turn (spec §3; the swoosh is not a phase a player acts in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnPhase {
    /// Assigning blockers to the opponent's pending attack.
    Defense,
    /// Clicking, buying, attacking frontline units.
    Action,
    /// Spending attack left after a wipeout on the opponent's units.
    Breach,
}

/// A game state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The units either player may buy (library indices: the base set, then the level's).
    pub buyable: Vec<u16>,
    /// The two sides; player 0 moves first.
    pub sides: [Side; 2],
    /// The player to act.
    pub active: u8,
    /// The active player's phase.
    pub phase: TurnPhase,
    /// Turns completed (plies).
    pub ply: u32,
    /// The id the next unit gets.
    pub next_id: u32,
    /// The active player's unit whose click waits for its target.
    pub armed: Option<u16>,
    /// In this breach, a frozen unit may be breached (a blocker absorbed in the wipeout, or a
    /// non-frontline unit was breached).
    pub can_breach_frozen: bool,
    /// The game is over.
    pub over: bool,
    /// The winner of a game that is over (`None`: a draw).
    pub winner: Option<u8>,
    /// The game ends as in the open-source engine instead of the retail game (spec §9): no
    /// "all doomed" win, and when both sides are eliminated player 1 wins.
    pub open_engine: bool,
}

/// Drones of the player who moves first (the second gets one more).
pub const FIRST_PLAYER_DRONES: u16 = 6;
/// Engineers of each player.
pub const ENGINEERS: u16 = 2;

impl State {
    /// The starting state of `level` (spec §6): player 0 with 6 Drones and 2 Engineers,
    /// player 1 with 7 Drones and 2 Engineers, all active, no resources; then player 0's
    /// turn starts.
    pub fn new(library: &Library, level: &Level) -> State {
        let buyable = level.buyable(library);
        let side = Side {
            bought: vec![0; buyable.len()],
            ..Side::default()
        };
        let mut s = State {
            buyable,
            sides: [side.clone(), side],
            active: 0,
            phase: TurnPhase::Action,
            ply: 0,
            next_id: 0,
            armed: None,
            can_breach_frozen: false,
            over: false,
            winner: None,
            open_engine: false,
        };
        let drone = library.id("Drone").expect("the base set has Drone");
        let engineer = library.id("Engineer").expect("the base set has Engineer");
        for p in 0..2 {
            for _ in 0..FIRST_PLAYER_DRONES + p as u16 {
                s.add_unit(library, p, drone, 0, 0);
            }
            for _ in 0..ENGINEERS {
                s.add_unit(library, p, engineer, 0, 0);
            }
        }
        s.begin_turn(library);
        s
    }

    /// Adds a unit of type `kind` to player `p`, under construction for `construction` own
    /// turns and exhausted for `delay`, with its type's HP, lifespan and charges; returns its
    /// index in the player's list. Like every bought or created unit (the open engine's
    /// `Card` constructor), it is not ready to click before its owner's next turn start.
    pub fn add_unit(
        &mut self,
        library: &Library,
        p: u8,
        kind: u16,
        construction: u16,
        delay: u16,
    ) -> usize {
        let t = library.get(kind);
        let u = Unit {
            id: self.next_id,
            kind,
            hp: t.hp,
            chill: 0,
            construction,
            delay,
            lifespan: t.lifespan,
            charges: t.charges,
            status: Status::Inert,
            bought: false,
            alive: true,
        };
        self.next_id += 1;
        let units = &mut self.sides[p as usize].units;
        units.push(u);
        units.len() - 1
    }

    /// The active player's turn start (spec §3.2): energy, blue, red and attack reset; dead
    /// units removed; each live unit ages (an active unit's lifespan runs down, and it dies at
    /// 0), counts down its exhaustion or construction and, if now active, heals, becomes ready
    /// and loses its chill; then every active unit that was there runs its turn-start script
    /// (in creation order); the dead are removed; the action phase begins.
    pub fn begin_turn(&mut self, library: &Library) {
        let p = self.active as usize;
        let side = &mut self.sides[p];
        for r in [
            Resource::Energy,
            Resource::Blue,
            Resource::Red,
            Resource::Attack,
        ] {
            side.resources.set(r, 0);
        }
        side.units.retain(|u| u.alive);
        self.can_breach_frozen = false;
        let snapshot = self.sides[p].units.len();
        let side = &mut self.sides[p];
        for u in &mut side.units {
            let t = library.get(u.kind);
            u.bought = false;
            if u.is_active() && u.lifespan > 0 {
                u.lifespan -= 1;
                if u.lifespan == 0 {
                    u.alive = false;
                    continue;
                }
            }
            if u.construction > 0 {
                u.construction -= 1;
            } else if u.delay > 0 {
                u.delay -= 1;
            }
            if u.is_active() {
                let cap = if t.heal_max > 0 { t.heal_max } else { t.hp };
                u.hp = (u.hp + t.heal).min(cap);
                u.status = if t.click.is_some() {
                    Status::Default
                } else {
                    Status::Inert
                };
                u.chill = 0;
            }
        }
        for i in 0..snapshot {
            let u = self.sides[p].units[i];
            let t = library.get(u.kind);
            if let (true, true, Some(script)) = (u.alive, u.is_active(), &t.turn_start) {
                self.run_turn_start(library, p, i, script);
            }
        }
        self.sides[p].units.retain(|u| u.alive);
        self.phase = TurnPhase::Action;
    }

    /// Runs unit `i` of player `p`'s turn-start script: gains (with resonance), creations
    /// (delayed for their build time), its exhaustion and self-sacrifice.
    fn run_turn_start(&mut self, library: &Library, p: usize, i: usize, script: &Script) {
        let mut gain = script.receive;
        let active = |kind: u16| {
            self.sides[p]
                .units
                .iter()
                .filter(|u| u.alive && u.kind == kind && u.is_active())
                .count() as u16
        };
        if let Some(kind) = script.resonate {
            gain.0[Resource::Attack as usize] += active(kind);
        }
        if let Some(kind) = script.gold_resonate {
            gain.0[Resource::Gold as usize] += active(kind);
        }
        self.sides[p].gain(&gain);
        for c in &script.create {
            self.create(library, p, c, false);
        }
        let u = &mut self.sides[p].units[i];
        u.delay = script.exhaust;
        if script.exhaust > 0 {
            u.status = Status::Inert;
        }
        if script.selfsac {
            u.alive = false;
        }
    }

    /// Makes the units `c` of a script of player `p` asks for (for `p`, or its opponent if
    /// `c` says so): under construction for `c.build` turns if a buy script made them
    /// (`bought`), else exhausted for as long (spec §2), with `c`'s lifespan if it gives one.
    pub fn create(&mut self, library: &Library, p: usize, c: &Create, bought: bool) {
        let owner = if c.opponent { 1 - p } else { p };
        let (construction, delay) = if bought { (c.build, 0) } else { (0, c.build) };
        for _ in 0..c.count {
            let j = self.add_unit(library, owner as u8, c.unit, construction, delay);
            if let Some(l) = c.lifespan {
                self.sides[owner].units[j].lifespan = l;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::test_support::{count, id, lib, next_own_turn};

    fn start() -> State {
        State::new(
            lib(),
            &Level::load(
                lib(),
                "units:Amporilla,Savior,Defense Grid,Auric Impulse,Xaetron,Chrono Filter",
            )
            .unwrap(),
        )
    }

    #[test]
    fn lifespans_run_down_only_while_active() {
        let mut s = start();
        // Doomed Drone: build 1, lifespan 4 → usable on 4 own turns.
        let l = Level::load(lib(), "units:Doomed Drone").unwrap();
        let mut t = State::new(lib(), &l);
        t.add_unit(lib(), 0, id("Doomed Drone"), 1, 0);
        let mut usable = 0;
        for _ in 0..8 {
            next_own_turn(&mut t);
            usable += t.sides[0]
                .units
                .iter()
                .filter(|u| u.kind == id("Doomed Drone") && u.is_active())
                .count();
        }
        assert_eq!(usable, 4);
        // A prompt Barrier (lifespan 1) dies at its owner's next turn start.
        s.add_unit(lib(), 0, id("Barrier"), 0, 0);
        assert_eq!(count(&s, 0, "Barrier"), 1);
        next_own_turn(&mut s);
        assert_eq!(count(&s, 0, "Barrier"), 0);
    }

    #[test]
    fn turn_start_scripts_resonate_create_exhaust_and_self_sacrifice() {
        let mut s = start();
        s.add_unit(lib(), 0, id("Tarsier"), 0, 0);
        // This one finishes its construction at the next turn start, in time to attack.
        s.add_unit(lib(), 0, id("Tarsier"), 1, 0);
        s.add_unit(lib(), 0, id("Amporilla"), 0, 0);
        s.add_unit(lib(), 0, id("Savior"), 0, 0);
        s.add_unit(lib(), 0, id("Defense Grid"), 0, 0);
        s.add_unit(lib(), 0, id("Auric Impulse"), 0, 0);
        s.add_unit(lib(), 0, id("Chrono Filter"), 0, 0);
        let drones_before = count(&s, 0, "Drone");
        let gold_before = s.sides[0].resources.get(Resource::Gold);
        next_own_turn(&mut s);
        let r = s.sides[0].resources;
        // Attack: 2 Tarsiers (1 each; the second finished construction this turn start) +
        // Amporilla's resonance over 2 active Tarsiers + Savior's 2.
        assert_eq!(r.get(Resource::Attack), 2 + 2 + 2);
        // Gold: Savior's +1 per active Drone, Auric Impulse's 4.
        assert_eq!(
            r.get(Resource::Gold),
            gold_before + drones_before as u16 + 4
        );
        assert_eq!(count(&s, 0, "Auric Impulse"), 0, "self-sacrificed");
        // Defense Grid made a Drone that is delayed one turn.
        assert_eq!(count(&s, 0, "Drone"), drones_before + 1);
        assert!(!s.sides[0].units.last().unwrap().is_active());
        // Chrono Filter: 1B 1R now, exhausted 2 turns: nothing next turn, again the one after.
        assert_eq!((r.get(Resource::Blue), r.get(Resource::Red)), (1, 1));
        next_own_turn(&mut s);
        assert_eq!(s.sides[0].resources.get(Resource::Blue), 0);
        next_own_turn(&mut s);
        assert_eq!(s.sides[0].resources.get(Resource::Blue), 1);
    }

    #[test]
    fn healing_is_capped_and_chill_clears_when_the_unit_is_active() {
        let mut s = start();
        let x = s.add_unit(lib(), 0, id("Xaetron"), 0, 0);
        s.sides[0].units[x].hp = 1;
        s.sides[0].units[x].chill = 3;
        next_own_turn(&mut s);
        assert_eq!((s.sides[0].units[x].hp, s.sides[0].units[x].chill), (5, 0));
        for _ in 0..3 {
            next_own_turn(&mut s);
        }
        assert_eq!(s.sides[0].units[x].hp, 12, "heal_max");
        // Gold and green are banked; the other pools reset.
        s.sides[0].resources = Resources([5, 1, 1, 1, 2, 3]);
        next_own_turn(&mut s);
        assert_eq!(s.sides[0].resources.get(Resource::Gold), 5);
        assert_eq!(s.sides[0].resources.get(Resource::Green), 2);
    }
}
