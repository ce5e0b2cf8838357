use std::time::Duration;

use crate::support::cli::{playstyles, playstyles_within, stderr};

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

#[test]
fn a_level_the_game_refuses_names_the_level_flag() {
    // Puerto Rico named `levels` here, a field of configs, not of `play`.
    for level in ["7p", "four"] {
        let o = playstyles(&[
            "play",
            "--game",
            "puerto-rico",
            "--level",
            level,
            "--agents",
            "sa0,sa0",
        ]);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(err.starts_with("error: invalid `level`:"), "{err}");
    }
}

/// How long a refused endless input may take (reading 16 MiB and stopping takes milliseconds).
const ENDLESS_INPUT_LIMIT: Duration = Duration::from_secs(60);

#[cfg(unix)]
#[test]
fn an_endless_level_file_exits_with_code_2_naming_it() {
    let o = playstyles_within(
        &["play", "--level", "/dev/zero", "--agents", "random,random"],
        ENDLESS_INPUT_LIMIT,
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.starts_with("error: /dev/zero: larger than the limit of 16 MiB"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn an_endless_config_file_exits_with_code_2_naming_it() {
    for command in ["evolve", "tournament"] {
        let o = playstyles_within(&[command, "/dev/zero"], ENDLESS_INPUT_LIMIT);
        assert_eq!(o.status.code(), Some(2), "{command}");
        let err = stderr(&o);
        assert!(
            err.starts_with("error: /dev/zero: larger than the limit of 16 MiB"),
            "{command}: {err}"
        );
    }
}

#[test]
fn games_lists_every_registered_game_with_its_facts() {
    let o = playstyles(&["games"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    for fact in [
        "tribes\n",
        "players: 1-4",
        "chance: yes",
        "hidden information: no",
        "phases: main",
        "statistics: score, techs",
        "    attacks ",
        "    speed_win ",
        "kind:attack",
        "label:spawn.archer",
        "slope:techs",
    ] {
        assert!(text.contains(fact), "`{fact}` missing from:\n{text}");
    }
    assert!(!text.contains("won games only, won games only"), "{text}");
}
