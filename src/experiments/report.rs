//! `playstyles report RUN_DIR`: the run explorer, `RUN_DIR/report.html`
//! ([`crate::report::explorer`]): the map, one card per elite with what the run knows of it
//! (`archive.csv`; `validation.csv`, `reevaluated.csv` and `tiers.toml` when present, each
//! read as its command wrote it and bound to the run's archive, so that another run's table or
//! one the run went on after is an error naming it and the line) and a replay of one of its
//! games, the run's roster when it has one (`roster.toml`, read as `roster` wrote it and bound
//! to the run, [`read_roster`]: its chart and each member's style and spec), the progress
//! chart and the configuration. `evolve` writes it at the end of a run.
//! With `--ladder LADDER_DIR` (a `playstyles ladder` folder that rated elites of this run),
//! each rated elite's card shows its rating, rank and tier (the ladder's `tiers.toml`, where
//! there is one, [`super::rated_tiers::read_rated_tiers`]) — one row per dial setting —, and
//! the page the ladder's chart; the ladder must have finished, its tables read as written and
//! bound to its config ([`super::ladder::folder::LadderFolder`]).
//!
//! **Replays.** Each elite plays one game against the run's baseline on the run's first
//! training level, the elite in seat 0, seeded `derive_seed(run seed, [REPLAY_TAG, cell])`;
//! the card names the command that plays it again. Games are played in parallel and the page
//! is the same whatever the thread count.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::evaluate::line_up;
use super::ladder::folder::LadderFolder;
use super::ladder::table::LADDER_CSV;
use super::rated_tiers::read_rated_tiers;
use super::reevaluate::tables::reevaluation_of;
use super::replay::record;
use super::roster::{ROSTER_TOML, RosterFile, read_roster};
use super::run_dir::{CHECKPOINT_JSON, RunDir, read_config};
use super::tiers::read_run_tiers;
use super::validate::tables::{ValidationRow, validation_of};
use super::{GameKind, output_error, thread_pool};
use crate::agents::build_agent_at;
use crate::error::{Error, Result};
use crate::files::{present, write_atomic};
use crate::kit::GameKit;
use crate::limits;
use crate::qd::{ArchiveStats, BatchReport};
use crate::report::archive::{ArchiveRow, PROGRESS_CSV, SE_PREFIX, SETTLED, read_run_progress};
use crate::report::explorer::{Card, Explorer, FeatureRow, RosterMember, RosterSection, page};
use crate::report::heatmap::{cell_boxes, render_svg};
use crate::report::ladder_chart::{ChartRow, render_ladder_svg};
use crate::report::progress_chart::render_progress_svg;
use crate::report::replay::{Replay, ReplaySource, share_parts};
use crate::report::roster_chart::{RosterChart, render_roster_svg};
use crate::rng::derive_seed;
use crate::stats::{Z_95, wilson_interval};

/// File name of the run explorer in a run directory.
pub const REPORT_HTML: &str = "report.html";

/// Tag of the replay seeds ("replay" in ASCII).
pub const REPLAY_TAG: u64 = 0x0000_7265_706c_6179;

/// Validated settings of `playstyles report`.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportConfig {
    /// The run directory.
    pub run_dir: PathBuf,
    /// The run's game (from its `config.toml`).
    pub game: GameKind,
    /// Play and embed one game per elite.
    pub replays: bool,
    /// Worker threads for the replays (`None`: one per core).
    pub threads: Option<usize>,
    /// A ladder whose ratings the cards show.
    pub ladder: Option<PathBuf>,
}

impl ReportConfig {
    /// Settings for the report of `run_dir`, with replays.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `--threads` if it is 0 or above [`limits::max_threads`]; as
    /// [`read_config`] if the directory or its `config.toml` is missing or invalid.
    pub fn new(run_dir: PathBuf, threads: Option<usize>) -> Result<Self> {
        let threads = limits::threads(threads, "--threads")?;
        let game = read_config(&run_dir)?.game;
        Ok(ReportConfig {
            run_dir,
            game,
            replays: true,
            threads,
            ladder: None,
        })
    }
}

/// Writes `report.html` of `run` (atomically) and names it on `out`; `levels` are the run's
/// training levels with their names.
///
/// # Errors
///
/// [`Error::Data`] naming a file of the run that is malformed (and its line where it has one);
/// [`Error::Io`] naming the page if it cannot be written; [`Error::Config`] if an agent spec of the run does
/// not build; [`Error::IllegalChoice`] if an agent of a replay chooses an illegal action.
pub fn report<G: GameKit>(
    game: &G,
    levels: &[(String, G::Level)],
    run: &RunDir,
    cfg: &ReportConfig,
    out: &mut impl Write,
) -> Result<PathBuf> {
    let explorer = explorer(game, levels, run, cfg)?;
    let path = run.dir.join(REPORT_HTML);
    let html = page(&explorer);
    write_atomic(&path, html.as_bytes())?;
    writeln!(
        out,
        "wrote {} ({} elite card{}, {:.0} KiB)",
        path.display(),
        explorer.cards.len(),
        if explorer.cards.len() == 1 { "" } else { "s" },
        html.len() as f64 / 1024.0
    )
    .map_err(output_error)?;
    Ok(path)
}

/// What the page shows, read from the run directory (and the replays played).
fn explorer<G: GameKit>(
    game: &G,
    levels: &[(String, G::Level)],
    run: &RunDir,
    cfg: &ReportConfig,
) -> Result<Explorer> {
    let dir = &run.dir;
    let rows = &run.archive.rows;
    let axes = &run.config.features;
    let boxes = cell_boxes(rows, axes)?;
    let heatmap_svg = render_svg(rows, axes)?;
    let progress_path = dir.join(PROGRESS_CSV);
    let progress: Vec<BatchReport> = if present(&progress_path)? {
        read_run_progress(&progress_path, &dir.join(CHECKPOINT_JSON))?
    } else {
        Vec::new()
    };
    let validated = validation_of(run)?;
    let validation = validation_cards(validated.as_deref().unwrap_or_default());
    let reevaluation = read_reevaluation(run)?;
    let tiers = read_tiers(run, validated.as_deref())?;
    let roster = read_roster(run)?
        .map(|f| roster_section(run, &f))
        .transpose()?;
    let (ratings, ladder) = match &cfg.ladder {
        Some(l) => {
            let (ratings, ladder) = read_ladder(l, dir)?;
            (ratings, Some(ladder))
        }
        None => (BTreeMap::new(), None),
    };
    let replays: Vec<Option<Replay>> = if cfg.replays && !levels.is_empty() {
        let pool = thread_pool(cfg.threads, "--threads")?;
        pool.install(|| {
            rows.par_iter()
                .map(|r| replay_of(game, levels, run, r).map(Some))
                .collect::<Result<Vec<_>>>()
        })?
    } else {
        vec![None; rows.len()]
    };
    let mut cards = Vec::with_capacity(rows.len());
    for ((r, replay), &square) in rows.iter().zip(replays).zip(&boxes.boxes) {
        let (lo, hi) = wilson_interval(u64::from(r.wins), u64::from(r.games), Z_95);
        cards.push(Card {
            cell: r.cell,
            square,
            title: cell_title(run, r),
            weights: run
                .archive
                .weights
                .iter()
                .cloned()
                .zip(r.weights.iter().copied())
                .collect(),
            features: axes
                .iter()
                .enumerate()
                .map(|(k, a)| FeatureRow {
                    name: a.name.clone(),
                    mean: r.means[k],
                    sd: r.sds[k],
                    cell: a.cell_label(r.coords[k]),
                })
                .collect(),
            win_rate: r.win_rate,
            interval: (lo, hi),
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            confidence: confidence(run, r),
            confidence_note: confidence_note(run, r),
            validation: validation.get(&r.cell).cloned().unwrap_or_default(),
            reevaluation: reevaluation.get(&r.cell).cloned().unwrap_or_default(),
            spec: run.agent_spec(r)?,
            tier: tiers.get(&r.cell).cloned(),
            rating: ratings.get(&r.cell).cloned().unwrap_or_default(),
            replay,
        });
    }
    let parts = share_parts(cards.iter_mut().filter_map(|c| c.replay.as_mut()));
    let first = rows
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.win_rate.total_cmp(&b.1.win_rate).then(b.0.cmp(&a.0)))
        .map_or(0, |(i, _)| i);
    let fits: Vec<f64> = rows.iter().map(|r| r.win_rate).collect();
    let stats = ArchiveStats::of(&fits, run.grid.num_cells());
    // The elites nearest the grid's first and last corners (ties: the lower cell).
    let nearest = |corner: &dyn Fn(usize) -> usize| {
        rows.iter()
            .min_by_key(|r| {
                let d: usize = (0..axes.len())
                    .map(|k| r.coords[k].abs_diff(corner(k)).pow(2))
                    .sum();
                (d, r.cell)
            })
            .map(|r| r.cell)
    };
    let opposite = match (nearest(&|_| 0), nearest(&|k| axes[k].cells() - 1)) {
        (Some(a), Some(b)) if a != b => Some((a, b)),
        _ => None,
    };
    let c = &run.config;
    Ok(Explorer {
        name: c.name.clone(),
        subtitle: format!(
            "{}: {} elites in {} cells (coverage {:.1} %), QD score {:.2}, {} evaluations",
            c.game.name(),
            rows.len(),
            run.grid.num_cells(),
            100.0 * stats.coverage,
            stats.qd_score,
            progress.last().map_or(0, |p| p.evaluations)
        ),
        heatmap_svg,
        heatmap_size: boxes.size,
        cards,
        first,
        opposite,
        progress_svg: render_progress_svg(&progress)?,
        config: vec![
            ("game".into(), c.game.name().into()),
            ("seed".into(), c.seed.to_string()),
            (
                "training levels".into(),
                levels
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            ("repetitions".into(), c.repetitions.to_string()),
            ("player".into(), c.player.to_string()),
            ("baseline".into(), c.baseline.to_string()),
            ("genome".into(), run.archive.weights.join(", ")),
            (
                "features".into(),
                axes.iter()
                    .map(|a| format!("{} ({} cells)", a.name, a.cells()))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            ("replacement".into(), format!("{:?}", c.replacement)),
            ("batch size".into(), c.batch_size.to_string()),
        ],
        legend: G::legend(),
        parts,
        defs: G::board_defs(),
        ladder,
        roster,
    })
}

/// The run's roster as the page shows it: a line, the chart, each member with the spec that
/// plays it.
fn roster_section(run: &RunDir, f: &RosterFile) -> Result<RosterSection> {
    let pct = |x: f64| format!("{:.0} %", 100.0 * x);
    let chart = RosterChart {
        names: f.member.iter().map(|m| m.name.clone()).collect(),
        confusion: f.member.iter().map(|m| m.named_as.clone()).collect(),
        member_1: f.member.iter().map(|m| m.accuracy_1).collect(),
        member_3: f.member.iter().map(|m| m.accuracy_3).collect(),
        accuracy_1: f.accuracy_1,
        accuracy_3: f.accuracy_3,
    };
    let s = &f.settings;
    let file = run.dir.join(ROSTER_TOML);
    Ok(RosterSection {
        note: format!(
            "{} personalities picked far apart among the {} of {} elites ({}) whose win rate's \
             95 % interval clears {:.2}; a classifier (LDA over {} per-game statistics) trained \
             on {} games of each on {} names them from one game on {} {:.0} % of the time, \
             from three {:.0} % (chance {}). Files: {ROSTER_TOML} and beside it.",
            f.count,
            s.candidates,
            s.elites,
            s.source,
            s.floor,
            s.statistics,
            s.train_games,
            s.training_levels.join(", "),
            s.test_levels.join(", "),
            100.0 * f.accuracy_1,
            100.0 * f.accuracy_3,
            pct(f.chance),
        ),
        chart_svg: render_roster_svg(&chart)?,
        members: f
            .member
            .iter()
            .map(|m| RosterMember {
                name: m.name.clone(),
                cell: m.cell,
                win_rate: format!(
                    "{} (95 % from {}); held out {}",
                    pct(m.win_rate),
                    pct(m.win_rate_lo),
                    pct(m.held_out_win_rate)
                ),
                accuracy: format!(
                    "{} from one game, {} from three",
                    pct(m.accuracy_1),
                    pct(m.accuracy_3)
                ),
                style: m.style.clone(),
                spec: format!("roster(file={},name={})", file.display(), m.name),
            })
            .collect(),
    })
}

/// The cell of `r` in words: each feature's bounds.
fn cell_title(run: &RunDir, r: &ArchiveRow) -> String {
    run.config
        .features
        .iter()
        .zip(&r.coords)
        .map(|(a, &i)| format!("{} {}", a.name, a.cell_label(i)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// One game of the elite `r` against the run's baseline (N − 1 of them with N players) on
/// the first training level.
fn replay_of<G: GameKit>(
    game: &G,
    levels: &[(String, G::Level)],
    run: &RunDir,
    r: &ArchiveRow,
) -> Result<Replay> {
    let (name, level) = &levels[0];
    let spec = run.agent_spec(r)?;
    let baseline = run.config.baseline.to_string();
    let specs = line_up(game, &levels[..1], &spec, &baseline)?;
    let mut agents = specs
        .iter()
        .map(|s| build_agent_at(game, s, &run.dir))
        .collect::<Result<Vec<_>>>()?;
    let source = ReplaySource {
        program: super::game_kind::program().to_string(),
        game: game.info().name.to_string(),
        level: name.clone(),
        seed: derive_seed(run.config.seed, &[REPLAY_TAG, r.cell as u64]),
        agents: specs,
    };
    record(game, level, source, &mut agents)
}

/// Card rows per cell from the rows of the run's `validation.csv` ([`validation_of`]).
fn validation_cards(rows: &[ValidationRow]) -> BTreeMap<usize, Vec<(String, String)>> {
    let mut out: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
    for r in rows {
        let rows = out.entry(r.cell).or_default();
        if rows.is_empty() {
            rows.push((
                "win rate".into(),
                format!(
                    "{:.1} % over {} held-out games (map {:.1} % over {})",
                    100.0 * r.val_win_rate,
                    r.val_games,
                    100.0 * r.map_win_rate,
                    r.map_games
                ),
            ));
        }
        rows.push((
            r.feature.clone(),
            format!(
                "{:.2} ± {:.2} (map {:.2} ± {:.2}){}",
                r.val_mean,
                r.val_sd,
                r.map_mean,
                r.map_sd,
                if r.stays_in_cell {
                    ", stays in its cell"
                } else {
                    ", leaves its cell"
                }
            ),
        ));
    }
    out
}

/// Card rows per cell from `reevaluated.csv`, if the run has one ([`reevaluation_of`]: read as
/// written and bound to the run's archive).
fn read_reevaluation(run: &RunDir) -> Result<BTreeMap<usize, Vec<(String, String)>>> {
    let mut out = BTreeMap::new();
    let Some(rows) = reevaluation_of(run)? else {
        return Ok(out);
    };
    let features = &run.archive.features;
    for r in rows {
        let (lo, hi) = r.new_win_rate_interval;
        let mut rows = vec![(
            "win rate".to_string(),
            format!(
                "{:.1} % (95 % interval {:.1} to {:.1} %) over {} fresh games (map {:.1} %)",
                100.0 * r.new_win_rate,
                100.0 * lo,
                100.0 * hi,
                r.new_games,
                100.0 * r.map_win_rate
            ),
        )];
        for (f, (mean, sd)) in features.iter().zip(&r.new_features) {
            rows.push((f.clone(), format!("{mean:.2} ± {sd:.2}")));
        }
        rows.push((
            "cell now".into(),
            format!(
                "{}{}",
                r.new_cell.map_or_else(String::new, |c| c.to_string()),
                if r.kept_cell {
                    " (kept its cell)"
                } else {
                    " (moved)"
                }
            ),
        ));
        out.insert(r.cell, rows);
    }
    Ok(out)
}

/// (label, value) rows per cell.
type CellRows = BTreeMap<usize, Vec<(String, String)>>;

/// The ladder in `ladder_dir` as the page shows it: per cell of the run in `run_dir`, the
/// (label, value) rows of its agents' ratings; a line naming the ladder, and its chart.
///
/// # Errors
///
/// As [`LadderFolder::open`], [`LadderFolder::games`] and [`LadderFolder::ratings`] for the
/// ladder's files (each checked as written and bound to its config), and
/// [`read_rated_tiers`] for its `tiers.toml`; [`Error::Data`] naming `ladder.csv` if no agent
/// of it is an elite of this run.
fn read_ladder(ladder_dir: &Path, run_dir: &Path) -> Result<(CellRows, (String, String))> {
    let csv = ladder_dir.join(LADDER_CSV);
    let folder = LadderFolder::open(ladder_dir)?;
    let rows = folder.ratings(&folder.games()?)?;
    let anchor = folder.spec.agents[folder.spec.anchor].name.clone();
    let tiers: BTreeMap<String, String> = read_rated_tiers(&folder, &rows)?
        .unwrap_or_default()
        .into_iter()
        .map(|t| (t.ladder_agent, t.name))
        .collect();
    let same = |run: &str| {
        let a = std::fs::canonicalize(run).ok();
        a.is_some() && a == std::fs::canonicalize(run_dir).ok()
    };
    let mut out: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
    for r in &rows {
        let Some((run, cell)) = &r.elite else {
            continue;
        };
        if !same(run) {
            continue;
        }
        let label = match &r.dial {
            Some(d) => format!("rating at {d}"),
            None => "rating".to_string(),
        };
        let tier = tiers
            .get(&r.agent)
            .map_or_else(String::new, |t| format!(", {t}"));
        out.entry(*cell).or_default().push((
            label,
            format!(
                "{:+.0} Elo (95 % {:+.0} to {:+.0}), rank {} of {}{tier}",
                r.elo,
                r.elo_lo,
                r.elo_hi,
                r.rank,
                rows.len()
            ),
        ));
    }
    if out.is_empty() {
        return Err(Error::data(
            &csv,
            0,
            format!(
                "no agent of this ladder is an elite of {} (its elites name their run in the `run` column)",
                run_dir.display()
            ),
        ));
    }
    let chart: Vec<ChartRow> = rows
        .iter()
        .map(|r| ChartRow {
            name: r.agent.clone(),
            elo: r.elo,
            lo: r.elo_lo,
            hi: r.elo_hi,
            anchor: r.agent == anchor,
        })
        .collect();
    let note = format!(
        "{} agents rated by `ladder` in {} (Bradley–Terry, Elo anchored at {anchor} = 0, 95 % intervals).",
        rows.len(),
        ladder_dir.display()
    );
    Ok((out, (note, render_ladder_svg(&chart)?)))
}

/// Tier names per cell from `tiers.toml`, if the run has one ([`read_run_tiers`]: read as
/// written and bound to the run, `validated` the rows of its `validation.csv`).
fn read_tiers(
    run: &RunDir,
    validated: Option<&[ValidationRow]>,
) -> Result<BTreeMap<usize, String>> {
    Ok(read_run_tiers(run, validated)?
        .unwrap_or_default()
        .into_iter()
        .map(|t| (t.cell, t.name))
        .collect())
}

/// The rows of an elite's confidence under the run's adaptive sampling, from the statistics
/// `archive.csv` keeps for it ([`crate::report::archive::ArchiveTable::with_confidence`]):
/// games and repetitions, each feature's standard error against the target, whether it is
/// settled. Empty for a run without adaptive sampling.
fn confidence(run: &RunDir, r: &ArchiveRow) -> Vec<(String, String)> {
    let Some(a) = run.config.adaptive else {
        return Vec::new();
    };
    let mut rows = vec![(
        "games".to_string(),
        match r.extra.get("repetitions") {
            Some(reps) => format!(
                "{} ({reps} repetitions per level; at most {})",
                r.games, a.max_repetitions
            ),
            None => r.games.to_string(),
        },
    )];
    for axis in &run.config.features {
        let target = a.se_fraction * axis.cell_width();
        let se = r.extra.get(&format!("{SE_PREFIX}{}", axis.name));
        rows.push((
            format!("standard error of {}", axis.name),
            match se {
                Some(se) => format!("{se:.2} (target ≤ {target:.2})"),
                None => format!("- (fewer than two games; target ≤ {target:.2})"),
            },
        ));
    }
    if let Some(&settled) = r.extra.get(SETTLED) {
        let word = if settled == 1.0 {
            "within target"
        } else {
            "above target"
        };
        rows.push(("features' standard errors".to_string(), word.to_string()));
    }
    rows
}

/// The cell's confidence in a few words for its tooltip: `40 games`, and `SE above target`
/// when its features are not settled; empty for a run without adaptive sampling.
fn confidence_note(run: &RunDir, r: &ArchiveRow) -> String {
    if run.config.adaptive.is_none() {
        return String::new();
    }
    let mut note = format!("{} games", r.games);
    if r.extra.get(SETTLED) == Some(&0.0) {
        note += ", SE above target";
    }
    note
}
