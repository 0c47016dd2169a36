//! The one error type of the library: every failure that comes from outside (a file, a
//! user's numbers, the device) is a variant that carries its data.

use std::fmt;
use std::path::PathBuf;

/// Result alias used throughout edgeblas.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong with input that comes from outside the program.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// An operating-system error on a file.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A file's content is wrong at a known line (1-based).
    Parse {
        /// The file, as the user named it.
        path: String,
        /// 1-based line number; 0 when the fault is not tied to one line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// An entry lies outside the matrix.
    OutOfBounds {
        /// Row index of the entry (0-based).
        row: u64,
        /// Column index of the entry (0-based).
        col: u64,
        /// Number of rows.
        nrows: u64,
        /// Number of columns.
        ncols: u64,
    },
    /// The same (row, column) was given twice under [`crate::matrix::Duplicates::Error`].
    Duplicate {
        /// Row index (0-based).
        row: u64,
        /// Column index (0-based).
        col: u64,
    },
    /// Arrays handed to a checked constructor break a documented invariant.
    InvalidStructure(String),
    /// A parameter (a command-line value, a vertex id, a policy constant) is not acceptable.
    InvalidArgument(String),
    /// The operation exists but not for this input or build (e.g. CUDA without the feature).
    Unsupported(String),
    /// A file was read as one format but is plainly another: a Matrix Market banner on
    /// the first line of a file read as an edge list, say. Refused rather than misread
    /// (the banner would otherwise be a comment and the size line an arc).
    WrongFormat {
        /// The file, as the user named it.
        path: String,
        /// The 1-based line that shows the file's real format.
        line: u64,
        /// The format the file was asked to be read as.
        requested: crate::format::Format,
        /// The format the file is.
        found: crate::format::Format,
    },
}

impl Error {
    /// Shorthand for a [`Error::Parse`] error.
    pub fn parse(path: impl Into<String>, line: u64, message: impl Into<String>) -> Self {
        Error::Parse {
            path: path.into(),
            line,
            message: message.into(),
        }
    }

    /// Shorthand for an [`Error::Io`] error.
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
            Error::Io { path, source } if path.as_os_str().is_empty() => write!(f, "{source}"),
            Error::Io { path, source } => write!(f, "{}: {}", path.display(), source),
            Error::Parse {
                path,
                line: 0,
                message,
            } => write!(f, "{path}: {message}"),
            Error::Parse {
                path,
                line,
                message,
            } => write!(f, "{path}:{line}: {message}"),
            Error::OutOfBounds {
                row,
                col,
                nrows,
                ncols,
            } => write!(
                f,
                "entry ({row}, {col}) out of bounds for a {nrows} x {ncols} matrix"
            ),
            Error::Duplicate { row, col } => write!(f, "duplicate entry ({row}, {col})"),
            Error::InvalidStructure(m) => write!(f, "invalid structure: {m}"),
            Error::InvalidArgument(m) => write!(f, "{m}"),
            Error::Unsupported(m) => write!(f, "unsupported: {m}"),
            Error::WrongFormat {
                path,
                line,
                requested,
                found,
            } => write!(
                f,
                "{path}:{line}: this is a {} file, not {requested}; read it as {found}",
                found.long_name()
            ),
        }
    }
}

impl From<std::io::Error> for Error {
    /// An operating-system error with no file to name (the path is empty), so that `?`
    /// works on `std::io` calls in a function returning [`Result`]. The library's own
    /// readers and writers name the file ([`Error::io`]).
    ///
    /// ```
    /// fn size(path: &str) -> edgeblas::Result<u64> {
    ///     Ok(std::fs::metadata(path)?.len())
    /// }
    /// let e = size("/no/such/file").unwrap_err();
    /// assert!(matches!(e, edgeblas::Error::Io { .. }));
    /// assert!(!e.to_string().starts_with(':'));
    /// ```
    fn from(source: std::io::Error) -> Self {
        Error::Io {
            path: PathBuf::new(),
            source,
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
