//! A breadth-first search whose state lives with an executor (the GPU, or the host build
//! of the kernels): levels, parents, the frontier as a queue and as a bitmap, and the
//! one small counter struct read back per level. It implements [`BfsLevels`], so
//! [`crate::algo::bfs`]'s loop and policies drive it exactly as they drive the CPU.

use super::abi::*;
use super::exec::{Exec, Launch};
use crate::backend::{BfsLevels, Direction, StepCounts};
use crate::error::Result;
use crate::matrix::Csr;

/// A graph as the kernels see it: out-arcs, and in-arcs (`a` itself when symmetric).
/// Raw device or host addresses: whoever builds it keeps the buffers alive for as long
/// as a search uses it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GraphView {
    pub(crate) a: EbCsr,
    pub(crate) at: EbCsr,
    pub(crate) m: u64,
}

/// A graph's structure held by an executor: out-arcs, and in-arcs unless symmetric.
pub(crate) struct Structure<E: Exec> {
    n: u32,
    m: u64,
    a_off: E::Buf<u64>,
    a_idx: E::Buf<u32>,
    at: Option<(E::Buf<u64>, E::Buf<u32>)>,
}

impl<E: Exec> Structure<E> {
    /// Copies the structure of `a` (and `at`, its transpose, unless symmetric).
    pub(crate) fn upload<T: crate::algebra::Scalar>(
        ex: &E,
        a: &Csr<T>,
        at: Option<&Csr<()>>,
    ) -> Result<Self> {
        let at = match at {
            Some(t) => Some((ex.upload(t.offsets())?, ex.upload(t.indices())?)),
            None => None,
        };
        Ok(Structure {
            n: a.nrows() as u32,
            m: a.nnz() as u64,
            a_off: ex.upload(a.offsets())?,
            a_idx: ex.upload(a.indices())?,
            at,
        })
    }

    /// The kernels' view; valid while `self` lives.
    pub(crate) fn view(&self, ex: &E) -> GraphView {
        let a = csr_view(ex, self.n, &self.a_off, &self.a_idx);
        let at = match &self.at {
            Some((off, idx)) => csr_view(ex, self.n, off, idx),
            None => a,
        };
        GraphView { a, at, m: self.m }
    }
}

/// The kernels' view of a square CSR of `n` rows held by `ex`.
pub(crate) fn csr_view<E: Exec>(ex: &E, n: u32, off: &E::Buf<u64>, idx: &E::Buf<u32>) -> EbCsr {
    EbCsr {
        offsets: ex.addr(off),
        indices: ex.addr(idx),
        nrows: n,
        ncols: n,
    }
}

/// The search state.
pub(crate) struct Levels<'e, E: Exec> {
    ex: &'e E,
    g: GraphView,
    _graph: std::marker::PhantomData<&'e ()>,
    levels: E::Buf<u32>,
    parents: E::Buf<u32>,
    queue: E::Buf<u32>,
    big: E::Buf<u32>,
    next: E::Buf<u32>,
    next_big: E::Buf<u32>,
    bits: E::Buf<u32>,
    next_bits: E::Buf<u32>,
    counters: E::Buf<EbLevelCounters>,
    queue_len: u32,
    big_len: u32,
    bits_valid: bool,
    depth: u32,
    frontier_edges: u64,
    visited: usize,
    target: u32,
    target_found: bool,
    count_examined: bool,
}

impl<'e, E: Exec> Levels<'e, E> {
    /// The state before the first level: `sources` (checked by the caller to lie in the
    /// graph; duplicates allowed) at level 0.
    pub(crate) fn new(
        ex: &'e E,
        g: GraphView,
        sources: &[u32],
        target: Option<u32>,
        count_examined: bool,
    ) -> Result<Self> {
        let n = g.a.nrows as usize;
        let words = n.div_ceil(32);
        // Vertices above EB_BIG_DEGREE out-arcs: at most m / (EB_BIG_DEGREE + 1).
        let big_cap = n.min((g.m / (EB_BIG_DEGREE as u64 + 1)) as usize + 1);
        let mut levels = ex.alloc(n)?;
        ex.fill_u32(&mut levels, EB_UNREACHED)?;
        let mut parents = ex.alloc(n)?;
        ex.fill_u32(&mut parents, EB_UNREACHED)?;
        let mut s = Levels {
            ex,
            g,
            _graph: std::marker::PhantomData,
            levels,
            parents,
            queue: ex.alloc(n)?,
            big: ex.alloc(big_cap)?,
            next: ex.alloc(n)?,
            next_big: ex.alloc(big_cap)?,
            bits: ex.alloc(words)?,
            next_bits: ex.alloc(words)?,
            counters: ex.alloc(1)?,
            queue_len: 0,
            big_len: 0,
            bits_valid: false,
            depth: 0,
            frontier_edges: 0,
            visited: 0,
            target: target.unwrap_or(EB_UNREACHED),
            target_found: false,
            count_examined,
        };
        let src = ex.upload(sources)?;
        let p = EbInitParams {
            s: s.state(),
            sources: ex.addr(&src),
            queue: ex.addr(&s.queue),
            big: ex.addr(&s.big),
            counters: ex.addr(&s.counters),
            sources_len: sources.len() as u32,
            pad: 0,
        };
        ex.run(Launch::InitSources(p))?;
        let c = s.read_counters()?;
        s.queue_len = c.vertices as u32;
        s.big_len = c.big as u32;
        s.frontier_edges = c.out_edges;
        s.visited = c.vertices as usize;
        s.target_found = c.target_found != 0;
        Ok(s)
    }

    fn state(&self) -> EbBfsState {
        EbBfsState {
            a: self.g.a,
            at: self.g.at,
            levels: self.ex.addr(&self.levels),
            parents: self.ex.addr(&self.parents),
            target: self.target,
            count_examined: self.count_examined as u32,
        }
    }

    fn read_counters(&self) -> Result<EbLevelCounters> {
        Ok(self.ex.download(&self.counters, 1)?[0])
    }
}

impl<E: Exec> BfsLevels for Levels<'_, E> {
    fn depth(&self) -> u32 {
        self.depth
    }
    fn frontier_vertices(&self) -> usize {
        self.queue_len as usize
    }
    fn frontier_edges(&self) -> u64 {
        self.frontier_edges
    }
    fn visited_vertices(&self) -> usize {
        self.visited
    }
    fn is_reached(&mut self, v: usize) -> Result<bool> {
        if v as u32 == self.target {
            return Ok(self.target_found);
        }
        Ok(self.ex.download(&self.levels, v + 1)?[v] != EB_UNREACHED)
    }

    fn step(&mut self, dir: Direction) -> Result<StepCounts> {
        let ex = self.ex;
        let next_depth = self.depth + 1;
        ex.zero(&mut self.counters)?;
        let examined = match dir {
            Direction::Push => {
                let p = EbPushParams {
                    s: self.state(),
                    frontier: ex.addr(&self.queue),
                    big: ex.addr(&self.big),
                    next: ex.addr(&self.next),
                    next_big: ex.addr(&self.next_big),
                    counters: ex.addr(&self.counters),
                    frontier_len: self.queue_len,
                    big_len: self.big_len,
                    next_depth,
                    pad: 0,
                };
                ex.run(Launch::Push(p))?;
                self.bits_valid = false;
                None
            }
            Direction::Pull => {
                if !self.bits_valid {
                    ex.zero(&mut self.bits)?;
                    let p = EbConvertParams {
                        a_offsets: self.g.a.offsets,
                        queue: ex.addr(&self.queue),
                        big: ex.addr(&self.big),
                        bits: ex.addr(&self.bits),
                        counters: ex.addr(&self.counters),
                        queue_len: self.queue_len,
                        nwords: self.g.a.nrows.div_ceil(32),
                    };
                    ex.run(Launch::QueueToBits(p))?;
                }
                ex.zero(&mut self.next_bits)?;
                let p = EbPullParams {
                    s: self.state(),
                    frontier_bits: ex.addr(&self.bits),
                    next_bits: ex.addr(&self.next_bits),
                    next: ex.addr(&self.next),
                    next_big: ex.addr(&self.next_big),
                    counters: ex.addr(&self.counters),
                    next_depth,
                    pad: 0,
                };
                ex.run(Launch::Pull(p))?;
                std::mem::swap(&mut self.bits, &mut self.next_bits);
                self.bits_valid = true;
                Some(())
            }
        };
        let c = self.read_counters()?;
        std::mem::swap(&mut self.queue, &mut self.next);
        std::mem::swap(&mut self.big, &mut self.next_big);
        let push_examined = self.frontier_edges;
        self.queue_len = c.vertices as u32;
        self.big_len = c.big as u32;
        self.frontier_edges = c.out_edges;
        self.visited += c.vertices as usize;
        self.target_found |= c.target_found != 0;
        self.depth = next_depth;
        Ok(StepCounts {
            vertices: c.vertices as usize,
            out_edges: c.out_edges,
            examined: if examined.is_some() {
                c.examined
            } else {
                push_examined
            },
        })
    }

    /// `(parents, levels)`, left in the executor's memory.
    type Output = (E::Buf<u32>, E::Buf<u32>);
    fn finish(self) -> Result<Self::Output> {
        Ok((self.parents, self.levels))
    }
}
