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
use crate::io::binary::{BinaryFile, BinaryHeader, RowBlock};

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
/// Collective: every rank passes the same path.
///
/// # Errors
/// Agreed by all ranks ([`Net::agree`]): rank 0 gets the message of the first failure
/// ([`Failed::Here`]: a file that cannot be opened or read, a bad header, more ranks
/// than vertices, rows that break the CSR invariants, on any rank), the others
/// [`Failed::Elsewhere`].
pub fn read_row_blocks(net: &Net, path: &Path) -> std::result::Result<RowBlocksRead, Failed> {
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
