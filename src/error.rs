//! The library's error type. Every message names the file, line, field or flag at fault.

use std::fmt;
use std::path::PathBuf;

/// Everything that can go wrong outside the hot path.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing a file failed (the file could not be opened, read, written or
    /// renamed, is not a regular file, or is larger than the limit).
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file was read but its content is malformed, out of date or not what was expected (a
    /// checkpoint, journal, CSV table, task file or run directory that does not fit).
    Data {
        /// The file (or folder).
        path: PathBuf,
        /// 1-based line of the fault, 0 if it concerns the whole file.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A level (text or file) is malformed.
    Level {
        /// Where the level came from (a path, or a description).
        origin: String,
        /// 1-based line of the fault, 0 if it concerns the whole level.
        line: usize,
        /// 1-based cell (column) of the fault, 0 if it concerns the whole line.
        cell: usize,
        /// What is wrong.
        reason: String,
    },
    /// A configuration value, agent spec or command-line flag is invalid.
    Config {
        /// The field or flag.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// A game action was refused.
    Illegal(crate::game::IllegalAction),
    /// An agent played, or a script of an agent's portfolio proposed, an action that the state
    /// does not allow: a bug of the agent or the script, caught before the action is applied
    /// (see [`crate::agent::Agent::act`] and [`crate::agent::Portfolio::assignments`]).
    IllegalChoice {
        /// The game's name ([`crate::game::GameInfo::name`]).
        game: String,
        /// Who chose the action: ``script `name` of agent`` or ``agent `name` ``.
        by: String,
        /// The action, as `Debug` text.
        action: String,
        /// Where: the seat and round, and the action's place in the match.
        at: String,
    },
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A configuration error for `field`.
    pub fn config(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Config {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// A content error in the file at `path`, on 1-based `line` (0: the whole file).
    pub fn data(path: impl Into<PathBuf>, line: usize, reason: impl Into<String>) -> Self {
        Error::Data {
            path: path.into(),
            line,
            reason: reason.into(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Data { path, line, reason } => match line {
                0 => write!(f, "{}: {reason}", path.display()),
                l => write!(f, "{}: line {l}: {reason}", path.display()),
            },
            Error::Level {
                origin,
                line,
                cell,
                reason,
            } => match (line, cell) {
                (0, _) => write!(f, "level {origin}: {reason}"),
                (l, 0) => write!(f, "level {origin}, line {l}: {reason}"),
                (l, c) => write!(f, "level {origin}, line {l}, cell {c}: {reason}"),
            },
            Error::Config { field, reason } => write!(f, "invalid `{field}`: {reason}"),
            Error::Illegal(e) => write!(f, "{e}"),
            Error::IllegalChoice {
                game,
                by,
                action,
                at,
            } => write!(f, "{game}: {by} chose the illegal action {action} ({at})"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Illegal(e) => Some(e),
            _ => None,
        }
    }
}

impl From<crate::game::IllegalAction> for Error {
    fn from(e: crate::game::IllegalAction) -> Self {
        Error::Illegal(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_error_names_the_file_and_the_line_when_it_has_one() {
        let at = Error::data("run/archive.csv", 7, "cell 4 appears twice (line 3)");
        assert_eq!(
            at.to_string(),
            "run/archive.csv: line 7: cell 4 appears twice (line 3)"
        );
        let whole = Error::data("run/checkpoint.json", 0, "not a checkpoint");
        assert_eq!(whole.to_string(), "run/checkpoint.json: not a checkpoint");
    }
}
