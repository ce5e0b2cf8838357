//! `--levels`: which levels to validate on, resolved to [`LevelRef`]s the game loads
//! ([`crate::kit::GameKit`]).

use std::str::FromStr;

use crate::error::{Error, Result};
use crate::experiments::config_file::LevelSet;
use crate::rng::derive_seed;

/// Tag of the seeds of `generated:N` levels: level `i` is made from `derive_seed(run seed,
/// [GENERATED_LEVELS_TAG, i])` ("heldout" in ASCII).
pub const GENERATED_LEVELS_TAG: u64 = 0x0068_656c_646f_7574;

/// Which levels to validate on (`--levels`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelChoice {
    /// `held-out`: the built-in levels the run did not train on.
    HeldOut,
    /// `paper`: all built-in levels.
    Paper,
    /// Level names as the game loads them: seeds (the built-in level for a built-in seed,
    /// else the generator's), level files, or the game's own names (Puerto Rico's `3p`).
    Names(Vec<String>),
    /// `generated:N`: `N` generated levels with seeds derived from the run seed.
    Generated(usize),
}

impl FromStr for LevelChoice {
    type Err = Error;

    /// Parses `held-out`, `paper` (or `builtin`), `generated:N` (N ≥ 1) or a comma-separated
    /// list of distinct level names (the game loads them; see [`LevelChoice::Names`]); errors
    /// name `--levels`.
    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim();
        let bad = |reason: String| Error::config("--levels", reason);
        Ok(match s {
            "held-out" => LevelChoice::HeldOut,
            "paper" | "builtin" => LevelChoice::Paper,
            _ => {
                if let Some(n) = s.strip_prefix("generated:") {
                    match n.trim().parse::<usize>() {
                        Ok(n) if n > 0 => LevelChoice::Generated(n),
                        _ => {
                            return Err(bad(format!(
                                "`{s}`: give the number of levels to generate, at least 1, as `generated:5`"
                            )));
                        }
                    }
                } else {
                    let mut names: Vec<String> = Vec::new();
                    for part in s.split(',').map(str::trim) {
                        if part.is_empty() {
                            return Err(bad(format!(
                                "`{s}` has an empty level name (give held-out, paper, \
                                 generated:N or a comma-separated list of levels)"
                            )));
                        }
                        if names.iter().any(|n| n == part) {
                            return Err(bad(format!("level {part} is listed twice")));
                        }
                        names.push(part.to_string());
                    }
                    LevelChoice::Names(names)
                }
            }
        })
    }
}

/// One level to load, as resolved from a [`LevelChoice`] by [`level_refs`]; the game
/// turns it into a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelRef {
    /// A level name as the game loads it ([`crate::kit::GameKit::load_level`]).
    Load(String),
    /// A level from the game's generator with this seed.
    Generated(u64),
}

/// The levels of `choice` for a run trained on `training` with seed `run_seed`; `builtin` are
/// the names of the game's built-in levels. Held-out levels keep the order of `builtin`.
///
/// # Errors
///
/// [`Error::Config`] naming `--levels` if `held-out` leaves no level.
pub fn level_refs(
    choice: &LevelChoice,
    training: &LevelSet,
    builtin: &[String],
    run_seed: u64,
) -> Result<Vec<LevelRef>> {
    let load = |s: &String| LevelRef::Load(s.clone());
    Ok(match choice {
        LevelChoice::Paper => builtin.iter().map(load).collect(),
        LevelChoice::Names(names) => names.iter().map(load).collect(),
        LevelChoice::Generated(n) => (0..*n as u64)
            .map(|i| LevelRef::Generated(derive_seed(run_seed, &[GENERATED_LEVELS_TAG, i])))
            .collect(),
        LevelChoice::HeldOut => {
            let held_out: Vec<LevelRef> = match training {
                LevelSet::Paper => Vec::new(),
                LevelSet::List(names) => builtin
                    .iter()
                    .filter(|s| !names.contains(s))
                    .map(load)
                    .collect(),
            };
            if held_out.is_empty() {
                return Err(Error::config(
                    "--levels",
                    "the run trained on every built-in level, so none is held out; give paper, generated:N or level seeds",
                ));
            }
            held_out
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_choices_parse_and_bad_ones_name_the_flag() {
        assert_eq!(
            "held-out".parse::<LevelChoice>().unwrap(),
            LevelChoice::HeldOut
        );
        assert_eq!("paper".parse::<LevelChoice>().unwrap(), LevelChoice::Paper);
        assert_eq!(
            "generated:3".parse::<LevelChoice>().unwrap(),
            LevelChoice::Generated(3)
        );
        assert_eq!(
            " 5, 7 ".parse::<LevelChoice>().unwrap(),
            LevelChoice::Names(vec!["5".into(), "7".into()])
        );
        // Any name the game loads: Puerto Rico's player counts, level files.
        assert_eq!(
            "2p,5p".parse::<LevelChoice>().unwrap(),
            LevelChoice::Names(vec!["2p".into(), "5p".into()])
        );
        for bad in ["", "generated:0", "generated:x", "5,5", "5,,6", "2p, 2p"] {
            match bad.parse::<LevelChoice>() {
                Err(Error::Config { field, .. }) => assert_eq!(field, "--levels", "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn held_out_levels_exclude_the_training_levels() {
        let training = LevelSet::List(vec!["2".into(), "maps/a.txt".into()]);
        let names = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let refs = level_refs(
            &LevelChoice::HeldOut,
            &training,
            &names(&["1", "2", "3"]),
            9,
        )
        .unwrap();
        assert_eq!(
            refs,
            [LevelRef::Load("1".into()), LevelRef::Load("3".into())]
        );
        assert!(
            level_refs(
                &LevelChoice::HeldOut,
                &LevelSet::Paper,
                &names(&["1", "2"]),
                9
            )
            .is_err()
        );
        let all = LevelSet::List(vec!["1".into(), "2".into()]);
        assert!(level_refs(&LevelChoice::HeldOut, &all, &names(&["1", "2"]), 9).is_err());
        let generated =
            level_refs(&LevelChoice::Generated(2), &training, &names(&["1"]), 9).unwrap();
        assert_eq!(
            generated,
            [
                LevelRef::Generated(derive_seed(9, &[GENERATED_LEVELS_TAG, 0])),
                LevelRef::Generated(derive_seed(9, &[GENERATED_LEVELS_TAG, 1])),
            ]
        );
    }
}
