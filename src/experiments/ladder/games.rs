//! `ladder_games.csv`: every game a ladder played, the ladder's checkpoint.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::{Error, Result};
use crate::report::csv::{CsvTable, read_with_header, record_error};

/// File name of a ladder's games.
pub const LADDER_GAMES_CSV: &str = "ladder_games.csv";

/// The columns of [`LADDER_GAMES_CSV`].
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

/// The games file of `games` (keyed by [`GameKey`]), agents named by `names`, in key order
/// within each round.
pub fn table(games: &BTreeMap<GameKey, LadderGame>, names: &[String]) -> CsvTable {
    let mut t = CsvTable::new(COLUMNS.map(String::from).to_vec());
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
        ]);
    }
    t
}

/// Reads the games of `path`, agents named by `names`.
///
/// # Errors
///
/// [`Error::Data`] naming the file and line for a malformed row, an agent not of the ladder
/// (or `agent_a` not before `agent_b` in its order), a score other than 0, 0.5 or 1, or a game
/// given twice; as [`read_with_header`].
pub fn read(path: &Path, names: &[String]) -> Result<BTreeMap<GameKey, LadderGame>> {
    let mut r = read_with_header(path, &COLUMNS)?;
    let mut games = BTreeMap::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| record_error(path, line, &e))?;
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
            names.iter().position(|n| n == &rec[col]).ok_or_else(|| {
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
            .split_whitespace()
            .map(|s| {
                s.parse::<usize>()
                    .map_err(|_| bad("seats_a", "give seat numbers"))
            })
            .collect::<Result<Vec<_>>>()?;
        let key = (a, b, num(3)? as usize);
        let game = LadderGame {
            round: num(0)? as usize,
            level: rec[4].to_string(),
            seed: num(5)?,
            seats_a,
            score_a,
            rounds: u32::try_from(num(8)?).map_err(|_| bad("rounds", "too large"))?,
        };
        if games.insert(key, game).is_some() {
            return Err(bad("game", "this game of the pair is given twice"));
        }
    }
    Ok(games)
}

/// Writes `games` to `path` atomically.
///
/// # Errors
///
/// [`Error::Io`] naming the file.
pub fn write(path: &Path, games: &BTreeMap<GameKey, LadderGame>, names: &[String]) -> Result<()> {
    table(games, names).write(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_read_back_as_written() {
        let names: Vec<String> = ["x", "y", "z"].map(String::from).to_vec();
        let mut games = BTreeMap::new();
        for (key, round, score) in [
            ((0, 2, 1), 1, 0.5),
            ((0, 1, 0), 0, 1.0),
            ((1, 2, 0), 0, 0.0),
        ] {
            games.insert(
                key,
                LadderGame {
                    round,
                    level: "4p".into(),
                    seed: 7 + key.2 as u64,
                    seats_a: vec![0, 2],
                    score_a: score,
                    rounds: 31,
                },
            );
        }
        let dir = std::env::temp_dir().join(format!("ladder-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(LADDER_GAMES_CSV);
        write(&path, &games, &names).unwrap();
        assert_eq!(read(&path, &names).unwrap(), games);
        let text = std::fs::read_to_string(&path).unwrap();
        for (from, to, col) in [
            (",0.5,", ",0.7,", "score_a"),
            ("x,z", "z,x", "agent_b"),
            ("x,z", "x,w", "agent_b"),
        ] {
            std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
            let e = read(&path, &names).unwrap_err().to_string();
            assert!(e.contains(col) && e.contains("line"), "{from} -> {to}: {e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
