//! Your own game with playstyles: Pig ([`game`]) and a MAP-Elites run over its portfolio's
//! script weights, written against the library's public API only.
//!
//! `cargo run --release --example pig [OUT_DIR]` breeds Portfolio MCTS players for 2-player
//! Pig that differ in how greedy they are (mean points banked per hold × rolls per turn), each
//! evaluated against a plain MCTS baseline, and writes `archive.csv`, `heatmap.png` and
//! `heatmap.svg` into `OUT_DIR` (default `results/pig-example/`). It takes well under a minute.

mod game;

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use game::PigGame;
use playstyles::experiments::evaluate::{evaluate_player, with_weights};
use playstyles::kit::GameKit;
use playstyles::qd::{
    Domain, EmitterConfig, Evaluation, FeatureAxis, GenomeSpace, MapElites, MapElitesConfig,
    Replacement,
};
use playstyles::report::archive::{ARCHIVE_CSV, ArchiveTable, write_archive_csv};
use playstyles::report::heatmap::{HEATMAP_PNG, write_heatmaps};
use playstyles::rng::derive_seed;
use playstyles::{AgentSpec, Error, Feature, Game, Result};

/// The evolved player: Portfolio MCTS whose script weights are the genome.
const PLAYER: &str = "pmcts(budget=400,bias=true,pruning=true)";
/// Its opponent in every game.
const BASELINE: &str = "mcts(budget=100)";
/// Games per evaluation (seats rotated).
const GAMES: u32 = 12;
/// The run seed: the same seed gives the same archive on any number of threads.
const SEED: u64 = 1;

fn main() -> Result<()> {
    let started = Instant::now();
    let out = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("results/pig-example"), PathBuf::from);

    // 1. The game, its training level (2 players) and its script names (the genome's genes).
    let game = PigGame::default();
    let levels = vec![("2".to_string(), PigGame::load_level("2")?)];
    let scripts: Vec<String> = PigGame::default_genome()
        .iter()
        .map(|s| s.to_string())
        .collect();

    // 2. The play-style features, resolved by name (Pig's own composites; generic names such
    //    as `kind:roll/turn` or `final:busts` work too), and one map axis per feature.
    let names = ["hold_total", "rolls_per_turn"];
    let features = names
        .iter()
        .map(|n| Feature::resolve(n, "features", game.info(), PigGame::features()))
        .collect::<Result<Vec<_>>>()?;
    let axes = vec![
        FeatureAxis::bucket(names[0], 4.0, 18.0, 1.0)?,
        FeatureAxis::bins(names[1], 1.5, 4.0, 10)?,
    ];

    // 3. The MAP-Elites run: one-hot genomes, random ones, then mutated elites.
    let mut me = MapElites::new(MapElitesConfig {
        seed: SEED,
        batch_size: 16,
        space: GenomeSpace::new(scripts.clone(), Domain::default())?,
        axes,
        replacement: Replacement::Paper,
        emitter: EmitterConfig {
            one_hot: true,
            random_init: 26,
            iterations: 400,
            ..EmitterConfig::default()
        },
    })?;
    let player = AgentSpec::parse(PLAYER)?;
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let evaluate = |genome: &playstyles::Genome, index: u64| -> Evaluation {
        let result = with_weights(&player, &scripts, &genome.values).and_then(|spec| {
            let seed = derive_seed(SEED, &[index]);
            evaluate_player(&game, &levels, GAMES, seed, &spec, BASELINE, &features)
        });
        result.unwrap_or_else(|e| {
            if let Ok(mut f) = failure.lock() {
                f.get_or_insert(e);
            }
            Evaluation::default()
        })
    };
    while let Some(batch) = me.ask() {
        let evaluations = batch.evaluate(&evaluate);
        if let Some(e) = failure.lock().ok().and_then(|mut f| f.take()) {
            return Err(e);
        }
        me.tell(batch, evaluations)?;
    }

    // 4. The results: archive rows and the heatmaps.
    std::fs::create_dir_all(&out).map_err(|e| Error::io(&out, e))?;
    let table = ArchiveTable::from_archive(me.archive(), &me.config().space);
    write_archive_csv(&out.join(ARCHIVE_CSV), &table)?;
    write_heatmaps(&table.rows, me.archive().axes(), &out)?;

    let stats = me.archive().stats();
    println!(
        "pig: {} evaluations, {} games in {:.1} s",
        me.evaluations(),
        me.games(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "  {} elites of {} cells, best win rate {:.0} % against {BASELINE}",
        stats.num_elites,
        me.archive().num_cells(),
        100.0 * stats.max_fitness.unwrap_or(0.0)
    );
    if let Some(best) = table
        .rows
        .iter()
        .max_by(|a, b| a.win_rate.total_cmp(&b.win_rate))
    {
        let weights: Vec<String> = scripts
            .iter()
            .zip(&best.weights)
            .map(|(s, w)| format!("{s}={w}"))
            .collect();
        println!(
            "  best: {} {:.1}, {} {:.2}; weights {}",
            names[0],
            best.means[0],
            names[1],
            best.means[1],
            weights.join(" ")
        );
    }
    println!("heatmap: {}", out.join(HEATMAP_PNG).display());
    println!("archive: {}", out.join(ARCHIVE_CSV).display());
    Ok(())
}
