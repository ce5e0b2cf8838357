//! The tournament config file (format in [`super::tournament`]): its TOML form, its
//! validated form, and the settings of `playstyles tournament`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::GameKind;
use super::agent_files::{AgentFile, keep_files};
use super::config_file::{
    LevelSet, LevelsField, in_file, level_set, output_folder, plain_name, toml_error,
};
use crate::agent::AgentSpec;
use crate::error::{Error, Result};
use crate::files::{TEXT_LIMIT, read_text};
use crate::limits;

/// The tournament seed when a config gives none (the run configs' default too).
pub const DEFAULT_SEED: u64 = 1;

/// Games per level and pairing when a config gives none: the paper's Table I (25 levels × 20
/// = 500 games a pairing, a win rate within about ±4.4 points at 95 %); even, so each agent
/// of a two-player pairing takes each seat equally often.
pub const DEFAULT_REPETITIONS: u32 = 20;

/// A tournament config as written in TOML (the unvalidated form; see [`TournamentSpec`]).
/// `levels` and the pairings are required, every other field has a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentFile {
    /// The game: a registered name (`playstyles games`; default: the first registered game).
    #[serde(default = "default_game")]
    pub game: String,
    /// The game's rules options, read as the game's `GameKit::Rules` (default: the game's).
    #[serde(default)]
    pub rules: toml::Table,
    /// The tournament seed (default [`DEFAULT_SEED`]).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// `"paper"`, or a list of level seeds and level files (no default: Puerto Rico's
    /// built-in levels mix player counts, so no one set suits every game's pairings).
    pub levels: LevelsField,
    /// Games per level and pairing (default [`DEFAULT_REPETITIONS`]).
    #[serde(default = "default_repetitions")]
    pub repetitions: u32,
    /// The pairings, as `[[pairing]]` tables.
    #[serde(rename = "pairing")]
    pub pairings: Vec<PairingFile>,
}

fn default_game() -> String {
    GameKind::default().name().into()
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

fn default_repetitions() -> u32 {
    DEFAULT_REPETITIONS
}

/// One `[[pairing]]` table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairingFile {
    /// The pairing's name in reports.
    pub name: String,
    /// Agent specs, one per participant; the first is the one the summary is about.
    pub agents: Vec<String>,
}

/// One validated pairing.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// Its name in reports (unique within the tournament).
    pub name: String,
    /// One agent per participant (at least two).
    pub agents: Vec<AgentSpec>,
}

impl Pairing {
    /// The agents' specs in canonical form.
    pub fn specs(&self) -> Vec<String> {
        self.agents.iter().map(ToString::to_string).collect()
    }
}

/// A validated tournament config.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentSpec {
    /// The game.
    pub game: GameKind,
    /// The game's rules options, still to be read as the game's `GameKit::Rules`.
    pub rules: toml::Table,
    /// The tournament seed.
    pub seed: u64,
    /// The levels.
    pub levels: LevelSet,
    /// Games per level and pairing (at least 1).
    pub repetitions: u32,
    /// The pairings (at least one).
    pub pairings: Vec<Pairing>,
}

impl TournamentSpec {
    /// Parses and validates a tournament config.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field at fault (e.g. `repetitions`, `levels`,
    /// `pairing[1].agents`): a TOML syntax error (field `config`), an unknown or missing field,
    /// a value of the wrong type, an unknown game, a level word other than `"paper"`, no
    /// levels or more than [`limits::MAX_LEVELS`], zero repetitions or more than
    /// [`limits::MAX_REPETITIONS`], more games than [`limits::MAX_GAMES`], no pairings, an
    /// empty or repeated pairing name or one with a control character, a pairing with fewer
    /// than two agents, a malformed agent spec.
    pub fn parse(text: &str) -> Result<Self> {
        let file: TournamentFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        Self::validate(file)
    }

    /// Validates the TOML form; see [`TournamentSpec::parse`].
    ///
    /// # Errors
    ///
    /// As [`TournamentSpec::parse`], except for TOML errors.
    pub fn validate(file: TournamentFile) -> Result<Self> {
        let game: GameKind = file.game.parse()?;
        let levels = level_set(file.levels, "levels")?;
        if file.repetitions == 0 {
            return Err(Error::config("repetitions", "must be at least 1"));
        }
        limits::at_most(
            u64::from(file.repetitions),
            limits::MAX_REPETITIONS,
            "repetitions",
        )?;
        if file.pairings.is_empty() {
            return Err(Error::config(
                "pairing",
                "give at least one [[pairing]] table",
            ));
        }
        let mut pairings: Vec<Pairing> = Vec::with_capacity(file.pairings.len());
        for (i, p) in file.pairings.into_iter().enumerate() {
            let name = plain_name(
                &p.name,
                &format!("pairing[{i}].name"),
                "pairing",
                pairings.iter().any(|q| q.name == p.name.trim()),
            )?;
            let field = format!("pairing[{i}].agents");
            if p.agents.len() < 2 {
                return Err(Error::config(
                    field,
                    format!(
                        "a pairing needs at least two agents (got {}); the first is the one the summary is about",
                        p.agents.len()
                    ),
                ));
            }
            let agents = p
                .agents
                .iter()
                .map(|s| AgentSpec::parse(s).map_err(|e| within(&field, e)))
                .collect::<Result<_>>()?;
            pairings.push(Pairing { name, agents });
        }
        let spec = TournamentSpec {
            game,
            rules: file.rules,
            seed: file.seed,
            levels,
            repetitions: file.repetitions,
            pairings,
        };
        if let LevelSet::List(levels) = &spec.levels {
            spec.check_games(levels.len())?;
        }
        Ok(spec)
    }

    /// Checks that the tournament's games (`levels` × repetitions × pairings) are at most
    /// [`limits::MAX_GAMES`]; `levels` is the number of levels (known once a `"paper"` set is
    /// resolved for the game).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `repetitions`, showing the product.
    pub fn check_games(&self, levels: usize) -> Result<()> {
        limits::games(
            &[
                (levels as u64, "levels"),
                (u64::from(self.repetitions), "repetitions"),
                (self.pairings.len() as u64, "pairings"),
            ],
            "repetitions",
        )
        .map(|_| ())
    }

    /// The resolved config as TOML: `rules` as the game read them (every default explicit),
    /// `levels` listed, agent specs in canonical form. It parses back to an equal spec (with
    /// `levels` listed).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `rules` if they cannot be written as TOML.
    pub fn resolved_toml(&self, rules: toml::Table, levels: &[String]) -> Result<String> {
        let file = TournamentFile {
            game: self.game.name().to_string(),
            rules,
            seed: self.seed,
            levels: LevelsField::listed(levels),
            repetitions: self.repetitions,
            pairings: self
                .pairings
                .iter()
                .map(|p| PairingFile {
                    name: p.name.clone(),
                    agents: p.specs(),
                })
                .collect(),
        };
        toml::to_string(&file).map_err(|e| Error::config("rules", e.to_string()))
    }
}

impl TournamentSpec {
    /// This tournament with its agents naming the output folder's copies of their files
    /// ([`keep_files`]: `bots/x.toml` → `agent-files/bots/x.toml`), and the files to copy there;
    /// a tournament whose agents read no file comes back as it is, with no file.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `pairing[i].agents` if two of its files would be kept at one
    /// path.
    pub fn keeping_files(&self) -> Result<(TournamentSpec, Vec<AgentFile>)> {
        let mut files = Vec::new();
        let mut kept = self.clone();
        for (i, p) in kept.pairings.iter_mut().enumerate() {
            let field = format!("pairing[{i}].agents");
            for a in &mut p.agents {
                *a = keep_files(a, &field, &mut files)?;
            }
        }
        Ok((kept, files))
    }
}

/// Validated settings of `playstyles tournament`.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentConfig {
    /// The tournament itself.
    pub spec: TournamentSpec,
    /// The output folder.
    pub out: PathBuf,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// Remove existing result files first.
    pub force: bool,
    /// Continue the tournament whose results are in `out` (see [`super::tournament::tournament`]).
    pub resume: bool,
    /// Stop once this many games have been played by this call (a hidden test hook
    /// simulating a killed run).
    pub stop_after_games: Option<u64>,
}

impl TournamentConfig {
    /// Reads the config file at `path` and validates it, with the output folder `out` or by
    /// default `results/<file stem>/`, the progress bar shown, nothing overwritten or resumed.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the file cannot be read or is larger than [`TEXT_LIMIT`], [`Error::Data`]
    /// if it is not UTF-8;
    /// as [`TournamentSpec::parse`]; [`Error::Config`] naming `out` if no default folder can be
    /// made from the file name.
    pub fn load(path: &Path, out: Option<PathBuf>) -> Result<Self> {
        let text = read_text(path, TEXT_LIMIT)?;
        let spec = TournamentSpec::parse(&text).map_err(in_file(path))?;
        let out = output_folder(path, out)?;
        Ok(TournamentConfig {
            spec,
            out,
            threads: None,
            quiet: false,
            force: false,
            resume: false,
            stop_after_games: None,
        })
    }

    /// Sets the number of worker threads.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `threads` if it is 0 or above [`limits::max_threads`].
    pub fn with_threads(mut self, threads: Option<usize>) -> Result<Self> {
        self.threads = limits::threads(threads, "threads")?;
        Ok(self)
    }
}

/// Reports an error about a part of `field` (an agent spec inside `pairing[i].agents`) under
/// `field`, keeping the inner field's name in the reason.
pub(super) fn within(field: &str, e: Error) -> Error {
    match e {
        Error::Config {
            field: inner,
            reason,
        } if inner == "agents" => Error::config(field, reason),
        Error::Config {
            field: inner,
            reason,
        } => Error::config(field, format!("`{inner}`: {reason}")),
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
game = "tribes"
seed = 3
levels = [1, "maps/a.txt"]
repetitions = 2

[rules]
mode = "capitals"

[[pairing]]
name = "a"
agents = ["random", "end_turn"]

[[pairing]]
name = "b"
agents = ["end_turn", "random"]
"#;

    fn field_of(text: &str) -> String {
        match TournamentSpec::parse(text) {
            Err(Error::Config { field, .. }) => field,
            other => panic!("not a config error: {other:?}"),
        }
    }

    #[test]
    fn counts_above_their_maxima_name_the_field() {
        let cases = [
            (
                GOOD.replace("repetitions = 2", "repetitions = 4294967295"),
                "repetitions",
            ),
            // 6 levels × 100,000 repetitions × 2 pairings = 1,200,000 games.
            (
                GOOD.replace("repetitions = 2", "repetitions = 100000")
                    .replace("[1, \"maps/a.txt\"]", "[1, 2, 3, 4, 5, 6]"),
                "repetitions",
            ),
            (
                GOOD.replace(
                    "[1, \"maps/a.txt\"]",
                    &format!("[{}]", vec!["1"; 10_001].join(", ")),
                ),
                "levels",
            ),
        ];
        for (text, field) in cases {
            assert_eq!(field_of(&text), field, "{text}");
        }
        // A "paper" set is checked once resolved for the game.
        let spec = TournamentSpec::parse(
            &GOOD
                .replace("repetitions = 2", "repetitions = 100000")
                .replace("[1, \"maps/a.txt\"]", "\"paper\""),
        )
        .unwrap();
        spec.check_games(5).unwrap();
        match spec.check_games(25) {
            Err(Error::Config { field, reason }) => {
                assert_eq!(field, "repetitions");
                assert!(
                    reason.contains("25 levels × 100000 repetitions × 2 pairings = 5000000 games"),
                    "{reason}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_good_config_parses() {
        let spec = TournamentSpec::parse(GOOD).unwrap();
        assert_eq!(spec.game, "tribes".parse::<GameKind>().unwrap());
        assert_eq!(spec.seed, 3);
        assert_eq!(
            spec.levels,
            LevelSet::List(vec!["1".into(), "maps/a.txt".into()])
        );
        assert_eq!(spec.pairings.len(), 2);
        assert_eq!(spec.pairings[1].specs(), ["end_turn", "random"]);
        assert_eq!(
            spec.rules.get("mode").and_then(|v| v.as_str()),
            Some("capitals")
        );
    }

    #[test]
    fn the_resolved_config_parses_back() {
        let spec = TournamentSpec::parse(GOOD).unwrap();
        let text = spec
            .resolved_toml(spec.rules.clone(), &["1".into(), "maps/a.txt".into()])
            .unwrap();
        assert_eq!(TournamentSpec::parse(&text).unwrap(), spec);
    }

    #[test]
    fn a_minimal_config_takes_the_defaults_and_resolves_them_explicitly() {
        let text =
            "levels = \"paper\"\n[[pairing]]\nname = \"a\"\nagents = [\"random\", \"end_turn\"]\n";
        let spec = TournamentSpec::parse(text).unwrap();
        assert_eq!(spec.game, GameKind::default());
        assert_eq!((spec.seed, spec.repetitions), (1, 20));
        assert!(spec.rules.is_empty());
        let resolved = spec
            .resolved_toml(toml::Table::new(), &["7".into()])
            .unwrap();
        for line in [
            "game = \"tribes\"",
            "seed = 1",
            "levels = [7]",
            "repetitions = 20",
        ] {
            assert!(
                resolved.lines().any(|l| l == line),
                "{line} in:\n{resolved}"
            );
        }
        let again = TournamentSpec::parse(&resolved).unwrap();
        assert_eq!(
            (again.game, again.seed, again.repetitions),
            (spec.game, spec.seed, spec.repetitions)
        );
    }

    #[test]
    fn errors_name_the_field() {
        // (text replaced in GOOD, its replacement, the field the error must name)
        let cases = [
            ("seed = 3", "seed = 3\nsed = 4", "sed"),
            ("repetitions = 2", "repetitions = \"x\"", "repetitions"),
            ("levels = [1, \"maps/a.txt\"]\n", "", "levels"),
            (
                "name = \"b\"",
                "name = \"b\"\nagent = 1",
                "pairing[1].agent",
            ),
            ("name = \"b\"\n", "", "pairing[1].name"),
            ("game = \"tribes\"", "game = \"chess\"", "game"),
            (
                "agents = [\"random\", \"end_turn\"]",
                "",
                "pairing[0].agents",
            ),
            ("levels = [1, ", "levels = [true, ", "levels"),
            // A NUL or an ESC would make summary.svg invalid XML and drive the terminal.
            ("name = \"b\"", "name = \"b\\u001b[31m\"", "pairing[1].name"),
            ("name = \"a\"", "name = \"a\\u0000\"", "pairing[0].name"),
        ];
        for (from, to, field) in cases {
            assert_eq!(
                field_of(&GOOD.replace(from, to)),
                field,
                "{from:?} -> {to:?}"
            );
        }
        assert_eq!(field_of("game = \n"), "config");
    }
}
