//! LDBC Graphalytics graphs: the edge file `X.e` (`src dst [weight]`) with the vertex file
//! `X.v` (one id per line), and the vertex-based adjacency form (`v n1 n2 ...`).
//!
//! Ids are arbitrary non-negative integers (up to `u64::MAX`); vertex `i` is the `i`-th
//! smallest id ([`VertexIds::Explicit`]). The files do not say whether the graph is
//! directed: it is, unless [`ReadOptions::undirected`] says otherwise.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::assemble::{self, Shape};
use super::edge_list::{SPEC, value_type};
use super::text::{self, IdMap, Part, each_line, par_lines, parse_id, tokens};
use super::{Graph, ReadOptions, ValueType, VertexIds};
use crate::error::{Error, Result};

/// Comment markers accepted in Graphalytics text.
const COMMENT: [u8; 2] = [b'#', b'%'];

/// The vertex file beside an edge file `X.e` or `X.e.gz`: `X.v` if it exists, else
/// `X.v.gz` if that exists, else `X.v` (whose absence the read then reports).
pub(crate) fn vertex_path(edge: &Path) -> Result<PathBuf> {
    let name = edge.file_name().and_then(|s| s.to_str()).unwrap_or("");
    let lower = name.to_ascii_lowercase();
    let stem_len = if lower.ends_with(".e.gz") {
        name.len() - 5
    } else if lower.ends_with(".e") {
        name.len() - 2
    } else {
        return Err(Error::InvalidArgument(format!(
            "{}: a Graphalytics edge file's name ends in .e (its vertex file is the .v beside it)",
            edge.display()
        )));
    };
    let stem = &name[..stem_len];
    let plain = edge.with_file_name(format!("{stem}.v"));
    let gz = edge.with_file_name(format!("{stem}.v.gz"));
    Ok(if !plain.exists() && gz.exists() {
        gz
    } else {
        plain
    })
}

/// Ids sorted ascending and unique, mapped by position.
pub(crate) struct Explicit<'a> {
    ids: &'a [u64],
    /// `Some(first id)` when the ids are consecutive: the map is then a subtraction.
    base: Option<u64>,
    v_name: &'a str,
}

impl<'a> Explicit<'a> {
    pub(crate) fn new(ids: &'a [u64], v_name: &'a str) -> Self {
        let base = match (ids.first(), ids.last()) {
            (Some(&a), Some(&z)) if z - a == ids.len() as u64 - 1 => Some(a),
            _ => None,
        };
        Explicit { ids, base, v_name }
    }
}

impl IdMap for Explicit<'_> {
    #[inline]
    fn map(&self, field: &str, id: u64) -> std::result::Result<u32, String> {
        let found = match self.base {
            Some(a) => id
                .checked_sub(a)
                .filter(|&i| i < self.ids.len() as u64)
                .map(|i| i as usize),
            None => self.ids.binary_search(&id).ok(),
        };
        found
            .map(|i| i as u32)
            .ok_or_else(|| format!("{field} {id} is not in the vertex file {}", self.v_name))
    }
}

/// The number of vertices, checked to fit a `u32` index.
fn vertex_count(name: &str, n: usize) -> Result<usize> {
    if n as u64 > u32::MAX as u64 {
        return Err(Error::parse(
            name,
            0,
            format!("{n} vertices; at most {} are supported", u32::MAX),
        ));
    }
    Ok(n)
}

/// Parses a vertex file: the sorted ids, each listed once.
pub(crate) fn parse_vertices(v_name: &str, v: &[u8]) -> Result<Vec<u64>> {
    if v.is_empty() {
        return Err(Error::parse(v_name, 0, "the vertex file is empty"));
    }
    let chunks = par_lines(v_name, v, 1, |c| {
        each_line(
            c,
            COMMENT,
            Vec::new(),
            |out: &mut Vec<(u64, u64)>, line, t| {
                let mut toks = tokens(t);
                let id = parse_id("vertex id", toks.next().unwrap_or(b""))?;
                if toks.next().is_some() {
                    return Err("expected one vertex id per line".into());
                }
                out.push((id, line));
                Ok(())
            },
        )
    })?;
    let mut all: Vec<(u64, u64)> = Vec::with_capacity(chunks.iter().map(|c| c.1.len()).sum());
    for (line0, c) in chunks {
        all.extend(c.into_iter().map(|(id, l)| (id, line0 + l - 1)));
    }
    all.par_sort_unstable();
    let repeat = all
        .par_windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| (w[1].1, w[0].0, w[0].1))
        .min();
    if let Some((line, id, first)) = repeat {
        return Err(Error::parse(
            v_name,
            line,
            format!("vertex id {id} is listed twice (first on line {first})"),
        ));
    }
    vertex_count(v_name, all.len())?;
    Ok(all.into_iter().map(|(id, _)| id).collect())
}

fn shape(opts: &ReadOptions) -> Shape {
    if opts.undirected {
        Shape::Undirected
    } else {
        Shape::Directed
    }
}

/// Parses a Graphalytics edge file with its vertex file (both already decompressed).
pub(crate) fn parse_edges_vertices(
    e_name: &str,
    e: &[u8],
    v_name: &str,
    v: &[u8],
    opts: &ReadOptions,
) -> Result<Graph> {
    let ids = parse_vertices(v_name, v)?;
    let edges = text::parse_records(e_name, e, 1, &SPEC, &Explicit::new(&ids, v_name), None)?;
    let shape = shape(opts);
    let (adjacency, weights, duplicates) =
        assemble::build(ids.len(), edges.parts, edges.weighted, shape);
    Ok(Graph {
        adjacency,
        weights,
        value_type: value_type(edges.weighted, edges.real),
        ids: VertexIds::Explicit(ids),
        directed: shape == Shape::Directed,
        records: edges.records,
        duplicates,
    })
}

/// One chunk of an adjacency file: the line heads, and the `(head, neighbour)` pairs.
#[derive(Default)]
struct AdjChunk {
    heads: Vec<u64>,
    /// The chunk-local line of each head.
    head_lines: Vec<u64>,
    src: Vec<u64>,
    dst: Vec<u64>,
}

/// Refuses a vertex that heads two lines: the form gives each vertex's neighbours on one
/// line, so a repeat is a file of another kind (an edge list `src dst [weight]` reads as
/// lines of one or two neighbours, its weights taken for ids). The error names the
/// second line.
fn refuse_repeated_heads(name: &str, chunks: &[(u64, AdjChunk)]) -> Result<()> {
    let mut heads: Vec<(u64, u64)> = chunks
        .iter()
        .flat_map(|(first, c)| {
            c.heads
                .iter()
                .zip(&c.head_lines)
                .map(move |(&h, &l)| (h, first + l - 1))
        })
        .collect();
    heads.par_sort_unstable();
    let repeat = heads
        .windows(2)
        .filter(|p| p[0].0 == p[1].0)
        .min_by_key(|p| p[1].1);
    match repeat {
        Some(p) => Err(Error::parse(
            name,
            p[1].1,
            format!(
                "vertex {} heads a second line (first at line {}): the adjacency form \
                 gives each vertex's neighbours on one line 'v n1 n2 ...'",
                p[0].0, p[0].1
            ),
        )),
        None => Ok(()),
    }
}

/// Parses the adjacency form: `v n1 n2 ...` per line; every id that appears is a vertex.
pub(crate) fn parse_adjacency(name: &str, b: &[u8], opts: &ReadOptions) -> Result<Graph> {
    let chunks = par_lines(name, b, 1, |c| {
        each_line(c, COMMENT, AdjChunk::default(), |out, line, t| {
            let mut toks = tokens(t);
            let head = parse_id("vertex id", toks.next().unwrap_or(b""))?;
            out.heads.push(head);
            out.head_lines.push(line);
            for tok in toks {
                out.dst.push(parse_id("neighbour id", tok)?);
                out.src.push(head);
            }
            Ok(())
        })
    })?;
    refuse_repeated_heads(name, &chunks)?;
    let mut ids: Vec<u64> = Vec::with_capacity(
        chunks
            .iter()
            .map(|(_, c)| c.heads.len() + c.dst.len())
            .sum(),
    );
    for (_, c) in &chunks {
        ids.extend_from_slice(&c.heads);
        ids.extend_from_slice(&c.dst);
    }
    if ids.is_empty() {
        return Err(Error::parse(
            name,
            0,
            "no vertices: every line is blank or a comment",
        ));
    }
    ids.par_sort_unstable();
    ids.dedup();
    let n = vertex_count(name, ids.len())?;
    let index = |id: &u64| ids.binary_search(id).unwrap_or(0) as u32;
    let parts: Vec<Part> = chunks
        .into_par_iter()
        .map(|(_, c)| Part {
            src: c.src.iter().map(index).collect(),
            dst: c.dst.iter().map(index).collect(),
            w: Vec::new(),
        })
        .collect();
    let records = parts.iter().map(|p| p.src.len() as u64).sum();
    let shape = shape(opts);
    let (adjacency, _, duplicates) = assemble::build(n, parts, false, shape);
    Ok(Graph {
        adjacency,
        weights: None,
        value_type: ValueType::Pattern,
        ids: VertexIds::Explicit(ids),
        directed: shape == Shape::Directed,
        records,
        duplicates,
    })
}
