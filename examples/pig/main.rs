//! Your own game with playstyles: Pig ([`game`]), written against the library's public API,
//! and this binary, which gives it every subcommand of `playstyles` under its own name with one
//! call ([`playstyles::cli::main_for`]).
//!
//! ```sh
//! cargo run --release --example pig -- games                  # Pig's facts and features
//! cargo run --release --example pig -- play --level 2 --agents 'pmcts(budget=400),mcts(budget=100)'
//! cargo run --release --example pig -- evolve                 # the quick start: results/pig/
//! cargo run --release --example pig -- report results/pig     # results/pig/report.html
//! ```
//!
//! The quick start (`examples/pig/quickstart.toml`, [`game::PigGame`]'s
//! [`playstyles::GameKit::quickstart`]) breeds Portfolio MCTS players for 2-player Pig that
//! differ in how greedy they are (mean points banked per hold × rolls per turn), each
//! evaluated against a plain MCTS baseline.

mod game;

fn main() -> std::process::ExitCode {
    playstyles::cli::main_for::<game::PigGame>()
}
