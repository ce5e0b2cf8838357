//! `games.csv` of a tournament: one typed [`GameRow`] per game, its cells, and the parser that
//! reads them back (for `--resume`).
//!
//! Columns, for up to `p` participants per game and the statistics `S` a game keeps
//! ([`crate::kit::GameKit::game_columns`]; [`games_header`]): `pairing`, `game` (index in the
//! series), `level`, `repetition`, `seed` (the game's seed), `seat_<j>` (the seat of
//! participant `j`), `winner` (the participant alone in first place, empty if nobody is),
//! `ticks` (rounds played), then per participant `j`: `score_<j>`, `<s>_<j>` for each `s` of
//! `S` (final statistics, empty if the game has none), `actions_<j>` (actions played, turn
//! ends included) and `rank_<j>` (1 = first, ties shared). The cells of participants a game
//! does not have are empty.
//!
//! Numbers are written in Rust's shortest round-trip form (`3`, `0.25`), so a row read back is
//! equal to the row written, and summaries of read rows equal those of fresh ones.

use std::path::Path;

use csv::StringRecord;

use crate::arena::series::SeriesGame;
use crate::arena::summary::{FinishedGame, SummaryColumn};
use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes};

/// The columns a game puts in a tournament's tables ([`crate::kit::GameKit::game_columns`],
/// [`crate::kit::GameKit::summary_columns`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableColumns {
    /// Final statistics `games.csv` keeps per participant, in column order: statistic `i` of
    /// [`GameRow`]'s [`FinishedGame::final_stat`] is `stats[i]`.
    pub stats: &'static [&'static str],
    /// The statistic columns of `summary.csv`.
    pub summary: &'static [SummaryColumn],
}

/// One game of a tournament as `games.csv` holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The pairing's name.
    pub pairing: String,
    /// Index of the game in the series.
    pub game: usize,
    /// The level's name.
    pub level: String,
    /// Repetition number on that level, from 0.
    pub repetition: u32,
    /// The game's seed.
    pub seed: u64,
    /// `seats[j]`: the seat participant `j` played (one entry per participant).
    pub seats: Vec<usize>,
    /// The participant alone in first place; `None` for a draw, a tie for first or a capped
    /// match.
    pub winner: Option<usize>,
    /// Rounds played.
    pub ticks: u32,
    /// Per participant, in participant order (as long as `seats`).
    pub participants: Vec<ParticipantRow>,
}

/// One participant's cells of a [`GameRow`].
#[derive(Clone, Debug, PartialEq)]
pub struct ParticipantRow {
    /// Final score.
    pub score: f64,
    /// Final statistics named by [`TableColumns::stats`]; `None` if the game does not report
    /// one.
    pub stats: Vec<Option<f64>>,
    /// Actions played, turn ends included.
    pub actions: u64,
    /// Rank (1 = first, ties shared).
    pub rank: u8,
}

/// A statistic `i` refers to [`TableColumns::stats`]`[i]`.
impl FinishedGame for GameRow {
    fn winner(&self) -> Option<usize> {
        self.winner
    }

    fn rank(&self, j: usize) -> u8 {
        self.participants[j].rank
    }

    fn score(&self, j: usize) -> f64 {
        self.participants[j].score
    }

    fn final_stat(&self, j: usize, i: usize) -> Option<f64> {
        self.participants[j].stats.get(i).copied().flatten()
    }
}

/// The columns of `games.csv` for up to `participants` participants per game, keeping the
/// final statistics `stats`.
pub fn games_header(participants: usize, stats: &[&str]) -> Vec<String> {
    let mut h: Vec<String> = ["pairing", "game", "level", "repetition", "seed"]
        .map(String::from)
        .to_vec();
    h.extend((0..participants).map(|j| format!("seat_{j}")));
    h.push("winner".into());
    h.push("ticks".into());
    let blocks = std::iter::once("score")
        .chain(stats.iter().copied())
        .chain(["actions", "rank"]);
    for col in blocks {
        h.extend((0..participants).map(|j| format!("{col}_{j}")));
    }
    h
}

impl GameRow {
    /// The row of game `g` of pairing `pairing`; `stat_names` names the game's statistics
    /// ([`crate::game::GameInfo::stats`]), of which those in `columns` are kept.
    pub fn of<A>(pairing: &str, g: &SeriesGame<A>, stat_names: &[&str], columns: &[&str]) -> Self {
        let index: Vec<Option<usize>> = columns
            .iter()
            .map(|name| stat_names.iter().position(|s| s == name))
            .collect();
        GameRow {
            pairing: pairing.to_string(),
            game: g.index,
            level: g.level.clone(),
            repetition: g.repetition,
            seed: g.record.seed,
            seats: g.seats.clone(),
            winner: g.winner,
            ticks: g.record.rounds,
            participants: (0..g.seats.len())
                .map(|j| ParticipantRow {
                    score: g.score(j),
                    stats: index
                        .iter()
                        .map(|i| i.and_then(|i| g.player(j).final_stat(i)))
                        .collect(),
                    actions: g.player(j).actions(),
                    rank: g.rank(j),
                })
                .collect(),
        }
    }

    /// The row's cells under [`games_header`]`(participants, stats)` with `stats` statistic
    /// columns; the cells of participants beyond the row's own are empty. `participants` must
    /// be at least the row's participants, or the row is longer than the header.
    pub fn to_cells(&self, participants: usize, stats: usize) -> Vec<String> {
        let each = |f: &dyn Fn(&ParticipantRow) -> String| -> Vec<String> {
            (0..participants)
                .map(|j| self.participants.get(j).map(f).unwrap_or_default())
                .collect()
        };
        let mut row = vec![
            self.pairing.clone(),
            self.game.to_string(),
            self.level.clone(),
            self.repetition.to_string(),
            self.seed.to_string(),
        ];
        row.extend(
            (0..participants).map(|j| self.seats.get(j).map(usize::to_string).unwrap_or_default()),
        );
        row.push(self.winner.map(|w| w.to_string()).unwrap_or_default());
        row.push(self.ticks.to_string());
        row.extend(each(&|p| num(p.score)));
        for i in 0..stats {
            row.extend(each(&|p| {
                p.stats
                    .get(i)
                    .copied()
                    .flatten()
                    .map(num)
                    .unwrap_or_default()
            }));
        }
        row.extend(each(&|p| p.actions.to_string()));
        row.extend(each(&|p| p.rank.to_string()));
        row
    }

    /// Parses the cells of one record of a `games.csv` with `participants` participant
    /// columns and the statistics `stats`, read from line `line` of `origin`.
    ///
    /// # Errors
    ///
    /// [`Error::Data`] naming `origin`, the line and the column at fault: a record of the wrong
    /// length, a cell that is not a number of the right kind, a score or statistic that is
    /// not finite, no seats, a seat after an empty
    /// one, a winner who is not a participant, a missing score, action count or rank, a
    /// rank of 0 or above the participants, a non-empty
    /// cell of a participant the game does not have.
    pub fn from_record(
        record: &StringRecord,
        participants: usize,
        stats: &[&str],
        origin: &Path,
        line: u64,
    ) -> Result<Self> {
        let header = games_header(participants, stats);
        if record.len() != header.len() {
            return Err(Error::data(
                origin,
                line as usize,
                format!(
                    "{} cells, but the header has {}",
                    record.len(),
                    header.len()
                ),
            ));
        }
        let cells = Cells {
            record,
            header: &header,
            origin,
            line,
        };
        let p = participants;
        let seats: Vec<usize> = (0..p)
            .map_while(|j| cells.optional(5 + j).transpose())
            .collect::<Result<_>>()?;
        let n = seats.len();
        if n == 0 {
            return Err(cells.error(5, "a game needs at least one participant"));
        }
        if let Some(c) = (5 + n..5 + p).find(|&c| !cells.text(c).is_empty()) {
            return Err(cells.error(c, "a seat after a participant without one"));
        }
        let winner: Option<usize> = cells.optional(5 + p)?;
        if winner.is_some_and(|w| w >= n) {
            return Err(cells.error(5 + p, format!("not one of the {n} participants")));
        }
        // Column of block `k` (0: score, 1..=s: the statistics, s + 1: actions, s + 2: rank)
        // of participant `j`.
        let s = stats.len();
        let col = |k: usize, j: usize| 7 + p + k * p + j;
        for j in n..p {
            if let Some(c) = (0..s + 3)
                .map(|k| col(k, j))
                .find(|&c| !cells.text(c).is_empty())
            {
                return Err(cells.error(c, format!("the game has no participant {j}")));
            }
        }
        let participants = (0..n)
            .map(|j| {
                let stats = (0..s)
                    .map(|i| cells.finite(col(1 + i, j)))
                    .collect::<Result<_>>()?;
                let rank: u8 = cells.required(col(s + 2, j))?;
                if rank == 0 || usize::from(rank) > n {
                    return Err(cells.error(col(s + 2, j), format!("not a rank among {n}")));
                }
                let score = cells
                    .finite(col(0, j))?
                    .ok_or_else(|| cells.error(col(0, j), "empty, but a number is needed"))?;
                Ok(ParticipantRow {
                    score,
                    stats,
                    actions: cells.required(col(s + 1, j))?,
                    rank,
                })
            })
            .collect::<Result<_>>()?;
        Ok(GameRow {
            pairing: cells.text(0).to_string(),
            game: cells.required(1)?,
            level: cells.text(2).to_string(),
            repetition: cells.required(3)?,
            seed: cells.required(4)?,
            seats,
            winner,
            ticks: cells.required(6 + p)?,
            participants,
        })
    }
}

/// The rows of a `games.csv` file, with the line each was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct GamesFile {
    /// Participant columns of the file (the `seat_<j>` columns).
    pub participants: usize,
    /// `(line, row)` in file order.
    pub rows: Vec<(u64, GameRow)>,
}

/// Reads the `games.csv` at `path`.
///
/// # Errors
///
/// [`Error::Io`] naming the file if it cannot be read or is larger than [`DATA_LIMIT`];
/// [`Error::Data`] naming it if its header is not a [`games_header`] with the statistics
/// `stats`, or a record does not parse (naming the line and column; see
/// [`GameRow::from_record`]).
pub fn read_games_csv(path: &Path, stats: &[&str]) -> Result<GamesFile> {
    let bytes = read_bytes(path, DATA_LIMIT)?;
    let mut r = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(bytes.as_slice());
    let header = r
        .headers()
        .map_err(|e| Error::data(path, 1, e.to_string()))?;
    let participants = header.iter().filter(|h| h.starts_with("seat_")).count();
    if header.iter().ne(games_header(participants, stats).iter()) {
        return Err(Error::data(
            path,
            1,
            format!(
                "not the header of games.csv; expected `{}`",
                games_header(participants, stats).join(",")
            ),
        ));
    }
    let mut rows = Vec::new();
    let mut record = StringRecord::new();
    loop {
        let line = r.position().line();
        match r.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                let line = record.position().map_or(line, |p| p.line());
                rows.push((
                    line,
                    GameRow::from_record(&record, participants, stats, path, line)?,
                ));
            }
            Err(e) => return Err(Error::data(path, line as usize, e.to_string())),
        }
    }
    Ok(GamesFile { participants, rows })
}

/// An error about column `column` (a name of [`games_header`]) of line `line` of `origin`.
pub(crate) fn cell_error(origin: &Path, line: u64, column: &str, reason: &str) -> Error {
    Error::data(
        origin,
        line as usize,
        format!("column `{column}`: {reason}"),
    )
}

/// A record under its header, with errors naming the file, line and column.
struct Cells<'a> {
    record: &'a StringRecord,
    header: &'a [String],
    origin: &'a Path,
    line: u64,
}

impl Cells<'_> {
    fn text(&self, c: usize) -> &str {
        self.record.get(c).unwrap_or("")
    }

    fn error(&self, c: usize, reason: impl AsRef<str>) -> Error {
        let column = self.header.get(c).map_or("?", String::as_str);
        cell_error(self.origin, self.line, column, reason.as_ref())
    }

    /// The number in cell `c`; `None` if the cell is empty.
    fn optional<T: std::str::FromStr>(&self, c: usize) -> Result<Option<T>> {
        let text = self.text(c);
        if text.is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(|_| {
            self.error(
                c,
                format!(
                    "`{text}` is not a number of the right kind ({})",
                    kind::<T>()
                ),
            )
        })
    }

    /// The number in cell `c`, which must not be empty.
    fn required<T: std::str::FromStr>(&self, c: usize) -> Result<T> {
        self.optional(c)?
            .ok_or_else(|| self.error(c, "empty, but a number is needed"))
    }

    /// The decimal number in cell `c`, which must be finite (no game scores NaN or infinity);
    /// `None` if the cell is empty.
    fn finite(&self, c: usize) -> Result<Option<f64>> {
        match self.optional::<f64>(c)? {
            Some(x) if !x.is_finite() => {
                Err(self.error(c, format!("`{}` is not a finite number", self.text(c))))
            }
            x => Ok(x),
        }
    }
}

/// A short name of the number type `T` for messages.
fn kind<T>() -> &'static str {
    match std::any::type_name::<T>() {
        "f64" => "a decimal number",
        _ => "a whole number",
    }
}

/// A number as written in the CSV files: Rust's shortest round-trip form (`3`, `0.25`).
pub(crate) fn num(x: f64) -> String {
    x.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> GameRow {
        GameRow {
            pairing: "a, \"quoted\" pairing".into(),
            game: 7,
            level: "maps/x.txt".into(),
            repetition: 3,
            seed: u64::MAX,
            seats: vec![1, 0],
            winner: None,
            ticks: 31,
            participants: vec![
                ParticipantRow {
                    score: 0.1 + 0.2,
                    stats: vec![Some(3.0), None, Some(-0.0), Some(1e300)],
                    actions: 12,
                    rank: 2,
                },
                ParticipantRow {
                    score: -2.5,
                    stats: vec![None; 4],
                    actions: 0,
                    rank: 1,
                },
            ],
        }
    }

    const STATS: [&str; 4] = ["techs", "cities", "production", "kills"];

    fn parse(cells: &[String], participants: usize) -> Result<GameRow> {
        GameRow::from_record(
            &StringRecord::from(cells.to_vec()),
            participants,
            &STATS,
            Path::new("games.csv"),
            4,
        )
    }

    #[test]
    fn cells_parse_back_to_the_same_row() {
        let mut r = row();
        for participants in [2, 3] {
            let cells = r.to_cells(participants, 4);
            assert_eq!(cells.len(), games_header(participants, &STATS).len());
            assert_eq!(parse(&cells, participants).unwrap(), r);
        }
        r.winner = Some(1);
        assert_eq!(parse(&r.to_cells(2, 4), 2).unwrap(), r);
        // Bit for bit, -0 included.
        let back = parse(&r.to_cells(2, 4), 2).unwrap();
        assert!(back.participants[0].stats[2].unwrap().is_sign_negative());
        assert_eq!(
            back.participants[0].score.to_bits(),
            (0.1f64 + 0.2).to_bits()
        );
    }

    #[test]
    fn bad_cells_name_the_file_line_and_column() {
        let cells = row().to_cells(3, 4);
        let header = games_header(3, &STATS);
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        // Cells changed (column, value), the column the error names, a part of its reason.
        type Case = (
            &'static [(&'static str, &'static str)],
            &'static str,
            &'static str,
        );
        let cases: [Case; 10] = [
            (&[("rank_0", "")], "rank_0", "empty"),
            (&[("rank_1", "3")], "rank_1", "not a rank among 2"),
            (&[("score_0", "x")], "score_0", "`x` is not a number"),
            (&[("seed", "-1")], "seed", "not a number"),
            (&[("game", "")], "game", "empty"),
            (&[("seat_0", "")], "seat_0", "at least one participant"),
            (&[("seat_1", ""), ("seat_2", "0")], "seat_2", "a seat after"),
            (
                &[("winner", "2")],
                "winner",
                "not one of the 2 participants",
            ),
            (&[("actions_2", "1")], "actions_2", "no participant 2"),
            (&[("actions_1", "1.5")], "actions_1", "not a number"),
        ];
        for (changes, column, reason) in cases {
            let mut bad = cells.clone();
            for (c, value) in changes {
                bad[at(c)] = value.to_string();
            }
            let e = parse(&bad, 3).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("games.csv: line 4: column `{column}`: "))
                    && e.contains(reason),
                "{changes:?}: {e}"
            );
        }
        let e = parse(&cells[1..], 3).unwrap_err().to_string();
        assert!(e.contains("line 4") && e.contains("cells"), "{e}");
    }
}
