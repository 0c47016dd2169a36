//! Graph500 Kronecker / R-MAT graphs (Chakrabarti, Zhan and Faloutsos, SDM 2004; the
//! Graph500 specification's generator): `2^scale` vertices, `edge_factor * 2^scale`
//! sampled edges, each placed by `scale` recursive quadrant choices with probabilities
//! `a, b, c, d = 1 - a - b - c`, vertex ids permuted by a seeded random permutation,
//! self-loops dropped and repeats merged, written as [`Csr`].
//!
//! Edge `e` draws from its own PCG stream (Chung-Lu's streams with task `RMAT_TASK`
//! and chunk `e`, see [`super::chung_lu::rng`]), so the graph does not depend on the
//! thread count.

use rayon::prelude::*;

use super::chung_lu::cpu::{fill_by_blocks, partition, row_blocks, walk_dynamic};
use super::chung_lu::rng::{Stream, unit};
use crate::algebra::Index;
use crate::error::{Error, Result};
use crate::generate::{Progress, Reporter};
use crate::matrix::Csr;

/// The parameters of an R-MAT graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rmat {
    /// log2 of the number of vertices (1..=32).
    pub scale: u32,
    /// Edges sampled per vertex.
    pub edge_factor: u64,
    /// Probability of the top-left quadrant (Graph500: 0.57).
    pub a: f64,
    /// Top-right (0.19).
    pub b: f64,
    /// Bottom-left (0.19); bottom-right is `1 - a - b - c`.
    pub c: f64,
    /// The seed.
    pub seed: u64,
    /// Store every edge both ways (else each sampled edge is one arc `u -> v`).
    pub undirected: bool,
    /// Permute vertex ids (Graph500 does, so degree does not follow the id).
    pub permute: bool,
}

impl Default for Rmat {
    fn default() -> Self {
        Rmat {
            scale: 16,
            edge_factor: 16,
            a: 0.57,
            b: 0.19,
            c: 0.19,
            seed: 1,
            undirected: false,
            permute: true,
        }
    }
}

/// Task number used for R-MAT streams, apart from any Chung-Lu task (and below 2^63, as
/// PCG's stream selection needs).
const RMAT_TASK: u64 = (1 << 63) - 1;
/// Task number of the permutation's stream.
const PERM_TASK: u64 = (1 << 63) - 2;

impl Rmat {
    /// Checks the parameters.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming the bad one.
    pub fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidArgument(m));
        if self.scale == 0 || self.scale > 32 {
            return bad(format!("--scale {}: must be in 1..=32", self.scale));
        }
        if self.edge_factor == 0 {
            return bad("--edge-factor: must be at least 1".into());
        }
        let m = (self.edge_factor as u128) << self.scale;
        if m > (1u128 << 40) {
            return bad(format!("{m} edges: at most 2^40 are supported"));
        }
        for (name, x) in [("--a", self.a), ("--b", self.b), ("--c", self.c)] {
            if !(x.is_finite() && (0.0..=1.0).contains(&x)) {
                return bad(format!("{name} {x}: must be a probability in [0, 1]"));
            }
        }
        if self.a + self.b + self.c > 1.0 + 1e-12 {
            return bad(format!(
                "a + b + c = {} > 1: d = 1 - a - b - c would be negative",
                self.a + self.b + self.c
            ));
        }
        Ok(())
    }

    /// The sampled edge `e` (before the permutation).
    #[inline]
    fn edge(&self, e: u64) -> (u64, u64) {
        let mut s = Stream::new(self.seed, RMAT_TASK, e);
        let (ab, abc) = (self.a + self.b, self.a + self.b + self.c);
        let (mut u, mut v) = (0u64, 0u64);
        for _ in 0..self.scale {
            let r = unit(s.next_u64());
            let (bu, bv) = if r <= self.a {
                (0, 0)
            } else if r <= ab {
                (0, 1)
            } else if r <= abc {
                (1, 0)
            } else {
                (1, 1)
            };
            u = 2 * u + bu;
            v = 2 * v + bv;
        }
        (u, v)
    }

    /// Generates the graph.
    ///
    /// # Errors
    /// As [`Rmat::check`].
    pub fn generate(&self) -> Result<Csr<()>> {
        self.generate_with_progress(None)
    }

    /// [`Rmat::generate`], reporting to `progress` as it goes: [`Progress::work`] counts
    /// the blocks of 2^16 sampled edges twice (`total = 2 * blocks`), as they are sampled
    /// and as they are placed, and [`Progress::phase`] marks the ends of `"permutation"`,
    /// `"lane K walked"` (per thread), `"walk"`, `"prefix sum"`, `"fill pass"`, `"rows
    /// sorted"` and `"compacted"`. The graph is the same with or without a hook.
    ///
    /// Every edge is sampled once; each block of samples is grouped by block of rows right
    /// away (6 bytes per entry), then placed with the Chung-Lu generator's memory-bound
    /// passes (per block of rows a count, a prefix sum and a scatter), without atomic
    /// counters; rows are then sorted and de-duplicated. Memory: the grouped entries and
    /// the CSR.
    ///
    /// # Errors
    /// As [`Rmat::check`].
    pub fn generate_with_progress(&self, progress: Option<&dyn Progress>) -> Result<Csr<()>> {
        self.check()?;
        let n = 1usize << self.scale;
        let m = self.edge_factor << self.scale;
        const BLOCK: u64 = 1 << 16;
        let blocks = m.div_ceil(BLOCK);
        let report = Reporter::new(progress, 2 * blocks);
        let perm = if self.permute {
            permutation(n, self.seed)
        } else {
            Vec::new()
        };
        report.phase("permutation");
        let id = |x: u64| -> u32 {
            if perm.is_empty() {
                x as u32
            } else {
                perm[x as usize]
            }
        };
        let undirected = self.undirected;
        let each_block = |b: u64, f: &mut dyn FnMut(u32, u32)| {
            for e in b * BLOCK..((b + 1) * BLOCK).min(m) {
                let (u, v) = self.edge(e);
                if u != v {
                    f(id(u), id(v));
                }
            }
        };
        // One walk: blocks taken dynamically by the threads, each into its own buffer;
        // then the buffers placed into rows by blocks of rows (counting sorts, no
        // atomics: a hub's counter would be contended by every thread).
        let threads = rayon::current_num_threads();
        let units: Vec<(u64, u64)> = (0..blocks).map(|b| (b, b + 1)).collect();
        let tick = |k: u64| report.add(k);
        let lap = |what: &str| report.phase(what);
        let rb = row_blocks(n);
        let parts = walk_dynamic(&units, threads, &tick, &lap, |b| {
            let mut buf = Vec::with_capacity(BLOCK as usize);
            each_block(b as u64, &mut |u, v| buf.push((u, v)));
            partition(&buf, undirected, rb)
        });
        report.phase("walk");
        let (offsets, mut raw) = fill_by_blocks(n, rb, &parts, blocks, &tick, &lap);
        drop(parts);
        // Sort and de-duplicate every row, then compact.
        let lens: Vec<u64> = {
            let mut pieces: Vec<&mut [Index]> = Vec::with_capacity(n);
            let mut rest = &mut raw[..];
            for i in 0..n {
                let (h, t) = rest.split_at_mut((offsets[i + 1] - offsets[i]) as usize);
                pieces.push(h);
                rest = t;
            }
            pieces
                .into_par_iter()
                .map(|row| {
                    row.sort_unstable();
                    let mut k = 0usize;
                    for x in 0..row.len() {
                        if x == 0 || row[x] != row[k - 1] {
                            row[k] = row[x];
                            k += 1;
                        }
                    }
                    k as u64
                })
                .collect()
        };
        report.phase("rows sorted");
        let mut new_off = vec![0u64; n + 1];
        for i in 0..n {
            new_off[i + 1] = new_off[i] + lens[i];
        }
        let nnz = new_off[n] as usize;
        let mut indices: Vec<Index> = Vec::with_capacity(nnz);
        for i in 0..n {
            let s = offsets[i] as usize;
            indices.extend_from_slice(&raw[s..s + lens[i] as usize]);
        }
        drop(raw);
        report.phase("compacted");
        report.finish();
        // SAFETY: each row is sorted and de-duplicated, holds no self-loop (dropped at
        // sampling), its columns are vertex ids < n, and the offsets are the prefix sum of
        // the rows' lengths.
        let a = unsafe { Csr::new_unchecked(n, n, new_off, indices, vec![(); nnz]) };
        // Undirected: every arc was placed with its reverse.
        Ok(if undirected { a.assume_symmetric() } else { a })
    }
}

/// A seeded random permutation of `0..n` (Fisher-Yates).
fn permutation(n: usize, seed: u64) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u64).map(|x| x as u32).collect();
    let mut s = Stream::new(seed, PERM_TASK, 0);
    for i in (1..n).rev() {
        // Lemire's multiply-shift: an unbiased-enough index in 0..=i for a benchmark graph.
        let j = ((s.next_u64() as u128 * (i as u128 + 1)) >> 64) as usize;
        p.swap(i, j);
    }
    p
}
