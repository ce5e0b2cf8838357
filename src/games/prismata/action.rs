//! Prismata actions (spec §8) and those of the action phase (spec §4, §5): clicking abilities,
//! choosing a click's target, buying, and spending attack on enemy frontline units. Defense,
//! breach and the end of a phase are in [`super::combat`], and [`super::rules`] answers for
//! every phase. Selling and undoing are not offered (spec §15.2: our searches decide before
//! they act instead of trying and taking back).

use super::library::{Destroy, Library, Target, UnitType};
use super::resources::Resource;
use super::state::{State, Status, TurnPhase, Unit};

/// An action of the player to act. Unit indices are positions in a side's unit list, which
/// only shrinks between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Use the ability of own unit `i`.
    Click(u16),
    /// Choose enemy unit `i` as the target of the armed click.
    Target(u16),
    /// Buy the buyable unit with this index in [`State::buyable`].
    Buy(u16),
    /// Spend attack on enemy frontline unit `i`.
    Frontline(u16),
    /// Block the opponent's pending attack with own unit `i` (defense phase).
    Block(u16),
    /// Spend attack left after a wipeout on enemy unit `i` (breach phase).
    Breach(u16),
    /// End the phase: the defense once the attack is absorbed, the action phase (wiping out
    /// the opponent's blockers if the attack suffices), the breach.
    EndPhase,
}

/// True if `u` (of type `t`) can block now (spec §2): alive, active, not frozen, and blocking
/// by its type while its ability is unused (no unit of the library blocks once clicked).
pub fn can_block(u: &Unit, t: &UnitType) -> bool {
    u.alive && u.is_active() && u.chill < u.hp && t.blocks && u.status != Status::Assigned
}

/// True if `u` may be sacrificed (spec §4): alive, active and, if its type has an ability,
/// already clicked this turn.
fn sacrificable(u: &Unit, t: &UnitType) -> bool {
    u.alive && u.is_active() && (t.click.is_none() || u.status == Status::Assigned)
}

/// Indices of player `p`'s sacrificable units of type `kind`, lowest first.
fn victims(library: &Library, s: &State, p: usize, kind: u16) -> Vec<usize> {
    let side = &s.sides[p];
    (0..side.units.len())
        .filter(|&i| {
            let u = &side.units[i];
            u.kind == kind && sacrificable(u, library.get(u.kind))
        })
        .collect()
}

/// True if player `p` has the units a list of sacrifices asks for.
fn can_sacrifice(library: &Library, s: &State, p: usize, sacrifice: &[(u16, u16)]) -> bool {
    sacrifice
        .iter()
        .all(|&(kind, n)| victims(library, s, p, kind).len() >= n as usize)
}

/// Sacrifices the lowest-index eligible units of a list of sacrifices.
fn sacrifice(library: &Library, s: &mut State, p: usize, list: &[(u16, u16)]) {
    for &(kind, n) in list {
        for i in victims(library, s, p, kind).into_iter().take(n as usize) {
            s.sides[p].units[i].alive = false;
        }
    }
}

/// The units of `d` that it may destroy, in the engine's order (spec §2: blockers first, then
/// less delay, more lifespan, more charges, more HP, less chill, lowest id).
fn destroy_targets(library: &Library, s: &State, p: usize, d: &Destroy) -> Vec<usize> {
    let side = if d.opponent { 1 - p } else { p };
    let units = &s.sides[side].units;
    let mut v: Vec<usize> = (0..units.len())
        .filter(|&i| {
            let u = &units[i];
            u.alive && u.kind == d.unit && !(d.not_blocking && can_block(u, library.get(u.kind)))
        })
        .collect();
    v.sort_by_key(|&i| {
        let u = &units[i];
        (
            !can_block(u, library.get(u.kind)),
            u.delay,
            std::cmp::Reverse(u.lifespan),
            std::cmp::Reverse(u.charges),
            std::cmp::Reverse(u.hp),
            u.chill,
            u.id,
        )
    });
    v
}

/// True if `a`, other than [`Action::EndPhase`], is legal in the action phase of `s`.
pub(super) fn legal_in_action_phase(library: &Library, s: &State, a: Action) -> bool {
    if s.phase != TurnPhase::Action {
        return false;
    }
    let p = s.active as usize;
    let o = 1 - p;
    if let Some(armed) = s.armed {
        let Action::Target(j) = a else { return false };
        let click = library
            .get(s.sides[p].units[armed as usize].kind)
            .click
            .as_ref();
        let Some(target) = click.and_then(|c| c.target) else {
            return false;
        };
        return valid_target(library, s, o, j as usize, target);
    }
    match a {
        Action::Click(i) => {
            let Some(u) = s.sides[p].units.get(i as usize) else {
                return false;
            };
            let t = library.get(u.kind);
            let Some(click) = &t.click else { return false };
            u.alive
                && u.is_active()
                && u.status == Status::Default
                && (t.charges == 0 || u.charges > 0)
                && u.hp >= click.hp_cost
                && s.sides[p].resources.covers(&click.cost)
                && can_sacrifice(library, s, p, &click.sacrifice)
                && click
                    .destroy
                    .iter()
                    .all(|d| destroy_targets(library, s, p, d).len() >= d.count as usize)
                && click.target.is_none_or(|target| {
                    (0..s.sides[o].units.len()).any(|j| valid_target(library, s, o, j, target))
                })
        }
        Action::Target(_) | Action::Block(_) | Action::Breach(_) | Action::EndPhase => false,
        Action::Buy(k) => {
            let Some(&kind) = s.buyable.get(k as usize) else {
                return false;
            };
            let t = library.get(kind);
            s.sides[p].bought[k as usize] < t.rarity.supply()
                && s.sides[p].resources.covers(&t.cost)
                && t.buy
                    .as_ref()
                    .is_none_or(|b| can_sacrifice(library, s, p, &b.sacrifice))
        }
        Action::Frontline(j) => {
            let Some(u) = s.sides[o].units.get(j as usize) else {
                return false;
            };
            let t = library.get(u.kind);
            let attack = s.sides[p].resources.get(Resource::Attack);
            u.alive && t.frontline && u.construction == 0 && can_take(u, t.fragile, attack)
        }
    }
}

/// True if enemy unit `j` (of player `o`) may be the target of a click with `target`.
fn valid_target(library: &Library, s: &State, o: usize, j: usize, target: Target) -> bool {
    let Some(u) = s.sides[o].units.get(j) else {
        return false;
    };
    let t = library.get(u.kind);
    if !u.alive || u.construction > 0 {
        return false;
    }
    match target {
        Target::Chill(_) => can_block(u, t),
        Target::SnipeHealthAtMost(hp) => u.hp <= hp,
        Target::SnipeTech => t.tech,
    }
}

/// Appends the legal actions of the action phase of `s` but [`Action::EndPhase`] to `out`:
/// the targets of an armed click, else clicks (own units in order), buys (buyable order),
/// frontline attacks (enemy units in order).
pub(super) fn action_phase_actions(library: &Library, s: &State, out: &mut Vec<Action>) {
    if s.phase != TurnPhase::Action {
        return;
    }
    let p = s.active as usize;
    let o = 1 - p;
    if s.armed.is_some() {
        out.extend(
            (0..s.sides[o].units.len() as u16)
                .map(Action::Target)
                .filter(|&a| legal_in_action_phase(library, s, a)),
        );
        return;
    }
    let candidates = (0..s.sides[p].units.len() as u16)
        .map(Action::Click)
        .chain((0..s.buyable.len() as u16).map(Action::Buy))
        .chain((0..s.sides[o].units.len() as u16).map(Action::Frontline));
    out.extend(candidates.filter(|&a| legal_in_action_phase(library, s, a)));
}

/// A unit takes `min(attack, HP)` of `attack`; returns the attack left. It dies if that is all
/// its HP; a fragile survivor keeps the damage, another is whole again (spec §5).
pub fn absorb(u: &mut Unit, fragile: bool, attack: u16) -> u16 {
    let taken = attack.min(u.hp);
    if taken >= u.hp {
        u.alive = false;
    } else if fragile {
        u.hp -= taken;
    }
    attack - taken
}

/// `damage` can be spent on `u` (fragile units take part of it; others need all their HP).
pub(super) fn can_take(u: &Unit, fragile: bool, damage: u16) -> bool {
    damage > 0 && (fragile || damage >= u.hp)
}

/// Unit `i` of the opponent of player `p` absorbs `p`'s attack ([`absorb`]), as a blocker, a
/// frontline unit or a breached unit does.
pub(super) fn hit(library: &Library, s: &mut State, p: usize, i: usize) {
    let unit = &mut s.sides[1 - p].units[i];
    let fragile = library.get(unit.kind).fragile;
    let left = absorb(unit, fragile, s.sides[p].resources.get(Resource::Attack));
    s.sides[p].resources.set(Resource::Attack, left);
}

/// Applies `a`, an action-phase action [`legal_in_action_phase`] accepts, to `s`.
pub(super) fn apply_in_action_phase(library: &Library, s: &mut State, a: Action) {
    let p = s.active as usize;
    let o = 1 - p;
    match a {
        Action::Click(i) => {
            let i = i as usize;
            let t = library.get(s.sides[p].units[i].kind);
            let click = t.click.as_ref().expect("legal clicks have an ability");
            let u = &mut s.sides[p].units[i];
            if t.charges > 0 {
                u.charges -= 1;
            }
            u.status = Status::Assigned;
            u.delay = click.exhaust;
            if click.hp_cost > 0 {
                u.hp -= click.hp_cost;
                if u.hp == 0 {
                    u.alive = false;
                }
            }
            s.sides[p].resources.spend(&click.cost);
            sacrifice(library, s, p, &click.sacrifice);
            s.sides[p].gain(&click.receive);
            for c in &click.create {
                s.create(library, p, c, false);
            }
            for d in &click.destroy {
                let side = if d.opponent { o } else { p };
                for j in destroy_targets(library, s, p, d)
                    .into_iter()
                    .take(d.count as usize)
                {
                    s.sides[side].units[j].alive = false;
                }
            }
            if click.target.is_some() {
                s.armed = Some(i as u16);
            } else if click.selfsac {
                s.sides[p].units[i].alive = false;
            }
        }
        Action::Target(j) => {
            let i = s.armed.take().expect("a target follows an armed click") as usize;
            let click = library
                .get(s.sides[p].units[i].kind)
                .click
                .as_ref()
                .expect("an armed unit has an ability");
            let target = &mut s.sides[o].units[j as usize];
            match click.target.expect("an armed click has a target") {
                Target::Chill(n) => target.chill = target.chill.saturating_add(n),
                Target::SnipeHealthAtMost(_) | Target::SnipeTech => target.alive = false,
            }
            if click.selfsac {
                s.sides[p].units[i].alive = false;
            }
        }
        Action::Buy(k) => {
            let kind = s.buyable[k as usize];
            let t = library.get(kind);
            let side = &mut s.sides[p];
            side.resources.spend(&t.cost);
            side.bought[k as usize] += 1;
            if let Some(b) = &t.buy {
                sacrifice(library, s, p, &b.sacrifice);
            }
            let j = s.add_unit(library, p as u8, kind, t.build, 0);
            s.sides[p].units[j].bought = true;
            if let Some(b) = &t.buy {
                for c in &b.create {
                    s.create(library, p, c, true);
                }
            }
            if t.spell {
                s.sides[p].units[j].alive = false;
            }
        }
        Action::Frontline(j) => hit(library, s, p, j as usize),
        Action::Block(_) | Action::Breach(_) | Action::EndPhase => {
            unreachable!("not an action-phase action: {a:?}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::rules::{apply, is_legal, legal_actions};
    use crate::games::prismata::test_support::{buy_index, game, id, lib};

    /// Adds a unit of `name` to player `p`, active and ready to click, as if it had been
    /// there since before this turn started.
    fn ready(s: &mut State, p: u8, name: &str) -> u16 {
        let i = s.add_unit(lib(), p, id(name), 0, 0);
        s.sides[p as usize].units[i].status = Status::Default;
        i as u16
    }

    fn click_all(s: &mut State, name: &str) {
        let n = s.sides[s.active as usize].units.len();
        for i in 0..n as u16 {
            let u = s.sides[s.active as usize].units[i as usize];
            if u.kind == id(name) && is_legal(lib(), s, Action::Click(i)) {
                apply(lib(), s, Action::Click(i));
            }
        }
    }

    #[test]
    fn the_opening_offers_six_drone_clicks_and_nothing_to_buy() {
        let s = game("Apollo");
        let mut out = Vec::new();
        legal_actions(lib(), &s, &mut out);
        let mut expected: Vec<Action> = (0..6).map(Action::Click).collect();
        expected.push(Action::EndPhase);
        assert_eq!(out, expected);
    }

    #[test]
    fn clicked_drones_pay_for_a_buy_and_no_longer_block() {
        let mut s = game("Apollo");
        click_all(&mut s, "Drone");
        assert_eq!(s.sides[0].resources.to_string(), "6$ 2E");
        let drone = &s.sides[0].units[0];
        assert!(!can_block(drone, lib().get(drone.kind)), "clicked");
        let drone_buy = buy_index(&s, "Drone");
        apply(lib(), &mut s, Action::Buy(drone_buy));
        assert_eq!(s.sides[0].resources.to_string(), "3$ 1E");
        let bought = *s.sides[0].units.last().unwrap();
        assert_eq!(
            (bought.kind, bought.construction, bought.bought),
            (id("Drone"), 1, true)
        );
        assert!(
            !is_legal(lib(), &s, Action::Buy(buy_index(&s, "Wall"))),
            "no blue"
        );
        assert_eq!(s.sides[0].bought[drone_buy as usize], 1);
    }

    #[test]
    fn a_forcefield_costs_a_clicked_drone_and_blocks_at_once() {
        let mut s = game("Apollo");
        s.sides[0].resources.0[Resource::Green as usize] = 1;
        let ff = buy_index(&s, "Forcefield");
        assert!(
            !is_legal(lib(), &s, Action::Buy(ff)),
            "no clicked Drone yet"
        );
        apply(lib(), &mut s, Action::Click(0));
        assert!(is_legal(lib(), &s, Action::Buy(ff)));
        apply(lib(), &mut s, Action::Buy(ff));
        assert!(
            !s.sides[0].units[0].alive,
            "the clicked Drone is sacrificed"
        );
        let f = *s.sides[0].units.last().unwrap();
        assert!(can_block(&f, lib().get(f.kind)), "prompt blocker");
    }

    #[test]
    fn targeted_clicks_arm_then_chill_or_snipe() {
        let mut s = game("Shiver Yeti,Apollo");
        let yeti = ready(&mut s, 0, "Shiver Yeti");
        apply(lib(), &mut s, Action::Click(yeti));
        let mut out = Vec::new();
        legal_actions(lib(), &s, &mut out);
        // Any of the 9 enemy starting units can block; the phase cannot end before a target.
        assert_eq!(out, (0..9).map(Action::Target).collect::<Vec<_>>());
        apply(lib(), &mut s, Action::Target(3));
        let chilled = s.sides[1].units[3];
        assert_eq!(chilled.chill, 2);
        assert!(!can_block(&chilled, lib().get(chilled.kind)), "frozen");
        // Apollo snipes a unit with at most 3 HP.
        let apollo = ready(&mut s, 0, "Apollo");
        apply(lib(), &mut s, Action::Click(apollo));
        apply(lib(), &mut s, Action::Target(0));
        assert!(!s.sides[1].units[0].alive);
    }

    #[test]
    fn frontline_units_take_attack_fragile_ones_partially() {
        let mut s = game("Galvani Drone,Wild Drone");
        let wild = s.add_unit(lib(), 1, id("Wild Drone"), 0, 0) as u16; // 3 HP, not fragile
        s.sides[0].resources.0[Resource::Attack as usize] = 2;
        assert!(
            !is_legal(lib(), &s, Action::Frontline(wild)),
            "2 attack < 3 HP"
        );
        s.sides[0].resources.0[Resource::Attack as usize] = 4;
        apply(lib(), &mut s, Action::Frontline(wild));
        assert!(!s.sides[1].units[wild as usize].alive);
        assert_eq!(s.sides[0].resources.get(Resource::Attack), 1);
        let mut fragile = s.sides[1].units[0];
        assert_eq!(absorb(&mut fragile, true, 0), 0);
        let mut tank = Unit { hp: 7, ..fragile };
        assert_eq!(absorb(&mut tank, true, 3), 0);
        assert_eq!((tank.hp, tank.alive), (4, true), "fragile damage stays");
    }

    #[test]
    fn spells_run_their_buy_script_and_vanish() {
        let mut s = game("Blood Pact");
        s.sides[0].resources.0[Resource::Gold as usize] = 3;
        s.sides[0].resources.0[Resource::Red as usize] = 1;
        let before = s.sides[0].units.len();
        let pact = buy_index(&s, "Blood Pact");
        apply(lib(), &mut s, Action::Buy(pact));
        let alive: Vec<u16> = s.sides[0]
            .units
            .iter()
            .skip(before)
            .filter(|u| u.alive)
            .map(|u| u.kind)
            .collect();
        assert_eq!(alive, [id("Husk"); 4]);
        let given = s.sides[1].units.last().unwrap();
        assert_eq!((given.kind, given.construction), (id("Tarsier"), 1));
    }

    #[test]
    fn deadeye_destroys_a_drone_that_cannot_block() {
        let mut s = game("Deadeye Operative");
        let d = ready(&mut s, 0, "Deadeye Operative");
        s.sides[0].resources.0[Resource::Attack as usize] = 2;
        assert!(
            !is_legal(lib(), &s, Action::Click(d)),
            "every enemy Drone can block"
        );
        s.sides[1].units[2].status = Status::Assigned;
        apply(lib(), &mut s, Action::Click(d));
        assert!(!s.sides[1].units[2].alive);
        assert_eq!(s.sides[0].resources.get(Resource::Attack), 0);
    }
}
