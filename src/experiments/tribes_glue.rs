//! The one place where the game-independent workflows meet the Tribes engine.

use std::io::Write;

use super::Command;
use crate::error::Result;

/// Runs `cmd` with the Tribes engine and its default rules.
///
/// - `levels list`: the built-in levels (seed, board size, tribes), one per line;
/// - `levels show SEED`: the level made from `SEED` ([`Level::load`]);
/// - `play`: loads `--level` with [`Level::load`] and plays ([`super::play::play`]);
/// - `bench fm`: benchmarks on every built-in level ([`super::bench::bench`]).
///
/// # Errors
///
/// Bad levels or agent specs, and I/O errors on `out`.
pub fn run_tribes<W: Write>(cmd: Command, out: &mut W) -> Result<()> {
    use super::{BenchTarget, LevelsAction, bench, output_error, play};
    use crate::agents::build::build_search_agent;
    use crate::games::tribes::{Level, TribesGame, TribesRules, builtin};

    let game = TribesGame::new(TribesRules::default());
    match cmd {
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
