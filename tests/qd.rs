//! The MAP-Elites engine on toy objectives: cells, insertion, stats, schedule, determinism,
//! resume, checkpoints, CSV and heatmaps.

use std::collections::BTreeMap;

use playstyles::qd::{
    AddStatus, Checkpoint, Domain, EmitterConfig, EmitterKind, Evaluation, FeatureAxis, Genome,
    GenomeSpace, GridArchive, MapElites, MapElitesConfig, Phase, Replacement, ScheduleEmitter,
    Sigma,
};
use playstyles::report::archive::{
    ArchiveTable, read_archive_csv, read_progress_csv, write_archive_csv, write_progress_csv,
};
use playstyles::report::heatmap::write_heatmaps;
use playstyles::rng::{derive_rng, mix64};

use crate::support::cli::scratch;

fn eval(fitness: f64, tie_break: f64, descriptors: &[f64]) -> Evaluation {
    Evaluation {
        fitness,
        tie_break,
        games: 10,
        wins: (fitness * 10.0).round() as u32,
        draws: 0,
        descriptor_means: descriptors.to_vec(),
        descriptor_spreads: vec![0.0; descriptors.len()],
        descriptor_counts: Vec::new(),
        extra: BTreeMap::new(),
    }
}

fn g(x: f64) -> Genome {
    Genome::new(vec![x])
}

fn attacks_archive(rule: Replacement) -> GridArchive {
    GridArchive::new(
        vec![FeatureAxis::bucket("attacks", 0.0, 20.0, 2.0).unwrap()],
        rule,
    )
    .unwrap()
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("w{i}")).collect()
}

#[test]
fn spec_examples_land_in_the_right_bucket() {
    let a = FeatureAxis::bucket("attacks", 0.0, 20.0, 2.0).unwrap();
    assert_eq!(a.cells(), 12);
    for (v, cell) in [
        (0.0, 0),
        (20.0, 11),
        (1.0, 1),
        (3.0, 2),
        (2.0, 1),
        (19.0, 10),
    ] {
        assert_eq!(a.index_of(v), cell, "value {v}");
    }
}

#[test]
fn out_of_range_descriptors_go_to_edge_cells() {
    let a = FeatureAxis::bucket("attacks", 0.0, 20.0, 2.0).unwrap();
    assert_eq!(a.index_of(-7.0), 0);
    assert_eq!(a.index_of(250.0), 11);
    let b = FeatureAxis::bins("x", 0.0, 1.0, 4).unwrap();
    assert_eq!(b.index_of(-0.1), 0);
    assert_eq!(b.index_of(1.5), 3);
    let archive = GridArchive::new(vec![a, b], Replacement::Paper).unwrap();
    assert_eq!(
        archive.index_of(&[99.0, -3.0]).unwrap(),
        archive.grid_to_index(&[11, 0]).unwrap()
    );
}

#[test]
fn add_status_is_ordered_like_pyribs() {
    assert!(AddStatus::NotAdded < AddStatus::ImproveExisting);
    assert!(AddStatus::ImproveExisting < AddStatus::New);
}

#[test]
fn add_status_transitions_new_improve_not_added() {
    let mut a = attacks_archive(Replacement::Paper);
    assert_eq!(
        a.add(g(0.0), eval(0.5, 10.0, &[3.0])).unwrap(),
        AddStatus::New
    );
    assert_eq!(
        a.add(g(1.0), eval(0.6, 0.0, &[4.0])).unwrap(),
        AddStatus::ImproveExisting
    );
    assert_eq!(
        a.add(g(2.0), eval(0.4, 99.0, &[3.0])).unwrap(),
        AddStatus::NotAdded
    );
    // A tie on both numbers keeps the incumbent; a tie on fitness goes to the higher score.
    assert_eq!(
        a.add(g(3.0), eval(0.6, 0.0, &[3.0])).unwrap(),
        AddStatus::NotAdded
    );
    assert_eq!(
        a.add(g(4.0), eval(0.6, 0.5, &[3.0])).unwrap(),
        AddStatus::ImproveExisting
    );
    let cell = a.index_of(&[3.0]).unwrap();
    let e = a.elite(cell).unwrap();
    assert_eq!((e.genome.values[0], e.index), (4.0, 4));
    assert_eq!(a.len(), 1);
    assert_eq!(a.offered(), 5);
}

#[test]
fn within_a_batch_only_the_best_candidate_per_cell_is_inserted() {
    let mut a = attacks_archive(Replacement::Paper);
    a.add(g(-1.0), eval(0.5, 0.0, &[10.0])).unwrap();
    let statuses = a
        .add_batch(vec![
            (g(0.0), eval(0.2, 0.0, &[0.0])),
            (g(1.0), eval(0.8, 1.0, &[0.0])),
            (g(2.0), eval(0.8, 1.0, &[0.0])), // ties with 1: the earlier stays
            (g(3.0), eval(0.4, 0.0, &[10.0])),
            (g(4.0), eval(0.7, 0.0, &[10.0])),
            (g(5.0), eval(0.6, 0.0, &[10.0])),
        ])
        .unwrap();
    use AddStatus::*;
    // Statuses are relative to the archive before the batch (pyribs).
    assert_eq!(
        statuses,
        [New, New, New, NotAdded, ImproveExisting, ImproveExisting]
    );
    let best = |d: f64| a.elite(a.index_of(&[d]).unwrap()).unwrap();
    assert_eq!((best(0.0).genome.values[0], best(0.0).index), (1.0, 2));
    assert_eq!((best(10.0).genome.values[0], best(10.0).index), (4.0, 5));
    assert_eq!(a.len(), 2);
}

#[test]
fn a_bad_evaluation_adds_nothing_and_names_its_index() {
    let mut a = attacks_archive(Replacement::Paper);
    let e = a
        .add_batch(vec![
            (g(0.0), eval(0.2, 0.0, &[0.0])),
            (g(1.0), eval(f64::NAN, 0.0, &[1.0])),
        ])
        .unwrap_err();
    assert!(e.to_string().contains("evaluation 1"), "{e}");
    assert!(a.is_empty());
    assert_eq!(a.offered(), 0);
    assert!(a.add(g(0.0), eval(0.2, 0.0, &[0.0, 1.0])).is_err());
}

#[test]
fn stats_sum_and_average_elite_fitness() {
    let mut a = attacks_archive(Replacement::Paper);
    let s = a.stats();
    assert_eq!(
        (s.num_elites, s.qd_score, s.max_fitness, s.mean_fitness),
        (0, 0.0, None, None)
    );
    a.add_batch(vec![
        (g(0.0), eval(0.25, 0.0, &[0.0])),
        (g(1.0), eval(0.75, 0.0, &[5.0])),
        (g(2.0), eval(0.5, 0.0, &[20.0])),
    ])
    .unwrap();
    let s = a.stats();
    assert_eq!(s.num_elites, 3);
    assert_eq!(s.coverage, 3.0 / 12.0);
    assert_eq!(s.qd_score, 1.5);
    assert_eq!(s.norm_qd_score, 1.5 / 12.0);
    assert_eq!(s.max_fitness, Some(0.75));
    assert_eq!(s.mean_fitness, Some(0.5));
}

#[test]
fn paper_and_lower_confidence_rules_differ_on_few_games() {
    let lucky = Evaluation {
        games: 1,
        wins: 1,
        ..eval(1.0, 0.0, &[5.0])
    };
    let solid = Evaluation {
        games: 20,
        wins: 18,
        ..eval(0.9, 0.0, &[5.0])
    };
    let mut paper = attacks_archive(Replacement::Paper);
    paper.add(g(0.0), solid.clone()).unwrap();
    assert_eq!(
        paper.add(g(1.0), lucky.clone()).unwrap(),
        AddStatus::ImproveExisting
    );

    let mut lcb = attacks_archive(Replacement::LowerConfidence { z: 1.96 });
    lcb.add(g(0.0), solid.clone()).unwrap();
    assert_eq!(lcb.add(g(1.0), lucky.clone()).unwrap(), AddStatus::NotAdded);
    let better = Evaluation {
        games: 40,
        wins: 38,
        ..eval(0.95, 0.0, &[5.0])
    };
    assert_eq!(lcb.add(g(2.0), better).unwrap(), AddStatus::ImproveExisting);
}

#[test]
fn the_schedule_is_one_hot_then_random_then_single_weight_mutants() {
    let space = GenomeSpace::new(names(11), Domain::default()).unwrap();
    let config = EmitterConfig {
        one_hot: true,
        random_init: 6,
        iterations: 30,
        ..EmitterConfig::default()
    };
    let mut em = ScheduleEmitter::new(space.clone(), config);
    let mut archive = GridArchive::new(
        vec![FeatureAxis::bins("x", 0.0, 1.0, 1).unwrap()],
        Replacement::Paper,
    )
    .unwrap();
    let mut rng = derive_rng(42, &[]);
    let mut sizes = Vec::new();
    let mut one_hot = Vec::new();
    while em.phase() == Some(Phase::OneHot) {
        let b = em.ask(&archive, 4, &mut rng);
        sizes.push(b.len());
        one_hot.extend(b);
    }
    assert_eq!(sizes, [4, 4, 3]);
    assert_eq!(one_hot, space.one_hot());
    assert_eq!(em.phase(), Some(Phase::Random));
    let random: Vec<Genome> = [4, 4]
        .iter()
        .flat_map(|&n| em.ask(&archive, n, &mut rng))
        .collect();
    assert_eq!(random.len(), 6); // the second batch stops at the phase end
    for r in &random {
        space.check(r).unwrap();
    }
    // One elite: every mutant's parent is known.
    let parent = random[0].clone();
    archive.add(parent.clone(), eval(0.5, 0.0, &[0.5])).unwrap();
    assert_eq!(em.phase(), Some(Phase::Mutation));
    let mut mutants = 0;
    while em.phase().is_some() {
        for m in em.ask(&archive, 7, &mut rng) {
            let diff = m.values.iter().zip(&parent.values).filter(|(a, b)| a != b);
            assert_eq!(diff.count(), 1, "{m:?} vs {parent:?}");
            space.check(&m).unwrap();
            mutants += 1;
        }
    }
    assert_eq!(mutants, 30);
    assert!(em.ask(&archive, 7, &mut rng).is_empty());
}

#[test]
fn mutants_of_a_full_archive_differ_from_some_elite_in_one_weight() {
    let space = GenomeSpace::new(names(5), Domain::default()).unwrap();
    let mut archive = GridArchive::new(
        vec![FeatureAxis::bins("w0", 0.0, 1.0, 5).unwrap()],
        Replacement::Paper,
    )
    .unwrap();
    for (i, gn) in space.one_hot().into_iter().enumerate() {
        let d = gn.values[0];
        archive.add(gn, eval(0.1 * i as f64, 0.0, &[d])).unwrap();
    }
    let elites: Vec<Genome> = archive.elites().map(|(_, e)| e.genome.clone()).collect();
    assert_eq!(elites.len(), 2);
    let mut em = ScheduleEmitter::new(
        space,
        EmitterConfig {
            one_hot: false,
            random_init: 0,
            iterations: 200,
            ..EmitterConfig::default()
        },
    );
    let mut rng = derive_rng(7, &[]);
    for m in em.ask(&archive, 200, &mut rng) {
        assert!(elites.iter().any(|p| {
            p.values
                .iter()
                .zip(&m.values)
                .filter(|(a, b)| a != b)
                .count()
                == 1
        }));
    }
}

// ---------------------------------------------------------------- engine on a toy objective

fn toy_config(seed: u64) -> MapElitesConfig {
    MapElitesConfig {
        seed,
        batch_size: 5,
        space: GenomeSpace::new(names(4), Domain::default()).unwrap(),
        axes: vec![
            FeatureAxis::bins("w0", 0.0, 1.0, 5).unwrap(),
            FeatureAxis::bins("w1", 0.0, 1.0, 5).unwrap(),
        ],
        replacement: Replacement::Paper,
        emitter: EmitterConfig {
            one_hot: true,
            random_init: 7,
            iterations: 60,
            ..EmitterConfig::default()
        },
        adaptive: None,
    }
}

/// Fitness = mean weight plus a little noise from the evaluation index; descriptors = the
/// first two weights.
fn toy(genome: &Genome, index: u64) -> Evaluation {
    let v = &genome.values;
    let noise = (mix64(index) % 1000) as f64 / 1e5;
    let fitness = v.iter().sum::<f64>() / v.len() as f64 * 0.99 + noise;
    Evaluation {
        fitness,
        tie_break: v[3],
        games: 10,
        wins: (fitness * 10.0).floor() as u32,
        draws: 0,
        descriptor_means: vec![v[0], v[1]],
        descriptor_spreads: vec![0.1, 0.2],
        descriptor_counts: Vec::new(),
        extra: BTreeMap::from([("index".to_string(), index as f64)]),
    }
}

fn run_in_pool(threads: usize, config: MapElitesConfig) -> (MapElites, Vec<u64>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut me = MapElites::new(config).unwrap();
        let mut batches = Vec::new();
        me.run(toy, |r| batches.push(r.batch)).unwrap();
        (me, batches)
    })
}

fn csv_bytes(me: &MapElites) -> Vec<u8> {
    ArchiveTable::from_archive(me.archive(), &me.config().space)
        .to_csv()
        .unwrap()
}

#[test]
fn the_archive_is_identical_with_one_and_two_threads() {
    let (one, batches) = run_in_pool(1, toy_config(3));
    let (two, _) = run_in_pool(2, toy_config(3));
    assert_eq!(batches, (0..15).collect::<Vec<_>>()); // 4 one-hot, 5+2 random, 12×5 mutants
    assert_eq!(one.evaluations(), 4 + 7 + 60);
    assert_eq!(one.games(), 10 * 71);
    assert!(one.is_done());
    assert!(one.archive().len() > 5);
    assert_eq!(one.archive(), two.archive());
    assert_eq!(csv_bytes(&one), csv_bytes(&two));
    let (other_seed, _) = run_in_pool(2, toy_config(4));
    assert_ne!(one.archive(), other_seed.archive());
}

#[test]
fn a_run_resumed_from_any_checkpoint_ends_like_an_uninterrupted_one() {
    let (full, _) = run_in_pool(2, toy_config(9));
    let dir = scratch("qd", "resume");
    let path = dir.join("checkpoint.json");
    for k in 0..=15 {
        let mut me = MapElites::new(toy_config(9)).unwrap();
        for _ in 0..k {
            me.step(&toy).unwrap().unwrap();
        }
        me.checkpoint().save(&path).unwrap();
        drop(me); // "killed"
        let mut resumed = MapElites::resume_file(toy_config(9), &path).unwrap();
        assert_eq!(resumed.next_batch(), k);
        resumed.run(toy, |_| {}).unwrap();
        assert_eq!(
            resumed.archive(),
            full.archive(),
            "resumed after {k} batches"
        );
        assert_eq!(resumed.games(), full.games());
        assert_eq!(csv_bytes(&resumed), csv_bytes(&full));
    }
}

/// The toy run over continuous weights in [0, 1], offspring made as `kind` says.
fn continuous_toy_config(seed: u64, kind: EmitterKind) -> MapElitesConfig {
    MapElitesConfig {
        space: GenomeSpace::new(names(4), Domain::Range { lo: 0.0, hi: 1.0 }).unwrap(),
        emitter: EmitterConfig {
            kind,
            ..toy_config(seed).emitter
        },
        ..toy_config(seed)
    }
}

fn continuous_kinds() -> [EmitterKind; 3] {
    [
        EmitterKind::Gaussian {
            sigma: Sigma::Same(0.1),
        },
        EmitterKind::Gaussian {
            sigma: Sigma::PerWeight(vec![0.05, 0.1, 0.2, 0.3]),
        },
        EmitterKind::IsoLineDd {
            iso_sigma: 0.05,
            line_sigma: 0.2,
        },
    ]
}

#[test]
fn continuous_emitters_are_reproducible_on_any_thread_count_and_resume_exactly() {
    let dir = scratch("qd", "resume-continuous");
    let path = dir.join("checkpoint.json");
    let schedule = run_in_pool(2, continuous_toy_config(9, EmitterKind::Schedule)).0;
    let mut archives = vec![schedule.archive().clone()];
    for kind in continuous_kinds() {
        let config = || continuous_toy_config(9, kind.clone());
        let (one, _) = run_in_pool(1, config());
        let (full, batches) = run_in_pool(2, config());
        assert_eq!(batches.len(), 15, "{kind:?}");
        assert_eq!(one.archive(), full.archive(), "{kind:?}");
        assert_eq!(csv_bytes(&one), csv_bytes(&full), "{kind:?}");
        for (_, e) in full.archive().elites() {
            full.config().space.check(&e.genome).unwrap();
        }
        for k in 0..=15 {
            let mut me = MapElites::new(config()).unwrap();
            for _ in 0..k {
                me.step(&toy).unwrap().unwrap();
            }
            me.checkpoint().save(&path).unwrap();
            drop(me); // "killed"
            let mut resumed = MapElites::resume_file(config(), &path).unwrap();
            resumed.run(toy, |_| {}).unwrap();
            assert_eq!(resumed.archive(), full.archive(), "{kind:?} after {k}");
            assert_eq!(csv_bytes(&resumed), csv_bytes(&full), "{kind:?} after {k}");
        }
        archives.push(full.archive().clone());
    }
    // Each kind makes its own offspring from the same one-hot and random genomes.
    for i in 0..archives.len() {
        for j in 0..i {
            assert_ne!(archives[i], archives[j], "kinds {j} and {i}");
        }
    }
}

#[test]
fn a_checkpoint_of_one_emitter_does_not_resume_another() {
    let [gaussian, _, iso] = continuous_kinds();
    let mut me = MapElites::new(continuous_toy_config(5, gaussian)).unwrap();
    me.step(&toy).unwrap();
    let e = MapElites::resume(continuous_toy_config(5, iso), me.checkpoint())
        .unwrap_err()
        .to_string();
    assert!(e.contains("another configuration"), "{e}");
}

#[test]
fn ask_is_idempotent_and_tell_checks_the_batch() {
    let mut me = MapElites::new(toy_config(1)).unwrap();
    let a = me.ask().unwrap();
    let b = me.ask().unwrap();
    assert_eq!(a.genomes(), b.genomes());
    assert_eq!((a.number(), a.first_index()), (0, 0));
    let evals = a.evaluate(&toy);
    let e = me.tell(a, evals[..3].to_vec()).unwrap_err();
    assert!(
        e.to_string()
            .contains("3 evaluations for a batch of 4 genomes"),
        "{e}"
    );
    assert_eq!(me.next_batch(), 0);
    me.tell(b, evals).unwrap();
    let stale = MapElites::new(toy_config(1)).unwrap().ask().unwrap();
    let e = me.tell(stale, vec![]).unwrap_err();
    assert!(e.to_string().contains("stale"), "{e}");
    let next = me.ask().unwrap();
    assert_eq!((next.number(), next.first_index()), (1, 4));
}

#[test]
fn bad_configs_are_errors_naming_the_field() {
    let mut c = toy_config(1);
    c.batch_size = 0;
    assert!(
        MapElites::new(c)
            .unwrap_err()
            .to_string()
            .contains("batch_size")
    );
    let mut c = toy_config(1);
    c.axes.clear();
    assert!(
        MapElites::new(c)
            .unwrap_err()
            .to_string()
            .contains("features")
    );
    let mut c = toy_config(1);
    c.emitter.kind = continuous_kinds()[0].clone();
    assert!(
        MapElites::new(c)
            .unwrap_err()
            .to_string()
            .contains("map_elites.emitter")
    );
    let mut c = continuous_toy_config(1, continuous_kinds()[1].clone());
    c.space.names.push("w4".into());
    assert!(
        MapElites::new(c)
            .unwrap_err()
            .to_string()
            .contains("map_elites.sigma")
    );
    let mut c = toy_config(1);
    c.replacement = Replacement::LowerConfidence { z: -1.0 };
    assert!(
        MapElites::new(c)
            .unwrap_err()
            .to_string()
            .contains("replacement.z")
    );
}

#[test]
fn corrupt_or_foreign_checkpoints_are_errors_naming_the_file() {
    let dir = scratch("qd", "bad-checkpoints");
    let mut me = MapElites::new(toy_config(5)).unwrap();
    me.step(&toy).unwrap();
    me.step(&toy).unwrap();
    let good = me.checkpoint();
    let json = String::from_utf8(good.to_json().unwrap()).unwrap();

    let check = |name: &str, content: &str, config: MapElitesConfig, expect: &str| {
        let p = dir.join(name);
        std::fs::write(&p, content).unwrap();
        let e = MapElites::resume_file(config, &p).unwrap_err().to_string();
        assert!(e.contains(name), "{name}: {e}");
        assert!(e.contains(expect), "{name}: {e}");
    };
    check("empty.json", "", toy_config(5), "bad JSON");
    check(
        "truncated.json",
        &json[..json.len() / 2],
        toy_config(5),
        "bad JSON",
    );
    check("array.json", "[1, 2]", toy_config(5), "no `version`");
    check(
        "v99.json",
        &json.replacen("\"version\": 1", "\"version\": 99", 1),
        toy_config(5),
        "version 99",
    );
    check(
        "fields.json",
        &json.replacen("\"next_batch\"", "\"next_bitch\"", 1),
        toy_config(5),
        "corrupt checkpoint",
    );
    check(
        "counts.json",
        &json.replacen("\"evaluations\": 9", "\"evaluations\": 8", 1),
        toy_config(5),
        "counts disagree",
    );
    check(
        "other-config.json",
        &json,
        toy_config(6),
        "another configuration",
    );
    let missing = dir.join("missing.json");
    let e = MapElites::resume_file(toy_config(5), &missing)
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing.json"), "{e}");

    // The good one resumes, in memory and from a file.
    MapElites::resume(toy_config(5), good.clone()).unwrap();
    let p = dir.join("good.json");
    good.save(&p).unwrap();
    assert_eq!(Checkpoint::load(&p).unwrap(), good);
}

// ---------------------------------------------------------------- reports

fn finished_toy_run() -> MapElites {
    run_in_pool(2, toy_config(11)).0
}

#[test]
fn archive_csv_round_trips() {
    let me = finished_toy_run();
    let table = ArchiveTable::from_archive(me.archive(), &me.config().space);
    let dir = scratch("qd", "csv");
    let path = dir.join("archive.csv");
    write_archive_csv(&path, &table).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(
        "cell,cell_w0,cell_w1,w0_mean,w0_sd,w1_mean,w1_sd,win_rate,games,wins,draws,\
         mean_score,evaluation,w0,w1,w2,w3,extra_index\n"
    ));
    let back = read_archive_csv(&path).unwrap();
    assert_eq!(back, table);
    assert_eq!(back.rows.len(), me.archive().len());
    for r in &back.rows {
        let e = me.archive().elite(r.cell).unwrap();
        assert_eq!(r.weights, e.genome.values);
        assert_eq!(r.win_rate, e.evaluation.fitness);
        assert_eq!(Some(r.coords.clone()), me.archive().index_to_grid(r.cell));
    }
}

#[test]
fn a_malformed_archive_csv_is_an_error_naming_file_and_line() {
    let dir = scratch("qd", "csv-bad");
    let p = dir.join("archive.csv");
    std::fs::write(&p, "a,b\n1,2\n").unwrap();
    assert!(
        read_archive_csv(&p)
            .unwrap_err()
            .to_string()
            .contains("archive.csv")
    );
    let header = "cell,cell_x,x_mean,x_sd,win_rate,games,wins,draws,mean_score,evaluation,w\n";
    std::fs::write(
        &p,
        format!("{header}0,0,0.1,0,0.5,10,5,0,1,0,0.25\n1,1,0.3,0,oops,10,5,0,1,1,0\n"),
    )
    .unwrap();
    let e = read_archive_csv(&p).unwrap_err().to_string();
    assert!(e.contains("line 3") && e.contains("win_rate"), "{e}");
}

#[test]
fn progress_csv_round_trips() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let reports = pool.install(|| {
        let mut me = MapElites::new(toy_config(2)).unwrap();
        let mut reports = Vec::new();
        me.run(toy, |r| reports.push(r.clone())).unwrap();
        reports
    });
    let dir = scratch("qd", "progress");
    let p = dir.join("progress.csv");
    write_progress_csv(&p, &reports).unwrap();
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.starts_with(
        "batch,evaluations,games,elites,coverage,qd_score,max_fitness,mean_fitness,seconds\n"
    ));
    assert_eq!(read_progress_csv(&p).unwrap(), reports);
    write_progress_csv(&p, &[]).unwrap();
    assert!(read_progress_csv(&p).unwrap().is_empty());
}

#[test]
fn heatmaps_are_written_for_one_two_and_three_features() {
    let space = GenomeSpace::new(names(3), Domain::default()).unwrap();
    let axes = [
        FeatureAxis::bucket("attacks", 0.0, 20.0, 2.0).unwrap(),
        FeatureAxis::bucket("perc_range", 0.0, 10.0, 1.0).unwrap(),
        FeatureAxis::bins("production", 0.0, 30.0, 3).unwrap(),
    ];
    for k in 1..=3 {
        let mut archive = GridArchive::new(axes[..k].to_vec(), Replacement::Paper).unwrap();
        let mut rng_state = 1u64;
        for i in 0..60u64 {
            rng_state = mix64(rng_state + i);
            let d: Vec<f64> = (0..k as u64)
                .map(|j| (mix64(rng_state ^ j) % 25) as f64)
                .collect();
            let fit = (mix64(rng_state) % 101) as f64 / 100.0;
            archive
                .add(Genome::new(vec![0.0; 3]), eval(fit, 0.0, &d))
                .unwrap();
        }
        let table = ArchiveTable::from_archive(&archive, &space);
        let dir = scratch("qd", &format!("heatmap-{k}d"));
        write_heatmaps(&table.rows, archive.axes(), &dir).unwrap();
        for f in ["heatmap.png", "heatmap.svg"] {
            let bytes = std::fs::read(dir.join(f)).unwrap();
            assert!(bytes.len() > 1000, "{k}-D {f}: {} bytes", bytes.len());
        }
        assert!(
            std::fs::read(dir.join("heatmap.png"))
                .unwrap()
                .starts_with(b"\x89PNG")
        );
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            2,
            "no temp files left"
        );
    }
}

#[test]
fn heatmap_rows_outside_the_grid_are_errors() {
    let axes = [FeatureAxis::bins("x", 0.0, 1.0, 2).unwrap()];
    let mut archive = GridArchive::new(axes.to_vec(), Replacement::Paper).unwrap();
    archive.add(g(0.0), eval(0.5, 0.0, &[0.9])).unwrap();
    let mut table = ArchiveTable::from_archive(
        &archive,
        &GenomeSpace::new(names(1), Domain::default()).unwrap(),
    );
    table.rows[0].coords = vec![5];
    assert!(write_heatmaps(&table.rows, &axes, &scratch("qd", "heatmap-bad")).is_err());
}
