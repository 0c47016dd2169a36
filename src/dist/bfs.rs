//! Distributed direction-optimizing BFS over a 1-D row partition.
//!
//! Every rank holds its vertices' state (parents, levels) and rows ([`LocalGraph`]).
//! The search loop is the CPU backend's own (`drive` in [`mod@crate::algo::bfs`]), run on
//! every rank with the same global counts, so every rank asks the policy the same
//! question and gets the same direction:
//!
//! - **push**: every rank walks its frontier vertices' out-arcs `u -> v` and sends the
//!   pairs `(v, u)` to `owner(v)` (one alltoallv); the owner keeps, for each unvisited
//!   `v`, the smallest `u` it received;
//! - **pull**: the frontier is gathered on every rank, as a list when it is small
//!   (`|F| < n / 32`: 4 bytes a vertex against `n / 8` bytes of bitmap) or else as each
//!   rank's piece of the bitmap (allgatherv); every rank scans its unvisited vertices'
//!   in-arcs in ascending order and stops at the first frontier vertex, the smallest;
//! - the new frontier's vertex and arc counts, and the arcs examined, are summed over
//!   the ranks (one allreduce) for the policy.
//!
//! Either way the parent of `v` is the smallest-index frontier vertex with an arc to
//! `v`, as on one process, so the parents and levels are identical for every `P`.
//!
//! Inside a rank the level's work runs on the rank's rayon threads (`--threads`): a push
//! walks chunks of the frontier in parallel and takes the offers with an atomic minimum
//! per vertex, and a pull is the CPU's pull kernel over the owned rows of `A'` (chunks of
//! vertices in parallel, the next rows' first arcs prefetched, the new frontier left as a
//! bitmap with its out-arcs counted), so that one rank does a level's work as one process
//! does. MPI is called from the calling thread only (MPI initialized `Funneled`).

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use super::net::{Net, Traffic};
use super::partition::{Partition, RowBlocks};
use crate::algebra::Index;
use crate::algo::bfs::{BfsGraph, BfsOptions, BfsResult, Direction, Policy, drive};
use crate::backend::cpu::{SEQUENTIAL_WORK, bfs_level};
use crate::error::{Error, Result};
use crate::matrix::Csr;
use crate::ops::{BfsLevels, StepCounts};

const UNREACHED: u32 = u32::MAX;

/// One rank's share of a graph: its rows of `A` (out-arcs) and, for pull, of `A'`
/// (in-arcs; the rows of `A` again for a symmetric graph), with the partition and the
/// global sizes.
#[derive(Clone, Debug)]
pub struct LocalGraph {
    part: RowBlocks,
    arcs: u64,
    symmetric: bool,
    /// Whether `in_offsets`/`in_indices` hold `A'`'s rows (else a pull reads `A`'s,
    /// which is right when `symmetric`, and pull is never asked for otherwise).
    has_in: bool,
    out_offsets: Vec<u64>,
    out_indices: Vec<Index>,
    in_offsets: Vec<u64>,
    in_indices: Vec<Index>,
    /// Bit `lv` set when owned vertex `lv` has an in-arc (a pull can reach it), made by
    /// the first search and kept for the next.
    pulled: std::sync::OnceLock<Vec<u64>>,
}

impl LocalGraph {
    /// The partition.
    pub fn partition(&self) -> &RowBlocks {
        &self.part
    }

    /// Vertices of the whole graph.
    pub fn vertices(&self) -> usize {
        self.part.vertices()
    }

    /// Arcs of the whole graph.
    pub fn arcs(&self) -> u64 {
        self.arcs
    }

    /// Whether `A' = A`.
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// Arcs held here (out-arcs of the owned rows).
    pub fn local_arcs(&self) -> usize {
        self.out_indices.len()
    }

    /// The out-degrees of the owned vertices.
    pub fn out_degrees(&self) -> Vec<u64> {
        self.out_offsets.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// The owned rows of `A` as a matrix of the block's rows and all `n` columns (of
    /// `A ∪ A'` for a graph made `undirected` by [`LocalGraph::from_rows`]).
    pub fn out_rows(&self) -> Csr<()> {
        let (o, i) = (&self.out_offsets, &self.out_indices);
        // SAFETY: as in_rows.
        unsafe {
            Csr::new_unchecked(
                o.len() - 1,
                self.vertices(),
                o.clone(),
                i.clone(),
                vec![(); i.len()],
            )
        }
    }

    /// The owned rows of `A'` (the in-arcs; `A`'s rows when `A' = A`) as a matrix of
    /// the block's rows and all `n` columns: the `A` of [`super::algebra::mxv`] for a
    /// pull over the in-arcs.
    ///
    /// # Panics
    /// When the graph is not symmetric and its rows of `A'` were not kept
    /// ([`LocalGraph::from_rows`] without `may_pull`).
    pub fn in_rows(&self) -> Csr<()> {
        let (o, i) = if self.has_in {
            (&self.in_offsets, &self.in_indices)
        } else {
            assert!(self.symmetric, "the rows of A' were not kept");
            (&self.out_offsets, &self.out_indices)
        };
        let rows = o.len() - 1;
        // SAFETY: the rows come from a checked file or CSR (ascending, unrepeated, below
        // n) or from transpose_rows (the same of the transpose), and o has rows + 1
        // rising offsets ending at i.len().
        unsafe {
            Csr::new_unchecked(
                rows,
                self.vertices(),
                o.clone(),
                i.clone(),
                vec![(); i.len()],
            )
        }
    }

    pub(crate) fn out_row(&self, lv: usize) -> &[Index] {
        &self.out_indices[self.out_offsets[lv] as usize..self.out_offsets[lv + 1] as usize]
    }

    /// Bit `lv` set when owned vertex `lv` has an in-arc.
    fn pull_reachable(&self) -> &[u64] {
        self.pulled.get_or_init(|| {
            let rows = self.out_offsets.len() - 1;
            let mut bits = vec![0u64; rows.div_ceil(64)];
            bits.par_iter_mut().enumerate().for_each(|(k, w)| {
                for lv in 64 * k..rows.min(64 * k + 64) {
                    *w |= (!self.in_row(lv).is_empty() as u64) << (lv & 63);
                }
            });
            bits
        })
    }

    fn in_row(&self, lv: usize) -> &[Index] {
        if !self.has_in {
            return self.out_row(lv);
        }
        &self.in_indices[self.in_offsets[lv] as usize..self.in_offsets[lv + 1] as usize]
    }
}

/// Cuts rows `range` of `a` into per-rank pieces: the degrees of rank `r`'s rows, and
/// their entries.
fn rows_for_ranks<T: crate::algebra::Scalar>(
    a: &Csr<T>,
    part: &RowBlocks,
) -> (Vec<Vec<u64>>, Vec<Vec<Index>>) {
    let o = a.offsets();
    let mut degrees = Vec::with_capacity(part.ranks());
    let mut entries = Vec::with_capacity(part.ranks());
    for r in 0..part.ranks() {
        let range = part.range(r);
        degrees.push(range.clone().map(|v| o[v + 1] - o[v]).collect());
        entries.push(a.indices()[o[range.start] as usize..o[range.end] as usize].to_vec());
    }
    (degrees, entries)
}

fn receive_rows(net: &Net, degrees: &[Vec<u64>], entries: &[Vec<Index>]) -> (Vec<u64>, Vec<Index>) {
    let deg = net.alltoallv(degrees);
    let idx = net.alltoallv(entries);
    let mut offsets = Vec::with_capacity(deg.len() + 1);
    offsets.push(0u64);
    for d in deg {
        offsets.push(offsets.last().expect("non-empty") + d);
    }
    (offsets, idx)
}

/// Hands every rank its rows. Rank 0 passes the graph (read from the file by rank 0
/// alone, so a file only rank 0 can read is fine) and whether a level may pull; the
/// others pass `None`. Rank 0 cuts the rows into blocks of about equal arcs, broadcasts
/// the sizes and the cuts, and sends every rank its rows of `A` and, when a level may
/// pull on a graph that is not symmetric, of `A'` (built here, on rank 0).
///
/// Collective. Rank 0 must have checked that `P <= n` (every rank then owns at least
/// one vertex) and agreed on it with the others ([`Net::agree`]) first.
pub fn scatter_graph(net: &Net, graph: Option<(&BfsGraph<'_, ()>, bool)>) -> LocalGraph {
    let p = net.size();
    let header = match graph {
        Some((g, may_pull)) => {
            let a = g.adjacency();
            let part = RowBlocks::by_arcs(a.offsets(), p);
            let mut h = vec![
                a.nrows() as u64,
                a.nnz() as u64,
                g.is_symmetric() as u64,
                (may_pull && !g.is_symmetric()) as u64,
            ];
            h.extend_from_slice(part.starts());
            h
        }
        None => Vec::new(),
    };
    let h = net.broadcast_u64s(&header);
    let (arcs, symmetric, send_in) = (h[1], h[2] != 0, h[3] != 0);
    let part = RowBlocks::from_starts(h[4..].to_vec());
    let empty = || (vec![Vec::new(); p], vec![Vec::new(); p]);
    let (deg, ent) = match graph {
        Some((g, _)) => rows_for_ranks(g.adjacency(), &part),
        None => empty(),
    };
    let (out_offsets, out_indices) = receive_rows(net, &deg, &ent);
    drop((deg, ent));
    let (in_offsets, in_indices) = if send_in {
        let (deg, ent) = match graph {
            Some((g, _)) => rows_for_ranks(g.in_edges(), &part),
            None => empty(),
        };
        receive_rows(net, &deg, &ent)
    } else {
        (Vec::new(), Vec::new())
    };
    LocalGraph {
        part,
        arcs,
        symmetric,
        has_in: send_in,
        out_offsets,
        out_indices,
        in_offsets,
        in_indices,
        pulled: Default::default(),
    }
}

/// This rank's rows of `A'` from its rows of `A` (`offsets` from 0, one per owned row
/// plus one), with each arc's value when `values` is given: one exchange (an alltoallv of
/// the arcs, and one of the values), then a counting sort by target. The pairs arrive by
/// rank, each rank's by source, so every row's sources ascend. Collective.
pub(crate) fn transpose_rows<T: mpi::datatype::Equivalence + Copy + Default>(
    net: &Net,
    part: &RowBlocks,
    offsets: &[u64],
    indices: &[Index],
    values: Option<&[T]>,
) -> (Vec<u64>, Vec<Index>, Option<Vec<T>>) {
    let me = part.range(net.rank());
    let mut out: Vec<Vec<Index>> = vec![Vec::new(); part.ranks()];
    let mut out_v: Vec<Vec<T>> = vec![Vec::new(); part.ranks()];
    for lu in 0..me.len() {
        let u = (me.start + lu) as Index;
        for a in offsets[lu] as usize..offsets[lu + 1] as usize {
            let v = indices[a];
            let r = part.owner(v);
            out[r].push(v);
            out[r].push(u);
            if let Some(x) = values {
                out_v[r].push(x[a]);
            }
        }
    }
    let got = net.alltoallv(&out);
    drop(out);
    let got_v = values.map(|_| net.alltoallv(&out_v));
    drop(out_v);
    let mut in_offsets = vec![0u64; me.len() + 1];
    for pair in got.chunks_exact(2) {
        in_offsets[pair[0] as usize - me.start + 1] += 1;
    }
    for i in 0..me.len() {
        in_offsets[i + 1] += in_offsets[i];
    }
    let mut fill: Vec<u64> = in_offsets[..me.len()].to_vec();
    let mut in_indices = vec![0 as Index; got.len() / 2];
    let mut in_values = got_v.as_ref().map(|g| vec![T::default(); g.len()]);
    for (k, pair) in got.chunks_exact(2).enumerate() {
        let lv = pair[0] as usize - me.start;
        let at = fill[lv] as usize;
        in_indices[at] = pair[1];
        if let (Some(iv), Some(gv)) = (in_values.as_mut(), got_v.as_ref()) {
            iv[at] = gv[k];
        }
        fill[lv] += 1;
    }
    (in_offsets, in_indices, in_values)
}

/// The sorted union of two ascending rows.
fn union_into(a: &[Index], b: &[Index], out: &mut Vec<Index>) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += (x <= y) as usize;
        j += (y <= x) as usize;
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

impl LocalGraph {
    /// The distributed graph from the rows of `A` every rank already holds (read from a
    /// binary file in row blocks: [`super::read::read_row_blocks`]), with no rank ever
    /// holding more than its rows. Collective: every rank passes the same `part`,
    /// `directed`, `undirected` and `may_pull`, and its own rows (`offsets` from 0, one
    /// per owned row plus one).
    ///
    /// A `directed` graph's rows of `A'` are built by one exchange (an alltoallv of its
    /// arcs) and compared with `A`'s (one allreduce) to learn whether `A' = A`, as
    /// [`BfsGraph::detect`] does on one process; they are kept when a level `may_pull`
    /// and `A' != A`. `undirected` makes the rows `A ∪ A'` (as
    /// [`crate::io::Graph::into_undirected`] does), symmetric.
    ///
    /// # Panics
    /// When `part` is not cut for this run's ranks or `offsets` does not fit the owned
    /// rows (a caller's mistake).
    pub fn from_rows(
        net: &Net,
        part: RowBlocks,
        directed: bool,
        undirected: bool,
        may_pull: bool,
        offsets: Vec<u64>,
        indices: Vec<Index>,
    ) -> LocalGraph {
        assert_eq!(part.ranks(), net.size(), "part.ranks() != ranks");
        let me = part.range(net.rank());
        assert_eq!(
            offsets.len(),
            me.len() + 1,
            "offsets.len() != owned rows + 1"
        );
        let (mut out_offsets, mut out_indices) = (offsets, indices);
        let (mut in_offsets, mut in_indices) = (Vec::new(), Vec::new());
        let mut symmetric = true;
        if directed {
            let (io, ii, _) = transpose_rows::<u8>(net, &part, &out_offsets, &out_indices, None);
            let same = io == out_offsets && ii == out_indices;
            symmetric = net.allreduce_max(!same as u64) == 0;
            if !symmetric && undirected {
                let mut offsets = Vec::with_capacity(me.len() + 1);
                let mut indices = Vec::with_capacity(out_indices.len() + ii.len());
                offsets.push(0u64);
                for lv in 0..me.len() {
                    let a = &out_indices[out_offsets[lv] as usize..out_offsets[lv + 1] as usize];
                    let b = &ii[io[lv] as usize..io[lv + 1] as usize];
                    union_into(a, b, &mut indices);
                    offsets.push(indices.len() as u64);
                }
                out_offsets = offsets;
                out_indices = indices;
                symmetric = true;
            } else if !symmetric && may_pull {
                in_offsets = io;
                in_indices = ii;
            }
        }
        let arcs = net.allreduce_sum(&[out_indices.len() as u64])[0];
        LocalGraph {
            part,
            arcs,
            symmetric,
            has_in: !in_offsets.is_empty(),
            out_offsets,
            out_indices,
            in_offsets,
            in_indices,
            pulled: Default::default(),
        }
    }
}

/// What a distributed search leaves.
#[derive(Clone, Debug)]
pub struct DistBfs {
    /// On rank 0: parents, levels and the summary, as [`crate::algo::bfs::bfs`] returns
    /// them (identical to it); `None` on the other ranks.
    pub result: Option<BfsResult>,
    /// Per level, the traffic of all ranks together.
    pub level_traffic: Vec<Traffic>,
    /// The whole search's traffic, all ranks together (levels, counts and the final
    /// gather of parents and levels at rank 0).
    pub traffic: Traffic,
    /// Arcs whose tail was reached (out-degrees of the reached vertices summed over the
    /// ranks): Graph500's traversed edges, before halving for a symmetric graph.
    pub reached_arcs: u64,
}

/// One rank's search state.
struct DistLevels<'a> {
    net: &'a Net,
    g: &'a LocalGraph,
    lo: usize,
    /// Parents of the owned vertices (`UNREACHED` until reached): atomic so that the
    /// threads of a push level can take the smallest offer.
    parents: Vec<AtomicU32>,
    levels: Vec<u32>,
    /// Bit `lv` set while owned vertex `lv` is unreached and has an in-arc (a vertex
    /// without one cannot be reached by a pull): a pull level scans its words, skipping
    /// 64 settled vertices at a time, as the CPU's does.
    unvisited: Vec<u64>,
    /// Owned frontier vertices (global ids), ascending; built from `frontier_bits` when
    /// a push or a small pull asks for it after a pull.
    frontier: Option<Vec<Index>>,
    /// The owned frontier as a bitmap of the owned rows (bit 0 = the first), as a pull
    /// leaves it; `None` after a push.
    frontier_bits: Option<Vec<u64>>,
    depth: u32,
    nf: u64,
    mf: u64,
    visited: u64,
    traffic: Vec<Traffic>,
}

/// A level's new frontier: as a list (push) or as a bitmap of the owned rows (pull).
type Frontier = (Option<Vec<Index>>, Option<Vec<u64>>);

/// Frontier vertices a rayon task walks in a push level.
const PUSH_CHUNK: usize = 1024;
/// `(v, u)` offers a task takes in a push level.
const OFFER_CHUNK: usize = 8192;

impl DistLevels<'_> {
    fn push(&mut self) -> (Frontier, usize, u64, u64) {
        let g = self.g;
        let p = self.net.size();
        let me = self.net.rank();
        let lo = self.lo;
        let range = g.part.range(me);
        self.frontier_list();
        // The frontier is replaced by this level's at its end.
        let frontier = self.frontier.take().expect("made above");
        // Each task's frontier arcs u -> v as (v, u) pairs by owner of v, this rank's too.
        let walked: Vec<(Vec<Vec<Index>>, u64)> = frontier
            .par_chunks(PUSH_CHUNK)
            .map(|fr| {
                let mut out: Vec<Vec<Index>> = vec![Vec::new(); p];
                let mut examined = 0u64;
                for &u in fr {
                    let row = g.out_row(u as usize - lo);
                    examined += row.len() as u64;
                    for &v in row {
                        let r = if range.contains(&(v as usize)) {
                            me
                        } else {
                            g.part.owner(v)
                        };
                        out[r].push(v);
                        out[r].push(u);
                    }
                }
                (out, examined)
            })
            .collect();
        let examined = walked.iter().map(|w| w.1).sum();
        let mut out: Vec<Vec<Index>> = (0..p)
            .map(|r| {
                let mut all = Vec::with_capacity(walked.iter().map(|w| w.0[r].len()).sum());
                for w in &walked {
                    all.extend_from_slice(&w.0[r]);
                }
                all
            })
            .collect();
        drop(walked);
        // Owned heads need no message.
        let local = std::mem::take(&mut out[me]);
        let got = self.net.alltoallv(&out);
        drop(out);
        let next = settle(
            &mut self.levels,
            &self.parents,
            &mut self.unvisited,
            lo,
            self.depth + 1,
            [&local[..], &got[..]],
        );
        let mf = next
            .par_iter()
            .map(|&v| self.g.out_row(v as usize - lo).len() as u64)
            .sum();
        let found = next.len();
        ((Some(next), None), found, examined, mf)
    }

    /// The owned frontier as a list, made from the bitmap a pull left if need be.
    fn frontier_list(&mut self) -> &[Index] {
        if self.frontier.is_none() {
            let bits = self.frontier_bits.as_ref().expect("a frontier in one form");
            let mut list = Vec::new();
            bfs_level::bits_to_queue(bits, &mut list, bits.len() < SEQUENTIAL_WORK / 64);
            let lo = self.lo as Index;
            list.par_iter_mut().for_each(|v| *v += lo);
            self.frontier = Some(list);
        }
        self.frontier.as_deref().expect("made above")
    }

    /// The global frontier as a bitmap of `n` bits.
    fn frontier_bitmap(&mut self) -> Vec<u64> {
        let g = self.g;
        let n = g.vertices();
        let mut bits = vec![0u64; n.div_ceil(64)];
        if self.nf * 32 < n as u64 {
            for v in self.net.allgatherv(self.frontier_list()) {
                bits[v as usize >> 6] |= 1 << (v & 63);
            }
            return bits;
        }
        // Every rank's piece of the bitmap, bit 0 being its first vertex.
        let mine = match self.frontier_bits.take() {
            Some(b) => b,
            None => {
                let len = g.part.range(self.net.rank()).len();
                let mut mine = vec![0u64; len.div_ceil(64)];
                for &v in self.frontier.as_deref().expect("a frontier in one form") {
                    let lv = v as usize - self.lo;
                    mine[lv >> 6] |= 1 << (lv & 63);
                }
                mine
            }
        };
        let all = self.net.allgatherv(&mine);
        let mut at = 0usize;
        for r in 0..g.part.ranks() {
            let range = g.part.range(r);
            let words = range.len().div_ceil(64);
            or_shifted(&mut bits, &all[at..at + words], range.start);
            at += words;
        }
        bits
    }

    /// A pull level: the CPU's pull kernel ([`bfs_level::pull_level`]) over this rank's
    /// rows of `A'` against the gathered frontier, which also counts the new frontier's
    /// out-arcs.
    fn pull(&mut self) -> (Frontier, usize, u64, u64) {
        let bits = self.frontier_bitmap();
        let g = self.g;
        let rows = self.levels.len();
        let (at_offsets, at_indices) = match g.has_in {
            true => (&g.in_offsets[..], &g.in_indices[..]),
            false => (&g.out_offsets[..], &g.out_indices[..]),
        };
        // The kernel's visited set is the complement of `unvisited` (reached, or without
        // an in-arc); its tail bits past the rows are ignored.
        let mut visited: Vec<u64> = self.unvisited.iter().map(|w| !w).collect();
        let mut next_bits = vec![0u64; visited.len()];
        let sequential = rows < SEQUENTIAL_WORK && at_indices.len() < SEQUENTIAL_WORK;
        let c = bfs_level::pull_level(
            at_offsets,
            at_indices,
            &g.out_offsets,
            &bits,
            &mut visited,
            &mut next_bits,
            bfs_level::plain_u32(&mut self.parents),
            &mut self.levels,
            self.depth + 1,
            sequential,
        );
        for (u, v) in self.unvisited.iter_mut().zip(&visited) {
            *u &= !v;
        }
        ((None, Some(next_bits)), c.vertices, c.examined, c.out_edges)
    }
}

impl BfsLevels for DistLevels<'_> {
    fn depth(&self) -> u32 {
        self.depth
    }
    fn frontier_vertices(&self) -> usize {
        self.nf as usize
    }
    fn frontier_edges(&self) -> u64 {
        self.mf
    }
    fn visited_vertices(&self) -> usize {
        self.visited as usize
    }
    fn is_reached(&mut self, v: usize) -> Result<bool> {
        let range = self.g.part.range(self.net.rank());
        let mine = range.contains(&v) && self.levels[v - self.lo] != UNREACHED;
        Ok(self.net.allreduce_max(mine as u64) == 1)
    }
    fn step(&mut self, dir: Direction) -> Result<StepCounts> {
        let before = self.net.sent();
        let (next, found, examined, mf) = match dir {
            Direction::Push => self.push(),
            Direction::Pull => self.pull(),
        };
        let c = self.net.allreduce_sum(&[found as u64, mf, examined]);
        (self.frontier, self.frontier_bits) = next;
        self.depth += 1;
        self.nf = c[0];
        self.mf = c[1];
        self.visited += c[0];
        self.traffic.push(self.net.sent() - before);
        Ok(StepCounts {
            vertices: c[0] as usize,
            out_edges: c[1],
            examined: c[2],
        })
    }
    type Output = SearchEnd;
    fn finish(self) -> Result<Self::Output> {
        let g = self.g;
        let reached: u64 = self
            .levels
            .par_iter()
            .enumerate()
            .filter(|&(_, &l)| l != UNREACHED)
            .map(|(lv, _)| g.out_row(lv).len() as u64)
            .sum();
        Ok(gather_search(
            self.net,
            self.parents,
            self.levels,
            &self.traffic,
            reached,
        ))
    }
}

/// Offers parent `u` to every owned, unvisited `v` of the `(v, u)` pairs of each batch,
/// in parallel: the smallest offer wins (an atomic minimum, so the order of the offers
/// does not matter). The vertices offered a first parent are marked reached at `level`
/// (`levels`, and their `unvisited` bits cleared) and returned ascending: the owner's
/// half of a push (or fold) level, whatever the layout.
pub(crate) fn settle<const B: usize>(
    levels: &mut [u32],
    parents: &[AtomicU32],
    unvisited: &mut [u64],
    lo: usize,
    level: u32,
    batches: [&[Index]; B],
) -> Vec<Index> {
    let seen: &[u32] = levels;
    let mut next: Vec<Index> = Vec::new();
    for pairs in batches {
        let found: Vec<Vec<Index>> = pairs
            .par_chunks(2 * OFFER_CHUNK)
            .map(|c| {
                let mut first = Vec::new();
                for pair in c.chunks_exact(2) {
                    let lv = pair[0] as usize - lo;
                    if seen[lv] == UNREACHED
                        && parents[lv].fetch_min(pair[1], Ordering::Relaxed) == UNREACHED
                    {
                        first.push(pair[0]);
                    }
                }
                first
            })
            .collect();
        next.extend(found.into_iter().flatten());
    }
    for &v in &next {
        let lv = v as usize - lo;
        levels[lv] = level;
        unvisited[lv >> 6] &= !(1 << (lv & 63));
    }
    next.sort_unstable();
    next
}

/// ORs `piece` (bit 0 = element 0) into `bits` from bit `at` on: a rank's piece of a
/// bitmap placed where its first vertex falls.
pub(crate) fn or_shifted(bits: &mut [u64], piece: &[u64], at: usize) {
    let (base, shift) = (at >> 6, at & 63);
    for (k, &w) in piece.iter().enumerate() {
        if w == 0 {
            continue;
        }
        bits[base + k] |= w << shift;
        if shift > 0 && base + k + 1 < bits.len() {
            bits[base + k + 1] |= w >> (64 - shift);
        }
    }
}

/// What a distributed search ends with: rank 0's parents and levels (`None` elsewhere),
/// the traffic of each level and the reached arcs, summed over the ranks.
pub(crate) type SearchEnd = (Option<(Vec<u32>, Vec<u32>)>, Vec<Traffic>, u64);

/// The end of a distributed search, whatever the layout: the owned parents (the atomic
/// slots the levels offered into) and levels gathered at rank 0 (in rank order, so in
/// vertex order), the traffic of each level and the reached arcs summed over the ranks.
/// Collective.
pub(crate) fn gather_search(
    net: &Net,
    parents: Vec<AtomicU32>,
    levels: Vec<u32>,
    traffic: &[Traffic],
    reached: u64,
) -> SearchEnd {
    let reached = net.allreduce_sum(&[reached])[0];
    // In place (the same layout): no second vector.
    let parents: Vec<u32> = parents.into_iter().map(AtomicU32::into_inner).collect();
    let parents = net.gatherv_root_owned(parents);
    let levels = net.gatherv_root_owned(levels);
    let flat: Vec<u64> = traffic.iter().flat_map(|t| [t.bytes, t.messages]).collect();
    let sum = net.allreduce_sum(&flat);
    let per_level = sum
        .chunks_exact(2)
        .map(|c| Traffic {
            bytes: c[0],
            messages: c[1],
        })
        .collect();
    (parents.zip(levels), per_level, reached)
}

/// Runs the levels of `state` under `policy` (the CPU's loop) and puts the result
/// together: rank 0's [`BfsResult`], the traffic since `start` summed over the ranks.
/// Collective.
pub(crate) fn run_search<L>(
    net: &Net,
    state: L,
    n: usize,
    arcs: u64,
    start: Traffic,
    policy: &dyn Policy,
    opts: &BfsOptions,
) -> Result<DistBfs>
where
    L: BfsLevels<Output = SearchEnd>,
{
    let ((out, level_traffic, reached_arcs), summary) = drive(state, n, arcs, policy, opts)?;
    let mine = net.sent() - start;
    let total = net.allreduce_sum(&[mine.bytes, mine.messages]);
    Ok(DistBfs {
        result: out.map(|(p, l)| summary.with(p, l)),
        level_traffic,
        traffic: Traffic {
            bytes: total[0],
            messages: total[1],
        },
        reached_arcs,
    })
}

/// Breadth-first search from `sources` over the distributed graph `g`, each level's
/// direction chosen by `policy` on global counts. Collective: every rank passes the
/// same sources, policy and options.
///
/// # Returns
/// On rank 0 the same [`BfsResult`] as [`crate::algo::bfs::bfs`] on the whole graph
/// (parents, levels, reached, depth, trace; the trace's seconds are rank 0's); the
/// traffic per level and in all on every rank.
///
/// # Errors
/// [`Error::InvalidArgument`] for no source, or a source or target outside the graph (the
/// same on every rank, decided before any communication).
pub fn bfs(
    net: &Net,
    g: &LocalGraph,
    sources: &[Index],
    policy: &dyn Policy,
    opts: &BfsOptions,
) -> Result<DistBfs> {
    // The checks of the CPU search.
    let n = g.vertices();
    crate::algo::bfs::check_source_ids(n, sources, opts)?;
    if g.part.ranks() != net.size() {
        return Err(Error::InvalidArgument(format!(
            "the graph is cut for {} ranks, the run has {}",
            g.part.ranks(),
            net.size()
        )));
    }
    let start = net.sent();
    let range = g.part.range(net.rank());
    let lo = range.start;
    let parents: Vec<AtomicU32> = (0..range.len())
        .into_par_iter()
        .map(|_| AtomicU32::new(UNREACHED))
        .collect();
    let mut levels = vec![UNREACHED; range.len()];
    let mut frontier: Vec<Index> = sources
        .iter()
        .copied()
        .filter(|&s| range.contains(&(s as usize)))
        .collect();
    frontier.sort_unstable();
    frontier.dedup();
    let mut unvisited = g.pull_reachable().to_vec();
    for &s in &frontier {
        let ls = s as usize - lo;
        parents[ls].store(s, Ordering::Relaxed);
        levels[ls] = 0;
        unvisited[ls >> 6] &= !(1 << (ls & 63));
    }
    let mf: u64 = frontier
        .iter()
        .map(|&v| g.out_row(v as usize - lo).len() as u64)
        .sum();
    let c = net.allreduce_sum(&[frontier.len() as u64, mf]);
    let state = DistLevels {
        net,
        g,
        lo,
        parents,
        levels,
        unvisited,
        frontier: Some(frontier),
        frontier_bits: None,
        depth: 0,
        nf: c[0],
        mf: c[1],
        visited: c[0],
        traffic: Vec::new(),
    };
    run_search(net, state, n, g.arcs, start, policy, opts)
}
