//! Skirmish (`game.rs`): a two-player economy game written against the library's public API,
//! given every subcommand of `playstyles` under its own name by one call
//! ([`playstyles::cli::main_for`]).
//!
//! ```sh
//! cargo run --release --example skirmish -- games      # its facts, features and scripts
//! cargo run --release --example skirmish -- play --level open --agents 'pmcts(budget=200),mcts(budget=200)' --render
//! cargo run --release --example skirmish -- evolve --out results/skirmish   # the ten-line quick start
//! ```
//!
//! The quick start (`examples/skirmish/quickstart.toml`, `SkirmishGame`'s
//! [`playstyles::GameKit::quickstart`]) names the game, its training levels, the baseline, the
//! search budget and two features (the shares of military and of defence actions), nothing
//! else: the player, its steering and the breeding schedule are the tool's defaults.
//! `results/skirmish-styles/README.md` measures how far the steering moves the styles apart
//! and what it costs against MCTS (`examples/skirmish/styles.toml`).

mod game;

fn main() -> std::process::ExitCode {
    playstyles::cli::main_for::<game::SkirmishGame>()
}
