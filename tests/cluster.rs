//! The cluster engines for real: a run through the Dask package (`python/playstyles_dask`,
//! a `LocalCluster` of two worker processes) and through a one-node Slurm
//! (`experiments/slurm/`, `sbatch --wait`, an array of two) ends byte-identical to `evolve`.
//! `tests/run.sh`, the test command, installs what they need when it is missing: the package in
//! a virtual environment (`target/venv-dask`), Debian's `slurm-wlm` and `munge`. Without them
//! these tests fail, naming what is missing: they never skip.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::evolve::TINY;
use crate::support::cli::{path_arg, playstyles, read_bytes, scratch, stderr, succeeded};

/// The repository root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Python with `playstyles_dask` installed: `$PLAYSTYLES_PYTHON`, else the virtual
/// environment `tests/run.sh` makes, `target/venv-dask`.
fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("PLAYSTYLES_PYTHON") {
        return PathBuf::from(p);
    }
    let p = root().join("target/venv-dask/bin/python");
    assert!(
        p.is_file(),
        "the Dask tests need a Python with the package python/playstyles_dask, and there is \
         none: PLAYSTYLES_PYTHON is not set and {} does not exist. Run the tests with \
         `tests/run.sh`, which makes that virtual environment, or set PLAYSTYLES_PYTHON to a \
         Python that has the package (`pip install ./python`)",
        p.display()
    );
    p
}

/// Panics, naming what is missing and the test command, unless this machine can start a
/// one-node Slurm: Debian's `slurm-wlm` and `munge` on the path, and root (slurmd starts job
/// steps as the job's user).
fn assert_slurm_can_start() {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let commands = [
        "sbatch",
        "srun",
        "squeue",
        "sinfo",
        "scancel",
        "slurmctld",
        "slurmd",
        "munged",
    ];
    let missing: Vec<&str> = commands
        .into_iter()
        .filter(|c| !std::env::split_paths(&path).any(|d| d.join(c).is_file()))
        .collect();
    assert!(
        missing.is_empty(),
        "the Slurm tests need Debian's slurm-wlm and munge, and these are not on PATH: {}. Run \
         the tests with `tests/run.sh`, which installs them",
        missing.join(", ")
    );
    let id = Command::new("id").arg("-u").output().expect("`id -u` runs");
    let uid = String::from_utf8_lossy(&id.stdout).trim().to_string();
    assert_eq!(
        uid, "0",
        "the Slurm tests start a one-node Slurm whose slurmd must run as root, and this is user \
         {uid}: run `tests/run.sh` as root"
    );
}

/// The tiny run through `evolve` in `dir/evolved`, and its config at `dir/tiny.toml`.
fn reference(dir: &Path) -> (PathBuf, PathBuf) {
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY).unwrap();
    let out = dir.join("evolved");
    succeeded(
        playstyles(&[
            "evolve",
            path_arg(&config),
            "--out",
            path_arg(&out),
            "--quiet",
        ]),
        "evolve",
    );
    (config, out)
}

fn assert_same(a: &Path, b: &Path) {
    for f in ["archive.csv", "checkpoint.json"] {
        assert!(
            read_bytes(&a.join(f)) == read_bytes(&b.join(f)),
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn a_run_through_a_dask_local_cluster_is_byte_identical_to_evolve() {
    let dir = scratch("cluster", "dask");
    let (config, evolved) = reference(&dir);
    let run = dir.join("run");
    let o = Command::new(python())
        .args([
            "-m",
            "playstyles_dask",
            path_arg(&run),
            "--config",
            path_arg(&config),
        ])
        .args([
            "--workers",
            "2",
            "--binary",
            env!("CARGO_BIN_EXE_playstyles"),
        ])
        .output()
        .unwrap_or_else(|e| panic!("{} does not start: {e}", python().display()));
    let out = succeeded(o, "python -m playstyles_dask");
    assert_eq!(
        out.matches(" told, ").count(),
        4,
        "four batches told: {out}"
    );
    assert_same(&evolved, &run);
}

#[test]
fn the_dask_package_passes_its_own_tests() {
    let o = Command::new(python())
        .args(["-m", "unittest", "discover", "-s", "python/tests"])
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("{} does not start: {e}", python().display()));
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    assert!(e.contains("OK") && e.contains("Ran "), "{e}");
}

/// Runs the tiny run through a one-node Slurm in `mode` (`arrays`: a job array of two per
/// batch; `allocation`: one allocation of two tasks looping ask / srun work / tell) with
/// `experiments/slurm/test-local.sh`, which starts the cluster and stops it by PID afterwards.
fn through_slurm(mode: &str) {
    assert_slurm_can_start();
    let dir = scratch("cluster", &format!("slurm-{mode}"));
    let (config, evolved) = reference(&dir);
    // Short: munge's socket path lives under it (at most about 75 characters).
    let work = std::env::temp_dir().join(format!("ps-slurm-{mode}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    let o = Command::new(root().join("experiments/slurm/test-local.sh"))
        .args([
            env!("CARGO_BIN_EXE_playstyles"),
            path_arg(&config),
            path_arg(&work),
            mode,
        ])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "test-local.sh {mode} failed ({:?}):\n{}",
        o.status.code(),
        stderr(&o)
    );
    assert_same(&evolved, &work.join("run"));
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn a_run_through_slurm_job_arrays_is_byte_identical_to_evolve() {
    through_slurm("arrays");
}

#[test]
fn a_run_in_one_slurm_allocation_is_byte_identical_to_evolve() {
    through_slurm("allocation");
}
