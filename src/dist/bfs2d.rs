//! Distributed direction-optimizing BFS over a 2-D layout (Buluç and Madduri, SC 2011;
//! CombBLAS): the ranks on a `rows x cols` [`Grid`], rank `r` at row `r / cols` and
//! column `r % cols`.
//!
//! The vertex state is cut as in 1-D ([`RowBlocks`]: rank `r` owns piece `r`, its
//! parents and levels), and the arcs are cut both ways: rank `(i, j)` holds the arcs
//! `u -> v` whose tail `u` lies in `S_j`, the pieces of the ranks of grid column `j`,
//! and whose head `v` lies in `T_i`, the pieces of the ranks of grid row `i` (a
//! contiguous range of vertices). It keeps that block by tail, for a push, and by head
//! (its transpose, built locally), for a pull. Every exchange then has `rows - 1` or
//! `cols - 1` partners, about `sqrt(P)`, where the 1-D layout's have `P - 1`:
//!
//! - **push**: the frontier of `S_j` is gathered down grid column `j` (the *expand*, an
//!   allgatherv); each rank walks its block's arcs from it and keeps, for every head,
//!   the smallest tail (a local reduction, so at most one pair per head leaves); the
//!   `(head, tail)` pairs go to the heads' owners along grid row `i` (the *fold*, an
//!   alltoallv), which keep the smallest offer for each unvisited head;
//! - **pull**: the frontier of `S_j` is gathered down the column (as a list when small,
//!   as bitmap pieces otherwise, the 1-D rule) and the unvisited bits of `T_i` along the
//!   row; each rank scans its unvisited heads' in-arcs from `S_j` in ascending order,
//!   stops at the first frontier tail, and folds that candidate to the owner, which keeps
//!   the smallest.
//!
//! Either way the parent of `v` is the smallest frontier vertex with an arc to `v`, so
//! parents and levels are those of one process (and of the 1-D layout) for every grid.
//! The policy sees the same global counts as in 1-D (frontier vertices and arcs,
//! unvisited arcs) and takes the same directions; only the arcs a pull examines differ,
//! since each block scans until its own first frontier tail.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use super::bfs::{DistBfs, LocalGraph, SearchEnd, gather_search, or_shifted, run_search, settle};
use super::net::{Net, Traffic};
use super::partition::{Partition, RowBlocks};
use crate::algebra::Index;
use crate::algo::bfs::{BfsOptions, Direction, Policy};
use crate::error::{Error, Result};
use crate::ops::{BfsLevels, StepCounts};

const UNREACHED: u32 = u32::MAX;

/// A grid of `rows x cols` ranks: rank `r` sits at row `r / cols`, column `r % cols`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Grid rows (`pr`).
    pub rows: usize,
    /// Grid columns (`pc`).
    pub cols: usize,
}

impl Grid {
    /// The squarest grid of `p` ranks: `rows` is the largest divisor of `p` not above
    /// `sqrt(p)` (1 x p for a prime `p`).
    ///
    /// # Panics
    /// `p == 0`.
    pub fn squarest(p: usize) -> Grid {
        assert!(p > 0, "at least one rank");
        let rows = (1..=p)
            .take_while(|r| r * r <= p)
            .filter(|r| p.is_multiple_of(*r))
            .max();
        let rows = rows.unwrap_or(1);
        Grid {
            rows,
            cols: p / rows,
        }
    }

    /// A grid written `RxC` (`2x3`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for anything else, or a zero side.
    pub fn parse(s: &str) -> Result<Grid> {
        let bad = || Error::InvalidArgument(format!("grid {s:?}: expected ROWSxCOLS, as 2x2"));
        let (r, c) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let rows: usize = r.trim().parse().map_err(|_| bad())?;
        let cols: usize = c.trim().parse().map_err(|_| bad())?;
        if rows == 0 || cols == 0 {
            return Err(bad());
        }
        Ok(Grid { rows, cols })
    }

    /// The number of ranks, `rows x cols`.
    pub fn ranks(&self) -> usize {
        self.rows * self.cols
    }
}

impl std::fmt::Display for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// The communicators of this rank's grid row and grid column.
#[derive(Debug)]
pub struct GridNets {
    /// The ranks of this rank's grid row, ranked by column.
    pub row: Net,
    /// The ranks of this rank's grid column, ranked by row.
    pub col: Net,
}

/// One rank's share of a graph in the 2-D layout.
#[derive(Clone, Debug)]
pub struct Local2d {
    part: RowBlocks,
    grid: Grid,
    arcs: u64,
    /// This rank's grid row and column.
    i: usize,
    j: usize,
    /// Where the piece of rank `(k, j)` starts among the tails `S_j` (local numbering,
    /// `rows + 1` values).
    src_base: Vec<usize>,
    /// The heads `T_i`: global vertices `t_lo..t_hi`.
    t_lo: usize,
    t_hi: usize,
    /// The block by tail: rows `S_j` (local), entries global heads in `T_i`, ascending.
    out_offsets: Vec<u64>,
    out_indices: Vec<Index>,
    /// The block by head: rows `T_i` (from `t_lo`), entries local tails, ascending.
    in_offsets: Vec<u64>,
    in_indices: Vec<Index>,
    /// Out-degrees (in the whole graph) of the owned vertices.
    out_degree: Vec<u64>,
}

impl Local2d {
    /// Redistributes a 1-D graph (every rank its rows of `A`) into the blocks of `grid`,
    /// by one alltoallv of the arcs, and makes the grid's row and column communicators.
    /// Collective: every rank passes the same grid.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the grid does not have the run's ranks (the same
    /// on every rank, before any communication).
    pub fn from_local(net: &Net, g: &LocalGraph, grid: Grid) -> Result<(Local2d, GridNets)> {
        if grid.ranks() != net.size() {
            return Err(Error::InvalidArgument(format!(
                "grid {grid} has {} ranks, the run has {}",
                grid.ranks(),
                net.size()
            )));
        }
        let part = g.partition().clone();
        let me = net.rank();
        let (i, j) = (me / grid.cols, me % grid.cols);
        let nets = GridNets {
            row: net.split(i as u32, j as u32),
            col: net.split(j as u32, i as u32),
        };
        // Arcs u -> v to rank (row of v's owner, my column), as (u, v) pairs: each
        // receiver gets them by sender (ascending tails), each sender's by tail then head.
        let range = part.range(me);
        let mut out: Vec<Vec<Index>> = vec![Vec::new(); net.size()];
        for lu in 0..range.len() {
            let u = (range.start + lu) as Index;
            for &v in g.out_row(lu) {
                let dest = part.owner(v) / grid.cols * grid.cols + j;
                out[dest].push(u);
                out[dest].push(v);
            }
        }
        let got = net.alltoallv(&out);
        drop(out);
        let mut src_base = Vec::with_capacity(grid.rows + 1);
        src_base.push(0usize);
        for k in 0..grid.rows {
            let len = part.range(k * grid.cols + j).len();
            src_base.push(src_base[k] + len);
        }
        let t_lo = part.range(i * grid.cols).start;
        let t_hi = part.range(i * grid.cols + grid.cols - 1).end;
        let mut l = Local2d {
            part,
            grid,
            arcs: g.arcs(),
            i,
            j,
            src_base,
            t_lo,
            t_hi,
            out_offsets: Vec::new(),
            out_indices: Vec::new(),
            in_offsets: Vec::new(),
            in_indices: Vec::new(),
            out_degree: g.out_degrees(),
        };
        let s_len = *l.src_base.last().expect("rows + 1 values");
        let t_len = t_hi - t_lo;
        let mut out_offsets = vec![0u64; s_len + 1];
        let mut in_offsets = vec![0u64; t_len + 1];
        let pairs: Vec<(u32, u32)> = got
            .chunks_exact(2)
            .map(|p| (l.src_local(p[0]) as u32, p[1]))
            .collect();
        drop(got);
        for &(lu, v) in &pairs {
            out_offsets[lu as usize + 1] += 1;
            in_offsets[v as usize - t_lo + 1] += 1;
        }
        for k in 0..s_len {
            out_offsets[k + 1] += out_offsets[k];
        }
        for k in 0..t_len {
            in_offsets[k + 1] += in_offsets[k];
        }
        // The pairs come sorted by tail, then head: the block by tail is them in order,
        // and a counting sort by head keeps each head's tails ascending.
        let out_indices: Vec<Index> = pairs.iter().map(|p| p.1).collect();
        let mut fill: Vec<u64> = in_offsets[..t_len].to_vec();
        let mut in_indices = vec![0 as Index; pairs.len()];
        for &(lu, v) in &pairs {
            let f = &mut fill[v as usize - t_lo];
            in_indices[*f as usize] = lu;
            *f += 1;
        }
        l.out_offsets = out_offsets;
        l.out_indices = out_indices;
        l.in_offsets = in_offsets;
        l.in_indices = in_indices;
        Ok((l, nets))
    }

    /// The grid.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Vertices of the whole graph.
    pub fn vertices(&self) -> usize {
        self.part.vertices()
    }

    /// Arcs of the whole graph.
    pub fn arcs(&self) -> u64 {
        self.arcs
    }

    /// Arcs held here (this rank's block).
    pub fn local_arcs(&self) -> usize {
        self.out_indices.len()
    }

    /// The local index among the tails `S_j` of a vertex `u` in `S_j`.
    fn src_local(&self, u: Index) -> usize {
        let r = self.part.owner(u);
        debug_assert_eq!(
            r % self.grid.cols,
            self.j,
            "{u} is not a tail of this column"
        );
        self.src_base[r / self.grid.cols] + (u as usize - self.part.range(r).start)
    }

    /// The global vertex of local tail `lu`.
    fn src_global(&self, lu: usize) -> Index {
        let k = self.src_base.partition_point(|&b| b <= lu) - 1;
        let r = k * self.grid.cols + self.j;
        (self.part.range(r).start + (lu - self.src_base[k])) as Index
    }

    fn out_row(&self, lu: usize) -> &[Index] {
        &self.out_indices[self.out_offsets[lu] as usize..self.out_offsets[lu + 1] as usize]
    }

    fn in_row(&self, lv: usize) -> &[Index] {
        &self.in_indices[self.in_offsets[lv] as usize..self.in_offsets[lv + 1] as usize]
    }

    /// The rank in the grid row (its column) that owns head `v`.
    fn row_owner(&self, v: Index) -> usize {
        self.part.owner(v) - self.i * self.grid.cols
    }
}

/// The `(head, tail)` pairs of a fold for the owner of the heads `piece`, each head at
/// most once, in the smaller of two forms: `[0, count, v, u, v, u, ...]`, or
/// `[1, bits of the heads (32 a word, from piece.start)..., their tails by ascending
/// head]` (4 bytes and a bit a head, against 8, once more than one head in 32 is sent).
fn encode_fold(mut pairs: Vec<Index>, piece: std::ops::Range<usize>) -> Vec<Index> {
    let count = pairs.len() / 2;
    let words = piece.len().div_ceil(32);
    if count == 0 || 2 * count <= words + count {
        let mut out = Vec::with_capacity(2 + pairs.len());
        out.extend([0, count as Index]);
        out.append(&mut pairs);
        return out;
    }
    let mut by_head: Vec<(Index, Index)> = pairs.chunks_exact(2).map(|p| (p[0], p[1])).collect();
    by_head.sort_unstable();
    debug_assert!(
        by_head.windows(2).all(|w| w[0].0 < w[1].0),
        "one pair a head"
    );
    let mut out = vec![0 as Index; 1 + words + count];
    out[0] = 1;
    for (k, &(v, u)) in by_head.iter().enumerate() {
        let lv = v as usize - piece.start;
        out[1 + lv / 32] |= 1 << (lv % 32);
        out[1 + words + k] = u;
    }
    out
}

/// The `(head, tail)` pairs of every sender's [`encode_fold`] segment, concatenated, for
/// the heads `piece` this rank owns.
fn decode_fold(data: &[Index], piece: std::ops::Range<usize>) -> Vec<Index> {
    let words = piece.len().div_ceil(32);
    let mut pairs = Vec::new();
    let mut at = 0;
    while at < data.len() {
        if data[at] == 0 {
            let count = data[at + 1] as usize;
            pairs.extend_from_slice(&data[at + 2..at + 2 + 2 * count]);
            at += 2 + 2 * count;
            continue;
        }
        let bits = &data[at + 1..at + 1 + words];
        let mut tails = at + 1 + words;
        for (w, &word) in bits.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                let lv = w * 32 + b.trailing_zeros() as usize;
                b &= b - 1;
                pairs.push((piece.start + lv) as Index);
                pairs.push(data[tails]);
                tails += 1;
            }
        }
        at = tails;
    }
    pairs
}

/// One rank's search state in the 2-D layout.
struct Levels2d<'a> {
    net: &'a Net,
    nets: &'a GridNets,
    g: &'a Local2d,
    lo: usize,
    parents: Vec<AtomicU32>,
    levels: Vec<u32>,
    /// Bit `lv` set while owned vertex `lv` is unreached.
    unvisited: Vec<u64>,
    /// Owned frontier vertices (global ids), ascending.
    frontier: Vec<Index>,
    /// The smallest tail offered to each head of `T_i` in a push level (`UNREACHED`
    /// between levels): the local reduction before the fold.
    best: Vec<AtomicU32>,
    depth: u32,
    nf: u64,
    mf: u64,
    visited: u64,
    traffic: Vec<Traffic>,
}

/// Frontier vertices a rayon task walks in a push level.
const PUSH_CHUNK: usize = 1024;
/// Words of unvisited heads a task scans in a pull level.
const PULL_WORDS: usize = 64;

impl Levels2d<'_> {
    /// Sends the `(head, tail)` candidates to the heads' owners along the grid row and
    /// takes the smallest for each unvisited owned head: the new frontier, ascending.
    fn fold(&mut self, mut out: Vec<Vec<Index>>) -> Vec<Index> {
        let g = self.g;
        let local = std::mem::take(&mut out[g.j]);
        for (d, pairs) in out.iter_mut().enumerate() {
            if d != g.j {
                *pairs = encode_fold(std::mem::take(pairs), g.part.range(g.i * g.grid.cols + d));
            }
        }
        let got = self.nets.row.alltoallv(&out);
        drop(out);
        let got = decode_fold(&got, g.part.range(self.net.rank()));
        settle(
            &mut self.levels,
            &self.parents,
            &mut self.unvisited,
            self.lo,
            self.depth + 1,
            [&local[..], &got[..]],
        )
    }

    fn push(&mut self) -> (Vec<Index>, u64) {
        let g = self.g;
        let cols = g.grid.cols;
        // The expand: the frontier of S_j, from every rank of the column.
        let fl = self.nets.col.allgatherv(&self.frontier);
        let best = &self.best;
        let t_lo = g.t_lo;
        let walked: Vec<(Vec<Index>, u64)> = fl
            .par_chunks(PUSH_CHUNK)
            .map(|fr| {
                let mut touched = Vec::new();
                let mut examined = 0u64;
                for &u in fr {
                    let row = g.out_row(g.src_local(u));
                    examined += row.len() as u64;
                    for &v in row {
                        if best[v as usize - t_lo].fetch_min(u, Ordering::Relaxed) == UNREACHED {
                            touched.push(v);
                        }
                    }
                }
                (touched, examined)
            })
            .collect();
        let examined = walked.iter().map(|w| w.1).sum();
        let mut out: Vec<Vec<Index>> = vec![Vec::new(); cols];
        for (touched, _) in &walked {
            for &v in touched {
                let b = &self.best[v as usize - t_lo];
                let u = b.swap(UNREACHED, Ordering::Relaxed);
                let o = &mut out[g.row_owner(v)];
                o.push(v);
                o.push(u);
            }
        }
        drop(walked);
        (self.fold(out), examined)
    }

    /// The frontier of `S_j` as bits in the local tail numbering, on every rank of the
    /// column.
    fn frontier_bits(&self) -> Vec<u64> {
        let g = self.g;
        let s_len = *g.src_base.last().expect("rows + 1 values");
        let mut bits = vec![0u64; s_len.div_ceil(64)];
        if self.nf * 32 < g.vertices() as u64 {
            for u in self.nets.col.allgatherv(&self.frontier) {
                let lu = g.src_local(u);
                bits[lu >> 6] |= 1 << (lu & 63);
            }
            return bits;
        }
        let len = self.levels.len();
        let mut mine = vec![0u64; len.div_ceil(64)];
        for &v in &self.frontier {
            let lv = v as usize - self.lo;
            mine[lv >> 6] |= 1 << (lv & 63);
        }
        let all = self.nets.col.allgatherv(&mine);
        let mut at = 0usize;
        for k in 0..g.grid.rows {
            let words = (g.src_base[k + 1] - g.src_base[k]).div_ceil(64);
            or_shifted(&mut bits, &all[at..at + words], g.src_base[k]);
            at += words;
        }
        bits
    }

    /// The unvisited heads of `T_i` as bits from `t_lo`, on every rank of the row.
    fn unvisited_heads(&self) -> Vec<u64> {
        let g = self.g;
        let all = self.nets.row.allgatherv(&self.unvisited);
        let mut bits = vec![0u64; (g.t_hi - g.t_lo).div_ceil(64)];
        let mut at = 0usize;
        for k in 0..g.grid.cols {
            let range = g.part.range(g.i * g.grid.cols + k);
            let words = range.len().div_ceil(64);
            or_shifted(&mut bits, &all[at..at + words], range.start - g.t_lo);
            at += words;
        }
        bits
    }

    fn pull(&mut self) -> (Vec<Index>, u64) {
        let g = self.g;
        let front = self.frontier_bits();
        let heads = self.unvisited_heads();
        let cols = g.grid.cols;
        // Each task scans its unvisited heads' in-arcs from S_j in ascending order and
        // stops at the first frontier tail: this block's candidate.
        let found: Vec<(Vec<Vec<Index>>, u64)> = heads
            .par_chunks(PULL_WORDS)
            .enumerate()
            .map(|(c, words)| {
                let mut out: Vec<Vec<Index>> = vec![Vec::new(); cols];
                let mut examined = 0u64;
                for (wi, &word) in words.iter().enumerate() {
                    let mut open = word;
                    while open != 0 {
                        let bit = open.trailing_zeros() as usize;
                        open &= open - 1;
                        let lv = (c * PULL_WORDS + wi) * 64 + bit;
                        for &lu in g.in_row(lv) {
                            examined += 1;
                            if front[lu as usize >> 6] >> (lu & 63) & 1 == 1 {
                                let v = (g.t_lo + lv) as Index;
                                let o = &mut out[g.row_owner(v)];
                                o.push(v);
                                o.push(g.src_global(lu as usize));
                                break;
                            }
                        }
                    }
                }
                (out, examined)
            })
            .collect();
        let examined = found.iter().map(|f| f.1).sum();
        let mut out: Vec<Vec<Index>> = vec![Vec::new(); cols];
        for (o, _) in found {
            for (r, x) in o.into_iter().enumerate() {
                out[r].extend_from_slice(&x);
            }
        }
        (self.fold(out), examined)
    }
}

impl BfsLevels for Levels2d<'_> {
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
        let (next, examined) = match dir {
            Direction::Push => self.push(),
            Direction::Pull => self.pull(),
        };
        let mf: u64 = next
            .iter()
            .map(|&v| self.g.out_degree[v as usize - self.lo])
            .sum();
        let c = self.net.allreduce_sum(&[next.len() as u64, mf, examined]);
        self.frontier = next;
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
        let reached: u64 = self
            .levels
            .iter()
            .zip(&self.g.out_degree)
            .filter(|&(&l, _)| l != UNREACHED)
            .map(|(_, &d)| d)
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

/// Breadth-first search from `sources` over the 2-D graph `g`, each level's direction
/// chosen by `policy` on global counts; [`super::bfs::bfs`] in the 2-D layout, with the
/// same result on rank 0. Collective: every rank passes the same sources, policy and
/// options.
///
/// # Errors
/// As [`super::bfs::bfs`].
pub fn bfs(
    net: &Net,
    nets: &GridNets,
    g: &Local2d,
    sources: &[Index],
    policy: &dyn Policy,
    opts: &BfsOptions,
) -> Result<DistBfs> {
    let n = g.vertices();
    crate::algo::bfs::check_source_ids(n, sources, opts)?;
    if g.grid.ranks() != net.size() {
        return Err(Error::InvalidArgument(format!(
            "the graph is cut for {} ranks, the run has {}",
            g.grid.ranks(),
            net.size()
        )));
    }
    let start = net.sent();
    let range = g.part.range(net.rank());
    let lo = range.start;
    let rows = range.len();
    let parents: Vec<AtomicU32> = (0..rows).map(|_| AtomicU32::new(UNREACHED)).collect();
    let mut levels = vec![UNREACHED; rows];
    let mut unvisited = vec![!0u64; rows.div_ceil(64)];
    if !rows.is_multiple_of(64) {
        *unvisited.last_mut().expect("rows > 0") = (1u64 << (rows % 64)) - 1;
    }
    let mut frontier: Vec<Index> = sources
        .iter()
        .copied()
        .filter(|&s| range.contains(&(s as usize)))
        .collect();
    frontier.sort_unstable();
    frontier.dedup();
    for &s in &frontier {
        let ls = s as usize - lo;
        parents[ls].store(s, Ordering::Relaxed);
        levels[ls] = 0;
        unvisited[ls >> 6] &= !(1 << (ls & 63));
    }
    let mf: u64 = frontier
        .iter()
        .map(|&v| g.out_degree[v as usize - lo])
        .sum();
    let c = net.allreduce_sum(&[frontier.len() as u64, mf]);
    let state = Levels2d {
        net,
        nets,
        g,
        lo,
        parents,
        levels,
        unvisited,
        frontier,
        best: (0..g.t_hi - g.t_lo)
            .map(|_| AtomicU32::new(UNREACHED))
            .collect(),
        depth: 0,
        nf: c[0],
        mf: c[1],
        visited: c[0],
        traffic: Vec::new(),
    };
    run_search(net, state, n, g.arcs, start, policy, opts)
}
