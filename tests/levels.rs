//! Levels: malformed level texts give errors naming the line and cell, no text makes the parser
//! panic, the built-in levels round-trip, and the generator's levels are playable and
//! reproducible.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use playstyles::Error;
use playstyles::games::tribes::{Level, TribeKind, builtin, levelgen};
use playstyles::rng::derive_rng;
use rand::RngExt;

/// The built-in levels file, as shipped.
const LEVELS_TXT: &str = include_str!("../src/games/tribes/levels.txt");

/// A valid 3×3 level: Imperius capital at (1, 1), Xin-Xi at (2, 2).
const SMALL: &str = "d:,s:h,.:f\nv: ,c:1,f:a\nm:o,.:,c:0\n";

/// A valid 4×4 level used as a base for row-shape mistakes.
const FOUR: &str = ".:,.:,d:,d:\n.:,c:0,.:f,d:\nf:a,.:,c:2,s:h\nm:,m:o,s:,d:w\n";

/// The (line, cell, reason) of the level error `text` gives.
fn fault(text: &str) -> (usize, usize, String) {
    match Level::parse(text, "case") {
        Err(Error::Level {
            origin,
            line,
            cell,
            reason,
        }) => {
            assert_eq!(origin, "case");
            (line, cell, reason)
        }
        other => panic!("expected a level error for {text:?}, got {other:?}"),
    }
}

/// `SMALL` with the cell at 1-based (line, cell) replaced by `cell_text`.
fn small_with(line: usize, cell: usize, cell_text: &str) -> String {
    let mut rows: Vec<Vec<String>> = SMALL
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    rows[line - 1][cell - 1] = cell_text.to_string();
    let lines: Vec<String> = rows.iter().map(|r| r.join(",")).collect();
    lines.join("\n") + "\n"
}

/// A square all-deep level text of side `n` with a Xin-Xi capital in the middle.
fn square(n: usize) -> String {
    let mut rows = vec![vec!["d:"; n]; n];
    rows[n / 2][n / 2] = "c:0";
    rows.iter().map(|r| r.join(",") + "\n").collect()
}

#[test]
fn malformed_levels_name_the_faulty_cell() {
    let cases: &[(&str, usize, &str, &str)] = &[
        // (what, cell in row 2, cell text, expected words in the reason)
        ("missing colon", 3, "fa", "no `:`"),
        ("empty cell", 1, "", "no `:`"),
        ("unknown terrain", 3, "x:", "unknown terrain"),
        ("upper-case terrain", 3, "F:a", "unknown terrain"),
        ("fog terrain", 3, " :", "missing terrain"),
        ("missing terrain", 3, ":a", "missing terrain"),
        ("two-char terrain", 3, "ff:a", "single character"),
        ("unknown resource", 3, "f:z", "unknown resource"),
        ("digit resource off a city", 3, "f:1", "unknown resource"),
        ("two-char resource", 3, "f:aa", "single character"),
        ("double colon", 3, "f::", "unknown resource"),
        ("city without tribe", 2, "c:", "found nothing"),
        ("city with a blank tribe", 2, "c: ", "found nothing"),
        ("city with tribe key 7", 2, "c:7", "found '7'"),
        ("city with tribe key 4", 2, "c:4", "found '4'"),
        ("city with a letter", 2, "c:r", "found 'r'"),
        ("city with a non-ASCII digit", 2, "c:\u{663}", "tribe key"),
        ("non-ASCII terrain", 3, "é:", "unknown terrain"),
        ("non-ASCII resource", 3, ".:ñ", "unknown resource"),
        ("emoji cell", 3, "🙂", "no `:`"),
        ("emoji resource", 3, ".:🙂", "unknown resource"),
        ("NUL terrain", 3, "\0:", "unknown terrain"),
        ("control char resource", 3, ".:\u{7}", "unknown resource"),
    ];
    for &(what, cell, text, words) in cases {
        let (l, c, reason) = fault(&small_with(2, cell, text));
        assert_eq!((l, c), (2, cell), "{what}: {reason}");
        assert!(reason.contains(words), "{what}: {reason:?} lacks {words:?}");
    }
}

#[test]
fn malformed_levels_name_the_faulty_line() {
    let mut long_row = vec!["d:"; 100_000].join(",");
    long_row.push('\n');
    let long_row_level = FOUR.replacen(".:,.:,d:,d:\n", &long_row, 1);
    let long_cell = small_with(1, 2, &format!("s:{}", "h".repeat(100_000)));
    let cases: Vec<(&str, String, usize, usize, &str)> = vec![
        ("empty file", String::new(), 0, 0, "empty"),
        ("only whitespace", " \t \n  \n\n".into(), 0, 0, "empty"),
        ("only newlines", "\n\n\n\n".into(), 0, 0, "empty"),
        ("only a BOM", "\u{feff}".into(), 0, 0, "empty"),
        ("2x2 board", "d:,c:0\nd:,d:\n".into(), 0, 0, "3 to 32"),
        ("33x33 board", square(33), 0, 0, "3 to 32"),
        (
            "truncated row",
            FOUR.replacen(",s:h\n", "\n", 1),
            3,
            0,
            "row 3 has 3 cells, expected 4",
        ),
        (
            "extra cell",
            FOUR.replacen("d:w\n", "d:w,d:\n", 1),
            4,
            0,
            "row 4 has 5 cells",
        ),
        (
            "trailing comma",
            FOUR.replacen(".:,.:,d:,d:\n", ".:,.:,d:,d:,\n", 1),
            1,
            0,
            "trailing comma",
        ),
        (
            "missing last row",
            FOUR.lines().take(3).map(|l| format!("{l}\n")).collect(),
            1,
            0,
            "expected 3",
        ),
        (
            "non-square: more columns",
            FOUR.replace('\n', ",d:\n"),
            1,
            0,
            "5 cells, expected 4",
        ),
        (
            "blank line inside",
            FOUR.replacen("\n", "\n\n", 1),
            2,
            0,
            "blank line",
        ),
        (
            "leading blank line",
            format!("\n{FOUR}"),
            1,
            0,
            "blank line",
        ),
        ("tab separated", FOUR.replace(',', "\t"), 1, 0, "1 cells"),
        (
            "semicolon separated",
            FOUR.replace(',', ";"),
            1,
            0,
            "1 cells",
        ),
        (
            "old Mac line ends",
            SMALL.replace('\n', "\r"),
            0,
            0,
            "1 rows",
        ),
        ("very long row", long_row_level, 1, 0, "100000 cells"),
        (
            "no capital",
            SMALL.replace("c:1", ".:").replace("c:0", ".:"),
            0,
            0,
            "no capital",
        ),
        (
            "duplicate tribe",
            SMALL.replace("c:1", "c:0"),
            3,
            3,
            "second capital of tribe xin-xi (its first is at line 2, cell 2)",
        ),
    ];
    for (what, text, line, cell, words) in cases {
        let (l, c, reason) = fault(&text);
        assert_eq!((l, c), (line, cell), "{what}: {reason}");
        assert!(reason.contains(words), "{what}: {reason:?} lacks {words:?}");
    }
    let (l, c, reason) = fault(&long_cell);
    assert_eq!((l, c), (1, 2));
    assert!(reason.len() < 200, "long cells are quoted cut: {reason}");
}

#[test]
fn level_errors_read_well() {
    let e = Level::parse(&small_with(2, 2, "c:7"), "maps/duel.csv").unwrap_err();
    assert_eq!(
        e.to_string(),
        "level maps/duel.csv, line 2, cell 2: a city needs its tribe key after `:` \
         (0 xin-xi, 1 imperius, 2 bardur, 3 oumaji), found '7'"
    );
}

#[test]
fn tolerated_variations_parse_to_the_same_level() {
    let base = Level::parse(FOUR, "x").unwrap();
    let variants = [
        FOUR.replace('\n', "\r\n"),
        format!("{FOUR}\n\n  \n"),
        FOUR.trim_end().to_string(),
        format!("\u{feff}{FOUR}"),
        FOUR.replace(',', " , "),
        FOUR.replace(".:,", ".: ,"),
    ];
    for text in variants {
        assert_eq!(Level::parse(&text, "x").unwrap(), base, "{text:?}");
    }
    assert_eq!(Level::parse(&square(32), "x").unwrap().size, 32);
    assert_eq!(Level::parse(&square(3), "x").unwrap().size, 3);
}

/// Chars the fuzzer writes: format chars, valid and invalid cell chars, line ends, multi-byte.
const FUZZ_CHARS: &[char] = &[
    ',', ':', '\n', '\r', ' ', '\t', '.', 's', 'd', 'm', 'v', 'c', 'f', 'h', 'a', 'w', 'o', 'r',
    '0', '1', '2', '3', '7', 'x', 'Z', '\0', 'é', '🙂', '\u{feff}', '\u{663}',
];

/// `text` with one random edit: replace, insert or delete a char, drop or duplicate a line, or
/// cut the text short.
fn mutate(text: &str, rng: &mut playstyles::rng::Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = rng.random_range(0..chars.len());
    let c = FUZZ_CHARS[rng.random_range(0..FUZZ_CHARS.len())];
    match rng.random_range(0..6) {
        0 => chars[at] = c,
        1 => chars.insert(at, c),
        2 => {
            chars.remove(at);
        }
        3 => chars.truncate(at),
        _ => {
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.is_empty() {
                return String::new();
            }
            let k = rng.random_range(0..lines.len());
            if rng.random_bool(0.5) {
                lines.remove(k);
            } else {
                lines.insert(k, lines[k]);
            }
            return lines.join("\n");
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_levels_never_panic_the_parser() {
    let texts: Vec<String> = builtin::all().iter().map(|(_, l)| l.to_text()).collect();
    let mut rng = derive_rng(2024, &[0xF022]);
    let (mut ok, mut err) = (0, 0);
    for k in 0..4000 {
        let mut text = texts[k % texts.len()].clone();
        for _ in 0..rng.random_range(1..4) {
            text = mutate(&text, &mut rng);
            if text.is_empty() {
                break;
            }
        }
        let result = catch_unwind(AssertUnwindSafe(|| Level::parse(&text, "fuzz")));
        match result {
            Ok(Ok(level)) => {
                ok += 1;
                let again = Level::parse(&level.to_text(), "fuzz").unwrap();
                assert_eq!(again, level, "mutation {k} does not round-trip: {text:?}");
            }
            Ok(Err(Error::Level { line, .. })) => {
                err += 1;
                assert!(
                    line <= text.split('\n').count(),
                    "mutation {k}: line {line}"
                );
            }
            Ok(Err(e)) => panic!("mutation {k}: not a level error: {e}"),
            Err(_) => panic!("mutation {k} panics the parser: {text:?}"),
        }
    }
    assert!(ok > 100 && err > 1000, "ok {ok}, err {err}");
}

#[test]
fn builtin_levels_round_trip_through_text() {
    let mut originals = LEVELS_TXT.split("\n= seed ").skip(1);
    for (seed, level) in builtin::all() {
        let again = Level::parse(&level.to_text(), &level.name).unwrap();
        assert_eq!(again, level, "{seed}");
        let block = originals.next().unwrap();
        let rows: String = block
            .lines()
            .skip(1)
            .take(11)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(level.to_text(), rows.replace("v: ", "v:"), "{seed}");
    }
}

/// The tribe lists the generator is tested with.
fn tribe_lists() -> [Vec<TribeKind>; 3] {
    use TribeKind::*;
    [
        vec![XinXi, Imperius],
        vec![Bardur, XinXi, Imperius],
        vec![Oumaji, Imperius, Bardur, XinXi],
    ]
}

#[test]
fn generated_levels_are_playable() {
    for tribes in tribe_lists() {
        let size = [11, 14, 16][tribes.len() - 2];
        for seed in 0..500 {
            let level = levelgen::generate(seed, &tribes);
            assert_eq!(level.size, size);
            let faults = levelgen::playability_faults(&level, &tribes);
            assert!(faults.is_empty(), "seed {seed}, {tribes:?}: {faults:?}");
            let again = Level::parse(&level.to_text(), &level.name).unwrap();
            assert_eq!(again, level, "seed {seed}, {tribes:?}");
        }
    }
}

#[test]
fn generation_is_deterministic_and_varies_with_the_seed() {
    for tribes in tribe_lists() {
        let mut texts = HashSet::new();
        for seed in 0..500 {
            let level = levelgen::generate(seed, &tribes);
            assert_eq!(level, levelgen::generate(seed, &tribes), "seed {seed}");
            texts.insert(level.to_text());
        }
        assert!(texts.len() >= 495, "{} distinct of 500", texts.len());
    }
}

#[test]
fn load_prefers_builtin_levels_and_generates_the_others() {
    let seed = builtin::SEEDS[7];
    assert_eq!(
        Level::load(&seed.to_string()).unwrap(),
        builtin::level(seed).unwrap()
    );
    let generated = Level::load("12345").unwrap();
    assert_eq!(
        generated,
        levelgen::generate(12345, &[TribeKind::XinXi, TribeKind::Imperius])
    );
    assert!(matches!(
        Level::load("no/such/level.csv"),
        Err(Error::Io { .. })
    ));
}
