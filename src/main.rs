//! The `playstyles` command-line tool: parses the flags, runs the command, and on error prints
//! `error: …` to standard error and exits with code 2.

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = playstyles::cli::parse();
    match playstyles::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
