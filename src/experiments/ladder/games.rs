//! `ladder_games.csv`: every game a ladder played, the ladder's checkpoint, each row bound to
//! the ladder's config by its [`fingerprint`](super::fingerprint).

use std::collections::BTreeMap;
use std::path::Path;

use super::CONFIG_HASH;
use super::folder::{check_hash, read_bound};
use super::spec::LadderSpec;
use crate::error::{Error, Result};
use crate::report::csv::{CsvTable, record_error};
use crate::rng::derive_seed;

/// File name of a ladder's games.
pub const LADDER_GAMES_CSV: &str = "ladder_games.csv";

/// The columns of [`LADDER_GAMES_CSV`] but the last, [`CONFIG_HASH`] (a table written before
/// the fingerprint existed has these alone).
pub const COLUMNS: [&str; 9] = [
    "round", "agent_a", "agent_b", "game", "level", "seed", "seats_a", "score_a", "rounds",
];

/// Which game of which pair: agents `a < b` (indices in the config) and the pair's game `k`.
pub type GameKey = (usize, usize, usize);

/// One game of a ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderGame {
    /// The round that scheduled it (0: the opening round robin).
    pub round: usize,
    /// The level's name.
    pub level: String,
    /// The game's seed.
    pub seed: u64,
    /// The seats agent `a` played (the others were `b`'s).
    pub seats_a: Vec<usize>,
    /// What `a` scored against `b`: 1 if its best rank beat `b`'s, ½ if equal, else 0.
    pub score_a: f64,
    /// Rounds of play.
    pub rounds: u32,
}

/// The games of a ladder's file, with the line each was read from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SavedGames {
    /// The games.
    pub games: BTreeMap<GameKey, LadderGame>,
    /// The line of each game in the file.
    pub lines: BTreeMap<GameKey, usize>,
}

/// The level (among `levels`, by name) and seed of game `key` of a ladder seeded `seed`: game
/// `k` of a pair is on level `(k / 2) mod L` (two games a level, one in each seat order),
/// seeded by `derive_seed(seed, [a, b, k])`.
pub fn slot<S: AsRef<str>>(levels: &[S], seed: u64, (a, b, k): GameKey) -> (&str, u64) {
    (
        levels[(k / 2) % levels.len()].as_ref(),
        derive_seed(seed, &[a as u64, b as u64, k as u64]),
    )
}

/// The games file of `games` (keyed by [`GameKey`]), agents named by `names`, in key order
/// within each round, every row carrying `fingerprint`.
pub fn table(
    games: &BTreeMap<GameKey, LadderGame>,
    names: &[String],
    fingerprint: &str,
) -> CsvTable {
    let mut header: Vec<String> = COLUMNS.map(String::from).to_vec();
    header.push(CONFIG_HASH.to_string());
    let mut t = CsvTable::new(header);
    let mut rows: Vec<(&GameKey, &LadderGame)> = games.iter().collect();
    rows.sort_by_key(|(k, g)| (g.round, **k));
    for (&(a, b, k), g) in rows {
        t.rows.push(vec![
            g.round.to_string(),
            names[a].clone(),
            names[b].clone(),
            k.to_string(),
            g.level.clone(),
            g.seed.to_string(),
            g.seats_a
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            g.score_a.to_string(),
            g.rounds.to_string(),
            fingerprint.to_string(),
        ]);
    }
    t
}

/// Reads the games of `path`, played by the ladder `spec` on the levels named `levels`, as
/// [`write()`] wrote them: rows by round, then pair and game; agents of the ladder, `agent_a`
/// before `agent_b` in its order; each game on its level with its seed ([`slot`]); seats
/// given in increasing order; a score of 0, 0.5 or 1; and, where the file has the column, the
/// ladder's `fingerprint`.
///
/// # Errors
///
/// [`Error::Data`] naming the file and line of the first row that is not so, or the file for
/// a header of other columns; [`Error::Io`] if it cannot be read.
pub fn read(
    path: &Path,
    spec: &LadderSpec,
    levels: &[String],
    fingerprint: &str,
) -> Result<SavedGames> {
    let names: Vec<&str> = spec.agents.iter().map(|a| a.name.as_str()).collect();
    let (mut r, bound) = read_bound(path, &COLUMNS)?;
    let mut saved = SavedGames::default();
    let mut last: Option<(usize, GameKey)> = None;
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| record_error(path, line, &e))?;
        if bound {
            check_hash(path, line, &rec[COLUMNS.len()], fingerprint)?;
        }
        let bad = |col: &str, why: &str| Error::data(path, line, format!("column `{col}`: {why}"));
        let num = |col: usize| -> Result<u64> {
            rec[col].parse::<u64>().map_err(|_| {
                bad(
                    COLUMNS[col],
                    &format!("`{}` is not a whole number", &rec[col]),
                )
            })
        };
        let agent = |col: usize| -> Result<usize> {
            names.iter().position(|n| *n == &rec[col]).ok_or_else(|| {
                bad(
                    COLUMNS[col],
                    &format!("no agent `{}` in the ladder", &rec[col]),
                )
            })
        };
        let (a, b) = (agent(1)?, agent(2)?);
        if a >= b {
            return Err(bad(
                "agent_b",
                "must come after agent_a in the ladder's order",
            ));
        }
        let score_a: f64 = match &rec[7] {
            "0" => 0.0,
            "0.5" => 0.5,
            "1" => 1.0,
            s => return Err(bad("score_a", &format!("`{s}` is not 0, 0.5 or 1"))),
        };
        let seats_a = rec[6]
            .split(' ')
            .map(|s| {
                s.parse::<usize>()
                    .map_err(|_| bad("seats_a", "give seat numbers"))
            })
            .collect::<Result<Vec<_>>>()?;
        if !seats_a.windows(2).all(|w| w[0] < w[1]) {
            return Err(bad("seats_a", "give each seat once, in increasing order"));
        }
        let k = usize::try_from(num(3)?).map_err(|_| bad("game", "too large"))?;
        let key = (a, b, k);
        let round = usize::try_from(num(0)?).map_err(|_| bad("round", "too large"))?;
        let (level, seed) = slot(levels, spec.seed, key);
        if rec[4] != *level {
            return Err(bad(
                "level",
                &format!(
                    "`{}` is not the level the ladder plays game {k} of the pair on (`{level}`)",
                    &rec[4]
                ),
            ));
        }
        if num(5)? != seed {
            return Err(bad(
                "seed",
                &format!(
                    "`{}` is not the seed of game {k} of the pair ({seed})",
                    &rec[5]
                ),
            ));
        }
        if last.is_some_and(|l| l >= (round, key)) {
            return Err(bad(
                "round",
                "out of order or given twice: the ladder writes its games by round, then pair \
                 and game",
            ));
        }
        last = Some((round, key));
        saved.games.insert(
            key,
            LadderGame {
                round,
                level: level.to_string(),
                seed,
                seats_a,
                score_a,
                rounds: u32::try_from(num(8)?).map_err(|_| bad("rounds", "too large"))?,
            },
        );
        saved.lines.insert(key, line);
    }
    Ok(saved)
}

/// Writes `games` to `path` atomically, every row carrying `fingerprint`.
///
/// # Errors
///
/// [`Error::Io`] naming the file.
pub fn write(
    path: &Path,
    games: &BTreeMap<GameKey, LadderGame>,
    names: &[String],
    fingerprint: &str,
) -> Result<()> {
    table(games, names, fingerprint).write(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::ladder::LadderFile;

    /// A ladder of three agents on two levels.
    fn spec() -> LadderSpec {
        let text = "game = \"puerto-rico\"\nseed = 9\nlevels = [\"4p\", \"5p\"]\n\
                    [[agent]]\nname = \"x\"\nspec = \"random\"\n\
                    [[agent]]\nname = \"y\"\nspec = \"sa0\"\n\
                    [[agent]]\nname = \"z\"\nspec = \"random\"\n";
        LadderFile::parse(text)
            .and_then(LadderSpec::validate)
            .unwrap()
    }

    #[test]
    fn games_read_back_as_written_and_a_row_not_as_written_is_named() {
        let spec = spec();
        let names: Vec<String> = spec.agents.iter().map(|a| a.name.clone()).collect();
        let levels = ["4p", "5p"].map(String::from);
        let mut games = BTreeMap::new();
        for (key, round, score) in [
            ((0, 2, 2), 1, 0.5),
            ((0, 1, 0), 0, 1.0),
            ((1, 2, 0), 0, 0.0),
        ] {
            let (level, seed) = slot(&levels, spec.seed, key);
            games.insert(
                key,
                LadderGame {
                    round,
                    level: level.to_string(),
                    seed,
                    seats_a: vec![0, 2],
                    score_a: score,
                    rounds: 31,
                },
            );
        }
        let dir = std::env::temp_dir().join(format!("ladder-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(LADDER_GAMES_CSV);
        write(&path, &games, &names, "00000000000000aa").unwrap();
        let read_back = read(&path, &spec, &levels, "00000000000000aa").unwrap();
        assert_eq!(read_back.games, games);
        assert_eq!(read_back.lines[&(0, 2, 2)], 4);
        let e = read(&path, &spec, &levels, "00000000000000bb")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains(CONFIG_HASH), "{e}");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let swapped = [lines[0], lines[2], lines[1], lines[3]].join("\n") + "\n";
        for (damaged, col) in [
            (text.replacen(",0.5,", ",0.7,", 1), "score_a"),
            (text.replacen("x,z", "z,x", 1), "agent_b"),
            (text.replacen("x,z", "x,w", 1), "agent_b"),
            (text.replacen(",5p,", ",4p,", 1), "level"),
            (text.replacen(",0 2,", ",2 0,", 1), "seats_a"),
            (swapped, "round"),
        ] {
            std::fs::write(&path, &damaged).unwrap();
            let e = read(&path, &spec, &levels, "00000000000000aa")
                .unwrap_err()
                .to_string();
            assert!(e.contains(col) && e.contains("line"), "{col}: {e}");
        }
        let seed = games[&(0, 1, 0)].seed.to_string();
        std::fs::write(&path, text.replacen(&seed, "17", 1)).unwrap();
        let e = read(&path, &spec, &levels, "00000000000000aa")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`seed`") && e.contains("line 2"), "{e}");
        // A table written before the fingerprint: read as it is.
        let old: String = text
            .lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
            .collect();
        std::fs::write(&path, old).unwrap();
        assert_eq!(
            read(&path, &spec, &levels, "00000000000000aa")
                .unwrap()
                .games,
            games
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
