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

/// An engine error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A problem at a place in a data or script file.
    #[error("{at}: {message}")]
    At {
        /// Where.
        at: Location,
        /// What is wrong, and where possible how to fix it.
        message: String,
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
}

impl Error {
    /// An error at a file location.
    pub fn at(at: Location, message: impl Into<String>) -> Self {
        Error::At {
            at,
            message: message.into(),
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
