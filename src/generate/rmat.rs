//! Graph500 Kronecker / R-MAT graphs (Chakrabarti, Zhan and Faloutsos, SDM 2004; the
//! Graph500 specification's generator): `2^scale` vertices, `edge_factor * 2^scale`
//! sampled edges, each placed by `scale` recursive quadrant choices with probabilities
//! `a, b, c, d = 1 - a - b - c`, vertex ids permuted by a seeded random permutation,
//! self-loops dropped and repeats merged, written as [`Csr`].
//!
//! Edge `e` draws from its own PCG stream (Chung-Lu's streams with task `RMAT_TASK`
//! and chunk `e`, see [`super::chung_lu::rng`]), so the graph does not depend on the
//! thread count.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

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
    /// the blocks of 2^16 sampled edges of both passes (`total = 2 * blocks`), and
    /// [`Progress::phase`] marks the ends of `"permutation"`, `"count pass"`, `"fill
    /// pass"`, `"rows sorted"` and `"compacted"`. The graph is the same with or without a
    /// hook.
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
        let deg: Vec<AtomicU32> = (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect();
        (0..blocks).into_par_iter().for_each(|b| {
            each_block(b, &mut |u, v| {
                deg[u as usize].fetch_add(1, Ordering::Relaxed);
                if undirected {
                    deg[v as usize].fetch_add(1, Ordering::Relaxed);
                }
            });
            report.add(1);
        });
        report.phase("count pass");
        let mut offsets = vec![0u64; n + 1];
        for i in 0..n {
            offsets[i + 1] = offsets[i] + deg[i].swap(0, Ordering::Relaxed) as u64;
        }
        let total = offsets[n] as usize;
        let mut raw: Vec<Index> = vec![0; total];
        {
            let slots = Slots(raw.as_mut_ptr());
            let offs = &offsets;
            (0..blocks).into_par_iter().for_each(|b| {
                let slots = &slots;
                each_block(b, &mut |u, v| {
                    let q =
                        offs[u as usize] + deg[u as usize].fetch_add(1, Ordering::Relaxed) as u64;
                    // SAFETY: the second pass replays the first pass's arcs, so row u's
                    // cursor stays below its count and slot q is claimed once.
                    unsafe { *slots.0.add(q as usize) = v };
                    if undirected {
                        let q = offs[v as usize]
                            + deg[v as usize].fetch_add(1, Ordering::Relaxed) as u64;
                        // SAFETY: as above, for row v.
                        unsafe { *slots.0.add(q as usize) = u };
                    }
                });
                report.add(1);
            });
        }
        report.phase("fill pass");
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
        Ok(unsafe { Csr::new_unchecked(n, n, new_off, indices, vec![(); nnz]) })
    }
}

#[derive(Clone, Copy)]
struct Slots(*mut Index);
// SAFETY: threads write disjoint slots claimed through atomic cursors, and read none.
unsafe impl Send for Slots {}
// SAFETY: as above.
unsafe impl Sync for Slots {}

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
