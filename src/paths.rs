//! The results of a shortest-path search, shared by `algo` and the backends that run
//! one (the CUDA Bellman-Ford): a backend never imports `algo`. Public as
//! [`crate::algo::bellman_ford::ShortestPaths`] and
//! [`crate::algo::bellman_ford::NegativeCycle`].

use std::fmt;

use crate::algebra::Index;

/// The marker of "no predecessor".
pub(crate) const NONE: Index = Index::MAX;

/// Distances and predecessors from one source.
#[derive(Clone, Debug, PartialEq)]
pub struct ShortestPaths {
    /// `distances[v]`: the length of a shortest path, `+inf` when unreached.
    pub distances: Vec<f64>,
    /// `predecessors[v]`: the vertex before `v` on a shortest path (`u32::MAX` for the
    /// source and for unreached vertices).
    pub predecessors: Vec<Index>,
    /// Rounds (products) the search took.
    pub rounds: usize,
}

impl ShortestPaths {
    /// Number of vertices with a finite distance (the source included).
    pub fn reached(&self) -> usize {
        self.distances.iter().filter(|d| d.is_finite()).count()
    }
}

/// A negative cycle reachable from the source: no shortest paths exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NegativeCycle {
    /// A vertex on the cycle.
    pub vertex: Index,
    /// The cycle's vertices in arc order, starting at `vertex`.
    pub cycle: Vec<Index>,
}

impl fmt::Display for NegativeCycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "negative cycle reachable from the source through vertex {}",
            self.vertex
        )
    }
}

impl std::error::Error for NegativeCycle {}

impl From<NegativeCycle> for crate::Error {
    fn from(c: NegativeCycle) -> Self {
        crate::Error::InvalidArgument(c.to_string())
    }
}

/// After n rounds that still change something, walking predecessors n steps back from
/// a changed vertex lands on a cycle of the predecessor graph, which is negative.
pub(crate) fn find_cycle(
    pred: &[Index],
    changed: impl IntoIterator<Item = Index>,
) -> NegativeCycle {
    let n = pred.len();
    let mut fallback = None;
    for v in changed {
        fallback.get_or_insert(v);
        let mut x = v;
        let mut ok = true;
        for _ in 0..n {
            let p = pred[x as usize];
            if p == NONE {
                ok = false;
                break;
            }
            x = p;
        }
        if !ok {
            continue;
        }
        // x is on a cycle: collect it, following arcs forward (predecessors backward).
        let mut back = vec![x];
        let mut y = pred[x as usize];
        while y != x && back.len() <= n {
            back.push(y);
            y = pred[y as usize];
        }
        back.reverse();
        // `back` lists the cycle in arc order ending at x; rotate to start at x.
        back.rotate_right(1);
        return NegativeCycle {
            vertex: x,
            cycle: back,
        };
    }
    let v = fallback.unwrap_or(0);
    NegativeCycle {
        vertex: v,
        cycle: vec![v],
    }
}
