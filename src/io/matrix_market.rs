//! Matrix Market coordinate files (`.mtx`): the banner, the size line, and the entries.
//!
//! `%%MatrixMarket matrix coordinate {pattern|integer|real} {general|symmetric}`, then
//! `%` comments, then `rows cols nnz`, then exactly `nnz` lines `i j [value]`, 1-based.
//! A `symmetric` file stores each undirected edge once (the lower triangle, though either
//! triangle is accepted); both arcs are produced, and a pair given in both triangles is
//! a duplicate.

use super::assemble::{self, Shape};
use super::source::DeclaredSize;
use super::text::{self, Columns, Declared, LineSpec, Range, Values, show, tokens};
use super::{Graph, ReadOptions, ValueType, VertexIds};
use crate::error::{Error, Result};

/// The parsed banner.
struct Banner {
    field: ValueType,
    symmetric: bool,
}

fn banner(name: &str, line: &[u8]) -> Result<Banner> {
    let err = |m: String| Err(Error::parse(name, 1, m));
    let toks: Vec<String> = tokens(line)
        .map(|t| String::from_utf8_lossy(t).to_ascii_lowercase())
        .collect();
    if toks.first().map(String::as_str) != Some("%%matrixmarket") {
        return err(format!(
            "not a Matrix Market file: the first line must be \
             '%%MatrixMarket matrix coordinate <field> <symmetry>', found '{}'",
            show(&line[..line.len().min(60)])
        ));
    }
    if toks.len() != 5 {
        return err(format!(
            "the banner has {} words; expected '%%MatrixMarket matrix coordinate <field> \
             <symmetry>'",
            toks.len()
        ));
    }
    if toks[1] != "matrix" {
        return err(format!(
            "object '{}' is not supported; a graph is a 'matrix'",
            toks[1]
        ));
    }
    match toks[2].as_str() {
        "coordinate" => {}
        "array" => {
            return err(
                "Matrix Market 'array' (dense) format is not supported: a graph file \
                 must be 'coordinate'"
                    .into(),
            );
        }
        f => return err(format!("unknown format '{f}'; expected 'coordinate'")),
    }
    let field = match toks[3].as_str() {
        "pattern" => ValueType::Pattern,
        "integer" => ValueType::Integer,
        "real" | "double" => ValueType::Real,
        "complex" => {
            return err("'complex' values are not supported: arc weights are real".into());
        }
        f => {
            return err(format!(
                "unknown field '{f}'; expected pattern, integer or real"
            ));
        }
    };
    let symmetric = match toks[4].as_str() {
        "general" => false,
        "symmetric" => true,
        s @ ("skew-symmetric" | "hermitian") => {
            return err(format!(
                "'{s}' matrices are not supported: a graph is 'general' or 'symmetric'"
            ));
        }
        s => {
            return err(format!(
                "unknown symmetry '{s}'; expected general or symmetric"
            ));
        }
    };
    Ok(Banner { field, symmetric })
}

/// What the header at the start of `head` (a decompressed prefix) allows the whole file:
/// its size line's entries, [`text::BYTES_PER_RECORD`] each; `None` without a banner and
/// a whole size line.
pub(crate) fn declared(head: &[u8]) -> Option<DeclaredSize> {
    let first_end = memchr::memchr(b'\n', head)?;
    let word = tokens(&head[..first_end]).next()?;
    if !word.eq_ignore_ascii_case(b"%%matrixmarket") {
        return None;
    }
    let is_comment = |t: &[u8]| t.iter().find(|&&c| !text::is_blank(c)) == Some(&b'%');
    let mut p = first_end + 1;
    let size = text::whole_line(head, &mut p, is_comment)?;
    let toks: Vec<&[u8]> = tokens(size).collect();
    let nnz = text::parse_id("", toks.get(2)?).ok()?;
    if toks.len() != 3 {
        return None;
    }
    Some(DeclaredSize {
        bytes: text::declared_text_bytes(p, nnz),
        what: format!("a Matrix Market file of {nnz} entries"),
    })
}

/// A Matrix Market file's header: the banner and the size line.
pub(crate) struct Header {
    pub field: ValueType,
    pub symmetric: bool,
    /// Rows (= columns = vertices).
    pub n: u64,
    /// The entry count of the size line.
    pub declared: Declared,
    pub spec: LineSpec,
    /// The offset of the line after the size line, and that line's number.
    pub body: usize,
    pub line: u64,
}

impl Header {
    /// How the records become arcs.
    pub(crate) fn shape(&self, undirected: bool) -> Shape {
        if self.symmetric {
            Shape::Symmetric
        } else if undirected {
            Shape::Undirected
        } else {
            Shape::Directed
        }
    }
}

/// Reads the header at the start of `b`, a whole file of `bytes` bytes or (`complete`
/// false) a prefix of it cut after a newline; `Ok(None)` when that prefix ends before
/// the size line.
pub(crate) fn header(
    name: &str,
    b: &[u8],
    complete: bool,
    bytes: usize,
    opts: &ReadOptions,
) -> Result<Option<Header>> {
    let is_comment = |t: &[u8]| t.iter().find(|&&c| !text::is_blank(c)) == Some(&b'%');
    // The banner is the very first line, comment-like though it is.
    let first_end = memchr::memchr(b'\n', b).unwrap_or(b.len());
    if !complete && first_end == b.len() {
        return Ok(None);
    }
    let ban = banner(name, &b[..first_end])?;
    let mut p = (first_end + 1).min(b.len());
    let mut line = 2u64;
    let Some((size_line, size)) = text::next_line(b, &mut p, &mut line, is_comment) else {
        if !complete {
            return Ok(None);
        }
        return Err(Error::parse(
            name,
            line,
            "missing the size line 'rows columns entries'",
        ));
    };
    let toks: Vec<&[u8]> = tokens(size).collect();
    if toks.len() != 3 {
        return Err(Error::parse(
            name,
            size_line,
            format!(
                "the size line must be 'rows columns entries' (3 integers), found {} words",
                toks.len()
            ),
        ));
    }
    let id = |what: &str, t: &[u8]| {
        text::parse_id(what, t).map_err(|m| Error::parse(name, size_line, m))
    };
    let nrows = id("row count", toks[0])?;
    let ncols = id("column count", toks[1])?;
    let nnz = id("entry count", toks[2])?;
    if nrows != ncols {
        return Err(Error::parse(
            name,
            size_line,
            format!(
                "the matrix is {nrows} x {ncols}, but a graph's adjacency matrix must be square"
            ),
        ));
    }
    text::check_vertex_count(name, size_line, nrows, bytes, opts)?;
    let (columns, values) = match ban.field {
        ValueType::Pattern => (Columns::Two, Values::Real),
        ValueType::Integer => (Columns::Three, Values::Integer),
        ValueType::Real => (Columns::Three, Values::Real),
    };
    let spec = LineSpec {
        comment: [b'%', b'%'],
        prefix: None,
        columns,
        values,
        fields: ["row index", "column index"],
        describe: if columns == Columns::Two {
            "row column"
        } else {
            "row column value"
        },
        plural: "entries",
    };
    Ok(Some(Header {
        field: ban.field,
        symmetric: ban.symmetric,
        n: nrows,
        declared: Declared {
            count: nnz,
            line: size_line,
            what: "the size line",
        },
        spec,
        body: p,
        line,
    }))
}

/// Parses a whole Matrix Market file.
pub(crate) fn parse(name: &str, b: &[u8], opts: &ReadOptions) -> Result<Graph> {
    let h = header(name, b, true, b.len(), opts)?.expect("a whole file has its header or fails");
    let edges = text::parse_records(
        name,
        &b[h.body..],
        h.line,
        &h.spec,
        &Range { base: 1, n: h.n },
        Some(&h.declared),
    )?;
    let shape = h.shape(opts.undirected);
    let records = edges.records;
    let (adjacency, weights, duplicates) =
        assemble::build(h.n as usize, edges.parts, edges.weighted, shape);
    Ok(Graph {
        adjacency,
        weights,
        value_type: h.field,
        ids: VertexIds::Offset(1),
        directed: shape == Shape::Directed,
        records,
        duplicates,
    })
}
