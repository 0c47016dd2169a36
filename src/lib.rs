//! # edgeblas
//!
//! Graph algorithms as sparse linear algebra, in the GraphBLAS style.
//!
//! A graph is its adjacency matrix `A` ([`matrix::Csr`], `A(i, j)` = arc `i -> j`); a set
//! of vertices with values is a [`vector::Vector`]. One step of an algorithm is one
//! product over a [`algebra::Semiring`], restricted by a [`descriptor::Mask`]:
//!
//! ```text
//! w<m> = w (.) (u (+).(x) A)    vxm: push, one frontier vertex's out-edges at a time
//! w<m> = w (.) (A (+).(x) u)    mxv: pull, one output row at a time, early exit
//! ```
//!
//! Breadth-first search is `q<!visited> = q vxm A` over a positional semiring that
//! carries the parent; shortest paths are the same loop over `MinPlus`.
//!
//! ## Formats
//! | type | storage | role |
//! |---|---|---|
//! | [`matrix::Csr`] | u64 row offsets, u32 sorted column indices, values (`()` for patterns) | adjacency; its transpose gives in-edges |
//! | [`vector::SparseVector`] | sorted indices + values | push frontier |
//! | [`vector::BitmapVector`] | presence bits + value slots | pull frontier, visited set |
//! | [`vector::DenseVector`] | a value per index | levels, distances |
//! | [`graph::Graph`] | a borrowed `Csr` and what is learned of it once: `A'`, symmetry, degrees, self-loops | what every algorithm in [`algo`] takes |
//!
//! ## Semirings
//! [`algebra::OrAnd`] (also `LorLand`), [`algebra::AnyPair`], [`algebra::MinPlus`],
//! [`algebra::MaxPlus`], [`algebra::PlusTimes`], [`algebra::MaxTimes`],
//! [`algebra::MinMax`], [`algebra::PlusPair`], [`algebra::PlusFirst`],
//! [`algebra::PlusSecond`], [`algebra::MinFirst`], [`algebra::MinSecond`],
//! [`algebra::MaxFirst`], [`algebra::MaxSecond`], [`algebra::MinSecondI`],
//! [`algebra::AnySecondI`]; any user type implementing [`algebra::Semiring`] works on
//! the CPU, and [`algebra::Compose`] makes one from a monoid and a binary operator. A
//! closure `Fn(X, Y) -> Z` is an [`algebra::BinaryOp`]: an accumulator, the operator of
//! an element-wise operation, or a semiring's multiply. The table at the top of [`algebra::builtin`] gives each one's monoid,
//! identity, terminal value and multiply.
//!
//! ## Operations
//! Every operation writes `C<M> = C (.) T` (or `w<m> = w (.) t`): mask, optional
//! accumulator ([`algebra::Accum`]), and replace and transposes from the descriptor
//! ([`descriptor::Descriptor`] for vector outputs, [`descriptor::MatrixDescriptor`] for
//! matrix outputs). Shape mismatches are the caller's contract violations and panic,
//! naming the operands.
//!
//! A vector is a column, as in the GraphBLAS C API: an `n`-vector is an `n x 1` matrix.
//! A positional operator ([`ops::select`], [`ops::apply_indexed`]) sees the entry `u(i)`
//! at row `i` and column 0; [`ops::column`] turns a matrix one (`tril`, `rowindex`, ...)
//! into the vector form, so `select(u, tril, 0)` keeps every entry and
//! `select(u, triu, 0)` only `u(0)`.
//!
//! GraphBLAS lets an output also be an input (`w = w min.plus A`); Rust's borrows do not,
//! so each operation whose output can alias an input has an `_inplace` form that takes
//! the output as that input and computes the result from it before the write-back.
//!
//! | edgeblas | GraphBLAS C API | what |
//! |---|---|---|
//! | [`ops::mxm`] | `GrB_mxm` | `C<M> = C (.) A (+).(x) B`, saxpy or masked dot chosen per call |
//! | [`ops::vxm`] | `GrB_vxm` | `w<m> = w (.) u (+).(x) A` (push, or pull over `A'`) |
//! | [`ops::mxv`] | `GrB_mxv` | `w<m> = w (.) A (+).(x) u` (pull, early exit) |
//! | [`ops::ewise_add`], [`ops::ewise_add_matrix`] | `GrB_eWiseAdd` | union |
//! | [`ops::ewise_mult`], [`ops::ewise_mult_matrix`] | `GrB_eWiseMult` | intersection |
//! | [`ops::apply`], [`ops::apply_matrix`] | `GrB_apply` (UnaryOp; with [`algebra::bind_first`] / [`algebra::bind_second`]: `GrB_apply_BinaryOp1st` / `2nd`) | `f(x)` on every entry |
//! | [`ops::apply_indexed`], [`ops::apply_matrix_indexed`] | `GrB_apply` (IndexUnaryOp) | `f(i, [j,] x)`: [`ops::rowindex`], [`ops::colindex`], [`ops::diagindex`], or a closure |
//! | [`ops::select`], [`ops::select_matrix`] | `GrB_select` | keep entries: [`ops::tril`], [`ops::triu`], [`ops::diag`], [`ops::offdiag`], [`ops::value_eq`] .. [`ops::value_le`], or a closure |
//! | [`ops::reduce`], [`ops::reduce_matrix`] | `GrB_reduce` to a scalar | monoid sum |
//! | [`ops::reduce_rows`] | `GrB_Matrix_reduce_Monoid` | rows to a vector (columns under the transpose) |
//! | [`ops::transpose`] | `GrB_transpose` | `C<M> = C (.) A'` |
//! | [`ops::extract_matrix`] | `GrB_Matrix_extract` | `C = A(I, J)` with [`algebra::Indices`] |
//! | [`ops::extract_row`], [`ops::extract_col`] | `GrB_Col_extract` (a row: with the transpose) | `w = A(i, J)`, `w = A(I, j)` |
//! | [`ops::assign`], [`ops::assign_scalar`] | `GrB_Vector_assign` (all of `w`), `GrB_Vector_assign_Scalar` | `w<m> = u`, `w<m> = x` |
//! | [`ops::assign_indices`] | `GrB_Vector_assign` | `w<m>(I) = u` |
//! | [`ops::assign_matrix`] | `GrB_Matrix_assign` | `C<M>(I, J) = A` |
//! | [`ops::kronecker`] | `GrB_kronecker` | `kron(A, B)` |
//! | [`ops::extract`] | `GrB_Vector_extract` | `w = u(I)`, `I` with repeats in any order |
//! | [`ops::assign_reduce`] | (LAGraph's scatter in FastSV) | `w(I[k]) (+)= u(k)`, repeats met by a monoid |
//! | [`ops::bfs_step`] | (fused; LAGraph's BFS step) | one direction-optimizing BFS level |
//! | [`vector::Vector::set`], [`vector::Vector::remove`], [`vector::Vector::get`] | `GrB_Vector_setElement`, `removeElement`, `extractElement` | one entry |
//! | [`matrix::Csr::nvals`], [`matrix::Csr::get`] | `GrB_Matrix_nvals`, `extractElement` | |
//! | [`descriptor::Mask`], [`descriptor::MatrixMask`] | `GrB_STRUCTURE`, `GrB_COMP` descriptor fields | structural or valued, complemented |
//! | [`ops::vxm_inplace`], [`ops::mxv_inplace`], [`ops::mxm_inplace`] | `GrB_vxm`, `GrB_mxv`, `GrB_mxm` with the output aliased to an input | `w<m> = w (.) w (+).(x) A`, `w<m> = w (.) A (+).(x) w`, `C<M> = C (.) C (+).(x) B` |
//! | [`ops::partition`] | several `GrB_select` with disjoint predicates (an extension) | `out[b] = select(u, bin(i, u(i)) == b)` for every bin, in one pass |
//! | [`ops::vxm_accumulate`] | `GrB_vxm` with the semiring's monoid as accumulator, no mask (an extension: it also returns what changed) | `w (+)= u (+).(x) A` on a dense `w`; returns the changed entries (shortest-path relaxation) |
//! | [`ops::vxm_accumulate_fixpoint`] | rounds of the above until nothing changes (an extension) | from `f = u`: `c = vxm_accumulate(w, f, A)`, `f = select(c, keep)`, until `f` is empty or a round cap; returns every changed entry (a delta-stepping bucket, Bellman-Ford) |
//! | [`ops::ewise_add_inplace`], [`ops::ewise_mult_inplace`] | `GrB_eWiseAdd`, `GrB_eWiseMult`, output aliased | `w<m> = w (.) (w (+) u)`, `w<m> = w (.) (w (x) u)` |
//! | [`ops::apply_inplace`], [`ops::select_inplace`], [`ops::apply_matrix_inplace`], [`ops::select_matrix_inplace`] | `GrB_apply`, `GrB_select`, output aliased | `w<m> = w (.) f(w)`, `C<M> = C (.) select(C)` |
//!
//! ## Example
//! ```
//! use edgeblas::prelude::*;
//! // 0 -> 1 -> 2, 0 -> 2
//! let mut b = CooBuilder::new(3, 3);
//! for (i, j) in [(0, 1), (1, 2), (0, 2)] {
//!     b.push(i, j, ()).unwrap();
//! }
//! let a = b.build(Duplicates::Error).unwrap();
//! let frontier = Vector::from_pairs(3, [(0, true)]);
//! let mut next: Vector<u32> = Vector::new(3);
//! // next = frontier vxm A over MIN.SECONDI: the parent of each out-neighbour.
//! ops::vxm(&mut next, None, None, MinSecondI::new(), &frontier, &a, &Descriptor::DEFAULT);
//! assert_eq!(next.to_pairs(), vec![(1, 0), (2, 0)]);
//! ```

#![deny(missing_docs)]

pub mod algebra;
pub mod algo;
pub mod backend;
pub mod cuda;
pub mod descriptor;
#[cfg(feature = "mpi")]
pub mod dist;
pub mod error;
mod format;
pub mod generate;
pub mod graph;
pub mod io;
mod limits;
pub mod matrix;
pub mod ops;
mod paths;
pub mod vector;

pub use error::{Error, Result};
/// num-traits, whose `Zero`, `One` and `Bounded` are the bounds of [`algebra::Number`]:
/// implement them from here to be sure of the version edgeblas uses.
pub use num_traits;

/// The names most programs need.
pub mod prelude {
    pub use crate::algebra::*;
    pub use crate::algo;
    pub use crate::descriptor::{Descriptor, Mask, MatrixDescriptor, MatrixMask};
    pub use crate::error::{Error, Result};
    pub use crate::graph::Graph;
    pub use crate::matrix::{CooBuilder, Csr, Duplicates};
    pub use crate::ops;
    pub use crate::vector::{BitmapVector, DenseVector, SparseVector, Vector};
}
