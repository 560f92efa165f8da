//! Errors of the engine. Every error that comes from user data names its place:
//! a file with line and column, a unit, or a hex.

use std::fmt;
use std::path::{Path, PathBuf};

/// A place in a file: path, 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file.
    pub file: PathBuf,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub col: usize,
}

impl Location {
    /// A location in `file` at `line`:`col`.
    pub fn new(file: impl AsRef<Path>, line: usize, col: usize) -> Self {
        Location {
            file: file.as_ref().to_path_buf(),
            line,
            col,
        }
    }

    /// The start of `file`, for errors that belong to the whole file.
    pub fn file(file: impl AsRef<Path>) -> Self {
        Location::new(file, 1, 1)
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}",
            self.file.display(),
            self.line.max(1),
            self.col.max(1)
        )
    }
}

/// An engine error. The binary renders it (with the source line, for [`Error::At`]); the
/// library only builds it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A problem at a place in a data or script file. Shown on one line, `file:line:col:
    /// message (help)`, the form editors and CI read.
    #[error("{at}: {message}{}", help.as_ref().map(|h| format!(" ({h})")).unwrap_or_default())]
    At {
        /// Where.
        at: Location,
        /// What is wrong.
        message: String,
        /// How it might be fixed: the key or id probably meant, the valid choices.
        help: Option<String>,
    },
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A rules error while a game runs (a script error, an illegal decision).
    #[error("{0}")]
    Rules(String),
    /// A command-line argument the engine cannot use (an unknown side or option, a value of
    /// the wrong type): the command was used wrongly, the content is fine.
    #[error("{0}")]
    Usage(String),
    /// Several problems, each with its place (a check reports every one it finds).
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Many(Vec<Error>),
}

impl Error {
    /// An error at a file location.
    pub fn at(at: Location, message: impl Into<String>) -> Self {
        Error::At {
            at,
            message: message.into(),
            help: None,
        }
    }

    /// Adds a help line (a suggestion, the valid choices) to an error at a file location;
    /// other errors keep it in their message.
    #[must_use]
    pub fn with_help(self, help: Option<String>) -> Self {
        match (self, help) {
            (Error::At { at, message, .. }, Some(h)) => Error::At {
                at,
                message,
                help: Some(h),
            },
            (Error::Rules(m), Some(h)) => Error::Rules(format!("{m} ({h})")),
            (e, _) => e,
        }
    }

    /// A usage error (see [`Error::Usage`]).
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// One error for a list of problems: `Ok` when there are none, the problem itself when
    /// there is one.
    pub fn from_problems(mut problems: Vec<Error>) -> Result<()> {
        match problems.len() {
            0 => Ok(()),
            1 => Err(problems.remove(0)),
            _ => Err(Error::Many(problems)),
        }
    }

    /// The single problems this error holds, in order (itself, unless it is [`Error::Many`]).
    #[must_use]
    pub fn into_problems(self) -> Vec<Error> {
        match self {
            Error::Many(v) => v.into_iter().flat_map(Error::into_problems).collect(),
            e => vec![e],
        }
    }

    /// A rules error.
    pub fn rules(message: impl Into<String>) -> Self {
        Error::Rules(message.into())
    }
}

/// The engine's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Reads a whole file, naming it in the error.
pub fn read_file(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}
