//! The `playstyles` command-line tool ([`playstyles::cli::main`]): parses the flags, runs the
//! command, and on error prints `error: …` to standard error and exits with code 2; `ask`
//! exits with code 3 when the schedule is finished.

fn main() -> std::process::ExitCode {
    playstyles::cli::main()
}
