//! A Tribes level: the starting map (terrain, resources, capitals).

use std::path::Path;

use super::types::{Resource, Terrain, TribeKind};
use super::{builtin, levelgen};
use crate::files::{TEXT_LIMIT, read_text};
use crate::{Error, Result};

/// The starting situation of a Tribes game: a square map with one capital per tribe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Where it came from (a seed, a path), for messages.
    pub name: String,
    /// Side length of the square board.
    pub size: usize,
    /// Terrain per tile, row-major (`x * size + y`, x = row).
    pub terrain: Vec<Terrain>,
    /// Resource per tile, row-major.
    pub resource: Vec<Option<Resource>>,
    /// Capitals in row-major order of their tiles: (tile index, tribe).
    pub capitals: Vec<(usize, TribeKind)>,
}

/// Smallest board side [`Level::parse`] accepts.
pub const MIN_SIZE: usize = 3;
/// Largest board side [`Level::parse`] accepts.
pub const MAX_SIZE: usize = 32;

/// Longest piece of a faulty cell quoted in an error message, in characters.
const QUOTE_LIMIT: usize = 16;

impl Level {
    /// Parses a level in the text format of spec §2.2: one line per board row (x), cells separated
    /// by `,`, each cell `T:R` with `T` a terrain char and `R` an optional resource char (empty or
    /// blank means none). For a city `R` is the tribe key `0`–`3`, and the city is that tribe's
    /// capital. The board is square: it has as many rows as each row has cells, 3 to 32.
    ///
    /// Tolerated: `\r\n` line ends, trailing blank lines, a leading byte-order mark, blanks around
    /// `T` and `R`. Any resource is accepted on any terrain except a city, as the Java loader does
    /// (the Java generator itself writes whales and ruins on shallow water, see Appendix A); a
    /// level with a single capital is accepted. `origin` names the source in errors and becomes the
    /// level's `name`.
    ///
    /// # Errors
    ///
    /// [`Error::Level`] naming the 1-based line and cell at fault (0 when the fault concerns the
    /// whole level or line): an empty text, a blank line inside the board, a board side outside
    /// 3–32, a row with the wrong number of cells, a cell without `:`, an unknown terrain or
    /// resource char, a city without a tribe key 0–3, a tribe with two capitals, no capital.
    pub fn parse(text: &str, origin: &str) -> Result<Level> {
        let rows = split_rows(text);
        let fault = |line, cell, reason: String| Error::Level {
            origin: origin.to_string(),
            line,
            cell,
            reason,
        };
        let size = board_size(&rows).map_err(|(line, reason)| fault(line, 0, reason))?;
        let mut level = Level {
            name: origin.to_string(),
            size,
            terrain: Vec::with_capacity(size * size),
            resource: Vec::with_capacity(size * size),
            capitals: Vec::new(),
        };
        let mut first_capital: [Option<(usize, usize)>; 4] = [None; 4];
        for (x, row) in rows.iter().enumerate() {
            let line = x + 1;
            check_row_width(row, line, size).map_err(|r| fault(line, 0, r))?;
            for (y, text) in row.split(',').enumerate() {
                let cell = y + 1;
                let parsed = parse_cell(text).map_err(|r| fault(line, cell, r))?;
                if let Some(tribe) = parsed.tribe {
                    let first = &mut first_capital[tribe.index()];
                    if let Some((l, c)) = *first {
                        let reason = format!(
                            "second capital of tribe {tribe} (its first is at line {l}, cell {c})"
                        );
                        return Err(fault(line, cell, reason));
                    }
                    *first = Some((line, cell));
                    level.capitals.push((x * size + y, tribe));
                }
                level.terrain.push(parsed.terrain);
                level.resource.push(parsed.resource);
            }
        }
        if level.capitals.is_empty() {
            return Err(fault(
                0,
                0,
                "no capital: a level needs at least one city cell `c:<tribe key 0-3>`".into(),
            ));
        }
        Ok(level)
    }

    /// Writes the level in the format [`Level::parse`] reads (one `\n`-terminated line per row),
    /// so that parsing the text gives back this level (except its `name`).
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.size * self.size * 4);
        for x in 0..self.size {
            for y in 0..self.size {
                if y > 0 {
                    out.push(',');
                }
                let i = x * self.size + y;
                out.push(self.terrain[i].to_char());
                out.push(':');
                if let Some(c) = self.cell_mark(i) {
                    out.push(c);
                }
            }
            out.push('\n');
        }
        out
    }

    /// A fixed-width text map for people (`playstyles levels show`): a title line, a header of
    /// column numbers, then one line per row with its number and three characters per cell (the
    /// terrain char, then the resource char or, on a city, the tribe key), and a legend at the end.
    pub fn render(&self) -> String {
        let capitals: Vec<String> = self
            .capitals
            .iter()
            .map(|&(i, tribe)| {
                let (x, y) = (i / self.size, i % self.size);
                format!("{} {} at ({x}, {y})", tribe.index(), tribe.title())
            })
            .collect();
        let n = self.size;
        let mut out = format!(
            "{} ({n}x{n}), capitals: {}\n   ",
            self.name,
            capitals.join("; ")
        );
        for y in 0..self.size {
            out.push_str(&format!("{y:<3}"));
        }
        trim_line_end(&mut out);
        for x in 0..self.size {
            out.push_str(&format!("\n{x:>2} "));
            for y in 0..self.size {
                let i = x * self.size + y;
                out.push(self.terrain[i].to_char());
                out.push(self.cell_mark(i).unwrap_or(' '));
                out.push(' ');
            }
            trim_line_end(&mut out);
        }
        out.push('\n');
        out.push_str(&legend());
        out
    }

    /// The tribes of the level, in the row-major order of their capitals (the turn order).
    pub fn tribes(&self) -> Vec<TribeKind> {
        self.capitals.iter().map(|&(_, tribe)| tribe).collect()
    }

    /// Loads a level from a command-line spec: a number is a level seed (the built-in experiment
    /// level for that seed if there is one, otherwise the generator's level for Xin-Xi and
    /// Imperius); anything else is a file path (write `./123` for a file named `123`).
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the file cannot be read or is larger than [`TEXT_LIMIT`], [`Error::Data`]
    /// if it is not UTF-8;
    /// [`Error::Level`] with the path as origin if it does not parse.
    pub fn load(spec: &str) -> Result<Level> {
        if let Ok(seed) = spec.parse::<u64>() {
            return Ok(builtin::level(seed).unwrap_or_else(|| {
                levelgen::generate(seed, &[TribeKind::XinXi, TribeKind::Imperius])
            }));
        }
        let text = read_text(Path::new(spec), TEXT_LIMIT)?;
        Level::parse(&text, spec)
    }

    /// The second char of a cell in the text format: the tribe key on a capital, the resource
    /// char elsewhere.
    fn cell_mark(&self, i: usize) -> Option<char> {
        if self.terrain[i] == Terrain::City {
            let tribe = self.capitals.iter().find(|&&(t, _)| t == i)?.1;
            char::from_digit(tribe.index() as u32, 10)
        } else {
            self.resource[i].map(Resource::to_char)
        }
    }
}

/// The rows of a level text: split at `\n`, one `\r` dropped from each line end, a leading
/// byte-order mark dropped, trailing blank lines dropped.
fn split_rows(text: &str) -> Vec<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    while rows.last().is_some_and(|l| l.trim().is_empty()) {
        rows.pop();
    }
    rows
}

/// The board side given by `rows`, or the 1-based line (0: whole level) and reason of the fault:
/// no rows, a blank row, a side outside [`MIN_SIZE`]..=[`MAX_SIZE`].
fn board_size(rows: &[&str]) -> std::result::Result<usize, (usize, String)> {
    if rows.is_empty() {
        return Err((0, "empty level: no rows".into()));
    }
    if let Some(x) = rows.iter().position(|r| r.trim().is_empty()) {
        let reason = "blank line inside the board (one line per row, no gaps)";
        return Err((x + 1, reason.into()));
    }
    let size = rows.len();
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err((
            0,
            format!(
                "board has {size} rows; supported sizes are {MIN_SIZE} to {MAX_SIZE} \
             (one line per row, as many cells per row as rows)"
            ),
        ));
    }
    Ok(size)
}

/// Checks that row `line` has `size` cells.
fn check_row_width(row: &str, line: usize, size: usize) -> std::result::Result<(), String> {
    let cells = row.split(',').count();
    if cells == size {
        return Ok(());
    }
    let hint = if row.ends_with(',') {
        " (trailing comma?)"
    } else {
        ""
    };
    Err(format!(
        "row {line} has {cells} cells, expected {size}{hint}: the board is square, one row per line"
    ))
}

/// One cell of a level text, parsed.
struct Cell {
    terrain: Terrain,
    resource: Option<Resource>,
    tribe: Option<TribeKind>,
}

/// Parses one `T:R` cell; the error is the reason only (the caller adds line and cell).
fn parse_cell(text: &str) -> std::result::Result<Cell, String> {
    let Some((t, r)) = text.split_once(':') else {
        return Err(format!(
            "cell {} has no `:` (expected `T:R`, e.g. `.:f`, `d:` or `c:0`)",
            quote(text)
        ));
    };
    let terrain = parse_terrain(t.trim())?;
    let mark = single_char(r.trim(), "resource")?;
    if terrain == Terrain::City {
        let tribe = parse_tribe_key(mark)?;
        return Ok(Cell {
            terrain,
            resource: None,
            tribe: Some(tribe),
        });
    }
    let resource = match mark {
        None => None,
        Some(c) => Some(Resource::from_char(c).ok_or_else(|| {
            format!(
                "unknown resource character {c:?} (expected one of {}, or nothing)",
                char_list(Resource::ALL.iter().map(|r| r.to_char()))
            )
        })?),
    };
    Ok(Cell {
        terrain,
        resource,
        tribe: None,
    })
}

/// Parses the terrain part of a cell (already trimmed).
fn parse_terrain(t: &str) -> std::result::Result<Terrain, String> {
    let Some(c) = single_char(t, "terrain")? else {
        return Err("missing terrain character before `:`".into());
    };
    Terrain::from_char(c).ok_or_else(|| {
        format!(
            "unknown terrain character {c:?} (expected one of {})",
            char_list(Terrain::ALL.iter().map(|t| t.to_char()))
        )
    })
}

/// Parses the tribe key of a city cell.
fn parse_tribe_key(mark: Option<char>) -> std::result::Result<TribeKind, String> {
    let tribe = mark
        .and_then(|c| c.to_digit(10))
        .and_then(|d| TribeKind::from_index(d as usize));
    tribe.ok_or_else(|| {
        let found = mark.map_or("nothing".to_string(), |c| format!("{c:?}"));
        let keys: Vec<String> = TribeKind::ALL
            .iter()
            .map(|t| format!("{} {}", t.index(), t))
            .collect();
        format!(
            "a city needs its tribe key after `:` ({}), found {found}",
            keys.join(", ")
        )
    })
}

/// `None` for an empty string, the char for a one-char string, an error otherwise.
fn single_char(s: &str, what: &str) -> std::result::Result<Option<char>, String> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (None, _) => Ok(None),
        (Some(c), None) => Ok(Some(c)),
        _ => Err(format!("{what} {} must be a single character", quote(s))),
    }
}

/// A piece of input quoted for a message: escaped and cut to [`QUOTE_LIMIT`] chars.
fn quote(s: &str) -> String {
    let mut cut: String = s.chars().take(QUOTE_LIMIT).collect();
    if s.chars().nth(QUOTE_LIMIT).is_some() {
        cut.push('…');
    }
    format!("{cut:?}")
}

/// `a b c` from chars.
fn char_list(chars: impl Iterator<Item = char>) -> String {
    chars.map(String::from).collect::<Vec<_>>().join(" ")
}

/// Removes trailing spaces from the last line of `out`.
fn trim_line_end(out: &mut String) {
    out.truncate(out.trim_end_matches(' ').len());
}

/// The legend under [`Level::render`]'s map.
fn legend() -> String {
    let terrains: Vec<String> = Terrain::ALL
        .iter()
        .map(|t| format!("{} {}", t.to_char(), t))
        .collect();
    let resources: Vec<String> = Resource::ALL
        .iter()
        .map(|r| format!("{} {}", r.to_char(), r))
        .collect();
    let tribes: Vec<String> = TribeKind::ALL
        .iter()
        .map(|t| format!("{} {}", t.index(), t))
        .collect();
    format!(
        "terrain: {}\nresource (2nd char): {}\ntribe (2nd char of a city): {}\n",
        terrains.join(", "),
        resources.join(", "),
        tribes.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "d:,s:h,.:f\nv: ,c:1,f:a\nm:o,.:,c:0\n";

    /// The (line, cell, reason) of a level error.
    fn fault(text: &str) -> (usize, usize, String) {
        match Level::parse(text, "test") {
            Err(Error::Level {
                line, cell, reason, ..
            }) => (line, cell, reason),
            other => panic!("expected a level error, got {other:?}"),
        }
    }

    /// The (line, cell) of a level error.
    fn at(text: &str) -> (usize, usize) {
        let (line, cell, _) = fault(text);
        (line, cell)
    }

    #[test]
    fn parses_terrain_resources_and_capitals_in_row_major_order() {
        let level = Level::parse(SMALL, "small").unwrap();
        assert_eq!(level.size, 3);
        assert_eq!(level.name, "small");
        assert_eq!(level.terrain[1], Terrain::Shallow);
        assert_eq!(level.resource[1], Some(Resource::Fish));
        assert_eq!(level.terrain[3], Terrain::Village);
        assert_eq!(level.resource[3], None);
        assert_eq!(level.resource[4], None);
        assert_eq!(
            level.capitals,
            [(4, TribeKind::Imperius), (8, TribeKind::XinXi)]
        );
        assert_eq!(level.tribes(), [TribeKind::Imperius, TribeKind::XinXi]);
    }

    #[test]
    fn tolerates_crlf_trailing_blank_lines_and_blanks_around_chars() {
        let crlf = SMALL.replace('\n', "\r\n") + "\r\n  \n\n";
        let spaced = SMALL.replace(",", " , ").replace("\n", " \n");
        let expected = Level::parse(SMALL, "x").unwrap();
        assert_eq!(Level::parse(&crlf, "x").unwrap(), expected);
        assert_eq!(Level::parse(&spaced, "x").unwrap(), expected);
        assert_eq!(Level::parse(SMALL.trim_end(), "x").unwrap(), expected);
    }

    #[test]
    fn accepts_any_resource_on_any_non_city_terrain() {
        let level = Level::parse("s:w,d:h,v:r\nm:f,c:2,.:o\nf:c,.:,.:\n", "odd").unwrap();
        assert_eq!(level.resource[0], Some(Resource::Whales));
        assert_eq!(level.resource[2], Some(Resource::Ruins));
        assert_eq!(level.tribes(), [TribeKind::Bardur]);
    }

    #[test]
    fn to_text_round_trips() {
        let level = Level::parse(SMALL, "small").unwrap();
        let text = level.to_text();
        assert_eq!(text, "d:,s:h,.:f\nv:,c:1,f:a\nm:o,.:,c:0\n");
        assert_eq!(Level::parse(&text, "small").unwrap(), level);
    }

    #[test]
    fn errors_name_line_and_cell() {
        assert_eq!(fault("").0, 0);
        assert_eq!(fault(" \n\n").0, 0);
        assert_eq!(fault("d:,c:0\nd:,d:\n").0, 0); // 2x2 is too small
        assert_eq!(at("d:,d:,d:\nd:,c:0\nd:,d:,d:\n"), (2, 0));
        assert_eq!(at("d:,d:,d:\nd:,c:0,d\nd:,d:,d:\n"), (2, 3));
        assert_eq!(at("d:,d:,d:\nd:,c:0,x:\nd:,d:,d:\n"), (2, 3));
        assert_eq!(at("d:,d:,d:\nd:,c:0,d:q\nd:,d:,d:\n"), (2, 3));
        assert_eq!(at("d:,d:,d:\nd:,c:,d:\nd:,d:,d:\n"), (2, 2));
        assert_eq!(at("d:,d:,d:\nd:,c:0,d:\nd:,c:0,d:\n"), (3, 2));
        assert_eq!(at("d:,d:,d:\nd:,d:,d:\nd:,d:,d:\n"), (0, 0));
        assert_eq!(at("d:,d:,d:\n\nd:,c:0,d:\n"), (2, 0));
    }

    #[test]
    fn messages_are_clear() {
        let (_, _, reason) = fault("d:,d:,d:\nd:,c:0\nd:,d:,d:\n");
        assert_eq!(
            reason,
            "row 2 has 2 cells, expected 3: the board is square, one row per line"
        );
        assert!(
            fault("d:,d:,d:\nd:,c:7,d:\nd:,d:,d:\n")
                .2
                .contains("found '7'")
        );
        assert!(fault("d:,d:,d:\nd:,c:0,x:\nd:,d:,d:\n").2.contains("'x'"));
        let e = Level::parse("", "maps/a.csv").unwrap_err().to_string();
        assert_eq!(e, "level maps/a.csv: empty level: no rows");
    }

    #[test]
    fn render_shows_every_cell_and_a_legend() {
        let level = Level::parse(SMALL, "small").unwrap();
        let map = level.render();
        let lines: Vec<&str> = map.lines().collect();
        assert_eq!(
            lines[0],
            "small (3x3), capitals: 1 Imperius at (1, 1); 0 Xin-Xi at (2, 2)"
        );
        assert_eq!(lines[1], "   0  1  2");
        assert_eq!(lines[2], " 0 d  sh .f");
        assert_eq!(lines[3], " 1 v  c1 fa");
        assert_eq!(lines[4], " 2 mo .  c0");
        assert!(lines[5].starts_with("terrain: . plain"));
        assert!(map.contains("h fish"));
    }

    #[test]
    fn load_reads_seeds_and_files() {
        let builtin = Level::load("1590557911279").unwrap();
        assert_eq!(builtin.name, "builtin:1590557911279");
        let generated = Level::load("7").unwrap();
        assert_eq!(generated.name, "generated:7");
        assert!(matches!(
            Level::load("/nonexistent/level.csv"),
            Err(Error::Io { .. })
        ));
        let path =
            std::env::temp_dir().join(format!("playstyles-level-{}.csv", std::process::id()));
        std::fs::write(&path, "d:,d:\n").unwrap();
        let spec = path.to_string_lossy().to_string();
        match Level::load(&spec) {
            Err(Error::Level { origin, .. }) => assert_eq!(origin, spec),
            other => panic!("{other:?}"),
        }
        std::fs::remove_file(&path).unwrap();
    }
}
