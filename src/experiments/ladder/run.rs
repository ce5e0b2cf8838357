//! Playing a ladder: the opening round robin, then rounds picked by the schedule from the
//! ratings so far, every game saved as it ends; a resumed ladder checks its folder, then
//! replays the schedule from its saved games and plays only the missing ones, writing nothing
//! until every check has passed.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use super::folder::{LadderFolder, check_owned};
use super::games::{self, GameKey, LADDER_GAMES_CSV, LadderGame, SavedGames, slot};
use super::spec::{LadderSpec, Schedule};
use super::table::{LADDER_CSV, write_outputs};
use super::{CONFIG_TOML, LadderConfig, RESULT_FILES, fingerprint};
use crate::agent::{Agent, SearchSupport};
use crate::arena::initial_state;
use crate::arena::series::{GameSlot, play_slot, seat_of};
use crate::error::{Error, Result};
use crate::experiments::agent_files::{AgentFile, copy_agent_files};
use crate::experiments::output_error;
use crate::experiments::run_dir::{prepare_out_dir, resuming};
use crate::experiments::tournament_spec::within;
use crate::files::{present, write_atomic};
use crate::game::Game;
use crate::ladder::bradley_terry::{BradleyTerry, Ratings, Results};
use crate::ladder::schedule::{games_for, next_games, round_robin};
use crate::report::progress::Progress;

/// Builds an agent from its spec.
type BuildFn<'a, G> = dyn Fn(&str) -> Result<Box<dyn Agent<G>>> + Sync + 'a;

/// Games are saved after every this many finished (and after every round that played one).
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

impl KeptLadder {
    /// The [`fingerprint`] of its resolved config, which every row of its tables carries.
    ///
    /// # Errors
    ///
    /// As [`fingerprint`] (not for a config the ladder resolved).
    pub fn fingerprint(&self) -> Result<String> {
        fingerprint(&self.config_toml)
    }
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

/// What a resumed ladder found in its folder.
enum Found {
    /// The ladder finished with this very config: nothing to do.
    Finished,
    /// Games to go on from, and whether the folder's `config.toml` takes another budget before
    /// the first write (its old `ladder.csv` then removed: it no longer marks it finished).
    GoOn(SavedGames, bool),
}

/// Plays the ladder `cfg` describes on `levels` (named for the files), writes its games and
/// charts and prints its table; with `cfg.resume`, continues the one in the output folder.
/// `build` makes an agent from a spec, its relative paths taken from a folder; `kept` is the
/// ladder as the output folder keeps it (see [`crate::experiments::tournament::tournament`] for
/// the same arrangement); `checks` are the caller's, to pass before anything is written (the
/// style check's bound, [`super::style::check_style_games`]). The caller runs the style check,
/// then writes `ladder.csv`, last ([`super::table::write_ladder_csv`]). Returns `None` if
/// stopped early by the test hook, or if resumed finished (nothing to do, nothing written).
///
/// # Errors
///
/// [`Error::Config`] naming `agent[i].spec` for an agent that cannot be built, `levels` for a
/// level of fewer than two players, `out` for a folder holding results (without `--force` or
/// `--resume`) or, with `--force`, one that is not a ladder's, `resume` when the config
/// differs (a folder without a ladder's `config.toml` holds nothing to resume: it starts), `max_games` for a resume whose budget is below the games
/// saved; [`Error::Data`] naming `ladder_games.csv` and the line for a saved game that does
/// not belong to the ladder ([`games::read`]: another config's, another level or seed, or not
/// in its schedule), `ladder.csv` or `ladder_style.csv` for a damaged one (of a finished
/// ladder: every table it vouches for is read; [`LadderFolder::check_finished`]); [`Error::Io`] for
/// files that cannot be read or written; what `checks` reports. A resume that fails has
/// written nothing.
pub fn ladder<G, B>(
    game: &G,
    levels: Vec<(String, G::Level)>,
    build: B,
    cfg: &LadderConfig,
    kept: &KeptLadder,
    checks: impl FnOnce() -> Result<()>,
    out: &mut impl Write,
) -> Result<Option<Ladder>>
where
    G: SearchSupport,
    B: Fn(&str, &Path) -> Result<Box<dyn Agent<G>>> + Sync,
{
    let spec = &kept.spec;
    let names: Vec<String> = spec.agents.iter().map(|a| a.name.clone()).collect();
    let level_names: Vec<String> = levels.iter().map(|(name, _)| name.clone()).collect();
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
    let fingerprint = kept.fingerprint()?;
    let games_path = cfg.out.join(LADDER_GAMES_CSV);
    let resuming = resuming(
        (cfg.resume, cfg.force),
        &cfg.out,
        &[cfg.out.join(CONFIG_TOML)],
        "ladder",
        out,
    )?;
    let (mut saved, mut rebudget) = if resuming {
        match resumed(cfg, kept, &fingerprint, |base| check(&spec.specs(), base))? {
            Found::Finished => {
                writeln!(
                    out,
                    "the ladder in {} has finished ({LADDER_CSV} is there): nothing to do",
                    cfg.out.display()
                )
                .map_err(output_error)?;
                return Ok(None);
            }
            Found::GoOn(saved, rebudget) => {
                checks()?;
                (saved, rebudget)
            }
        }
    } else {
        check(&cfg.spec.specs(), Path::new(""))?;
        checks()?;
        if cfg.force {
            check_owned(&cfg.out)?;
        }
        prepare_out_dir(&cfg.out, "out", &RESULT_FILES, cfg.force, true)?;
        copy_agent_files(game, &cfg.out, &kept.files)?;
        write_atomic(&cfg.out.join(CONFIG_TOML), kept.config_toml.as_bytes())?;
        (SavedGames::default(), false)
    };
    // A resume with another budget: the folder's config takes it before the first write, and
    // its old ratings (the mark of a finished ladder) go.
    let mut before_writing = || -> Result<()> {
        if std::mem::take(&mut rebudget) {
            let marker = cfg.out.join(LADDER_CSV);
            if present(&marker)? {
                std::fs::remove_file(&marker).map_err(|e| Error::io(&marker, e))?;
            }
            write_atomic(&cfg.out.join(CONFIG_TOML), kept.config_toml.as_bytes())?;
        }
        Ok(())
    };
    let pool = crate::experiments::thread_pool(cfg.threads, "threads")?;
    let specs = spec.specs();
    let play = |key: GameKey, round: usize| -> Result<LadderGame> {
        play_game(
            game,
            &levels,
            &level_names,
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
    let budget = usize::try_from(spec.max_games).unwrap_or(usize::MAX);
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
    // A saved game the ladder does not reach: past the budget, or not in its schedule.
    let unreached = |saved: &SavedGames, cut: bool| -> Error {
        let Some((&key, g)) = saved.games.first_key_value() else {
            return Error::data(&games_path, 0, "no game");
        };
        let line = saved.lines.get(&key).copied().unwrap_or(0);
        let game = format!(
            "game {} of {} against {}",
            key.2, names[key.0], names[key.1]
        );
        if cut {
            Error::config(
                "max_games",
                format!(
                    "{} holds {game} (line {line}, round {}), which max_games = {} cuts off: a \
                     resume may raise the budget, not drop games played; resume with the budget \
                     the ladder was played with, or a larger one",
                    games_path.display(),
                    g.round,
                    spec.max_games
                ),
            )
        } else {
            Error::data(
                &games_path,
                line,
                format!(
                    "{game} (round {}) is not in the ladder's schedule; start afresh with --force",
                    g.round
                ),
            )
        }
    };
    let (ratings, stop) = loop {
        let so_far = lock(&played).0.len();
        let room = budget.saturating_sub(so_far);
        let (keys, wanted) = round_keys(&pairs, &mut per_pair, room);
        let out_of_games = wanted >= room;
        let mut todo = Vec::new();
        for &key in &keys {
            match saved.games.remove(&key) {
                Some(g) if g.round != round => {
                    let line = saved.lines.get(&key).copied().unwrap_or(0);
                    return Err(Error::data(
                        &games_path,
                        line,
                        format!(
                            "game {} of {} against {} was played in round {}, but the ladder \
                             plays it in round {round}; start afresh with --force",
                            key.2, names[key.0], names[key.1], g.round
                        ),
                    ));
                }
                Some(g) => {
                    lock(&played).0.insert(key, g);
                }
                None => todo.push(key),
            }
        }
        // Saved games are a prefix of the schedule: none may be left once this round needs
        // new games, or once the budget ends the ladder.
        if !saved.games.is_empty() && (out_of_games || !todo.is_empty()) {
            return Err(unreached(&saved, out_of_games));
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
        if !todo.is_empty() {
            before_writing()?;
            pool.install(|| {
                todo.par_iter().try_for_each(|&key| {
                    let g = play(key, round)?;
                    let mut guard = lock(&played);
                    guard.0.insert(key, g);
                    guard.1 += 1;
                    progress.inc();
                    if guard.1 >= SAVE_EVERY {
                        games::write(&games_path, &guard.0, &names, &fingerprint)?;
                        guard.1 = 0;
                    }
                    Ok::<(), Error>(())
                })
            })?;
            let mut guard = lock(&played);
            games::write(&games_path, &guard.0, &names, &fingerprint)?;
            guard.1 = 0;
        }
        if interrupted {
            progress.finish();
            let total = lock(&played).0.len();
            writeln!(
                out,
                "stopped with {total} games played; continue with --resume"
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
    if !saved.games.is_empty() {
        return Err(unreached(&saved, stop == Stop::Budget));
    }
    before_writing()?;
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

/// The games of a round that plays `pairs` (each with its number of games), no more than
/// `room` of them, numbered on from `per_pair` (which each pair's count advances); and how
/// many it wanted in all. Only the games that fit are listed, so that a round of a tiny
/// target and a large batch asks no memory for the games the budget cuts.
fn round_keys(
    pairs: &[((usize, usize), usize)],
    per_pair: &mut BTreeMap<(usize, usize), usize>,
    room: usize,
) -> (Vec<GameKey>, usize) {
    let fit: usize = pairs
        .iter()
        .fold(0usize, |acc, &(_, per)| acc.saturating_add(per))
        .min(room);
    let mut keys = Vec::with_capacity(fit);
    let mut wanted = 0usize;
    for &((a, b), per) in pairs {
        let c = per_pair.entry((a, b)).or_insert(0);
        let take = per.min(fit - keys.len());
        keys.extend((*c..*c + take).map(|k| (a, b, k)));
        // The counts only matter while they fit the budget: saturating is exact then.
        *c = c.saturating_add(per);
        wanted = wanted.saturating_add(per);
    }
    (keys, wanted)
}

/// Checks the folder of the ladder `cfg` resumes: its `config.toml` must be that of `kept` but
/// for `max_games` (`fingerprint`), its agents build (`check`, from the folder), every saved
/// game read as written and bound to the config, no more of them than the budget, and the
/// style check's rows as written; a finished ladder's `ladder.csv` must be of those games and
/// its style check whole ([`LadderFolder::check_finished`]). Writes nothing.
///
/// # Errors
///
/// [`Error::Config`] naming `resume` if the folder holds another config's ladder,
/// `max_games` if it holds more games than the budget; as `check`, [`LadderFolder::games`],
/// [`LadderFolder::styles`] and [`LadderFolder::check_finished`].
fn resumed(
    cfg: &LadderConfig,
    kept: &KeptLadder,
    fingerprint: &str,
    check: impl Fn(&Path) -> Result<()>,
) -> Result<Found> {
    let folder = LadderFolder::open(&cfg.out)?;
    if folder.fingerprint != fingerprint {
        return Err(Error::config(
            "resume",
            format!(
                "the config differs from the one that started the ladder in {} (see its \
                 {CONFIG_TOML}); resume with that config (max_games may change), or start \
                 afresh with --force",
                cfg.out.display()
            ),
        ));
    }
    check(&cfg.out)?;
    let saved = folder.games()?;
    if saved.games.len() as u64 > kept.spec.max_games {
        return Err(Error::config(
            "max_games",
            format!(
                "{} holds {} games, more than max_games = {}: a resume may raise the budget, \
                 not drop games played; resume with max_games of at least {} (the ladder was \
                 played with {}), or start afresh with --force",
                cfg.out.display(),
                saved.games.len(),
                kept.spec.max_games,
                saved.games.len(),
                folder.spec.max_games
            ),
        ));
    }
    let same = folder.config_toml == kept.config_toml;
    if same && folder.finished()? {
        folder.check_finished(&saved)?;
        return Ok(Found::Finished);
    }
    // The style check's rows the resume keeps, read before the first write.
    folder.styles()?;
    Ok(Found::GoOn(saved, !same))
}

/// Plays game `key` of the ladder: agents `a` and `b` share the level's seats, participant
/// `p` being `a` when `p + ⌊k / n⌋` is even (so that in odd-player games each takes the larger
/// share every other rotation), participant `p` in seat `(k + p) mod n`. `a`'s score is 1 if
/// its best rank beats `b`'s best, ½ if they tie, else 0.
#[allow(clippy::too_many_arguments)]
fn play_game<G: Game>(
    game: &G,
    levels: &[(String, G::Level)],
    level_names: &[String],
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
    let (level_name, game_seed) = slot(level_names, seed, key);
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

/// Locks `m`, also after a worker panicked while holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
