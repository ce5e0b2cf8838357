//! Pictures of game states for pages ([`crate::report::replay`]): a game draws a state as
//! SVG fragments ([`crate::kit::GameKit::draw`]) and names its symbols in a legend; pages
//! know nothing of the game beyond these.

use svg::Node;
use svg::node::element::{Rectangle, Text};

/// One state drawn as SVG: a `width` × `height` picture made of `parts`, each a
/// self-contained SVG element (its own position included; a group for several shapes) in
/// paint order. A page stores every
/// distinct part once, so a game should cut its picture where states differ (Tribes: one part
/// per tile).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawing {
    /// Width in SVG user units.
    pub width: f64,
    /// Height in SVG user units.
    pub height: f64,
    /// SVG fragments in paint order.
    pub parts: Vec<String>,
}

/// One symbol of a game's pictures and what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// An SVG fragment drawn in a 32 × 32 box at the origin.
    pub symbol: String,
    /// What the symbol stands for.
    pub label: String,
}

/// Line height of [`text_drawing`], in SVG user units.
const LINE: f64 = 15.0;
/// Character width of [`text_drawing`]'s monospace font, about.
const CHAR: f64 = 8.4;

/// A text picture (a game's [`crate::game::Game::render`]) drawn as lines of monospace text:
/// the drawing of a game that has no other, one part per line.
pub fn text_drawing(text: &str) -> Drawing {
    let lines: Vec<&str> = text.lines().collect();
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let width = (widest as f64 * CHAR + 16.0).max(120.0);
    let height = lines.len() as f64 * LINE + 16.0;
    let mut parts = vec![
        Rectangle::new()
            .set("width", width)
            .set("height", height)
            .set("fill", "#fbfaf7")
            .to_string(),
    ];
    for (i, line) in lines.iter().enumerate() {
        let mut t = Text::new("")
            .set("x", 8)
            .set("y", 8.0 + LINE * (i as f64 + 0.8))
            .set("font-family", "monospace")
            .set("font-size", 13)
            .set("xml:space", "preserve");
        t.append(svg::node::Text::new(*line));
        parts.push(t.to_string());
    }
    Drawing {
        width,
        height,
        parts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_drawing_has_a_background_and_one_escaped_part_per_line() {
        let d = text_drawing("a <b>\n& c");
        assert_eq!(d.parts.len(), 3);
        assert!(d.parts[1].contains("a &lt;b&gt;"), "{}", d.parts[1]);
        assert!(d.parts[2].contains("&amp; c"), "{}", d.parts[2]);
        assert!(d.width >= 120.0 && d.height > 2.0 * LINE);
    }
}
