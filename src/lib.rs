//! playstyles: breeds diverse *and* strong bot personalities for turn-based strategy games.
//!
//! Brief overview:
//! - [`game`]: the game API ([`game::Game`]) every engine implements and every agent sees;
//! - [`games`]: the built-in games (Tribes, Prismata, Puerto Rico), each one folder
//!   `src/games/<game>/` with its engine, features, drawing, kit, golden tests and AI (`ai/`:
//!   its knowledge, scripts and own agents), one line each in [`games::visit_all`]; [`kit`]:
//!   what the workflows need of a game ([`kit::GameKit`]);
//! - [`agent`]: the agent API ([`agent::Agent`]: picks one action at a time), the game
//!   knowledge searches use ([`agent::Knowledge`]), portfolios of scripts
//!   ([`agent::Portfolio`]) and the `name(key=value,...)` spec strings agents are built from
//!   ([`agent::spec`]);
//! - [`agents`]: random, end-turn, rule-based, OSLA, MCTS, RHEA and Portfolio MCTS, built from
//!   spec strings ([`agents::build_agent`]), for any game;
//! - [`arena`]: plays matches between agents ([`arena::play_match`]) and replays them, plays
//!   series with seats rotated ([`arena::series::Series`]) and summarises them;
//! - [`bench`](mod@bench): measurement helpers and the forward-model and search-agent
//!   benchmarks ([`bench::bench_fm`], [`bench::bench_agents`]);
//! - [`board`]: pictures of game states for pages (SVG parts a game draws, and a legend);
//! - [`check`]: the invariant suite for a game of your own (random games checked at every
//!   step, the portfolio's contract, agents finishing games);
//! - [`features`]: play-style features (behaviour descriptors) from game records;
//! - [`learn`]: learned state evaluation: positions as counts, datasets, the value network,
//!   its trainer and model files;
//! - [`qd`]: the MAP-Elites engine (grid archive, genomes, emitter, ask/tell, checkpoints),
//!   knowing nothing of games;
//! - [`experiments`]: the workflows behind the subcommands, generic over the game, among them
//!   a MAP-Elites run batch by batch through separate processes for clusters
//!   ([`experiments::tasks`]: `ask`, `work`, `tell`), and the games a binary runs
//!   ([`experiments::Registry`]);
//! - [`cli`]: the command line (the only clap user), turned into typed settings; a library
//!   user's binary gets all of it for its own game with [`cli::main_for`];
//! - [`report`]: result files (CSV, written atomically), heatmaps, HTML pages (replays) and
//!   terminal output;
//! - [`stats`]: small statistics helpers ([`stats::wilson_interval`]); [`classify`]: naming
//!   which of several classes samples come from (linear discriminant analysis, shrunk);
//! - [`ladder`]: Bradley–Terry ratings of agents on the Elo scale with 95 % intervals;
//! - [`files`]: the one place user files are read (regular files only, with a size limit) and
//!   files are written (atomically: temp file, fsync, rename);
//! - [`limits`]: the largest counts and budgets accepted, each with its reason;
//! - [`rng`]: the only place RNGs are made; every run is reproducible from its seed;
//! - [`error`]: the crate's error type; every message names the field, line or flag at fault.
//!
//! # Your own game
//!
//! Implement [`Game`] (the rules) and [`SearchSupport`] (a [`Knowledge`] and a [`Portfolio`]
//! of scripts), and every agent plays it; implement [`GameKit`] too, and
//! `fn main() -> std::process::ExitCode { playstyles::cli::main_for::<MyGame>() }` is a binary
//! with every subcommand (`evolve`, `report`, …) for it. Here a race to 10 (players in turn add 1 or 2; who
//! reaches 10 wins) is played by three agents built from spec strings.
//! `examples/pig/` is a complete game with play-style features and a MAP-Elites run.
//!
//! ```
//! use std::sync::Arc;
//! use playstyles::rng::Rng;
//! use playstyles::{
//!     Actor, Agent, Assignment, Game, GameInfo, Knowledge, Outcome, Player,
//!     Portfolio, SearchSupport, Turn, build_agent, play_match,
//! };
//!
//! struct Race(GameInfo);
//!
//! #[derive(Clone, Debug, PartialEq)]
//! struct Count { total: u32, players: usize, moves: u32, winner: Option<Player> }
//!
//! impl Game for Race {
//!     type Level = usize; // the number of players
//!     type State = Count;
//!     type Action = u32; // what to add
//!     fn info(&self) -> &GameInfo { &self.0 }
//!     fn new_initial_state(&self, players: &usize, _seed: u64) -> Count {
//!         Count { total: 0, players: *players, moves: 0, winner: None }
//!     }
//!     fn num_players(&self, s: &Count) -> usize { s.players }
//!     fn turn(&self, s: &Count) -> Turn {
//!         match s.winner {
//!             Some(_) => Turn::Terminal,
//!             None => Turn::Player(s.moves as usize % s.players),
//!         }
//!     }
//!     fn round(&self, s: &Count) -> u32 { s.moves / s.players as u32 }
//!     fn legal_actions(&self, s: &Count, out: &mut Vec<u32>) {
//!         out.clear();
//!         if s.winner.is_none() { out.extend([1, 2]); }
//!     }
//!     fn actor(&self, s: &Count, _: u32) -> Actor {
//!         Actor { class: 0, id: s.moves % s.players as u32 }
//!     }
//!     fn action_kind(&self, _: u32) -> u8 { 0 }
//!     fn ends_turn(&self, _: u32) -> bool { true }
//!     fn apply(&self, s: &mut Count, add: u32) {
//!         s.total += add;
//!         if s.total >= 10 { s.winner = Some(s.moves as usize % s.players); }
//!         s.moves += 1;
//!     }
//!     fn outcome(&self, s: &Count) -> Option<Outcome> {
//!         s.winner.map(|w| Outcome::win(w, s.players))
//!     }
//!     fn score(&self, s: &Count, p: Player) -> f64 { f64::from(u8::from(s.winner == Some(p))) }
//! }
//!
//! /// Search knowledge: a finished game's utility, 0 before.
//! struct Utility;
//! impl Knowledge<Race> for Utility {
//!     fn evaluate(&self, g: &Race, _root: &Count, s: &Count, p: Player) -> f64 {
//!         g.outcome(s).map_or(0.0, |o| o.utility(p))
//!     }
//! }
//!
//! /// One script: add 2.
//! struct Greedy;
//! impl Portfolio<Race> for Greedy {
//!     fn script_names(&self) -> &[&'static str] { &["add_two"] }
//!     fn assignments(&self, _: &Race, s: &Count, _: &mut Rng, out: &mut Vec<Assignment<u32>>) {
//!         out.clear();
//!         if s.winner.is_none() { out.push(Assignment { action: 2, script: 0, value: 1.0 }); }
//!     }
//! }
//!
//! impl SearchSupport for Race {
//!     fn knowledge(&self) -> Arc<dyn Knowledge<Self>> { Arc::new(Utility) }
//!     fn portfolio(&self) -> Arc<dyn Portfolio<Self>> { Arc::new(Greedy) }
//! }
//!
//! let game = Race(GameInfo {
//!     name: "race", min_players: 2, max_players: 4, actor_classes: &["player"],
//!     action_kinds: &["add"], phases: &["turn"], stats: &[], action_labels: &[],
//!     chance: false, hidden_information: false,
//! });
//! let mut agents = ["mcts(budget=50)", "pmcts(budget=50)", "random"]
//!     .iter()
//!     .map(|spec| build_agent(&game, spec))
//!     .collect::<playstyles::Result<Vec<Box<dyn Agent<Race>>>>>()?;
//! let record = play_match(&game, &3, &mut agents, 7, |_, _| {})?;
//! let outcome = record.outcome.expect("a race always ends");
//! assert_eq!(outcome.seats(), 3);
//! assert!(outcome.winner().is_some());
//! # Ok::<(), playstyles::Error>(())
//! ```
//!
//! A script proposes only legal actions, with values in [0, 1]; proposing none lets the search
//! take every legal action ([`Portfolio`]). An illegal action is never applied: the arena
//! fails the match with [`Error::IllegalChoice`] naming the script or agent. Test a game as
//! this crate tests its own, with [`check::suite`]: random games checked at every step, the
//! portfolio's contract along them, and every search agent finishing games.

#![deny(missing_docs)]

pub mod agent;
pub mod agents;
pub mod arena;
pub mod bench;
pub mod board;
pub mod check;
pub mod classify;
pub mod cli;
pub mod error;
pub mod experiments;
pub mod features;
pub mod files;
pub mod game;
pub mod games;
pub mod kit;
pub mod ladder;
pub mod learn;
pub mod limits;
pub mod qd;
pub mod report;
pub mod rng;
pub mod stats;

pub use agent::{Agent, AgentSpec, Assignment, Knowledge, Portfolio, SearchSupport, StyleField};
pub use agents::build_agent;
pub use arena::series::{Series, SeriesGame};
pub use arena::{MatchRecord, PlayerRecord, play_match};
pub use error::{Error, Result};
pub use features::{Composite, Feature, GameView};
pub use game::{Actor, Game, GameInfo, Outcome, Player, Turn};
pub use kit::GameKit;
pub use qd::{Evaluation, Genome, MapElites};
