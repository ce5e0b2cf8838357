//! The 25 experiment levels (spec §2.3, Appendix A): the exact 11×11 maps the Java level generator
//! makes for the tournament's level seeds with the tribes `[Xin-Xi, Imperius]`.
//!
//! They live in `levels.txt`: `#` comment lines, and per level a header line
//! `= seed <seed> first=<tribe that moves first>` followed by its rows in the format of
//! [`Level::parse`].

use std::sync::OnceLock;

use super::level::Level;
use super::types::TribeKind;
use crate::{Error, Result};

/// The text of the built-in levels.
const TEXT: &str = include_str!("levels.txt");

/// The tournament's level seeds, in the order of spec §2.3 and Appendix A.
pub const SEEDS: [u64; 25] = [
    1590191438878,
    1590791907337,
    1591330872230,
    1590557911279,
    1589827394219,
    1590597667781,
    1588955551452,
    1588591994323,
    1590218550448,
    1592282275322,
    1592432219672,
    1590938785410,
    1589359308213,
    1591528602817,
    1592393638354,
    1588485987095,
    1588564020405,
    1589717827778,
    1592435145738,
    1592040799152,
    1588965819946,
    1589014941900,
    1590182659177,
    1590912178111,
    1588407146837,
];

/// One built-in level with its annotations.
struct Builtin {
    seed: u64,
    first: TribeKind,
    level: Level,
}

/// The built-in levels, parsed once.
fn builtins() -> &'static [Builtin] {
    static LEVELS: OnceLock<Vec<Builtin>> = OnceLock::new();
    LEVELS.get_or_init(|| {
        parse_all(TEXT).unwrap_or_else(|e| panic!("built-in levels.txt is malformed: {e}"))
    })
}

/// The built-in level for `seed`, named `builtin:<seed>`, if `seed` is one of [`SEEDS`].
pub fn level(seed: u64) -> Option<Level> {
    find(seed).map(|b| b.level.clone())
}

/// Every built-in level with its seed, in the order of [`SEEDS`].
pub fn all() -> Vec<(u64, Level)> {
    builtins()
        .iter()
        .map(|b| (b.seed, b.level.clone()))
        .collect()
}

/// The tribe that moves first in the Java game on the built-in level for `seed` (the "first:"
/// annotation of Appendix A), if `seed` is one of [`SEEDS`].
pub fn java_first_tribe(seed: u64) -> Option<TribeKind> {
    find(seed).map(|b| b.first)
}

/// The built-in level for `seed`.
fn find(seed: u64) -> Option<&'static Builtin> {
    builtins().iter().find(|b| b.seed == seed)
}

/// Parses a levels file: headers `= seed <n> first=<tribe>`, each followed by a level's rows.
fn parse_all(text: &str) -> Result<Vec<Builtin>> {
    let mut out = Vec::new();
    let mut header: Option<(u64, TribeKind)> = None;
    let mut body = String::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('=') {
            flush(&mut out, header, &body)?;
            header = Some(parse_header(rest, i + 1)?);
            body.clear();
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(&mut out, header, &body)?;
    Ok(out)
}

/// Parses the level gathered under `header` (if any) and appends it to `out`.
fn flush(out: &mut Vec<Builtin>, header: Option<(u64, TribeKind)>, body: &str) -> Result<()> {
    if let Some((seed, first)) = header {
        let level = Level::parse(body, &format!("builtin:{seed}"))?;
        out.push(Builtin { seed, first, level });
    }
    Ok(())
}

/// Parses ` seed <n> first=<tribe>` (the text after `=`).
fn parse_header(rest: &str, line: usize) -> Result<(u64, TribeKind)> {
    let fault = |reason: &str| Error::Level {
        origin: "builtin levels.txt".into(),
        line,
        cell: 0,
        reason: reason.into(),
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    let ["seed", seed, first] = words.as_slice() else {
        return Err(fault("expected `= seed <n> first=<tribe>`"));
    };
    let seed = seed.parse().map_err(|_| fault("bad seed"))?;
    let first = first
        .strip_prefix("first=")
        .and_then(TribeKind::from_name)
        .ok_or_else(|| fault("bad `first=<tribe>`"))?;
    Ok((seed, first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_levels_file_holds_the_seeds_in_spec_order() {
        let seeds: Vec<u64> = all().iter().map(|&(s, _)| s).collect();
        assert_eq!(seeds, SEEDS);
    }

    #[test]
    fn every_builtin_is_11x11_with_one_xin_xi_and_one_imperius_capital() {
        for (seed, level) in all() {
            assert_eq!(level.size, 11, "{seed}");
            assert_eq!(level.terrain.len(), 121, "{seed}");
            let mut tribes = level.tribes();
            tribes.sort();
            assert_eq!(tribes, [TribeKind::XinXi, TribeKind::Imperius], "{seed}");
            assert_eq!(level.name, format!("builtin:{seed}"));
        }
    }

    #[test]
    fn the_first_capital_in_row_major_order_is_the_java_first_tribe() {
        for (seed, level) in all() {
            let first = level.capitals.iter().min_by_key(|c| c.0).map(|c| c.1);
            assert_eq!(first, java_first_tribe(seed), "{seed}");
            assert_eq!(level.tribes()[0], java_first_tribe(seed).unwrap(), "{seed}");
        }
    }

    #[test]
    fn unknown_seeds_have_no_builtin() {
        assert!(level(42).is_none());
        assert!(java_first_tribe(42).is_none());
        assert!(level(SEEDS[3]).is_some());
    }

    #[test]
    fn the_first_builtin_matches_appendix_a() {
        let level = level(1590191438878).unwrap();
        let first_row = level.to_text().lines().next().unwrap().to_string();
        assert_eq!(first_row, "d:,d:,d:,s:,f:a,f:,f:,.:,f:,.:c,.:r");
        assert_eq!(
            level.capitals,
            [(29, TribeKind::Imperius), (96, TribeKind::XinXi)]
        );
    }

    #[test]
    fn malformed_headers_are_errors() {
        assert!(parse_all("= seed x first=imperius\n").is_err());
        assert!(parse_all("= seed 1 first=nobody\n").is_err());
        assert!(parse_all("= 1 2\n").is_err());
    }
}
