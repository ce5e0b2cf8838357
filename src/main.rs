//! The `playstyles` command-line tool: parses the flags, runs the command, and on error prints
//! `error: …` to standard error and exits with code 2; `ask` exits with code 3 when the
//! schedule is finished.

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = playstyles::cli::parse();
    match playstyles::cli::run(cli) {
        Ok(playstyles::experiments::Exit::Success) => ExitCode::SUCCESS,
        Ok(playstyles::experiments::Exit::Finished) => {
            ExitCode::from(playstyles::experiments::tasks::EXIT_FINISHED)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
