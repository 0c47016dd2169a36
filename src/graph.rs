//! A graph: its adjacency matrix and what is learned about it once (the structure of its
//! transpose, whether its structure is symmetric, its degrees, its self-loops), each
//! computed on first use and kept, as LAGraph's `LAGraph_Graph` caches `AT`, the
//! symmetry of its structure and its degrees. Every algorithm in [`crate::algo`] takes a
//! [`Graph`]; none takes a `symmetric` flag or an `(A, A')` pair.
//!
//! ```
//! use edgeblas::graph::Graph;
//! use edgeblas::matrix::{CooBuilder, Duplicates};
//! let mut b = CooBuilder::new(3, 3);
//! for (i, j) in [(0, 1), (1, 0), (1, 2), (2, 1), (2, 2)] {
//!     b.push(i, j, ()).unwrap();
//! }
//! let a = b.build(Duplicates::Error).unwrap();
//! let g = Graph::new(&a);
//! assert!(g.is_symmetric()); // checked once, then remembered
//! assert_eq!(g.out_degrees(), &[1, 2, 2]);
//! assert_eq!(g.in_degrees(), &[1, 2, 2]);
//! assert_eq!(g.self_loops(), 1);
//! ```

use std::sync::OnceLock;

use crate::algebra::{Index, Scalar};
use crate::error::{Error, Result};
use crate::matrix::Csr;

/// A square adjacency matrix `A` (`A(i, j)` is the arc `i -> j`) with its cached
/// properties. It borrows `A`; the properties it computes live as long as it does.
///
/// # Invariants
/// The cached transpose, when present, is the structure of `A'`; a cached symmetry is
/// true only when every arc `i -> j` has its `j -> i` (vouched for by the caller of
/// [`Graph::symmetric`], checked otherwise).
#[derive(Debug)]
pub struct Graph<'a, T> {
    a: &'a Csr<T>,
    symmetric: OnceLock<bool>,
    at: OnceLock<Csr<()>>,
    out_degrees: OnceLock<Vec<u64>>,
    in_degrees: OnceLock<Vec<u64>>,
    self_loops: OnceLock<usize>,
    unreachable: OnceLock<Vec<u64>>,
}
impl<'a, T: Scalar> Graph<'a, T> {
    fn with(a: &'a Csr<T>, symmetric: Option<bool>) -> Self {
        let flag = OnceLock::new();
        if let Some(s) = symmetric {
            let _ = flag.set(s);
        }
        Graph {
            a,
            symmetric: flag,
            at: OnceLock::new(),
            out_degrees: OnceLock::new(),
            in_degrees: OnceLock::new(),
            self_loops: OnceLock::new(),
            unreachable: OnceLock::new(),
        }
    }

    /// The graph of `a`, nothing known yet: whether its structure is symmetric is
    /// checked the first time an algorithm asks (O(n + m), `n` words of memory), and a
    /// symmetric one then needs no transpose.
    pub fn new(a: &'a Csr<T>) -> Self {
        Self::with(a, None)
    }

    /// A directed graph, taken as it is: its in-edges are built (a transpose of the
    /// structure) the first time an algorithm needs them, and its symmetry is never
    /// checked. Call [`Graph::prepare`] to build them ahead of timing.
    pub fn directed(a: &'a Csr<T>) -> Self {
        Self::with(a, Some(false))
    }

    /// A graph whose structure is symmetric (every arc stored both ways, as an
    /// undirected graph is): `A' = A`, and no transpose is built. The caller vouches
    /// for the symmetry; an asymmetric matrix gives the algorithms `A` where they read
    /// in-edges.
    pub fn symmetric(a: &'a Csr<T>) -> Self {
        Self::with(a, Some(true))
    }

    /// [`Graph::symmetric`] when the caller knows the structure is symmetric (an
    /// undirected file, a symmetrised matrix), [`Graph::directed`] otherwise: how what a
    /// caller learned where `A` came from enters the graph, once.
    pub fn declared(a: &'a Csr<T>, symmetric: bool) -> Self {
        Self::with(a, Some(symmetric))
    }

    /// [`Graph::new`] with the symmetry checked now: every arc `i -> j` has its
    /// `j -> i`. For a graph stored with both arcs of every edge in a "general" file,
    /// this saves building the transpose.
    pub fn detect(a: &'a Csr<T>) -> Self {
        Self::with(a, Some(is_symmetric_pattern(a)))
    }

    /// A directed graph with its in-edges given (a pattern of `A'`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the shapes or arc counts do not match.
    pub fn with_in_edges(a: &'a Csr<T>, at: Csr<()>) -> Result<Self> {
        if a.nrows() != a.ncols() || at.nrows() != a.ncols() || at.ncols() != a.nrows() {
            return Err(Error::InvalidArgument(format!(
                "in-edges of shape {} x {} do not fit a {} x {} adjacency",
                at.nrows(),
                at.ncols(),
                a.nrows(),
                a.ncols()
            )));
        }
        if at.nnz() != a.nnz() {
            return Err(Error::InvalidArgument(format!(
                "in-edges hold {} arcs, the adjacency {}",
                at.nnz(),
                a.nnz()
            )));
        }
        let g = Self::with(a, Some(false));
        let _ = g.at.set(at);
        Ok(g)
    }

    /// The adjacency `A`.
    pub fn adjacency(&self) -> &'a Csr<T> {
        self.a
    }

    /// Whether the structure is symmetric (`A'` has the structure of `A`): as vouched
    /// for, or checked once and remembered.
    pub fn is_symmetric(&self) -> bool {
        *self.symmetric.get_or_init(|| is_symmetric_pattern(self.a))
    }

    /// The structure of `A'` (the in-edges), built once on first use. A symmetric graph
    /// has it at hand as `A` itself, so algorithms ask [`Graph::is_symmetric`] first;
    /// this builds it anyway.
    pub fn in_edges(&self) -> &Csr<()> {
        self.at.get_or_init(|| transpose_pattern(self.a))
    }

    /// Builds what a traversal's pull needs now (the in-edges of a graph that is not
    /// symmetric, the set of vertices without in-arcs), so that the first search does
    /// not pay for it.
    pub fn prepare(&self) {
        if !self.is_symmetric() {
            self.in_edges();
        }
        self.unreachable();
    }

    /// The out-degree of every vertex (the row lengths of `A`), computed once.
    pub fn out_degrees(&self) -> &[u64] {
        self.out_degrees.get_or_init(|| {
            let o = self.a.offsets();
            o.windows(2).map(|w| w[1] - w[0]).collect()
        })
    }

    /// The in-degree of every vertex (the column counts of `A`), computed once.
    pub fn in_degrees(&self) -> &[u64] {
        self.in_degrees.get_or_init(|| {
            if self.symmetric.get() == Some(&true) {
                return self.out_degrees().to_vec();
            }
            let mut d = vec![0u64; self.a.ncols()];
            for &j in self.a.indices() {
                d[j as usize] += 1;
            }
            d
        })
    }

    /// The number of self-loops (entries `A(i, i)`), computed once.
    pub fn self_loops(&self) -> usize {
        *self.self_loops.get_or_init(|| {
            let (o, idx) = (self.a.offsets(), self.a.indices());
            (0..self.a.nrows().min(self.a.ncols()))
                .filter(|&i| {
                    idx[o[i] as usize..o[i + 1] as usize]
                        .binary_search(&(i as Index))
                        .is_ok()
                })
                .count()
        })
    }

    /// Presence words of the vertices without in-arcs: no search reaches them except
    /// as a source, so pull levels skip them.
    pub(crate) fn unreachable(&self) -> &[u64] {
        self.unreachable.get_or_init(|| {
            let offsets = if self.is_symmetric() {
                self.a.offsets()
            } else {
                self.in_edges().offsets()
            };
            let n = self.a.nrows();
            let mut bits = vec![0u64; n.div_ceil(64)];
            for v in 0..n {
                if offsets[v] == offsets[v + 1] {
                    bits[v >> 6] |= 1 << (v & 63);
                }
            }
            bits
        })
    }

    /// Number of vertices.
    pub fn vertices(&self) -> usize {
        self.a.nrows()
    }

    /// Number of arcs.
    pub fn arcs(&self) -> usize {
        self.a.nnz()
    }

    /// Bytes held by the in-edges this graph built (0 for symmetric graphs or before
    /// the first pull).
    pub fn in_edges_bytes(&self) -> usize {
        self.at
            .get()
            .map_or(0, |t| t.offsets().len() * 8 + t.indices().len() * 4)
    }
}

/// Whether the structure of `a` is symmetric: square, and every arc `i -> j` has its
/// reverse `j -> i`.
///
/// It replays the transpose's scatter without storing it: visiting rows `i` in order,
/// the arcs into `j` arrive in ascending `i`, so for a symmetric matrix each must be
/// the next entry of row `j` itself. Stops at the first mismatch.
///
/// # Complexity
/// O(n + m) time, n words of memory.
pub fn is_symmetric_pattern<T: Scalar>(a: &Csr<T>) -> bool {
    if a.nrows() != a.ncols() {
        return false;
    }
    let (offsets, indices) = (a.offsets(), a.indices());
    let mut next = offsets[..a.nrows()].to_vec();
    for i in 0..a.nrows() {
        for &j in &indices[offsets[i] as usize..offsets[i + 1] as usize] {
            let q = &mut next[j as usize];
            if *q >= offsets[j as usize + 1] || indices[*q as usize] as usize != i {
                return false;
            }
            *q += 1;
        }
    }
    true
}

/// The structure of `A'`, rows sorted: counting pass, prefix sum, scatter in row order.
fn transpose_pattern<T: Scalar>(a: &Csr<T>) -> Csr<()> {
    let n = a.ncols();
    let mut offsets = vec![0u64; n + 1];
    for &j in a.indices() {
        offsets[j as usize + 1] += 1;
    }
    for j in 0..n {
        offsets[j + 1] += offsets[j];
    }
    let mut next = offsets[..n].to_vec();
    let mut indices = vec![0 as Index; a.nnz()];
    let ao = a.offsets();
    let ai = a.indices();
    for i in 0..a.nrows() {
        for &j in &ai[ao[i] as usize..ao[i + 1] as usize] {
            let q = &mut next[j as usize];
            indices[*q as usize] = i as Index;
            *q += 1;
        }
    }
    let nnz = indices.len();
    // SAFETY: offsets are the prefix sum of the column counts (ending at nnz); rows of
    // `A` are visited in ascending order, so each output row receives ascending,
    // distinct indices below nrows; one `()` value per index.
    unsafe { Csr::new_unchecked(a.ncols(), a.nrows(), offsets, indices, vec![(); nnz]) }
}
