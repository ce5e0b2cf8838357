//! Puerto Rico's play-style features (issue 15 point 5): where a player's points came from
//! (the shipper-to-builder axis), which roles it picked (percentages, as map axes are whole
//! numbers), what it built and what it kept.

use crate::features::{Composite, GameView};

/// The player's final score: shipping chips + building VP + large-building bonuses.
fn total_vp(g: &GameView<'_>) -> f64 {
    g.final_stat("shipping_vp") + g.final_stat("building_vp") + g.final_stat("bonus_vp")
}

/// `part` as a percentage of the final score (0 with no points).
fn vp_share(g: &GameView<'_>, part: f64) -> f64 {
    let total = total_vp(g);
    if total > 0.0 {
        100.0 * part / total
    } else {
        0.0
    }
}

/// Picks of role `name` as a percentage of the player's role picks (0 with none).
fn role_share(g: &GameView<'_>, name: &str) -> f64 {
    let picks = g.actions_of("role");
    if picks > 0.0 {
        100.0 * g.labelled(name) / picks
    } else {
        0.0
    }
}

/// The Puerto Rico features.
pub static FEATURES: [Composite; 12] = [
    Composite::every(
        "shipping_pct",
        "% of the final score won by shipping (VP chips)",
        |g| vp_share(g, g.final_stat("shipping_vp")),
    ),
    Composite::every(
        "building_pct",
        "% of the final score from buildings (printed VP and large-building bonuses)",
        |g| vp_share(g, g.final_stat("building_vp") + g.final_stat("bonus_vp")),
    ),
    Composite::every("vp", "final score (VP)", total_vp),
    Composite::every(
        "settler_pct",
        "% of the player's role picks that were the settler",
        |g| role_share(g, "role.settler"),
    ),
    Composite::every(
        "mayor_pct",
        "% of the player's role picks that were the mayor",
        |g| role_share(g, "role.mayor"),
    ),
    Composite::every(
        "builder_pct",
        "% of the player's role picks that were the builder",
        |g| role_share(g, "role.builder"),
    ),
    Composite::every(
        "craftsman_pct",
        "% of the player's role picks that were the craftsman",
        |g| role_share(g, "role.craftsman"),
    ),
    Composite::every(
        "trader_pct",
        "% of the player's role picks that were the trader",
        |g| role_share(g, "role.trader"),
    ),
    Composite::every(
        "captain_pct",
        "% of the player's role picks that were the captain",
        |g| role_share(g, "role.captain"),
    ),
    Composite::every(
        "prospector_pct",
        "% of the player's role picks that were a prospector",
        |g| role_share(g, "role.prospector"),
    ),
    Composite::every("large_buildings", "large buildings owned at the end", |g| {
        g.final_stat("large_buildings")
    }),
    Composite::every("doubloons_hoarded", "doubloons held at the end", |g| {
        g.final_stat("doubloons")
    }),
];
