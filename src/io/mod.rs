//! Graph files: reading and writing adjacency matrices in the common text formats and a
//! native binary one, with errors that name the file and the line.
//!
//! | [`Format`] | names | content | ids |
//! |---|---|---|---|
//! | [`Format::MatrixMarket`] | `.mtx` | `%%MatrixMarket matrix coordinate {pattern,integer,real} {general,symmetric}`, a size line `n n nnz`, one `i j [value]` per entry | 1-based |
//! | [`Format::EdgeList`] | `.txt .el .edges .tsv .wel .snap` | `src dst [weight]` per line, `#` or `%` comments (SNAP) | 0-based, `n = max id + 1` |
//! | [`Format::Dimacs`] | `.gr` | `c` comments, `p sp n m`, `a u v w` per arc (9th DIMACS challenge) | 1-based |
//! | [`Format::Graphalytics`] | `.e` (+ `.v` beside it) | `src dst [weight]` per line; the `.v` file lists every vertex id, one a line | explicit |
//! | [`Format::Adjacency`] | `.adj` | `v n1 n2 ...` per line, one line per vertex (Graphalytics vertex-based form) | explicit |
//! | [`Format::Binary`] | `.ebg` | the CSR arrays, little-endian, with a CRC-32 (see [`binary`]) | as stored |
//!
//! Any of them may be gzip-compressed: a path ending in `.gz`, or bytes that begin with
//! the gzip magic, are decompressed first (all members of a multi-member stream). A
//! format whose header declares its size is decompressed no further than that size: a
//! binary file exactly, Matrix Market and DIMACS at most 1 KiB per declared entry or arc
//! plus 1 MiB; a stream that grows past it is refused ([`Error::Parse`]), so a small
//! `.gz` cannot inflate to gigabytes in memory before its header is checked.
//!
//! # What a graph file becomes
//! A [`Graph`]: the adjacency pattern `A` (`A(i, j)` = arc `i -> j`, square, rows
//! sorted), the weights of the arcs when the file has values, and how vertex indices map
//! to the ids written in the file ([`VertexIds`]).
//!
//! - Undirected input (a Matrix Market `symmetric` file, or [`ReadOptions::undirected`])
//!   stores each edge as both arcs `i -> j` and `j -> i`; a self-loop is one arc.
//! - Repeated arcs are stored once; their weights combine by `min` (the shortest-path
//!   meaning: of parallel road segments, the lighter one counts). [`Graph::duplicates`]
//!   says how many records were repeats.
//! - Self-loops are kept.
//!
//! # Errors
//! Nothing in a file makes these functions panic. Every fault is an
//! [`Error::Parse`] that names the file and, where there is
//! one, the line: `road.mtx:4: column index 9 out of range 1..3`. An operating-system
//! failure (a missing file) is an [`Error::Io`] with the path.
//!
//! # Allocation guard
//! A header or an id decides how many vertices to allocate for, so both are checked before
//! anything is allocated: a vertex count must be at most `u32::MAX`, and a count above
//! [`MIN_VERTEX_LIMIT`] (2^24) must also be at most [`VERTICES_PER_BYTE`] (64) times the
//! size of the (decompressed) file. Real graphs are far denser than one edge per 64
//! vertices; a 50-byte file that declares 10^12 vertices is refused, not allocated. See
//! [`vertex_limit`]; [`ReadOptions::min_vertex_limit`] moves the 2^24 floor.
//!
//! # Writing
//! [`write_graph`] and every other writer of this crate and its command line write a
//! file whole or not at all ([`write_atomically`]): a temporary file beside the
//! destination, renamed over it once written, flushed and synced. An error or a crash
//! leaves the destination absent or as it was.
//!
//! # Speed
//! Text is read (and decompressed) whole, cut into chunks at line ends, and the chunks are
//! parsed in parallel (rayon) with hand-written integer parsing; an error's line number is
//! the lines before its chunk plus its line within the chunk, and the earliest wins. The
//! records then become CSR by a parallel, deterministic bucket sort (row buckets, then
//! each bucket sorted and de-duplicated), whose only per-vertex cost is the offsets.

mod assemble;
mod atomic;
pub mod binary;
mod dimacs;
mod edge_list;
mod graphalytics;
mod matrix_market;
pub mod parts;
mod source;
#[cfg(any(feature = "mpi", test))]
pub(crate) mod stream;
mod text;
mod write;

use std::path::{Path, PathBuf};

use crate::algebra::Index;
use crate::error::{Error, Result};
pub use crate::format::Format;
use crate::limits::limit_for;
pub use crate::limits::{MIN_VERTEX_LIMIT, VERTICES_PER_BYTE, vertex_limit};
use crate::matrix::Csr;

pub use atomic::{AtomicFile, write_atomically};

impl Format {
    /// The format called `s` (case-insensitive): `mtx` or `matrix-market`; `edgelist`,
    /// `el` or `snap`; `dimacs` or `gr`; `graphalytics` or `e`; `adj`; `binary` or `ebg`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] listing the choices.
    pub fn from_name(s: &str) -> Result<Format> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "mtx" | "matrix-market" | "matrixmarket" => Format::MatrixMarket,
            "edgelist" | "edge-list" | "el" | "snap" => Format::EdgeList,
            "dimacs" | "gr" => Format::Dimacs,
            "graphalytics" | "e" => Format::Graphalytics,
            "adj" | "adjacency" => Format::Adjacency,
            "binary" | "ebg" => Format::Binary,
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "unknown graph format '{s}'; choose one of: mtx (matrix-market), \
                     edgelist (el, snap), dimacs (gr), graphalytics (e), adj, binary (ebg)"
                )));
            }
        })
    }
}

impl std::str::FromStr for Format {
    type Err = Error;
    fn from_str(s: &str) -> Result<Format> {
        Format::from_name(s)
    }
}

/// How to read a graph file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// The format; `None` to infer it from the path ([`Format::from_path`]). Ignored by
    /// [`parse_graph`], which takes the format as an argument.
    pub format: Option<Format>,
    /// Treat every record as an undirected edge: store both arc directions.
    pub undirected: bool,
    /// The allocation guard's floor: a vertex count up to this is accepted from a file of
    /// any size, a larger one only when it is at most [`VERTICES_PER_BYTE`] times the
    /// size of the (decompressed) file (see [`ReadOptions::vertex_limit`]). The default
    /// is [`MIN_VERTEX_LIMIT`] (2^24). Lower it to refuse small files that name large ids
    /// (untrusted input, fuzzing); raise it (up to `u32::MAX`) to accept them.
    ///
    /// It matters to the formats whose vertex count comes from a header or the largest id:
    /// Matrix Market, edge lists, DIMACS. The others list every vertex in the file.
    pub min_vertex_limit: u64,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            format: None,
            undirected: false,
            min_vertex_limit: MIN_VERTEX_LIMIT,
        }
    }
}

impl ReadOptions {
    /// The largest vertex count a text input of `bytes` bytes may declare or imply under
    /// these options: `min(u32::MAX, max(min_vertex_limit, 64 * bytes))`; with the default
    /// options, [`vertex_limit`].
    ///
    /// ```
    /// use edgeblas::io::ReadOptions;
    /// let small = ReadOptions { min_vertex_limit: 1 << 16, ..ReadOptions::default() };
    /// assert_eq!(small.vertex_limit(50), 1 << 16);
    /// assert_eq!(small.vertex_limit(4096), 64 * 4096);
    /// assert_eq!(ReadOptions::default().vertex_limit(50), 1 << 24);
    /// ```
    pub fn vertex_limit(&self, bytes: usize) -> u64 {
        limit_for(self.min_vertex_limit, bytes)
    }
}

/// What the values of a graph file are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// No values: the file gives the structure only.
    Pattern,
    /// Integer values (stored as `f64`, exact: every value has `|v| <= 2^53`).
    Integer,
    /// Real values.
    Real,
}

/// How vertex indices `0..n` map to the ids written in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexIds {
    /// External id = index + base: 1 for Matrix Market and DIMACS, 0 for edge lists.
    Offset(u64),
    /// External id = `ids[index]`, sorted ascending and unique (Graphalytics ids).
    Explicit(Vec<u64>),
}

impl VertexIds {
    /// The id written in the file for vertex `index`.
    ///
    /// # Panics
    /// For [`VertexIds::Explicit`] when `index` is not below the number of ids.
    pub fn external(&self, index: usize) -> u64 {
        match self {
            VertexIds::Offset(base) => base + index as u64,
            VertexIds::Explicit(ids) => ids[index],
        }
    }

    /// The index of the vertex with file id `id`; `None` if no vertex has that id.
    ///
    /// [`VertexIds::Offset`] does not know the vertex count: it answers for every
    /// `id >= base`. [`Graph::internal`] also checks the index against the graph.
    pub fn internal(&self, id: u64) -> Option<usize> {
        match self {
            VertexIds::Offset(base) => id.checked_sub(*base).and_then(|i| usize::try_from(i).ok()),
            VertexIds::Explicit(ids) => ids.binary_search(&id).ok(),
        }
    }
}

/// A graph read from a file.
///
/// # Invariants
/// `adjacency` is square; `weights`, when present, has one value per stored arc, parallel
/// to `adjacency.indices()`; `Explicit` ids have one id per vertex. A graph that comes
/// from this module's readers always holds them; the fields are public, so one built by
/// hand must too.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    /// The adjacency pattern: `A(i, j)` is the arc `i -> j`; `n x n`.
    pub adjacency: Csr<()>,
    /// One weight per stored arc, parallel to `adjacency.indices()`, when the file has values.
    pub weights: Option<Vec<f64>>,
    /// What the file's values are.
    pub value_type: ValueType,
    /// How indices map to the file's vertex ids.
    pub ids: VertexIds,
    /// `false` for a Matrix Market symmetric file or when read with
    /// [`ReadOptions::undirected`]: every edge is stored as both arcs.
    pub directed: bool,
    /// Entries read from the file: data lines, arc lines, or (adjacency form) neighbours.
    pub records: u64,
    /// Records that repeat an earlier `(src, dst)` as written (also under
    /// [`ReadOptions::undirected`]); for Matrix Market symmetric, an earlier unordered pair.
    pub duplicates: u64,
}

impl Graph {
    /// Number of vertices `n`.
    pub fn vertices(&self) -> usize {
        self.adjacency.nrows()
    }

    /// Number of stored arcs (an undirected edge counts twice, a self-loop once).
    pub fn arcs(&self) -> usize {
        self.adjacency.nnz()
    }

    /// Number of self-loops `i -> i`.
    pub fn self_loops(&self) -> usize {
        self.adjacency.count_diagonal()
    }

    /// The adjacency with its weights, when the graph has them.
    ///
    /// # Panics
    /// If `weights` does not have one value per arc (a broken [`Graph`] invariant).
    pub fn weighted_csr(&self) -> Option<Csr<f64>> {
        let w = self.weights.as_ref()?;
        assert_eq!(
            w.len(),
            self.arcs(),
            "Graph::weights.len() != Graph::arcs()"
        );
        let a = &self.adjacency;
        // SAFETY: the structure is that of `adjacency`, a valid Csr, and there is one
        // value per stored index (asserted above).
        Some(unsafe {
            Csr::new_unchecked(
                a.nrows(),
                a.ncols(),
                a.offsets().to_vec(),
                a.indices().to_vec(),
                w.clone(),
            )
        })
    }

    /// The index of the vertex with file id `id`, if the graph has one.
    pub fn internal(&self, id: u64) -> Option<usize> {
        self.ids.internal(id).filter(|&i| i < self.vertices())
    }

    /// The file id of vertex `index`.
    ///
    /// # Panics
    /// If `index >= self.vertices()`.
    pub fn external(&self, index: usize) -> u64 {
        assert!(index < self.vertices(), "vertex index >= Graph::vertices()");
        self.ids.external(index)
    }

    /// Number of vertices with at least one arc in or out (what SNAP calls "nodes").
    pub fn non_isolated(&self) -> usize {
        let n = self.vertices();
        let mut seen = vec![false; n];
        for i in 0..n {
            let cols: &[Index] = self.adjacency.row(i).0;
            if !cols.is_empty() {
                seen[i] = true;
            }
            for &j in cols {
                seen[j as usize] = true;
            }
        }
        seen.iter().filter(|&&s| s).count()
    }

    /// The same graph with every arc also reversed: `A ∪ A'`, weights combined by `min`,
    /// marked undirected. `records` and `duplicates` are unchanged. An undirected graph
    /// is returned as it is.
    pub fn into_undirected(self) -> Graph {
        if !self.directed {
            return self;
        }
        let (adjacency, weights) = assemble::symmetrize(&self.adjacency, self.weights.as_deref());
        Graph {
            adjacency,
            weights,
            directed: false,
            ..self
        }
    }
}

/// The name a path is shown by in messages.
fn display_name(path: &Path) -> String {
    path.display().to_string()
}

/// Reads the graph file at `path`, decompressing it when gzipped.
///
/// The format is `opts.format`, or else the one the name implies ([`Format::from_path`]).
/// A Graphalytics `X.e` file reads its vertex file `X.v` (or `X.v.gz`) beside it. A
/// directory is read as the parts of a graph cut in row blocks ([`parts::read_dir`]).
///
/// # Errors
/// [`Error::Io`] when a file cannot be read; [`Error::Parse`] naming the file and line
/// for anything wrong with its content; [`Error::InvalidArgument`] when the format cannot
/// be told from the name.
///
/// # Example
/// ```
/// use edgeblas::io::{read_graph, ReadOptions};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("tiny.txt");
/// std::fs::write(&path, "# a triangle\n0 1\n1 2\n2 0\n").unwrap();
/// let g = read_graph(&path, &ReadOptions::default()).unwrap();
/// assert_eq!((g.vertices(), g.arcs(), g.records), (3, 3, 3));
/// ```
pub fn read_graph(path: &Path, opts: &ReadOptions) -> Result<Graph> {
    if path.is_dir() {
        let g = parts::read_dir(path)?;
        return Ok(if opts.undirected {
            g.into_undirected()
        } else {
            g
        });
    }
    let format = match opts.format.or_else(|| Format::from_path(path)) {
        Some(f) => f,
        None => {
            return Err(Error::InvalidArgument(format!(
                "{}: cannot tell the graph format from the name; give one of: mtx, \
                 edgelist, dimacs, graphalytics, adj, binary",
                path.display()
            )));
        }
    };
    if format == Format::Graphalytics {
        let vpath = graphalytics::vertex_path(path)?;
        let e = source::read_file(path)?;
        let v = source::read_file(&vpath)?;
        return parse_graphalytics(&display_name(path), &e, &display_name(&vpath), &v, opts);
    }
    let bytes = source::read_file(path)?;
    parse_graph(&display_name(path), &bytes, format, opts)
}

/// Parses a graph held in memory; `name` is what messages call it (a `.gz` name, or the
/// gzip magic at the start, means the bytes are decompressed first).
///
/// # Errors
/// As [`read_graph`]; Graphalytics input needs its vertex file: use
/// [`parse_graphalytics`] (this returns [`Error::InvalidArgument`]).
///
/// # Example
/// ```
/// use edgeblas::io::{parse_graph, Format, ReadOptions};
/// let mm = b"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n";
/// let g = parse_graph("path.mtx", mm, Format::MatrixMarket, &ReadOptions::default()).unwrap();
/// assert_eq!((g.vertices(), g.arcs(), g.directed), (3, 4, false));
/// let bad = b"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 9\n";
/// let e = parse_graph("road.mtx", bad, Format::MatrixMarket, &ReadOptions::default());
/// assert_eq!(e.unwrap_err().to_string(), "road.mtx:3: column index 9 out of range 1..3");
/// ```
pub fn parse_graph(name: &str, bytes: &[u8], format: Format, opts: &ReadOptions) -> Result<Graph> {
    let data = source::decompress_declared(name, bytes, |head| match format {
        Format::Binary => binary::declared(head),
        Format::MatrixMarket => matrix_market::declared(head),
        Format::Dimacs => dimacs::declared(head),
        _ => None,
    })?;
    let bytes: &[u8] = &data;
    if bytes.is_empty() {
        return Err(Error::parse(name, 0, "the file is empty"));
    }
    refuse_banner(name, bytes, format)?;
    let g = match format {
        Format::MatrixMarket => matrix_market::parse(name, bytes, opts)?,
        Format::EdgeList => edge_list::parse(name, bytes, opts)?,
        Format::Dimacs => dimacs::parse(name, bytes, opts)?,
        Format::Adjacency => graphalytics::parse_adjacency(name, bytes, opts)?,
        Format::Binary => {
            let g = binary::decode(name, bytes)?;
            if opts.undirected {
                g.into_undirected()
            } else {
                g
            }
        }
        Format::Graphalytics => {
            return Err(Error::InvalidArgument(format!(
                "{name}: a Graphalytics edge file needs its vertex file; use parse_graphalytics"
            )));
        }
    };
    Ok(g)
}

/// Refuses a Matrix Market file read as a text format of another kind: their readers
/// would take its banner for a comment and its size line for an arc, a wrong graph
/// without an error. The Matrix Market reader refuses anything without the banner, and
/// the binary reader anything without its magic, on their own.
fn refuse_banner(name: &str, bytes: &[u8], format: Format) -> Result<()> {
    const BANNER: &[u8] = b"%%matrixmarket";
    if matches!(format, Format::MatrixMarket | Format::Binary) {
        return Ok(());
    }
    let start = bytes
        .iter()
        .position(|&c| c != b' ' && c != b'\t')
        .unwrap_or(bytes.len());
    let head = &bytes[start..];
    if head.len() >= BANNER.len() && head[..BANNER.len()].eq_ignore_ascii_case(BANNER) {
        return Err(Error::WrongFormat {
            path: name.to_string(),
            line: 1,
            requested: format,
            found: Format::MatrixMarket,
        });
    }
    Ok(())
}

/// Parses a Graphalytics graph held in memory: the edge file `e` (`src dst [weight]` per
/// line) named `e_name`, and the vertex file `v` (one id per line) named `v_name`.
///
/// # Errors
/// As [`read_graph`]; an edge naming an id the vertex file does not list is an error at
/// its line.
pub fn parse_graphalytics(
    e_name: &str,
    e: &[u8],
    v_name: &str,
    v: &[u8],
    opts: &ReadOptions,
) -> Result<Graph> {
    let e = source::decompress(e_name, e)?;
    let v = source::decompress(v_name, v)?;
    refuse_banner(e_name, &e, Format::Graphalytics)?;
    refuse_banner(v_name, &v, Format::Graphalytics)?;
    graphalytics::parse_edges_vertices(e_name, &e, v_name, &v, opts)
}

/// Writes `g` to `path` in `format` (or the one the name implies), gzip-compressed when
/// the path ends in `.gz`.
///
/// - Matrix Market: `symmetric` (lower triangle) when the graph is undirected and its
///   adjacency and weights are symmetric, `general` otherwise; indices are written
///   1-based, so explicit vertex ids are not kept.
/// - Edge list, Graphalytics and adjacency: every arc, with the graph's external ids
///   ([`VertexIds::external`]); Graphalytics also writes `X.v` beside `X.e`. An edge
///   list says nothing of isolated vertices past the largest id or of the id base:
///   reading one back gives `n = max id + 1` and ids from 0.
/// - DIMACS: 1-based, weights must be integers (a pattern graph gets weight 1).
/// - Binary: everything, exactly.
///
/// Integer weights are written as integers, real ones in Rust's shortest round-trip
/// form, so text round trips keep every value.
///
/// # Errors
/// [`Error::Io`] on a write failure; [`Error::InvalidArgument`] when the format cannot be
/// told from the name; [`Error::Unsupported`] when the format cannot hold the graph
/// (DIMACS with real weights).
pub fn write_graph(path: &Path, g: &Graph, format: Option<Format>) -> Result<()> {
    let format = match format.or_else(|| Format::from_path(path)) {
        Some(f) => f,
        None => {
            return Err(Error::InvalidArgument(format!(
                "{}: cannot tell the graph format from the name; give one of: mtx, \
                 edgelist, dimacs, graphalytics, adj, binary",
                path.display()
            )));
        }
    };
    write::write(path, g, format)
}

/// The bytes of `g` written as `format`, uncompressed, in memory: what [`write_graph`]
/// would put in a file of that format (for round-trip tests and fuzzing).
///
/// # Errors
/// [`Error::Unsupported`] for Graphalytics (two files) and for DIMACS with real weights.
pub fn write_graph_bytes(g: &Graph, format: Format) -> Result<Vec<u8>> {
    write::write_bytes(g, format)
}

/// The vertex file `X.v` that belongs to the Graphalytics edge file `X.e` (`X.e.gz` looks
/// for `X.v`, then `X.v.gz`).
///
/// # Errors
/// [`Error::InvalidArgument`] when the name does not end in `.e` or `.e.gz`.
pub fn graphalytics_vertex_path(edge_path: &Path) -> Result<PathBuf> {
    graphalytics::vertex_path(edge_path)
}
