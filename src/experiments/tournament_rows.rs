//! The games a tournament has played so far, as [`GameRow`]s kept in file order (pairings as
//! configured, then game index): the source of `games.csv` and `summary.csv`, and, read back
//! from `games.csv` with every row checked against the series, the state `--resume` continues
//! from. Each pairing's outcome is a [`PairingResult`], one row of `summary.csv`
//! ([`summary_header`], [`summary_row`]).

use std::collections::BTreeMap;
use std::path::Path;

use super::games_csv::{GameRow, TableColumns, cell_error, games_header, num, read_games_csv};
use super::tournament_spec::Pairing;
use crate::arena::series::{Series, seat_of};
use crate::arena::summary::{
    PairingSummary, SideSummary, SummaryColumn, side_of, summarize, summarize_side,
};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::report::csv::CsvTable;

/// The name of the per-game results file.
pub const GAMES_CSV: &str = "games.csv";

/// The name of the per-pairing summary file.
pub const SUMMARY_CSV: &str = "summary.csv";

/// One pairing's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingResult {
    /// The pairing's name.
    pub name: String,
    /// Its agents' specs in canonical form.
    pub agents: Vec<String>,
    /// The summary from the first agent's point of view.
    pub summary: PairingSummary,
    /// The summary of the first agent's side: every participant with the same spec.
    pub side: SideSummary,
}

/// The rows of a tournament's games, by pairing and game index.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRows {
    /// Pairing names, in config order.
    names: Vec<String>,
    /// Each pairing's agent specs in canonical form.
    agents: Vec<Vec<String>>,
    /// Participant columns of `games.csv`: the most agents of any pairing.
    participants: usize,
    /// The game's statistic columns.
    columns: TableColumns,
    /// `rows[p][i]`: game `i` of pairing `p`, once played.
    rows: Vec<Vec<Option<GameRow>>>,
}

impl TournamentRows {
    /// No games yet of `pairings`, each a series of `games` games, with the game's `columns`.
    pub fn new(pairings: &[Pairing], games: usize, columns: TableColumns) -> Self {
        let agents: Vec<Vec<String>> = pairings.iter().map(Pairing::specs).collect();
        TournamentRows {
            names: pairings.iter().map(|p| p.name.clone()).collect(),
            participants: agents.iter().map(Vec::len).max().unwrap_or(0),
            agents,
            columns,
            rows: vec![vec![None; games]; pairings.len()],
        }
    }

    /// The rows of the `games.csv` at `path`, each checked against the tournament of
    /// `pairings` played as `series`.
    ///
    /// # Errors
    ///
    /// As [`read_games_csv`]; [`crate::Error::Data`] naming the file, the line and the column at
    /// fault for a file with another number of participant columns, a row of a pairing that is
    /// not configured, a game index outside the series, a game that appears twice, or a level,
    /// repetition, seed or seat other than the series gives that game.
    pub fn read<G: Game>(
        path: &Path,
        pairings: &[Pairing],
        series: &Series<G>,
        columns: TableColumns,
    ) -> Result<Self> {
        let mut t = TournamentRows::new(pairings, series.len(), columns);
        let file = read_games_csv(path, columns.stats)?;
        if file.participants != t.participants {
            return Err(Error::data(
                path,
                1,
                format!(
                    "columns for {} participants, but the pairings have up to {}",
                    file.participants, t.participants
                ),
            ));
        }
        let mut first_line: BTreeMap<(usize, usize), u64> = BTreeMap::new();
        for (line, row) in file.rows {
            let error = |column: &str, reason: String| cell_error(path, line, column, &reason);
            let Some(p) = t.names.iter().position(|n| *n == row.pairing) else {
                return Err(error(
                    "pairing",
                    format!("no pairing `{}` in the config", row.pairing),
                ));
            };
            let i = row.game;
            if i >= series.len() {
                return Err(error(
                    "game",
                    format!("game {i}, but a series has {} games", series.len()),
                ));
            }
            if let Some(first) = first_line.insert((p, i), line) {
                return Err(error(
                    "game",
                    format!(
                        "game {i} of pairing `{}` appears again (first on line {first})",
                        row.pairing
                    ),
                ));
            }
            let (level, repetition) = series.slot(i);
            let level = series
                .levels
                .get(level)
                .map_or("", |(name, _)| name.as_str());
            if row.level != level {
                return Err(error(
                    "level",
                    format!("`{}`, but game {i} is on level `{level}`", row.level),
                ));
            }
            if row.repetition != repetition {
                return Err(error(
                    "repetition",
                    format!(
                        "{}, but game {i} is repetition {repetition}",
                        row.repetition
                    ),
                ));
            }
            if row.seed != series.game_seed(i) {
                return Err(error(
                    "seed",
                    format!(
                        "{}, but game {i} has the seed {}",
                        row.seed,
                        series.game_seed(i)
                    ),
                ));
            }
            let n = t.agents[p].len();
            if row.seats.len() != n {
                return Err(error(
                    &format!("seat_{}", row.seats.len().min(n)),
                    format!(
                        "{} participants, but pairing `{}` has {n}",
                        row.seats.len(),
                        row.pairing
                    ),
                ));
            }
            if let Some(j) = (0..n).find(|&j| row.seats[j] != seat_of(i, j, n)) {
                return Err(error(
                    &format!("seat_{j}"),
                    format!(
                        "seat {}, but participant {j} sits in seat {} in game {i}",
                        row.seats[j],
                        seat_of(i, j, n)
                    ),
                ));
            }
            t.rows[p][i] = Some(row);
        }
        Ok(t)
    }

    /// Records game `row.game` of pairing `pairing` (the index in config order).
    ///
    /// # Panics
    ///
    /// If there is no such pairing or game (a bug of the caller).
    pub fn insert(&mut self, pairing: usize, row: GameRow) {
        let i = row.game;
        self.rows[pairing][i] = Some(row);
    }

    /// The games of pairing `pairing` not played yet, in index order (none for an unknown
    /// pairing).
    pub fn missing(&self, pairing: usize) -> Vec<usize> {
        self.rows.get(pairing).map_or_else(Vec::new, |games| {
            (0..games.len()).filter(|&i| games[i].is_none()).collect()
        })
    }

    /// Games played, over all pairings.
    pub fn done(&self) -> usize {
        self.rows.iter().flatten().flatten().count()
    }

    /// Games in the whole tournament, played or not.
    pub fn total(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }

    /// The summary of every pairing with at least one game, from its first participant's point
    /// of view and its side's ([`side_of`]), in config order, with the game's summary columns
    /// ([`summarize`], [`summarize_side`]).
    pub fn results(&self) -> Vec<PairingResult> {
        (0..self.names.len())
            .filter_map(|p| {
                let games: Vec<&GameRow> = self.rows[p].iter().flatten().collect();
                let agents = &self.agents[p];
                (!games.is_empty()).then(|| PairingResult {
                    name: self.names[p].clone(),
                    agents: agents.clone(),
                    summary: summarize(&games, 0, self.columns.stats, self.columns.summary),
                    side: summarize_side(&games, &side_of(agents), agents.len()),
                })
            })
            .collect()
    }

    /// `games.csv`: every game played, in file order.
    pub fn games_table(&self) -> CsvTable {
        let mut t = CsvTable::new(games_header(self.participants, self.columns.stats));
        t.rows = self
            .rows
            .iter()
            .flatten()
            .flatten()
            .map(|r| r.to_cells(self.participants, self.columns.stats.len()))
            .collect();
        t
    }

    /// `summary.csv`: one row per pairing of [`TournamentRows::results`].
    pub fn summary_table(&self) -> CsvTable {
        let mut t = CsvTable::new(summary_header(self.columns.summary));
        t.rows = self.results().iter().map(summary_row).collect();
        t
    }

    /// Writes [`GAMES_CSV`], then [`SUMMARY_CSV`], into `dir`, each atomically. Not safe to
    /// call from two threads at once (the temporary files are per process).
    ///
    /// # Errors
    ///
    /// [`crate::Error::Io`] naming the file that cannot be written.
    pub fn write(&self, dir: &Path) -> Result<()> {
        self.games_table().write(&dir.join(GAMES_CSV))?;
        self.summary_table().write(&dir.join(SUMMARY_CSV))
    }

    /// As [`TournamentRows::write`], but a file that holds these very bytes already is not
    /// written again.
    ///
    /// # Errors
    ///
    /// As [`TournamentRows::write`].
    pub fn write_if_changed(&self, dir: &Path) -> Result<()> {
        self.games_table().write_if_changed(&dir.join(GAMES_CSV))?;
        self.summary_table()
            .write_if_changed(&dir.join(SUMMARY_CSV))
    }
}

/// The columns of `summary.csv`: the generic ones, the game's statistic `columns`,
/// `mean_rank`, then the side's (after the others, so that files without them read as before).
pub fn summary_header(columns: &[SummaryColumn]) -> Vec<String> {
    let mut h: Vec<String> = [
        "pairing",
        "agent",
        "opponents",
        "games",
        "wins",
        "draws",
        "win_rate",
        "win_rate_lo",
        "win_rate_hi",
        "mean_score",
    ]
    .map(String::from)
    .to_vec();
    h.extend(columns.iter().map(|c| c.column.to_string()));
    h.push("mean_rank".into());
    h.extend(
        [
            "side_size",
            "participants",
            "side_wins",
            "side_win_rate",
            "side_win_rate_lo",
            "side_win_rate_hi",
        ]
        .map(String::from),
    );
    h
}

/// One row of `summary.csv` (see [`summary_header`]): `r.agents[0]` is the agent, the others
/// are joined with `;` as its opponents.
pub fn summary_row(r: &PairingResult) -> Vec<String> {
    let (s, agents) = (&r.summary, &r.agents);
    let opt = |x: Option<f64>| x.map_or_else(String::new, num);
    let mut row = vec![
        r.name.clone(),
        agents.first().cloned().unwrap_or_default(),
        agents.get(1..).unwrap_or_default().join(";"),
        s.games.to_string(),
        s.wins.to_string(),
        s.draws.to_string(),
        num(s.win_rate),
        num(s.win_rate_lo),
        num(s.win_rate_hi),
        opt(s.mean_score),
    ];
    row.extend(s.stats.iter().map(|&x| opt(x)));
    row.push(opt(s.mean_rank));
    let side = &r.side;
    row.extend([
        side.members.len().to_string(),
        side.participants.to_string(),
        side.wins.to_string(),
        num(side.win_rate),
        num(side.win_rate_lo),
        num(side.win_rate_hi),
    ]);
    row
}
