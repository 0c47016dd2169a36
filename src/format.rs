//! The graph file formats: their names and extensions. A leaf module, so that both the
//! readers (`io`) and the errors that name a format (`error`) can use it.

use std::fmt;
use std::path::Path;

/// A graph file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Matrix Market coordinate (`.mtx`): pattern, integer or real; general or symmetric.
    MatrixMarket,
    /// A whitespace-separated edge list, `src dst [weight]` per line (SNAP style).
    EdgeList,
    /// A 9th DIMACS challenge shortest-path graph (`.gr`): `p sp n m`, `a u v w`.
    Dimacs,
    /// LDBC Graphalytics: an edge file `X.e` and the vertex file `X.v` beside it.
    Graphalytics,
    /// The Graphalytics vertex-based adjacency form: `v n1 n2 ...` per line.
    Adjacency,
    /// The native binary format (`.ebg`), see [`crate::io::binary`].
    Binary,
}

/// Every format, in the order of [`Format::from_name`]'s list of choices.
const ALL_FORMATS: [Format; 6] = [
    Format::MatrixMarket,
    Format::EdgeList,
    Format::Dimacs,
    Format::Graphalytics,
    Format::Adjacency,
    Format::Binary,
];

impl Format {
    /// The format a path's name implies, ignoring a final `.gz`: `.mtx` Matrix Market;
    /// `.txt .el .edges .tsv .wel .snap` edge list; `.gr` DIMACS; `.e` Graphalytics;
    /// `.adj` adjacency; `.ebg` binary. `None` for any other name.
    pub fn from_path(p: &Path) -> Option<Format> {
        let name = p.file_name()?.to_str()?.to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let (_, ext) = name.rsplit_once('.')?;
        Some(match ext {
            "mtx" => Format::MatrixMarket,
            "txt" | "el" | "edges" | "tsv" | "wel" | "snap" => Format::EdgeList,
            "gr" => Format::Dimacs,
            "e" => Format::Graphalytics,
            "adj" => Format::Adjacency,
            "ebg" => Format::Binary,
            _ => return None,
        })
    }

    /// The short name, one that [`Format::from_name`] accepts: `mtx`, `edgelist`, `dimacs`,
    /// `graphalytics`, `adj`, `binary`.
    pub fn name(&self) -> &'static str {
        match self {
            Format::MatrixMarket => "mtx",
            Format::EdgeList => "edgelist",
            Format::Dimacs => "dimacs",
            Format::Graphalytics => "graphalytics",
            Format::Adjacency => "adj",
            Format::Binary => "binary",
        }
    }

    /// The name messages call the format by: `Matrix Market`, `edge list`, `DIMACS`,
    /// `Graphalytics`, `adjacency`, `binary`.
    pub fn long_name(&self) -> &'static str {
        match self {
            Format::MatrixMarket => "Matrix Market",
            Format::EdgeList => "edge list",
            Format::Dimacs => "DIMACS",
            Format::Graphalytics => "Graphalytics",
            Format::Adjacency => "adjacency",
            Format::Binary => "binary",
        }
    }

    /// Every format.
    pub fn all() -> &'static [Format] {
        &ALL_FORMATS
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
