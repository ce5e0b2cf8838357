//! Every subcommand for one game: where the game-independent workflows meet a [`GameKit`].

use std::io::Write;
use std::path::Path;

use super::agent_files::keep_files;
use super::calibration::{Calibration, style_of};
use super::config_file::{LevelSet, read_rules};
use super::dataset::{DatasetConfig, DatasetLevels, dataset, header_for};
use super::evaluate::player_counts;
use super::evolve::{EvolveConfig, RunSetup, evolve, kept_config};
use super::games_csv::TableColumns;
use super::ladder::style::{StyleRun, check_style_games, check_styles};
use super::ladder::table::write_ladder_csv;
use super::ladder::{KeptLadder, LadderConfig, ladder};
use super::reevaluate::{ReevaluateConfig, reevaluate};
use super::report::ReportConfig;
use super::roster::{RosterConfig, roster, statistic_names};
use super::run_config::RunConfig;
use super::run_config::{CalibrationConfig, DEFAULT_CALIBRATION_Z, auto_fields};
use super::sensitivity::{SensitivityConfig, Strengths, sensitivity};
use super::tasks::ask::{AskConfig, Asked, ask};
use super::tasks::tell::{TellConfig, Told, tell};
use super::tasks::work::work;
use super::tournament::{KeptAgents, tournament};
use super::tournament_spec::TournamentConfig;
use super::validate::{LevelRef, level_refs, validate};
use super::{
    BenchTarget, Command, Exit, LevelsAction, ValidateConfig, bench, output_error, play, replay,
};
use crate::agent::AgentSpec;
use crate::agents::{build_agent_at, build_agent_from, style_field};
use crate::error::{Error, Result};
use crate::features::{Feature, feature_names};
use crate::kit::GameKit;

/// Levels with the names reports give them.
type NamedLevels<L> = Vec<(String, L)>;

/// The field of a run config naming its training levels.
const RUN_LEVELS: &str = "evaluation.levels";

/// Runs `cmd` with game `G` (default rules unless the command's config has a `[rules]`
/// table).
///
/// - `levels list`: the built-in levels with [`GameKit::level_facts`]; `levels show NAME`: the
///   level [`GameKit::load_level`] makes of `NAME`, drawn by [`GameKit::describe_level`];
/// - `play`: loads `--level` and plays ([`super::play::play`]); `replay` likewise, writing
///   the game's pictures ([`super::replay::replay`]);
/// - `bench`: on every built-in level ([`super::bench`]);
/// - `tournament`, `evolve`: read `[rules]` as [`GameKit::Rules`], load the levels (`"paper"`:
///   [`GameKit::builtin_levels`]) and run ([`super::tournament::tournament`],
///   [`super::evolve::evolve`]; evolve's scripts default to [`GameKit::default_genome`] and
///   its features are resolved against the game; a run finished now, or found finished
///   without its page, gets its explorer page, [`super::report`]);
/// - `ask`, `tell`: the run resolved as for `evolve` ([`super::tasks::ask::ask`],
///   [`super::tasks::tell::tell`]; the `tell` that finishes the schedule writes the explorer
///   page, and a later `ask` or `tell` writes it if it is missing); `work`: the game, rules and features its tasks name ([`super::tasks::work::work`]);
/// - `validate`: the run's rules, features and the chosen levels ([`super::validate`]);
/// - `ladder`: the config's rules and levels ([`super::ladder::ladder`]; the style check's
///   games bounded first, with each elite's run's training levels), then each elite's run's
///   rules, levels and features for the style check ([`super::ladder::style`]), then
///   `ladder.csv`, last;
/// - `reevaluate`: the run's rules, features and training levels ([`super::reevaluate`]);
/// - `roster`: the run's rules, training levels, the levels of `--levels` and every
///   statistic of the game ([`super::roster`]);
/// - `sensitivity`: the config's rules, features, scripts (default:
///   [`GameKit::default_genome`]) and training levels ([`super::sensitivity`]);
/// - `report`: the run's rules and training levels ([`super::report`]);
/// - `plot`, `tiers`: game-independent ([`super::plot`], [`super::tiers`]);
/// - `games`: the facts of `G` ([`describe_game`]).
///
/// # Errors
///
/// Bad levels, features or agent specs, and I/O errors on `out`. `ask` returns
/// [`Exit::Finished`] when the schedule is finished.
pub fn run_game<G: GameKit, W: Write>(cmd: Command, out: &mut W) -> Result<Exit> {
    let game = G::with_rules(G::Rules::default());
    let done = match cmd {
        Command::Ask(cfg) => {
            let (game, setup, evolve) = prepare_run::<G>(&cfg.evolve)?;
            let cfg = AskConfig { evolve };
            return match ask(&game, &setup, &cfg, out)? {
                Asked::Tasks(_) => Ok(Exit::Success),
                Asked::Finished => {
                    // Standard output stays empty when the schedule is finished.
                    report_if_missing(&game, &setup, &cfg.evolve, &mut std::io::sink())?;
                    Ok(Exit::Finished)
                }
            };
        }
        Command::Work(cfg) => work::<G, W>(&cfg, out).map(|_| ()),
        Command::Tell(cfg) => {
            let (game, setup, evolve) = prepare_run::<G>(&cfg.evolve)?;
            let cfg = TellConfig { evolve };
            match tell(&game, &setup, &cfg, out)? {
                Told::Batch { done: true, .. } => {
                    finished_report(&game, &setup, &cfg.evolve, out)?;
                }
                Told::Finished => report_if_missing(&game, &setup, &cfg.evolve, out)?,
                Told::Batch { .. } | Told::Calibration { .. } | Told::Nothing => {}
            }
            Ok(())
        }
        Command::Games => describe_game::<G, W>(out),
        Command::Dataset(cfg) => run_dataset::<G, W>(&cfg, out),
        Command::Train(cfg) => super::train::run_train(&game, &cfg, out).map(|_| ()),
        Command::Tournament(cfg) => run_tournament::<G, W>(&cfg, out),
        Command::Ladder(cfg) => run_ladder::<G, W>(&cfg, out),
        Command::Plot(cfg) => super::plot::plot(&cfg, out),
        Command::Validate(cfg) => run_validate::<G, W>(&cfg, out),
        Command::Reevaluate(cfg) => run_reevaluate::<G, W>(&cfg, out),
        Command::Roster(cfg) => run_roster::<G, W>(&cfg, out),
        Command::Sensitivity(cfg) => run_sensitivity::<G, W>(&cfg, out),
        Command::Report(cfg) => run_report::<G, W>(&cfg, out),
        Command::Tiers(cfg) => super::tiers::tiers(&cfg, out).map(|_| ()),
        Command::Evolve(cfg) => run_evolve::<G, W>(&cfg, out),
        Command::Levels(cfg) => match cfg.action {
            LevelsAction::List => list_levels::<G, W>(out),
            LevelsAction::Show(name) => {
                let level = G::load_level(&name)?;
                write!(out, "{}", G::describe_level(&level)).map_err(output_error)
            }
        },
        Command::Play(cfg) => {
            let level = G::load_level(&cfg.level)?;
            let build = |spec| build_agent_from(&game, spec);
            play::play(&game, &level, &cfg, &build, out).map(|_| ())
        }
        Command::Replay(cfg) => {
            let level = G::load_level(&cfg.level)?;
            let build = |spec| build_agent_from(&game, spec);
            replay::replay(&game, &level, &cfg, &build, out)
        }
        Command::Bench(cfg) => {
            let names = if cfg.levels.is_empty() {
                G::bench_levels(cfg.target)
            } else {
                cfg.levels.clone()
            };
            let levels: Vec<G::Level> = names
                .iter()
                .map(|name| G::load_level(name))
                .collect::<Result<_>>()?;
            match cfg.target {
                BenchTarget::Fm => bench::bench(&game, &levels, &cfg, out).map(|_| ()),
                BenchTarget::Agents => {
                    bench::bench_agents(&game, &G::bench_agents(), &levels, &cfg, out).map(|_| ())
                }
                BenchTarget::Learned => bench::bench_learned(&game, &levels, &cfg, out).map(|_| ()),
            }
        }
    };
    done.map(|()| Exit::Success)
}

/// The names of a level set and the levels they load; `field` names the set in errors.
///
/// # Errors
///
/// As [`GameKit::load_level`], a config error naming `field` (the config's, not the
/// `--level` flag the game names).
fn load_levels<G: GameKit>(
    set: &LevelSet,
    field: &str,
) -> Result<(Vec<String>, NamedLevels<G::Level>)> {
    let names: Vec<String> = match set {
        LevelSet::Paper => G::builtin_levels(),
        LevelSet::List(list) => list.clone(),
    };
    let levels = names
        .iter()
        .map(|name| match G::load_level(name) {
            Ok(level) => Ok((name.clone(), level)),
            Err(Error::Config { reason, .. }) => Err(Error::config(field, reason)),
            Err(e) => Err(e),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((names, levels))
}

/// The run's features resolved for `G`, in axis order.
///
/// # Errors
///
/// [`Error::Config`] naming `features[i].name` and listing the game's features, for a name the
/// game does not have.
pub fn resolve_features<G: GameKit>(game: &G, run: &RunConfig) -> Result<Vec<Feature>> {
    run.features
        .iter()
        .enumerate()
        .map(|(i, axis)| {
            Feature::resolve(
                &axis.name,
                &format!("features[{i}].name"),
                game.info(),
                G::features(),
            )
        })
        .collect()
}

/// The rules as the TOML table a resolved config writes.
fn rules_table<R: serde::Serialize>(rules: &R) -> Result<toml::Table> {
    toml::Table::try_from(rules).map_err(|e| Error::config("rules", e.to_string()))
}

/// Plays a tournament.
fn run_tournament<G: GameKit, W: Write>(cfg: &TournamentConfig, out: &mut W) -> Result<()> {
    let spec = &cfg.spec;
    let rules: G::Rules = read_rules(&spec.rules)?;
    let (names, levels) = load_levels::<G>(&spec.levels, "levels")?;
    // The output folder keeps the files its agents read, so that `--resume` works from any
    // working folder, whatever became of the originals.
    let (kept, files) = spec.keeping_files()?;
    let config_toml = kept.resolved_toml(rules_table(&rules)?, &names)?;
    let columns = TableColumns {
        stats: G::game_columns(),
        summary: G::summary_columns(),
    };
    let game = G::with_rules(rules);
    let build = |s: &str, base: &Path| build_agent_at(&game, s, base);
    let kept = KeptAgents {
        spec: kept,
        files,
        config_toml,
    };
    tournament(&game, levels, build, cfg, &kept, columns, out).map(|_| ())
}

/// Plays a ladder: its `[rules]` and levels, its agents keeping their files in its folder.
fn run_ladder<G: GameKit, W: Write>(cfg: &LadderConfig, out: &mut W) -> Result<()> {
    let spec = &cfg.spec;
    let rules: G::Rules = read_rules(&spec.rules)?;
    let (names, levels) = load_levels::<G>(&spec.levels, "levels")?;
    let mut kept = spec.clone();
    let mut files = Vec::new();
    for (i, a) in kept.agents.iter_mut().enumerate() {
        a.spec = keep_files(&a.spec, &format!("agent[{i}].spec"), &mut files)?;
    }
    let config_toml = kept.resolved_toml(rules_table(&rules)?, &names)?;
    let game = G::with_rules(rules);
    let build = |s: &str, base: &Path| build_agent_at(&game, s, base);
    let kept = KeptLadder {
        spec: kept,
        files,
        config_toml,
    };
    let fingerprint = kept.fingerprint()?;
    // The style check's games, bounded with each elite's training levels before any is played.
    let style_bound = || {
        check_style_games(&kept.spec, |run| {
            let run = super::run_dir::read_config(Path::new(run))?;
            Ok(match &run.levels {
                LevelSet::Paper => G::builtin_levels().len(),
                LevelSet::List(levels) => levels.len(),
            } as u64)
        })
        .map(|_| ())
    };
    let Some(rated) = ladder(&game, levels, build, cfg, &kept, style_bound, out)? else {
        return Ok(());
    };
    let load = |run: &str| -> Result<StyleRun<G>> {
        let run = super::run_dir::RunDir::load(Path::new(run))?;
        let rules: G::Rules = read_rules(&run.config.rules)?;
        let (_, levels) = load_levels::<G>(&run.config.levels, RUN_LEVELS)?;
        let game = G::with_rules(rules);
        let features = resolve_features(&game, &run.config)?;
        Ok(StyleRun {
            run,
            game,
            levels,
            features,
        })
    };
    let dir = &cfg.out;
    check_styles(
        &kept.spec,
        dir,
        &fingerprint,
        load,
        cfg.threads,
        cfg.resume,
        out,
    )?;
    // Last: the mark of a finished ladder.
    write_ladder_csv(dir, &kept.spec, &rated, &fingerprint, out)
}

/// Records a dataset: its `[rules]`, levels and agents.
fn run_dataset<G: GameKit, W: Write>(cfg: &DatasetConfig, out: &mut W) -> Result<()> {
    let located = |e: Error| match e {
        Error::Config { field, reason } => Error::Config {
            field,
            reason: format!("{reason} (in {})", cfg.source),
        },
        e => e,
    };
    let rules: G::Rules = read_rules(&cfg.rules).map_err(located)?;
    let table = rules_table(&rules)?;
    let rules_text = toml::to_string(&table).map_err(|e| Error::config("rules", e.to_string()))?;
    let game = G::with_rules(rules);
    let (names, levels) = match &cfg.levels {
        DatasetLevels::Generated => (Vec::new(), None),
        DatasetLevels::Set(set) => {
            let (names, levels) = load_levels::<G>(set, "levels").map_err(located)?;
            (names, Some(levels))
        }
    };
    let config = cfg.resolved_toml(table, &names);
    let header =
        header_for(&game, cfg.game.name(), &rules_text, config, cfg.predictors).map_err(located)?;
    let build = |s: &str| build_agent_at(&game, s, Path::new("."));
    dataset(&game, levels.as_deref(), build, cfg, header, out).map(|_| ())
}

/// Validates a run: its `[rules]` and features, on the levels of `--levels`.
fn run_validate<G: GameKit, W: Write>(cfg: &ValidateConfig, out: &mut W) -> Result<()> {
    let run = super::run_dir::RunDir::load(&cfg.run_dir)?;
    let rules: G::Rules = read_rules(&run.config.rules)?;
    let levels = chosen_levels::<G>(&cfg.levels, &run)?;
    let game = G::with_rules(rules);
    let features = resolve_features(&game, &run.config)?;
    validate(&game, levels, &features, &run, cfg, out).map(|_| ())
}

/// The levels `--levels` chooses for `run` (`validate`, `roster`), loaded or generated.
///
/// # Errors
///
/// As [`level_refs`]; [`Error::Config`] naming `--levels` for a level the game cannot load.
fn chosen_levels<G: GameKit>(
    choice: &super::validate::LevelChoice,
    run: &super::run_dir::RunDir,
) -> Result<NamedLevels<G::Level>> {
    let refs = level_refs(
        choice,
        &run.config.levels,
        &G::builtin_levels(),
        run.config.seed,
    )?;
    refs.into_iter()
        .map(|r| match r {
            LevelRef::Load(name) => match G::load_level(&name) {
                Ok(level) => Ok((name, level)),
                // `--levels` named it: say so, with the game's reason.
                Err(e) => {
                    let why = match e {
                        Error::Config { reason, .. } => reason,
                        e => e.to_string(),
                    };
                    Err(Error::config(
                        "--levels",
                        format!(
                            "{why} (give held-out, paper, generated:N or a comma-separated \
                             list of levels)"
                        ),
                    ))
                }
            },
            LevelRef::Generated(seed) => {
                Ok((format!("generated:{seed}"), G::generate_level(seed)?))
            }
        })
        .collect()
}

/// Makes a run's roster: its `[rules]`, training levels, the levels of `--levels`, and every
/// per-game statistic of the game ([`super::roster::statistic_names`]).
fn run_roster<G: GameKit, W: Write>(cfg: &RosterConfig, out: &mut W) -> Result<()> {
    let run = super::run_dir::RunDir::load(&cfg.run_dir)?;
    let rules: G::Rules = read_rules(&run.config.rules)?;
    let (_, training) = load_levels::<G>(&run.config.levels, RUN_LEVELS)?;
    let test = chosen_levels::<G>(&cfg.levels, &run)?;
    let game = G::with_rules(rules);
    let map: Vec<String> = run.config.features.iter().map(|a| a.name.clone()).collect();
    let statistics = statistic_names(game.info(), G::features(), &map)
        .iter()
        .map(|n| Feature::resolve(n, "features", game.info(), G::features()))
        .collect::<Result<Vec<_>>>()?;
    roster(&game, training, test, &statistics, &run, cfg, out).map(|_| ())
}

/// Re-evaluates a run's elites: its `[rules]`, features and training levels.
fn run_reevaluate<G: GameKit, W: Write>(cfg: &ReevaluateConfig, out: &mut W) -> Result<()> {
    let run = super::run_dir::RunDir::load(&cfg.run_dir)?;
    let rules: G::Rules = read_rules(&run.config.rules)?;
    let (_, levels) = load_levels::<G>(&run.config.levels, RUN_LEVELS)?;
    let game = G::with_rules(rules);
    let features = resolve_features(&game, &run.config)?;
    reevaluate(&game, levels, &features, &run, cfg, out).map(|_| ())
}

/// Measures a run config's sensitivity to its weights: its `[rules]`, features, scripts and
/// training levels.
fn run_sensitivity<G: GameKit, W: Write>(cfg: &SensitivityConfig, out: &mut W) -> Result<()> {
    let located = |e: Error| match e {
        Error::Config { field, reason } => Error::Config {
            field,
            reason: format!("{reason} (in {})", cfg.source),
        },
        e => e,
    };
    let steered_cfg = SensitivityConfig {
        run: steered::<G>(&cfg.run).map_err(located)?,
        ..cfg.clone()
    };
    let cfg = &steered_cfg;
    let run = &cfg.run;
    let rules: G::Rules = read_rules(&run.rules).map_err(located)?;
    // The games depend on the resolved rules: the measurement's journal keeps them.
    let rules_toml = toml::to_string(&rules_table(&rules)?)
        .map_err(|e| Error::config("rules", e.to_string()))?;
    let game = G::with_rules(rules);
    let features = resolve_features(&game, run).map_err(located)?;
    run.check_scripts(&game.genome_names()).map_err(located)?;
    let scripts = genome_scripts(&game, run);
    let (_, levels) = load_levels::<G>(&run.levels, RUN_LEVELS).map_err(located)?;
    let ladder = sensitivity_ladder(&game, cfg, &levels).map_err(located)?;
    sensitivity(
        &game,
        &rules_toml,
        levels,
        &features,
        scripts,
        ladder.as_ref(),
        cfg,
        out,
    )
    .map(|_| ())
}

/// The ladder of style strengths a sensitivity measurement draws its trade-off over: with
/// `--strengths`, or for a player that says `auto`; the strengths of `--strengths`, else of
/// the config's `[calibration]`, else the player's declared ladder; the floor and `z` of the
/// config's `[calibration]`, else the fair share of `levels` and the default `z`.
///
/// # Errors
///
/// [`Error::Config`] naming the player's setting for `auto` on a field that is not its style
/// strength, or `--strengths` for a player that declares none.
fn sensitivity_ladder<G: GameKit>(
    game: &G,
    cfg: &SensitivityConfig,
    levels: &NamedLevels<G::Level>,
) -> Result<Option<Calibration>> {
    let player = cfg.player();
    let auto = auto_fields(player).first().copied();
    let style = match (auto, &cfg.strengths) {
        (None, None) => return Ok(None),
        (Some(_), _) => style_of(game, player, auto, None, cfg.player_field())?,
        (None, Some(_)) => style_field(game, player),
    };
    let style = style.ok_or_else(|| {
        Error::config(
            "--strengths",
            format!("`{}` declares no style strength", player.name()),
        )
    })?;
    let config = cfg.run.calibration.clone().unwrap_or(CalibrationConfig {
        strengths: None,
        floor: None,
        z: DEFAULT_CALIBRATION_Z,
        repetitions: cfg.repetitions(),
        chosen: None,
    });
    let mut ladder = Calibration::resolve(&config, style, &player_counts(game, levels));
    if let Some(Strengths::List(list)) = &cfg.strengths {
        ladder.strengths = list.clone();
    }
    ladder.repetitions = cfg.repetitions();
    Ok(Some(ladder))
}

/// Writes a run's explorer page.
fn run_report<G: GameKit, W: Write>(cfg: &ReportConfig, out: &mut W) -> Result<()> {
    let run = super::run_dir::RunDir::load(&cfg.run_dir)?;
    let rules: G::Rules = read_rules(&run.config.rules)?;
    let (_, levels) = load_levels::<G>(&run.config.levels, RUN_LEVELS)?;
    let game = G::with_rules(rules);
    super::report::report(&game, &levels, &run, cfg, out).map(|_| ())
}

/// The evolved scripts of `run`: its `[genome] scripts`; without them, every script of the
/// game's portfolio when the run breeds the default steering player (its weights steer what
/// they cover, so the genome covers every choice: on Tribes the attack and move scripts as
/// well as the paper's spawn and research weights), else the game's
/// [`GameKit::default_genome`] (the weights of the experiments' players).
fn genome_scripts<G: GameKit>(game: &G, run: &RunConfig) -> Vec<String> {
    match (&run.scripts, &run.file.evaluation.player) {
        (Some(s), _) => s.clone(),
        (None, None) => game
            .portfolio()
            .script_names()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        (None, Some(_)) => G::default_genome().iter().map(|s| s.to_string()).collect(),
    }
}

/// `run` with the game's own steering player ([`GameKit::steering_player`]) in place of the
/// generic default, when the config names no player and the game has one; its genome then
/// defaults to the scripts the game names.
///
/// # Errors
///
/// [`Error::Config`] naming `evaluation.player` if the game's spec does not parse.
fn steered<G: GameKit>(run: &RunConfig) -> Result<RunConfig> {
    let mut run = run.clone();
    let budget = run
        .file
        .evaluation
        .budget
        .and_then(|b| u64::try_from(b).ok());
    if run.file.evaluation.player.is_none()
        && let Some((spec, genome)) = G::steering_player(budget)
    {
        run.player = AgentSpec::parse(&spec)
            .map_err(|e| Error::config("evaluation.player", e.to_string()))?;
        if run.scripts.is_none() {
            run.scripts = Some(genome.iter().map(|s| s.to_string()).collect());
        }
    }
    Ok(run)
}

/// Runs a MAP-Elites run.
fn run_evolve<G: GameKit, W: Write>(cfg: &EvolveConfig, out: &mut W) -> Result<()> {
    let (game, setup, cfg) = prepare_run::<G>(cfg)?;
    let cfg = &cfg;
    let summary = evolve(&game, &setup, cfg, out)?;
    if summary.done && summary.batches_run > 0 {
        finished_report(&game, &setup, cfg, out)?;
    } else if summary.done {
        report_if_missing(&game, &setup, cfg, out)?;
    }
    Ok(())
}

/// The run `cfg` resolved for `G`: the game with the run's rules, and the run's levels,
/// features, scripts (default: [`GameKit::default_genome`]), agent specs naming the run's
/// copies of the files they read and those files ([`keep_files`]), and resolved
/// `config.toml` (the run directory's own, if an earlier version wrote this run's there:
/// [`kept_config`]).
///
/// # Errors
///
/// Bad rules, features, scripts or levels, naming the field and the config file.
fn prepare_run<G: GameKit>(cfg: &EvolveConfig) -> Result<(G, RunSetup<G::Level>, EvolveConfig)> {
    let mut cfg = cfg.clone();
    cfg.run = steered::<G>(&cfg.run).map_err(|e| cfg.located(e))?;
    let run = &cfg.run;
    let rules: G::Rules = read_rules(&run.rules)?;
    let game = G::with_rules(rules.clone());
    let features = resolve_features(&game, run).map_err(|e| cfg.located(e))?;
    run.check_scripts(&game.genome_names())
        .map_err(|e| cfg.located(e))?;
    let scripts = genome_scripts(&game, run);
    let (names, levels) = load_levels::<G>(&run.levels, RUN_LEVELS).map_err(|e| cfg.located(e))?;
    run.check_batch_games(levels.len())
        .map_err(|e| cfg.located(e))?;
    cfg.run.resolve_floor(&player_counts(&game, &levels));
    let run = &cfg.run;
    let mut resolved = run.clone();
    let rules = rules_table(&rules)?;
    resolved.file.rules = rules.clone();
    let mut files = Vec::new();
    let player =
        keep_files(&run.player, "evaluation.player", &mut files).map_err(|e| cfg.located(e))?;
    let baseline =
        keep_files(&run.baseline, "evaluation.baseline", &mut files).map_err(|e| cfg.located(e))?;
    // Rewritten only where they name files (elsewhere as written, byte for byte).
    if player != run.player {
        resolved.file.evaluation.player = Some(player.to_string());
    }
    if baseline != run.baseline {
        resolved.file.evaluation.baseline = Some(baseline.to_string());
    }
    // The player's style strength, calibrated where it says `auto`: the settings resolved
    // for the game (its ladder, the levels' fair share) and written out.
    let chosen = run.calibration.as_ref().and_then(|c| c.chosen);
    let style = style_of(
        &game,
        &run.player,
        run.auto_field(),
        chosen,
        "evaluation.player",
    )
    .map_err(|e| cfg.located(e))?;
    let calibration = match (&run.calibration, style) {
        (Some(c), Some(style)) => {
            let cal = Calibration::resolve(c, style, &player_counts(&game, &levels));
            cal.check_games(scripts.len(), features.len(), levels.len())
                .map_err(|e| cfg.located(e))?;
            resolved.file.calibration = Some(cal.file(chosen));
            run.auto_field().is_some().then_some(cal)
        }
        _ => None,
    };
    let config_toml = resolved.resolved_toml(&names, &scripts)?;
    let config_toml = kept_config(&cfg.out, config_toml, cfg.force);
    let setup = RunSetup {
        levels,
        features,
        scripts,
        rules,
        player,
        baseline,
        files,
        config_toml,
        calibration,
    };
    Ok((game, setup, cfg))
}

/// The explorer page of a finished run (written by `evolve` and by the `tell` that finishes
/// the schedule).
fn finished_report<G: GameKit, W: Write>(
    game: &G,
    setup: &RunSetup<G::Level>,
    cfg: &EvolveConfig,
    out: &mut W,
) -> Result<()> {
    let dir = super::run_dir::RunDir::load(&cfg.out)?;
    let report = ReportConfig {
        run_dir: cfg.out.clone(),
        game: cfg.run.game,
        replays: true,
        threads: cfg.threads,
        ladder: None,
    };
    super::report::report(game, &setup.levels, &dir, &report, out).map(|_| ())
}

/// The explorer page of a finished run, if the run directory lacks it: a command killed
/// after the run's last checkpoint and before its page is completed by running it again
/// (`evolve`, `ask` or `tell`).
fn report_if_missing<G: GameKit, W: Write>(
    game: &G,
    setup: &RunSetup<G::Level>,
    cfg: &EvolveConfig,
    out: &mut W,
) -> Result<()> {
    if cfg.out.join(super::report::REPORT_HTML).is_file() {
        return Ok(());
    }
    finished_report(game, setup, cfg, out)
}

/// `playstyles levels list`: one line per built-in level, its name and facts.
fn list_levels<G: GameKit, W: Write>(out: &mut W) -> Result<()> {
    let names = G::builtin_levels();
    let mut rows = Vec::new();
    for name in &names {
        rows.push((name, G::level_facts(&G::load_level(name)?)));
    }
    let columns: Vec<&str> = rows
        .first()
        .map(|(_, facts)| facts.iter().map(|(c, _)| *c).collect())
        .unwrap_or_default();
    let mut header = format!("{:<16}", "name");
    for c in &columns {
        header.push_str(&format!(" {c:>w$}", w = c.len() + 1));
    }
    writeln!(out, "{}", header.trim_end()).map_err(output_error)?;
    for (name, facts) in rows {
        let mut line = format!("{name:<16}");
        for (c, v) in &facts {
            line.push_str(&format!(" {v:>w$}", w = c.len() + 1));
        }
        writeln!(out, "{line}").map_err(output_error)?;
    }
    Ok(())
}

/// The facts of game `G`, as `playstyles games` prints them.
///
/// # Errors
///
/// I/O errors on `out`.
pub fn describe_game<G: GameKit, W: Write>(out: &mut W) -> Result<()> {
    let game = G::with_rules(G::Rules::default());
    let info = game.info();
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let composites: Vec<String> = G::features()
        .iter()
        .map(|c| {
            let won = if c.won_only { ", won games only" } else { "" };
            format!("    {:<22} {}{won}", c.name, c.doc)
        })
        .collect();
    let generic = feature_names(info, &[]);
    let text = format!(
        "{name}\n  players: {min}-{max}\n  chance: {chance}\n  hidden information: {hidden}\n  \
         phases: {phases}\n  actor classes: {actors}\n  action kinds: {kinds}\n  statistics: \
         {stats}\n  built-in levels: {levels}\n  default genome: {genome}\n  features of \
         {name}:\n{composites}\n  generic features ({n}; any may end in /turn, then @won): \
         {generic}\n",
        name = info.name,
        min = info.min_players,
        max = info.max_players,
        chance = yes_no(info.chance),
        hidden = yes_no(info.hidden_information),
        phases = info.phases.join(", "),
        actors = info.actor_classes.join(", "),
        kinds = info.action_kinds.join(", "),
        stats = info.stats.join(", "),
        levels = G::builtin_levels().len(),
        genome = G::default_genome().join(", "),
        composites = composites.join("\n"),
        n = generic.len(),
        generic = generic.join(", "),
    );
    write!(out, "{text}").map_err(output_error)
}
