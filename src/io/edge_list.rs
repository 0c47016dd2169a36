//! Edge lists (SNAP style): `src dst [weight]` per line, `#` or `%` comment lines.
//!
//! Ids are non-negative integer indices and the graph has `max id + 1` vertices (ids
//! that never appear are isolated vertices). Either every record has a weight or none
//! does; the weights are `Integer` when all are integer literals, `Real` otherwise.

use super::assemble::{self, Shape};
use super::text::{self, Below, Columns, LineSpec, Values};
use super::{Graph, ReadOptions, ValueType, VertexIds};
use crate::error::{Error, Result};

/// The record shape of an edge list, shared with Graphalytics `.e` files.
pub(crate) const SPEC: LineSpec = LineSpec {
    comment: [b'#', b'%'],
    prefix: None,
    columns: Columns::TwoOrThree,
    values: Values::Infer,
    fields: ["source id", "target id"],
    describe: "src dst [weight]",
    plural: "edges",
};

/// The value type of parsed records.
pub(crate) fn value_type(weighted: bool, real: bool) -> ValueType {
    match (weighted, real) {
        (false, _) => ValueType::Pattern,
        (true, false) => ValueType::Integer,
        (true, true) => ValueType::Real,
    }
}

/// Parses a whole edge list.
pub(crate) fn parse(name: &str, b: &[u8], opts: &ReadOptions) -> Result<Graph> {
    let ids = Below {
        limit: opts.vertex_limit(b.len()),
        bytes: b.len(),
        floor: opts.min_vertex_limit.min(u32::MAX as u64),
    };
    let edges = text::parse_records(name, b, 1, &SPEC, &ids, None)?;
    if edges.records == 0 {
        return Err(Error::parse(
            name,
            0,
            "no edges: an edge list needs at least one 'src dst' line",
        ));
    }
    let n = edges.max as usize + 1;
    let shape = if opts.undirected {
        Shape::Undirected
    } else {
        Shape::Directed
    };
    let (adjacency, weights, duplicates) = assemble::build(n, edges.parts, edges.weighted, shape);
    Ok(Graph {
        adjacency,
        weights,
        value_type: value_type(edges.weighted, edges.real),
        ids: VertexIds::Offset(0),
        directed: !opts.undirected,
        records: edges.records,
        duplicates,
    })
}
