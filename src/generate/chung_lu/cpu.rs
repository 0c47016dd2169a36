//! Chung-Lu generation on the CPU: one walk of every chunk into per-piece edge buffers
//! (pieces taken dynamically by the threads), then memory-bound passes that place the
//! edges into rows (by blocks of rows, or by lanes), and a parallel sort of the rows
//! where the numbering needs it. The walk and the placement by blocks serve the R-MAT
//! generator too.
//!
//! The per-chunk walk ([`for_each_pair`]) is the function a CUDA kernel mirrors: edge
//! skipping over the chunk's pair range with the chunk's own stream, incremental pair
//! decoding with an exact fallback. Everything it reads is in the [`Plan`].

use rayon::prelude::*;

use super::plan::{Plan, Task, TaskKind, decode_triangle};
use super::rng::{Stream, ln_unit};
use crate::algebra::Index;
use crate::generate::{Progress, Reporter};
use crate::matrix::Csr;

/// The chunk's pair offsets that are edges, in increasing order: edge skipping with
/// `skip = floor(ln r * (1 / ln(1 - p)))` (a geometric number of non-edges before each
/// edge), or every pair when `p == 1`.
struct Skipper {
    stream: Stream,
    inv_log_q: f64,
    len: u64,
    off: u64,
    dense: bool,
}

impl Skipper {
    #[inline(always)]
    fn new(seed: u64, t: &Task, chunk: u64, len: u64) -> Skipper {
        Skipper {
            stream: Stream::new(seed, t.id, chunk),
            inv_log_q: t.inv_log_q,
            len,
            off: 0,
            dense: t.p >= 1.0,
        }
    }

    #[inline(always)]
    fn next_offset(&mut self) -> Option<u64> {
        if self.off >= self.len {
            return None;
        }
        if self.dense {
            let o = self.off;
            self.off += 1;
            return Some(o);
        }
        // ln r <= 0 and 1 / ln(1 - p) < 0: the product is >= 0 (or -0), so truncation
        // toward zero (`as u64`) is the floor.
        let skip = ln_unit(self.stream.next_unit()) * self.inv_log_q;
        let rem = self.len - self.off;
        // Compared as a double first (it may exceed 2^64), then exactly as an integer.
        if skip.partial_cmp(&(rem as f64)) != Some(std::cmp::Ordering::Less) {
            self.off = self.len;
            return None;
        }
        let s = skip as u64;
        if s >= rem {
            self.off = self.len;
            return None;
        }
        let o = self.off + s;
        self.off = o + 1;
        Some(o)
    }
}

/// Calls `emit(x, y)` for every edge of chunk `chunk` (local to the task) of task `t`
/// under `seed`, in increasing pair order. `x` and `y` are *positions* in the vertex
/// order of the groups ([`super::Groups::vertex`] turns them into vertices): `x` in row
/// group `t.i`, `y` in column group `t.j` (undirected: `x` is the later position of the
/// pair). Directed pairs of a vertex with itself are skipped.
#[inline]
pub fn for_each_pair(plan: &Plan, t: &Task, chunk: u64, seed: u64, mut emit: impl FnMut(u32, u32)) {
    let start = chunk * t.chunk_pairs;
    let len = t.chunk_pairs.min(t.pairs - start);
    let mut sk = Skipper::new(seed, t, chunk, len);
    let rows = &plan.rows;
    let cols = plan.col_groups();
    let (ri, cj) = (rows.start[t.i as usize], cols.start[t.j as usize]);
    match t.kind {
        TaskKind::Intra => {
            let Some(o) = sk.next_offset() else { return };
            let mut pos = start + o;
            let (mut a, mut b) = decode_triangle(pos);
            loop {
                emit((ri + a) as u32, (ri + b) as u32);
                let Some(o) = sk.next_offset() else { return };
                let np = start + o;
                b += np - pos;
                pos = np;
                if b >= a {
                    if b - a < 4 * a {
                        while b >= a {
                            b -= a;
                            a += 1;
                        }
                    } else {
                        (a, b) = decode_triangle(pos);
                    }
                }
            }
        }
        TaskKind::Inter | TaskKind::Arcs => {
            let width = cols.count(t.j as usize);
            let Some(o) = sk.next_offset() else { return };
            let mut pos = start + o;
            let (mut a, mut b) = (pos / width, pos % width);
            let arcs = t.kind == TaskKind::Arcs;
            loop {
                let (x, y) = (ri + a, cj + b);
                if !arcs || rows.vertex(x) != cols.vertex(y) {
                    emit(x as u32, y as u32);
                }
                let Some(o) = sk.next_offset() else { return };
                let np = start + o;
                b += np - pos;
                pos = np;
                if b >= width {
                    if b < 4 * width {
                        while b >= width {
                            b -= width;
                            a += 1;
                        }
                    } else {
                        a += b / width;
                        b %= width;
                    }
                }
            }
        }
    }
}

/// Runs `emit` over every edge of the chunks `c0..c1` (global numbers).
fn for_each_edge_in(plan: &Plan, (c0, c1): (u64, u64), seed: u64, emit: &mut impl FnMut(u32, u32)) {
    if c0 >= c1 {
        return;
    }
    let mut k = plan.task_of_chunk(c0);
    for c in c0..c1 {
        while plan.tasks[k].first_chunk + plan.tasks[k].chunks() <= c {
            k += 1;
        }
        let t = &plan.tasks[k];
        for_each_pair(plan, t, c - t.first_chunk, seed, &mut *emit);
    }
}

/// Progress is reported after at least this many chunks.
const TICK: u64 = 256;

/// An edge as the walk leaves it: (row position, column position), 8 bytes.
pub(crate) type Edge = (u32, u32);

/// Every piece walked once (see [`walk_dynamic`]), its edges handed to `make`, whose
/// result is the piece's.
pub(crate) fn walk_pieces<T: Send>(
    plan: &Plan,
    pieces: &[(u64, u64)],
    seed: u64,
    threads: usize,
    tick: &(impl Fn(u64) + Sync),
    lap: &(impl Fn(&str) + Sync),
    make: impl Fn(Vec<Edge>) -> T + Sync,
) -> Vec<T> {
    let expected = |&(c0, c1): &(u64, u64)| -> usize {
        let mut m = 0.0;
        let mut k = plan.task_of_chunk(c0);
        let mut c = c0;
        while c < c1 {
            let t = &plan.tasks[k];
            let e = (t.first_chunk + t.chunks()).min(c1);
            m += (e - c) as f64 * t.chunk_pairs as f64 * t.p;
            c = e;
            k += 1;
        }
        // Room for the mean plus a few standard deviations: growth is then rare.
        (m + 6.0 * m.sqrt() + 64.0) as usize
    };
    walk_dynamic(pieces, threads, tick, lap, |k| {
        let mut buf: Vec<Edge> = Vec::with_capacity(expected(&pieces[k]));
        for_each_edge_in(plan, pieces[k], seed, &mut |u, v| buf.push((u, v)));
        make(buf)
    })
}

/// `walk(k)` for every piece `k` of `pieces`, once: the pieces are taken dynamically by
/// `threads` workers from a shared counter, each walked into its own buffer, so the
/// result depends on the pieces only, never on the schedule. A piece `(c0, c1)` is
/// `c1 - c0` units of work for `tick`; `lap` is told when each worker runs out of pieces
/// (`"lane K walked"`, the lanes' finish times). Also the R-MAT generator's walk.
pub(crate) fn walk_dynamic<T: Send>(
    pieces: &[(u64, u64)],
    threads: usize,
    tick: &(impl Fn(u64) + Sync),
    lap: &(impl Fn(&str) + Sync),
    walk: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let done: Vec<Vec<(usize, T)>> = (0..threads.max(1))
        .into_par_iter()
        .map(|lane| {
            let mut mine = Vec::new();
            let mut pending = 0u64;
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(c0, c1)) = pieces.get(k) else {
                    break;
                };
                mine.push((k, walk(k)));
                pending += c1 - c0;
                if pending >= TICK {
                    tick(pending);
                    pending = 0;
                }
            }
            tick(pending);
            lap(&format!("lane {lane} walked"));
            mine
        })
        .collect();
    let mut done: Vec<(usize, T)> = done.into_iter().flatten().collect();
    done.sort_unstable_by_key(|x| x.0);
    done.into_iter().map(|x| x.1).collect()
}

/// Cuts the pieces' buffers, in order, into at most `lanes` consecutive ranges of about
/// equal edge counts (at piece boundaries): the lanes of the count and fill passes.
pub(crate) fn edge_lanes(bufs: &[Vec<Edge>], lanes: usize) -> Vec<(usize, usize)> {
    let total: usize = bufs.iter().map(Vec::len).sum();
    let lanes = lanes.clamp(1, bufs.len().max(1));
    let mut out = Vec::with_capacity(lanes);
    let (mut k0, mut acc) = (0usize, 0usize);
    for (k, b) in bufs.iter().enumerate() {
        acc += b.len();
        let goal = total * (out.len() + 1) / lanes;
        if out.len() + 1 < lanes && acc >= goal {
            out.push((k0, k + 1));
            k0 = k + 1;
        }
    }
    out.push((k0, bufs.len()));
    out
}

/// A raw pointer that may cross threads: the filling pass writes disjoint slots.
#[derive(Clone, Copy)]
struct SharedSlots(*mut Index);
// SAFETY: used only by `generate_with_progress`, whose lanes write disjoint slots (each
// lane owns a fixed sub-range of every row) and read none.
unsafe impl Send for SharedSlots {}
// SAFETY: as above.
unsafe impl Sync for SharedSlots {}

/// Generates the graph of `plan` under `seed`: an `n x n` [`Csr`] with sorted rows, no
/// self-loops and no repeated entries; undirected edges are stored both ways.
///
/// The output depends on the plan and the seed only: any thread count gives the same
/// bytes.
pub fn generate(plan: &Plan, seed: u64) -> Csr<()> {
    generate_with_progress(plan, seed, None)
}

/// [`generate`], reporting to `progress` as it goes: [`Progress::work`] counts the chunks
/// twice (`total = 2 * plan.chunks`), once as they are walked and once as their edges are
/// placed, in batches (a few hundred chunks per thread while walking, a block of rows or
/// a piece while placing), and [`Progress::phase`] marks the
/// ends of `"lane K walked"` (once per thread `K`: the lanes' finish times), `"walk"`,
/// `"count pass"` (only where vertices keep the user's numbering), `"prefix sum"`,
/// `"fill pass"` and `"rows ordered"`. The graph is the same with or without a hook.
///
/// # How
/// 1. **Walk, once.** The chunks, in task order, are cut by the plan into
///    [pieces](Plan::pieces) of about equal cost; the threads take pieces from a shared
///    counter (dynamic, so lanes finish together whatever the cost model misses) and walk
///    each into its own buffer of compact edges, `(row position, column position)`, 8
///    bytes each. Every random number is drawn once.
/// 2. **Place**, with memory-bound passes and no atomics, each row receiving its entries
///    in piece order:
///    - vertices numbered by position (a histogram, a non-decreasing sequence): each
///      piece's buffer, still in cache, is grouped by block of rows (a counting sort,
///      `partition`) and freed; then every block of rows apart counts its rows,
///      prefix-sums them into the offsets and scatters its entries into a range of slots
///      that stays in cache (`fill_by_blocks`);
///    - any other numbering: the buffers are cut into one lane per thread of about equal
///      edge count; a private count per lane and vertex, a prefix sum over vertices and
///      lanes, and a scatter of each lane into its own sub-range of every row
///      (`fill_by_lanes`).
///
///    When groups are numbered contiguously, task order is column order within every
///    row, so rows come out sorted; a degree sequence in the user's numbering is sorted
///    afterwards.
///
/// Memory, besides the plan: the CSR (`8 (n + 1)` bytes of offsets, 4 bytes per entry);
/// by blocks, the grouped entries (6 bytes per entry, 12 per undirected edge), so 20
/// bytes per undirected edge at the peak; by lanes, the buffers (8 bytes per edge) beside
/// the CSR plus a `u32` count and a `u64` cursor per vertex per thread, 16 bytes per edge
/// and 12 per vertex per thread. At n = 10M on a power law with gamma 2.1 and dmin 4
/// (130M edges) the peak is about 2.7 GB: 1.04 GB of CSR entries, 80 MB of offsets and
/// 1.57 GB of grouped entries. The plan of that run is almost as large (30.5M tasks of
/// 64 bytes, 2 GB).
pub fn generate_with_progress(plan: &Plan, seed: u64, progress: Option<&dyn Progress>) -> Csr<()> {
    let n = plan.n;
    let threads = rayon::current_num_threads();
    let report = Reporter::new(progress, 2 * plan.chunks);
    let lap = |what: &str| report.phase(what);
    let tick = |c: u64| report.add(c);
    let undirected = !plan.directed;
    let pieces = plan.pieces();
    let (offsets, mut indices) = if plan.rows.members.is_none() {
        let blocks = row_blocks(n);
        let parts = walk_pieces(plan, &pieces, seed, threads, &tick, &lap, |edges| {
            partition(&edges, undirected, blocks)
        });
        lap("walk");
        fill_by_blocks(n, blocks, &parts, plan.chunks, &tick, &lap)
    } else {
        let bufs = walk_pieces(plan, &pieces, seed, threads, &tick, &lap, |edges| edges);
        lap("walk");
        let lanes = edge_lanes(&bufs, threads);
        fill_by_lanes(plan, &bufs, &pieces, &lanes, &tick, &lap)
    };
    let nnz = offsets[n] as usize;

    // Entries are column positions, sorted within every row (task order is column order
    // in position space). With a vertex order that is not the identity, map them to
    // vertices: a reversed order only reverses each row, any other needs a sort.
    let cols = plan.col_groups();
    if cols.reversed {
        reverse_rows(&offsets, &mut indices, n as u32);
    } else if let Some(m) = &cols.members {
        relabel_and_sort_rows(&offsets, &mut indices, m);
    }
    lap("rows ordered");
    report.finish();
    // SAFETY: every row holds the columns of its vertex's distinct edges (no pair is
    // generated twice: tasks cover disjoint pairs and a chunk emits increasing pairs),
    // none equal to the row (no intra pair has a == b, directed self pairs are dropped),
    // all < n. Rows are sorted: with contiguous groups, lanes are consecutive ranges of
    // chunks in task order and fill each row's sub-ranges in lane order, and task order
    // visits a row's column groups in ascending order, each in ascending order within a
    // chunk and across a task's chunks; otherwise `reverse_rows` or `relabel_and_sort_rows`
    // mapped positions to vertices and restored the order. Offsets are
    // the prefix sum of exactly the rows' counts.
    unsafe { Csr::new_unchecked(n, n, offsets, indices, vec![(); nnz]) }
}

/// The blocks of rows of [`fill_by_blocks`] for `n` rows: `(shift, count)`, block `k`
/// being rows `k << shift ..`. At least [`BLOCK_ROWS_MIN`] rows a block, at most 256
/// blocks up to n = 2^24, blocks of 2^16 rows beyond (rows within a block are `u16`).
pub(crate) fn row_blocks(n: usize) -> (u32, usize) {
    let mut shift = BLOCK_ROWS_MIN.trailing_zeros();
    while (n >> shift) > 256 && shift < 16 {
        shift += 1;
    }
    (shift, n.div_ceil(1 << shift).max(1))
}

/// A piece's entries grouped by block of rows (a counting sort of its edges): the
/// entry's row within its block and its column, 6 bytes, and where each block's entries
/// start (`count + 1` values).
pub(crate) struct Parted {
    rows: Vec<u16>,
    cols: Vec<u32>,
    start: Vec<u32>,
}

/// Groups `edges` by block of rows (`(shift, count)` from [`row_blocks`]), in order
/// within each block; undirected edges give an entry in both rows. Run right after a
/// piece is walked, while its edges are in cache.
pub(crate) fn partition(
    edges: &[Edge],
    undirected: bool,
    (shift, nblocks): (u32, usize),
) -> Parted {
    let mut start = vec![0u32; nblocks + 1];
    for &(u, v) in edges {
        start[(u >> shift) as usize + 1] += 1;
        if undirected {
            start[(v >> shift) as usize + 1] += 1;
        }
    }
    for k in 0..nblocks {
        start[k + 1] += start[k];
    }
    let total = start[nblocks] as usize;
    let (mut rows, mut cols) = (vec![0u16; total], vec![0u32; total]);
    let mut cur: Vec<u32> = start[..nblocks].to_vec();
    let mask = (1u32 << shift) - 1;
    for &(u, v) in edges {
        let q = &mut cur[(u >> shift) as usize];
        rows[*q as usize] = (u & mask) as u16;
        cols[*q as usize] = v;
        *q += 1;
        if undirected {
            let q = &mut cur[(v >> shift) as usize];
            rows[*q as usize] = (v & mask) as u16;
            cols[*q as usize] = u;
            *q += 1;
        }
    }
    Parted { rows, cols, start }
}

/// Places the pieces' entries, [partitioned](partition) by block of rows, into rows when
/// position `k` is vertex `k`: a prefix sum over the blocks' sizes gives where each
/// block's rows start ("prefix sum"); then every block apart, in parallel, counts its
/// rows, prefix-sums them into the offsets and scatters its entries, piece by piece, into
/// its slots, a range that stays in cache ("fill pass"). Each row receives its entries in
/// piece order, as [`fill_by_lanes`] gives them. `units` units of work are reported to
/// `tick`, spread over the blocks.
pub(crate) fn fill_by_blocks(
    n: usize,
    (shift, nblocks): (u32, usize),
    parts: &[Parted],
    units: u64,
    tick: &(impl Fn(u64) + Sync),
    lap: &(impl Fn(&str) + Sync),
) -> (Vec<u64>, Vec<Index>) {
    let mut block_start = vec![0u64; nblocks + 1];
    for k in 0..nblocks {
        let size: u64 = parts
            .iter()
            .map(|p| (p.start[k + 1] - p.start[k]) as u64)
            .sum();
        block_start[k + 1] = block_start[k] + size;
    }
    let nnz = block_start[nblocks] as usize;
    let mut offsets = vec![0u64; n + 1];
    offsets[n] = nnz as u64;
    let mut indices: Vec<Index> = vec![0; nnz];
    lap("prefix sum");

    // Disjoint pieces of the offsets and the entries, one per block.
    let mut jobs: Vec<(usize, &mut [u64], &mut [Index])> = Vec::with_capacity(nblocks);
    let (mut off_rest, mut idx_rest) = (&mut offsets[..n], &mut indices[..]);
    for k in 0..nblocks {
        let rows = (n - (k << shift)).min(1 << shift);
        let (o, ot) = off_rest.split_at_mut(rows);
        let (x, xt) = idx_rest.split_at_mut((block_start[k + 1] - block_start[k]) as usize);
        jobs.push((k, o, x));
        (off_rest, idx_rest) = (ot, xt);
    }
    let block_start = &block_start;
    let nb = nblocks as u64;
    jobs.into_par_iter().for_each(|(k, off, slots)| {
        let mut cur = vec![0u64; off.len()];
        for p in parts {
            let (a, b) = (p.start[k] as usize, p.start[k + 1] as usize);
            for &r in &p.rows[a..b] {
                cur[r as usize] += 1;
            }
        }
        let mut acc = 0u64;
        for (c, o) in cur.iter_mut().zip(off.iter_mut()) {
            *o = block_start[k] + acc;
            let d = *c;
            *c = acc;
            acc += d;
        }
        for p in parts {
            let (a, b) = (p.start[k] as usize, p.start[k + 1] as usize);
            for (&r, &y) in p.rows[a..b].iter().zip(&p.cols[a..b]) {
                let q = cur[r as usize];
                cur[r as usize] = q + 1;
                slots[q as usize] = y;
            }
        }
        let k = k as u64;
        tick(units * (k + 1) / nb - units * k / nb);
    });
    lap("fill pass");
    (offsets, indices)
}

/// The fewest rows in a block of [`fill_by_blocks`]: 2^13 rows of a few dozen entries
/// each are a few hundred KB of slots, about an L2 cache.
const BLOCK_ROWS_MIN: u32 = 1 << 13;

/// Places the buffers' edges into rows by vertex (any vertex order): every lane counts
/// its edges' endpoints per row privately (plain stores, no atomics), a prefix sum over
/// vertices and lanes gives the row offsets and every lane's sub-range of every row, and
/// every lane scatters its edges there. Memory: a `u32` count and a `u64` cursor per
/// vertex per lane. Returns the offsets (by vertex) and the entries (column positions),
/// each row in buffer order.
fn fill_by_lanes(
    plan: &Plan,
    bufs: &[Vec<Edge>],
    pieces: &[(u64, u64)],
    lanes: &[(usize, usize)],
    tick: &(impl Fn(u64) + Sync),
    lap: &(impl Fn(&str) + Sync),
) -> (Vec<u64>, Vec<Index>) {
    let n = plan.n;
    let undirected = !plan.directed;
    // Edges whose slots are claimed and prefetched before they are written.
    const PIECE: usize = 256;
    // Counting pass: every range of pieces counts its endpoints privately.
    let counts: Vec<Vec<u32>> = lanes
        .par_iter()
        .map(|&(k0, k1)| {
            let mut cnt = vec![0u32; n];
            for b in &bufs[k0..k1] {
                for &(u, v) in b.iter() {
                    cnt[u as usize] += 1;
                    if undirected {
                        cnt[v as usize] += 1;
                    }
                }
            }
            cnt
        })
        .collect();
    lap("count pass");

    // Prefix sum over vertices, and within each row over lanes: the row offsets, and for
    // every lane the absolute slot where its part of each row starts (its fill cursors).
    // Counts are by position; row offsets are by vertex.
    let rows = &plan.rows;
    let mut offsets = vec![0u64; n + 1];
    {
        let mut deg = vec![0u64; n];
        for (k, d) in deg.iter_mut().enumerate() {
            *d = counts.iter().map(|cnt| cnt[k] as u64).sum();
        }
        if rows.members.is_some() {
            let mut by_vertex = vec![0u64; n];
            for (k, &d) in deg.iter().enumerate() {
                by_vertex[rows.vertex(k as u64) as usize] = d;
            }
            deg = by_vertex;
        }
        for u in 0..n {
            offsets[u + 1] = offsets[u] + deg[u];
        }
    }
    let mut cursors: Vec<Vec<u64>> = Vec::with_capacity(counts.len());
    for k in 0..counts.len() {
        let mut cur: Vec<u64> = (0..n as u64)
            .map(|x| offsets[rows.vertex(x) as usize])
            .collect();
        for cnt in counts.iter().take(k) {
            for (c, &x) in cur.iter_mut().zip(cnt.iter()) {
                *c += x as u64;
            }
        }
        cursors.push(cur);
    }
    drop(counts);
    let mut indices: Vec<Index> = vec![0; offsets[n] as usize];
    lap("prefix sum");

    // Filling pass: each lane writes its buffers into its own sub-ranges. Slots are
    // claimed for a piece of a buffer first, with a prefetch of each target line, then
    // written: the misses of the scattered stores overlap instead of queueing in the store
    // buffer one by one.
    let slots = SharedSlots(indices.as_mut_ptr());
    lanes
        .par_iter()
        .zip(cursors.par_iter_mut())
        .for_each(|(&(k0, k1), cur)| {
            let slots = &slots;
            let mut claimed: Vec<(u64, u32)> = Vec::with_capacity(2 * PIECE);
            let mut pending = 0u64;
            for (b, &(c0, c1)) in bufs[k0..k1].iter().zip(&pieces[k0..k1]) {
                for piece in b.chunks(PIECE) {
                    claimed.clear();
                    for &(u, v) in piece {
                        let q = cur[u as usize];
                        cur[u as usize] = q + 1;
                        prefetch_write(slots.0, q);
                        claimed.push((q, v));
                        if undirected {
                            let q = cur[v as usize];
                            cur[v as usize] = q + 1;
                            prefetch_write(slots.0, q);
                            claimed.push((q, u));
                        }
                    }
                    for &(q, x) in claimed.iter() {
                        // SAFETY: this lane's counting pass counted exactly these
                        // edges, so row u's cursor stays inside the lane's sub-range of
                        // row u, which no other lane writes; q < nnz.
                        unsafe { *slots.0.add(q as usize) = x };
                    }
                }
                pending += c1 - c0;
                if pending >= TICK {
                    tick(pending);
                    pending = 0;
                }
            }
            tick(pending);
        });
    lap("fill pass");
    drop(cursors);
    (offsets, indices)
}

/// Hints that slot `q` of `base` is about to be written (a no-op where there is no
/// prefetch instruction).
#[inline(always)]
fn prefetch_write(base: *mut Index, q: u64) {
    #[cfg(target_arch = "x86_64")]
    {
        // wrapping_add: computing the address needs no in-bounds guarantee, and a
        // prefetch never faults.
        let p = base.wrapping_add(q as usize) as *const i8;
        // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (base, q);
    }
}

/// Maps every entry `x` to `n - 1 - x` and reverses every row (in parallel).
fn reverse_rows(offsets: &[u64], indices: &mut [Index], n: u32) {
    for_row_blocks(offsets, indices, |_, row| {
        for x in row.iter_mut() {
            *x = n - 1 - *x;
        }
        row.reverse();
    });
}

/// Runs `f(i, row)` on every row, in parallel over blocks of rows with about equal
/// entries.
pub(crate) fn for_row_blocks(
    offsets: &[u64],
    indices: &mut [Index],
    f: impl Fn(usize, &mut [Index]) + Sync,
) {
    let n = offsets.len() - 1;
    let total = offsets[n];
    let blocks = (rayon::current_num_threads() * 16).max(1) as u64;
    let mut pieces: Vec<(usize, usize, &mut [Index])> = Vec::new();
    let mut rest = indices;
    let mut r0 = 0usize;
    for k in 1..=blocks {
        let r1 = if k == blocks {
            n
        } else {
            offsets.partition_point(|&o| o < total * k / blocks).min(n)
        };
        if r1 > r0 {
            let len = (offsets[r1] - offsets[r0]) as usize;
            let (head, tail) = rest.split_at_mut(len);
            pieces.push((r0, r1, head));
            rest = tail;
            r0 = r1;
        }
    }
    pieces.into_par_iter().for_each(|(r0, r1, piece)| {
        let base = offsets[r0];
        for i in r0..r1 {
            f(
                i,
                &mut piece[(offsets[i] - base) as usize..(offsets[i + 1] - base) as usize],
            );
        }
    });
}

/// Maps every entry through `members` and sorts every row, in parallel.
fn relabel_and_sort_rows(offsets: &[u64], indices: &mut [Index], members: &[u32]) {
    for_row_blocks(offsets, indices, |_, row| {
        for x in row.iter_mut() {
            *x = members[*x as usize];
        }
        row.sort_unstable();
    });
}
