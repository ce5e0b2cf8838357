use crate::support::cli::{playstyles, stderr};

#[test]
fn help_lists_the_subcommands() {
    let o = playstyles(&["--help"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for sub in ["levels", "play", "bench"] {
        assert!(text.contains(sub), "{text}");
    }
}

#[test]
fn a_bad_flag_value_exits_with_code_2_naming_the_flag() {
    let o = playstyles(&[
        "play", "--level", "1", "--agents", "random", "--seed", "abc",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--seed"), "{}", stderr(&o));
}

#[test]
fn a_malformed_agent_spec_exits_with_code_2_and_an_error_line() {
    let o = playstyles(&["play", "--level", "1", "--agents", "random,mcts(budget="]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.starts_with("error: invalid `agents`"), "{err}");
}
