//! The agents benchmark behind `playstyles bench agents` ([`bench_agents`]): a game's agents
//! ([`AgentBenchSet`]) timed one decision at a time on mid-game states, and over whole games.

use super::measure::{Timer, median};

/// What [`bench_agents`] times: a game's agents at their experiment budgets
/// ([`crate::kit::GameKit::bench_agents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentBenchSet {
    /// The agent of every seat in the games that provide the timed states.
    pub warmup: &'static str,
    /// Games of `warmup` agents played per level for those states.
    pub warmup_games: usize,
    /// Time only states where a turn starts (the player to move is not the previous
    /// state's), for agents that plan a whole turn at its first decision.
    pub turn_starts: bool,
    /// Time only states in this phase ([`crate::game::Game::phase`]), if given.
    pub phase: Option<u8>,
    /// Of the states that qualify, every how many is timed.
    pub every: usize,
    /// The timed decisions: (measure name, agent spec). A name ending in `_us` is measured in
    /// microseconds, any other in milliseconds.
    pub decisions: &'static [(&'static str, &'static str)],
    /// Also time each decision at the first decision of a game (the initial state of each
    /// level, one per whole-game seed), as `…_first_ms`.
    pub first_decisions: bool,
    /// The whole games, each given as (label, agent spec) per seat, as many seats as the
    /// levels have players; the seating is rotated by one seat game by game.
    pub games: &'static [&'static [(&'static str, &'static str)]],
    /// The unit of whole-game times: `"s"`, `"ms"` or `"us"`.
    pub game_unit: &'static str,
}

impl AgentBenchSet {
    /// The generic search agents at budget 2000 (the Tribes paper's experiment): one decision
    /// of MCTS, RHEA and P-MCTS(PU), and whole P-MCTS(PU)-vs-MCTS games, on states of
    /// `mcts(budget=100)` self-play.
    pub const SEARCH: AgentBenchSet = AgentBenchSet {
        warmup: "mcts(budget=100)",
        warmup_games: 1,
        turn_starts: false,
        phase: None,
        every: 25,
        decisions: &[
            ("mcts_ms", "mcts(budget=2000)"),
            ("rhea_ms", "rhea(budget=2000)"),
            ("pmcts_pu_ms", "pmcts(bias=true,pruning=true,budget=2000)"),
        ],
        first_decisions: false,
        games: &[&[
            ("pmcts", "pmcts(bias=true,pruning=true,budget=2000)"),
            ("mcts", "mcts(budget=2000)"),
        ]],
        game_unit: "s",
    };
}

/// Speed of a game's agents (see [`bench_agents`]): named medians, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentsBench {
    /// (name, median, unit): each timed decision (`…_ms`, milliseconds), the whole game
    /// (`A_vs_B_game_s`, seconds), the decisions (actions, ends of turn included) each agent
    /// made in those games (`A_game_decisions`; both seats pooled when the labels are equal)
    /// and the rounds (`game_rounds`).
    pub measures: Vec<(String, f64, &'static str)>,
    /// States the decisions were timed on.
    pub states: usize,
    /// Whole games timed.
    pub games: usize,
}

impl AgentsBench {
    /// The median called `name`, if measured.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.measures
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|&(_, v, _)| v)
    }

    /// The result as an aligned two-column table.
    pub fn to_table(&self) -> String {
        let width = self
            .measures
            .iter()
            .map(|(n, _, _)| n.len())
            .max()
            .unwrap_or(0)
            .max(7);
        let mut s = format!("{:<width$} {:>10}\n", "measure", "median");
        for (name, value, unit) in &self.measures {
            let digits = match *unit {
                "" => 1,
                "s" => 4,
                _ => 3,
            };
            s += format!("{name:<width$} {value:>10.digits$} {unit}").trim_end();
            s += "\n";
        }
        s
    }
}

/// One JSON object: every measure by name, then `states` and `games`.
impl serde::Serialize for AgentsBench {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.measures.len() + 2))?;
        for (name, value, _) in &self.measures {
            map.serialize_entry(name, value)?;
        }
        map.serialize_entry("states", &self.states)?;
        map.serialize_entry("games", &self.games)?;
        map.end()
    }
}

/// Times `set`'s agents: one decision each on states of `set.warmup_games` games per level
/// between `set.warmup` agents (rounds 5–30, every `set.every`th state that qualifies: any,
/// or with `set.turn_starts` a turn start, and with `set.phase` in that phase), with
/// `set.first_decisions` also on the first state of `games` games per level, and whole games
/// of each of `set.games` (seating rotated, one per level up to `games`). States where only
/// one action is legal are skipped (the agents return at once there).
///
/// Each whole-game set of seats reports `A_vs_B…_game_s` (its seat labels joined; the unit is
/// `set.game_unit`), the
/// decisions of each label's seats pooled (`A_game_decisions`) and `game_rounds`; when `set`
/// has more than one, the last two are prefixed by the game's name (`A_vs_B…_A_decisions`,
/// `A_vs_B…_game_rounds`).
///
/// # Errors
///
/// Agent construction errors (none for a game's own [`AgentBenchSet`]); an agent's illegal
/// choice ([`crate::Error::IllegalChoice`]).
pub fn bench_agents<G: crate::agent::SearchSupport>(
    game: &G,
    set: &AgentBenchSet,
    levels: &[G::Level],
    games: usize,
    seed: u64,
) -> crate::Result<AgentsBench> {
    use crate::agents::build_agent;
    let build = |s: &str| build_agent(game, s);
    let players = |level: &G::Level, seed: u64| {
        game.num_players(&crate::arena::initial_state(game, level, seed))
    };

    // Mid-game states from cheap self-play.
    let mut states = Vec::new();
    let mut buf = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        for j in 0..set.warmup_games {
            let match_seed = if j == 0 {
                seed ^ i as u64
            } else {
                crate::rng::derive_seed(seed, &[i as u64, j as u64])
            };
            let mut agents = (0..players(level, match_seed))
                .map(|_| build(set.warmup))
                .collect::<crate::Result<Vec<_>>>()?;
            let (mut k, mut last_player) = (0usize, None);
            crate::arena::play_match(game, level, &mut agents, match_seed, |s, _| {
                let r = game.round(s);
                let player = match game.turn(s) {
                    crate::game::Turn::Player(p) => Some(p),
                    _ => None,
                };
                let starts = player != last_player;
                last_player = player;
                let qualifies = (!set.turn_starts || starts)
                    && set.phase.is_none_or(|phase| game.phase(s) == phase);
                let take = qualifies && {
                    k += 1;
                    k.is_multiple_of(set.every.max(1))
                };
                if take && (5..=30).contains(&r) {
                    game.legal_actions(s, &mut buf);
                    if buf.len() > 1 {
                        states.push(s.clone());
                    }
                }
            })?;
        }
    }
    let mut first_states = Vec::new();
    if set.first_decisions {
        for level in levels {
            for i in 0..games {
                let s = crate::arena::initial_state(game, level, seed.wrapping_add(i as u64));
                game.legal_actions(&s, &mut buf);
                if buf.len() > 1 {
                    first_states.push(s);
                }
            }
        }
    }
    let mut rng = crate::rng::derive_rng(seed, &[0xbe7c]);
    let mut measures = Vec::new();
    let mut time = |name: String, spec: &str, states: &[G::State]| -> crate::Result<()> {
        let mut ms = Vec::with_capacity(states.len());
        let (unit, per) = if name.ends_with("_us") {
            ("us", 1e3)
        } else {
            ("ms", 1e6)
        };
        for s in states {
            let mut agent = build(spec)?;
            let t = Timer::start();
            std::hint::black_box(agent.act(game, s, &mut rng)?);
            ms.push(t.elapsed_ns() / per);
        }
        measures.push((name, median(&mut ms), unit));
        Ok(())
    };
    for &(name, spec) in set.decisions {
        time(name.to_string(), spec, &states)?;
    }
    if set.first_decisions {
        for &(name, spec) in set.decisions {
            let (stem, unit) = name.rsplit_once('_').unwrap_or((name, "ms"));
            time(format!("{stem}_first_{unit}"), spec, &first_states)?;
        }
    }
    // Whole games.
    let game_per = match set.game_unit {
        "ms" => 1e6,
        "us" => 1e3,
        _ => 1e9,
    };
    let mut timed_games = 0;
    for seats in set.games {
        let labels: Vec<&str> = seats.iter().map(|&(label, _)| label).collect();
        let title = labels.join("_vs_");
        let prefix = if set.games.len() > 1 {
            format!("{title}_")
        } else {
            String::new()
        };
        let mut distinct: Vec<&str> = Vec::new();
        for &l in &labels {
            if !distinct.contains(&l) {
                distinct.push(l);
            }
        }
        let (mut secs, mut rounds) = (Vec::new(), Vec::new());
        let mut decisions: Vec<Vec<f64>> = vec![Vec::new(); distinct.len()];
        for (i, level) in levels.iter().cycle().take(games).enumerate() {
            let match_seed = seed.wrapping_add(i as u64);
            let n = players(level, match_seed);
            if n != seats.len() {
                return Err(crate::Error::config(
                    "level",
                    format!(
                        "the benchmark game {title} seats {} agents, the level has {n} players",
                        seats.len()
                    ),
                ));
            }
            // Seat `p` gets the spec at `(p + i) % n`: game by game, every agent moves up one.
            let mut agents = (0..n)
                .map(|p| build(seats[(p + i) % n].1))
                .collect::<crate::Result<Vec<_>>>()?;
            let t = Timer::start();
            let record = crate::arena::play_match(game, level, &mut agents, match_seed, |_, _| {})?;
            secs.push(t.elapsed_ns() / game_per);
            rounds.push(f64::from(record.rounds));
            for (p, player) in record.players.iter().enumerate() {
                let label = labels[(p + i) % n];
                let d = distinct.iter().position(|&l| l == label).unwrap_or(0);
                decisions[d].push(player.actions() as f64);
            }
        }
        timed_games += secs.len();
        measures.push((
            format!("{title}_game_{}", set.game_unit),
            median(&mut secs),
            set.game_unit,
        ));
        for (label, mut d) in distinct.iter().zip(decisions) {
            let name = if prefix.is_empty() {
                format!("{label}_game_decisions")
            } else {
                format!("{prefix}{label}_decisions")
            };
            measures.push((name, median(&mut d), ""));
        }
        measures.push((format!("{prefix}game_rounds"), median(&mut rounds), ""));
    }
    Ok(AgentsBench {
        measures,
        states: states.len(),
        games: timed_games,
    })
}
