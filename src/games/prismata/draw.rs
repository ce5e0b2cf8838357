//! Prismata states drawn for pages ([`crate::kit::GameKit::draw`]): each player's resources
//! and one card per unit type it holds (name, count, what its units are doing, as the text
//! render says it), the buy pool
//! underneath (name, price, copies left to each player); actions in words.

use svg::node::element::{Group, Rectangle, Text};

use super::action::Action;
use super::library::Library;
use super::render::{unit_groups, unit_notes};
use super::state::{State, TurnPhase};
use crate::board::{Drawing, LegendEntry};

/// Card size and gaps.
const CARD_W: f64 = 150.0;
const CARD_H: f64 = 50.0;
const GAP: f64 = 8.0;
/// Cards per row.
const PER_ROW: usize = 6;
/// Height of a row's title.
const TITLE_H: f64 = 22.0;

/// The players' colours.
const COLOURS: [&str; 2] = ["#c0392b", "#2162a8"];

fn text(x: f64, y: f64, size: f64, weight: &str, s: impl Into<String>) -> Text {
    Text::new(s)
        .set("x", x)
        .set("y", y)
        .set("font-size", size)
        .set("font-weight", weight)
        .set("font-family", "sans-serif")
}

/// A card's frame in `colour`, tinted when `lit`.
fn frame(colour: &str, lit: bool) -> Rectangle {
    Rectangle::new()
        .set("width", CARD_W)
        .set("height", CARD_H)
        .set("rx", 5)
        .set("fill", if lit { colour } else { "#fff" })
        .set("fill-opacity", if lit { 0.12 } else { 1.0 })
        .set("stroke", colour)
        .set("stroke-width", 1.5)
}

/// A card at (x, y): a title, a line under it, in a [`frame`].
fn card(x: f64, y: f64, colour: &str, lit: bool, title: &str, line: &str) -> String {
    Group::new()
        .set("transform", format!("translate({x},{y})"))
        .add(frame(colour, lit))
        .add(text(7.0, 19.0, 12.0, "bold", title))
        .add(text(7.0, 38.0, 11.0, "normal", line))
        .to_string()
}

/// A row title at height `y`.
fn title(y: f64, colour: &str, s: String) -> String {
    text(0.0, y + 15.0, 13.0, "bold", s)
        .set("fill", colour)
        .to_string()
}

/// `s` drawn: per player a title and its unit cards, then the buy pool; one part per title
/// and per card.
pub fn draw(library: &Library, s: &State) -> Drawing {
    let mut parts = Vec::new();
    let mut y = 0.0;
    let rows = |n: usize| n.div_ceil(PER_ROW).max(1) as f64;
    let at = |i: usize, top: f64| {
        (
            (i % PER_ROW) as f64 * (CARD_W + GAP),
            top + TITLE_H + (i / PER_ROW) as f64 * (CARD_H + GAP),
        )
    };
    for (p, side) in s.sides.iter().enumerate() {
        let colour = COLOURS[p];
        let to_act = if s.over {
            String::new()
        } else if s.active as usize == p {
            let phase = match s.phase {
                TurnPhase::Defense => "defense",
                TurnPhase::Action => "action",
                TurnPhase::Breach => "breach",
            };
            format!(" · to act ({phase} phase)")
        } else {
            String::new()
        };
        parts.push(title(
            y,
            colour,
            format!("player {p}: {}{to_act}", side.resources),
        ));
        let groups = unit_groups(side);
        for (i, (kind, units)) in groups.iter().enumerate() {
            let t = library.get(*kind);
            let line = format!("×{} {}", units.len(), unit_notes(units, t.hp).join(", "));
            let (x, cy) = at(i, y);
            parts.push(card(x, cy, colour, true, &t.name, &line));
        }
        y += TITLE_H + rows(groups.len()) * (CARD_H + GAP) + GAP;
    }
    parts.push(title(
        y,
        "#333",
        "buy pool: price, copies left to player 0 / 1".into(),
    ));
    for (k, &kind) in s.buyable.iter().enumerate() {
        let t = library.get(kind);
        let left = |p: usize| t.rarity.supply() - s.sides[p].bought[k];
        let (x, cy) = at(k, y);
        let line = format!("{} · {} / {}", t.cost, left(0), left(1));
        parts.push(card(x, cy, "#777", false, &t.name, &line));
    }
    y += TITLE_H + rows(s.buyable.len()) * (CARD_H + GAP);
    Drawing {
        width: PER_ROW as f64 * (CARD_W + GAP),
        height: y,
        parts,
    }
}

/// The pictures' symbols.
pub fn legend() -> Vec<LegendEntry> {
    let small = |colour: &str, lit: bool| {
        Group::new()
            .set("transform", "scale(0.24)")
            .add(frame(colour, lit).set("stroke-width", 4))
            .to_string()
    };
    vec![
        LegendEntry {
            symbol: small(COLOURS[0], true),
            label: "player 0's units of one type: count, building, exhausted, clicked, damaged, \
                    chilled"
                .into(),
        },
        LegendEntry {
            symbol: small(COLOURS[1], true),
            label: "player 1's units of one type".into(),
        },
        LegendEntry {
            symbol: small("#777", false),
            label: "a unit type to buy: price, copies left to each player".into(),
        },
    ]
}

/// `a`, taken in `s`, in words, naming the units it concerns.
pub fn describe(library: &Library, s: &State, a: Action) -> String {
    let me = s.active as usize;
    let name = |side: usize, i: u16| {
        s.sides[side]
            .units
            .get(i as usize)
            .map_or_else(|| format!("unit {i}"), |u| library.get(u.kind).name.clone())
    };
    let foe = 1 - me;
    match a {
        Action::Click(i) => format!("click {}", name(me, i)),
        Action::Target(i) => format!("target {}", name(foe, i)),
        Action::Buy(k) => s.buyable.get(k as usize).map_or_else(
            || format!("buy {k}"),
            |&kind| format!("buy {}", library.get(kind).name),
        ),
        Action::Frontline(i) => format!("attack {}", name(foe, i)),
        Action::Block(i) => format!("block with {}", name(me, i)),
        Action::Breach(i) => format!("breach {}", name(foe, i)),
        Action::EndPhase => "end the phase".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::prismata::game::PrismataGame;
    use crate::kit::GameKit;

    #[test]
    fn a_state_is_drawn_with_each_players_units_and_the_buy_pool() {
        let game = PrismataGame::default();
        let level = PrismataGame::load_level("7").unwrap();
        let s = game.new_initial_state(&level, 0);
        let d = draw(game.library(), &s);
        let text = d.parts.join("");
        assert!(text.contains("player 0:") && text.contains("player 1:"));
        assert!(text.contains("Drone") && text.contains("buy pool"));
        assert_eq!(
            d.parts.iter().filter(|p| p.contains("#777")).count(),
            s.buyable.len()
        );
        let mut legal = Vec::new();
        game.legal_actions(&s, &mut legal);
        let words: Vec<String> = legal
            .iter()
            .map(|&a| describe(game.library(), &s, a))
            .collect();
        assert!(
            words
                .iter()
                .any(|w| w.starts_with("click ") || w.starts_with("buy "))
        );
        assert!(!words.iter().any(|w| w.contains("unit ")), "{words:?}");
    }
}
