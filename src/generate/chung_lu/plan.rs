//! The plan of a Chung-Lu generation: degree groups, the tasks T(i, j) between them, their
//! edge probabilities and fixed-size chunks, and the exact decoding of pair numbers. The
//! plan depends only on the degree distribution and the options, never on the seed or the
//! thread count: it is what a CPU run and a GPU run share.

use super::Degrees;
use super::coarsen::{Coarsen, coarsen_runs, merged_weight};
use crate::error::{Error, Result};

/// Expected edges per chunk. A chunk is the unit of randomness (its own stream) and of
/// scheduling; its length in pairs is `ceil(CHUNK_EDGES / p)`, fixed by the plan.
pub const CHUNK_EDGES: f64 = 4096.0;

/// The cost model of Alam and Perumalla, `c = alpha + beta m`, for a chunk expected to
/// produce `m` edges: `alpha` is the fixed cost of starting a chunk (a stream key, a first
/// decode) in units of one edge's cost.
pub const COST_ALPHA: f64 = 24.0;
/// See [`COST_ALPHA`].
pub const COST_BETA: f64 = 1.0;

/// The cost, under `c = alpha + beta m`, of a [piece](Plan::pieces): the unit of dynamic
/// scheduling on the CPU. About 64K edges: small enough for dynamic balance (a few
/// hundred pieces per 10M edges), large enough that taking one is free.
pub const PIECE_COST: f64 = 65536.0;

/// One side of the groups: vertices of equal expected degree, ascending by degree.
#[derive(Clone, Debug, PartialEq)]
pub struct Groups {
    /// The expected degree (weight) of each group's vertices, ascending.
    pub weight: Vec<f64>,
    /// `start[g]..start[g + 1]` are group `g`'s positions in the vertex order; `G + 1`
    /// entries.
    pub start: Vec<u64>,
    /// The vertex at each position, when the vertex order is not the identity (a degree
    /// sequence keeps the user's numbering); `None`: position `k` is vertex `k`, so group
    /// `g` is the vertices `start[g]..start[g + 1]`.
    pub members: Option<Vec<u32>>,
    /// Whether position `k` is vertex `n - 1 - k` (a non-increasing degree sequence, as
    /// benchmarks write them): rows are then fixed up by a reversal instead of a sort.
    pub reversed: bool,
    /// The input histogram: `(degree, count)` ascending, before coarsening.
    pub input_hist: Vec<(u64, u64)>,
}

impl Groups {
    /// Number of groups.
    pub fn len(&self) -> usize {
        self.weight.len()
    }

    /// Whether there are no groups.
    pub fn is_empty(&self) -> bool {
        self.weight.is_empty()
    }

    /// Vertices in group `g`.
    #[inline]
    pub fn count(&self, g: usize) -> u64 {
        self.start[g + 1] - self.start[g]
    }

    /// The vertex at position `k` of the vertex order.
    #[inline(always)]
    pub fn vertex(&self, k: u64) -> u32 {
        match &self.members {
            None => k as u32,
            Some(m) => m[k as usize],
        }
    }

    /// The group of every vertex (for reports).
    pub fn group_of_vertices(&self, n: usize) -> Vec<u32> {
        let mut out = vec![0u32; n];
        for g in 0..self.len() {
            for k in self.start[g]..self.start[g + 1] {
                out[self.vertex(k) as usize] = g as u32;
            }
        }
        out
    }

    /// Groups from a histogram `(degree, count)` (ascending, distinct degrees): vertices
    /// numbered contiguously, group by group.
    fn from_histogram(hist: &[(u64, u64)]) -> Groups {
        let mut start = vec![0u64];
        let mut weight = Vec::new();
        for &(d, c) in hist {
            if c > 0 {
                weight.push(d as f64);
                start.push(start.last().copied().unwrap_or(0) + c);
            }
        }
        Groups {
            weight,
            start,
            members: None,
            reversed: false,
            input_hist: hist.iter().copied().filter(|&(_, c)| c > 0).collect(),
        }
    }

    /// Groups from one expected degree per vertex: group members in increasing vertex
    /// order, so vertex `i` keeps its number.
    fn from_sequence(seq: &[u64]) -> Groups {
        let ascending = seq.windows(2).all(|w| w[0] <= w[1]);
        let reversed = !ascending && seq.windows(2).all(|w| w[0] >= w[1]);
        let mut order: Vec<u32> = (0..seq.len() as u32).collect();
        if reversed {
            // Degree ascending, ties by descending id: position k is vertex n - 1 - k.
            order.reverse();
        } else {
            order.sort_by_key(|&v| (seq[v as usize], v));
        }
        let mut start = vec![0u64];
        let mut weight = Vec::new();
        let mut input_hist = Vec::new();
        let mut k = 0usize;
        while k < order.len() {
            let d = seq[order[k] as usize];
            let mut e = k + 1;
            while e < order.len() && seq[order[e] as usize] == d {
                e += 1;
            }
            weight.push(d as f64);
            start.push(e as u64);
            input_hist.push((d, (e - k) as u64));
            k = e;
        }
        let identity = order.iter().enumerate().all(|(k, &v)| k as u32 == v);
        Groups {
            weight,
            start,
            members: if identity { None } else { Some(order) },
            reversed: reversed && !identity,
            input_hist,
        }
    }

    /// Merges groups as `c` says; the vertex order does not change.
    fn coarsen(&mut self, c: &Coarsen) {
        let runs = coarsen_runs(&self.weight, c);
        let counts: Vec<u64> = (0..self.len()).map(|g| self.count(g)).collect();
        let mut weight = Vec::with_capacity(runs.len() - 1);
        let mut start = Vec::with_capacity(runs.len());
        start.push(0);
        for w in runs.windows(2) {
            weight.push(merged_weight(&self.weight[w[0]..w[1]], &counts[w[0]..w[1]]));
            start.push(self.start[w[1]]);
        }
        self.weight = weight;
        self.start = start;
    }
}

/// What a task generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskKind {
    /// Undirected, within group `i`: Erdos-Renyi `G(n_i, p)` over the `n_i (n_i - 1) / 2`
    /// pairs `(a, b)`, `a > b`, numbered `a (a - 1) / 2 + b`.
    Intra,
    /// Undirected, between groups `i > j`: a random bipartite graph over the `n_i n_j`
    /// pairs `(a, b)`, numbered `a n_j + b`.
    Inter,
    /// Directed, from out-group `i` to in-group `j`: arcs over the `n_i m_j` pairs
    /// `(a, b)`, numbered `a m_j + b`; a pair that is the same vertex twice is dropped.
    Arcs,
}

/// Task `T(i, j)`: the edges between groups `i` and `j`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Task {
    /// The task number: `i (i + 1) / 2 + j` undirected (0-based `i >= j`), `i G_in + j`
    /// directed. It keys the random streams, so it depends on the groups only.
    pub id: u64,
    /// The row-side group.
    pub i: u32,
    /// The column-side group.
    pub j: u32,
    /// What the task generates.
    pub kind: TaskKind,
    /// Number of candidate pairs.
    pub pairs: u64,
    /// Edge probability of every pair, `min(1, w_i w_j / S)`.
    pub p: f64,
    /// `1 / ln(1 - p)` (negative; unused when `p == 1`).
    pub inv_log_q: f64,
    /// Pairs per chunk (the last chunk may be shorter).
    pub chunk_pairs: u64,
    /// The global number of the task's first chunk.
    pub first_chunk: u64,
}

impl Task {
    /// Number of chunks.
    pub fn chunks(&self) -> u64 {
        self.pairs.div_ceil(self.chunk_pairs)
    }

    /// Expected number of edges, `pairs * p`.
    pub fn expected_edges(&self) -> f64 {
        self.pairs as f64 * self.p
    }
}

/// Options of a plan.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlanOptions {
    /// Merge close degree groups (see [`Coarsen`]).
    pub coarsen: Option<Coarsen>,
    /// Generate arcs with an out-degree and an in-degree per vertex. An undirected
    /// [`Degrees`] then gives every vertex the same out- and in-degree.
    pub directed: bool,
}

/// Everything about a generation but its seed.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Number of vertices.
    pub n: usize,
    /// Whether arcs are generated (else undirected edges, stored both ways).
    pub directed: bool,
    /// `S`, the sum of expected (out-)degrees.
    pub s: f64,
    /// The groups (out-groups when directed).
    pub rows: Groups,
    /// The in-groups when directed; `None` undirected.
    pub cols: Option<Groups>,
    /// Groups before coarsening (rows side, and columns side when directed).
    pub groups_before: (usize, usize),
    /// Whether some `w_i w_j > S`, so that `p` was clamped to 1.
    pub clamped: bool,
    /// The tasks with at least one pair and `p > 0`, by task number.
    pub tasks: Vec<Task>,
    /// Total number of chunks.
    pub chunks: u64,
}

impl Plan {
    /// Plans a generation from a degree distribution.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the distribution has no vertices, more than
    /// `u32::MAX` of them, or a directed distribution is asked to be undirected.
    pub fn new(degrees: &Degrees, opts: &PlanOptions) -> Result<Plan> {
        let n = degrees.vertices();
        if n == 0 {
            return Err(Error::InvalidArgument(
                "the degree distribution has no vertices".into(),
            ));
        }
        if n > u32::MAX as u64 {
            return Err(Error::InvalidArgument(format!(
                "{n} vertices: at most {} are supported (u32 vertex ids)",
                u32::MAX
            )));
        }
        let directed = opts.directed || matches!(degrees, Degrees::Directed { .. });
        let (mut rows, mut cols) = match degrees {
            Degrees::Sequence(s) => {
                let g = Groups::from_sequence(s);
                let c = directed.then(|| g.clone());
                (g, c)
            }
            Degrees::Histogram(h) => {
                let g = Groups::from_histogram(h);
                let c = directed.then(|| g.clone());
                (g, c)
            }
            Degrees::Directed { out, inn } => {
                (Groups::from_sequence(out), Some(Groups::from_sequence(inn)))
            }
        };
        let groups_before = (rows.len(), cols.as_ref().map_or(0, |c| c.len()));
        if let Some(c) = &opts.coarsen {
            rows.coarsen(c);
            if let Some(cg) = cols.as_mut() {
                cg.coarsen(c);
            }
        }
        let s = degrees.sum_out() as f64;
        let mut plan = Plan {
            n: n as usize,
            directed,
            s,
            rows,
            cols,
            groups_before,
            clamped: false,
            tasks: Vec::new(),
            chunks: 0,
        };
        plan.make_tasks();
        Ok(plan)
    }

    fn make_tasks(&mut self) {
        let s = self.s;
        let mut tasks = Vec::new();
        let mut clamped = false;
        let mut next_chunk = 0u64;
        let mut push = |id: u64, i: usize, j: usize, kind: TaskKind, pairs: u64, w: f64| {
            if pairs == 0 || w.is_nan() || w <= 0.0 || s.is_nan() || s <= 0.0 {
                return;
            }
            let raw = w / s;
            let p = raw.min(1.0);
            if raw > 1.0 {
                clamped = true;
            }
            let (inv_log_q, chunk_pairs) = if p >= 1.0 {
                (f64::NEG_INFINITY, (CHUNK_EDGES as u64).min(pairs))
            } else {
                let per = (CHUNK_EDGES / p).ceil();
                let cp = if per >= pairs as f64 {
                    pairs
                } else {
                    (per as u64).clamp(1, pairs)
                };
                (1.0 / (-p).ln_1p(), cp)
            };
            let t = Task {
                id,
                i: i as u32,
                j: j as u32,
                kind,
                pairs,
                p,
                inv_log_q,
                chunk_pairs,
                first_chunk: next_chunk,
            };
            next_chunk += t.chunks();
            tasks.push(t);
        };
        match &self.cols {
            None => {
                let g = &self.rows;
                for i in 0..g.len() {
                    let ni = g.count(i);
                    for j in 0..=i {
                        let id = (i as u64) * (i as u64 + 1) / 2 + j as u64;
                        let w = g.weight[i] * g.weight[j];
                        if i == j {
                            push(id, i, j, TaskKind::Intra, ni * ni.saturating_sub(1) / 2, w);
                        } else {
                            push(id, i, j, TaskKind::Inter, ni * g.count(j), w);
                        }
                    }
                }
            }
            Some(c) => {
                let r = &self.rows;
                let gc = c.len() as u64;
                for i in 0..r.len() {
                    for j in 0..c.len() {
                        let id = i as u64 * gc + j as u64;
                        let w = r.weight[i] * c.weight[j];
                        push(id, i, j, TaskKind::Arcs, r.count(i) * c.count(j), w);
                    }
                }
            }
        }
        self.tasks = tasks;
        self.clamped = clamped;
        self.chunks = next_chunk;
    }

    /// The column-side groups: the in-groups when directed, the groups otherwise.
    pub fn col_groups(&self) -> &Groups {
        self.cols.as_ref().unwrap_or(&self.rows)
    }

    /// The expected number of edges (arcs when directed), `sum p N` over the tasks, and
    /// its variance `sum p (1 - p) N` (pairs are independent). Directed pairs of a vertex
    /// with itself are counted here although they are dropped; [`super::report`] takes
    /// them out exactly.
    pub fn expected_edges(&self) -> (f64, f64) {
        let mut m = 0.0;
        let mut v = 0.0;
        for t in &self.tasks {
            m += t.expected_edges();
            v += t.expected_edges() * (1.0 - t.p);
        }
        (m, v)
    }

    /// The lanes of a run on `threads` threads: consecutive ranges `[c0, c1)` of global
    /// chunk numbers covering all chunks, of about equal cost under the model
    /// `c = alpha + beta m` (see [`COST_ALPHA`]): the CUDA backend's load-balanced static
    /// schedule, and the ranks' shares of an MPI run (the CPU takes
    /// [pieces](Plan::pieces) dynamically instead). Lanes affect
    /// only scheduling and memory, never the output.
    pub fn lanes(&self, threads: usize) -> Vec<(u64, u64)> {
        let lanes = threads.clamp(1, self.chunks.max(1) as usize);
        let chunk_cost = |t: &Task| COST_ALPHA + COST_BETA * t.chunk_pairs as f64 * t.p;
        let total: f64 = self
            .tasks
            .iter()
            .map(|t| t.chunks() as f64 * chunk_cost(t))
            .sum();
        let mut out = Vec::with_capacity(lanes);
        let mut c0 = 0u64;
        let mut acc = 0.0;
        let mut k = 1usize;
        for t in &self.tasks {
            let cc = chunk_cost(t);
            let nch = t.chunks();
            let mut done = 0u64;
            while k < lanes && done < nch {
                // Chunks of this task still needed to reach lane k's cost boundary.
                let goal = total * k as f64 / lanes as f64;
                let need = ((goal - acc) / cc).ceil().max(0.0);
                if need > (nch - done) as f64 {
                    break;
                }
                let take = need as u64;
                acc += take as f64 * cc;
                done += take;
                let c1 = t.first_chunk + done;
                if c1 > c0 {
                    out.push((c0, c1));
                    c0 = c1;
                }
                k += 1;
            }
            acc += (nch - done) as f64 * cc;
        }
        out.push((c0, self.chunks));
        out
    }

    /// The pieces of the CPU generator: consecutive ranges `[c0, c1)` of global chunk
    /// numbers covering all chunks, each of cost about [`PIECE_COST`] under
    /// `c = alpha + beta m` (a chunk is never split, so a piece may cost more). They
    /// depend on the plan only; like lanes, they never affect the output.
    pub fn pieces(&self) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        let mut c0 = 0u64;
        let mut acc = 0.0;
        for t in &self.tasks {
            let cc = COST_ALPHA + COST_BETA * t.chunk_pairs as f64 * t.p;
            let nch = t.chunks();
            let mut done = 0u64;
            while done < nch {
                let need = ((PIECE_COST - acc) / cc).ceil().max(1.0);
                if need > (nch - done) as f64 {
                    acc += (nch - done) as f64 * cc;
                    break;
                }
                done += need as u64;
                out.push((c0, t.first_chunk + done));
                c0 = t.first_chunk + done;
                acc = 0.0;
            }
        }
        if c0 < self.chunks || out.is_empty() {
            out.push((c0, self.chunks));
        }
        out
    }

    /// The index in [`Plan::tasks`] of the task that owns global chunk `c`.
    pub fn task_of_chunk(&self, c: u64) -> usize {
        self.tasks.partition_point(|t| t.first_chunk <= c) - 1
    }
}

/// `a (a - 1) / 2` in 128 bits: the number of pairs below row `a` of the triangle.
#[inline(always)]
fn tri(a: u64) -> u128 {
    a as u128 * (a as u128).wrapping_sub(1) / 2
}

/// The pair `(a, b)`, `a > b >= 0`, numbered `pos = a (a - 1) / 2 + b`: exact for every
/// `pos < 2^64`. A floating-point square root gives `a` to within a few units beyond
/// `2^53`; integer steps then correct it.
///
/// ```
/// use edgeblas::generate::chung_lu::decode_triangle;
/// assert_eq!(decode_triangle(0), (1, 0));
/// assert_eq!(decode_triangle(1), (2, 0));
/// assert_eq!(decode_triangle(2), (2, 1));
/// assert_eq!(decode_triangle(3), (3, 0));
/// ```
#[inline]
pub fn decode_triangle(pos: u64) -> (u64, u64) {
    let x = 8.0 * pos as f64 + 1.0;
    let mut a = ((1.0 + x.sqrt()) * 0.5) as u64;
    let p = pos as u128;
    while a > 1 && tri(a) > p {
        a -= 1;
    }
    while tri(a + 1) <= p {
        a += 1;
    }
    (a, (p - tri(a)) as u64)
}
