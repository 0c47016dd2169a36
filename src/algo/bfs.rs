//! Breadth-first search from one or more sources, direction-optimizing, with the
//! switching rule as a policy value ([`Beamer`], [`Gunrock`], [`Ligra`], [`Xbfs`],
//! [`Push`], [`Pull`], or a user's own [`Policy`]).
//!
//! One level is `q<!visited> = q min.secondi A` (push) or `q<!visited> = A' min.secondi q`
//! (pull). Either way the parent of `v` is the smallest-index vertex of the previous
//! level with an arc to `v`, so every direction, policy and thread count returns the
//! same parents and levels. [`bfs_template`] is the plain sequence of library calls;
//! [`bfs`] runs the same levels through the fused [`ops::bfs_step`].

use std::time::Instant;

use crate::algebra::{Index, MinSecondI, Plus, Scalar};
use crate::descriptor::{Descriptor, Mask};
use crate::error::{Error, Result};
use crate::matrix::Csr;
use crate::ops::{self, BfsState};
use crate::vector::Vector;

pub use crate::ops::Direction;

/// A graph prepared for traversal: the one [`Graph`] every algorithm takes, under the
/// name BFS has always used.
pub type BfsGraph<'a, T> = Graph<'a, T>;

pub use crate::graph::{Graph, is_symmetric_pattern};

/// What a switching policy sees before each level: counts the library computes with
/// reduce over the frontier and the visited set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelState {
    /// The level of the frontier about to be expanded (0 for the sources).
    pub depth: u32,
    /// Vertices of the graph, `n`.
    pub vertices: usize,
    /// Arcs of the graph, `m`.
    pub arcs: u64,
    /// Vertices in the frontier, `|F|`.
    pub frontier_vertices: usize,
    /// Sum of the out-degrees of the frontier, `m_f`.
    pub frontier_edges: u64,
    /// `|F|` of the previous level (0 before the first).
    pub previous_frontier_vertices: usize,
    /// Vertices visited so far, the frontier included.
    pub visited_vertices: usize,
    /// Sum of the out-degrees of the unvisited vertices, `m_u`.
    pub unvisited_edges: u64,
    /// The direction of the previous level ([`Direction::Push`] before the first).
    pub previous: Direction,
    /// Whether any earlier level pulled.
    pub has_pulled: bool,
}

/// A direction-switching rule: decides, from the counts of [`LevelState`], whether the
/// next level pushes or pulls. Implementations are immutable values; a rule that
/// needs history reads it from the state (previous direction, previous frontier).
pub trait Policy: Send + Sync {
    /// A short name for traces and reports.
    fn name(&self) -> String;
    /// The direction of the next level.
    fn direction(&self, s: &LevelState) -> Direction;
}

/// Beamer, Asanovic and Patterson, "Direction-Optimizing Breadth-First Search" (SC 2012)
/// as in gapbs: push to pull when `m_f > m_u / alpha`; pull back to push when the
/// frontier shrinks and `|F| < n / beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Beamer {
    /// Push-to-pull threshold (15 in the paper and gapbs).
    pub alpha: f64,
    /// Pull-to-push threshold (18).
    pub beta: f64,
}

impl Default for Beamer {
    fn default() -> Self {
        Beamer {
            alpha: 15.0,
            beta: 18.0,
        }
    }
}

impl Policy for Beamer {
    fn name(&self) -> String {
        format!("beamer(alpha={}, beta={})", self.alpha, self.beta)
    }
    fn direction(&self, s: &LevelState) -> Direction {
        match s.previous {
            Direction::Push => {
                if s.frontier_edges as f64 > s.unvisited_edges as f64 / self.alpha {
                    Direction::Pull
                } else {
                    Direction::Push
                }
            }
            Direction::Pull => {
                let growing = s.frontier_vertices >= s.previous_frontier_vertices;
                if growing || s.frontier_vertices as f64 > s.vertices as f64 / self.beta {
                    Direction::Pull
                } else {
                    Direction::Push
                }
            }
        }
    }
}

/// Gunrock's rule (Wang et al., "Gunrock", PPoPP 2016; `bfs_enactor.cuh`): with
/// `forward = |F| m / n` and `backward = unvisited n / visited` predicted visits, push
/// to pull when `forward > backward * do_a` (only if no level pulled before), pull stays
/// while `forward > backward * do_b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gunrock {
    /// Push-to-pull factor (0.001).
    pub do_a: f64,
    /// Pull-to-push factor (0.2).
    pub do_b: f64,
}

impl Default for Gunrock {
    fn default() -> Self {
        Gunrock {
            do_a: 0.001,
            do_b: 0.2,
        }
    }
}

impl Policy for Gunrock {
    fn name(&self) -> String {
        format!("gunrock(do_a={}, do_b={})", self.do_a, self.do_b)
    }
    fn direction(&self, s: &LevelState) -> Direction {
        let n = s.vertices.max(1) as f64;
        let visited = s.visited_vertices as f64;
        let unvisited = n - visited;
        let backward = if visited == 0.0 {
            f64::INFINITY
        } else {
            unvisited * n / visited
        };
        let forward = s.frontier_vertices as f64 * s.arcs as f64 / n;
        let pull = match s.previous {
            Direction::Push => forward > backward * self.do_a && !s.has_pulled,
            Direction::Pull => forward > backward * self.do_b,
        };
        if pull {
            Direction::Pull
        } else {
            Direction::Push
        }
    }
}

/// Ligra's rule (Shun and Blelloch, PPoPP 2013, `edgeMap`): pull when
/// `|F| + m_f > m / threshold`, decided afresh at every level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ligra {
    /// The divisor of `m` (20: pull above `m / 20`).
    pub threshold: f64,
}

impl Default for Ligra {
    fn default() -> Self {
        Ligra { threshold: 20.0 }
    }
}

impl Policy for Ligra {
    fn name(&self) -> String {
        format!("ligra(threshold=m/{})", self.threshold)
    }
    fn direction(&self, s: &LevelState) -> Direction {
        if (s.frontier_vertices as u64 + s.frontier_edges) as f64 > s.arcs as f64 / self.threshold {
            Direction::Pull
        } else {
            Direction::Push
        }
    }
}

/// XBFS's rule (Gaihre et al., HPDC 2019): pull when the frontier's share of the arcs,
/// `m_f / m`, is at least `alpha`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Xbfs {
    /// The share of arcs above which a level pulls (0.1).
    pub alpha: f64,
}

impl Default for Xbfs {
    fn default() -> Self {
        Xbfs { alpha: 0.1 }
    }
}

impl Policy for Xbfs {
    fn name(&self) -> String {
        format!("xbfs(alpha={})", self.alpha)
    }
    fn direction(&self, s: &LevelState) -> Direction {
        if s.arcs > 0 && s.frontier_edges as f64 / s.arcs as f64 >= self.alpha {
            Direction::Pull
        } else {
            Direction::Push
        }
    }
}

/// Always push (top-down).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Push;

impl Policy for Push {
    fn name(&self) -> String {
        "push".into()
    }
    fn direction(&self, _: &LevelState) -> Direction {
        Direction::Push
    }
}

/// Always pull (bottom-up).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pull;

impl Policy for Pull {
    fn name(&self) -> String {
        "pull".into()
    }
    fn direction(&self, _: &LevelState) -> Direction {
        Direction::Pull
    }
}

/// Every built-in switching rule with its published parameters: [`Beamer`],
/// [`Gunrock`], [`Ligra`], [`Xbfs`], [`Push`] and [`Pull`], in that order.
pub fn builtin_policies() -> Vec<Box<dyn Policy>> {
    vec![
        Box::new(Beamer::default()),
        Box::new(Gunrock::default()),
        Box::new(Ligra::default()),
        Box::new(Xbfs::default()),
        Box::new(Push),
        Box::new(Pull),
    ]
}

/// Options of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BfsOptions {
    /// Record a [`LevelTrace`] per level.
    pub trace: bool,
    /// Reach no vertex deeper than this level.
    pub max_depth: Option<u32>,
    /// Stop after the level that reaches this vertex.
    pub target: Option<Index>,
}

/// One level of a search, as recorded on request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelTrace {
    /// The level of the frontier that was expanded.
    pub level: u32,
    /// The direction chosen.
    pub direction: Direction,
    /// Vertices in the frontier.
    pub frontier_vertices: usize,
    /// Sum of their out-degrees.
    pub frontier_edges: u64,
    /// Arcs the level looked at.
    pub edges_examined: u64,
    /// Seconds the level took (the decision included).
    pub seconds: f64,
}

/// The result of a search. `u32::MAX` marks an unreached vertex in both arrays.
#[derive(Clone, Debug, PartialEq)]
pub struct BfsResult {
    /// `parents[v]`: the smallest-index vertex of the previous level with an arc to `v`;
    /// a source is its own parent.
    pub parents: Vec<Index>,
    /// `levels[v]`: the hop distance from the nearest source.
    pub levels: Vec<u32>,
    /// Vertices reached (the sources included).
    pub reached: usize,
    /// The deepest level reached.
    pub max_depth: u32,
    /// `false` when a depth limit or a target stopped the search before the frontier
    /// ran empty: vertices at `max_depth` were then not expanded.
    pub complete: bool,
    /// Per-level trace, when asked for.
    pub trace: Vec<LevelTrace>,
}

impl BfsResult {
    /// The marker of an unreached vertex.
    pub const UNREACHED: u32 = u32::MAX;

    /// The level of `v`, if reached.
    pub fn level(&self, v: usize) -> Option<u32> {
        let l = self.levels[v];
        (l != Self::UNREACHED).then_some(l)
    }

    /// The parent of `v`, if reached.
    pub fn parent(&self, v: usize) -> Option<Index> {
        let p = self.parents[v];
        (p != Self::UNREACHED).then_some(p)
    }

    /// Sum of the levels of the reached vertices.
    pub fn depth_sum(&self) -> u64 {
        self.levels
            .iter()
            .filter(|&&l| l != Self::UNREACHED)
            .map(|&l| l as u64)
            .sum()
    }

    /// Arcs whose tail was reached, over 2: the undirected edges of the traversed part
    /// of a symmetric graph, the numerator of Graph500 TEPS.
    pub fn traversed_edges<T: Scalar>(&self, a: &Csr<T>) -> u64 {
        let arcs: u64 = (0..a.nrows())
            .filter(|&v| self.levels[v] != Self::UNREACHED)
            .map(|v| a.degree(v) as u64)
            .sum();
        arcs / 2
    }
}

pub(crate) fn check_sources<T: Scalar>(
    g: &BfsGraph<'_, T>,
    sources: &[Index],
    opts: &BfsOptions,
) -> Result<()> {
    let a = g.adjacency();
    if a.nrows() != a.ncols() {
        return Err(Error::InvalidArgument(format!(
            "bfs needs a square adjacency, not {} x {}",
            a.nrows(),
            a.ncols()
        )));
    }
    check_source_ids(a.nrows(), sources, opts)
}

/// The checks every backend's search makes before it starts (the CPU, the GPU and the
/// distributed one): at least one source, and every source and the target below `n`.
pub(crate) fn check_source_ids(n: usize, sources: &[Index], opts: &BfsOptions) -> Result<()> {
    if sources.is_empty() {
        return Err(Error::InvalidArgument(
            "bfs needs at least one source".into(),
        ));
    }
    for &s in sources.iter().chain(opts.target.iter()) {
        if s as usize >= n {
            return Err(Error::InvalidArgument(format!(
                "vertex {s} is not in the graph ({n} vertices)"
            )));
        }
    }
    Ok(())
}

/// Breadth-first search from `sources`, each level's direction chosen by `policy`.
///
/// # Arguments
/// * `g` - the graph (its in-edges are built on the first pull unless symmetric);
/// * `sources` - one or more vertices at level 0 (each its own parent);
/// * `policy` - the switching rule;
/// * `opts` - trace, depth limit, target.
///
/// # Returns
/// Parents and levels (identical for every policy and thread count), the reached count,
/// the deepest level and, on request, the per-level trace.
///
/// # Errors
/// [`Error::InvalidArgument`] for no source, a source or target outside the graph, or a
/// non-square adjacency.
///
/// # Complexity
/// O(n + m) push; each pull level O(n / 64 + in-arcs scanned).
///
/// # Example
/// ```
/// use edgeblas::algo::bfs::{bfs, Beamer, BfsGraph, BfsOptions};
/// use edgeblas::prelude::*;
/// //  0 -> 1 -> 3
/// //  0 -> 2 -> 3 -> 4
/// let mut b = CooBuilder::new(5, 5);
/// for (i, j) in [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)] {
///     b.push(i, j, ()).unwrap();
/// }
/// let a = b.build(Duplicates::Error).unwrap();
/// let r = bfs(&BfsGraph::directed(&a), &[0], &Beamer::default(), &BfsOptions::default()).unwrap();
/// assert_eq!(r.levels, vec![0, 1, 1, 2, 3]);
/// assert_eq!(r.parents, vec![0, 0, 0, 1, 3]);
/// ```
pub fn bfs<T: Scalar>(
    g: &BfsGraph<'_, T>,
    sources: &[Index],
    policy: &dyn Policy,
    opts: &BfsOptions,
) -> Result<BfsResult> {
    check_sources(g, sources, opts)?;
    let levels = CpuLevels {
        g,
        state: BfsState::new(g.adjacency(), sources),
        excluded: false,
    };
    let ((parents, levels), s) = drive(
        levels,
        g.adjacency().nrows(),
        g.adjacency().nnz() as u64,
        policy,
        opts,
    )?;
    Ok(s.with(parents, levels))
}

/// What a search found besides parents and levels.
#[derive(Clone, Debug)]
pub(crate) struct Summary {
    pub(crate) reached: usize,
    pub(crate) max_depth: u32,
    pub(crate) complete: bool,
    pub(crate) trace: Vec<LevelTrace>,
}

impl Summary {
    pub(crate) fn with(self, parents: Vec<Index>, levels: Vec<u32>) -> BfsResult {
        BfsResult {
            parents,
            levels,
            reached: self.reached,
            max_depth: self.max_depth,
            complete: self.complete,
            trace: self.trace,
        }
    }
}

/// The CPU backend's search state with the graph it runs on.
struct CpuLevels<'g, 'a, T> {
    g: &'g BfsGraph<'a, T>,
    state: BfsState,
    excluded: bool,
}

impl<T: Scalar> ops::BfsLevels for CpuLevels<'_, '_, T> {
    fn depth(&self) -> u32 {
        self.state.depth()
    }
    fn frontier_vertices(&self) -> usize {
        self.state.frontier_vertices()
    }
    fn frontier_edges(&self) -> u64 {
        self.state.frontier_edges()
    }
    fn visited_vertices(&self) -> usize {
        self.state.visited_vertices()
    }
    fn is_reached(&mut self, v: usize) -> Result<bool> {
        Ok(self.state.is_visited(v))
    }
    fn step(&mut self, dir: Direction) -> Result<ops::StepCounts> {
        let g = self.g;
        if dir == Direction::Pull && !self.excluded {
            self.state.exclude(g.unreachable());
            self.excluded = true;
        }
        Ok(match dir {
            Direction::Push => ops::bfs_step(&mut self.state, g.adjacency(), None::<&Csr<()>>, dir),
            Direction::Pull if g.is_symmetric() => {
                ops::bfs_step(&mut self.state, g.adjacency(), Some(g.adjacency()), dir)
            }
            Direction::Pull => {
                ops::bfs_step(&mut self.state, g.adjacency(), Some(g.in_edges()), dir)
            }
        })
    }
    type Output = (Vec<u32>, Vec<u32>);
    fn finish(self) -> Result<(Vec<u32>, Vec<u32>)> {
        Ok(self.state.into_parts())
    }
}

/// The search loop, over any backend's levels: asks `policy` for each level's direction
/// from the same [`LevelState`], stops at an empty frontier, the depth limit or the
/// target, and records the trace.
pub(crate) fn drive<L: ops::BfsLevels>(
    mut state: L,
    n: usize,
    m: u64,
    policy: &dyn Policy,
    opts: &BfsOptions,
) -> Result<(L::Output, Summary)> {
    let mut trace = Vec::new();
    let mut prev = Direction::Push;
    let mut has_pulled = false;
    let mut prev_nf = 0usize;
    let mut unvisited_edges = m - state.frontier_edges();
    let mut complete = true;
    loop {
        if state.frontier_vertices() == 0 {
            break;
        }
        let target_reached = match opts.target {
            Some(t) => state.is_reached(t as usize)?,
            None => false,
        };
        if opts.max_depth.is_some_and(|d| state.depth() >= d) || target_reached {
            complete = false;
            break;
        }
        let t0 = Instant::now();
        let s = LevelState {
            depth: state.depth(),
            vertices: n,
            arcs: m,
            frontier_vertices: state.frontier_vertices(),
            frontier_edges: state.frontier_edges(),
            previous_frontier_vertices: prev_nf,
            visited_vertices: state.visited_vertices(),
            unvisited_edges,
            previous: prev,
            has_pulled,
        };
        let dir = policy.direction(&s);
        let c = state.step(dir)?;
        unvisited_edges -= c.out_edges;
        if opts.trace {
            trace.push(LevelTrace {
                level: s.depth,
                direction: dir,
                frontier_vertices: s.frontier_vertices,
                frontier_edges: s.frontier_edges,
                edges_examined: c.examined,
                seconds: t0.elapsed().as_secs_f64(),
            });
        }
        prev = dir;
        has_pulled |= dir == Direction::Pull;
        prev_nf = s.frontier_vertices;
    }
    let reached = state.visited_vertices();
    let mut max_depth = state.depth();
    if state.frontier_vertices() == 0 && max_depth > 0 {
        max_depth -= 1;
    }
    let out = state.finish()?;
    Ok((
        out,
        Summary {
            reached,
            max_depth,
            complete,
            trace,
        },
    ))
}

/// The same search as [`bfs`], written as the plain sequence of GraphBLAS calls (the
/// reference the fused [`ops::bfs_step`] is tested against). Its trace counts the arcs
/// of the frontier as examined in push and all in-arcs of unvisited vertices in pull
/// (it does not see the early exit).
///
/// # Errors
/// As [`bfs`].
pub fn bfs_template<T: Scalar>(
    g: &BfsGraph<'_, T>,
    sources: &[Index],
    policy: &dyn Policy,
    opts: &BfsOptions,
) -> Result<BfsResult> {
    check_sources(g, sources, opts)?;
    let a = g.adjacency();
    let levels = TemplateLevels::new(g, sources);
    let ((parents, levels), s) = drive(levels, a.nrows(), a.nnz() as u64, policy, opts)?;
    Ok(s.with(parents, levels))
}

/// The template's search state: the frontier `q`, `parents` and `levels` as vectors,
/// each level a few library calls. [`drive`] runs it with the same bookkeeping (policy,
/// stops, trace) as the fused levels.
struct TemplateLevels<'g, 'a, T> {
    g: &'g BfsGraph<'a, T>,
    q: Vector<Index>,
    parents: Vector<Index>,
    levels: Vector<u32>,
    /// The out-degrees of the frontier, a workspace kept across levels.
    deg: Vector<u64>,
    depth: u32,
    frontier_edges: u64,
    unvisited_edges: u64,
    visited: usize,
}

impl<'g, 'a, T: Scalar> TemplateLevels<'g, 'a, T> {
    fn new(g: &'g BfsGraph<'a, T>, sources: &[Index]) -> Self {
        let n = g.vertices();
        // q = sources (each its own parent); parents = q; levels<q> = 0
        let q: Vector<Index> = Vector::from_pairs(n, sources.iter().map(|&s| (s, s)));
        let mut parents: Vector<Index> = Vector::new(n);
        ops::assign(&mut parents, None, None, &q, &Descriptor::DEFAULT);
        let mut levels: Vector<u32> = Vector::new(n);
        ops::assign_scalar(
            &mut levels,
            Some(&Mask::structure(&q)),
            None,
            0,
            &Descriptor::DEFAULT,
        );
        let mut deg: Vector<u64> = Vector::new(n);
        let frontier_edges = frontier_edges(g.adjacency(), &q, &mut deg);
        TemplateLevels {
            g,
            visited: q.nvals(),
            q,
            parents,
            levels,
            deg,
            depth: 0,
            frontier_edges,
            unvisited_edges: g.arcs() as u64 - frontier_edges,
        }
    }
}

/// `m_f = plus_reduce(apply(degree, q))`: the out-arcs of the frontier (`deg` the
/// workspace for the degrees).
fn frontier_edges<T: Scalar>(a: &Csr<T>, q: &Vector<Index>, deg: &mut Vector<u64>) -> u64 {
    let degree = |i: Index, _| a.degree(i as usize) as u64;
    let replace = Descriptor::DEFAULT.with_replace();
    ops::apply_indexed(deg, None, None, degree, q, &replace);
    ops::reduce(Plus::<u64>::new(), deg)
}

impl<T: Scalar> ops::BfsLevels for TemplateLevels<'_, '_, T> {
    fn depth(&self) -> u32 {
        self.depth
    }
    fn frontier_vertices(&self) -> usize {
        self.q.nvals()
    }
    fn frontier_edges(&self) -> u64 {
        self.frontier_edges
    }
    fn visited_vertices(&self) -> usize {
        self.visited
    }
    fn is_reached(&mut self, v: usize) -> Result<bool> {
        Ok(self.parents.get(v).is_some())
    }
    fn step(&mut self, dir: Direction) -> Result<ops::StepCounts> {
        let (g, a) = (self.g, self.g.adjacency());
        let replace = Descriptor::DEFAULT.with_replace();
        let not_visited = Mask::structure(&self.parents).complement();
        let mut next: Vector<Index> = Vector::new(a.nrows());
        let examined = match dir {
            Direction::Push => {
                // q<!parents, replace> = q min.secondi A
                let q = &self.q;
                ops::vxm(
                    &mut next,
                    Some(&not_visited),
                    None,
                    MinSecondI,
                    q,
                    a,
                    &replace,
                );
                self.frontier_edges
            }
            Direction::Pull => {
                // q<!parents, replace> = A' min.secondi q
                let (m, q) = (Some(&not_visited), &self.q);
                if g.is_symmetric() {
                    ops::mxv(&mut next, m, None, MinSecondI, a, q, &replace);
                } else {
                    ops::mxv(&mut next, m, None, MinSecondI, g.in_edges(), q, &replace);
                }
                self.unvisited_edges
            }
        };
        drop(not_visited);
        self.q = next;
        self.depth += 1;
        let (q, d0) = (&self.q, Descriptor::DEFAULT);
        // parents<q> = q
        ops::assign(&mut self.parents, Some(&Mask::structure(q)), None, q, &d0);
        // levels<q> = depth
        let frontier = Mask::structure(q);
        ops::assign_scalar(&mut self.levels, Some(&frontier), None, self.depth, &d0);
        self.frontier_edges = frontier_edges(a, q, &mut self.deg);
        self.unvisited_edges -= self.frontier_edges;
        self.visited += q.nvals();
        Ok(ops::StepCounts {
            vertices: q.nvals(),
            out_edges: self.frontier_edges,
            examined,
        })
    }
    type Output = (Vec<u32>, Vec<u32>);
    fn finish(self) -> Result<(Vec<u32>, Vec<u32>)> {
        Ok((
            self.parents.into_dense(BfsResult::UNREACHED).into_vec(),
            self.levels.into_dense(BfsResult::UNREACHED).into_vec(),
        ))
    }
}
