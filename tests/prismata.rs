//! Prismata's bots through the public API: every built-in bot finishes games with legal
//! actions (the learned ones, which need a model, in `learned.rs`), bots replay from their seed, and bad bot specs and configs are errors naming the
//! field.

use playstyles::agent::Agent;
use playstyles::agents::build_agent;
use playstyles::arena::play_match;
use playstyles::games::prismata::ai::config::BotConfig;
use playstyles::games::prismata::{Level, PrismataGame};
use playstyles::kit::GameKit;

/// A bot with its search budget cut to a few evaluations, so that games are quick.
fn quick(name: &str) -> String {
    let config = BotConfig::builtin();
    match config.player(name) {
        Some(playstyles::games::prismata::ai::bot::Planner::AlphaBeta(_)) => {
            format!("{name}(evaluations=3)")
        }
        Some(
            playstyles::games::prismata::ai::bot::Planner::Uct(_)
            | playstyles::games::prismata::ai::bot::Planner::Pmcts(_),
        ) => format!("{name}(traversals=3)"),
        _ => name.to_string(),
    }
}

#[test]
fn every_builtin_bot_finishes_a_game_against_the_playout_bot() {
    let game = PrismataGame::default();
    let level = PrismataGame::load_level("1").unwrap();
    let mut need_a_model = Vec::new();
    for name in BotConfig::builtin().player_names() {
        if BotConfig::builtin()
            .player(name)
            .is_some_and(|p| p.needs_model())
        {
            need_a_model.push(name.to_string());
            continue;
        }
        let mut agents: Vec<Box<dyn Agent<PrismataGame>>> = vec![
            build_agent(&game, &quick(name)).unwrap(),
            build_agent(&game, "Playout").unwrap(),
        ];
        let record = play_match(&game, &level, &mut agents, 3, |_, _| {}).unwrap();
        let outcome = record
            .outcome
            .unwrap_or_else(|| panic!("{name}: no outcome"));
        assert_eq!(outcome.seats(), 2, "{name}");
        assert!(!record.actions.is_empty(), "{name}");
    }
    // Only the learned searches are left to `learned.rs`, and they do need their model.
    need_a_model.sort();
    assert_eq!(
        need_a_model,
        [
            "AB_Learned",
            "AB_Learned100",
            "AB_LearnedAhead",
            "UCT_Learned",
            "UCT_LearnedAhead",
            "UCT_LearnedSharp"
        ]
    );
    for name in &need_a_model {
        assert!(build_agent(&game, name).is_err(), "{name} without a model");
    }
}

#[test]
fn a_bot_game_replays_from_its_seed() {
    let game = PrismataGame::default();
    let level = Level::load(game.library(), "2").unwrap();
    let play = || {
        let mut agents: Vec<Box<dyn Agent<PrismataGame>>> = vec![
            build_agent(&game, "MediumAI").unwrap(),
            build_agent(&game, "AB100(evaluations=5)").unwrap(),
        ];
        play_match(&game, &level, &mut agents, 11, |_, _| {})
            .unwrap()
            .actions
    };
    assert_eq!(play(), play());
}

#[test]
fn bad_bot_specs_name_the_field() {
    let game = PrismataGame::default();
    let err = |spec: &str| match build_agent(&game, spec) {
        Ok(_) => panic!("{spec} should fail"),
        Err(e) => e.to_string(),
    };
    assert!(
        err("NoSuchBot").contains("ExpertAI"),
        "the error lists the bots"
    );
    assert!(err("ExpertAI(depth=3)").contains("depth"));
    assert!(err("ExpertAI(evaluations=x)").contains("evaluations"));
    assert!(err("ExpertAI(config=/no/such/file.toml)").contains("/no/such/file.toml"));
}

#[test]
fn a_bot_from_a_config_file_plays() {
    let dir = std::env::temp_dir().join(format!("playstyles-bots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bots.toml");
    std::fs::write(
        &path,
        r#"
        [partial_players]
        Defend = { type = "Defense_Solver" }
        Econ = { type = "ActionAbility_EconomyDefault" }
        Attack = { type = "ActionAbility_AttackDefault" }
        Clicks = { type = "ActionAbility_Combination", combination = ["Econ", "Attack"] }
        BuyAll = { type = "ActionBuy_Default" }
        Breach = { type = "Breach_GreedyKnapsack" }
        [players]
        Greedy = { type = "Player_PPSequence", partial_players = ["Defend", "Clicks", "BuyAll", "Breach"] }
        "#,
    )
    .unwrap();
    let game = PrismataGame::default();
    let spec = format!("Greedy(config={})", path.display());
    let mut agents: Vec<Box<dyn Agent<PrismataGame>>> = vec![
        build_agent(&game, &spec).unwrap(),
        build_agent(&game, "RandomAI").unwrap(),
    ];
    let level = Level::load(game.library(), "3").unwrap();
    let record = play_match(&game, &level, &mut agents, 1, |_, _| {}).unwrap();
    assert!(record.outcome.is_some());
    let bad = std::fs::read_to_string(&path)
        .unwrap()
        .replace("Econ\", \"Attack", "Econ\", \"Atack");
    std::fs::write(&path, bad).unwrap();
    let e = build_agent(&game, &spec).err().unwrap().to_string();
    assert!(e.contains("combination[1]"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_prismata_inputs_exit_with_code_2_naming_the_field() {
    use crate::support::cli::{playstyles, stderr};
    let play = |level: &str, agents: &str| {
        let o = playstyles(&[
            "play", "--game", "prismata", "--level", level, "--agents", agents,
        ]);
        assert_eq!(o.status.code(), Some(2), "{level} {agents}");
        stderr(&o)
    };
    // Level specs: an unknown unit, a repeated unit, a bad count, a bad seed, too many units.
    for (level, says) in [
        ("units:Shiver Yeti,Nope", "`Nope` is not a Prismata unit"),
        (
            "units:Shiver Yeti,Shiver Yeti",
            "`Shiver Yeti` is named twice",
        ),
        ("units:Tarsier", "`Tarsier` is in the base set"),
        ("x:5", "the unit count `x`"),
        ("8:five", "the seed `five`"),
        ("500:1", "level"),
    ] {
        let err = play(level, "Playout,Playout");
        assert!(
            err.starts_with("error: invalid `level`") && err.contains(says),
            "{level}: {err}"
        );
    }
    // Player specs: an unknown bot, a bad budget, weights of an unknown partial player.
    for (agents, says) in [
        ("Playout,Nobody", "agents"),
        ("UCT100(traversals=-1),Playout", "traversals"),
        ("PMCTS100(weights=[BuyNope=1]),Playout", "BuyNope"),
        ("PMCTS100(t_mult=0),Playout", "t_mult"),
        ("PMCTS100(blunder=1.5),Playout", "blunder"),
    ] {
        let err = play("1", agents);
        assert!(err.starts_with("error: invalid `"), "{agents}: {err}");
        assert!(err.contains(says), "{agents}: {err}");
    }
}

#[test]
fn a_malformed_bot_config_file_exits_with_code_2_naming_the_entry() {
    use crate::support::cli::{playstyles, stderr};
    let dir = std::env::temp_dir().join(format!("playstyles-badbots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bots.toml");
    for (text, says) in [
        (
            "[players]\nX = { type = \"Player_PPSequence\", partial_players = [\"A\"] }\n",
            "players.X.partial_players",
        ),
        ("[players\n", "bots.toml"),
        (
            "[partial_players]\nA = { type = \"ActionBuy_Sequence\", buy_sequence = [[\"Nope\", 0]] }\n[players]\nX = { type = \"Player_PPSequence\", partial_players = [\"A\", \"A\", \"A\", \"A\"] }\n",
            "partial_players.A",
        ),
    ] {
        std::fs::write(&path, text).unwrap();
        let spec = format!("X(config={}),Playout", path.display());
        let o = playstyles(&[
            "play", "--game", "prismata", "--level", "1", "--agents", &spec,
        ]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        let err = stderr(&o);
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains(says), "`{err}` should name {says}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bot_file_with_partial_players_in_wrong_slots_exits_with_code_2_before_any_game() {
    use crate::support::cli::{playstyles_in, scratch, stderr};
    let dir = scratch("prismata", "wrong-slots");
    let breach = "[partial_players]\nBreach = { type = \"Breach_GreedyKnapsack\" }\n";
    // Four breach players, as a sequence and as an iterator: they passed the config check
    // and panicked mid-game before.
    std::fs::write(
        dir.join("seq.toml"),
        format!(
            "{breach}[players]\nBad = {{ type = \"Player_PPSequence\", \
             partial_players = [\"Breach\", \"Breach\", \"Breach\", \"Breach\"] }}\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("iter.toml"),
        format!(
            "{breach}[iterators]\nAll = {{ partial_players = \
             [[\"Breach\"], [\"Breach\"], [\"Breach\"], [\"Breach\"]] }}\n\
             [players]\nBad = {{ type = \"Player_RandomFromIterator\", iterator = \"All\" }}\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("t.toml"),
        "game = \"prismata\"\nseed = 1\nlevels = [1, 2, 3]\nrepetitions = 4\n\
         [[pairing]]\nname = \"bad\"\nagents = [\"Bad(config=seq.toml)\", \"RandomAI\"]\n",
    )
    .unwrap();
    for (args, slot) in [
        (
            vec!["tournament", "t.toml", "--out", "out"],
            "players.Bad.partial_players[0]",
        ),
        (
            vec!["play", "--game", "prismata", "--level", "1", "--agents"],
            "players.Bad.partial_players[0]",
        ),
        (
            vec!["play", "--game", "prismata", "--level", "1", "--agents"],
            "iterators.All.partial_players[0][0]",
        ),
    ] {
        let agents = if slot.starts_with("iterators") {
            "Bad(config=iter.toml),RandomAI"
        } else {
            "Bad(config=seq.toml),RandomAI"
        };
        let mut args = args;
        if args[0] == "play" {
            args.push(agents);
        }
        let o = playstyles_in(&args, &dir);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(
            err.contains(slot) && err.contains("`Breach` is a breach player"),
            "`{err}` should name the slot {slot} and the player"
        );
    }
    assert!(
        !dir.join("out").join("games.csv").exists(),
        "no game played"
    );
}

#[test]
fn a_match_record_has_one_entry_per_own_turn_not_per_phase() {
    use playstyles::game::{Game, Turn};
    let game = PrismataGame::default();
    let level = Level::load(game.library(), "4").unwrap();
    let mut agents: Vec<Box<dyn Agent<PrismataGame>>> = vec![
        build_agent(&game, "MediumAI").unwrap(),
        build_agent(&game, "Playout").unwrap(),
    ];
    // Count each seat's turns: the plies at which the player to move changes away from it.
    let mut turns = [0usize; 2];
    let record = play_match(&game, &level, &mut agents, 5, |s, a| {
        let Turn::Player(p) = game.turn(s) else {
            return;
        };
        let mut next = s.clone();
        game.apply(&mut next, a);
        if game.turn(&next) != Turn::Player(p) {
            turns[p] += 1;
        }
    })
    .unwrap();
    assert!(turns[0] > 3, "{turns:?}");
    for (p, &n) in turns.iter().enumerate() {
        assert_eq!(record.players[p].turns.len(), n, "seat {p}");
    }
}

#[test]
fn a_budget_of_0_is_an_error_naming_the_field_and_the_bot_file() {
    use crate::support::cli::{playstyles, scratch, stderr};
    let play = |agents: &str| {
        let o = playstyles(&[
            "play", "--game", "prismata", "--level", "1", "--agents", agents,
        ]);
        assert_eq!(o.status.code(), Some(2), "{agents}: {}", stderr(&o));
        stderr(&o)
    };
    for (agents, field) in [
        ("UCT100(traversals=0),RandomAI", "`traversals`"),
        ("PMCTS100(traversals=0),RandomAI", "`traversals`"),
        ("AB100(evaluations=0),RandomAI", "`evaluations`"),
    ] {
        let err = play(agents);
        assert!(err.contains(field), "{agents}: {err}");
    }
    // In a bot file: the entry's field, the file and the line.
    let dir = scratch("prismata", "zero-budget");
    let builtin = include_str!("../src/games/prismata/ai/bots.toml");
    let line = 1 + builtin
        .lines()
        .position(|l| l.starts_with("UCT100 = "))
        .unwrap();
    let text = builtin.replacen(
        "UCT100 = { type = \"Player_UCT\", traversals = 40,",
        "UCT100 = { type = \"Player_UCT\", traversals = 0,",
        1,
    );
    assert_ne!(text, builtin);
    let path = dir.join("zero.toml");
    std::fs::write(&path, text).unwrap();
    let err = play(&format!("UCT100(config={}),RandomAI", path.display()));
    for needle in [
        "players.UCT100.traversals".to_string(),
        "zero.toml".to_string(),
        format!("line {line}"),
    ] {
        assert!(err.contains(&needle), "`{needle}` not in {err}");
    }
}

/// A scratch folder `name` and its `defaults.toml`: a Prismata config that names no player
/// (level 1 against MediumAI, the economy feature), `evaluation` added to its `[evaluation]`.
fn config_without_a_player(
    name: &str,
    evaluation: &str,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = crate::support::cli::scratch("prismata", name);
    let cfg = dir.join("defaults.toml");
    std::fs::write(
        &cfg,
        format!(
            "game = \"prismata\"\n[evaluation]\nlevels = [\"1\"]\nbaseline = \"MediumAI\"\n\
             {evaluation}[[features]]\nname = \"economy\"\nmin = 20\nmax = 50\nstep = 3\n"
        ),
    )
    .unwrap();
    (dir, cfg)
}

/// A Prismata run config that names no player breeds the game's own steering player
/// (`GameKit::steering_player`): `PMCTS100` with its style strength to calibrate, over every
/// phase's partial players, its `traversals` the config's `budget`.
#[test]
fn a_config_without_a_player_breeds_the_games_steering_player() {
    use crate::support::cli::{path_arg, playstyles, read_text, succeeded};
    let (dir, cfg) = config_without_a_player("steering-player", "budget = 30\n");
    let run = dir.join("run");
    succeeded(
        playstyles(&[
            "evolve",
            path_arg(&cfg),
            "--out",
            path_arg(&run),
            "--stop-after-batches",
            "0",
            "--quiet",
        ]),
        "evolve",
    );
    let resolved = read_text(&run.join("config.toml"));
    assert!(
        resolved.contains("player = \"PMCTS100(style=auto,traversals=30)\""),
        "{resolved}"
    );
    let scripts = playstyles::games::prismata::ai::support::SCRIPTS;
    let line = format!(
        "scripts = [{}]",
        scripts.map(|s| format!("\"{s}\"")).join(", ")
    );
    assert!(resolved.lines().any(|l| l == line), "{line} in\n{resolved}");
}

/// `sensitivity` of a Prismata config without a player measures the game's steering player
/// too: its genomes weigh every phase's partial players, and `--strengths` draws the
/// trade-off of the player's style strength.
#[test]
fn sensitivity_without_a_player_measures_the_games_steering_player() {
    use crate::support::cli::{path_arg, playstyles, read_text, succeeded};
    let (dir, cfg) =
        config_without_a_player("steering-sensitivity", "budget = 10\nrepetitions = 2\n");
    let out = dir.join("sensitivity");
    succeeded(
        playstyles(&[
            "sensitivity",
            path_arg(&cfg),
            "--out",
            path_arg(&out),
            "--strengths",
            "0,2",
            "--threads",
            "2",
            "--quiet",
        ]),
        "sensitivity",
    );
    let genomes = read_text(&out.join("sensitivity_genomes.csv"));
    let header = genomes.lines().next().unwrap();
    for script in playstyles::games::prismata::ai::support::SCRIPTS {
        assert!(
            header.contains(&format!("weight_{script},")),
            "{script} in {header}"
        );
    }
    let strengths = read_text(&out.join("sensitivity_strengths.csv"));
    let rows: Vec<&str> = strengths.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{strengths}");
    assert!(
        rows[0].starts_with("0,") && rows[1].starts_with("2,"),
        "{strengths}"
    );
}
