//! Prismata's play-style statistics and features (issue 12 point 5): what a player bought,
//! spent and attacked with over a game.
//!
//! Unit types are sorted by what they do: *econ* types produce a resource other than attack
//! (Drones, Engineers, the tech buildings, …), *attackers* produce attack, *blockers* block
//! and produce nothing. A type may be econ and attacker both.

use super::library::{Library, UnitType};
use super::resources::Resource;
use super::state::State;
use crate::features::{Composite, GameView};

/// The statistics [`crate::game::Game::player_stats`] reports, in order.
pub static STATS: [&str; 10] = [
    "units",
    "drones_bought",
    "econ_bought",
    "attackers_bought",
    "blockers_bought",
    "gold_spent",
    "green_spent",
    "blue_spent",
    "red_spent",
    "attack_made",
];

/// True if the type's click, turn-start script or resonance makes a resource other than attack.
pub fn is_econ(t: &UnitType) -> bool {
    [&t.click, &t.turn_start].into_iter().flatten().any(|s| {
        s.gold_resonate.is_some()
            || Resource::ALL
                .iter()
                .any(|&r| r != Resource::Attack && s.receive.get(r) > 0)
    })
}

/// True if the type's click, turn-start script or resonance makes attack.
pub fn is_attacker(t: &UnitType) -> bool {
    [&t.click, &t.turn_start]
        .into_iter()
        .flatten()
        .any(|s| s.resonate.is_some() || s.receive.get(Resource::Attack) > 0)
}

/// The statistics of `player` in `s`, in [`STATS`] order, into `out` (cleared first).
pub fn player_stats(library: &Library, s: &State, player: usize, out: &mut Vec<f64>) {
    out.clear();
    let side = &s.sides[player];
    let mut counts = [0.0f64; 4];
    let mut spent = [0.0f64; 4];
    let drone = library.id("Drone");
    for (k, &n) in side.bought.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let kind = s.buyable[k];
        let t = library.get(kind);
        let n = f64::from(n);
        let (econ, attacker) = (is_econ(t), is_attacker(t));
        if Some(kind) == drone {
            counts[0] += n;
        }
        if econ {
            counts[1] += n;
        }
        if attacker {
            counts[2] += n;
        }
        if t.blocks && !econ && !attacker {
            counts[3] += n;
        }
        for (i, r) in [
            Resource::Gold,
            Resource::Green,
            Resource::Blue,
            Resource::Red,
        ]
        .into_iter()
        .enumerate()
        {
            spent[i] += n * f64::from(t.cost.get(r));
        }
    }
    out.push(side.units.iter().filter(|u| u.alive).count() as f64);
    out.extend(counts);
    out.extend(spent);
    out.push(f64::from(side.attack_made));
}

/// `part / whole`, 0 where `whole` is not positive (nothing spent, bought or played).
fn ratio(part: f64, whole: f64) -> f64 {
    if whole > 0.0 { part / whole } else { 0.0 }
}

/// The share of `colour` in the green, blue and red spent (0 if none was).
fn share(g: &GameView<'_>, colour: &str) -> f64 {
    let total =
        g.final_stat("green_spent") + g.final_stat("blue_spent") + g.final_stat("red_spent");
    ratio(g.final_stat(colour), total)
}

/// The player's turns in the game.
fn turns(g: &GameView<'_>) -> f64 {
    g.record.turns.len() as f64
}

/// The share of the player's bought units that are econ (0 if it bought none).
fn economy_share(g: &GameView<'_>) -> f64 {
    ratio(g.final_stat("econ_bought"), g.actions_of("buy"))
}

/// The Prismata features.
pub static FEATURES: [Composite; 8] = [
    Composite::every(
        "economy",
        "econ units bought (Drones, Engineers, tech buildings, …)",
        |g| g.final_stat("econ_bought"),
    ),
    Composite::every("aggression", "attack produced per own turn", |g| {
        ratio(g.final_stat("attack_made"), turns(g))
    }),
    Composite::every(
        "defence",
        "pure blockers bought (no attack, no resource)",
        |g| g.final_stat("blockers_bought"),
    ),
    Composite::every(
        "green_share",
        "share of green in the green, blue and red spent",
        |g| share(g, "green_spent"),
    ),
    Composite::every(
        "blue_share",
        "share of blue in the green, blue and red spent",
        |g| share(g, "blue_spent"),
    ),
    Composite::every(
        "red_share",
        "share of red in the green, blue and red spent",
        |g| share(g, "red_spent"),
    ),
    Composite::every("length", "own turns played", turns),
    Composite::every(
        "economy_share",
        "share of the units bought that are econ (economy apart from the game's length)",
        economy_share,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::test_support::{id, lib};

    #[test]
    fn unit_types_sort_into_econ_attackers_and_blockers() {
        let t = |n: &str| lib().get(id(n));
        assert!(is_econ(t("Drone")) && !is_attacker(t("Drone")));
        assert!(is_econ(t("Conduit")) && is_econ(t("Engineer")));
        assert!(is_attacker(t("Tarsier")) && !is_econ(t("Tarsier")));
        assert!(!is_econ(t("Wall")) && !is_attacker(t("Wall")) && t("Wall").blocks);
    }

    #[test]
    fn the_statistics_count_what_a_side_bought_and_made() {
        let level = crate::games::prismata::Level::load(lib(), "units:Shiver Yeti").unwrap();
        let mut s = State::new(lib(), &level);
        let k = |n: &str| s.buyable.iter().position(|&u| u == id(n)).unwrap();
        let (drone, wall, tarsier, conduit) = (k("Drone"), k("Wall"), k("Tarsier"), k("Conduit"));
        let side = &mut s.sides[0];
        side.bought[drone] = 3;
        side.bought[wall] = 2;
        side.bought[tarsier] = 1;
        side.bought[conduit] = 1;
        side.attack_made = 7;
        let mut out = Vec::new();
        player_stats(lib(), &s, 0, &mut out);
        assert_eq!(out.len(), STATS.len());
        let stat = |name: &str| out[STATS.iter().position(|n| *n == name).unwrap()];
        assert_eq!(stat("units"), 8.0, "6 Drones and 2 Engineers");
        assert_eq!(stat("drones_bought"), 3.0);
        assert_eq!(stat("econ_bought"), 4.0, "3 Drones and a Conduit");
        assert_eq!(stat("attackers_bought"), 1.0);
        assert_eq!(stat("blockers_bought"), 2.0);
        let gold = |n: &str| f64::from(lib().get(id(n)).cost.get(Resource::Gold));
        let expected = 3.0 * gold("Drone") + 2.0 * gold("Wall") + gold("Tarsier") + gold("Conduit");
        assert_eq!(stat("gold_spent"), expected);
        assert_eq!(
            stat("red_spent"),
            f64::from(lib().get(id("Tarsier")).cost.get(Resource::Red))
        );
        assert_eq!(stat("attack_made"), 7.0);
    }

    #[test]
    fn economy_share_is_the_econ_share_of_the_units_bought() {
        use crate::arena::PlayerRecord;
        use crate::features::Feature;
        use crate::game::Game;
        let game = crate::games::prismata::PrismataGame::default();
        let info = game.info();
        let mut final_stats = vec![0.0; STATS.len()];
        final_stats[STATS.iter().position(|n| *n == "econ_bought").unwrap()] = 3.0;
        let buy = info.action_kinds.iter().position(|k| *k == "buy").unwrap();
        let share = |bought: u32| {
            let mut actions_by_kind = vec![0; info.action_kinds.len()];
            actions_by_kind[buy] = bought;
            let record = PlayerRecord {
                actions_by_kind,
                labels: Default::default(),
                turns: Vec::new(),
                final_stats: final_stats.clone(),
                last_action_round: 0,
            };
            let g = GameView {
                won: false,
                rank: 2,
                record: &record,
                stat_names: info.stats,
                action_kinds: info.action_kinds,
            };
            Feature::resolve("economy_share", "f", info, &FEATURES)
                .unwrap()
                .per_game(&g)
                .unwrap()
        };
        assert_eq!(share(12), 0.25, "3 econ of 12 bought");
        assert_eq!(share(0), 0.0, "nothing bought");
    }
}
