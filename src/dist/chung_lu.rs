//! Distributed Chung-Lu generation: the CPU generator's chunks, walked by the ranks,
//! edges routed to the owners of their rows.
//!
//! 1. Every rank holds the same [`Plan`] (made from the same degrees: rank 0 reads the
//!    input and broadcasts it, [`encode_degrees`] / [`decode_degrees`]).
//! 2. The chunks are cut into `P` [lanes](Plan::lanes) of about equal cost under the
//!    model `c = alpha + beta m`; rank `r` walks lane `r`, split into the CPU's
//!    [pieces](Plan::pieces) for its threads, with the same per-(seed, task, chunk)
//!    streams as [`crate::generate::chung_lu::generate`]: the same edges, wherever they
//!    are drawn.
//! 3. Every edge `{u, v}` goes to `owner(u)` as `(u, v)` and, undirected, to `owner(v)`
//!    as `(v, u)` (one alltoallv); rows are cut into blocks of about equal expected
//!    degree ([`RowBlocks::by_weight`]).
//! 4. Every rank builds its block of rows and sorts each row. A row of the CPU's CSR is
//!    the sorted set of its vertex's neighbours, so the blocks, concatenated at rank 0
//!    ([`gather`]), are byte for byte the CPU generator's graph for any `P`.

use rayon::prelude::*;

use super::net::{Net, Traffic};
use super::partition::{Partition, RowBlocks};
use crate::algebra::Index;
use crate::error::{Error, Result};
use crate::generate::chung_lu::cpu::{for_row_blocks, walk_pieces};
use crate::generate::chung_lu::{Degrees, Plan};
use crate::matrix::Csr;

/// One rank's block of rows of a generated graph.
#[derive(Clone, Debug)]
pub struct CsrBlock {
    /// The partition of the rows.
    pub part: RowBlocks,
    /// Offsets of the owned rows (`rows + 1` values from 0).
    pub offsets: Vec<u64>,
    /// Their entries, each row sorted.
    pub indices: Vec<Index>,
    /// Entries (arcs) of the whole graph, summed over the ranks.
    pub arcs: u64,
    /// The traffic of the generation, all ranks together.
    pub traffic: Traffic,
}

/// The rows of `plan` cut into `ranks` blocks of about equal expected degree (out-degree
/// when directed).
pub fn row_partition(plan: &Plan, ranks: usize) -> RowBlocks {
    let rows = &plan.rows;
    let mut w = vec![0f64; plan.n];
    for g in 0..rows.len() {
        for k in rows.start[g]..rows.start[g + 1] {
            w[rows.vertex(k) as usize] = rows.weight[g];
        }
    }
    RowBlocks::by_weight(plan.n, ranks, |v| w[v])
}

/// The pieces of rank `rank`'s lane: the CPU's pieces clipped to the lane.
fn my_pieces(plan: &Plan, ranks: usize, rank: usize) -> Vec<(u64, u64)> {
    let lanes = plan.lanes(ranks);
    let Some(&(c0, c1)) = lanes.get(rank) else {
        return Vec::new();
    };
    plan.pieces()
        .into_iter()
        .filter_map(|(a, b)| {
            let (a, b) = (a.max(c0), b.min(c1));
            (a < b).then_some((a, b))
        })
        .collect()
}

/// Generates the graph of `plan` under `seed`, every rank building its block of rows
/// with `threads` threads walking its chunks. Collective: every rank passes the same
/// plan and seed.
pub fn generate(net: &Net, plan: &Plan, seed: u64, threads: usize) -> CsrBlock {
    let start = net.sent();
    let p = net.size();
    let part = row_partition(plan, p);
    let pieces = my_pieces(plan, p, net.rank());
    let bufs = walk_pieces(plan, &pieces, seed, threads, &|_| {}, &|_| {}, |e| e);
    let undirected = !plan.directed;
    let (rows, cols) = (&plan.rows, plan.col_groups());
    let vertices = |x: u32, y: u32| (rows.vertex(x as u64), cols.vertex(y as u64));
    // Two passes over the walked edges: the pairs for each rank, then the pairs laid
    // out rank by rank in one buffer (in walk order, so that every row receives its
    // entries in the CPU generator's order).
    let mut counts = vec![0usize; p];
    for b in &bufs {
        for &(x, y) in b {
            let (u, v) = vertices(x, y);
            counts[part.owner(u)] += 2;
            if undirected {
                counts[part.owner(v)] += 2;
            }
        }
    }
    let mut at: Vec<usize> = counts
        .iter()
        .scan(0usize, |acc, &c| {
            let s = *acc;
            *acc += c;
            Some(s)
        })
        .collect();
    let mut flat = vec![0 as Index; counts.iter().sum()];
    for b in &bufs {
        for &(x, y) in b {
            let (u, v) = vertices(x, y);
            let q = &mut at[part.owner(u)];
            flat[*q] = u;
            flat[*q + 1] = v;
            *q += 2;
            if undirected {
                let q = &mut at[part.owner(v)];
                flat[*q] = v;
                flat[*q + 1] = u;
                *q += 2;
            }
        }
    }
    drop(bufs);
    let got = net.alltoallv_flat(&flat, &counts);
    drop(flat);
    let range = part.range(net.rank());
    let lo = range.start;
    let mut offsets = vec![0u64; range.len() + 1];
    for pair in got.chunks_exact(2) {
        offsets[pair[0] as usize - lo + 1] += 1;
    }
    for k in 0..range.len() {
        offsets[k + 1] += offsets[k];
    }
    let mut cur = offsets[..range.len()].to_vec();
    let mut indices = vec![0 as Index; got.len() / 2];
    for pair in got.chunks_exact(2) {
        let q = &mut cur[pair[0] as usize - lo];
        indices[*q as usize] = pair[1];
        *q += 1;
    }
    drop(got);
    // Rows arrive sorted where the vertex order is the identity (as in the CPU
    // generator's fill); a row that is not (a degree sequence's order) is sorted.
    for_row_blocks(&offsets, &mut indices, |_, row| {
        if !row.is_sorted() {
            row.sort_unstable();
        }
    });
    let arcs = net.allreduce_sum(&[indices.len() as u64])[0];
    let mine = net.sent() - start;
    let t = net.allreduce_sum(&[mine.bytes, mine.messages]);
    CsrBlock {
        part,
        offsets,
        indices,
        arcs,
        traffic: Traffic {
            bytes: t[0],
            messages: t[1],
        },
    }
}

/// The whole graph at rank 0 (`None` elsewhere): every block's row degrees and entries
/// gathered and concatenated. Collective.
///
/// # Errors
/// [`Error::InvalidStructure`] if the blocks do not make a valid matrix (a bug).
pub fn gather(net: &Net, b: &CsrBlock) -> Result<Option<Csr<()>>> {
    let deg: Vec<u64> = b.offsets.windows(2).map(|w| w[1] - w[0]).collect();
    let deg = net.gatherv_root(&deg);
    let idx = net.gatherv_root(&b.indices);
    let (Some(deg), Some(idx)) = (deg, idx) else {
        return Ok(None);
    };
    let n = deg.len();
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0u64);
    let mut acc = 0u64;
    offsets.extend(deg.iter().map(|&d| {
        acc += d;
        acc
    }));
    let nnz = idx.len();
    Csr::new_checked(n, n, offsets, idx, vec![(); nnz]).map(Some)
}

/// A degree distribution as bytes (for [`Net::broadcast_bytes`]): a tag, then `u64`s.
pub fn encode_degrees(d: &Degrees) -> Vec<u8> {
    let mut words: Vec<u64> = Vec::new();
    match d {
        Degrees::Sequence(s) => {
            words.push(0);
            words.extend_from_slice(s);
        }
        Degrees::Histogram(h) => {
            words.push(1);
            words.extend(h.iter().flat_map(|&(d, c)| [d, c]));
        }
        Degrees::Directed { out, inn } => {
            words.push(2);
            words.extend_from_slice(out);
            words.extend_from_slice(inn);
        }
    }
    words
        .par_iter()
        .flat_map_iter(|w| w.to_le_bytes())
        .collect()
}

/// The distribution [`encode_degrees`] wrote.
///
/// # Errors
/// [`Error::InvalidArgument`] for bytes it did not write.
pub fn decode_degrees(bytes: &[u8]) -> Result<Degrees> {
    let bad = || Error::InvalidArgument("a degree distribution that does not decode".into());
    if !bytes.len().is_multiple_of(8) || bytes.is_empty() {
        return Err(bad());
    }
    let words: Vec<u64> = bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    let body = &words[1..];
    Ok(match words[0] {
        0 => Degrees::Sequence(body.to_vec()),
        1 if body.len().is_multiple_of(2) => {
            Degrees::Histogram(body.chunks_exact(2).map(|c| (c[0], c[1])).collect())
        }
        2 if body.len().is_multiple_of(2) => {
            let (out, inn) = body.split_at(body.len() / 2);
            Degrees::Directed {
                out: out.to_vec(),
                inn: inn.to_vec(),
            }
        }
        _ => return Err(bad()),
    })
}
