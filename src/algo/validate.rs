//! A Graph500-style check of a BFS result against its graph: every tree arc exists and
//! spans one level, no arc skips a level, the reached set is closed under out-arcs, and
//! each parent is the smallest-index candidate of the previous level.

use std::fmt;

use rayon::prelude::*;

use crate::algebra::{Index, Scalar};
use crate::matrix::Csr;

use super::bfs::BfsResult;

const NONE: u32 = BfsResult::UNREACHED;

/// The first rule a BFS result breaks, with the vertices involved (internal indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BfsViolation {
    /// The arrays do not have one entry per vertex.
    Length {
        /// Entries in `levels`.
        levels: usize,
        /// Entries in `parents`.
        parents: usize,
        /// Vertices of the graph.
        vertices: usize,
    },
    /// A source is not at level 0 or is not its own parent.
    Source {
        /// The source.
        vertex: Index,
    },
    /// A vertex has a level but no parent, a parent but no level, or level 0 without
    /// being a source.
    Inconsistent {
        /// The vertex.
        vertex: Index,
    },
    /// The tree arc `parent -> vertex` is not an arc of the graph.
    MissingTreeArc {
        /// The parent.
        parent: Index,
        /// The child.
        vertex: Index,
    },
    /// A tree arc does not go down exactly one level.
    TreeLevel {
        /// The parent.
        parent: Index,
        /// The child.
        vertex: Index,
    },
    /// The arc `from -> to` leaves a reached, expanded vertex for an unreached one.
    NotClosed {
        /// The reached tail.
        from: Index,
        /// The unreached head.
        to: Index,
    },
    /// The arc `from -> to` goes down more than one level.
    SkipsLevel {
        /// The tail.
        from: Index,
        /// The head.
        to: Index,
    },
    /// `candidate` is on the previous level with an arc to `vertex` and smaller than the
    /// recorded parent.
    NotSmallestParent {
        /// The vertex.
        vertex: Index,
        /// Its recorded parent.
        parent: Index,
        /// A smaller valid parent.
        candidate: Index,
    },
}

impl fmt::Display for BfsViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BfsViolation::Length {
                levels,
                parents,
                vertices,
            } => write!(
                f,
                "{levels} levels and {parents} parents for a graph of {vertices} vertices"
            ),
            BfsViolation::Source { vertex } => {
                write!(f, "source {vertex} is not at level 0 with itself as parent")
            }
            BfsViolation::Inconsistent { vertex } => {
                write!(f, "vertex {vertex}: level and parent disagree")
            }
            BfsViolation::MissingTreeArc { parent, vertex } => {
                write!(f, "tree arc {parent} -> {vertex} is not in the graph")
            }
            BfsViolation::TreeLevel { parent, vertex } => {
                write!(
                    f,
                    "tree arc {parent} -> {vertex} does not go down one level"
                )
            }
            BfsViolation::NotClosed { from, to } => {
                write!(f, "arc {from} -> {to} leaves the reached set")
            }
            BfsViolation::SkipsLevel { from, to } => {
                write!(f, "arc {from} -> {to} skips a level")
            }
            BfsViolation::NotSmallestParent {
                vertex,
                parent,
                candidate,
            } => write!(
                f,
                "vertex {vertex} has parent {parent}, but {candidate} is a smaller one"
            ),
        }
    }
}

impl std::error::Error for BfsViolation {}

impl From<BfsViolation> for crate::Error {
    fn from(v: BfsViolation) -> Self {
        crate::Error::InvalidStructure(format!("BFS validation failed: {v}"))
    }
}

/// Checks a BFS result against the graph it came from.
///
/// Rules (Graph500, plus this library's parent rule): sources at level 0 and their own
/// parents; every other reached vertex has a parent one level up with an arc to it; an
/// arc from a reached vertex never goes down more than one level; an arc from an
/// expanded vertex (below `max_depth` when the search stopped early) never leaves the
/// reached set; and no smaller vertex of the previous level has an arc to a vertex than
/// its parent.
///
/// # Errors
/// The first [`BfsViolation`] found (scanning vertices in parallel, so "first" is
/// whichever a thread reports).
///
/// # Complexity
/// O(n + m), parallel over vertices.
pub fn validate_bfs<T: Scalar>(
    a: &Csr<T>,
    sources: &[Index],
    r: &BfsResult,
) -> Result<(), BfsViolation> {
    let n = a.nrows();
    let (levels, parents) = (&r.levels, &r.parents);
    if levels.len() != n || parents.len() != n || a.ncols() != n {
        return Err(BfsViolation::Length {
            levels: levels.len(),
            parents: parents.len(),
            vertices: n,
        });
    }
    for &s in sources {
        let i = s as usize;
        if i >= n || levels[i] != 0 || parents[i] != s {
            return Err(BfsViolation::Source { vertex: s });
        }
    }
    let expanded_below = if r.complete { u32::MAX } else { r.max_depth };
    let found = (0..n).into_par_iter().find_map_any(|v| {
        let (l, p) = (levels[v], parents[v]);
        let vi = v as Index;
        if (l == NONE) != (p == NONE) {
            return Some(BfsViolation::Inconsistent { vertex: vi });
        }
        if l == 0 && p != vi {
            return Some(BfsViolation::Inconsistent { vertex: vi });
        }
        if l != NONE && l > 0 {
            let pu = p as usize;
            if pu >= n || a.row(pu).0.binary_search(&vi).is_err() {
                return Some(BfsViolation::MissingTreeArc {
                    parent: p,
                    vertex: vi,
                });
            }
            if levels[pu] == NONE || levels[pu] + 1 != l {
                return Some(BfsViolation::TreeLevel {
                    parent: p,
                    vertex: vi,
                });
            }
        }
        if l == NONE {
            return None;
        }
        for &w in a.row(v).0 {
            let lw = levels[w as usize];
            if lw == NONE {
                if l < expanded_below {
                    return Some(BfsViolation::NotClosed { from: vi, to: w });
                }
            } else if lw > l + 1 {
                return Some(BfsViolation::SkipsLevel { from: vi, to: w });
            } else if lw == l + 1 && vi < parents[w as usize] {
                return Some(BfsViolation::NotSmallestParent {
                    vertex: w,
                    parent: parents[w as usize],
                    candidate: vi,
                });
            }
        }
        None
    });
    match found {
        Some(v) => Err(v),
        None => Ok(()),
    }
}
