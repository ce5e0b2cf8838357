//! The files a run's agents read (bot files, named by the file fields of its player's and
//! baseline's specs, [`FILE_FIELDS`](crate::agent::spec::FILE_FIELDS)), kept in the run directory, so that the run is
//! continued, validated, re-evaluated, reported and its tiers played from any working folder,
//! whatever became of the originals.
//!
//! When a run starts (`evolve`, the first `ask`, `tournament`, `ladder`), each file is copied
//! into the folder [`AGENT_FILES`] of the run directory, under the path the config names it by
//! ([`kept_path`]: `bots/x.toml` → `agent-files/bots/x.toml`), and the resolved `config.toml`
//! names the copies, relative to the run directory. The files an agent file names in turn (the
//! models of a Prismata bot file's learned players, found by the game's
//! [`SearchSupport::agent_file_paths`]) are kept too, under their own paths, and the kept
//! agent file names those copies, relative to itself (an agent file naming none, or naming
//! them where they are kept already, is copied byte for byte): the run directory holds
//! everything its agents read. Every command that plays a run's agents
//! builds them at the run directory ([`crate::agents::build_agent_at`]). A spec that already
//! names kept files (the run's own `config.toml`, which `ask` and `tell` read) stays as it
//! is, and a run whose agents read no file is written exactly as before.

use std::path::{Component, Path, PathBuf};

use crate::agent::{AgentSpec, SearchSupport, Value};
use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes, write_atomic};

/// The folder of a run directory holding the files its agents read.
pub const AGENT_FILES: &str = "agent-files";

/// A file an agent of a run reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentFile {
    /// Where the run's start reads it: the path the config names (relative to the working
    /// folder, or absolute).
    pub source: PathBuf,
    /// Where the run keeps its copy: a `/`-separated path relative to the run directory, in
    /// [`AGENT_FILES`].
    pub kept: String,
    /// Whether a spec names it as its agent file (`config=`), which may name files of its own
    /// ([`SearchSupport::agent_file_paths`]).
    pub config: bool,
}

/// The path, relative to a run directory, at which the run keeps the file its config names
/// `path`: `path` under [`AGENT_FILES`], its root and `.` left out and each `..` written `__`
/// (`/home/me/bots.toml` → `agent-files/home/me/bots.toml`). A path already in
/// [`AGENT_FILES`] is its own.
pub fn kept_path(path: &str) -> String {
    let p = Path::new(path);
    let parts: Vec<String> = p
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            Component::ParentDir => Some("__".to_string()),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
        })
        .collect();
    let kept_already = p.is_relative()
        && parts.first().is_some_and(|f| f == AGENT_FILES)
        && !p.components().any(|c| c == Component::ParentDir);
    if kept_already {
        parts.join("/")
    } else {
        format!("{AGENT_FILES}/{}", parts.join("/"))
    }
}

/// `spec` (of the config field `field`) naming the run's copies of its files ([`kept_path`]);
/// the files not yet in `files` are added to it.
///
/// # Errors
///
/// [`Error::Config`] naming `field` if one of its files would be kept where another file of
/// the run is (`../x.toml` and `__/x.toml`).
pub fn keep_files(spec: &AgentSpec, field: &str, files: &mut Vec<AgentFile>) -> Result<AgentSpec> {
    let configs: Vec<String> = spec
        .fields()
        .iter()
        .filter(|(k, _)| k == "config")
        .filter_map(|(_, v)| match v {
            Value::Word(w) => Some(w.clone()),
            _ => None,
        })
        .collect();
    let mut kept = spec.clone();
    let mut clash = None;
    kept.map_files(|path| {
        let to = kept_path(path);
        match files.iter().find(|f| f.kept == to) {
            Some(f) if f.source != Path::new(path) => {
                clash = Some(format!(
                    "the files `{}` and `{path}` would both be kept as {to} in the run \
                     directory; give them different names",
                    f.source.display()
                ));
            }
            Some(_) => {}
            None => files.push(AgentFile {
                source: PathBuf::from(path),
                kept: to.clone(),
                config: configs.iter().any(|c| c == path),
            }),
        }
        to
    });
    match clash {
        Some(reason) => Err(Error::config(field, reason)),
        None => Ok(kept),
    }
}

/// Copies `files` into the run directory `dir`, each written atomically, its folders created;
/// with them the files that the agent files among them name for `game`
/// ([`SearchSupport::agent_file_paths`]), each kept at its own [`kept_path`] (its path as the
/// working folder reaches it, `..` resolved), the kept agent file naming them relative to
/// itself.
///
/// # Errors
///
/// [`Error::Io`] naming a file that cannot be read (or is larger than [`DATA_LIMIT`]), or a
/// copy or folder that cannot be written; [`Error::Config`] naming an agent file that the
/// game cannot read, or one of whose files would be kept where another file of the run is.
pub fn copy_agent_files<G: SearchSupport>(game: &G, dir: &Path, files: &[AgentFile]) -> Result<()> {
    let mut named: Vec<AgentFile> = Vec::new();
    for f in files {
        let mut bytes = read_bytes(&f.source, DATA_LIMIT)?;
        if f.config
            && let Ok(text) = std::str::from_utf8(&bytes)
        {
            let origin = f.source.to_string_lossy().into_owned();
            let folder = f.source.parent().unwrap_or(Path::new(""));
            let kept_folder = f.kept.rsplit_once('/').map_or("", |(d, _)| d);
            let renamed = game.agent_file_paths(&origin, text, &mut |path| {
                let source = lexical(&folder.join(path));
                let to = kept_path(&source.to_string_lossy());
                match files.iter().chain(&named).find(|k| k.kept == to) {
                    Some(k) if lexical(&k.source) != source => {
                        return Err(Error::config(
                            origin.as_str(),
                            format!(
                                "the files `{}` and `{}` would both be kept as {to} in the run \
                                 directory; give them different names",
                                k.source.display(),
                                source.display()
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => named.push(AgentFile {
                        source,
                        kept: to.clone(),
                        config: false,
                    }),
                }
                Ok(relative(kept_folder, &to))
            })?;
            if let Some(text) = renamed {
                bytes = text.into_bytes();
            }
        }
        write_kept(dir, &f.kept, &bytes)?;
    }
    for f in &named {
        write_kept(dir, &f.kept, &read_bytes(&f.source, DATA_LIMIT)?)?;
    }
    Ok(())
}

/// Writes `bytes` atomically at `kept` in the run directory `dir`, its folders created.
fn write_kept(dir: &Path, kept: &str, bytes: &[u8]) -> Result<()> {
    let to = dir.join(kept);
    if let Some(folder) = to.parent() {
        std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
    }
    write_atomic(&to, bytes)
}

/// `path` with its `.` left out and each `..` taking out the folder before it (as written,
/// not as links would have it): the name under which a file named two ways is kept once.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The `/`-separated path of `to` from the folder `folder`, both relative to the same folder
/// and without `..` (kept paths).
fn relative(folder: &str, to: &str) -> String {
    let from: Vec<&str> = folder.split('/').filter(|p| !p.is_empty()).collect();
    let to: Vec<&str> = to.split('/').collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts = vec![".."; from.len() - common];
    parts.extend(&to[common..]);
    parts.join("/")
}

/// `spec`, an agent spec of the run in `dir` (its file paths relative to `dir`), naming its
/// files so that it works from any working folder: by absolute paths, or where the spec
/// syntax cannot write those, relative to the working folder (as `dir` is), else as it
/// is. A spec that names no file is returned as it is.
///
/// # Errors
///
/// [`Error::Config`] if `spec` does not parse.
pub fn usable_anywhere(spec: &str, dir: &Path) -> Result<String> {
    let parsed = AgentSpec::parse(spec)?;
    if parsed.files().is_empty() {
        return Ok(spec.to_string());
    }
    let absolute = std::fs::canonicalize(dir).ok();
    for base in absolute.iter().map(PathBuf::as_path).chain([dir]) {
        let mut s = parsed.clone();
        s.map_files(|p| base.join(p).to_string_lossy().into_owned());
        let text = s.to_string();
        if AgentSpec::parse(&text).is_ok_and(|back| back == s) {
            return Ok(text);
        }
    }
    Ok(spec.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_kept_under_their_own_path_and_kept_paths_are_their_own() {
        assert_eq!(kept_path("bots/x.toml"), "agent-files/bots/x.toml");
        assert_eq!(kept_path("./x.toml"), "agent-files/x.toml");
        assert_eq!(kept_path("../b/x.toml"), "agent-files/__/b/x.toml");
        assert_eq!(kept_path("/tmp/b/x.toml"), "agent-files/tmp/b/x.toml");
        for p in ["bots/x.toml", "../b/x.toml", "/tmp/b/x.toml"] {
            let k = kept_path(p);
            assert_eq!(kept_path(&k), k, "{p}");
        }
    }

    #[test]
    fn files_an_agent_file_names_are_named_from_its_copy() {
        assert_eq!(
            lexical(Path::new("bots/./../models/m.st")),
            Path::new("models/m.st")
        );
        assert_eq!(lexical(Path::new("../a/../b")), Path::new("../b"));
        let to = kept_path(&lexical(Path::new("bots/../models/m.st")).to_string_lossy());
        assert_eq!(relative("agent-files/bots", &to), "../models/m.st");
        assert_eq!(relative("agent-files", "agent-files/m.st"), "m.st");
        assert_eq!(
            relative("agent-files/a/b", "agent-files/tmp/m.st"),
            "../../tmp/m.st"
        );
    }

    #[test]
    fn specs_name_the_copies_and_each_file_is_kept_once() {
        let mut files = Vec::new();
        let player = AgentSpec::parse("X(config=bots/x.toml,c=2)").unwrap();
        let kept = keep_files(&player, "evaluation.player", &mut files).unwrap();
        assert_eq!(kept.to_string(), "X(config=agent-files/bots/x.toml,c=2)");
        let baseline = AgentSpec::parse("Y(config=bots/x.toml)").unwrap();
        keep_files(&baseline, "evaluation.baseline", &mut files).unwrap();
        assert_eq!(
            files,
            [AgentFile {
                source: "bots/x.toml".into(),
                kept: "agent-files/bots/x.toml".into(),
                config: true,
            }]
        );
        let again = keep_files(&kept, "evaluation.player", &mut Vec::new()).unwrap();
        assert_eq!(again, kept, "a run's own config names its copies already");
        let plain = AgentSpec::parse("mcts(budget=5)").unwrap();
        assert_eq!(
            usable_anywhere("mcts( budget=5 )", Path::new("run")).unwrap(),
            "mcts( budget=5 )"
        );
        assert_eq!(
            usable_anywhere("X(config=agent-files/x.toml)", Path::new("no such/run")).unwrap(),
            "X(config=agent-files/x.toml)",
            "a folder the syntax cannot write leaves the spec as it is"
        );
        assert_eq!(keep_files(&plain, "p", &mut files).unwrap(), plain);
        let other = AgentSpec::parse("Z(config=__/x.toml)").unwrap();
        let mut two = vec![AgentFile {
            source: "../x.toml".into(),
            kept: "agent-files/__/x.toml".into(),
            config: true,
        }];
        match keep_files(&other, "evaluation.baseline", &mut two) {
            Err(Error::Config { field, .. }) => assert_eq!(field, "evaluation.baseline"),
            r => panic!("{r:?}"),
        }
    }
}
