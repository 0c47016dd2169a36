//! One whole BFS level in one pass (the fused form of `q<!visited> = q min.secondi A` and
//! `q<!visited> = A' min.secondi q`): the kernels behind [`crate::ops::bfs_step`].
//!
//! Parent rule: the parent of `v` is the smallest frontier vertex with an arc to `v`.
//! Pull gets it for free (in-edge rows are sorted, the first frontier hit is the
//! smallest); push takes an atomic minimum over the claims of one level, so neither the
//! order of the frontier nor the thread count changes the result.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use crate::algebra::Index;

use super::team::Team;

/// The value of an unset parent or level slot.
pub(crate) const UNSET: Index = Index::MAX;

/// Frontier vertices per parallel push task (gapbs schedules top-down in chunks of 64).
const PUSH_GRAIN: usize = 64;

/// Below this many frontier out-arcs a push level runs on the calling thread. Higher
/// than the crate-wide [`super::SEQUENTIAL_WORK`]: a road graph's thousands of levels of
/// a few thousand arcs each would otherwise pay for waking the pool at every level.
pub(crate) const PUSH_PARALLEL_ARCS: u64 = 1 << 16;

/// From this many frontier out-arcs up to [`PUSH_PARALLEL_ARCS`], a push level is split
/// over a [`Team`] of threads that stay awake between levels, when the caller has one.
pub(crate) const PUSH_TEAM_ARCS: u64 = 1 << 9;

/// Out-arcs per chunk of a team's push level.
const PUSH_TEAM_CHUNK: u64 = 256;

/// Words of the visited bitmap per parallel pull task (64 x 64 = 4,096 vertices).
const PULL_WORDS: usize = 64;

/// What one level produced: the next frontier's size and out-degree sum, and how many
/// arcs the level looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LevelCounts {
    pub vertices: usize,
    pub out_edges: u64,
    pub examined: u64,
}

impl LevelCounts {
    fn add(self, o: LevelCounts) -> LevelCounts {
        LevelCounts {
            vertices: self.vertices + o.vertices,
            out_edges: self.out_edges + o.out_edges,
            examined: self.examined + o.examined,
        }
    }
}

/// Views a `u32` slice as atomics.
#[inline]
pub(crate) fn atomic_u32(s: &mut [u32]) -> &[AtomicU32] {
    const _: () = assert!(std::mem::align_of::<AtomicU32>() == std::mem::align_of::<u32>());
    // SAFETY: AtomicU32 has the size and bit validity of u32, and (asserted above) its
    // alignment; the exclusive borrow guarantees no non-atomic access for the lifetime
    // of the returned shared view (the same reasoning as `AtomicU32::from_mut_slice`).
    unsafe { &*(s as *mut [u32] as *const [AtomicU32]) }
}

/// Views atomics as plain `u32`s, for a pass that holds them exclusively (the
/// distributed search's pull, whose pushes offer into the same slots atomically).
#[cfg(feature = "mpi")]
#[inline]
pub(crate) fn plain_u32(s: &mut [AtomicU32]) -> &mut [u32] {
    // SAFETY: AtomicU32 has the size, alignment and bit validity of u32; the exclusive
    // borrow rules out any other access, atomic or not, while the plain view lives (the
    // same reasoning as `AtomicU32::get_mut_slice`).
    unsafe { &mut *(s as *mut [AtomicU32] as *mut [u32]) }
}

/// Asks the cache for `data[i]` ahead of its use (a hint; nothing on other targets).
#[inline(always)]
fn prefetch<X>(data: &[X], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if i < data.len() {
        // SAFETY: the pointer is in bounds of `data` (checked just above); a prefetch
        // reads nothing architecturally and cannot fault.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                data.as_ptr().add(i) as *const i8,
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (data, i);
}

/// `prefetch` for a raw `u32` array of length `n` (for a slice borrowed mutably
/// elsewhere).
#[inline(always)]
fn prefetch_u32(ptr: *const u32, n: usize, i: usize) {
    #[cfg(target_arch = "x86_64")]
    if i < n {
        // SAFETY: `i < n` keeps the address inside the array `ptr` points to; a
        // prefetch reads nothing architecturally and cannot fault.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                ptr.add(i) as *const i8
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (ptr, n, i);
}

/// Frontier vertices ahead whose row offsets, and half as far ahead whose rows, are
/// prefetched: a frontier's rows lie far apart in the adjacency, so without it every
/// row start is a cache miss taken one at a time.
const ROW_AHEAD: usize = 16;

#[inline(always)]
fn prefetch_rows(a_offsets: &[u64], a_indices: &[Index], frontier: &[Index], i: usize) {
    if let Some(&w) = frontier.get(i + ROW_AHEAD) {
        prefetch(a_offsets, w as usize);
    }
    if let Some(&w) = frontier.get(i + ROW_AHEAD / 2) {
        prefetch(a_indices, a_offsets[w as usize] as usize);
    }
}

/// Arcs per block of a push row: the parent slots of the next block's unvisited heads
/// are prefetched while this block is processed (random slots in an n-word array are
/// the cache misses of a push level).
const PUSH_BLOCK: usize = 32;

/// Calls `f` on every head of `row`, with the parent slots of unvisited heads
/// prefetched one block ahead.
#[inline(always)]
fn for_each_head<P>(row: &[Index], visited: &[u64], slots: &[P], mut f: impl FnMut(Index)) {
    let ask = |block: &[Index]| {
        for &v in block {
            if !bit(visited, v as usize) {
                prefetch(slots, v as usize);
            }
        }
    };
    if row.len() <= 4 {
        row.iter().for_each(|&v| f(v));
        return;
    }
    ask(&row[..row.len().min(PUSH_BLOCK)]);
    let mut start = 0;
    while start < row.len() {
        let end = (start + PUSH_BLOCK).min(row.len());
        ask(&row[end..(end + PUSH_BLOCK).min(row.len())]);
        row[start..end].iter().for_each(|&v| f(v));
        start = end;
    }
}

#[inline(always)]
fn bit(words: &[u64], i: usize) -> bool {
    (words[i >> 6] >> (i & 63)) & 1 == 1
}

#[inline(always)]
fn degree(offsets: &[u64], v: usize) -> u64 {
    offsets[v + 1] - offsets[v]
}

/// Top-down: every frontier vertex `u` offers itself as the parent of each out-neighbour
/// `v` not yet visited; the smallest offer wins. Returns the next frontier in `next`
/// and marks it visited.
///
/// `a_offsets`/`a_indices`: the adjacency (out-edges). `visited` is read-only during the
/// level and updated at its end, so that every frontier vertex sees the same mask.
///
/// A large next frontier is sorted on the way out, through its bitmap (left in
/// `next_bits`, and the returned flag says so): the next push then reads the rows of
/// the adjacency in order, and a pull needs no conversion. A small one stays in claim
/// order, so that a level of a road graph costs its frontier, not n / 64 words.
#[allow(clippy::too_many_arguments)]
pub(crate) fn push_level(
    a_offsets: &[u64],
    a_indices: &[Index],
    frontier: &[Index],
    frontier_edges: u64,
    visited: &mut [u64],
    parents: &mut [u32],
    levels: &mut [u32],
    next_depth: u32,
    next: &mut Vec<Index>,
    next_bits: &mut [u64],
    sequential: bool,
    team: Option<&Team>,
) -> (LevelCounts, bool) {
    next.clear();
    let mut c = LevelCounts::default();
    let small = frontier_edges < PUSH_PARALLEL_ARCS || frontier.len() < 2;
    let team = team.filter(|t| {
        !sequential
            && t.threads() > 1
            && small
            && frontier_edges >= PUSH_TEAM_ARCS
            && frontier.len() >= t.threads()
    });
    if let Some(team) = team {
        // Chunks of about PUSH_TEAM_CHUNK arcs, contiguous in the frontier, taken by
        // whichever thread of the team is free; each claims with an atomic minimum, as
        // the rayon path does, and the chunks' new vertices are concatenated in chunk
        // order (so the next frontier does not depend on who ran what).
        let chunks = (frontier_edges / PUSH_TEAM_CHUNK).clamp(1, frontier.len() as u64) as usize;
        let bounds = split_by_arcs(a_offsets, frontier, frontier_edges, chunks);
        let vis: &[u64] = visited;
        let par = atomic_u32(parents);
        let outs: Vec<std::sync::Mutex<(Vec<Index>, u64)>> = (0..chunks)
            .map(|_| std::sync::Mutex::new((Vec::new(), 0)))
            .collect();
        team.run(chunks, &|k| {
            let mut out = outs[k].lock().expect("one thread per chunk");
            let (q, examined) = &mut *out;
            *examined = push_atomic(
                a_offsets,
                a_indices,
                &frontier[bounds[k]..bounds[k + 1]],
                vis,
                par,
                q,
            );
        });
        for o in outs {
            let (q, examined) = o.into_inner().expect("chunks finished");
            next.extend_from_slice(&q);
            c.examined += examined;
        }
    } else if sequential || small {
        let (parents_ptr, n) = (parents.as_ptr(), parents.len());
        for (i, &u) in frontier.iter().enumerate() {
            prefetch_rows(a_offsets, a_indices, frontier, i);
            let (s, e) = (
                a_offsets[u as usize] as usize,
                a_offsets[u as usize + 1] as usize,
            );
            c.examined += (e - s) as u64;
            let vis: &[u64] = visited;
            let mut claim = |v: Index| {
                let vi = v as usize;
                if bit(vis, vi) {
                    return;
                }
                let p = parents[vi];
                if p == UNSET {
                    parents[vi] = u;
                    next.push(v);
                } else if u < p {
                    parents[vi] = u;
                }
            };
            if e - s > 4 {
                // prefetching needs the slots while `claim` holds them mutably: ask
                // through a shared copy of the pointer's target range
                let row = &a_indices[s..e];
                for &v in row.iter().take(PUSH_BLOCK) {
                    if !bit(vis, v as usize) {
                        prefetch_u32(parents_ptr, n, v as usize);
                    }
                }
                let mut start = 0;
                while start < row.len() {
                    let end = (start + PUSH_BLOCK).min(row.len());
                    for &v in &row[end..(end + PUSH_BLOCK).min(row.len())] {
                        if !bit(vis, v as usize) {
                            prefetch_u32(parents_ptr, n, v as usize);
                        }
                    }
                    row[start..end].iter().for_each(|&v| claim(v));
                    start = end;
                }
            } else {
                a_indices[s..e].iter().for_each(|&v| claim(v));
            }
        }
    } else {
        let vis: &[u64] = visited;
        let par = atomic_u32(parents);
        let parts: Vec<(Vec<Index>, u64)> = frontier
            .par_chunks(PUSH_GRAIN)
            .fold(
                || (Vec::new(), 0u64),
                |(mut out, examined), chunk| {
                    let e = push_atomic(a_offsets, a_indices, chunk, vis, par, &mut out);
                    (out, examined + e)
                },
            )
            .collect();
        let total: usize = parts.iter().map(|p| p.0.len()).sum();
        next.reserve(total);
        for (q, examined) in &parts {
            next.extend_from_slice(q);
            c.examined += examined;
        }
    }
    c.vertices = next.len();
    let words = visited.len();
    if next.len() >= SORT_MIN.max(words / 2) {
        // Through the bitmap: sorted, marked visited, degrees summed in order. The bits
        // are set on one thread: atomic ORs from several would fight over the lines of
        // a bitmap that fits in cache, and lose to one core's plain stores.
        next_bits.fill(0);
        for &v in next.iter() {
            next_bits[v as usize >> 6] |= 1 << (v & 63);
        }
        let sum = bits_to_queue_marking(
            next_bits, visited, levels, next_depth, a_offsets, next, sequential,
        );
        c.out_edges = sum;
        (c, true)
    } else {
        for &v in next.iter() {
            visited[v as usize >> 6] |= 1 << (v & 63);
            levels[v as usize] = next_depth;
            c.out_edges += degree(a_offsets, v as usize);
        }
        (c, false)
    }
}

/// The claims of the frontier vertices `chunk` when several threads claim at once: each
/// unvisited head takes the smallest offer by an atomic minimum (a load first, so a
/// head already claimed by a smaller vertex costs no locked instruction); the heads
/// claimed first go to `out`. Returns the arcs examined.
#[inline(always)]
fn push_atomic(
    a_offsets: &[u64],
    a_indices: &[Index],
    chunk: &[Index],
    vis: &[u64],
    par: &[AtomicU32],
    out: &mut Vec<Index>,
) -> u64 {
    let mut examined = 0u64;
    for (i, &u) in chunk.iter().enumerate() {
        prefetch_rows(a_offsets, a_indices, chunk, i);
        let (s, e) = (
            a_offsets[u as usize] as usize,
            a_offsets[u as usize + 1] as usize,
        );
        examined += (e - s) as u64;
        for_each_head(&a_indices[s..e], vis, par, |v| {
            let vi = v as usize;
            if bit(vis, vi) {
                return;
            }
            let slot = &par[vi];
            if slot.load(Relaxed) <= u {
                return;
            }
            if slot.fetch_min(u, Relaxed) == UNSET {
                out.push(v);
            }
        });
    }
    examined
}

/// Cuts `frontier` into `shares` contiguous pieces of about `arcs / shares` out-arcs
/// each: the `shares + 1` bounds.
fn split_by_arcs(offsets: &[u64], frontier: &[Index], arcs: u64, shares: usize) -> Vec<usize> {
    let mut bounds = Vec::with_capacity(shares + 1);
    bounds.push(0);
    let mut acc = 0u64;
    for (p, &u) in frontier.iter().enumerate() {
        if bounds.len() == shares {
            break;
        }
        acc += degree(offsets, u as usize);
        if acc * shares as u64 >= arcs * bounds.len() as u64 {
            bounds.push(p + 1);
        }
    }
    while bounds.len() < shares {
        bounds.push(frontier.len());
    }
    bounds.push(frontier.len());
    bounds
}

/// Frontiers at least this large (and at least n / 128) are sorted through their
/// bitmap after a push.
const SORT_MIN: usize = 1024;

/// The sorted list of the vertices in `bits`, which also join `visited` and get their
/// level (written here, in vertex order, rather than at the claim, where each would
/// be one more cache miss); returns the sum of their out-degrees.
fn bits_to_queue_marking(
    bits: &[u64],
    visited: &mut [u64],
    levels: &mut [u32],
    depth: u32,
    a_offsets: &[u64],
    queue: &mut Vec<Index>,
    sequential: bool,
) -> u64 {
    queue.clear();
    let scan =
        |w0: usize, words: &[u64], vis: &mut [u64], lev: &mut [u32], out: &mut Vec<Index>| -> u64 {
            let mut sum = 0u64;
            for (k, (&w, vw)) in words.iter().zip(vis.iter_mut()).enumerate() {
                *vw |= w;
                let mut x = w;
                while x != 0 {
                    let b = (k << 6) | x.trailing_zeros() as usize;
                    x &= x - 1;
                    let v = (w0 << 6) + b;
                    lev[b] = depth;
                    out.push(v as Index);
                    sum += degree(a_offsets, v);
                }
            }
            sum
        };
    const BLOCK: usize = 1 << 12;
    if sequential || bits.len() <= BLOCK {
        return scan(0, bits, visited, levels, queue);
    }
    let parts: Vec<(Vec<Index>, u64)> = bits
        .par_chunks(BLOCK)
        .zip(visited.par_chunks_mut(BLOCK))
        .zip(levels.par_chunks_mut(BLOCK * 64))
        .enumerate()
        .map(|(c, ((words, vis), lev))| {
            let mut out = Vec::new();
            let sum = scan(c * BLOCK, words, vis, lev, &mut out);
            (out, sum)
        })
        .collect();
    let mut sum = 0;
    for (p, s) in parts {
        queue.extend_from_slice(&p);
        sum += s;
    }
    sum
}

/// Bottom-up: every unvisited vertex `v` scans its in-edges (sorted) and takes the first
/// frontier vertex it finds as its parent, stopping there (the early exit of MIN.SECONDI
/// over sorted rows). The next frontier comes back as a bitmap in `next_bits`; `visited`
/// gains it.
///
/// `at_offsets`/`at_indices`: the in-edges (the transpose of the adjacency, or the
/// adjacency itself for a symmetric graph); `a_offsets` gives out-degrees for the counts.
#[allow(clippy::too_many_arguments)]
pub(crate) fn pull_level(
    at_offsets: &[u64],
    at_indices: &[Index],
    a_offsets: &[u64],
    frontier_bits: &[u64],
    visited: &mut [u64],
    next_bits: &mut [u64],
    parents: &mut [u32],
    levels: &mut [u32],
    next_depth: u32,
    sequential: bool,
) -> LevelCounts {
    let n = parents.len();
    let run = |w0: usize,
               vis: &mut [u64],
               nb: &mut [u64],
               par: &mut [u32],
               lev: &mut [u32]|
     -> LevelCounts {
        let mut c = LevelCounts::default();
        let unvisited = |k: usize, w: u64| {
            let base = (w0 + k) << 6;
            if base + 64 > n {
                !w & ((1u64 << (n - base)) - 1)
            } else {
                !w
            }
        };
        let words = vis.len();
        for k in 0..words {
            // The first in-edge of each unvisited vertex of the next word: the rows are
            // scattered through A', and the scan below touches little of each, so their
            // cache misses are what a pull level costs. Prefetching them overlaps the
            // misses of 64 vertices.
            if k + 1 < words {
                let mut ahead = unvisited(k + 1, vis[k + 1]);
                let next_base = (w0 + k + 1) << 6;
                while ahead != 0 {
                    let v = next_base + ahead.trailing_zeros() as usize;
                    ahead &= ahead - 1;
                    prefetch(at_indices, at_offsets[v] as usize);
                }
            }
            let base = (w0 + k) << 6;
            let mut todo = unvisited(k, vis[k]);
            let (vw, nw) = (&mut vis[k], &mut nb[k]);
            let mut got = 0u64;
            while todo != 0 {
                let b = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let v = base + b;
                let (s, e) = (at_offsets[v] as usize, at_offsets[v + 1] as usize);
                for (p, &u) in at_indices[s..e].iter().enumerate() {
                    if bit(frontier_bits, u as usize) {
                        got |= 1 << b;
                        let lv = v - (w0 << 6);
                        par[lv] = u;
                        lev[lv] = next_depth;
                        c.out_edges += degree(a_offsets, v);
                        c.examined += p as u64 + 1;
                        break;
                    }
                }
                if got & (1 << b) == 0 {
                    c.examined += (e - s) as u64;
                }
            }
            *nw = got;
            *vw |= got;
            c.vertices += got.count_ones() as usize;
        }
        c
    };
    if sequential {
        return run(0, visited, next_bits, parents, levels);
    }
    let per = PULL_WORDS * 64;
    visited
        .par_chunks_mut(PULL_WORDS)
        .zip(next_bits.par_chunks_mut(PULL_WORDS))
        .zip(parents.par_chunks_mut(per))
        .zip(levels.par_chunks_mut(per))
        .enumerate()
        .map(|(t, (((vis, nb), par), lev))| run(t * PULL_WORDS, vis, nb, par, lev))
        .reduce(LevelCounts::default, LevelCounts::add)
}

/// The frontier bitmap from a list of vertices (`bits` cleared first).
pub(crate) fn queue_to_bits(queue: &[Index], bits: &mut [u64]) {
    bits.par_chunks_mut(1 << 14).for_each(|c| c.fill(0));
    for &v in queue {
        bits[v as usize >> 6] |= 1 << (v & 63);
    }
}

/// The sorted list of the vertices in a frontier bitmap.
pub(crate) fn bits_to_queue(bits: &[u64], queue: &mut Vec<Index>, sequential: bool) {
    queue.clear();
    let scan = |w0: usize, words: &[u64], out: &mut Vec<Index>| {
        for (k, &w) in words.iter().enumerate() {
            let mut x = w;
            while x != 0 {
                out.push((((w0 + k) << 6) | x.trailing_zeros() as usize) as Index);
                x &= x - 1;
            }
        }
    };
    const BLOCK: usize = 1 << 12;
    if sequential || bits.len() <= BLOCK {
        scan(0, bits, queue);
        return;
    }
    let parts: Vec<Vec<Index>> = bits
        .par_chunks(BLOCK)
        .enumerate()
        .map(|(c, words)| {
            let mut out = Vec::new();
            scan(c * BLOCK, words, &mut out);
            out
        })
        .collect();
    for p in parts {
        queue.extend_from_slice(&p);
    }
}
