//! The roster command: candidates, pick, games, assessment, files (see the [module
//! docs](super)).

use std::io::Write;

use super::assess::{SizeResult, assess};
use super::candidates::candidates;
use super::files::{
    MemberFile, ROSTER_CONFUSION_CSV, ROSTER_DONE, ROSTER_GAMES_CSV, ROSTER_JOURNAL, ROSTER_PNG,
    ROSTER_SIZES_CSV, ROSTER_SVG, ROSTER_TOML, RosterFile, RosterSettings, confusion_table,
    games_table, sizes_table, write_roster,
};
use super::pick::farthest_first;
use super::play::{MemberGames, Plays};
use super::style::{member_names, traits};
use super::{Count, RosterConfig};
use crate::agent::SearchSupport;
use crate::error::{Error, Result};
use crate::experiments::elite_games::level_names;
use crate::experiments::evaluate::player_counts;
use crate::experiments::game_kind::program;
use crate::experiments::journal::{Journal, fingerprint, finished};
use crate::experiments::output_error;
use crate::experiments::run_dir::{CONFIG_TOML, RunDir, prepare_out_dir};
use crate::features::Feature;
use crate::files::{TEXT_LIMIT, present, read_text};
use crate::limits;
use crate::report::roster_chart::{RosterChart, write_roster_charts};
use crate::report::table::aligned;

/// The files a roster owns in the run directory, the completion record last.
const OWNED: [&str; 7] = [
    ROSTER_TOML,
    ROSTER_CONFUSION_CSV,
    ROSTER_SIZES_CSV,
    ROSTER_GAMES_CSV,
    ROSTER_PNG,
    ROSTER_SVG,
    ROSTER_DONE,
];

/// Makes the roster of `run` (see the [module docs](super)): `training` are the run's training
/// levels and `test` the levels of `--levels` (named for the reports; of each, at most as many
/// as the member plays games there are played, the first ones), `statistics` the
/// per-game statistics ([`super::statistic_names`], resolved for the game). With `cfg.resume`,
/// a roster finished with these settings is nothing to do: `None`, nothing written.
///
/// # Errors
///
/// [`Error::Config`] naming `evaluation.levels` or `--levels` if either has no level,
/// `--floor` if fewer than two elites clear it, `--count` if it asks for more members than
/// there are candidates, `--train-games` or `--test-games` if the games are more than
/// [`limits::MAX_ROSTER_GAMES`]; the journal's errors ([`Journal::open`], [`finished`]); as
/// [`super::candidates`] for a malformed `reevaluated.csv`; an agent spec that does not build;
/// [`Error::Io`] if a file cannot be written.
pub fn roster<G: SearchSupport>(
    game: &G,
    mut training: Vec<(String, G::Level)>,
    mut test: Vec<(String, G::Level)>,
    statistics: &[Feature],
    run: &RunDir,
    cfg: &RosterConfig,
    out: &mut impl Write,
) -> Result<Option<RosterFile>> {
    if training.is_empty() {
        return Err(Error::config("evaluation.levels", "no level to play"));
    }
    if test.is_empty() {
        return Err(Error::config("--levels", "no level to play"));
    }
    // N games use at most N levels: the first N.
    training.truncate(cfg.train_games as usize);
    test.truncate(cfg.test_games as usize);
    let players = player_counts(game, &training)[0].max(1);
    let floor = cfg.floor.unwrap_or(1.0 / players as f64);
    let cands = candidates(run, floor)?;
    let kept = cands.kept.len();
    if kept < 2 {
        return Err(Error::config(
            "--floor",
            format!(
                "{kept} of the {} elites ({}) clear the floor {floor:.3} (the lower end of \
                 their win rate's 95 % interval); a roster needs 2: give a lower --floor, or \
                 re-evaluate with more games",
                cands.elites, cands.source
            ),
        ));
    }
    let most = match cfg.count {
        Count::Fixed(n) if n > kept => {
            return Err(Error::config(
                "--count",
                format!(
                    "{n} members asked for, but only {kept} of the {} elites clear the floor \
                     {floor:.3}; give 2 to {kept}, or a lower --floor",
                    cands.elites
                ),
            ));
        }
        Count::Fixed(n) => n,
        Count::Auto(n) => n.min(kept),
    };
    let order = farthest_first(&cands.kept, most);
    let members: Vec<(usize, String)> = order
        .iter()
        .map(|&i| (cands.kept[i].row.cell, cands.kept[i].spec.clone()))
        .collect();
    let train_reps = cfg.train_games.div_ceil(training.len() as u32).max(1);
    let test_reps = cfg.test_games.div_ceil(test.len() as u32).max(1);
    let per_train = u64::from(train_reps) * training.len() as u64;
    let per_test = u64::from(test_reps) * test.len() as u64;
    limits::at_most(
        members.len() as u64 * per_train,
        limits::MAX_ROSTER_GAMES,
        "--train-games",
    )?;
    limits::at_most(
        members.len() as u64 * (per_train + per_test),
        limits::MAX_ROSTER_GAMES,
        "--test-games",
    )?;
    let names: Vec<String> = statistics.iter().map(|f| f.name().to_string()).collect();
    let config = read_text(&run.dir.join(CONFIG_TOML), TEXT_LIMIT)?;
    let roster_of: String = members.iter().map(|(c, s)| format!("{c} {s}\n")).collect();
    let baseline = run.config.baseline.to_string();
    let settings: Vec<(&str, String)> = vec![
        ("--count", cfg.count.to_string()),
        ("--target", cfg.target.to_string()),
        ("--floor", floor.to_string()),
        ("--train-games", per_train.to_string()),
        ("--test-games", per_test.to_string()),
        ("evaluation.levels", level_names(&training)),
        ("--levels", level_names(&test)),
        ("baseline", baseline.clone()),
        ("seed", run.config.seed.to_string()),
        ("statistics", fingerprint(&names.join("\n"))),
        (CONFIG_TOML, fingerprint(&config)),
        (
            "members",
            format!(
                "{} of cells and specs {}",
                members.len(),
                fingerprint(&roster_of)
            ),
        ),
    ];
    let dir = &run.dir;
    let journal_path = dir.join(ROSTER_JOURNAL);
    if cfg.resume {
        let outputs: Vec<_> = OWNED[..OWNED.len() - 1]
            .iter()
            .map(|f| dir.join(f))
            .collect();
        if let Some(f) = finished(&journal_path, &dir.join(ROSTER_DONE), &outputs, &settings)? {
            let what = format!("roster: {} already holds this roster", dir.display());
            write!(out, "{}", f.note(&what)).map_err(output_error)?;
            return Ok(None);
        }
    }
    let journal: Journal<MemberGames> =
        Journal::open(&journal_path, &settings, cfg.resume, cfg.force)?;
    let resumed = present(&journal_path)?;
    prepare_out_dir(dir, "run_dir", &OWNED, cfg.force || resumed, false)?;
    writeln!(
        out,
        "roster of {}: {kept} of {} elites ({}) clear the floor {floor:.3}; playing {} of them, \
         picked far apart, {per_train} games each on {} and {per_test} on {}, against {baseline}",
        dir.display(),
        cands.elites,
        cands.source,
        members.len(),
        shown(&training),
        shown(&test),
    )
    .map_err(output_error)?;
    out.flush().map_err(output_error)?;
    let plays = Plays {
        game,
        train: &training,
        train_reps,
        test: &test,
        test_reps,
        seed: run.config.seed,
        baseline: &baseline,
        statistics,
        base: dir,
        threads: cfg.threads,
        quiet: cfg.quiet,
        stop_after: cfg.stop_after_members,
    };
    let games = plays.play(&members, &journal, out)?;
    let sizes = (2..=games.len())
        .map(|k| assess(&games, k))
        .collect::<Result<Vec<_>>>()?;
    let (chosen, note) = choose(cfg, &sizes);
    let result = &sizes[chosen - 2];
    let roster = &games[..chosen];
    let traits = traits(roster, &names);
    let member_names = member_names(&traits);
    let file = RosterFile {
        count: chosen,
        accuracy_1: result.accuracy_1,
        accuracy_3: result.accuracy_3,
        chance: 1.0 / chosen as f64,
        settings: RosterSettings {
            count: cfg.count.to_string(),
            target: cfg.target,
            floor,
            source: cands.source.to_string(),
            elites: cands.elites,
            candidates: kept,
            train_games: per_train as u32,
            test_games: per_test as u32,
            training_levels: training.iter().map(|(n, _)| n.clone()).collect(),
            test_levels: test.iter().map(|(n, _)| n.clone()).collect(),
            baseline,
            seed: run.config.seed,
            statistics: names.len(),
            config: fingerprint(&config),
        },
        member: roster
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let c = &cands.kept[order[i]];
                MemberFile {
                    name: member_names[i].clone(),
                    cell: m.cell,
                    spec: m.spec.clone(),
                    win_rate: c.win_rate,
                    win_rate_lo: c.win_rate_lo,
                    held_out_win_rate: m.test_win_rate(),
                    accuracy_1: result.member_1[i],
                    accuracy_3: result.member_3[i],
                    named_as: result.confusion[i].clone(),
                    style: traits[i].iter().map(|t| t.words()).collect(),
                }
            })
            .collect(),
    };
    confusion_table(&member_names, result).write(&dir.join(ROSTER_CONFUSION_CSV))?;
    sizes_table(&sizes, chosen).write(&dir.join(ROSTER_SIZES_CSV))?;
    games_table(&games, &names).write(&dir.join(ROSTER_GAMES_CSV))?;
    let chart = RosterChart {
        names: member_names.clone(),
        confusion: result.confusion.clone(),
        member_1: result.member_1.clone(),
        member_3: result.member_3.clone(),
        accuracy_1: result.accuracy_1,
        accuracy_3: result.accuracy_3,
    };
    write_roster_charts(&chart, &dir.join(ROSTER_PNG), &dir.join(ROSTER_SVG))?;
    write_roster(run, &file)?;
    journal.finish(&dir.join(ROSTER_DONE))?;
    write!(out, "\n{}", printed(&file, &sizes, chosen, &note)).map_err(output_error)?;
    writeln!(
        out,
        "wrote {} ({ROSTER_CONFUSION_CSV}, {ROSTER_SIZES_CSV}, {ROSTER_GAMES_CSV}, {ROSTER_PNG}, \
         {ROSTER_SVG} beside it); `{} report {}` shows it in report.html",
        dir.join(ROSTER_TOML).display(),
        program(),
        dir.display()
    )
    .map_err(output_error)?;
    Ok(Some(file))
}

/// The names of `levels`, comma-separated, the first six and how many more.
fn shown<L>(levels: &[(String, L)]) -> String {
    const SHOWN: usize = 6;
    let names: Vec<&str> = levels.iter().take(SHOWN).map(|(n, _)| n.as_str()).collect();
    match levels.len().saturating_sub(SHOWN) {
        0 => names.join(","),
        more => format!("{},… ({more} more)", names.join(",")),
    }
}

/// The roster's size: `N` for `--count N`; for `auto`, the largest whose 1-game accuracy
/// reaches the target, else the most accurate (ties to the larger), with a note saying so.
fn choose(cfg: &RosterConfig, sizes: &[SizeResult]) -> (usize, String) {
    let largest = sizes.last().map_or(2, |s| s.size);
    match cfg.count {
        Count::Fixed(_) => (largest, String::new()),
        Count::Auto(_) => {
            if let Some(s) = sizes.iter().rev().find(|s| s.accuracy_1 >= cfg.target) {
                let note = format!(
                    "auto: {} members is the largest roster of 2 to {largest} named from one \
                     held-out game at least {:.0} % of the time",
                    s.size,
                    100.0 * cfg.target
                );
                return (s.size, note);
            }
            let best = sizes
                .iter()
                .max_by(|a, b| {
                    a.accuracy_1
                        .total_cmp(&b.accuracy_1)
                        .then(a.size.cmp(&b.size))
                })
                .map_or(2, |s| s.size);
            let note = format!(
                "auto: no roster of 2 to {largest} members reaches the target {:.0} % from one \
                 held-out game; kept the most accurate, {best} members",
                100.0 * cfg.target
            );
            (best, note)
        }
    }
}

/// The roster as printed: the members, the accuracy per size, the note of `auto`.
fn printed(file: &RosterFile, sizes: &[SizeResult], chosen: usize, note: &str) -> String {
    let pct = |x: f64| format!("{:.1}", 100.0 * x);
    let header: Vec<String> = [
        "member",
        "cell",
        "win_rate",
        "win_rate_lo",
        "held_out_win_rate",
        "accuracy_1",
        "accuracy_3",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = file
        .member
        .iter()
        .map(|m| {
            vec![
                m.name.clone(),
                m.cell.to_string(),
                pct(m.win_rate),
                pct(m.win_rate_lo),
                pct(m.held_out_win_rate),
                pct(m.accuracy_1),
                pct(m.accuracy_3),
            ]
        })
        .collect();
    let mut text = format!(
        "roster of {}: named from one held-out game {} % of the time, from three {} % \
         (chance {} %); rates in %\n{}",
        file.count,
        pct(file.accuracy_1),
        pct(file.accuracy_3),
        pct(file.chance),
        aligned(&header, &rows)
    );
    text.push_str("\nstyles:\n");
    for m in &file.member {
        text.push_str(&format!("  {}: {}\n", m.name, m.style.join("; ")));
    }
    let size_rows: Vec<Vec<String>> = sizes
        .iter()
        .map(|s| {
            vec![
                s.size.to_string(),
                pct(s.accuracy_1),
                pct(s.accuracy_3),
                if s.size == chosen { "<-" } else { "" }.to_string(),
            ]
        })
        .collect();
    let size_header: Vec<String> = ["size", "accuracy_1", "accuracy_3", ""]
        .map(String::from)
        .to_vec();
    text.push_str(&format!(
        "\naccuracy by roster size (the first N of the pick):\n{}",
        aligned(&size_header, &size_rows)
    ));
    if !note.is_empty() {
        text.push_str(&format!("{note}\n"));
    }
    text
}
