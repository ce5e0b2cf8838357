//! The largest counts and budgets the tool accepts, in one place, each with the reason for it.
//!
//! Every count a user gives (in a config, an agent spec, a bot file or a flag) is checked
//! against its maximum before anything is allocated or played, so that a typo such as
//! `repetitions = 4294967295` is an error naming the field (exit code 2) instead of an
//! allocation failure or a run that never ends. The maxima sit far above every committed
//! experiment and the paper-scale runs (`experiments/paper-scale.sh`), and low enough that what
//! they allow fits in the memory of a 24 GiB machine; wanting more is a sign of a typo, or of
//! a job to split into several runs.

use crate::error::{Error, Result};

/// Most search effort per decision: the `budget` of `osla`, `mcts`, `pmcts`, `rhea` and
/// Puerto Rico's `thinking` (forward-model calls or simulations), the `traversals` of
/// Prismata's UCT and Portfolio MCTS players and the `evaluations` of its Alpha-Beta players
/// (in specs and bot files). 1,000,000: 40 times the largest committed budget (25,000). MCTS
/// keeps a tree node per forward-model call, about 2.4 KB each on a Tribes level, so its tree
/// holds about 2.4 GB at this budget and would not fit 24 GiB at ten times it.
pub const MAX_BUDGET: u64 = 1_000_000;

/// Most actions in a RHEA individual (`rhea(length=…)`, default 20): 10,000, far more than a
/// whole game has (a Tribes game is a few hundred actions), so the longest useful horizon.
pub const MAX_RHEA_LENGTH: u64 = 10_000;

/// Most improvement rounds of Prismata's Portfolio Greedy Search (`PGSAI(iterations=…)` and
/// `responses`): 100, the bound the bot files' `improvement_iterations` and `responses` are
/// clamped to (each round plays a playout per script and phase).
pub const MAX_PGS_ROUNDS: u64 = 100;

/// Most games per level of one player or pairing (`repetitions` of run and tournament configs,
/// `validate --repetitions`): 100,000, 200 times the largest committed (500).
pub const MAX_REPETITIONS: u64 = 100_000;

/// Most levels one command plays (`levels` of a config, `validate --levels`): 10,000, 100
/// times the largest built-in set (Prismata's 100). Every level is loaded or generated before
/// the first game.
pub const MAX_LEVELS: u64 = 10_000;

/// Most games one command plans at once: a tournament (levels × repetitions × pairings), a
/// batch of `evolve` or `ask` (batch_size × levels × repetitions), a validation (elites ×
/// levels × repetitions), a re-evaluation (elites × `--games`). 1,000,000: 280 times the
/// paper-scale Table I (3,500 games). The games' records stay in memory (a few hundred bytes
/// each) and their rows in `games.csv` stay well under [`crate::files::DATA_LIMIT`], which
/// `--resume` reads back.
pub const MAX_GAMES: u64 = 1_000_000;

/// Most genomes a MAP-Elites run evaluates (`random_init` + `iterations`, plus the one-hot
/// genomes): 1,000,000, 1,800 times the paper's 551. Each batch adds a row to `progress.csv`,
/// which `--resume` reads back within [`crate::files::DATA_LIMIT`].
pub const MAX_EVALUATIONS: u64 = 1_000_000;

/// Most cells along one feature axis of a map: 200, the most a heatmap draws readably; every
/// run draws its heatmaps after each batch, so a larger axis is refused with the config.
pub const MAX_AXIS_CELLS: usize = 200;

/// Widest first hidden layer of a value network (`train --hidden`): 4,096, 64 times the
/// default (64) and 16 times the widest committed model; the layer's weights are also bounded
/// by [`MAX_FIRST_LAYER`].
pub const MAX_HIDDEN: u64 = 4096;

/// Widest second hidden layer (`train --second`): 1,024, 32 times the default (32); with
/// [`MAX_HIDDEN`] its weights take at most 16 MiB.
pub const MAX_SECOND: u64 = 1024;

/// Most first-layer weights of a value network (`train --hidden` × the encoding's inputs):
/// 2^28, 1 GiB of f32, which training keeps three times (the weights and Adam's two moments).
pub const MAX_FIRST_LAYER: u64 = 1 << 28;

/// Most passes over a dataset (`train --epochs`): 1,000, 250 times the default (4); a model
/// that needs more is better served by a larger `--rate` or more games.
pub const MAX_EPOCHS: u64 = 1000;

/// Most positions per Adam step (`train --batch`): 65,536, 256 times the default (256).
pub const MAX_BATCH: u64 = 65_536;

/// Most tiers `tiers --count` picks: 1,000, 200 times the default (5) and five times the most
/// agents a ladder rates (200); tiers are steps a player feels, so more is a typo. The pick
/// from a ladder keeps a table of agents × tiers.
pub const MAX_TIERS: u64 = 1_000;

/// Most style strengths one calibration tries (`[calibration] strengths`, `sensitivity
/// --strengths`): 100, 14 times the default ladders' longest (7); each plays every feature's
/// two extreme genomes.
pub const MAX_STRENGTHS: u64 = 100;

/// Most members of a roster (`roster --count N`, and the largest `--count auto:N`): 64, eight
/// times the issue's goal of eight personalities. The classifier keeps a covariance of the
/// per-game statistics (a few hundred: a few MiB) and a mean per member; naming one of more
/// personalities than a player can tell apart is no roster.
pub const MAX_ROSTER: u64 = 64;

/// Most games of a roster (members × (`--train-games` + `--test-games`)): 200,000. Each
/// game keeps every per-game statistic the game declares (about 150 for Puerto Rico, some
/// 3 KB as JSON), in memory, in `roster_games.csv` and in the journal a killed roster resumes
/// from: about 600 MB, within [`crate::files::DATA_LIMIT`].
pub const MAX_ROSTER_GAMES: u64 = 200_000;

/// Fewest worker threads [`max_threads`] allows, whatever the number of cores.
pub const MIN_THREAD_CAP: usize = 256;

/// Worker threads per core [`max_threads`] allows.
pub const THREADS_PER_CORE: usize = 8;

/// Most worker threads (`--threads`, `SLURM_CPUS_PER_TASK`): the larger of
/// [`MIN_THREAD_CAP`] (256) and [`THREADS_PER_CORE`] (8) per core. The games are CPU-bound,
/// so more threads than cores only slow them down (10,000 threads ran 20–30 times slower);
/// a few per core leave room for an oversubscribed cluster node.
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    MIN_THREAD_CAP.max(THREADS_PER_CORE.saturating_mul(cores))
}

/// `value` if it is at most `max`.
///
/// # Errors
///
/// [`Error::Config`] naming `field` with the maximum if `value` is larger.
pub fn at_most(value: u64, max: u64, field: &str) -> Result<u64> {
    if value > max {
        return Err(Error::config(
            field,
            format!("{value} is more than the maximum of {}", grouped(max)),
        ));
    }
    Ok(value)
}

/// A worker thread count from a flag: `None` (one per core) or 1 to [`max_threads`].
///
/// # Errors
///
/// [`Error::Config`] naming `field` if the count is 0 or above [`max_threads`].
pub fn threads(threads: Option<usize>, field: &str) -> Result<Option<usize>> {
    match threads {
        Some(0) => Err(Error::config(field, "must be at least 1")),
        Some(t) if t > max_threads() => Err(Error::config(
            field,
            format!(
                "{t} is more than the maximum of {} threads ({THREADS_PER_CORE} per core, at least {MIN_THREAD_CAP})",
                max_threads()
            ),
        )),
        t => Ok(t),
    }
}

/// The number of games `factors` multiply to (e.g. levels × repetitions × pairings), if it is
/// at most [`MAX_GAMES`].
///
/// # Errors
///
/// [`Error::Config`] naming `field` (the count to lower) if the product is larger; the reason
/// shows the product as `what` (e.g. `2 levels × 4294967295 repetitions × 1 pairing`).
pub fn games(factors: &[(u64, &str)], field: &str) -> Result<u64> {
    let total = factors
        .iter()
        .try_fold(1u64, |acc, &(n, _)| acc.checked_mul(n));
    match total {
        Some(t) if t <= MAX_GAMES => Ok(t),
        _ => {
            let what = factors
                .iter()
                .map(|(n, unit)| format!("{n} {unit}"))
                .collect::<Vec<_>>()
                .join(" × ");
            let total = total.map_or("more than 2⁶⁴".into(), |t| t.to_string());
            Err(Error::config(
                field,
                format!(
                    "{what} = {total} games, more than the maximum of {} at once",
                    grouped(MAX_GAMES)
                ),
            ))
        }
    }
}

/// `n` with thousands separated by commas (`1,000,000`).
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_and_reason(e: Error) -> (String, String) {
        match e {
            Error::Config { field, reason } => (field, reason),
            e => panic!("{e}"),
        }
    }

    #[test]
    fn a_value_above_its_maximum_names_the_field_and_the_maximum() {
        assert_eq!(
            at_most(MAX_BUDGET, MAX_BUDGET, "budget").unwrap(),
            MAX_BUDGET
        );
        let (field, reason) =
            field_and_reason(at_most(u64::MAX, MAX_BUDGET, "budget").unwrap_err());
        assert_eq!(field, "budget");
        assert_eq!(
            reason,
            "18446744073709551615 is more than the maximum of 1,000,000"
        );
    }

    #[test]
    fn threads_are_one_to_a_multiple_of_the_cores() {
        assert!(max_threads() >= MIN_THREAD_CAP);
        assert_eq!(threads(None, "--threads").unwrap(), None);
        assert_eq!(threads(Some(2), "--threads").unwrap(), Some(2));
        assert_eq!(
            threads(Some(max_threads()), "--threads").unwrap(),
            Some(max_threads())
        );
        for bad in [0, max_threads() + 1, usize::MAX] {
            let (field, _) = field_and_reason(threads(Some(bad), "--threads").unwrap_err());
            assert_eq!(field, "--threads");
        }
    }

    #[test]
    fn a_product_of_games_above_the_maximum_names_the_field_and_shows_the_product() {
        assert_eq!(games(&[(2, "levels"), (4, "repetitions")], "r").unwrap(), 8);
        let (field, reason) = field_and_reason(
            games(&[(2, "levels"), (600_000, "repetitions")], "repetitions").unwrap_err(),
        );
        assert_eq!(field, "repetitions");
        assert_eq!(
            reason,
            "2 levels × 600000 repetitions = 1200000 games, more than the maximum of 1,000,000 at once"
        );
        let (_, reason) = field_and_reason(games(&[(u64::MAX, "a"), (2, "b")], "a").unwrap_err());
        assert!(reason.contains("more than 2⁶⁴"), "{reason}");
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(100_000), "100,000");
        assert_eq!(grouped(1_000_000), "1,000,000");
    }
}
