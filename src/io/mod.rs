//! Graph files.
