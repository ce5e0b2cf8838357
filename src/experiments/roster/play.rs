//! The members' games: each member's training and test games, played in parallel and saved to
//! the roster's journal as each member finishes (see the [module docs](super)).

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::agent::SearchSupport;
use crate::error::{Error, Result};
use crate::experiments::evaluate::{GameResult, player_games};
use crate::experiments::journal::{Entry, Journal};
use crate::experiments::{output_error, thread_pool};
use crate::features::Feature;
use crate::report::progress::Progress;
use crate::rng::derive_seed;

/// Tag of the roster's seeds ("roster" in ASCII); see [`member_seed`].
pub const ROSTER_TAG: u64 = 0x0000_726f_7374_6572;

/// The series seed of the games of the member in `cell`: on the training levels (`split` 0)
/// or the test levels (`split` 1), `derive_seed(run seed, [ROSTER_TAG, cell, split])`.
pub fn member_seed(run_seed: u64, cell: usize, split: u64) -> u64 {
    derive_seed(run_seed, &[ROSTER_TAG, cell as u64, split])
}

/// One game of a member, as the roster keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The level's name.
    pub level: String,
    /// The member finished alone in first place.
    pub won: bool,
    /// Nobody did.
    pub draw: bool,
    /// The member's final score.
    pub score: f64,
    /// Each statistic's value (`None`: not defined in this game, or not a finite number).
    pub stats: Vec<Option<f64>>,
}

impl GameRow {
    fn of(level: String, r: GameResult) -> GameRow {
        GameRow {
            level,
            won: r.won,
            draw: r.draw,
            score: r.score,
            stats: r
                .features
                .into_iter()
                .map(|v| v.filter(|x| x.is_finite()))
                .collect(),
        }
    }
}

/// One member's games: the journal's entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemberGames {
    /// The member's cell.
    pub cell: usize,
    /// Its agent spec.
    pub spec: String,
    /// Its games on the training levels, in play order.
    pub train: Vec<GameRow>,
    /// Its games on the test levels, in play order.
    pub test: Vec<GameRow>,
}

impl MemberGames {
    /// Its win rate over its test games (0 with none).
    pub fn test_win_rate(&self) -> f64 {
        let wins = self.test.iter().filter(|g| g.won).count();
        wins as f64 / self.test.len().max(1) as f64
    }
}

impl Entry for MemberGames {
    const FIELD: &'static str = "run_dir";
    const HOLDS: &'static str = "an interrupted roster's members";
    fn same_item(&self, other: &Self) -> bool {
        self.cell == other.cell
    }
    /// Finite scores and statistics, no game both won and drawn.
    fn check(&self) -> std::result::Result<(), String> {
        for (split, games) in [("train", &self.train), ("test", &self.test)] {
            for (i, g) in games.iter().enumerate() {
                let bad = |why: &str| Err(format!("cell {}, {split} game {i}: {why}", self.cell));
                if g.won && g.draw {
                    return bad("both won and drawn");
                }
                if !g.score.is_finite() || g.stats.iter().flatten().any(|x| !x.is_finite()) {
                    return bad("a number that is not finite");
                }
            }
        }
        Ok(())
    }
}

/// How the members are played.
pub struct Plays<'a, G: SearchSupport> {
    /// The game with the run's rules.
    pub game: &'a G,
    /// The training levels.
    pub train: &'a [(String, G::Level)],
    /// Games per training level.
    pub train_reps: u32,
    /// The test levels.
    pub test: &'a [(String, G::Level)],
    /// Games per test level.
    pub test_reps: u32,
    /// The run's seed.
    pub seed: u64,
    /// The run's baseline spec.
    pub baseline: &'a str,
    /// The statistics of a game.
    pub statistics: &'a [Feature],
    /// The run directory, which the specs' file paths are relative to.
    pub base: &'a Path,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Play at most this many members, then stop as if killed.
    pub stop_after: Option<u64>,
}

impl<G: SearchSupport> Plays<'_, G> {
    /// The games of each member of `members` (cell and spec, in pick order) that `journal`
    /// does not hold yet, played in parallel and recorded as each finishes; says on `out` how
    /// many the journal held. Returns every member's games in `members`' order.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `run_dir` if the journal played a member's cell with another
    /// spec, `--stop-after-members` when it stopped members short, `--threads` if the pool
    /// cannot be built; [`Error::Data`] naming the journal if an entry does not hold the games
    /// and statistics a member plays; the first error of a game.
    pub fn play(
        &self,
        members: &[(usize, String)],
        journal: &Journal<MemberGames>,
        out: &mut impl Write,
    ) -> Result<Vec<MemberGames>> {
        let per_member = (self.train.len() as u64 * u64::from(self.train_reps))
            + (self.test.len() as u64 * u64::from(self.test_reps));
        let mut known: Vec<Option<MemberGames>> = Vec::with_capacity(members.len());
        for (cell, spec) in members {
            known.push(self.done(journal, *cell, spec)?);
        }
        let held = known.iter().filter(|m| m.is_some()).count();
        if held > 0 {
            writeln!(
                out,
                "resuming: {held} of {} members already played",
                members.len()
            )
            .map_err(output_error)?;
        }
        let pool = thread_pool(self.threads, "--threads")?;
        let progress = Progress::new(per_member * members.len() as u64, !self.quiet);
        progress.set_position(held as u64 * per_member);
        let mut todo: Vec<usize> = (0..members.len()).filter(|&i| known[i].is_none()).collect();
        todo.truncate(
            self.stop_after
                .map_or(usize::MAX, |k| usize::try_from(k).unwrap_or(usize::MAX)),
        );
        let played = pool.install(|| {
            todo.par_iter()
                .map(|&i| {
                    let (cell, spec) = &members[i];
                    let games = |levels: &[(String, G::Level)], reps: u32, split: u64| {
                        let seed = member_seed(self.seed, *cell, split);
                        player_games(
                            self.game,
                            levels,
                            reps,
                            seed,
                            spec,
                            self.baseline,
                            self.statistics,
                            self.base,
                        )
                        .map(|gs| gs.into_iter().map(|(l, r)| GameRow::of(l, r)).collect())
                    };
                    let m = MemberGames {
                        cell: *cell,
                        spec: spec.clone(),
                        train: games(self.train, self.train_reps, 0)?,
                        test: games(self.test, self.test_reps, 1)?,
                    };
                    journal.record(m.clone())?;
                    progress.add(per_member);
                    Ok((i, m))
                })
                .collect::<Result<Vec<_>>>()
        })?;
        progress.finish();
        for (i, m) in played {
            known[i] = Some(m);
        }
        known
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                Error::config(
                    "--stop-after-members",
                    format!(
                        "stopped with {} of {} members played, as asked; continue with --resume",
                        journal.count(|_| true),
                        members.len()
                    ),
                )
            })
    }

    /// The games `journal` holds for the member in `cell`, if it was played with `spec`.
    fn done(
        &self,
        journal: &Journal<MemberGames>,
        cell: usize,
        spec: &str,
    ) -> Result<Option<MemberGames>> {
        let Some(m) = journal.find(|m| m.cell == cell) else {
            return Ok(None);
        };
        if m.spec != spec {
            return Err(Error::config(
                "run_dir",
                format!(
                    "{} played cell {cell} as {}, but the archive's elite there is now {spec}; \
                     pass --force instead of --resume to start over",
                    journal.path().display(),
                    m.spec
                ),
            ));
        }
        let train = self.train.len() * self.train_reps as usize;
        let test = self.test.len() * self.test_reps as usize;
        let stats = self.statistics.len();
        let whole = m.train.len() == train
            && m.test.len() == test
            && m.train
                .iter()
                .chain(&m.test)
                .all(|g| g.stats.len() == stats);
        if !whole {
            return Err(Error::data(
                journal.path(),
                0,
                format!(
                    "damaged journal: cell {cell} does not hold {train} training and {test} test \
                     games of {stats} statistics each; pass --force instead of --resume to start \
                     over"
                ),
            ));
        }
        Ok(Some(m))
    }
}
