use std::path::Path;

use playstyles::agents::build_agent;
use playstyles::arena::play_match;
use playstyles::experiments::replay::record;
use playstyles::game::Game;
use playstyles::games::tribes::TribesGame;
use playstyles::kit::GameKit;
use playstyles::report::replay::ReplaySource;

use crate::support::cli::{path_arg, playstyles, read_text, scratch, stderr};

fn source(agents: &[&str]) -> ReplaySource {
    ReplaySource {
        program: "playstyles".into(),
        game: "tribes".into(),
        level: "1590191438878".into(),
        seed: 3,
        agents: agents.iter().map(|a| a.to_string()).collect(),
    }
}

#[test]
fn a_replay_has_a_frame_at_the_start_and_after_every_turn() {
    let game = TribesGame::default();
    let level = TribesGame::load_level("1590191438878").unwrap();
    let specs = ["random", "random"];
    let build = || -> Vec<_> {
        specs
            .iter()
            .map(|s| build_agent(&game, s).unwrap())
            .collect()
    };
    let replay = record(&game, &level, source(&specs), &mut build()).unwrap();

    // The same match played plainly: count the turns (a change of the player to move).
    let mut turns = 0;
    let mut actions = 0;
    play_match(&game, &level, &mut build(), 3, |s, a| {
        let mut next = s.clone();
        game.apply(&mut next, a);
        actions += 1;
        if game.is_terminal(&next) || game.turn(&next) != game.turn(s) {
            turns += 1;
        }
    })
    .unwrap();
    assert_eq!(replay.frames.len(), turns + 1);
    assert_eq!(replay.frames[0].caption, "start");
    assert!(replay.frames[0].actions.is_empty());
    let listed: usize = replay.frames.iter().map(|f| f.actions.len()).sum();
    assert_eq!(listed, actions);
    assert!(
        replay.frames[1]
            .actions
            .last()
            .is_some_and(|a| a == "end turn")
    );
    // Every frame draws the whole board (one part per tile) and the status lines.
    let parts = replay.frames[0].parts.len();
    assert!(replay.frames.iter().all(|f| f.parts.len() == parts));
    assert!(replay.frames.iter().all(|f| f.scores.len() == 2));
    // Parts are shared: far fewer distinct parts than drawn ones.
    assert!(replay.parts.len() * 3 < replay.frames.len() * parts);
    assert!(replay.result.starts_with("winner"), "{}", replay.result);
}

#[test]
fn replay_writes_a_self_contained_page_and_the_same_page_twice() {
    let dir = scratch("replay", "page");
    let out = dir.join("game.html");
    let args = |out: &str| {
        vec![
            "replay".to_string(),
            "--level".into(),
            "1590191438878".into(),
            "--agents".into(),
            "random,osla".into(),
            "--seed".into(),
            "4".into(),
            "--out".into(),
            out.to_string(),
        ]
    };
    let run = |out: &str| {
        let a = args(out);
        playstyles(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let o = run(path_arg(&out));
    assert!(o.status.success(), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.starts_with("wrote "), "{stdout}");
    let html = read_text(&out);
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Nothing is fetched: no external scripts, styles or images.
    for fetch in ["src=\"http", "href=\"http", "<link", "<img", "@import"] {
        assert!(!html.contains(fetch), "{fetch}");
    }
    assert!(html.contains("class=\"replay\""));
    assert!(html.contains("Legend") && html.contains("deep water"));
    assert!(html.contains("--agents 'random,osla' --seed 4"));
    let again = dir.join("again.html");
    let o = run(path_arg(&again));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        html,
        read_text(&again),
        "the same command gives the same page"
    );

    // Issue 60: a page is replaced only with --force, and only a page this tool wrote.
    let o = run(path_arg(&again));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("exists; give --force"),
        "{}",
        stderr(&o)
    );
    let forced = |out: &Path| {
        let mut a = args(path_arg(out));
        a.push("--force".into());
        playstyles(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    assert!(forced(&again).status.success());
    assert_eq!(html, read_text(&again));
    let notes = dir.join("notes.html");
    std::fs::write(&notes, "<html>my notes</html>").unwrap();
    let folder = dir.join("folder.html");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("inside.txt"), "keep").unwrap();
    for (out, why) in [
        (&notes, "is not a replay page"),
        (&folder, "is a directory"),
    ] {
        let o = forced(out);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
    }
    assert_eq!(read_text(&notes), "<html>my notes</html>");
    assert_eq!(read_text(&folder.join("inside.txt")), "keep");
}

#[test]
fn replay_names_a_bad_agent_or_an_unwritable_page() {
    let o = playstyles(&[
        "replay",
        "--level",
        "1",
        "--agents",
        "random,nobody",
        "--out",
        "x.html",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("agents"), "{}", stderr(&o));
    assert!(stderr(&o).contains("nobody"), "{}", stderr(&o));

    let o = playstyles(&["replay", "--level", "1", "--agents", "random,random"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--out"), "{}", stderr(&o));

    let dir = scratch("replay", "unwritable");
    std::fs::write(dir.join("a-file"), "").unwrap();
    let page = dir.join("a-file").join("game.html");
    let o = playstyles(&[
        "replay",
        "--level",
        "1",
        "--agents",
        "random,random",
        "--out",
        path_arg(&page),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("a-file"), "{}", stderr(&o));
}
