//! Issue 60, "a command deletes only what it created": every command that writes, run into an
//! output that already holds other people's things — files, a folder, a hidden file, a link to
//! a file elsewhere — then again with `--force` and with `--resume` where it has them, leaves
//! every one of them as it was, byte for byte (the link too, and the file it points to). A
//! command whose output is a file (`dataset`, `train`, `replay`) refuses, with `--force`, an
//! output that is a folder, a file it did not write or a link, naming `--out`, and changes
//! nothing. The commands run on tiny Puerto Rico configs (those of the crash harness).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::kill_resume::{DATASET, LADDER, RUN, TOURNAMENT};
use crate::support::cli::{playstyles_in, scratch, stderr};

/// A command that writes into a folder: the folder (relative to the case's folder) and the
/// command lines run there one after the other, each a whitespace-separated line.
struct FolderCase {
    name: &'static str,
    out: &'static str,
    runs: &'static [&'static str],
}

/// Every command that writes into a folder, fresh, then forced, then resumed.
const FOLDER_CASES: &[FolderCase] = &[
    FolderCase {
        name: "evolve",
        out: "new-run",
        runs: &[
            "evolve run.toml --out new-run --quiet",
            "evolve run.toml --out new-run --quiet --force",
            "evolve run.toml --out new-run --quiet --resume",
        ],
    },
    FolderCase {
        name: "tournament",
        out: "t",
        runs: &[
            "tournament t.toml --out t --quiet",
            "tournament t.toml --out t --quiet --force",
            "tournament t.toml --out t --quiet --resume",
        ],
    },
    FolderCase {
        name: "ladder",
        out: "ladder",
        runs: &[
            "ladder ladder.toml --out ladder --quiet",
            "ladder ladder.toml --out ladder --quiet --force",
            "ladder ladder.toml --out ladder --quiet --resume",
        ],
    },
    FolderCase {
        name: "sensitivity",
        out: "sens",
        runs: &[
            "sensitivity run.toml --out sens --repetitions 2 --quiet",
            "sensitivity run.toml --out sens --repetitions 2 --quiet --force",
            "sensitivity run.toml --out sens --repetitions 2 --quiet --resume",
        ],
    },
    FolderCase {
        name: "validate",
        out: "run",
        runs: &[
            "validate run --cells all --repetitions 1 --quiet",
            "validate run --cells all --repetitions 1 --quiet --force",
            "validate run --cells all --repetitions 1 --quiet --resume",
        ],
    },
    FolderCase {
        name: "reevaluate",
        out: "run",
        runs: &[
            "reevaluate run --games 1 --quiet",
            "reevaluate run --games 1 --quiet --force",
            "reevaluate run --games 1 --quiet --resume",
        ],
    },
    FolderCase {
        name: "roster",
        out: "run",
        runs: &[
            "roster run --count 2 --floor 0 --train-games 2 --test-games 3 --levels 3p --quiet",
            "roster run --count 2 --floor 0 --train-games 2 --test-games 3 --levels 3p --quiet --force",
            "roster run --count 2 --floor 0 --train-games 2 --test-games 3 --levels 3p --quiet --resume",
        ],
    },
    FolderCase {
        name: "tiers",
        out: "run",
        runs: &["tiers run --count 2", "tiers run --count 2"],
    },
    FolderCase {
        name: "report",
        out: "run",
        runs: &["report run", "report run"],
    },
    FolderCase {
        name: "plot",
        out: "run",
        runs: &["plot run", "plot run"],
    },
];

/// A command that writes one file: its command line with `{out}` for the file.
struct FileCase {
    name: &'static str,
    command: &'static str,
}

/// Every command that writes one file, run with `--force` onto things it did not write.
const FILE_CASES: &[FileCase] = &[
    FileCase {
        name: "dataset",
        command: "dataset data.toml --out {out} --quiet --force",
    },
    FileCase {
        name: "train",
        command: "train data.dataset --out {out} --hidden 4 --second 2 --epochs 1 \
                  --test-fraction 0.25 --quiet --force",
    },
    FileCase {
        name: "replay",
        command: "replay --game puerto-rico --level 4p --agents sa0,sa0,sa0,sa0 --out {out} \
                  --force",
    },
];

/// Every file and link under `dir`, by relative path: a file's bytes, a link's target (as
/// `-> target`), a folder as `/`.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                out.insert(rel, format!("-> {}", target.display()).into_bytes());
            } else if meta.is_dir() {
                out.insert(rel.clone(), b"/".to_vec());
                walk(root, &path, out);
            } else {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Puts other people's things into the folder `out` (made if needed) of the case folder
/// `dir`: a file, a hidden file, a folder with a file, and a link to `victim.txt` beside the
/// folder. Returns their paths relative to `dir`.
fn plant(dir: &Path, out: &str) -> Vec<String> {
    let at = dir.join(out);
    std::fs::create_dir_all(at.join("mine")).unwrap();
    std::fs::write(at.join("notes.txt"), "someone's notes\n").unwrap();
    std::fs::write(at.join(".hidden"), "someone's hidden file\n").unwrap();
    std::fs::write(at.join("mine").join("keep.txt"), "keep\n").unwrap();
    std::fs::write(dir.join("victim.txt"), "someone else's file\n").unwrap();
    std::os::unix::fs::symlink(dir.join("victim.txt"), at.join("link")).unwrap();
    ["notes.txt", ".hidden", "mine", "mine/keep.txt", "link"]
        .iter()
        .map(|f| format!("{out}/{f}"))
        .chain(["victim.txt".to_string()])
        .collect()
}

/// Runs the whitespace-separated command `line` in `dir`.
fn run_in(dir: &Path, line: &str) -> std::process::Output {
    let args: Vec<&str> = line.split_whitespace().collect();
    playstyles_in(&args, dir)
}

/// The case folder `name` with the inputs every case reads: the configs, a finished run
/// (`run`) and a finished dataset (`data.dataset`).
fn inputs(name: &str) -> PathBuf {
    let dir = scratch("owned", name);
    for (file, text) in [
        ("run.toml", RUN),
        ("t.toml", TOURNAMENT),
        ("ladder.toml", LADDER),
        ("data.toml", DATASET),
    ] {
        std::fs::write(dir.join(file), text).unwrap();
    }
    for line in [
        "evolve run.toml --out run --quiet",
        "dataset data.toml --out data.dataset --quiet",
    ] {
        let o = run_in(&dir, line);
        assert!(o.status.success(), "{line}: {}", stderr(&o));
    }
    dir
}

#[cfg(unix)]
#[test]
fn no_command_deletes_or_changes_what_it_did_not_create_whatever_its_flags() {
    let mut failures = Vec::new();
    for case in FOLDER_CASES {
        let dir = inputs(case.name);
        let planted = plant(&dir, case.out);
        let before = snapshot(&dir);
        for line in case.runs {
            let o = run_in(&dir, line);
            if !o.status.success() {
                failures.push(format!("{}: `{line}` failed: {}", case.name, stderr(&o)));
            }
        }
        let after = snapshot(&dir);
        for p in &planted {
            if before.get(p) != after.get(p) {
                failures.push(format!("{}: {p} was changed or removed", case.name));
            }
        }
    }
    for case in FILE_CASES {
        let dir = inputs(case.name);
        std::fs::write(dir.join("victim.txt"), "someone else's file\n").unwrap();
        std::fs::create_dir_all(dir.join("a-folder")).unwrap();
        std::fs::write(dir.join("a-folder").join("keep.txt"), "keep\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "someone's notes\n").unwrap();
        std::os::unix::fs::symlink(dir.join("victim.txt"), dir.join("a-link")).unwrap();
        for target in ["a-folder", "notes.txt", "a-link"] {
            let before = snapshot(&dir);
            let line = case.command.replace("{out}", target);
            let o = run_in(&dir, &line);
            let e = stderr(&o);
            if o.status.code() != Some(2) || !e.contains("--out") || !e.contains(target) {
                failures.push(format!(
                    "{}: `{line}` did not refuse naming --out and {target} ({:?}): {e}",
                    case.name,
                    o.status.code()
                ));
            }
            if snapshot(&dir) != before {
                failures.push(format!("{}: `{line}` changed the folder", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
