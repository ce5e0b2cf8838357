//! A member of a roster by name: the spec `roster(file=RUN/roster.toml,name=NAME)` stands for
//! the agent spec of the member `NAME` of the roster file, which `playstyles roster` writes
//! ([`crate::experiments::roster`]), so a roster's personalities play wherever a spec is
//! taken (`play`, `replay`, tournaments, ladders, a run's baseline).
//!
//! Of the file, only the `[[member]]` tables' `name` and `spec` are read here. The member's
//! spec is built as written, the relative paths of the files it reads
//! ([`FILE_FIELDS`](crate::agent::spec::FILE_FIELDS)) taken relative to the roster file's folder
//! (a run directory keeps its agents' files, [`crate::experiments::agent_files`]). `file` is a
//! file field itself: relative to the working folder, or to the folder a spec is built at
//! ([`super::build_agent_at`]); a tournament or ladder keeps a copy of the roster file in its
//! folder, as of any file its agents read (but not of the files a member reads in turn: a
//! member of a run whose player reads a bot file plays from its run directory).

use std::path::Path;

use serde::Deserialize;

use crate::agent::AgentSpec;
use crate::error::{Error, Result};
use crate::files::{TEXT_LIMIT, read_text};

/// The spec name of a roster member.
pub const ROSTER_AGENT: &str = "roster";

/// What this module reads of a roster file.
#[derive(Deserialize)]
struct Members {
    #[serde(default)]
    member: Vec<Member>,
}

/// One `[[member]]` table, as far as this module reads it.
#[derive(Deserialize)]
struct Member {
    name: String,
    spec: String,
}

/// The spec of the member that the `roster(file=…,name=…)` spec `spec` names, its `file` and
/// `name` fields taken.
///
/// # Errors
///
/// [`Error::Config`] naming `file` or `name` if either is missing or not a word, or naming
/// `name` if the file has no such member (the message lists its members); [`Error::Io`]
/// naming the file if it cannot be read; [`Error::Data`] naming it (and the line, where
/// there is one) if it is not TOML with `[[member]]` tables of strings `name` and `spec`, the
/// member's spec does not parse, or names a roster itself.
pub fn member_spec(spec: &mut AgentSpec) -> Result<AgentSpec> {
    const USAGE: &str = "give roster(file=RUN_DIR/roster.toml,name=NAME)";
    let file = spec.take_word("file", "")?;
    let name = spec.take_word("name", "")?;
    if file.is_empty() {
        return Err(Error::config("file", format!("no roster file; {USAGE}")));
    }
    if name.is_empty() {
        return Err(Error::config("name", format!("no member name; {USAGE}")));
    }
    let path = Path::new(&file);
    let text = read_text(path, TEXT_LIMIT)?;
    let line_of = |at: usize| text[..at.min(text.len())].matches('\n').count() + 1;
    let members: Members = toml::from_str(&text).map_err(|e| {
        let line = e.span().map_or(0, |s| line_of(s.start));
        Error::data(path, line, e.message().trim().to_string())
    })?;
    let Some((i, m)) = members
        .member
        .iter()
        .enumerate()
        .find(|(_, m)| m.name == name)
    else {
        let names: Vec<&str> = members.member.iter().map(|m| m.name.as_str()).collect();
        return Err(Error::config(
            "name",
            format!(
                "{} has no member `{name}` (its members: {})",
                path.display(),
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        ));
    };
    let line = member_line(&text, i);
    let mut member = AgentSpec::parse(&m.spec)
        .map_err(|e| Error::data(path, line, format!("member `{name}`: `spec`: {e}")))?;
    if member.name() == ROSTER_AGENT {
        return Err(Error::data(
            path,
            line,
            format!("member `{name}`: `spec` names a roster itself, not an agent"),
        ));
    }
    let base = path.parent().unwrap_or(Path::new(""));
    member.map_files(|p| base.join(p).to_string_lossy().into_owned());
    Ok(member)
}

/// The line of the `i`-th (0-based) `[[member]]` header of a roster file's `text` (0 if it
/// is not there, as when the tables are written inline).
fn member_line(text: &str, i: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "[[member]]")
        .nth(i)
        .map_or(0, |(n, _)| n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_of(dir: &Path, name: &str) -> Result<AgentSpec> {
        let file = dir.join("roster.toml");
        let mut spec = AgentSpec::parse(&format!("roster(file={},name={name})", file.display()))?;
        member_spec(&mut spec)
    }

    #[test]
    fn a_member_is_its_spec_with_files_beside_the_roster() {
        let dir =
            std::env::temp_dir().join(format!("playstyles-roster-agent-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("roster.toml"),
            "count = 2\n[[member]]\nname = \"high-x\"\ncell = 3\nspec = \"mcts(budget=9)\"\n\
             [[member]]\nname = \"low-x\"\nspec = \"pmcts(config=agent-files/b.toml)\"\n\
             [[member]]\nname = \"loop\"\nspec = \"roster(file=roster.toml,name=loop)\"\n\
             [[member]]\nname = \"bad\"\nspec = \"mcts((\"\n",
        )
        .unwrap();
        assert_eq!(
            spec_of(&dir, "high-x").unwrap().to_string(),
            "mcts(budget=9)"
        );
        let low = spec_of(&dir, "low-x").unwrap();
        assert_eq!(
            low.files(),
            [dir.join("agent-files/b.toml").to_str().unwrap()]
        );
        match spec_of(&dir, "nobody") {
            Err(Error::Config { field, reason }) => {
                assert_eq!(field, "name");
                assert!(reason.contains("high-x, low-x, loop, bad"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        match spec_of(&dir, "loop") {
            Err(Error::Data { line, .. }) => assert_eq!(line, 9),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            spec_of(&dir, "bad"),
            Err(Error::Data { line: 12, .. })
        ));
        let mut no_file = AgentSpec::parse("roster(name=x)").unwrap();
        assert!(
            matches!(member_spec(&mut no_file), Err(Error::Config { field, .. }) if field == "file")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
