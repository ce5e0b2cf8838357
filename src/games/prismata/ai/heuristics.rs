//! Unit value heuristics of the Prismata AI (spec §11.6): the resource-weighted "will" value of
//! a unit type, the loss a unit's damage or death means, the attack a unit produces, the
//! resonance helpers, and the will-score evaluations.
//!
//! Follows `source/ai/Heuristics.cpp` (except the buy heuristics `BuyHighestCost`,
//! `BuyAttackValue` and `BuyBlockValue`, which live with the buy players), the resonance
//! helpers of `source/ai/AITools.cpp` (`NumResonatorsReady`, `NumResonateesReady`,
//! `GetReceiveFromResonators`, `GetReceiveFromResonatees`) and `WillScoreSum`,
//! `WillScoreEvaluation` and `WillScoreInflationEvaluation` of `source/ai/Eval.cpp`.
//!
//! Differences from the C++:
//! - Our library has no designer `customScore`, so the type values are always the computed
//!   ones.
//! - A unit is named by its player and its index in that player's list (`p`, `i`), and the
//!   dead units our state keeps until their owner's next turn (`alive == false`) are skipped
//!   wherever the C++ walks a player's (live) cards.
//! - A type's resonance links are its turn-start `resonate` (+1 attack) and `gold_resonate`
//!   (+1 gold); the C++ gives a type at most one of them, we count both if a library has both.
//! - The per-type values are computed on demand from the type (a few multiplications), with
//!   a table for the built-in library kept in a `OnceLock`, as is the built-in library's
//!   reverse resonance links (which types resonate from a type).

use std::cmp::Ordering;
use std::sync::OnceLock;

use crate::games::prismata::action::can_block;
use crate::games::prismata::library::{Script, Target};
use crate::games::prismata::{Library, Resource, Resources, State, UnitType};

/// Value of one attack (C++ `WILL_VALUE_ATTACK`).
pub const WILL_VALUE_ATTACK: f64 = 2.25;
/// Value of one blue.
pub const WILL_VALUE_BLUE: f64 = 1.50;
/// Value of one green.
pub const WILL_VALUE_GREEN: f64 = 1.20;
/// Value of one gold.
pub const WILL_VALUE_GOLD: f64 = 1.00;
/// Value of one red.
pub const WILL_VALUE_RED: f64 = 0.90;
/// Value of one energy.
pub const WILL_VALUE_ENERGY: f64 = 0.50;
/// Inflation per turn of build time beyond the first (C++ `WILL_VALUE_CONSTR`).
pub const WILL_VALUE_CONSTRUCTION: f64 = 1.28;
/// Bonus of a prompt unit, and of the side to move in [`will_score_inflation`] (C++
/// `WILL_VALUE_PROMPT`).
pub const WILL_VALUE_PROMPT: f64 = 1.13;
/// Forcefield's fixed inflated mana value (about two thirds of a Wall: its extra Drone cost
/// makes it hard to price, and its computed value would fall below an Engineer's).
pub const FORCEFIELD_VALUE: f64 = 3.75;
/// Value of a 1-HP unit that can only block (less than an Engineer).
pub const ONE_HP_BLOCKER_VALUE: f64 = 1.875;

/// Tie-breaking epsilon of the damage losses.
const EPSILON: f64 = 0.001;

/// The loss player `player` takes when its unit `unit` takes `damage` (C++
/// `DamageLoss_*`).
pub type DamageLoss = fn(&Library, &State, usize, usize, u16) -> f64;

/// A score of player `player`'s unit `unit` (C++ card heuristics such as
/// `SnipeHighestDefense`).
pub type UnitHeuristic = fn(&Library, &State, usize, usize) -> f64;

/// The precomputed values of one type.
#[derive(Clone, Copy, Debug)]
struct TypeValues {
    mana: f64,
    sac: f64,
    inflated_mana: f64,
    inflated_total: f64,
    given_to_enemy: f64,
}

/// The build-time inflation multiplier: ÷1.13 for a prompt unit, ×1.28 per turn beyond the
/// first.
pub fn inflation(build: u16) -> f64 {
    match build {
        0 => 1.0 / WILL_VALUE_PROMPT,
        b => WILL_VALUE_CONSTRUCTION.powi(i32::from(b) - 1),
    }
}

fn weighted(cost: &Resources) -> f64 {
    f64::from(cost.get(Resource::Gold)) * WILL_VALUE_GOLD
        + f64::from(cost.get(Resource::Blue)) * WILL_VALUE_BLUE
        + f64::from(cost.get(Resource::Energy)) * WILL_VALUE_ENERGY
        + f64::from(cost.get(Resource::Green)) * WILL_VALUE_GREEN
        + f64::from(cost.get(Resource::Red)) * WILL_VALUE_RED
        + f64::from(cost.get(Resource::Attack)) * WILL_VALUE_ATTACK
}

fn is_forcefield(t: &UnitType) -> bool {
    t.name == "Forcefield"
}

fn compute_mana(lib: &Library, kind: u16) -> f64 {
    weighted(&lib.get(kind).cost)
}

fn compute_sac(lib: &Library, kind: u16) -> f64 {
    lib.get(kind).buy.as_ref().map_or(0.0, |b| {
        b.sacrifice
            .iter()
            .map(|&(k, n)| f64::from(n) * compute_mana(lib, k))
            .sum()
    })
}

fn compute_inflated_mana(lib: &Library, kind: u16) -> f64 {
    let t = lib.get(kind);
    if is_forcefield(t) {
        FORCEFIELD_VALUE
    } else {
        compute_mana(lib, kind) * inflation(t.build)
    }
}

fn compute(lib: &Library, kind: u16) -> TypeValues {
    let t = lib.get(kind);
    let mana = compute_mana(lib, kind);
    let sac = compute_sac(lib, kind);
    let inflated_total = if is_forcefield(t) {
        mana + sac
    } else {
        (mana + sac) * inflation(t.build)
    };
    let given_to_enemy = t.buy.as_ref().map_or(0.0, |b| {
        b.create
            .iter()
            .filter(|c| c.opponent)
            .map(|c| compute_inflated_mana(lib, c.unit) * f64::from(c.count))
            .sum()
    });
    TypeValues {
        mana,
        sac,
        inflated_mana: compute_inflated_mana(lib, kind),
        inflated_total,
        given_to_enemy,
    }
}

fn values(lib: &Library, kind: u16) -> TypeValues {
    static BUILTIN: OnceLock<Vec<TypeValues>> = OnceLock::new();
    let builtin = Library::builtin();
    if std::ptr::eq(lib, builtin) {
        BUILTIN.get_or_init(|| {
            (0..builtin.units().len() as u16)
                .map(|k| compute(builtin, k))
                .collect()
        })[kind as usize]
    } else {
        compute(lib, kind)
    }
}

/// The weighted value of a type's buy cost (C++ `GetBuyManaCost`).
pub fn buy_mana_cost(lib: &Library, kind: u16) -> f64 {
    values(lib, kind).mana
}

/// The mana value of the units a type sacrifices when bought (C++ `GetBuySacCost`).
pub fn buy_sac_cost(lib: &Library, kind: u16) -> f64 {
    values(lib, kind).sac
}

/// Mana value plus sacrifice value (C++ `GetBuyTotalCost`).
pub fn buy_total_cost(lib: &Library, kind: u16) -> f64 {
    let v = values(lib, kind);
    v.mana + v.sac
}

/// The mana value times the build-time [`inflation`]; Forcefield's is fixed at
/// [`FORCEFIELD_VALUE`] (C++ `GetInflatedManaCostValue`).
#[cfg(test)]
fn inflated_mana_value(lib: &Library, kind: u16) -> f64 {
    values(lib, kind).inflated_mana
}

/// The total value times the build-time [`inflation`]; Forcefield's is not inflated (C++
/// `GetInflatedTotalCostValue`).
pub fn inflated_total_value(lib: &Library, kind: u16) -> f64 {
    values(lib, kind).inflated_total
}

/// The inflated mana value of the units a type's buy script gives the opponent (C++
/// `GetInflatedManaCostValueGivenToEnemy`).
pub fn inflated_mana_value_given_to_enemy(lib: &Library, kind: u16) -> f64 {
    values(lib, kind).given_to_enemy
}

/// The resonance links of a type's turn-start script: (resonatee type, what each active one
/// gives).
fn resonance_links(t: &UnitType) -> impl Iterator<Item = (u16, Resources)> + '_ {
    let mut attack = Resources::NONE;
    attack.set(Resource::Attack, 1);
    let mut gold = Resources::NONE;
    gold.set(Resource::Gold, 1);
    t.turn_start.iter().flat_map(move |s| {
        s.resonate
            .map(|k| (k, attack))
            .into_iter()
            .chain(s.gold_resonate.map(|k| (k, gold)))
    })
}

/// Player `p`'s live units of type `kind` at most `max_construction` turns from finished.
fn count_ready(s: &State, p: usize, kind: u16, max_construction: u16) -> usize {
    s.sides[p]
        .units
        .iter()
        .filter(|u| u.alive && u.kind == kind && u.construction <= max_construction)
        .count()
}

/// The resonance links that point at `kind` in the built-in library, as (resonator type,
/// what each link gives), one entry per link; `None` for another library (whose units are
/// scanned instead). Drones, Engineers, Forcefields and Tarsiers are resonated from, and a
/// side can own dozens of them, so their resonance is read per resonator type rather than by
/// walking every unit's links (that walk was a third of a learned Alpha-Beta decision).
fn builtin_resonators(lib: &Library, kind: u16) -> Option<&'static [(u16, Resources)]> {
    static BUILTIN: OnceLock<Vec<Vec<(u16, Resources)>>> = OnceLock::new();
    let builtin = Library::builtin();
    if !std::ptr::eq(lib, builtin) {
        return None;
    }
    let table = BUILTIN.get_or_init(|| {
        let mut table = vec![Vec::new(); builtin.units().len()];
        for (t, u) in builtin.units().iter().enumerate() {
            for (k, r) in resonance_links(u) {
                table[usize::from(k)].push((t as u16, r));
            }
        }
        table
    });
    Some(&table[usize::from(kind)])
}

/// Player `p`'s live units (at most `max_construction` turns from finished) whose turn-start
/// script resonates from `kind` (C++ `NumResonatorsReady`).
pub fn num_resonators_ready(
    lib: &Library,
    s: &State,
    p: usize,
    kind: u16,
    max_construction: u16,
) -> usize {
    if let Some(links) = builtin_resonators(lib, kind) {
        return links
            .iter()
            .map(|&(t, _)| count_ready(s, p, t, max_construction))
            .sum();
    }
    s.sides[p]
        .units
        .iter()
        .filter(|u| u.alive && u.construction <= max_construction)
        .map(|u| {
            resonance_links(lib.get(u.kind))
                .filter(|&(k, _)| k == kind)
                .count()
        })
        .sum()
}

/// What player `p`'s resonators of `kind` (as [`num_resonators_ready`] counts them) gain
/// from one more unit of `kind` (C++ `GetReceiveFromResonators`).
pub fn receive_from_resonators(
    lib: &Library,
    s: &State,
    p: usize,
    kind: u16,
    max_construction: u16,
) -> Resources {
    let mut gain = Resources::NONE;
    if let Some(links) = builtin_resonators(lib, kind) {
        // Saturating sums of non-negative gains: the order of the additions does not matter.
        for &(t, r) in links {
            for _ in 0..count_ready(s, p, t, max_construction) {
                gain.gain(&r);
            }
        }
        return gain;
    }
    for u in &s.sides[p].units {
        if u.alive && u.construction <= max_construction {
            for (k, r) in resonance_links(lib.get(u.kind)) {
                if k == kind {
                    gain.gain(&r);
                }
            }
        }
    }
    gain
}

/// Player `p`'s live units (at most `max_construction` turns from finished) a unit of `kind`
/// resonates from (C++ `NumResonateesReady`).
pub fn num_resonatees_ready(
    lib: &Library,
    s: &State,
    p: usize,
    kind: u16,
    max_construction: u16,
) -> usize {
    resonance_links(lib.get(kind))
        .map(|(k, _)| count_ready(s, p, k, max_construction))
        .sum()
}

/// What a unit of `kind` gains from player `p`'s resonatees (as [`num_resonatees_ready`]
/// counts them) (C++ `GetReceiveFromResonatees`).
pub fn receive_from_resonatees(
    lib: &Library,
    s: &State,
    p: usize,
    kind: u16,
    max_construction: u16,
) -> Resources {
    let mut gain = Resources::NONE;
    for (k, r) in resonance_links(lib.get(kind)) {
        for _ in 0..count_ready(s, p, k, max_construction) {
            gain.gain(&r);
        }
    }
    gain
}

/// The attack `script` of a unit of `kind` gives player `p`, with its resonance (C++
/// `GetAttackProduced(type, script, ...)`).
fn script_attack(lib: &Library, s: &State, p: usize, kind: u16, script: &Script) -> u16 {
    let mut attack = script.receive.get(Resource::Attack);
    if script.resonate.is_some() || script.gold_resonate.is_some() {
        attack = attack
            .saturating_add(receive_from_resonatees(lib, s, p, kind, 1).get(Resource::Attack))
            .saturating_add(receive_from_resonators(lib, s, p, kind, 1).get(Resource::Attack));
    }
    attack
}

/// The attack a unit of `kind` of player `p` makes per turn: its click's and its turn start's,
/// with resonance (C++ `GetAttackProduced(type, state, player)`).
pub fn attack_produced_by_type(lib: &Library, s: &State, p: usize, kind: u16) -> u16 {
    let t = lib.get(kind);
    let turn_start = t
        .turn_start
        .as_ref()
        .map_or(0, |sc| script_attack(lib, s, p, kind, sc));
    let click = t
        .click
        .as_ref()
        .map_or(0, |sc| script_attack(lib, s, p, kind, sc));
    turn_start.saturating_add(click)
}

/// The attack player `p`'s unit `i` makes per turn: 0 if it dies at its next turn start
/// (lifespan 1), its click's unless out of charges, and its turn start's (C++
/// `GetAttackProduced(card, state, player)`).
pub fn attack_produced(lib: &Library, s: &State, p: usize, i: usize) -> u16 {
    let u = &s.sides[p].units[i];
    if u.lifespan == 1 {
        return 0;
    }
    let t = lib.get(u.kind);
    let mut attack = 0u16;
    if (t.charges == 0 || u.charges > 0)
        && let Some(sc) = &t.click
    {
        attack = script_attack(lib, s, p, u.kind, sc);
    }
    if let Some(sc) = &t.turn_start {
        attack = attack.saturating_add(script_attack(lib, s, p, u.kind, sc));
    }
    attack
}

/// True if player `p`'s unit `i` is good only for blocking (C++ `Card::canBlockOnly`): its
/// type blocks, has no turn-start script, no targeted click, and no click it can still use
/// (a click with charges left counts).
pub fn can_block_only(lib: &Library, s: &State, p: usize, i: usize) -> bool {
    let u = &s.sides[p].units[i];
    let t = lib.get(u.kind);
    if !t.blocks || t.turn_start.is_some() {
        return false;
    }
    match &t.click {
        None => true,
        Some(c) if c.target.is_some() => false,
        Some(_) => t.charges > 0 && u.charges < 1,
    }
}

/// True if a type's only use is a click paid with HP (C++ `isAbilityHealthUserOnly`): a
/// fragile non-blocker without charges whose click costs no resources and no sacrifice but
/// some HP, with no turn-start script.
pub fn ability_health_user_only(t: &UnitType) -> bool {
    t.click.as_ref().is_some_and(|c| {
        t.fragile
            && !t.blocks
            && t.charges == 0
            && c.cost.is_empty()
            && c.sacrifice.is_empty()
            && c.hp_cost > 0
            && t.turn_start.is_none()
    })
}

/// The loss of player `p`'s unit `i` taking `damage`, in resource value (C++
/// `DamageLoss_WillCost`, spec §11.6): 0 for no damage or a unit with lifespan 1; for a
/// 1-HP pure blocker [`ONE_HP_BLOCKER_VALUE`]; for a unit that dies, its inflated value
/// (mana value for pure blockers and HP-paying units, total value otherwise) less tiny
/// tie-breaks for charges, lifespan and exhaustion, plus the attack it adds by resonance;
/// a fragile pure blocker loses value in proportion to the HP it loses, another fragile
/// survivor a negligible amount, a non-fragile survivor nothing.
pub fn damage_loss_will_cost(lib: &Library, s: &State, p: usize, i: usize, damage: u16) -> f64 {
    let u = &s.sides[p].units[i];
    if u.lifespan == 1 || damage == 0 {
        return 0.0;
    }
    let t = lib.get(u.kind);
    let charge_loss = if t.charges > 0 {
        EPSILON / (1.0 + f64::from(u.charges))
    } else {
        0.0
    };
    let lifespan_loss = if u.lifespan > 0 {
        EPSILON / f64::from(u.lifespan)
    } else {
        0.0
    };
    let exhaust_loss = f64::from(u.delay) * EPSILON;
    let tie_break = charge_loss + lifespan_loss + exhaust_loss;
    let block_only = can_block_only(lib, s, p, i);
    let linear = block_only || ability_health_user_only(t);
    // Read only where a loss includes it: it walks the side's units.
    let resonance = || {
        f64::from(
            receive_from_resonators(lib, s, p, u.kind, 1)
                .get(Resource::Attack)
                .saturating_add(
                    receive_from_resonatees(lib, s, p, u.kind, 1).get(Resource::Attack),
                ),
        ) * WILL_VALUE_ATTACK
    };
    if block_only && u.hp == 1 {
        return ONE_HP_BLOCKER_VALUE + resonance();
    }
    let v = values(lib, u.kind);
    let dies = damage >= u.hp;
    if t.fragile {
        let taken = damage.min(u.hp);
        let ratio = f64::from(taken) / f64::from(t.hp);
        if linear {
            let mut loss = ratio * (v.inflated_mana - tie_break);
            if !dies {
                // Slightly favour keeping more units alive.
                loss -= EPSILON;
            }
            if u.hp == 1 {
                // Losing a 1-HP unit is worse than losing 1 HP of a healthy one.
                loss += 2.0 * EPSILON;
            }
            if dies { loss + resonance() } else { loss }
        } else {
            // The C++ takes the tie-break off twice here; kept for the same choices.
            let value = v.inflated_total - 2.0 * tie_break;
            if dies {
                value + resonance()
            } else {
                ratio * value * EPSILON
            }
        }
    } else if dies {
        let value = if linear {
            v.inflated_mana
        } else {
            v.inflated_total
        };
        value - tie_break + resonance()
    } else {
        0.0
    }
}

/// The loss of player `p`'s unit `i` taking `damage`, in attack (C++
/// `DamageLoss_AttackValue`): 0 unless it dies (or if its lifespan is 1); else the attack it
/// produces ([`attack_produced`]) plus the chill its click gives.
pub fn damage_loss_attack_value(lib: &Library, s: &State, p: usize, i: usize, damage: u16) -> f64 {
    let u = &s.sides[p].units[i];
    if u.lifespan == 1 || damage < u.hp {
        return 0.0;
    }
    let chill = match lib.get(u.kind).click.as_ref().and_then(|c| c.target) {
        Some(Target::Chill(n)) => n,
        _ => 0,
    };
    f64::from(chill) + f64::from(attack_produced(lib, s, p, i))
}

/// The value of player `p`'s unit `i` as it is: the [`damage_loss_will_cost`] of its death
/// (C++ `CurrentCardValue`).
pub fn current_value(lib: &Library, s: &State, p: usize, i: usize) -> f64 {
    damage_loss_will_cost(lib, s, p, i, s.sides[p].units[i].hp)
}

/// The HP of player `p`'s unit `i` if it can block now, else 0 (C++
/// `SnipeHighestDefense`).
pub fn snipe_highest_defense(lib: &Library, s: &State, p: usize, i: usize) -> f64 {
    let u = &s.sides[p].units[i];
    if can_block(u, lib.get(u.kind)) {
        f64::from(u.hp)
    } else {
        0.0
    }
}

/// The attack of player `p`'s unit `i`'s type (click and turn start, without resonance; 0
/// when out of charges) per HP it has (C++ `DefenseHeuristicSaveAttackers`): blocking with
/// the lowest first saves attackers.
pub fn defense_heuristic_save_attackers(lib: &Library, s: &State, p: usize, i: usize) -> f64 {
    let u = &s.sides[p].units[i];
    let t = lib.get(u.kind);
    let attack = if t.charges > 0 && u.charges == 0 {
        0
    } else {
        type_attack(t)
    };
    f64::from(attack) / f64::from(u.hp.max(1))
}

/// The attack a type's click and turn-start scripts receive, without resonance (the C++
/// `CardType::getAttack`).
pub fn type_attack(t: &UnitType) -> u16 {
    let of = |s: &Option<Script>| s.as_ref().map_or(0, |s| s.receive.get(Resource::Attack));
    of(&t.click).saturating_add(of(&t.turn_start))
}

/// True if a type is an economy unit, clicked every turn for gold (C++ `isEconCard`): its
/// click gives gold, costs nothing, sacrifices nothing, and the type makes no attack.
pub fn is_econ(t: &UnitType) -> bool {
    t.click.as_ref().is_some_and(|c| {
        c.receive.get(Resource::Gold) > 0
            && c.cost.is_empty()
            && c.sacrifice.is_empty()
            && type_attack(t) == 0
    })
}

/// The order in which the C++ clicks player `p`'s units (C++
/// `CardActivateOrderComparator`): lower type index first; then, for a type whose click costs
/// HP, the healthiest, otherwise the least healthy; then most charges; then creation order.
/// `Ordering::Less` means `a` is clicked before `b`.
pub fn activate_order(lib: &Library, s: &State, p: usize, a: usize, b: usize) -> Ordering {
    let key = |i: usize| {
        let u = &s.sides[p].units[i];
        let t = lib.get(u.kind);
        let hp_used = t.click.as_ref().is_some_and(|c| c.hp_cost > 0);
        (
            -i32::from(u.kind),
            if hp_used {
                i32::from(u.hp)
            } else {
                -i32::from(u.hp)
            },
            if t.charges > 0 {
                i32::from(u.charges)
            } else {
                -10000
            },
        )
    };
    key(b)
        .cmp(&key(a))
        .then_with(|| s.sides[p].units[a].id.cmp(&s.sides[p].units[b].id))
}

/// The summed [`current_value`] of player `p`'s live units (C++ `WillScoreSum`).
pub fn will_score_sum(lib: &Library, s: &State, p: usize) -> f64 {
    (0..s.sides[p].units.len())
        .filter(|&i| s.sides[p].units[i].alive)
        .map(|i| current_value(lib, s, p, i))
        .sum()
}

/// Player `p`'s [`will_score_sum`] less its opponent's (C++ `WillScoreEvaluation`, spec
/// §11.5).
pub fn will_score(lib: &Library, s: &State, p: usize) -> f64 {
    will_score_sum(lib, s, p) - will_score_sum(lib, s, 1 - p)
}

/// As [`will_score`], with the side to move's sum × [`WILL_VALUE_PROMPT`] (C++
/// `WillScoreInflationEvaluation`).
pub fn will_score_inflation(lib: &Library, s: &State, p: usize) -> f64 {
    let sum = |q: usize| {
        let bonus = if q == s.active as usize {
            WILL_VALUE_PROMPT
        } else {
            1.0
        };
        will_score_sum(lib, s, q) * bonus
    };
    sum(p) - sum(1 - p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::{Level, Status};

    fn lib() -> &'static Library {
        Library::builtin()
    }

    fn id(name: &str) -> u16 {
        lib().id(name).unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// The base-set start with `extra` pool units buyable.
    fn start(extra: &str) -> State {
        State::new(
            lib(),
            &Level::load(lib(), &format!("units:{extra}")).unwrap(),
        )
    }

    /// Adds an active unit of `name` to player `p`; returns its index.
    fn add(s: &mut State, p: u8, name: &str) -> usize {
        let i = s.add_unit(lib(), p, id(name), 0, 0);
        let u = &mut s.sides[p as usize].units[i];
        u.status = if lib().get(u.kind).click.is_some() {
            Status::Default
        } else {
            Status::Inert
        };
        i
    }

    #[test]
    fn type_values_follow_the_resource_weights_and_build_inflation() {
        let l = lib();
        // Wall: 5 gold + 1 blue = 6.5, prompt: ÷ 1.13.
        assert!(close(buy_mana_cost(l, id("Wall")), 6.5));
        assert!(close(inflated_mana_value(l, id("Wall")), 6.5 / 1.13));
        // Tarsier: 4 gold + 1 red = 4.9, build 2: × 1.28.
        assert!(close(buy_mana_cost(l, id("Tarsier")), 4.9));
        assert!(close(inflated_total_value(l, id("Tarsier")), 4.9 * 1.28));
        // Drone: 3 gold + 1 energy, build 1: no inflation.
        assert!(close(inflated_total_value(l, id("Drone")), 3.5));
        // Forcefield: 1 gold + 1 green and a Drone sacrificed; mana value fixed at 3.75, total
        // value not inflated.
        let ff = id("Forcefield");
        assert!(close(buy_mana_cost(l, ff), 2.2));
        assert!(close(buy_sac_cost(l, ff), 3.5));
        assert!(close(buy_total_cost(l, ff), 5.7));
        assert!(close(inflated_mana_value(l, ff), 3.75));
        assert!(close(inflated_total_value(l, ff), 5.7));
        assert!(close(inflation(4), 1.28f64.powi(3)));
        // A parsed copy of the library gives the same values as the cached built-in table.
        let copy = l.clone();
        assert!(close(
            inflated_total_value(&copy, id("Tarsier")),
            inflated_total_value(l, id("Tarsier"))
        ));
    }

    #[test]
    fn units_given_to_the_enemy_are_valued() {
        let l = lib();
        // Blood Pact gives the opponent one Tarsier.
        assert!(close(
            inflated_mana_value_given_to_enemy(l, id("Blood Pact")),
            4.9 * 1.28
        ));
        assert_eq!(inflated_mana_value_given_to_enemy(l, id("Wall")), 0.0);
    }

    #[test]
    fn non_fragile_units_lose_their_value_only_when_they_die() {
        let mut s = start("Amporilla");
        let wall = add(&mut s, 0, "Wall");
        let l = lib();
        assert_eq!(damage_loss_will_cost(l, &s, 0, wall, 2), 0.0);
        assert!(close(damage_loss_will_cost(l, &s, 0, wall, 3), 6.5 / 1.13));
        assert!(close(current_value(l, &s, 0, wall), 6.5 / 1.13));
        // A Drone (index 0) is worth its total value; a doomed one nothing.
        assert!(close(current_value(l, &s, 0, 0), 3.5));
        s.sides[0].units[0].lifespan = 1;
        assert_eq!(current_value(l, &s, 0, 0), 0.0);
        // Exhaustion is a tie-break loss.
        s.sides[0].units[1].delay = 2;
        assert!(close(current_value(l, &s, 0, 1), 3.5 - 0.002));
    }

    #[test]
    fn fragile_losses_depend_on_what_the_unit_is_for() {
        let l = lib();
        let mut s = start("Amporilla");
        // Forcefield: a pure blocker, loses in proportion to the HP lost.
        let ff = add(&mut s, 0, "Forcefield");
        assert!(close(
            damage_loss_will_cost(l, &s, 0, ff, 1),
            0.5 * 3.75 - 0.001
        ));
        assert!(close(damage_loss_will_cost(l, &s, 0, ff, 2), 3.75));
        assert!(close(damage_loss_will_cost(l, &s, 0, ff, 9), 3.75));
        // Damaged to 1 HP, it is a 1-HP pure blocker.
        s.sides[0].units[ff].hp = 1;
        assert!(close(current_value(l, &s, 0, ff), 1.875));
        // Gauss Cannon: fragile attacker, a negligible loss unless it dies.
        let gauss = add(&mut s, 0, "Gauss Cannon");
        let total = inflated_total_value(l, id("Gauss Cannon"));
        assert!(close(
            damage_loss_will_cost(l, &s, 0, gauss, 2),
            0.4 * total * 0.001
        ));
        assert!(close(damage_loss_will_cost(l, &s, 0, gauss, 5), total));
    }

    #[test]
    fn a_rhino_out_of_charges_is_a_pure_blocker() {
        let l = lib();
        let mut s = start("Amporilla");
        let rhino = add(&mut s, 0, "Rhino");
        assert!(!can_block_only(l, &s, 0, rhino));
        let charged = current_value(l, &s, 0, rhino);
        // Total value with the charge tie-break: 1 / (1 + 2) thousandths.
        assert!(close(
            charged,
            inflated_total_value(l, id("Rhino")) - 0.001 / 3.0
        ));
        s.sides[0].units[rhino].charges = 0;
        assert!(can_block_only(l, &s, 0, rhino));
        assert!(close(
            current_value(l, &s, 0, rhino),
            inflated_mana_value(l, id("Rhino")) - 0.001
        ));
    }

    #[test]
    fn the_builtin_reverse_links_find_what_scanning_every_unit_finds() {
        let l = lib();
        let other = l.clone();
        let mut s = start("Amporilla");
        // Every type that resonates from something, at every build stage, beside many of
        // their targets (Drones, Engineers, Forcefields, Tarsiers).
        for (t, u) in l.units().iter().enumerate() {
            if resonance_links(u).next().is_some() {
                for construction in 0..3 {
                    s.add_unit(l, 0, t as u16, construction, 0);
                }
            }
        }
        for name in [
            "Drone",
            "Drone",
            "Engineer",
            "Forcefield",
            "Tarsier",
            "Tarsier",
        ] {
            add(&mut s, 0, name);
        }
        for kind in 0..l.units().len() as u16 {
            for max_construction in [0, 1, 5] {
                assert_eq!(
                    receive_from_resonators(l, &s, 0, kind, max_construction),
                    receive_from_resonators(&other, &s, 0, kind, max_construction),
                    "{}",
                    l.get(kind).name
                );
                assert_eq!(
                    num_resonators_ready(l, &s, 0, kind, max_construction),
                    num_resonators_ready(&other, &s, 0, kind, max_construction)
                );
            }
        }
        assert!(receive_from_resonators(l, &s, 0, id("Drone"), 1) != Resources::NONE);
    }

    #[test]
    fn resonance_counts_units_nearly_built_and_adds_attack_value() {
        let l = lib();
        let mut s = start("Amporilla");
        let amp = add(&mut s, 0, "Amporilla");
        let t1 = add(&mut s, 0, "Tarsier");
        let t2 = s.add_unit(l, 0, id("Tarsier"), 1, 0);
        let _far = s.add_unit(l, 0, id("Tarsier"), 2, 0);
        assert_eq!(num_resonatees_ready(l, &s, 0, id("Amporilla"), 1), 2);
        assert_eq!(num_resonators_ready(l, &s, 0, id("Tarsier"), 1), 1);
        // Another library (no cached table) finds the same.
        assert_eq!(num_resonators_ready(&l.clone(), &s, 0, id("Tarsier"), 1), 1);
        assert_eq!(num_resonators_ready(l, &s, 0, id("Wall"), 1), 0);
        assert_eq!(
            receive_from_resonatees(l, &s, 0, id("Amporilla"), 1).get(Resource::Attack),
            2
        );
        assert_eq!(
            receive_from_resonators(l, &s, 0, id("Tarsier"), 1).get(Resource::Attack),
            1
        );
        assert_eq!(attack_produced(l, &s, 0, amp), 2);
        // A Tarsier's script does not resonate: its attack is its own.
        assert_eq!(attack_produced(l, &s, 0, t1), 1);
        assert_eq!(attack_produced_by_type(l, &s, 0, id("Tarsier")), 1);
        assert_eq!(attack_produced_by_type(l, &s, 0, id("Amporilla")), 2);
        // But its value counts the attack the Amporilla gets from it.
        assert!(close(
            current_value(l, &s, 0, t1),
            inflated_total_value(l, id("Tarsier")) + 2.25
        ));
        assert!(close(
            current_value(l, &s, 0, amp),
            inflated_total_value(l, id("Amporilla")) + 2.0 * 2.25
        ));
        assert!(close(
            damage_loss_attack_value(l, &s, 0, t2, 1),
            f64::from(attack_produced(l, &s, 0, t2))
        ));
        assert_eq!(damage_loss_attack_value(l, &s, 0, amp, 2), 0.0);
        // The enemy's Tarsiers do not count.
        assert_eq!(num_resonatees_ready(l, &s, 1, id("Amporilla"), 1), 0);
    }

    #[test]
    fn save_attackers_scores_attack_per_hp() {
        let l = lib();
        let mut s = start("Amporilla");
        let gauss = add(&mut s, 0, "Gauss Cannon");
        assert!(close(
            defense_heuristic_save_attackers(l, &s, 0, gauss),
            0.2
        ));
        assert_eq!(defense_heuristic_save_attackers(l, &s, 0, 0), 0.0);
        let wall = add(&mut s, 0, "Wall");
        assert_eq!(snipe_highest_defense(l, &s, 0, wall), 3.0);
        assert_eq!(snipe_highest_defense(l, &s, 0, gauss), 0.0);
    }

    #[test]
    fn activate_order_puts_lower_types_and_charged_units_first() {
        let l = lib();
        let mut s = start("Amporilla");
        let r1 = add(&mut s, 0, "Rhino");
        let r2 = add(&mut s, 0, "Rhino");
        s.sides[0].units[r1].charges = 1;
        assert_eq!(activate_order(l, &s, 0, r2, r1), Ordering::Less);
        // Drones (type 0 in the library) before Rhinos; among Drones creation order.
        assert_eq!(activate_order(l, &s, 0, 0, r1), Ordering::Less);
        assert_eq!(activate_order(l, &s, 0, 0, 1), Ordering::Less);
        assert_eq!(activate_order(l, &s, 0, 1, 0), Ordering::Greater);
    }

    #[test]
    fn drones_are_economy_units() {
        assert!(is_econ(lib().get(id("Drone"))));
        assert!(!is_econ(lib().get(id("Rhino"))));
        assert!(!is_econ(lib().get(id("Engineer"))));
    }

    #[test]
    fn will_scores_compare_the_sides() {
        let l = lib();
        let mut s = start("Amporilla");
        // Player 1 has one more Drone than player 0.
        assert!(close(will_score(l, &s, 0), -3.5));
        assert!(close(will_score(l, &s, 1), 3.5));
        let own = will_score_sum(l, &s, 0);
        let enemy = will_score_sum(l, &s, 1);
        assert_eq!(s.active, 0);
        assert!(close(will_score_inflation(l, &s, 0), own * 1.13 - enemy));
        // Dead units do not count.
        s.sides[1].units[0].alive = false;
        assert!(close(will_score(l, &s, 1), 0.0));
    }
}
