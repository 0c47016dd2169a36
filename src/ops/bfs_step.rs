//! A whole BFS level as one fused operation, for speed: the CPU backend's form of
//! `q<!visited> = q min.secondi A` (push) and `q<!visited> = A' min.secondi q` (pull),
//! with the parent and level write-back and the frontier counts in the same pass.
//!
//! The plain sequence of `vxm` / `mxv` / `assign` / `reduce` calls in
//! [`crate::algo::bfs::bfs_template`] is the reference this operation is tested against.

use crate::algebra::Index;
use crate::backend::cpu::bfs_level::{self, UNSET};
pub use crate::backend::{BfsLevels, Direction, StepCounts};
use crate::matrix::Csr;

/// The state of a breadth-first search between levels: parents, levels, the visited set
/// and the frontier, in whichever forms the last level left it (a list after push, and
/// a bitmap too when the list was large enough to sort through one; a bitmap after
/// pull), converted only when the other direction needs the other form.
///
/// # Invariants
/// A vertex has a parent exactly when it has a level; the frontier is the set of
/// vertices at level [`BfsState::depth`]. The internal visited set holds the reached
/// vertices and those [`BfsState::exclude`] ruled out.
#[derive(Clone, Debug)]
pub struct BfsState {
    n: usize,
    parents: Vec<u32>,
    levels: Vec<u32>,
    visited: Vec<u64>,
    queue: Vec<Index>,
    spare: Vec<Index>,
    bits: Vec<u64>,
    next_bits: Vec<u64>,
    queue_valid: bool,
    bits_valid: bool,
    nvals: usize,
    out_edges: u64,
    depth: u32,
    visited_count: usize,
    team: TeamSlot,
}

/// The threads that stay awake between a search's mid-sized push levels, started at
/// the first such level (a clone of the state starts its own).
#[derive(Default)]
struct TeamSlot(Option<crate::backend::cpu::team::Team>);

impl Clone for TeamSlot {
    fn clone(&self) -> Self {
        TeamSlot(None)
    }
}

impl std::fmt::Debug for TeamSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(t) => write!(f, "{t:?}"),
            None => write!(f, "no team"),
        }
    }
}

impl BfsState {
    /// The state before the first level: the given sources at level 0, each its own
    /// parent. `a` gives the vertex count and the out-degrees.
    ///
    /// # Panics
    /// If a source is not below `a.nrows()` or `a` is not square (caller contracts).
    pub fn new<T>(a: &Csr<T>, sources: &[Index]) -> Self
    where
        T: crate::algebra::Scalar,
    {
        assert_eq!(a.nrows(), a.ncols(), "A.nrows() != A.ncols()");
        let n = a.nrows();
        let words = n.div_ceil(64);
        let mut s = BfsState {
            n,
            parents: vec![UNSET; n],
            levels: vec![UNSET; n],
            visited: vec![0; words],
            queue: Vec::with_capacity(sources.len()),
            spare: Vec::new(),
            bits: Vec::new(),
            next_bits: Vec::new(),
            queue_valid: true,
            bits_valid: false,
            nvals: 0,
            out_edges: 0,
            depth: 0,
            visited_count: 0,
            team: TeamSlot::default(),
        };
        for &src in sources {
            let i = src as usize;
            assert!(i < n, "source {src} >= A.nrows() = {n}");
            if s.parents[i] == UNSET {
                s.parents[i] = src;
                s.levels[i] = 0;
                s.visited[i >> 6] |= 1 << (i & 63);
                s.queue.push(src);
                s.out_edges += a.degree(i) as u64;
            }
        }
        s.queue.sort_unstable();
        s.nvals = s.queue.len();
        s.visited_count = s.nvals;
        s
    }

    /// Marks vertices no search can reach from outside (those without in-arcs, as
    /// presence words) so that pull levels skip them. Sources keep their state.
    ///
    /// # Panics
    /// If `bits` does not have one word per 64 vertices.
    pub fn exclude(&mut self, bits: &[u64]) {
        assert_eq!(bits.len(), self.visited.len(), "bits.len() != ceil(n / 64)");
        for (v, &b) in self.visited.iter_mut().zip(bits) {
            *v |= b;
        }
    }

    /// Number of vertices of the graph.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the graph has no vertices.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The level of the current frontier.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Number of vertices in the frontier.
    pub fn frontier_vertices(&self) -> usize {
        self.nvals
    }

    /// Sum of the out-degrees of the frontier.
    pub fn frontier_edges(&self) -> u64 {
        self.out_edges
    }

    /// Number of visited vertices (the frontier included).
    pub fn visited_vertices(&self) -> usize {
        self.visited_count
    }

    /// Whether vertex `v` has been reached.
    pub fn is_visited(&self, v: usize) -> bool {
        self.parents[v] != UNSET
    }

    /// Parents so far (`u32::MAX` where unreached).
    pub fn parents(&self) -> &[u32] {
        &self.parents
    }

    /// Levels so far (`u32::MAX` where unreached).
    pub fn levels(&self) -> &[u32] {
        &self.levels
    }

    /// Takes the state apart: `(parents, levels)`, `u32::MAX` where unreached.
    pub fn into_parts(self) -> (Vec<u32>, Vec<u32>) {
        (self.parents, self.levels)
    }
}

/// One BFS level, fused:
///
/// ```text
/// push: q<!visited> = q min.secondi A      (vxm over the frontier's out-edges)
/// pull: q<!visited> = A' min.secondi q     (mxv over unvisited rows of A', early exit)
/// parents<q> = q ; levels<q> = depth + 1 ; visited += q
/// ```
///
/// `a` is the adjacency (out-edges); `at` its transpose (in-edges), needed only for
/// pull; for a symmetric graph pass `a` itself. Parents are the smallest frontier vertex
/// with an arc, in both directions and for every thread count.
///
/// # Panics
/// If `dir` is [`Direction::Pull`] and `at` is `None`, or the matrices do not have the
/// state's size (caller contracts).
///
/// # Complexity
/// Push: O(out-arcs of the frontier). Pull: O(n / 64 + in-arcs scanned by the unvisited
/// vertices up to their first frontier parent).
pub fn bfs_step<T, U>(
    state: &mut BfsState,
    a: &Csr<T>,
    at: Option<&Csr<U>>,
    dir: Direction,
) -> StepCounts
where
    T: crate::algebra::Scalar,
    U: crate::algebra::Scalar,
{
    assert_eq!(a.nrows(), state.n, "A.nrows() != state.len()");
    let sequential = rayon::current_num_threads() == 1;
    let next_depth = state.depth + 1;
    let c = match dir {
        Direction::Push => {
            if !state.queue_valid {
                bfs_level::bits_to_queue(&state.bits, &mut state.queue, sequential);
                state.queue_valid = true;
            }
            let words = state.n.div_ceil(64);
            if state.next_bits.len() != words {
                state.next_bits = vec![0; words];
            }
            let mut next = std::mem::take(&mut state.spare);
            let threads = rayon::current_num_threads();
            if threads > 1
                && (bfs_level::PUSH_TEAM_ARCS..bfs_level::PUSH_PARALLEL_ARCS)
                    .contains(&state.out_edges)
                && state.team.0.as_ref().is_none_or(|t| t.threads() != threads)
            {
                state.team.0 = Some(crate::backend::cpu::team::Team::new(threads));
            }
            let (c, sorted) = bfs_level::push_level(
                a.offsets(),
                a.indices(),
                &state.queue,
                state.out_edges,
                &mut state.visited,
                &mut state.parents,
                &mut state.levels,
                next_depth,
                &mut next,
                &mut state.next_bits,
                sequential,
                state.team.0.as_ref(),
            );
            state.spare = std::mem::replace(&mut state.queue, next);
            if sorted {
                std::mem::swap(&mut state.bits, &mut state.next_bits);
            }
            state.bits_valid = sorted;
            c
        }
        Direction::Pull => {
            let at = at.expect("pull needs the in-edges (at)");
            assert_eq!(at.nrows(), state.n, "At.nrows() != state.len()");
            let words = state.n.div_ceil(64);
            if state.bits.len() != words {
                state.bits = vec![0; words];
            }
            if state.next_bits.len() != words {
                state.next_bits = vec![0; words];
            }
            if !state.bits_valid {
                bfs_level::queue_to_bits(&state.queue, &mut state.bits);
            }
            let sequential = sequential
                || (state.n < crate::backend::cpu::SEQUENTIAL_WORK
                    && (at.nnz() as u64) < crate::backend::cpu::SEQUENTIAL_WORK as u64);
            let c = bfs_level::pull_level(
                at.offsets(),
                at.indices(),
                a.offsets(),
                &state.bits,
                &mut state.visited,
                &mut state.next_bits,
                &mut state.parents,
                &mut state.levels,
                next_depth,
                sequential,
            );
            std::mem::swap(&mut state.bits, &mut state.next_bits);
            state.bits_valid = true;
            state.queue_valid = false;
            c
        }
    };
    state.depth = next_depth;
    state.nvals = c.vertices;
    state.out_edges = c.out_edges;
    state.visited_count += c.vertices;
    StepCounts {
        vertices: c.vertices,
        out_edges: c.out_edges,
        examined: c.examined,
    }
}
