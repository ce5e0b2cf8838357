//! Playing a ladder: the opening round robin, then rounds picked by the schedule from the
//! ratings so far, every game saved as it ends; a resumed ladder replays the schedule from
//! its saved games and plays only the missing ones.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use super::games::{self, GameKey, LADDER_GAMES_CSV, LadderGame};
use super::spec::{LadderSpec, Schedule};
use super::table::write_outputs;
use super::{CONFIG_TOML, LadderConfig, RESULT_FILES};
use crate::agent::Agent;
use crate::arena::initial_state;
use crate::arena::series::{GameSlot, play_slot, seat_of};
use crate::error::{Error, Result};
use crate::experiments::agent_files::{AgentFile, copy_agent_files};
use crate::experiments::output_error;
use crate::experiments::run_dir::prepare_out_dir;
use crate::experiments::tournament_spec::within;
use crate::files::{TEXT_LIMIT, read_text, write_atomic};
use crate::game::Game;
use crate::ladder::bradley_terry::{BradleyTerry, Ratings, Results};
use crate::ladder::schedule::{games_for, next_games, round_robin};
use crate::report::progress::Progress;
use crate::rng::derive_seed;

/// Builds an agent from its spec.
type BuildFn<'a, G> = dyn Fn(&str) -> Result<Box<dyn Agent<G>>> + Sync + 'a;

/// Games are saved after every this many finished (and after every round).
pub const SAVE_EVERY: usize = 10;

/// The ladder as its output folder keeps it: agents naming the folder's copies of their files.
#[derive(Clone, Debug)]
pub struct KeptLadder {
    /// The ladder, its agents naming the kept files.
    pub spec: LadderSpec,
    /// The files to copy into the folder when the ladder starts.
    pub files: Vec<AgentFile>,
    /// The resolved config, written as `config.toml`.
    pub config_toml: String,
}

/// Why a ladder stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every adjacent difference's interval is within the target.
    Converged,
    /// `max_games` were played first.
    Budget,
}

/// A finished ladder.
#[derive(Clone, Debug)]
pub struct Ladder {
    /// The pairwise results.
    pub results: Results,
    /// The ratings fitted to them.
    pub ratings: Ratings,
    /// Games played.
    pub games: usize,
    /// Rounds played (the opening round robin is round 0).
    pub rounds: usize,
    /// Why it stopped.
    pub stop: Stop,
}

/// Plays the ladder `cfg` describes on `levels` (named for the files) and writes its result
/// files and printed table; with `cfg.resume`, continues the one in the output folder. `build`
/// makes an agent from a spec, its relative paths taken from a folder; `kept` is the ladder as
/// the output folder keeps it (see [`crate::experiments::tournament::tournament`] for the
/// same arrangement). Returns `None` if stopped early by the test hook.
///
/// # Errors
///
/// [`Error::Config`] naming `agent[i].spec` for an agent that cannot be built, `levels` for a
/// level of fewer than two players, `out` for a folder holding results (without `--force` or
/// `--resume`), `resume` when there is nothing to resume or the config differs; [`Error::Data`]
/// naming `ladder_games.csv` for a saved game that does not belong to the ladder;
/// [`Error::Io`] for files that cannot be read or written.
pub fn ladder<G, B>(
    game: &G,
    levels: Vec<(String, G::Level)>,
    build: B,
    cfg: &LadderConfig,
    kept: &KeptLadder,
    out: &mut impl Write,
) -> Result<Option<Ladder>>
where
    G: Game,
    B: Fn(&str, &Path) -> Result<Box<dyn Agent<G>>> + Sync,
{
    let spec = &kept.spec;
    let names: Vec<String> = spec.agents.iter().map(|a| a.name.clone()).collect();
    let players: Vec<usize> = levels
        .iter()
        .map(|(name, level)| {
            let n = game.num_players(&initial_state(game, level, spec.seed));
            if n < 2 {
                Err(Error::config(
                    "levels",
                    format!("level {name} has {n} player; a ladder needs games of two or more"),
                ))
            } else {
                Ok(n)
            }
        })
        .collect::<Result<_>>()?;
    let check = |specs: &[String], base: &Path| -> Result<()> {
        for (i, s) in specs.iter().enumerate() {
            build(s, base).map_err(|e| within(&format!("agent[{i}].spec"), e))?;
        }
        Ok(())
    };
    let games_path = cfg.out.join(LADDER_GAMES_CSV);
    let mut saved = if cfg.resume {
        if cfg.force {
            return Err(Error::config(
                "resume",
                "resume and force exclude each other",
            ));
        }
        check_resumable(&cfg.out, &kept.config_toml)?;
        check(&spec.specs(), &cfg.out)?;
        if games_path.exists() {
            games::read(&games_path, &names)?
        } else {
            BTreeMap::new()
        }
    } else {
        check(&cfg.spec.specs(), Path::new(""))?;
        prepare_out_dir(&cfg.out, "out", &RESULT_FILES, cfg.force, true)?;
        copy_agent_files(&cfg.out, &kept.files)?;
        write_atomic(&cfg.out.join(CONFIG_TOML), kept.config_toml.as_bytes())?;
        BTreeMap::new()
    };
    let pool = crate::experiments::thread_pool(cfg.threads, "threads")?;
    let specs = spec.specs();
    let play = |key: GameKey, round: usize| -> Result<LadderGame> {
        play_game(
            game,
            &levels,
            &players,
            &specs,
            spec.seed,
            key,
            round,
            &|s: &str| build(s, &cfg.out),
        )
    };

    let fitter = BradleyTerry {
        prior_draws: spec.prior_draws,
        anchor: spec.anchor,
    };
    let n = names.len();
    let mut results = Results::new(n);
    let played: Mutex<(BTreeMap<GameKey, LadderGame>, usize)> = Mutex::new((BTreeMap::new(), 0));
    let mut per_pair: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    // The next round's pairs and games per pair.
    let mut pairs: Vec<((usize, usize), usize)> = round_robin(n)
        .into_iter()
        .map(|p| (p, spec.start as usize))
        .collect();
    let mut hook = cfg.stop_after_games;
    let progress = Progress::new(spec.max_games, !cfg.quiet);
    let mut round = 0;
    let (ratings, stop) = loop {
        let mut keys: Vec<GameKey> = Vec::new();
        for &((a, b), per) in &pairs {
            let c = per_pair.entry((a, b)).or_insert(0);
            keys.extend((*c..*c + per).map(|k| (a, b, k)));
            *c += per;
        }
        let so_far = lock(&played).0.len();
        let room = usize::try_from(spec.max_games).unwrap_or(usize::MAX) - so_far;
        let out_of_games = keys.len() >= room;
        keys.truncate(room);
        let mut todo = Vec::new();
        for &key in &keys {
            match saved.remove(&key) {
                Some(g) => {
                    let expected = slot_of(&levels, spec.seed, key);
                    if g.round != round || (g.level.as_str(), g.seed) != (expected.0, expected.1) {
                        return Err(Error::data(
                            &games_path,
                            0,
                            format!(
                                "game {} of {} against {} is not the one the ladder plays \
                                 (round {round}, level {}, seed {}); start afresh with --force",
                                key.2, names[key.0], names[key.1], expected.0, expected.1
                            ),
                        ));
                    }
                    lock(&played).0.insert(key, g);
                }
                None => todo.push(key),
            }
        }
        progress.set_position(lock(&played).0.len() as u64);
        let mut interrupted = false;
        if let Some(h) = hook.as_mut() {
            if todo.len() > *h {
                todo.truncate(*h);
                interrupted = true;
            }
            *h -= todo.len();
        }
        pool.install(|| {
            todo.par_iter().try_for_each(|&key| {
                let g = play(key, round)?;
                let mut guard = lock(&played);
                guard.0.insert(key, g);
                guard.1 += 1;
                progress.inc();
                if guard.1 >= SAVE_EVERY {
                    games::write(&games_path, &guard.0, &names)?;
                    guard.1 = 0;
                }
                Ok::<(), Error>(())
            })
        })?;
        {
            let mut guard = lock(&played);
            games::write(&games_path, &guard.0, &names)?;
            guard.1 = 0;
        }
        if interrupted {
            progress.finish();
            writeln!(
                out,
                "stopped with {} games played; continue with --resume",
                lock(&played).0.len()
            )
            .map_err(output_error)?;
            return Ok(None);
        }
        {
            let guard = lock(&played);
            for key in &keys {
                results.add(key.0, key.1, guard.0[key].score_a);
            }
        }
        let ratings = fitter.fit(&results).map_err(|e| {
            Error::config(
                "agent",
                format!("the ratings cannot be fitted: {}", e.describe(&names)),
            )
        })?;
        if out_of_games {
            break (ratings, Stop::Budget);
        }
        let batch = spec.batch as usize;
        let decisive = spec.decisive.unwrap_or(f64::INFINITY);
        pairs = match spec.schedule {
            Schedule::Adaptive => next_games(&ratings, spec.target, decisive, n)
                .into_iter()
                .map(|(a, b)| {
                    let m = ratings.difference(a, b).1;
                    (
                        (a, b),
                        games_for(m, results.games(a, b), spec.target, batch),
                    )
                })
                .collect(),
            Schedule::RoundRobin if !next_games(&ratings, spec.target, decisive, 1).is_empty() => {
                round_robin(n).into_iter().map(|p| (p, batch)).collect()
            }
            Schedule::RoundRobin => Vec::new(),
        };
        if pairs.is_empty() {
            break (ratings, Stop::Converged);
        }
        round += 1;
    };
    progress.finish();
    if let Some((key, _)) = saved.first_key_value() {
        return Err(Error::data(
            &games_path,
            0,
            format!(
                "game {} of {} against {} is not in the ladder's schedule; start afresh with --force",
                key.2, names[key.0], names[key.1]
            ),
        ));
    }
    let total = lock(&played).0.len();
    let ladder = Ladder {
        results,
        ratings,
        games: total,
        rounds: round + 1,
        stop,
    };
    write_outputs(&cfg.out, spec, &ladder, out)?;
    Ok(Some(ladder))
}

/// The level name and seed of game `key`: game `k` of a pair is on level `(k / 2) mod L`
/// (two games a level, one in each seat order), seeded by `derive_seed(seed, [a, b, k])`.
fn slot_of<L>(levels: &[(String, L)], seed: u64, (a, b, k): GameKey) -> (&str, u64) {
    let li = (k / 2) % levels.len();
    (
        levels[li].0.as_str(),
        derive_seed(seed, &[a as u64, b as u64, k as u64]),
    )
}

/// Plays game `key` of the ladder: agents `a` and `b` share the level's seats, participant
/// `p` being `a` when `p + ⌊k / n⌋` is even (so that in odd-player games each takes the larger
/// share every other rotation), participant `p` in seat `(k + p) mod n`. `a`'s score is 1 if
/// its best rank beats `b`'s best, ½ if they tie, else 0.
#[allow(clippy::too_many_arguments)]
fn play_game<G: Game>(
    game: &G,
    levels: &[(String, G::Level)],
    players: &[usize],
    specs: &[String],
    seed: u64,
    key: GameKey,
    round: usize,
    build: &BuildFn<'_, G>,
) -> Result<LadderGame> {
    let (a, b, k) = key;
    let li = (k / 2) % levels.len();
    let n = players[li];
    let (level_name, game_seed) = slot_of(levels, seed, key);
    let who: Vec<usize> = (0..n)
        .map(|p| if (p + k / n).is_multiple_of(2) { a } else { b })
        .collect();
    let seats: Vec<usize> = (0..n).map(|p| seat_of(k, p, n)).collect();
    let slot = GameSlot {
        index: k,
        level: level_name.to_string(),
        repetition: 0,
        seats: seats.clone(),
        seed: game_seed,
    };
    let participants: Vec<&str> = who.iter().map(|&x| specs[x].as_str()).collect();
    let g = play_slot(game, &levels[li].1, slot, &participants, &|s: &&str| {
        build(s)
    })?;
    let best = |x: usize| {
        (0..n)
            .filter(|&p| who[p] == x)
            .map(|p| g.ranks[p])
            .min()
            .unwrap_or(u8::MAX)
    };
    let score_a = match best(a).cmp(&best(b)) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    };
    let mut seats_a: Vec<usize> = (0..n).filter(|&p| who[p] == a).map(|p| seats[p]).collect();
    seats_a.sort_unstable();
    Ok(LadderGame {
        round,
        level: level_name.to_string(),
        seed: game_seed,
        seats_a,
        score_a,
        rounds: g.record.rounds,
    })
}

/// Checks that `dir` holds a ladder started with `config_toml`, but for `max_games`: a ladder
/// resumed with another budget replays the same schedule (the round the old budget cut short
/// continues where it was cut), so one that stopped at its budget goes on with a larger one.
/// The folder's `config.toml` then takes the new budget.
fn check_resumable(dir: &Path, config_toml: &str) -> Result<()> {
    let path = dir.join(CONFIG_TOML);
    if !path.is_file() {
        return Err(Error::config(
            "resume",
            format!(
                "nothing to resume: {} holds no {CONFIG_TOML} (run without --resume to start the ladder)",
                dir.display()
            ),
        ));
    }
    let but_budget = |text: &str| -> String {
        text.lines()
            .filter(|l| !l.starts_with("max_games = "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let on_disk = read_text(&path, TEXT_LIMIT)?;
    if but_budget(&on_disk) != but_budget(config_toml) {
        return Err(Error::config(
            "resume",
            format!(
                "the config differs from the one that started the ladder in {} (see its \
                 {CONFIG_TOML}); resume with that config (max_games may change), or start \
                 afresh with --force",
                dir.display()
            ),
        ));
    }
    if on_disk != config_toml {
        write_atomic(&path, config_toml.as_bytes())?;
    }
    Ok(())
}

/// Locks `m`, also after a worker panicked while holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
