//! Which rank owns which vertex: the [`Partition`] interface and its 1-D form,
//! [`RowBlocks`].
//!
//! # 1-D (now)
//! Rank `r` owns the contiguous vertices `starts[r]..starts[r + 1]`: their BFS state
//! (parents, levels, visited bits), their rows of `A` (out-arcs, for push) and their rows
//! of `A'` (in-arcs, for pull). The cuts put about equal arcs on every rank
//! ([`RowBlocks::by_weight`] over the degrees). A push level sends each frontier arc
//! `u -> v` to `owner(v)`; a pull level needs the whole frontier on every rank.
//!
//! # 2-D ([`super::bfs2d`])
//! Buluç and Madduri's layout (SC 2011; CombBLAS) puts the ranks on a `pr x pc` grid:
//! rank `(i, j)` holds the arcs from the vertices of grid column `j`'s pieces to those of
//! grid row `i`'s, and the vertex state is still cut into `P` contiguous pieces by this
//! same [`RowBlocks`] ([`Partition::owner`] and [`Partition::range`] keep their meaning:
//! the vector distribution every output and every gather uses). A push level becomes an
//! allgather of the frontier down each grid column (the "expand") and an alltoallv of
//! `(head, parent)` pairs along each grid row (the "fold"), `sqrt(P)` partners each
//! instead of `P`; the smallest-parent rule and the output are unchanged, because the
//! fold's receiver takes the minimum exactly as the 1-D receiver does.

use std::ops::Range;

/// Which rank owns each vertex (its state and the outputs' entries), and the
/// contiguous range of each rank.
pub trait Partition {
    /// The number of ranks, `P`.
    fn ranks(&self) -> usize;
    /// The number of vertices, `n`.
    fn vertices(&self) -> usize;
    /// The rank that owns vertex `v`.
    fn owner(&self, v: u32) -> usize;
    /// The vertices rank `r` owns, in the global numbering.
    fn range(&self, r: usize) -> Range<usize>;
}

/// The 1-D partition: `P` contiguous blocks of rows (possibly empty for tiny graphs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowBlocks {
    starts: Vec<u64>,
}

impl RowBlocks {
    /// A partition from its `P + 1` boundaries (non-decreasing, from 0 to `n`).
    ///
    /// # Panics
    /// On boundaries that do not rise from 0.
    pub fn from_starts(starts: Vec<u64>) -> RowBlocks {
        assert!(starts.len() >= 2 && starts[0] == 0, "boundaries from 0");
        assert!(starts.windows(2).all(|w| w[0] <= w[1]), "rising boundaries");
        RowBlocks { starts }
    }

    /// The boundaries: `P + 1` values from 0 to `n`.
    pub fn starts(&self) -> &[u64] {
        &self.starts
    }

    /// `n` vertices cut into `ranks` blocks of about equal weight: a block ends where
    /// the running sum of `weight(v) + 1` (the `+ 1` spreads vertices without arcs, and
    /// gives every rank at least one vertex when `n >= P`) first reaches its share.
    ///
    /// # Panics
    /// `ranks == 0`.
    pub fn by_weight(n: usize, ranks: usize, weight: impl Fn(usize) -> f64) -> RowBlocks {
        assert!(ranks > 0, "at least one rank");
        let total: f64 = (0..n).map(|v| weight(v) + 1.0).sum();
        let mut starts = Vec::with_capacity(ranks + 1);
        starts.push(0u64);
        let mut acc = 0.0;
        let mut v = 0usize;
        for r in 1..ranks {
            let goal = total * r as f64 / ranks as f64;
            // Leave at least one vertex for every rank still to come.
            let limit = n.saturating_sub(ranks - r);
            while v < limit && acc + weight(v) + 1.0 <= goal {
                acc += weight(v) + 1.0;
                v += 1;
            }
            if v == *starts.last().expect("non-empty") as usize && v < limit {
                acc += weight(v) + 1.0;
                v += 1;
            }
            starts.push(v as u64);
        }
        starts.push(n as u64);
        RowBlocks { starts }
    }

    /// The rows of a CSR with these `offsets` (`n + 1` values) cut into `ranks` blocks
    /// of about equal arcs.
    pub fn by_arcs(offsets: &[u64], ranks: usize) -> RowBlocks {
        let n = offsets.len() - 1;
        Self::by_weight(n, ranks, |v| (offsets[v + 1] - offsets[v]) as f64)
    }

    /// [`RowBlocks::by_arcs`] without the offsets in memory: `offset(v)` gives one
    /// offset (`v` in `0..=n`, the last being `arcs`), and each boundary is found by a
    /// binary search over them, `O(P log n)` look-ups (a few reads of 8 bytes each from
    /// a binary file: [`crate::io::binary::BinaryFile::offsets`]). The boundaries are the
    /// ones `by_arcs` chooses (below 2^53 arcs plus vertices, where its sums are exact).
    ///
    /// # Errors
    /// The first error `offset` returns.
    ///
    /// # Panics
    /// `ranks == 0`.
    pub fn by_arcs_lookup<E>(
        n: usize,
        arcs: u64,
        ranks: usize,
        mut offset: impl FnMut(usize) -> Result<u64, E>,
    ) -> Result<RowBlocks, E> {
        assert!(ranks > 0, "at least one rank");
        // by_weight's running sum after v vertices is offsets[v] + v, exactly.
        let total = (arcs + n as u64) as f64;
        let mut starts = Vec::with_capacity(ranks + 1);
        starts.push(0u64);
        let mut v = 0usize;
        for r in 1..ranks {
            let goal = total * r as f64 / ranks as f64;
            let limit = n.saturating_sub(ranks - r);
            if v < limit {
                // The largest w in v..=limit with offsets[w] + w <= goal (v when none).
                let (mut lo, mut hi) = (v, limit);
                while lo < hi {
                    let mid = lo + (hi - lo).div_ceil(2);
                    if (offset(mid)? + mid as u64) as f64 <= goal {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
                v = lo;
            }
            if v == *starts.last().expect("non-empty") as usize && v < limit {
                v += 1;
            }
            starts.push(v as u64);
        }
        starts.push(n as u64);
        Ok(RowBlocks { starts })
    }
}

impl Partition for RowBlocks {
    fn ranks(&self) -> usize {
        self.starts.len() - 1
    }
    fn vertices(&self) -> usize {
        *self.starts.last().expect("non-empty") as usize
    }
    #[inline]
    fn owner(&self, v: u32) -> usize {
        self.starts.partition_point(|&s| s <= v as u64) - 1
    }
    fn range(&self, r: usize) -> Range<usize> {
        self.starts[r] as usize..self.starts[r + 1] as usize
    }
}
