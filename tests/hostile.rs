//! The hostile-file corpus (issue 60): every file the tool reads — configs, levels, bot files,
//! task and result lines, checkpoints, journals, a run's and a tournament's CSV files, ladder
//! files, datasets, models — made valid once by tiny Puerto Rico runs (and one Tribes run, the
//! other game's files), then damaged one way at a time and given to the command that reads it.
//! Two tables: [`READERS`] (the file, the command that reads it, how it is damaged in a field)
//! and [`Damage`] (cut short at three places, empty, a directory, a FIFO, a dangling link, a
//! link to a FIFO or a directory, bytes that are not UTF-8, a key or column given twice, a
//! value out of range, a number that is not finite, the same file of another run or game).
//! Every case must exit with code 2 within [`LIMIT`] (a FIFO opened would hang: the command
//! runs as a child that is killed at the limit), naming the file and, for a damage in a line
//! or field, the line or the field (the file and its kind for a directory, FIFO or link); no
//! panic; and the command writes nothing: its folder is the same, byte for byte, before and
//! after. Each reader's command first reads its intact file and succeeds, so each failure
//! comes from the damage.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use playstyles::files::EXIT_AFTER_WRITES;

use crate::kill_resume::RUN;
use crate::support::cli::scratch;

/// How long a case may run: the commands refuse their damaged file at once; a command still
/// running after this is taken to hang (generous for a loaded two-core machine).
const LIMIT: Duration = Duration::from_secs(60);

/// Cases run at once.
const WORKERS: usize = 4;

/// The other game: a Tribes run of two genomes, one game each.
const TRIBES_RUN: &str = r#"
seed = 5
batch_size = 2

[evaluation]
levels = [1590191438878]
repetitions = 1
player = "pmcts(budget=5)"
baseline = "random"

[genome]
scripts = ["spawn.strongest", "spawn.defensive"]

[[features]]
name = "attacks"
min = 0
max = 20
step = 2

[[features]]
name = "support_balance"
min = -5
max = 5
step = 1

[map_elites]
adaptive = false
one_hot = false
random_init = 2
iterations = 0
"#;

/// A tournament of two four-player games.
const TOURNAMENT: &str = r#"
game = "puerto-rico"
seed = 5
levels = ["4p"]
repetitions = 2

[[pairing]]
name = "captain-vs-sa0"
agents = ["sa0(weights=[role.captain=0.0])", "sa0", "sa0", "sa0"]
"#;

/// A ladder of an elite of [`RUN`] and two bots, with a style check.
const LADDER: &str = r#"
game = "puerto-rico"
seed = 31
levels = ["4p"]
anchor = "sa0"
target = 100.0
max_games = 40
start = 8
style_repetitions = 1

[[elites]]
run = "run"
cells = [5]

[[agent]]
name = "sa0"
spec = "sa0"

[[agent]]
name = "random"
spec = "random"
"#;

/// A sensitivity measurement of two weights, one game per genome.
const SENSITIVITY: &str = r#"
game = "puerto-rico"
seed = 3
[evaluation]
levels = ["3p"]
repetitions = 1
player = "sa0"
baseline = "sa0"
[genome]
scripts = ["role.captain", "role.builder"]
values = [0.0, 0.5, 1.0]
[[features]]
name = "shipping_pct"
min = 20
max = 100
step = 20
[[features]]
name = "builder_pct"
min = 0
max = 60
step = 20
"#;

/// A dataset of eight three-player games.
const DATASET: &str = r#"
game = "puerto-rico"
seed = 9
games = 8
levels = ["3p"]
agents = ["sa0", "sa0", "sa0"]
"#;

/// A dataset of two chunks (a chunk is 200 games), a twentieth of the positions kept.
const PARTS: &str = r#"
game = "puerto-rico"
seed = 9
games = 201
levels = ["3p"]
agents = ["sa0", "sa0", "sa0"]
keep = 0.05
"#;

/// A 3×3 Tribes level.
const LEVEL: &str = "d:,s:h,.:f\nv: ,c:1,f:a\nm:o,.:,c:0\n";

/// A Prismata bot file with one player, `Greedy`.
const BOTS: &str = r#"[partial_players]
Defend = { type = "Defense_Solver" }
Econ = { type = "ActionAbility_EconomyDefault" }
Attack = { type = "ActionAbility_AttackDefault" }
Clicks = { type = "ActionAbility_Combination", combination = ["Econ", "Attack"] }
BuyAll = { type = "ActionBuy_Default" }
Breach = { type = "Breach_GreedyKnapsack" }
[players]
Greedy = { type = "Player_PPSequence", partial_players = ["Defend", "Clicks", "BuyAll", "Breach"] }
"#;

/// How a file is written, which decides how it is cut, given twice and edited.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// TOML.
    Toml,
    /// A CSV table with a header.
    Csv,
    /// One JSON object.
    Json,
    /// One JSON object per line.
    JsonLines,
    /// Other text (a level).
    Text,
    /// Bytes (a dataset, a model).
    Binary,
}

/// A value of a field changed: out of range, or not a finite number.
#[derive(Clone, Copy, Debug)]
enum Edit {
    /// The cell of this column in the first row of a CSV table.
    Cell(&'static str, &'static str),
    /// The value of the first `key = …` of a TOML file, or `"key": …` of a JSON one.
    Value(&'static str, &'static str),
}

/// One file the tool reads, and the command that reads it.
struct Reader {
    /// The case's name: the file and, where several commands read it, the command.
    name: &'static str,
    /// The file, relative to the case's folder.
    file: &'static str,
    /// What of the fixture the case's folder holds (files and folders, copied).
    copy: &'static [&'static str],
    /// The command, run in the case's folder.
    args: &'static [&'static str],
    /// How the file is written.
    kind: Kind,
    /// A field set out of its range.
    range: Option<Edit>,
    /// A number set to NaN or infinity.
    not_finite: Option<Edit>,
    /// The same file of another run or game, in the fixture.
    foreign: Option<&'static str>,
    /// The command checks the file whole, against what made the folder (a resume compares
    /// the config with the one that started it): an error names the file, not a line.
    whole: bool,
    /// Damages that do not apply, with the reason.
    skip: &'static [(Damage, &'static str)],
}

/// A reader with the defaults: no field edits, no foreign file, read line by line.
const fn reader(
    name: &'static str,
    file: &'static str,
    copy: &'static [&'static str],
    args: &'static [&'static str],
    kind: Kind,
) -> Reader {
    Reader {
        name,
        file,
        copy,
        args,
        kind,
        range: None,
        not_finite: None,
        foreign: None,
        whole: false,
        skip: &[],
    }
}

const EVOLVE_RESUME: &[&str] = &["evolve", "run.toml", "--out", "run", "--resume", "--quiet"];
const REPORT: &[&str] = &["report", "run", "--no-replays", "--threads", "1"];
const REPORT_LADDER: &[&str] = &[
    "report",
    "run",
    "--no-replays",
    "--threads",
    "1",
    "--ladder",
    "lad",
];
const TIERS_RUN: &[&str] = &["tiers", "run", "--count", "2"];
const TIERS_LADDER: &[&str] = &["tiers", "lad", "--count", "2", "--gap", "50"];
const LADDER_RESUME: &[&str] = &["ladder", "lad.toml", "--out", "lad", "--resume", "--quiet"];
const TOURNAMENT_RESUME: &[&str] = &[
    "tournament",
    "t.toml",
    "--out",
    "tour",
    "--resume",
    "--quiet",
];
const TELL: &[&str] = &["tell", "tk"];
const TASKS: &str = "tk/batches/000001/tasks.jsonl";
const RESULTS: &str = "tk/batches/000001/results/shard-0-of-1.jsonl";

/// Every file the tool reads, with a command that reads it.
static READERS: &[Reader] = &[
    // Configs and inputs named on the command line.
    Reader {
        range: Some(Edit::Value("repetitions", "-3")),
        not_finite: Some(Edit::Value("min", "nan")),
        foreign: Some("t.toml"),
        ..reader(
            "run config (evolve)",
            "run.toml",
            &["run.toml"],
            &["evolve", "run.toml", "--out", "out", "--quiet"],
            Kind::Toml,
        )
    },
    Reader {
        range: Some(Edit::Value("repetitions", "-2")),
        not_finite: Some(Edit::Value("seed", "nan")),
        foreign: Some("run.toml"),
        ..reader(
            "tournament config",
            "t.toml",
            &["t.toml"],
            &["tournament", "t.toml", "--out", "out", "--quiet"],
            Kind::Toml,
        )
    },
    Reader {
        range: Some(Edit::Value("start", "-8")),
        not_finite: Some(Edit::Value("target", "nan")),
        foreign: Some("t.toml"),
        ..reader(
            "ladder config",
            "lad.toml",
            &["lad.toml", "run"],
            &["ladder", "lad.toml", "--out", "out", "--quiet"],
            Kind::Toml,
        )
    },
    Reader {
        range: Some(Edit::Value("repetitions", "-1")),
        not_finite: Some(Edit::Value("step", "nan")),
        foreign: Some("t.toml"),
        ..reader(
            "sensitivity config",
            "sens.toml",
            &["sens.toml"],
            &["sensitivity", "sens.toml", "--out", "out", "--quiet"],
            Kind::Toml,
        )
    },
    Reader {
        range: Some(Edit::Value("games", "-8")),
        not_finite: Some(Edit::Value("seed", "inf")),
        foreign: Some("run.toml"),
        ..reader(
            "dataset config",
            "ds.toml",
            &["ds.toml"],
            &["dataset", "ds.toml", "--out", "out.dataset", "--quiet"],
            Kind::Toml,
        )
    },
    Reader {
        foreign: Some("bots.toml"),
        ..reader(
            "Tribes level file",
            "level.txt",
            &["level.txt"],
            &["play", "--level", "level.txt", "--agents", "random,random"],
            Kind::Text,
        )
    },
    Reader {
        foreign: Some("level.txt"),
        ..reader(
            "Prismata bot file",
            "bots.toml",
            &["bots.toml"],
            &[
                "play",
                "--game",
                "prismata",
                "--level",
                "1",
                "--agents",
                "Greedy(config=bots.toml),RandomAI",
            ],
            Kind::Toml,
        )
    },
    // A run directory.
    Reader {
        range: Some(Edit::Value("repetitions", "-1")),
        not_finite: Some(Edit::Value("max", "nan")),
        foreign: Some("tribes/config.toml"),
        ..reader(
            "config.toml of a run (plot)",
            "run/config.toml",
            &["run"],
            &["plot", "run"],
            Kind::Toml,
        )
    },
    Reader {
        whole: true,
        foreign: Some("other/config.toml"),
        ..reader(
            "config.toml of a run (evolve --resume)",
            "run/config.toml",
            &["run", "run.toml"],
            EVOLVE_RESUME,
            Kind::Toml,
        )
    },
    Reader {
        range: Some(Edit::Value("offered", "-12")),
        not_finite: Some(Edit::Value("fitness", "1e999")),
        foreign: Some("other/checkpoint.json"),
        ..reader(
            "checkpoint.json (evolve --resume)",
            "run/checkpoint.json",
            &["run", "run.toml"],
            EVOLVE_RESUME,
            Kind::Json,
        )
    },
    Reader {
        foreign: Some("other/checkpoint.json"),
        ..reader(
            "checkpoint.json (report)",
            "run/checkpoint.json",
            &["run"],
            REPORT,
            Kind::Json,
        )
    },
    Reader {
        range: Some(Edit::Value("next_batch", "-1")),
        foreign: Some("tko/checkpoint.json"),
        ..reader(
            "checkpoint.json (tell)",
            "tk/checkpoint.json",
            &["tk"],
            TELL,
            Kind::Json,
        )
    },
    Reader {
        range: Some(Edit::Cell("win_rate", "7")),
        not_finite: Some(Edit::Cell("shipping_pct_mean", "NaN")),
        foreign: Some("tribes/archive.csv"),
        ..reader(
            "archive.csv (plot)",
            "run/archive.csv",
            &["run"],
            &["plot", "run"],
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("games", "-1")),
        not_finite: Some(Edit::Cell("mean_score", "inf")),
        foreign: Some("other/archive.csv"),
        ..reader(
            "archive.csv (report)",
            "run/archive.csv",
            &["run"],
            REPORT,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("cell_builder_pct", "9")),
        foreign: Some("other/archive.csv"),
        ..reader(
            "archive.csv (tiers)",
            "run/archive.csv",
            &["run"],
            TIERS_RUN,
            Kind::Csv,
        )
    },
    Reader {
        foreign: Some("tribes/archive.csv"),
        ..reader(
            "archive.csv (validate)",
            "run/archive.csv",
            &["run"],
            &[
                "validate",
                "run",
                "--cells",
                "all",
                "--repetitions",
                "1",
                "--quiet",
                "--force",
            ],
            Kind::Csv,
        )
    },
    Reader {
        foreign: Some("other/archive.csv"),
        ..reader(
            "archive.csv (ladder of elites)",
            "run/archive.csv",
            &["run", "lad.toml"],
            &["ladder", "lad.toml", "--out", "out", "--quiet"],
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("coverage", "1.5")),
        not_finite: Some(Edit::Cell("qd_score", "NaN")),
        foreign: Some("other/progress.csv"),
        ..reader(
            "progress.csv (plot)",
            "run/progress.csv",
            &["run"],
            &["plot", "run"],
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("batch", "5")),
        not_finite: Some(Edit::Cell("max_fitness", "inf")),
        foreign: Some("other/progress.csv"),
        ..reader(
            "progress.csv (report)",
            "run/progress.csv",
            &["run"],
            REPORT,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("val_win_rate", "7")),
        not_finite: Some(Edit::Cell("val_mean", "NaN")),
        foreign: Some("other/validation.csv"),
        ..reader(
            "validation.csv (report)",
            "run/validation.csv",
            &["run"],
            REPORT,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("val_win_rate", "7")),
        not_finite: Some(Edit::Cell("val_win_rate", "NaN")),
        foreign: Some("other/validation.csv"),
        ..reader(
            "validation.csv (tiers)",
            "run/validation.csv",
            &["run"],
            TIERS_RUN,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("new_win_rate", "7")),
        not_finite: Some(Edit::Cell("new_shipping_pct_mean", "NaN")),
        foreign: Some("other/reevaluated.csv"),
        ..reader(
            "reevaluated.csv (report)",
            "run/reevaluated.csv",
            &["run"],
            REPORT,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Value("cell", "500")),
        not_finite: Some(Edit::Value("win_rate", "nan")),
        foreign: Some("other/tiers.toml"),
        ..reader(
            "tiers.toml of a run (report)",
            "run/tiers.toml",
            &["run"],
            REPORT,
            Kind::Toml,
        )
    },
    Reader {
        range: Some(Edit::Value("fitness", "7")),
        not_finite: Some(Edit::Value("fitness", "1e999")),
        foreign: Some("other-v/validation.journal.json"),
        ..reader(
            "validation.journal.json (validate --resume)",
            "run-v/validation.journal.json",
            &["run-v"],
            &[
                "validate",
                "run-v",
                "--cells",
                "all",
                "--repetitions",
                "1",
                "--quiet",
                "--resume",
            ],
            Kind::Json,
        )
    },
    Reader {
        range: Some(Edit::Value("fitness", "7")),
        not_finite: Some(Edit::Value("tie_break", "1e999")),
        foreign: Some("other-r/reevaluated.journal.json"),
        ..reader(
            "reevaluated.journal.json (reevaluate --resume)",
            "run-r/reevaluated.journal.json",
            &["run-r"],
            &["reevaluate", "run-r", "--games", "1", "--quiet", "--resume"],
            Kind::Json,
        )
    },
    Reader {
        range: Some(Edit::Value("accuracy_1", "7")),
        not_finite: Some(Edit::Value("accuracy_1", "nan")),
        foreign: Some("other/roster.toml"),
        ..reader(
            "roster.toml (report)",
            "run/roster.toml",
            &["run"],
            REPORT,
            Kind::Toml,
        )
    },
    // The fixture's roster names its first member `low-role.captain` (deterministic: its
    // strongest elite, named by the statistic that sets it most apart).
    reader(
        "roster.toml (play, a member by name)",
        "run/roster.toml",
        &["run"],
        &[
            "play",
            "--game",
            "puerto-rico",
            "--level",
            "4p",
            "--agents",
            "roster(file=run/roster.toml,name=low-role.captain),sa0,sa0,sa0",
        ],
        Kind::Toml,
    ),
    Reader {
        not_finite: Some(Edit::Value("score", "1e999")),
        foreign: Some("other-o/roster.journal.json"),
        ..reader(
            "roster.journal.json (roster --resume)",
            "run-o/roster.journal.json",
            &["run-o"],
            &[
                "roster",
                "run-o",
                "--count",
                "2",
                "--floor",
                "0",
                "--train-games",
                "2",
                "--test-games",
                "3",
                "--levels",
                "3p",
                "--quiet",
                "--resume",
            ],
            Kind::Json,
        )
    },
    Reader {
        foreign: Some("sens2-j/sensitivity.journal.json"),
        ..reader(
            "sensitivity.journal.json (sensitivity --resume)",
            "sens-j/sensitivity.journal.json",
            &["sens-j", "sens.toml"],
            &[
                "sensitivity",
                "sens.toml",
                "--out",
                "sens-j",
                "--quiet",
                "--resume",
            ],
            Kind::Json,
        )
    },
    // A tournament's folder.
    Reader {
        whole: true,
        foreign: Some("tour2/config.toml"),
        ..reader(
            "config.toml of a tournament (tournament --resume)",
            "tour/config.toml",
            &["tour", "t.toml"],
            TOURNAMENT_RESUME,
            Kind::Toml,
        )
    },
    Reader {
        range: Some(Edit::Cell("game", "7")),
        not_finite: Some(Edit::Cell("score_0", "NaN")),
        foreign: Some("tour2/games.csv"),
        ..reader(
            "games.csv (tournament --resume)",
            "tour/games.csv",
            &["tour", "t.toml"],
            TOURNAMENT_RESUME,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("win_rate", "7")),
        not_finite: Some(Edit::Cell("mean_score", "NaN")),
        ..reader(
            "summary.csv (plot)",
            "tour/summary.csv",
            &["tour"],
            &["plot", "tour"],
            Kind::Csv,
        )
    },
    // A ladder's folder.
    Reader {
        range: Some(Edit::Value("start", "-8")),
        not_finite: Some(Edit::Value("target", "nan")),
        foreign: Some("lad2/config.toml"),
        ..reader(
            "config.toml of a ladder (tiers)",
            "lad/config.toml",
            &["lad", "run"],
            TIERS_LADDER,
            Kind::Toml,
        )
    },
    Reader {
        whole: true,
        foreign: Some("lad2/config.toml"),
        ..reader(
            "config.toml of a ladder (ladder --resume)",
            "lad/config.toml",
            &["lad", "run", "lad.toml"],
            LADDER_RESUME,
            Kind::Toml,
        )
    },
    Reader {
        range: Some(Edit::Cell("score_a", "7")),
        not_finite: Some(Edit::Cell("score_a", "NaN")),
        foreign: Some("lad2/ladder_games.csv"),
        ..reader(
            "ladder_games.csv (ladder --resume)",
            "lad/ladder_games.csv",
            &["lad", "run", "lad.toml"],
            LADDER_RESUME,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("game", "-1")),
        not_finite: Some(Edit::Cell("score_a", "inf")),
        foreign: Some("lad2/ladder_games.csv"),
        ..reader(
            "ladder_games.csv (tiers)",
            "lad/ladder_games.csv",
            &["lad", "run"],
            TIERS_LADDER,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("win_rate", "7")),
        not_finite: Some(Edit::Cell("shipping_pct_mean", "NaN")),
        foreign: Some("lad2/ladder_style.csv"),
        ..reader(
            "ladder_style.csv (ladder --resume)",
            "lad/ladder_style.csv",
            &["lad", "run", "lad.toml"],
            LADDER_RESUME,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Cell("score", "7")),
        not_finite: Some(Edit::Cell("elo", "NaN")),
        foreign: Some("lad2/ladder.csv"),
        ..reader(
            "ladder.csv (report --ladder)",
            "lad/ladder.csv",
            &["lad", "run"],
            REPORT_LADDER,
            Kind::Csv,
        )
    },
    Reader {
        range: Some(Edit::Value("expected_below", "7")),
        not_finite: Some(Edit::Value("elo", "nan")),
        foreign: Some("lad2/tiers.toml"),
        ..reader(
            "tiers.toml of a ladder (report --ladder)",
            "lad/tiers.toml",
            &["lad", "run"],
            REPORT_LADDER,
            Kind::Toml,
        )
    },
    // Learned evaluation.
    Reader {
        foreign: Some("m.safetensors"),
        ..reader(
            "dataset (train)",
            "ds.dataset",
            &["ds.dataset"],
            &[
                "train",
                "ds.dataset",
                "--out",
                "m2.safetensors",
                "--hidden",
                "4",
                "--second",
                "4",
                "--epochs",
                "1",
                "--quiet",
                "--test-fraction",
                "0.5",
            ],
            Kind::Binary,
        )
    },
    Reader {
        foreign: Some("parts2.dataset.parts/part-000000.dataset"),
        ..reader(
            "dataset part (dataset --resume)",
            "parts.dataset.parts/part-000000.dataset",
            &["parts.dataset.parts", "parts.toml"],
            &[
                "dataset",
                "parts.toml",
                "--out",
                "parts.dataset",
                "--resume",
                "--quiet",
            ],
            Kind::Binary,
        )
    },
    Reader {
        foreign: Some("ds.dataset"),
        ..reader(
            "model (play)",
            "m.safetensors",
            &["m.safetensors"],
            &[
                "play",
                "--game",
                "puerto-rico",
                "--level",
                "3p",
                "--agents",
                "mcts(budget=10,model=m.safetensors),sa0,sa0",
            ],
            Kind::Binary,
        )
    },
    // A run taken through ask / work / tell.
    Reader {
        range: Some(Edit::Value("seed", "-1")),
        ..reader(
            "tasks.jsonl (work)",
            "tk-asked/batches/000001/tasks.jsonl",
            &["tk-asked"],
            &["work", "tk-asked/batches/000001/tasks.jsonl", "--quiet"],
            Kind::JsonLines,
        )
    },
    Reader {
        range: Some(Edit::Value("evaluation", "-4")),
        foreign: Some("tko/batches/000001/tasks.jsonl"),
        ..reader("tasks.jsonl (tell)", TASKS, &["tk"], TELL, Kind::JsonLines)
    },
    Reader {
        range: Some(Edit::Value("game", "-1")),
        foreign: Some("tko/batches/000001/results/shard-0-of-1.jsonl"),
        skip: &[(
            Damage::Empty,
            "an empty result file is a worker's before its first game (`tell` then names the \
             tasks without a result and their folder)",
        )],
        ..reader(
            "result lines (tell)",
            RESULTS,
            &["tk"],
            TELL,
            Kind::JsonLines,
        )
    },
    Reader {
        range: Some(Edit::Value("repetitions", "-1")),
        foreign: Some("tko/config.toml"),
        ..reader(
            "config.toml of a run (ask)",
            "tk-asked/config.toml",
            &["tk-asked"],
            &["ask", "tk-asked"],
            Kind::Toml,
        )
    },
    Reader {
        range: Some(Edit::Value("batch_size", "-4")),
        foreign: Some("tko/config.toml"),
        ..reader(
            "config.toml of a run (tell)",
            "tk/config.toml",
            &["tk"],
            TELL,
            Kind::Toml,
        )
    },
];

/// One way of damaging a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Damage {
    /// None: the intact file, which the command must read without an error.
    Intact,
    /// No bytes.
    Empty,
    /// Cut in its first line (a few bytes kept), or after 4 bytes of a binary file.
    CutFirst,
    /// Cut in its middle line, or in the middle of a binary file.
    CutMiddle,
    /// Cut in the middle of its last line, or 1 byte short of a binary file's end.
    CutLast,
    /// A directory in its place.
    Directory,
    /// A FIFO in its place (opened, it would block until a writer comes).
    Fifo,
    /// A link to nothing in its place.
    DanglingLink,
    /// A link to a FIFO.
    LinkToFifo,
    /// A link to a directory.
    LinkToDirectory,
    /// Two bytes that are not UTF-8 in its middle.
    NotUtf8,
    /// A TOML key, JSON member or CSV column given twice.
    Duplicated,
    /// A field out of its range ([`Reader::range`]).
    OutOfRange,
    /// A number that is NaN or infinite ([`Reader::not_finite`]).
    NotFinite,
    /// The same file of another run or game ([`Reader::foreign`]).
    Foreign,
}

impl Damage {
    const ALL: [Damage; 15] = [
        Damage::Intact,
        Damage::Empty,
        Damage::CutFirst,
        Damage::CutMiddle,
        Damage::CutLast,
        Damage::Directory,
        Damage::Fifo,
        Damage::DanglingLink,
        Damage::LinkToFifo,
        Damage::LinkToDirectory,
        Damage::NotUtf8,
        Damage::Duplicated,
        Damage::OutOfRange,
        Damage::NotFinite,
        Damage::Foreign,
    ];

    /// Its name in case names.
    fn name(self) -> &'static str {
        match self {
            Damage::Intact => "intact",
            Damage::Empty => "empty",
            Damage::CutFirst => "cut in the first line",
            Damage::CutMiddle => "cut in the middle",
            Damage::CutLast => "cut in the last line",
            Damage::Directory => "a directory",
            Damage::Fifo => "a FIFO",
            Damage::DanglingLink => "a dangling link",
            Damage::LinkToFifo => "a link to a FIFO",
            Damage::LinkToDirectory => "a link to a directory",
            Damage::NotUtf8 => "not UTF-8",
            Damage::Duplicated => "a key or column twice",
            Damage::OutOfRange => "a value out of range",
            Damage::NotFinite => "a number not finite",
            Damage::Foreign => "another run's or game's",
        }
    }

    /// True if the damage applies to `r`'s file.
    fn applies(self, r: &Reader) -> bool {
        let text = r.kind != Kind::Binary;
        let structured = !matches!(r.kind, Kind::Binary | Kind::Text);
        let wanted = match self {
            Damage::NotUtf8 => text,
            Damage::Duplicated => structured,
            Damage::OutOfRange => r.range.is_some(),
            Damage::NotFinite => r.not_finite.is_some(),
            Damage::Foreign => r.foreign.is_some(),
            _ => true,
        };
        wanted && !r.skip.iter().any(|&(d, _)| d == self)
    }

    /// What the error must say of a file that is not a regular file, if this damage makes one.
    fn says(self) -> Option<&'static str> {
        match self {
            Damage::Directory | Damage::LinkToDirectory => Some("not a regular file (a directory)"),
            Damage::Fifo | Damage::LinkToFifo => Some("not a regular file (a FIFO)"),
            Damage::DanglingLink => Some("No such file or directory"),
            _ => None,
        }
    }
}

/// The name of the case of reader `r` and damage `d`.
fn case_name(r: &Reader, d: Damage) -> String {
    format!("{}: {}", r.name, d.name())
}

/// The folder of valid files the cases copy, made once per test run.
fn fixture() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("hostile", "fixture");
        build_fixture(&dir);
        dir
    })
}

/// Runs `args` in `dir` (with `env` set), killing it after [`LIMIT`]: its output, or `None`
/// if it ran too long.
fn run_within(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_playstyles"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the binary can be waited for") {
            break Some(status);
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    status.map(|status| Output {
        status,
        stdout,
        stderr,
    })
}

/// Runs `args` in the fixture folder `dir`; panics unless it succeeds. Its standard output.
fn step(dir: &Path, args: &[&str]) -> String {
    let o = run_within(dir, args, &[]).unwrap_or_else(|| panic!("{args:?} hangs"));
    assert!(
        o.status.success(),
        "fixture: {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `args` in `dir`, stopped right after its first write (as if killed): leaves its journal.
fn stopped(dir: &Path, args: &[&str]) {
    let o = run_within(dir, args, &[(EXIT_AFTER_WRITES, "1")])
        .unwrap_or_else(|| panic!("{args:?} hangs"));
    assert_eq!(
        o.status.code(),
        Some(137),
        "fixture: {args:?} was not stopped"
    );
}

/// Copies the run `from` of `dir` to `to`, without the files `without`.
fn copy_run(dir: &Path, from: &str, to: &str, without: &[&str]) {
    copy_tree(&dir.join(from), &dir.join(to));
    for f in without {
        std::fs::remove_file(dir.join(to).join(f)).unwrap();
    }
}

/// Writes the fixture into `dir`: a finished Puerto Rico run with its validation,
/// re-evaluation and tiers; copies stopped in `validate` and `reevaluate` (their journals); a
/// tournament; a ladder of an elite of the run with its tiers; a stopped sensitivity
/// measurement; a dataset, a model trained on it, a dataset stopped after its first chunk; a
/// run taken through ask / work / tell to its second batch, asked (`tk-asked`) and worked
/// (`tk`); a level and a bot file. Then the files of other runs: a Tribes run (another game),
/// and each of the above again with another seed or other agents.
fn build_fixture(dir: &Path) {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    let configs = [
        ("run.toml", RUN.to_string()),
        ("other.toml", RUN.replace("seed = 11", "seed = 12")),
        ("tribes.toml", TRIBES_RUN.to_string()),
        ("t.toml", TOURNAMENT.to_string()),
        (
            "t2.toml",
            TOURNAMENT
                .replace("seed = 5", "seed = 6")
                .replace("captain", "builder"),
        ),
        ("lad.toml", LADDER.to_string()),
        (
            "lad2.toml",
            LADDER
                .replace("seed = 31", "seed = 32")
                .replace("\"random\"", "\"captain\"")
                .replace(
                    "spec = \"captain\"",
                    "spec = \"sa0(weights=[role.captain=1.0])\"",
                ),
        ),
        ("sens.toml", SENSITIVITY.to_string()),
        ("sens2.toml", SENSITIVITY.replace("seed = 3", "seed = 4")),
        ("ds.toml", DATASET.to_string()),
        ("parts.toml", PARTS.to_string()),
        ("parts2.toml", PARTS.replace("seed = 9", "seed = 10")),
        ("level.txt", LEVEL.to_string()),
        ("bots.toml", BOTS.to_string()),
    ];
    for (name, text) in &configs {
        write(name, text);
    }
    let journals = |run: &str| {
        step(
            dir,
            &[
                "validate",
                run,
                "--cells",
                "all",
                "--repetitions",
                "1",
                "--quiet",
            ],
        );
        step(dir, &["reevaluate", run, "--games", "1", "--quiet"]);
        step(dir, &["tiers", run, "--count", "2"]);
        let roster = |dir_name: &str| {
            [
                "roster",
                dir_name,
                "--count",
                "2",
                "--floor",
                "0",
                "--train-games",
                "2",
                "--test-games",
                "3",
                "--levels",
                "3p",
                "--quiet",
            ]
            .map(String::from)
        };
        let args = roster(run);
        step(dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
        let rostering = format!("{run}-o");
        copy_run(
            dir,
            run,
            &rostering,
            &[
                "roster.toml",
                "roster_confusion.csv",
                "roster_sizes.csv",
                "roster_games.csv",
                "roster.png",
                "roster.svg",
                "roster.done.json",
            ],
        );
        let args = roster(&rostering);
        stopped(dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
        let validating = format!("{run}-v");
        copy_run(
            dir,
            run,
            &validating,
            &[
                "validation.csv",
                "validation_summary.csv",
                "validation.done.json",
            ],
        );
        stopped(
            dir,
            &[
                "validate",
                &validating,
                "--cells",
                "all",
                "--repetitions",
                "1",
                "--quiet",
            ],
        );
        let reevaluating = format!("{run}-r");
        copy_run(
            dir,
            run,
            &reevaluating,
            &[
                "reevaluated.csv",
                "reevaluated_summary.csv",
                "reevaluated.done.json",
            ],
        );
        stopped(
            dir,
            &["reevaluate", &reevaluating, "--games", "1", "--quiet"],
        );
    };
    for (config, run) in [("run.toml", "run"), ("other.toml", "other")] {
        step(dir, &["evolve", config, "--out", run, "--quiet"]);
        journals(run);
    }
    step(
        dir,
        &["evolve", "tribes.toml", "--out", "tribes", "--quiet"],
    );
    for (config, out) in [("t.toml", "tour"), ("t2.toml", "tour2")] {
        step(dir, &["tournament", config, "--out", out, "--quiet"]);
    }
    for (config, out) in [("lad.toml", "lad"), ("lad2.toml", "lad2")] {
        step(dir, &["ladder", config, "--out", out, "--quiet"]);
        step(dir, &["tiers", out, "--count", "2", "--gap", "50"]);
    }
    for (config, out) in [("sens.toml", "sens-j"), ("sens2.toml", "sens2-j")] {
        stopped(dir, &["sensitivity", config, "--out", out, "--quiet"]);
    }
    step(
        dir,
        &["dataset", "ds.toml", "--out", "ds.dataset", "--quiet"],
    );
    step(
        dir,
        &[
            "train",
            "ds.dataset",
            "--out",
            "m.safetensors",
            "--hidden",
            "4",
            "--second",
            "4",
            "--epochs",
            "1",
            "--quiet",
            "--test-fraction",
            "0.5",
        ],
    );
    for (config, out) in [
        ("parts.toml", "parts.dataset"),
        ("parts2.toml", "parts2.dataset"),
    ] {
        step(
            dir,
            &[
                "dataset",
                config,
                "--out",
                out,
                "--quiet",
                "--stop-after-chunks",
                "1",
            ],
        );
    }
    for (config, run) in [("run.toml", "tk"), ("other.toml", "tko")] {
        let first = step(dir, &["ask", run, "--config", config]);
        step(dir, &["work", first.trim_end(), "--quiet"]);
        step(dir, &["tell", run]);
        let second = step(dir, &["ask", run]);
        assert_eq!(
            second.trim_end(),
            format!("{run}/batches/000001/tasks.jsonl")
        );
        if run == "tk" {
            copy_tree(&dir.join(run), &dir.join("tk-asked"));
        }
        step(dir, &["work", second.trim_end(), "--quiet"]);
    }
    // Every file a case damages is there.
    for r in READERS {
        assert!(dir.join(r.file).is_file(), "fixture: no {}", r.file);
        if let Some(f) = r.foreign {
            assert!(dir.join(f).is_file(), "fixture: no {f}");
        }
    }
}

/// True for a lock file (a folder's `.lock`, a file's `.NAME.lock`): not a reader's file, and
/// taken and released by the commands.
fn is_lock(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".lock")
}

/// Copies the file or folder `from` to `to` (folders recursively, lock files left out).
fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            if !is_lock(&name.to_string_lossy()) {
                copy_tree(&entry.path(), &to.join(name));
            }
        }
    } else {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
}

/// What is at each path under a folder: a file's bytes, a link's target, a folder, or another
/// kind of file (never opened: it may be a FIFO).
#[derive(Debug, PartialEq)]
enum Entry {
    File(Vec<u8>),
    Link(PathBuf),
    Folder,
    Special,
}

/// Every path under `dir` (lock files left out) and what is there; links are not followed.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Entry> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Entry>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if is_lock(&path.file_name().unwrap().to_string_lossy()) {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let what = if meta.is_symlink() {
                Entry::Link(std::fs::read_link(&path).unwrap())
            } else if meta.is_dir() {
                walk(root, &path, out);
                Entry::Folder
            } else if meta.is_file() {
                Entry::File(std::fs::read(&path).unwrap())
            } else {
                Entry::Special
            };
            out.insert(path.strip_prefix(root).unwrap().to_path_buf(), what);
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `bytes` cut in its first, middle or last line (`which` 0, 1, 2): a few bytes of the first
/// and middle lines kept, half of the last.
fn cut_text(bytes: &[u8], which: usize) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let i = [0, lines.len() / 2, lines.len() - 1][which];
    let start: usize = lines[..i].iter().map(|l| l.len() + 1).sum();
    let len = lines[i].len();
    let keep = if which == 2 {
        len / 2
    } else {
        len.saturating_sub(1).clamp(1, 3)
    };
    bytes[..start + keep].to_vec()
}

/// The 1-based line of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// `text` (of kind `kind`) with a key, member or column given twice, and what the error may
/// say of it.
fn duplicated(kind: Kind, text: &str) -> (String, Vec<String>) {
    match kind {
        Kind::Toml => {
            let at = text
                .lines()
                .scan(0, |start, l| {
                    let s = *start;
                    *start += l.len() + 1;
                    Some((s, l))
                })
                .find(|(_, l)| {
                    let l = l.trim_start();
                    l.contains('=') && !l.starts_with('#') && !l.starts_with('[')
                })
                .expect("a key")
                .0;
            let end = at + text[at..].find('\n').unwrap() + 1;
            let doubled = format!("{}{}{}", &text[..end], &text[at..end], &text[end..]);
            let line = line_of(text, end);
            (doubled, vec![format!("line {line}"), "duplicate".into()])
        }
        Kind::Csv => {
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            let first = |l: &str| -> String {
                let mut r = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .from_reader(l.as_bytes());
                r.records().next().unwrap().unwrap()[0].to_string()
            };
            for l in &mut lines {
                let cell = first(l);
                l.push(',');
                l.push_str(&cell);
            }
            let says = ["twice", "header", "duplicate"].map(String::from).to_vec();
            (lines.join("\n") + "\n", says)
        }
        Kind::Json | Kind::JsonLines => {
            // The object's first member, `"key": value,`, given again after itself.
            let open = text.find('{').unwrap() + 1;
            let comma = open + text[open..].find(',').unwrap() + 1;
            let member = &text[open..comma];
            let key = member.split('"').nth(1).unwrap().to_string();
            let doubled = format!("{}{member}{}", &text[..comma], &text[comma..]);
            (doubled, vec![key, "duplicate".into()])
        }
        Kind::Text | Kind::Binary => unreachable!("no keys"),
    }
}

/// `text` with `edit` applied, and what the error may say of it (the field, or its line).
fn edited(text: &str, edit: Edit) -> (String, Vec<String>) {
    match edit {
        Edit::Cell(column, value) => {
            let mut r = csv::Reader::from_reader(text.as_bytes());
            let header = r.headers().unwrap().clone();
            let i = header
                .iter()
                .position(|c| c == column)
                .unwrap_or_else(|| panic!("no column {column}"));
            let mut records = r.records();
            let row = records.next().expect("a row").unwrap();
            let start = row.position().unwrap().byte() as usize;
            let end = records.next().map_or(text.len(), |n| {
                n.unwrap().position().unwrap().byte() as usize
            });
            let cells: Vec<&str> = row
                .iter()
                .enumerate()
                .map(|(k, c)| if k == i { value } else { c })
                .collect();
            let mut w = csv::WriterBuilder::new()
                .terminator(csv::Terminator::Any(b'\n'))
                .from_writer(Vec::new());
            w.write_record(&cells).unwrap();
            let line = String::from_utf8(w.into_inner().unwrap()).unwrap();
            let changed = format!("{}{line}{}", &text[..start], &text[end..]);
            (changed, vec![column.to_string(), "line 2".into()])
        }
        Edit::Value(key, value) => {
            let toml = format!("\n{key} = ");
            let json = format!("\"{key}\":");
            let (at, from) = if let Some(at) = text.find(&toml) {
                (at + 1, at + toml.len())
            } else {
                let at = text.find(&json).unwrap_or_else(|| panic!("no key {key}"));
                let from = at + json.len();
                (
                    at,
                    from + text[from..].len() - text[from..].trim_start().len(),
                )
            };
            let end = from + text[from..].find([',', '}', '\n']).unwrap();
            let changed = format!("{}{value}{}", &text[..from], &text[end..]);
            let line = line_of(text, at);
            (changed, vec![key.to_string(), format!("line {line}")])
        }
    }
}

/// Makes `path` (holding `bytes`, of kind `kind`) damaged by `d`, in the case folder `dir`;
/// returns what the error may say of the damage (any of them), beyond the file's name.
fn damage(r: &Reader, d: Damage, dir: &Path, bytes: &[u8]) -> Vec<String> {
    let path = dir.join(r.file);
    std::fs::remove_file(&path).unwrap();
    let text = || String::from_utf8(bytes.to_vec()).unwrap();
    let cut = |which: usize| match r.kind {
        Kind::Binary => bytes[..[4, bytes.len() / 2, bytes.len() - 1][which]].to_vec(),
        _ => cut_text(bytes, which),
    };
    let mkfifo = |p: &Path| {
        let made = Command::new("mkfifo").arg(p).status().expect("mkfifo runs");
        assert!(made.success(), "mkfifo {}", p.display());
    };
    let mut says = Vec::new();
    let written: Option<Vec<u8>> = match d {
        Damage::Intact => Some(bytes.to_vec()),
        Damage::Empty => Some(Vec::new()),
        Damage::CutFirst => Some(cut(0)),
        Damage::CutMiddle => Some(cut(1)),
        Damage::CutLast => Some(cut(2)),
        Damage::NotUtf8 => {
            let mid = bytes.len() / 2;
            Some([&bytes[..mid], b"\xff\xfe", &bytes[mid..]].concat())
        }
        Damage::Duplicated => {
            let (t, s) = duplicated(r.kind, &text());
            says = s;
            Some(t.into_bytes())
        }
        Damage::OutOfRange | Damage::NotFinite => {
            let edit = if d == Damage::OutOfRange {
                r.range
            } else {
                r.not_finite
            };
            let (t, s) = edited(&text(), edit.unwrap());
            says = s;
            Some(t.into_bytes())
        }
        Damage::Foreign => Some(std::fs::read(fixture().join(r.foreign.unwrap())).unwrap()),
        Damage::Directory => {
            std::fs::create_dir(&path).unwrap();
            None
        }
        Damage::Fifo => {
            mkfifo(&path);
            None
        }
        Damage::DanglingLink => {
            std::os::unix::fs::symlink(dir.join("no-such-file"), &path).unwrap();
            None
        }
        Damage::LinkToFifo => {
            let fifo = dir.join("elsewhere.fifo");
            mkfifo(&fifo);
            std::os::unix::fs::symlink(&fifo, &path).unwrap();
            None
        }
        Damage::LinkToDirectory => {
            let folder = dir.join("elsewhere");
            std::fs::create_dir(&folder).unwrap();
            std::os::unix::fs::symlink(&folder, &path).unwrap();
            None
        }
    };
    if let Some(b) = written {
        std::fs::write(&path, b).unwrap();
    }
    match d.says() {
        Some(s) => vec![s.to_string()],
        None if r.whole => Vec::new(),
        None => says,
    }
}

/// Runs the case of reader `r` and damage `d` in a fresh folder under `base`: what is wrong
/// with how the command took it (empty if nothing), and its standard error.
fn run_case(base: &Path, r: &Reader, d: Damage) -> (Vec<String>, String) {
    let dir = base.join(format!("{:02}-{}", index_of(r), d.name().replace(' ', "-")));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for c in r.copy {
        copy_tree(&fixture().join(c), &dir.join(c));
    }
    let bytes = std::fs::read(dir.join(r.file)).unwrap();
    let says = damage(r, d, &dir, &bytes);
    let before = snapshot(&dir);
    let Some(o) = run_within(&dir, r.args, &[]) else {
        return (
            vec![format!("still running after {LIMIT:?}")],
            String::new(),
        );
    };
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let mut wrong = Vec::new();
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        wrong.push("panicked".to_string());
    }
    if d == Damage::Intact {
        if !o.status.success() {
            wrong.push(format!("the intact file failed ({:?})", o.status.code()));
        }
        return (wrong, err);
    }
    if o.status.code() != Some(2) {
        wrong.push(format!("exit code {:?}, not 2", o.status.code()));
    } else {
        let name = Path::new(r.file).file_name().unwrap().to_string_lossy();
        if !err.contains(&*name) {
            wrong.push(format!("the error does not name {name}"));
        }
        if !says.is_empty() && !says.iter().any(|s| err.contains(s.as_str())) {
            wrong.push(format!("the error says none of {says:?}"));
        }
    }
    let after = snapshot(&dir);
    let changed: Vec<String> = before
        .keys()
        .chain(after.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .map(|k| k.display().to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if !changed.is_empty() {
        wrong.push(format!("wrote {}", changed.join(", ")));
    }
    (wrong, err)
}

/// The place of `r` in [`READERS`].
fn index_of(r: &Reader) -> usize {
    READERS.iter().position(|x| std::ptr::eq(x, r)).unwrap()
}

#[cfg(unix)]
#[test]
fn every_damaged_file_exits_2_naming_it_without_a_panic_a_hang_or_a_write() {
    let base = scratch("hostile", "cases");
    fixture();
    let cases: Vec<(&Reader, Damage)> = READERS
        .iter()
        .flat_map(|r| Damage::ALL.iter().map(move |&d| (r, d)))
        .filter(|(r, d)| d.applies(r))
        .collect();
    let next = AtomicUsize::new(0);
    let results: Vec<Vec<(String, Vec<String>, String)>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        let Some(&(r, d)) = cases.get(i) else {
                            break done;
                        };
                        let (wrong, err) = run_case(&base, r, d);
                        done.push((case_name(r, d), wrong, err));
                    }
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let failures: Vec<String> = results
        .into_iter()
        .flatten()
        .filter(|(_, wrong, _)| !wrong.is_empty())
        .map(|(name, wrong, err)| {
            let err = err.trim_end().replace('\n', " | ");
            format!("{name}: {} ({err})", wrong.join("; "))
        })
        .collect();
    println!("{} cases over {} readers", cases.len(), READERS.len());
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
