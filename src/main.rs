//! The `playstyles` command-line tool ([`playstyles::cli::main`]): parses the flags, runs the
//! command, and on error prints `error: …` to standard error and exits with code 2; `ask`
//! exits with code 3 when the schedule is finished.

/// The searches clone states and turn plans by the million; mimalloc serves those small,
/// short-lived blocks faster than the system allocator (see the commit that added it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    playstyles::cli::main()
}
