//! 9th DIMACS challenge shortest-path graphs (`.gr`): `c` comments, one problem line
//! `p sp n m`, then `m` arc lines `a u v w`, ids 1-based.

use super::assemble::{self, Shape};
use super::edge_list::value_type;
use super::source::DeclaredSize;
use super::text::{self, Columns, Declared, LineSpec, Range, Values, show, tokens};
use super::{Graph, ReadOptions, VertexIds};
use crate::error::{Error, Result};

pub(crate) const SPEC: LineSpec = LineSpec {
    comment: [b'c', b'c'],
    prefix: Some(b'a'),
    columns: Columns::Three,
    values: Values::Infer,
    fields: ["tail", "head"],
    describe: "u v w",
    plural: "arcs",
};

/// What the problem line at the start of `head` (a decompressed prefix) allows the whole
/// file: `m` arcs, [`text::BYTES_PER_RECORD`] each; `None` without a whole `p sp n m`
/// line before any other.
pub(crate) fn declared(head: &[u8]) -> Option<DeclaredSize> {
    let is_comment = |t: &[u8]| tokens(t).next().is_some_and(|w| w[0] == b'c');
    let mut p = 0;
    let problem = text::whole_line(head, &mut p, is_comment)?;
    let toks: Vec<&[u8]> = tokens(problem).collect();
    if toks.len() != 4 || toks[0] != b"p" || toks[1] != b"sp" {
        return None;
    }
    let m = text::parse_id("", toks[3]).ok()?;
    Some(DeclaredSize {
        bytes: text::declared_text_bytes(p, m),
        what: format!("a DIMACS file of {m} arcs"),
    })
}

/// A DIMACS file's problem line `p sp n m`.
pub(crate) struct Header {
    /// Vertices.
    pub n: u64,
    /// The arc count it declares.
    pub declared: Declared,
    /// The offset of the line after it, and that line's number.
    pub body: usize,
    pub line: u64,
}

/// Reads the problem line at the start of `b`, a whole file of `bytes` bytes or
/// (`complete` false) a prefix of it cut after a newline; `Ok(None)` when that prefix
/// holds only comments.
pub(crate) fn header(
    name: &str,
    b: &[u8],
    complete: bool,
    bytes: usize,
    opts: &ReadOptions,
) -> Result<Option<Header>> {
    let mut p = 0usize;
    let mut line = 1u64;
    let is_comment = |t: &[u8]| tokens(t).next().is_some_and(|w| w[0] == b'c');
    let Some((pline, text)) = text::next_line(b, &mut p, &mut line, is_comment) else {
        if !complete {
            return Ok(None);
        }
        return Err(Error::parse(
            name,
            0,
            "no problem line 'p sp n m' (only comments)",
        ));
    };
    let toks: Vec<&[u8]> = tokens(text).collect();
    if toks[0] != b"p" {
        let what = if toks[0] == b"a" {
            "an arc before the problem line 'p sp n m'".to_string()
        } else {
            format!(
                "expected the problem line 'p sp n m', found '{}'",
                show(toks[0])
            )
        };
        return Err(Error::parse(name, pline, what));
    }
    if toks.len() != 4 || toks[1] != b"sp" {
        return Err(Error::parse(
            name,
            pline,
            "the problem line must be 'p sp n m' (a shortest-path problem, n vertices, m arcs)",
        ));
    }
    let id =
        |what: &str, t: &[u8]| text::parse_id(what, t).map_err(|m| Error::parse(name, pline, m));
    let n = id("vertex count", toks[2])?;
    let m = id("arc count", toks[3])?;
    text::check_vertex_count(name, pline, n, bytes, opts)?;
    Ok(Some(Header {
        n,
        declared: Declared {
            count: m,
            line: pline,
            what: "the problem line",
        },
        body: p,
        line,
    }))
}

/// Parses a whole DIMACS file.
pub(crate) fn parse(name: &str, b: &[u8], opts: &ReadOptions) -> Result<Graph> {
    let h = header(name, b, true, b.len(), opts)?.expect("a whole file has its header or fails");
    let edges = text::parse_records(
        name,
        &b[h.body..],
        h.line,
        &SPEC,
        &Range { base: 1, n: h.n },
        Some(&h.declared),
    )?;
    let shape = if opts.undirected {
        Shape::Undirected
    } else {
        Shape::Directed
    };
    let (adjacency, weights, duplicates) = assemble::build(h.n as usize, edges.parts, true, shape);
    Ok(Graph {
        adjacency,
        weights,
        value_type: value_type(true, edges.real),
        ids: VertexIds::Offset(1),
        directed: !opts.undirected,
        records: edges.records,
        duplicates,
    })
}
