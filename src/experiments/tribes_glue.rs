//! The one place where the game-independent workflows meet the Tribes engine.

use std::io::Write;

use super::Command;
use super::config_file::{LevelSet, read_rules};
use super::evolve::{EvolveConfig, evolve};
use super::tournament::{TournamentScales, tournament};
use super::tournament_spec::TournamentConfig;
use crate::agent::SearchSupport;
use crate::agents::AgentSpec;
use crate::agents::build::build_search_agent;
use crate::agents::tribes::portfolio::EVOLVED_WEIGHTS;
use crate::error::{Error, Result};
use crate::games::tribes::{Level, Tech, TribesGame, TribesRules, builtin};

/// Levels with the names reports give them.
type NamedLevels = Vec<(String, Level)>;

/// The names of a level set (the built-in seeds for `paper`) and the levels they load.
///
/// # Errors
///
/// As [`Level::load`], for a level that cannot be read or generated.
fn load_levels(set: &LevelSet) -> Result<(Vec<String>, NamedLevels)> {
    let names: Vec<String> = match set {
        LevelSet::Paper => builtin::SEEDS.iter().map(u64::to_string).collect(),
        LevelSet::List(list) => list.clone(),
    };
    let levels = names
        .iter()
        .map(|name| Ok((name.clone(), Level::load(name)?)))
        .collect::<Result<Vec<_>>>()?;
    Ok((names, levels))
}

/// Plays a Tribes tournament; see [`run_tribes`].
fn run_tournament<W: Write>(cfg: &TournamentConfig, out: &mut W) -> Result<()> {
    let spec = &cfg.spec;
    let rules: TribesRules = read_rules(&spec.rules)?;
    let (names, levels) = load_levels(&spec.levels)?;
    let resolved_rules =
        toml::Table::try_from(rules).map_err(|e| Error::config("rules", e.to_string()))?;
    let config_toml = spec.resolved_toml(resolved_rules, &names)?;
    let scales = TournamentScales {
        techs_total: Some(Tech::ALL.len() as f64),
    };
    let game = TribesGame::new(rules);
    let build = |s: &str| build_search_agent(&game, AgentSpec::parse(s)?);
    tournament(&game, levels, build, cfg, &config_toml, scales, out).map(|_| ())
}

/// Validates a Tribes run: its `[rules]`, and the levels of `--levels` (generated ones for
/// Xin-Xi and Imperius); see [`super::validate`].
fn run_validate<W: Write>(cfg: &super::ValidateConfig, out: &mut W) -> Result<()> {
    use super::validate::{LevelRef, level_refs, validate};
    use crate::games::tribes::{TribeKind, levelgen};

    let run = super::run_dir::RunDir::load(&cfg.run_dir)?;
    let rules: TribesRules = read_rules(&run.config.rules)?;
    let refs = level_refs(
        &cfg.levels,
        &run.config.levels,
        &builtin::SEEDS,
        run.config.seed,
    )?;
    let levels = refs
        .into_iter()
        .map(|r| match r {
            LevelRef::Load(name) => Ok((name.clone(), Level::load(&name)?)),
            LevelRef::Generated(seed) => {
                let level = levelgen::generate(seed, &[TribeKind::XinXi, TribeKind::Imperius]);
                Ok((format!("generated:{seed}"), level))
            }
        })
        .collect::<Result<Vec<_>>>()?;
    validate(&TribesGame::new(rules), levels, &run, cfg, out).map(|_| ())
}

/// Runs a Tribes MAP-Elites run; see [`run_tribes`].
fn run_evolve<W: Write>(cfg: &EvolveConfig, out: &mut W) -> Result<()> {
    let run = &cfg.run;
    let rules: TribesRules = read_rules(&run.rules)?;
    let game = TribesGame::new(rules);
    let portfolio = game.portfolio();
    run.check_scripts(portfolio.script_names())
        .map_err(|e| cfg.located(e))?;
    let scripts: Vec<String> = match &run.scripts {
        Some(s) => s.clone(),
        None => EVOLVED_WEIGHTS.iter().map(|s| s.to_string()).collect(),
    };
    let (names, levels) = load_levels(&run.levels)?;
    let mut resolved = run.clone();
    resolved.file.rules =
        toml::Table::try_from(rules).map_err(|e| Error::config("rules", e.to_string()))?;
    let config_toml = resolved.resolved_toml(&names, &scripts)?;
    evolve(&game, levels, scripts, cfg, &config_toml, out).map(|_| ())
}

/// Runs `cmd` with the Tribes engine and its default rules.
///
/// - `levels list`: the built-in levels (seed, board size, tribes), one per line;
/// - `levels show SEED`: the level made from `SEED` ([`Level::load`]);
/// - `play`: loads `--level` with [`Level::load`] and plays ([`super::play::play`]);
/// - `bench fm`: benchmarks on every built-in level ([`super::bench::bench`]);
/// - `tournament`: reads `[rules]` as [`TribesRules`], loads the levels (`"paper"`: the 25
///   built-in levels of [`builtin::SEEDS`]) and plays ([`super::tournament::tournament`]), with
///   `techs_pct` out of the 24 technologies of the tech tree;
/// - `plot`, `tiers`: game-independent ([`super::plot`], [`super::tiers`]);
/// - `validate`: the run's rules and the chosen levels ([`super::validate`]).
/// - `evolve`: reads `[rules]` as [`TribesRules`], checks the evolved scripts against the
///   portfolio (default: the 11 of [`EVOLVED_WEIGHTS`]), loads the training levels and runs
///   ([`super::evolve::evolve`]).
///
/// # Errors
///
/// Bad levels or agent specs, and I/O errors on `out`.
pub fn run_tribes<W: Write>(cmd: Command, out: &mut W) -> Result<()> {
    use super::{BenchTarget, LevelsAction, bench, output_error, play};

    let game = TribesGame::new(TribesRules::default());
    match cmd {
        Command::Tournament(cfg) => run_tournament(&cfg, out),
        Command::Plot(cfg) => super::plot::plot(&cfg, out),
        Command::Validate(cfg) => run_validate(&cfg, out),
        Command::Tiers(cfg) => super::tiers::tiers(&cfg, out).map(|_| ()),
        Command::Evolve(cfg) => run_evolve(&cfg, out),
        Command::Levels(cfg) => match cfg.action {
            LevelsAction::List => {
                writeln!(out, "{:<16} {:>5} {:>7}", "seed", "size", "tribes")
                    .map_err(output_error)?;
                for seed in builtin::SEEDS {
                    if let Some(level) = builtin::level(seed) {
                        writeln!(
                            out,
                            "{seed:<16} {:>5} {:>7}",
                            level.size,
                            level.capitals.len()
                        )
                        .map_err(output_error)?;
                    }
                }
                Ok(())
            }
            LevelsAction::Show(seed) => {
                let level = Level::load(&seed.to_string())?;
                write!(out, "{}", level.render()).map_err(output_error)
            }
        },
        Command::Play(cfg) => {
            let level = Level::load(&cfg.level)?;
            let build = |spec| build_search_agent(&game, spec);
            play::play(&game, &level, &cfg, &build, out).map(|_| ())
        }
        Command::Bench(cfg) => {
            let levels: Vec<Level> = builtin::SEEDS
                .iter()
                .filter_map(|&s| builtin::level(s))
                .collect();
            match cfg.target {
                BenchTarget::Fm => bench::bench(&game, &levels, &cfg, out).map(|_| ()),
                BenchTarget::Agents => bench::bench_agents(&game, &levels, &cfg, out).map(|_| ()),
            }
        }
    }
}
