//! Every rank reads its own rows of a binary graph file ([`read_row_blocks`]): rank 0
//! reads the header and cuts the rows by arcs from a few offsets
//! ([`RowBlocks::by_arcs_lookup`]), and every rank then seeks to its block and reads it
//! alone ([`BinaryFile::read_rows`]). No rank, rank 0 included, holds more of the graph
//! than its rows (and rank 0 the vertex ids, one per vertex, for the outputs).
//!
//! The file must be a regular, uncompressed `.ebg` that every rank can open at the same
//! path (a shared or replicated file system); anything else goes through rank 0
//! ([`super::bfs::scatter_graph`]).

use std::path::Path;

use super::net::{Failed, Net};
use super::partition::{Partition, RowBlocks};
use crate::error::{Error, Result};
use crate::io::VertexIds;
use crate::io::binary::{self, BinaryFile, BinaryHeader, RowBlock};
use crate::io::parts::{self, PartHeader};

/// One rank's rows of a binary graph file, and what every rank knows of the whole.
#[derive(Clone, Debug)]
pub struct RowBlocksRead {
    /// The file's header (the same on every rank).
    pub header: BinaryHeader,
    /// The cut of the rows over the ranks.
    pub part: RowBlocks,
    /// This rank's rows.
    pub rows: RowBlock,
    /// The vertex ids, on rank 0 only (`None` elsewhere).
    pub ids: Option<VertexIds>,
}

fn header_words(h: &BinaryHeader) -> Vec<u64> {
    vec![
        h.vertices as u64,
        h.arcs,
        h.directed as u64,
        h.weighted as u64,
    ]
}

/// Rank 0's part: the header, the ids, and the cut.
fn plan(path: &Path, ranks: usize) -> Result<(BinaryFile, VertexIds, RowBlocks)> {
    let mut f = BinaryFile::open(path)?;
    let h = *f.header();
    if h.vertices < ranks {
        return Err(Error::InvalidArgument(format!(
            "{ranks} ranks for {} vertices: run at most {} ranks (mpirun -np)",
            h.vertices, h.vertices
        )));
    }
    let ids = f.ids()?;
    let part =
        RowBlocks::by_arcs_lookup(h.vertices, h.arcs, ranks, |v| f.offsets(v..v).map(|o| o[0]))?;
    Ok((f, ids, part))
}

/// Reads the binary graph file at `path` in row blocks: this rank's rows of the
/// adjacency (and weights), the cut of the rows by arcs, and on rank 0 the vertex ids.
/// A directory is a graph written in parts ([`crate::io::parts`]), one per rank: rank
/// `r` reads part `r` whole (its checksum checked). Collective: every rank passes the
/// same path.
///
/// # Errors
/// Agreed by all ranks ([`Net::agree`]): rank 0 gets the message of the first failure
/// ([`Failed::Here`]: a file that cannot be opened or read, a bad header, more ranks
/// than vertices, rows that break the CSR invariants, on any rank), the others
/// [`Failed::Elsewhere`].
pub fn read_row_blocks(net: &Net, path: &Path) -> std::result::Result<RowBlocksRead, Failed> {
    if path.is_dir() {
        return read_parts(net, path);
    }
    let planned = if net.is_root() {
        plan(path, net.size()).map(Some)
    } else {
        Ok(None)
    };
    let planned = net.agree(planned)?;
    // [vertices, arcs, directed, weighted, starts...] from rank 0.
    let mut words = Vec::new();
    if let Some((f, _, part)) = &planned {
        words = header_words(f.header());
        words.extend_from_slice(part.starts());
    }
    let words = net.broadcast_u64s(&words);
    let part = RowBlocks::from_starts(words[4..].to_vec());
    let (file, ids) = match planned {
        Some((f, ids, _)) => (Some(f), Some(ids)),
        None => (None, None),
    };
    let range = part.range(net.rank());
    let read = match file {
        Some(mut f) => f.read_rows(range).map(|r| (*f.header(), r)),
        None => BinaryFile::open(path).and_then(|mut f| {
            let h = *f.header();
            if header_words(&h) != words[..4] {
                return Err(Error::parse(
                    f.name(),
                    0,
                    "the file changed while the ranks read it (another header)",
                ));
            }
            f.read_rows(range).map(|r| (h, r))
        }),
    };
    let (header, rows) = net.agree(read)?;
    Ok(RowBlocksRead {
        header,
        part,
        rows,
        ids,
    })
}

/// The parts of a graph in directory `dir`, one per rank: rank 0 counts them (there
/// must be one per rank), every rank reads its own, and the ranks check together that
/// the parts are of one graph (part 0's header, rows that follow on, arcs that add up).
fn read_parts(net: &Net, dir: &Path) -> std::result::Result<RowBlocksRead, Failed> {
    let ranks = net.size();
    let counted = if net.is_root() {
        parts::count_parts(dir).and_then(|p| match p == ranks {
            true => Ok(()),
            false => Err(Error::InvalidArgument(format!(
                "{}: {p} parts for {ranks} ranks: run mpirun -np {p}, or write {ranks} parts (edgeblas convert IN DIR --parts {ranks})",
                dir.display()
            ))),
        })
    } else {
        Ok(())
    };
    net.agree(counted)?;
    let path = parts::part_path(dir, net.rank());
    let mine = net.agree(parts::read_part(&path))?;
    // Part 0's header, from rank 0: [vertices, arcs, flags, records, duplicates, base, parts].
    let mut words = Vec::new();
    if net.is_root() {
        let h = &mine.header.graph;
        words = vec![
            h.vertices as u64,
            h.arcs,
            binary::flags_of(h) as u64,
            h.records,
            h.duplicates,
            h.base(),
            mine.header.parts as u64,
        ];
    }
    let words = net.broadcast_u64s(&words);
    let mut first = binary::parse_flags("part 0", words[2] as u32)
        .expect("rank 0 read these flags from a checked part");
    first.vertices = words[0] as usize;
    first.arcs = words[1];
    first.records = words[3];
    first.duplicates = words[4];
    first.set_base(words[5]);
    let first = PartHeader {
        graph: first,
        part: 0,
        parts: words[6] as usize,
    };
    let r = &mine.rows.rows;
    let bounds = net.allgatherv(&[r.start as u64, r.end as u64]);
    let arcs = net.allreduce_sum(&[mine.rows.indices.len() as u64])[0];
    let rank = net.rank();
    let at = if rank == 0 {
        0
    } else {
        bounds[2 * rank - 1] as usize
    };
    let n = first.graph.vertices;
    let checked = parts::check_part(&path, &mine.header, &first, rank, at, r.start).and_then(|()| {
        let end = bounds[2 * ranks - 1] as usize;
        if rank + 1 == ranks && (end != n || arcs != first.graph.arcs) {
            return Err(Error::parse(
                dir.display().to_string(),
                0,
                format!(
                    "the parts end at row {end} with {arcs} arcs; the graph has {n} vertices and {} arcs",
                    first.graph.arcs
                ),
            ));
        }
        Ok(())
    });
    net.agree(checked)?;
    let mut starts: Vec<u64> = bounds.chunks_exact(2).map(|b| b[0]).collect();
    starts.push(n as u64);
    let explicit = mine.ids;
    let ids = net.is_root().then(|| match explicit {
        Some(ids) => VertexIds::Explicit(ids),
        None => VertexIds::Offset(first.graph.base()),
    });
    Ok(RowBlocksRead {
        header: first.graph,
        part: RowBlocks::from_starts(starts),
        rows: mine.rows,
        ids,
    })
}
