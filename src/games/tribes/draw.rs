//! Tribes states drawn for pages ([`crate::kit::GameKit::draw`]): one SVG part per tile
//! (terrain, territory, road, resource, building, village or city, unit), the tribes' status
//! underneath, a legend of the symbols, and actions in words.

use svg::Node;
use svg::node::element::{Circle, Group, Line, Polygon, Rectangle, Text, Use};

use super::action::Action;
use super::render::{building_char, unit_letter};
use super::state::{NONE, State};
use super::types::{
    ActionKind as K, Building, LevelUpBonus, Resource, Scope, Tech, Terrain, UnitKind,
};
use crate::board::{Drawing, LegendEntry};

/// Side of a tile in SVG units.
const TILE: f64 = 40.0;
/// Height of the status lines under the board.
const STATUS: f64 = 18.0;

/// Tribe colours by seat: red, blue, orange, purple.
const TRIBE_COLOURS: [&str; 4] = ["#c0392b", "#2162a8", "#e67e22", "#7d3c98"];

fn tribe_colour(tribe: u8) -> &'static str {
    TRIBE_COLOURS[tribe as usize % TRIBE_COLOURS.len()]
}

fn terrain_colour(t: Terrain) -> &'static str {
    match t {
        Terrain::Plain | Terrain::Village | Terrain::City => "#cfdc8e",
        Terrain::Shallow => "#93cde8",
        Terrain::Deep => "#4a86c5",
        Terrain::Mountain => "#a19a8c",
        Terrain::Forest => "#5e8d3f",
    }
}

fn resource_colour(r: Resource) -> &'static str {
    match r {
        Resource::Fish => "#1b6fa8",
        Resource::Fruit => "#d23a7a",
        Resource::Animal => "#8a5a2b",
        Resource::Whales => "#24405e",
        Resource::Ore => "#5c5c5c",
        Resource::Crops => "#d8b41e",
        Resource::Ruins => "#6b4f3a",
    }
}

/// A label in the given colour, centred on (x, y).
fn label(x: f64, y: f64, size: f64, colour: &str, s: impl Into<String>) -> Text {
    Text::new(s)
        .set("x", x)
        .set("y", y + size * 0.36)
        .set("font-size", size)
        .set("font-family", "sans-serif")
        .set("font-weight", "bold")
        .set("text-anchor", "middle")
        .set("fill", colour)
}

fn rect(x: f64, y: f64, w: f64, h: f64, fill: &str) -> Rectangle {
    Rectangle::new()
        .set("x", x)
        .set("y", y)
        .set("width", w)
        .set("height", h)
        .set("fill", fill)
}

/// The terrain square of a tile at the origin.
fn terrain(t: Terrain) -> Rectangle {
    rect(0.0, 0.0, TILE, TILE, terrain_colour(t))
        .set("stroke", "#00000022")
        .set("stroke-width", 0.5)
}

/// A resource: a small disc with its letter, top left.
fn resource(r: Resource) -> Group {
    Group::new()
        .add(
            Circle::new()
                .set("cx", 8)
                .set("cy", 8)
                .set("r", 6)
                .set("fill", resource_colour(r)),
        )
        .add(label(8.0, 8.0, 8.0, "#fff", r.to_char().to_string()))
}

/// A building: a small dark square with its letter, top right.
fn building(b: Building) -> Group {
    Group::new()
        .add(rect(25.0, 2.0, 13.0, 13.0, "#3b3027").set("rx", 2))
        .add(label(31.5, 8.5, 9.0, "#fff", building_char(b).to_string()))
}

/// A village: a grey hut in the middle of the tile.
fn village() -> Polygon {
    Polygon::new()
        .set("points", "8,22 17,12 26,22 26,31 8,31")
        .set("fill", "#efe6d0")
        .set("stroke", "#555")
        .set("stroke-width", 1)
}

/// A city of `tribe`: a house in the tribe's colour, drawn thick with walls, with a gold edge
/// for a capital (its level is written on it, [`city_level`]).
fn city(tribe: u8, walls: bool, capital: bool) -> Group {
    let colour = if tribe == NONE {
        "#888"
    } else {
        tribe_colour(tribe)
    };
    Group::new().add(
        Polygon::new()
            .set("points", "4,16 16,5 28,16 28,30 4,30")
            .set("fill", colour)
            .set("stroke", if capital { "#f1c40f" } else { "#222" })
            .set("stroke-width", if walls { 3.0 } else { 1.2 }),
    )
}

/// A city's level, written on its house.
fn city_level(level: u8) -> Text {
    label(16.0, 21.0, 11.0, "#fff", level.to_string())
}

/// A unit of `tribe`: a disc in the tribe's colour with its type's letter.
fn unit(tribe: u8, kind: UnitKind) -> Group {
    Group::new()
        .add(
            Circle::new()
                .set("cx", 26)
                .set("cy", 25)
                .set("r", 9.5)
                .set("fill", tribe_colour(tribe))
                .set("stroke", "#fff")
                .set("stroke-width", 1.5),
        )
        .add(label(
            26.0,
            25.0,
            11.0,
            "#fff",
            unit_letter(kind).to_ascii_uppercase().to_string(),
        ))
}

/// A wounded unit's health as a bar under it.
fn health(hp: u8, max_hp: u8) -> Group {
    let share = f64::from(hp) / f64::from(max_hp.max(1));
    Group::new()
        .add(rect(15.0, 36.0, 22.0, 3.0, "#00000055"))
        .add(rect(15.0, 36.0, 22.0 * share, 3.0, "#2ecc71"))
}

/// A road: a brown band across the tile.
fn road() -> Line {
    Line::new()
        .set("x1", 2)
        .set("y1", 20)
        .set("x2", 38)
        .set("y2", 20)
        .set("stroke", "#8b5a2b")
        .set("stroke-width", 2.5)
        .set("stroke-dasharray", "4 2")
}

/// Territory of `tribe`: a tint over the tile.
fn territory(tribe: u8) -> Rectangle {
    rect(0.0, 0.0, TILE, TILE, tribe_colour(tribe))
        .set("fill-opacity", 0.16)
        .set("stroke", "none")
}

/// A border of `tribe`'s territory on `side` of a tile (top, right, bottom, left).
fn border(tribe: u8, side: usize) -> Line {
    let (a, b) = (1.5, TILE - 1.5);
    let (x1, y1, x2, y2) = [(a, a, b, a), (b, a, b, b), (a, b, b, b), (a, a, a, b)][side];
    Line::new()
        .set("x1", x1)
        .set("y1", y1)
        .set("x2", x2)
        .set("y2", y2)
        .set("stroke", tribe_colour(tribe))
        .set("stroke-width", 3)
}

/// Colour index of a city's owner: its tribe, or 4 (grey) for none.
fn owner_index(tribe: u8) -> u8 {
    if tribe == NONE { 4 } else { tribe }
}

/// The ids of the shared symbols ([`defs`]).
mod ids {
    pub fn terrain(i: usize) -> String {
        format!("tt{i}")
    }
    pub fn resource(i: usize) -> String {
        format!("tr{i}")
    }
    pub fn building(i: usize) -> String {
        format!("tb{i}")
    }
    pub const VILLAGE: &str = "tv";
    pub const ROAD: &str = "td";
    pub fn territory(tribe: u8) -> String {
        format!("tz{tribe}")
    }
    pub fn border(tribe: u8, side: usize) -> String {
        format!("te{tribe}{side}")
    }
    pub fn city(owner: u8, walls: bool, capital: bool) -> String {
        format!("tc{owner}{}{}", u8::from(walls), u8::from(capital))
    }
    pub fn unit(kind: usize, tribe: u8) -> String {
        format!("tu{kind}_{tribe}")
    }
}

/// A reference to the shared symbol `id`.
fn use_(id: &str) -> Use {
    Use::new().set("href", format!("#{id}"))
}

/// Every symbol [`draw`] refers to, with its id, for a page's `<defs>` (tribes 0–3).
pub fn defs() -> String {
    let mut out = String::new();
    let mut add = |node: Group, id: String| out += &node.set("id", id).to_string();
    for (i, &t) in Terrain::ALL.iter().enumerate() {
        add(Group::new().add(terrain(t)), ids::terrain(i));
    }
    for (i, &r) in Resource::ALL.iter().enumerate() {
        add(resource(r), ids::resource(i));
    }
    for (i, &b) in Building::ALL.iter().enumerate() {
        add(building(b), ids::building(i));
    }
    add(Group::new().add(village()), ids::VILLAGE.into());
    add(Group::new().add(road()), ids::ROAD.into());
    for tribe in 0..TRIBE_COLOURS.len() as u8 {
        add(Group::new().add(territory(tribe)), ids::territory(tribe));
        for side in 0..4 {
            add(
                Group::new().add(border(tribe, side)),
                ids::border(tribe, side),
            );
        }
        for (i, &k) in UnitKind::ALL.iter().enumerate() {
            add(unit(tribe, k), ids::unit(i, tribe));
        }
    }
    for owner in 0..=TRIBE_COLOURS.len() as u8 {
        for walls in [false, true] {
            for capital in [false, true] {
                let tribe = if owner as usize == TRIBE_COLOURS.len() {
                    NONE
                } else {
                    owner
                };
                add(
                    city(tribe, walls, capital),
                    ids::city(owner, walls, capital),
                );
            }
        }
    }
    out
}

/// Tile `t` of `s` as one group translated to its place, made of references to the shared
/// symbols ([`defs`]) and the city level and health bar drawn in place.
fn tile_part(s: &State, t: usize) -> String {
    let tile = &s.tiles[t];
    let (x, y) = s.xy(t);
    let mut g = Group::new()
        .set(
            "transform",
            format!("translate({},{})", y as f64 * TILE, x as f64 * TILE),
        )
        .add(use_(&ids::terrain(tile.terrain.index())));
    if tile.tribe != NONE {
        g.append(use_(&ids::territory(tile.tribe)));
        for (side, (dx, dy)) in [(-1, 0), (0, 1), (1, 0), (0, -1)].into_iter().enumerate() {
            if s.idx(x + dx, y + dy)
                .is_some_and(|v| s.tiles[v].tribe != tile.tribe)
            {
                g.append(use_(&ids::border(tile.tribe, side)));
            }
        }
    }
    if tile.road {
        g.append(use_(ids::ROAD));
    }
    match tile.terrain {
        Terrain::Village => g.append(use_(ids::VILLAGE)),
        Terrain::City => {
            if let Some(c) = s.cities.iter().find(|c| c.tile as usize == t) {
                let capital = c.capital_of == c.tribe;
                g.append(use_(&ids::city(owner_index(c.tribe), c.walls, capital)));
                g.append(city_level(c.level));
            }
        }
        _ => {}
    }
    if let Some(r) = tile.resource {
        g.append(use_(&ids::resource(r.index())));
    }
    if let Some(b) = tile.building {
        g.append(use_(&ids::building(b.index())));
    }
    if tile.unit != NONE {
        let u = &s.units[tile.unit as usize];
        g.append(use_(&ids::unit(u.kind.index(), u.tribe)));
        if u.hp < u.max_hp {
            g.append(health(u.hp, u.max_hp));
        }
    }
    g.to_string()
}

/// One status line per tribe under the board: its colour, name, stars, score, techs, cities
/// and units, and a marker for the tribe to move.
fn status_part(s: &State, tribe: u8, top: f64) -> String {
    let ts = &s.tribes[tribe as usize];
    let y = top + STATUS * (f64::from(tribe) + 0.5);
    let text = format!(
        "{}{}  stars {}  score {}  techs {}  cities {}  units {}",
        ts.kind.title(),
        if s.active == tribe && !s.over {
            " (to move)"
        } else {
            ""
        },
        ts.stars,
        ts.score,
        ts.techs.len(),
        s.num_cities(tribe),
        s.num_units(tribe)
    );
    Group::new()
        .add(
            Circle::new()
                .set("cx", 8)
                .set("cy", y)
                .set("r", 5)
                .set("fill", tribe_colour(tribe)),
        )
        .add(
            Text::new(text)
                .set("x", 18)
                .set("y", y + 4.0)
                .set("font-size", 12)
                .set("font-family", "sans-serif"),
        )
        .to_string()
}

/// `s` drawn: one part per tile, then one per tribe's status line.
pub fn draw(s: &State) -> Drawing {
    let n = s.n();
    let side = n as f64 * TILE;
    let mut parts: Vec<String> = (0..n * n).map(|t| tile_part(s, t)).collect();
    let top = side + 6.0;
    parts.extend((0..s.num_tribes).map(|p| status_part(s, p, top)));
    Drawing {
        width: side.max(360.0),
        height: top + STATUS * f64::from(s.num_tribes) + 4.0,
        parts,
    }
}

/// A legend symbol: `node` drawn in a tile scaled into the legend's 32 × 32 box.
fn symbol(node: impl Into<Box<dyn Node>>, background: Option<Terrain>) -> String {
    let mut g = Group::new().set("transform", format!("scale({})", 32.0 / TILE));
    if let Some(t) = background {
        g.append(terrain(t));
    }
    g.append(node);
    g.to_string()
}

/// Every symbol [`draw`] uses: terrains, territory, roads, villages and cities, resources,
/// buildings and units.
pub fn legend() -> Vec<LegendEntry> {
    let entry = |symbol: String, label: String| LegendEntry { symbol, label };
    let mut out = Vec::new();
    for &t in Terrain::ALL {
        if matches!(t, Terrain::Village | Terrain::City) {
            continue;
        }
        out.push(entry(symbol(terrain(t), None), t.name().replace('_', " ")));
    }
    out.push(entry(
        symbol(
            Group::new()
                .add(territory(0))
                .add(border(0, 0))
                .add(border(0, 2)),
            Some(Terrain::Plain),
        ),
        "territory (tribe colour), border".into(),
    ));
    out.push(entry(symbol(road(), Some(Terrain::Plain)), "road".into()));
    out.push(entry(
        symbol(village(), Some(Terrain::Plain)),
        "village".into(),
    ));
    out.push(entry(
        symbol(
            Group::new().add(city(0, false, true)).add(city_level(2)),
            Some(Terrain::Plain),
        ),
        "city with its level (gold edge: capital, thick: walls)".into(),
    ));
    for &r in Resource::ALL {
        out.push(entry(
            symbol(resource(r), Some(Terrain::Plain)),
            r.name().into(),
        ));
    }
    out.push(entry(
        symbol(
            Group::new()
                .add(unit(0, UnitKind::Warrior))
                .add(health(4, 10)),
            Some(Terrain::Plain),
        ),
        "a wounded unit: its health as a bar".into(),
    ));
    let mut seen = Vec::new();
    for &b in Building::ALL {
        let c = building_char(b);
        if seen.contains(&c) {
            continue;
        }
        seen.push(c);
        let name = match c {
            'T' => "temple (any kind)".to_string(),
            'M' => "monument (any kind)".to_string(),
            _ => b.name().replace('_', " "),
        };
        out.push(entry(symbol(building(b), Some(Terrain::Plain)), name));
    }
    for &k in UnitKind::ALL {
        out.push(entry(
            symbol(unit(1, k), Some(Terrain::Plain)),
            k.name().replace('_', " "),
        ));
    }
    out
}

/// Tile `t` as "(row, column)".
fn at(s: &State, t: usize) -> String {
    let (x, y) = s.xy(t);
    format!("({x}, {y})")
}

/// `a`, taken in `s`, in words: who acts, what it does and where.
pub fn describe(s: &State, a: Action) -> String {
    let actor = a.actor as usize;
    let target = a.target as usize;
    let what = a.kind.name().replace('_', " ");
    match a.kind.scope() {
        Scope::Unit => {
            let who = s.units.get(actor).map_or_else(
                || format!("unit {actor}"),
                |u| {
                    format!(
                        "{} {}",
                        u.kind.name().replace('_', " "),
                        at(s, u.pos as usize)
                    )
                },
            );
            match a.kind {
                K::Move | K::Attack | K::Convert => format!("{who}: {what} {}", at(s, target)),
                _ => format!("{who}: {what}"),
            }
        }
        Scope::City => {
            let who = s.cities.get(actor).map_or_else(
                || format!("city {actor}"),
                |c| format!("city {}", at(s, c.tile as usize)),
            );
            let arg = |name: Option<&str>| name.unwrap_or("?").replace('_', " ");
            match a.kind {
                K::Build => format!(
                    "{who}: build {} at {}",
                    arg(Building::from_index(a.arg.into()).map(Building::name)),
                    at(s, target)
                ),
                K::Spawn => format!(
                    "{who}: spawn {}",
                    arg(UnitKind::from_index(a.arg.into()).map(UnitKind::name))
                ),
                K::LevelUp => format!(
                    "{who}: level up, {}",
                    arg(LevelUpBonus::from_index(a.arg.into()).map(LevelUpBonus::name))
                ),
                _ => format!("{who}: {what} at {}", at(s, target)),
            }
        }
        Scope::Tribe => match a.kind {
            K::ResearchTech => format!(
                "research {}",
                Tech::from_index(a.arg.into()).map_or("?", Tech::name)
            ),
            K::BuildRoad => format!("road at {}", at(s, target)),
            _ => what,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::tribes::{TribesGame, builtin};

    #[test]
    fn a_state_is_drawn_one_part_per_tile_then_one_per_tribe() {
        let (_, level) = builtin::all().into_iter().next().unwrap();
        let game = TribesGame::default();
        let s = game.new_initial_state(&level, 1);
        let d = draw(&s);
        assert_eq!(d.parts.len(), s.n() * s.n() + s.num_tribes as usize);
        assert!(
            d.parts.iter().any(|p| p.contains("href=\"#tc")),
            "no city drawn"
        );
        assert!(
            d.parts.iter().any(|p| p.contains("href=\"#tu")),
            "no unit drawn"
        );
        // Every symbol a part refers to is defined.
        let defs = defs();
        for p in &d.parts {
            for id in p.split("href=\"#").skip(1) {
                let id = id.split('"').next().unwrap();
                assert!(
                    defs.contains(&format!("id=\"{id}\"")),
                    "{id} is not defined"
                );
            }
        }
        assert!(d.width >= s.n() as f64 * TILE && d.height > s.n() as f64 * TILE);
    }

    #[test]
    fn actions_are_described_by_actor_kind_and_place() {
        let (_, level) = builtin::all().into_iter().next().unwrap();
        let game = TribesGame::default();
        let s = game.new_initial_state(&level, 1);
        let mut legal = Vec::new();
        game.legal_actions(&s, &mut legal);
        let words: Vec<String> = legal.iter().map(|&a| describe(&s, a)).collect();
        assert!(words.iter().any(|w| w.contains(": move (")), "{words:?}");
        assert!(words.iter().any(|w| w == "end turn"), "{words:?}");
    }

    #[test]
    fn the_legend_names_every_terrain_resource_and_unit_type() {
        let l = legend();
        for name in [
            "forest",
            "deep water",
            "ruins",
            "warrior",
            "village",
            "road",
        ] {
            assert!(l.iter().any(|e| e.label.starts_with(name)), "{name}");
        }
    }
}
