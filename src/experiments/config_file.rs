//! Reading the TOML config files of the subcommands: errors that name the field at fault,
//! the `levels` field shared by tournament and run configs, and a game's `[rules]` table.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::limits;

/// The word in `levels` that stands for the game's built-in experiment levels (the 25 levels of
/// the paper for Tribes).
pub const PAPER_LEVELS: &str = "paper";

/// A synonym of [`PAPER_LEVELS`] that reads better for games without a paper (Prismata's 100
/// built-in sets).
pub const BUILTIN_LEVELS: &str = "builtin";

/// The `levels` field: a word or a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LevelsField {
    /// A word naming a level set (only `"paper"`, or its synonym `"builtin"`).
    Word(String),
    /// Level seeds and level files.
    List(Vec<LevelEntry>),
}

impl LevelsField {
    /// The list form of resolved level names: numbers become seeds, anything else a file.
    pub fn listed(levels: &[String]) -> Self {
        LevelsField::List(
            levels
                .iter()
                .map(|l| match l.parse::<u64>() {
                    Ok(s) => LevelEntry::Seed(s),
                    Err(_) => LevelEntry::File(l.clone()),
                })
                .collect(),
        )
    }
}

/// One entry of a `levels` list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LevelEntry {
    /// A level seed.
    Seed(u64),
    /// A level file (or a seed written as a string).
    File(String),
}

/// Which levels a tournament plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelSet {
    /// The game's built-in experiment levels.
    Paper,
    /// Level names as the game loads them (`GameKit::load_level`; Tribes: a seed or a level file).
    List(Vec<String>),
}

/// A config error with the config file `path` named in its reason (`… (in experiments/x.toml)`);
/// other errors as they are.
pub fn in_file(path: &std::path::Path) -> impl Fn(Error) -> Error + '_ {
    move |e| match e {
        Error::Config { field, reason } => Error::Config {
            field,
            reason: format!("{reason} (in {})", path.display()),
        },
        e => e,
    }
}

/// The output folder of a command reading the config file `path`: `out` if given, else
/// `results/<file stem>/`.
///
/// # Errors
///
/// [`Error::Config`] naming `out` if the file name has no stem to name the folder after.
pub fn output_folder(
    path: &std::path::Path,
    out: Option<std::path::PathBuf>,
) -> Result<std::path::PathBuf> {
    if let Some(dir) = out {
        return Ok(dir);
    }
    let stem = path.file_stem().filter(|s| !s.is_empty()).ok_or_else(|| {
        Error::config(
            "out",
            "cannot name the output folder after the config file; give --out",
        )
    })?;
    Ok(std::path::Path::new("results").join(stem))
}

/// A config's name of one of its entries (a pairing, a ladder's agent), trimmed: it labels table
/// rows, chart rows and CSV cells and is matched on `--resume`, so an empty name, one holding a
/// control character (a typo, never a wish) or one `taken` by another `what` is an error naming
/// `field`.
///
/// # Errors
///
/// [`Error::Config`] naming `field`.
pub fn plain_name(name: &str, field: &str, what: &str, taken: bool) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::config(field, "must not be empty"));
    }
    if crate::report::printable::has_control(name) {
        return Err(Error::config(
            field,
            format!(
                "`{}` holds a control character (shown here as \\u{{..}}); give a plain name",
                crate::report::printable::printable(name)
            ),
        ));
    }
    if taken {
        return Err(Error::config(
            field,
            format!("the name `{name}` is used by another {what}"),
        ));
    }
    Ok(name.to_string())
}

/// Reads a game's rules options from the `[rules]` table of a config.
///
/// # Errors
///
/// [`Error::Config`] naming the field at fault under `rules` (e.g. `rules.mode`).
pub fn read_rules<R: serde::de::DeserializeOwned>(rules: &toml::Table) -> Result<R> {
    let text = toml::to_string(rules).map_err(|e| Error::config("rules", e.to_string()))?;
    toml::from_str(&text).map_err(|e| match toml_error(&text, &e) {
        Error::Config { field, reason } => {
            let field = if field == "config" {
                "rules".to_string()
            } else {
                format!("rules.{field}")
            };
            // The line number refers to the re-written table, not the config file.
            let reason = reason
                .rsplit_once(" (line ")
                .map_or(reason.clone(), |(r, _)| r.to_string());
            Error::config(field, reason)
        }
        e => e,
    })
}

/// Turns a TOML error into [`Error::Config`] naming the field at fault: the key path at the
/// error's position (e.g. `pairing[1].agents`), plus the missing field's name for "missing
/// field" errors; `config` for syntax errors outside any field.
pub(crate) fn toml_error(text: &str, e: &toml::de::Error) -> Error {
    let message = e.message().trim().to_string();
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|m| m.split('`').next());
    // A field missing from the top level comes with the document's span, empty (0..0): it
    // lies in no key (not in the first one, which may start at 0) and on no line.
    let span = e
        .span()
        .filter(|span| missing.is_none() || !span.is_empty());
    let mut path = span
        .clone()
        .and_then(|span| field_at(text, &span))
        .unwrap_or_default();
    if let Some(missing) = missing {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(missing);
    }
    if path.is_empty() {
        path = "config".into();
    }
    let reason = match span {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("{message} (line {line})")
        }
        None => message,
    };
    Error::config(path, reason)
}

/// The key path (`pairing[1].agents`) of the innermost key or value of `text` whose span holds
/// `span`; `None` if `text` does not parse or `span` is outside every field.
///
/// Children are searched before their parents, and every child is searched whatever its
/// parent's span: the span of a `[[table]]` item covers only its header line.
fn field_at(text: &str, span: &Range<usize>) -> Option<String> {
    use toml::de::{DeTable, DeValue};

    fn holds(outer: &Range<usize>, inner: &Range<usize>) -> bool {
        outer.start <= inner.start && inner.end <= outer.end && outer.start < outer.end
    }

    fn in_value(value: &DeValue<'_>, span: &Range<usize>, path: &str) -> Option<String> {
        match value {
            DeValue::Table(t) => in_table(t, span, path),
            DeValue::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
                let path = format!("{path}[{i}]");
                in_value(item.get_ref(), span, &path)
                    .or_else(|| holds(&item.span(), span).then_some(path))
            }),
            _ => None,
        }
    }

    fn in_table(table: &DeTable<'_>, span: &Range<usize>, path: &str) -> Option<String> {
        table.iter().find_map(|(key, value)| {
            let path = if path.is_empty() {
                key.get_ref().to_string()
            } else {
                format!("{path}.{}", key.get_ref())
            };
            in_value(value.get_ref(), span, &path).or_else(|| {
                (holds(&key.span(), span) || holds(&value.span(), span)).then_some(path)
            })
        })
    }

    let table = DeTable::parse(text).ok()?;
    in_table(table.get_ref(), span, "")
}

/// A validated level set from a `levels` field: `"paper"` (or `"builtin"`) or a non-empty list
/// of at most [`limits::MAX_LEVELS`] level seeds and files; errors name `field` (or
/// `field[i]`).
///
/// # Errors
///
/// [`Error::Config`] for an unknown word, an empty or too long list or an empty entry.
pub fn level_set(levels: LevelsField, field: &str) -> Result<LevelSet> {
    Ok(match levels {
        LevelsField::Word(w) if w == PAPER_LEVELS || w == BUILTIN_LEVELS => LevelSet::Paper,
        LevelsField::Word(w) => {
            return Err(Error::config(
                field,
                format!(
                    "unknown level set `{w}` (give \"paper\", \"builtin\" or a list of level seeds and files)"
                ),
            ));
        }
        LevelsField::List(entries) if entries.is_empty() => {
            return Err(Error::config(field, "give at least one level"));
        }
        LevelsField::List(entries) if entries.len() as u64 > limits::MAX_LEVELS => {
            return Err(Error::config(
                field,
                format!(
                    "{} levels, more than the maximum of {}",
                    entries.len(),
                    limits::MAX_LEVELS
                ),
            ));
        }
        LevelsField::List(entries) => LevelSet::List(
            entries
                .into_iter()
                .enumerate()
                .map(|(i, e)| match e {
                    LevelEntry::Seed(s) => Ok(s.to_string()),
                    LevelEntry::File(f) if f.trim().is_empty() => Err(Error::config(
                        format!("{field}[{i}]"),
                        "an empty level (give a level seed or a level file)",
                    )),
                    LevelEntry::File(f) => Ok(f.trim().to_string()),
                })
                .collect::<Result<_>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Config {
        seed: u64,
        game: String,
        inner: Option<Inner>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        levels: Vec<u64>,
    }

    fn field_of(text: &str) -> String {
        let e = toml::from_str::<Config>(text).unwrap_err();
        match toml_error(text, &e) {
            Error::Config { field, .. } => field,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_missing_field_is_named_in_its_table_not_in_the_first_key() {
        // The first key starts at offset 0, where the document's empty span points.
        assert_eq!(field_of("seed = 1\n"), "game");
        assert_eq!(field_of("\nseed = 1\n"), "game");
        assert_eq!(
            field_of("seed = 1\ngame = \"g\"\n[inner]\n"),
            "inner.levels"
        );
        assert_eq!(field_of("seed = \"x\"\ngame = \"g\"\n"), "seed");
    }

    #[test]
    fn builtin_is_a_synonym_of_paper_and_other_words_are_errors_naming_the_field() {
        let word = |w: &str| level_set(LevelsField::Word(w.to_string()), "levels");
        assert_eq!(word("paper").unwrap(), LevelSet::Paper);
        assert_eq!(word("builtin").unwrap(), LevelSet::Paper);
        let e = word("all").unwrap_err().to_string();
        assert!(e.contains("levels") && e.contains("`all`"), "{e}");
    }
}
