//! The integration tests: one binary, one module per topic. Register a new topic file
//! `tests/<topic>.rs` by adding `mod <topic>;` below.

/// A toy game (Nim with several takes per turn) shared by the topics.
mod support;

/// Adaptive sampling: more games while a genome's place is uncertain, deterministic,
/// resumable and byte-identical through ask/work/tell; malformed settings named.
mod adaptive;
/// Agents finish games with legal actions and keep to their character.
mod agents;
/// Matches are deterministic and replay; the action cap stops runaway games.
mod arena;
/// Every input bounded: FIFOs and devices refused by name, counts, budgets and threads above
/// their maxima named before any game, grids checked with the config.
mod bounds;
/// Pages in headless Chromium: replays and the run explorer load from disk, their scripts
/// run without errors and draw a frame per turn and a card per elite; screenshots kept.
mod browser;
/// Issue 61, calibration of the player's style strength: tables, chart and choice agree,
/// deterministic, resumable, byte-identical through ask/work/tell, `sensitivity
/// --strengths`, malformed settings named; committed runs read as before.
mod calibration;
/// The command-line binary: exit codes and error messages.
mod cli;
/// Dask and Slurm for real: a run through a Dask LocalCluster and a one-node Slurm is
/// byte-identical to `evolve`.
mod cluster;
/// Issue 26: an illegal script proposal or agent action is an error naming the game, script
/// (or agent) and action, through matches, series and the play workflow; the check module
/// finds both.
mod contract;
/// The `evolve` command: run-directory files, thread-count and resume determinism, no
/// overwriting without `--force`, config errors naming the field.
mod evolve;
/// The generic `play` and `bench` workflows on the toy game.
mod experiments;
/// Game API provided methods on the toy game.
mod game_api;
/// Issue 60, the hostile-file corpus: every file the tool reads, cut short, empty, a
/// directory, a FIFO, a link, not UTF-8, a key twice, a value out of range or not finite, or
/// another run's, exits 2 naming it (and its line or field), without a panic, a hang or a write.
mod hostile;
/// Every registered game and the Pig and Skirmish examples: random games keep the invariants
/// (clone, legal actions, outcomes, round cap, replay); every search agent finishes 2-, 3- and
/// 4-player games.
mod invariants;
/// The crash harness, one table of every writing command (`evolve` and `ask`/`work`/`tell`,
/// with and without calibration, `tournament`, `validate`, `reevaluate`, `sensitivity`,
/// `ladder`, `dataset`, `train`, `tiers`, `report`, `plot`, `replay`): stopped after any write or killed at random, then run
/// again as documented (`--resume` where it has it), each ends byte-identical to an
/// uninterrupted run; run again once finished, nothing changes.
mod kill_resume;
/// Issue 31: ladders rate agents deterministically and resumably; tiers from ratings keep
/// their gap, a held-out ladder checks their order; malformed ladders are named.
mod ladder;
/// Learned evaluation through the command line: `dataset` and `train` at CI scale,
/// reproducible and resumable; the model played by the searches; bad files and flags named.
mod learned;
/// Tribes level files: malformed inputs, built-in levels, the generator.
mod levels;
/// Issue 60: no command deletes or changes what it did not create, whatever its flags: other
/// people's files, folders and links in an output folder survive a fresh run, `--force` and
/// `--resume`; a file output that is a folder, a foreign file or a link is refused.
mod owned;
/// A library user's game through its own binary (`examples/pig`, `cli::main_for`): every
/// subcommand under Pig's name, `ask`/`work`/`tell` byte-identical to `evolve`, exit codes.
mod pig;
/// Tribes random-playout invariants, determinism and replay.
mod playouts;
/// Issue 29, Portfolio MCTS steered by its weights: the opt-in fields (weighted rollouts,
/// expansion and final move, style strength) parse, name bad values, stay
/// deterministic, and do what they say.
mod pmcts_steering;
/// Prismata's bots: every built-in bot finishes games, replays, spec and config errors.
mod prismata;
/// The MAP-Elites engine: cells, insertion, schedule, determinism, resume, CSV, heatmaps.
mod qd;
/// `replay`: a game as an HTML page of pictures, one frame per turn; errors naming the flag.
mod replay;
/// Issue 61, `roster`: the same files for any thread count and after `--resume`, `--count
/// auto` by its rule, members playing by name in `play` and `tournament`, errors named.
mod roster;
/// Issues 27 and 60, a run directory owns itself: its lock (never through a link), resuming before the first checkpoint,
/// `config.toml` checked against the checkpoint, bot files copied into the run.
mod run_dir;
/// Search agents on Tribes: legal play, a winning capture, one-script portfolios, specs.
mod search_agents;
/// `sensitivity`: its tables and chart, effects consistent with the genomes' games,
/// thread-count determinism, `--resume` after a stop, bad flags named with exit code 2.
mod sensitivity;
/// Series: seats rotated, seeds derived, thread-count independence, any subset of games;
/// per-player game records; summaries and the Wilson interval.
mod series;
/// Issue 61, a new game given ten lines: `examples/skirmish`'s quick start names only the
/// game, levels, baseline, budget and two features, each resolving against the game.
mod skirmish;
/// Agent spec strings: round trips and errors naming the field.
mod spec;
/// `ask`, `work` and `tell`: a run through them with two shards is byte-identical to
/// `evolve`; missing results named; telling twice harmless; a killed worker re-run completes.
mod tasks;
/// The `tournament` workflow and command: config errors naming the field, byte-identical
/// results for any thread count and after `--resume`, saves every few games, corrupted
/// `games.csv` rows named by line, no overwriting without `--force`, the Table I config;
/// `plot` of a tournament's summary, and bad `summary.csv` rows named by line.
mod tournament;
/// Tribes portfolio scripts and the rule-based agent.
mod tribes_scripts;
/// `plot`, `validate`, `reevaluate` and `tiers` on a synthetic run directory: pictures,
/// validation and re-evaluation tables, corner cells, held-out levels, errors naming the flag
/// or file (and line), tiers that play.
mod validate;
