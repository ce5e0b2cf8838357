//! Series: many matches between the same participants over levels × repetitions, with seats
//! rotated, played in parallel and reproducible whatever the thread count.
//!
//! Game `i` of a series is repetition `i % repetitions` on level `i / repetitions` (level-major,
//! as the Java tournament loops), with seed `derive_seed(series seed, &[i])`. Participant `j`
//! sits in seat `(i + j) mod n` ("Shift Tribes", spec §17), so over any multiple of `n`
//! consecutive games each participant plays each seat equally often. Agents are built fresh for
//! every game from their spec strings, the games run on the current rayon pool (install a local
//! [`rayon::ThreadPool`] to choose the thread count) and the records come back in index order
//! ([`Series::run`]), so the output is identical for any number of threads. [`Series::run_each`]
//! plays any subset of the games and hands each to the caller as soon as it is finished (to
//! save results as they come, or to resume a series).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rayon::prelude::*;

use super::{MatchRecord, PlayerRecord, initial_state, play_match};
use crate::agent::Agent;
use crate::error::{Error, Result};
use crate::game::{Game, Outcome};
use crate::rng::derive_seed;

/// A series of matches: every level × `repetitions`, participants rotated through the seats.
#[derive(Clone, Debug)]
pub struct Series<G: Game> {
    /// The levels with the names that records and reports carry, in play order.
    pub levels: Vec<(String, G::Level)>,
    /// Games per level.
    pub repetitions: u32,
    /// The series seed every game's seed is derived from.
    pub seed: u64,
}

/// One game of a series: the match record plus who sat where.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesGame<A> {
    /// Index of the game in the series (`level index × repetitions + repetition`).
    pub index: usize,
    /// Name of the level (from [`Series::levels`]).
    pub level: String,
    /// Repetition number on that level, from 0.
    pub repetition: u32,
    /// `seats[j]`: the seat participant `j` played.
    pub seats: Vec<usize>,
    /// The winning participant (alone in first place); `None` for a draw, a tie for first or
    /// a capped match.
    pub winner: Option<usize>,
    /// `ranks[j]`: participant `j`'s rank (1 = first, ties shared, see [`Outcome`]); every
    /// participant 1 in a capped match.
    pub ranks: Vec<u8>,
    /// The match itself, in seat order (its `seed` is the game's seed).
    pub record: MatchRecord<A>,
}

impl<A> SeriesGame<A> {
    /// The gameplay record of participant `j`.
    ///
    /// # Panics
    ///
    /// If `j` is not a participant of the game.
    pub fn player(&self, j: usize) -> &PlayerRecord {
        &self.record.players[self.seats[j]]
    }

    /// The final score of participant `j`.
    ///
    /// # Panics
    ///
    /// If `j` is not a participant of the game.
    pub fn score(&self, j: usize) -> f64 {
        self.record.scores[self.seats[j]]
    }

    /// Participant `j`'s rank (1 = first).
    ///
    /// # Panics
    ///
    /// If `j` is not a participant of the game.
    pub fn rank(&self, j: usize) -> u8 {
        self.ranks[j]
    }

    /// True if nobody won: a draw, a tie for first place, or a match stopped by the action cap.
    pub fn is_draw(&self) -> bool {
        self.winner.is_none()
    }
}

/// The seat participant `participant` takes in game `game` of a series with `n` participants:
/// `(game + participant) mod n`.
///
/// # Panics
///
/// If `n` is 0.
pub fn seat_of(game: usize, participant: usize, n: usize) -> usize {
    (game % n + participant % n) % n
}

impl<G: Game> Series<G> {
    /// A series over `levels` with `repetitions` games each, seeded by `seed`.
    pub fn new(levels: Vec<(String, G::Level)>, repetitions: u32, seed: u64) -> Self {
        Series {
            levels,
            repetitions,
            seed,
        }
    }

    /// Number of games: levels × repetitions.
    pub fn len(&self) -> usize {
        self.levels.len() * self.repetitions as usize
    }

    /// True if the series has no games.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The seed of game `index`: `derive_seed(seed, &[index])`.
    pub fn game_seed(&self, index: usize) -> u64 {
        derive_seed(self.seed, &[index as u64])
    }

    /// Level index and repetition of game `index`.
    pub fn slot(&self, index: usize) -> (usize, u32) {
        let reps = self.repetitions.max(1) as usize;
        (index / reps, (index % reps) as u32)
    }

    /// Checks that every agent spec builds and that every level has one seat per participant,
    /// without playing: [`Series::run_each`] (and so [`Series::run`]) calls it first, so that a
    /// bad spec fails at once rather than inside a worker.
    ///
    /// # Errors
    ///
    /// What `build` reports for a bad spec; [`Error::Config`] naming `agents` if there are no
    /// participants or a level has a different number of players.
    pub fn check<B>(&self, game: &G, specs: &[String], build: &B) -> Result<()>
    where
        B: Fn(&str) -> Result<Box<dyn Agent<G>>> + Sync,
    {
        if specs.is_empty() {
            return Err(Error::config("agents", "a series needs at least one agent"));
        }
        for spec in specs {
            build(spec)?;
        }
        for (name, level) in &self.levels {
            let players = game.num_players(&initial_state(game, level, self.seed));
            if players != specs.len() {
                return Err(Error::config(
                    "agents",
                    format!(
                        "level {name} has {players} players but {} agents were given",
                        specs.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Plays every game of the series between the participants `specs` (participant `j` is
    /// `specs[j]`), building each game's agents with `build`, on the current rayon pool; the
    /// games come back in index order.
    ///
    /// `progress(done, total)` is called from the workers after each finished game, with
    /// `done` counting finished games (each value from 1 to `total` exactly once, not
    /// necessarily in order).
    ///
    /// # Errors
    ///
    /// As [`Series::run_each`].
    pub fn run<B, P>(
        &self,
        game: &G,
        specs: &[String],
        build: B,
        progress: P,
    ) -> Result<Vec<SeriesGame<G::Action>>>
    where
        B: Fn(&str) -> Result<Box<dyn Agent<G>>> + Sync,
        P: Fn(usize, usize) + Sync,
    {
        let total = self.len();
        let indices: Vec<usize> = (0..total).collect();
        let done = AtomicUsize::new(0);
        let games = Mutex::new(Vec::with_capacity(total));
        self.run_each(game, specs, build, &indices, |g| {
            lock(&games).push(g);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok(())
        })?;
        let mut games = games.into_inner().unwrap_or_else(PoisonError::into_inner);
        games.sort_unstable_by_key(|g| g.index);
        Ok(games)
    }

    /// Plays the games `indices` of the series between the participants `specs` (as
    /// [`Series::run`]) on the current rayon pool, and hands each finished game to `sink` from
    /// the worker that played it, in no particular order.
    ///
    /// An error from `sink` (e.g. a result file that cannot be written) stops the series: no
    /// game starts after it, the games already running are dropped, and the first error is
    /// returned.
    ///
    /// # Errors
    ///
    /// As [`Series::check`], which runs first; [`Error::Config`] naming `game` for an index
    /// outside the series (before any game); what `build` reports if it fails later; the
    /// first error of `sink`.
    pub fn run_each<B, S>(
        &self,
        game: &G,
        specs: &[String],
        build: B,
        indices: &[usize],
        sink: S,
    ) -> Result<()>
    where
        B: Fn(&str) -> Result<Box<dyn Agent<G>>> + Sync,
        S: Fn(SeriesGame<G::Action>) -> Result<()> + Sync,
    {
        self.check(game, specs, &build)?;
        if let Some(&i) = indices.iter().find(|&&i| i >= self.len()) {
            return Err(Error::config(
                "game",
                format!("no game {i} in a series of {} games", self.len()),
            ));
        }
        indices
            .par_iter()
            .try_for_each(|&i| sink(self.play(game, specs, &build, i)?))
    }

    /// Plays game `i` (which must be in the series) between the participants `specs`.
    fn play<B>(
        &self,
        game: &G,
        specs: &[String],
        build: &B,
        i: usize,
    ) -> Result<SeriesGame<G::Action>>
    where
        B: Fn(&str) -> Result<Box<dyn Agent<G>>> + Sync,
    {
        let n = specs.len();
        let (li, repetition) = self.slot(i);
        let (name, level) = &self.levels[li];
        let slot = GameSlot {
            index: i,
            level: name.clone(),
            repetition,
            seats: (0..n).map(|j| seat_of(i, j, n)).collect(),
            seed: self.game_seed(i),
        };
        play_slot(game, level, slot, specs, &|s: &String| build(s))
    }
}

/// Where and how one game is played: its place in a series, the seats and the seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSlot {
    /// Index of the game in its series.
    pub index: usize,
    /// Name of the level.
    pub level: String,
    /// Repetition number on that level.
    pub repetition: u32,
    /// `seats[j]`: the seat participant `j` plays (a permutation of `0..n`).
    pub seats: Vec<usize>,
    /// The game's seed.
    pub seed: u64,
}

/// Plays one game on `level` between the participants `specs` (spec text, or parsed specs)
/// seated as `slot` says, building the agents with `build`: what [`Series::run`] does for each
/// of its games, and what a worker does for one game task of a batch.
///
/// # Errors
///
/// [`Error::Config`] naming `seats` if `slot.seats` is not a permutation of the participants'
/// seats; what `build` reports for a bad spec.
pub fn play_slot<G, S, B>(
    game: &G,
    level: &G::Level,
    slot: GameSlot,
    specs: &[S],
    build: &B,
) -> Result<SeriesGame<G::Action>>
where
    G: Game,
    B: Fn(&S) -> Result<Box<dyn Agent<G>>>,
{
    let n = specs.len();
    // by_seat[seat] is the participant sitting there.
    let mut by_seat = vec![usize::MAX; n];
    let mut seated = slot.seats.len() == n;
    for (j, &seat) in slot.seats.iter().enumerate() {
        seated &= seat < n && by_seat[seat] == usize::MAX;
        if !seated {
            break;
        }
        by_seat[seat] = j;
    }
    if !seated {
        return Err(Error::config(
            "seats",
            format!(
                "{:?} is not a seating of {n} participants (a permutation of 0..{n})",
                slot.seats
            ),
        ));
    }
    let mut agents = by_seat
        .iter()
        .map(|&j| build(&specs[j]))
        .collect::<Result<Vec<_>>>()?;
    let record = play_match(game, level, &mut agents, slot.seed, |_, _| {})?;
    let outcome = record.outcome.unwrap_or(Outcome::draw(n));
    let winner = outcome
        .winner()
        .and_then(|seat| slot.seats.iter().position(|&s| s == seat));
    let ranks = slot.seats.iter().map(|&s| outcome.rank(s)).collect();
    Ok(SeriesGame {
        index: slot.index,
        level: slot.level,
        repetition: slot.repetition,
        seats: slot.seats,
        winner,
        ranks,
        record,
    })
}

/// Locks `m`, also after a worker panicked while holding it (the games in it stay valid).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate_and_each_game_is_a_permutation() {
        for n in 1..=4 {
            for game in 0..8 {
                let mut seats: Vec<usize> = (0..n).map(|j| seat_of(game, j, n)).collect();
                assert_eq!(seats[0], game % n);
                seats.sort_unstable();
                assert_eq!(seats, (0..n).collect::<Vec<_>>());
            }
        }
        assert_eq!(seat_of(usize::MAX, 1, 2), 0);
    }
}
