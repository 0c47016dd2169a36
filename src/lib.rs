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
//!
//! ## Semirings
//! [`algebra::OrAnd`], [`algebra::AnyPair`], [`algebra::MinPlus`], [`algebra::MaxPlus`],
//! [`algebra::PlusTimes`], [`algebra::MaxTimes`], [`algebra::MinMax`],
//! [`algebra::MinSecondI`], [`algebra::AnySecondI`]; any user type implementing
//! [`algebra::Semiring`] works on the CPU.
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
//! ops::vxm(&mut next, None, None, MinSecondI, &frontier, &a, &Descriptor::DEFAULT);
//! assert_eq!(next.to_pairs(), vec![(1, 0), (2, 0)]);
//! ```

#![deny(missing_docs)]

pub mod algebra;
pub mod algo;
pub mod backend;
pub mod cuda;
pub mod descriptor;
pub mod error;
pub mod generate;
pub mod io;
pub mod matrix;
pub mod ops;
pub mod vector;

pub use error::{Error, Result};

/// The names most programs need.
pub mod prelude {
    pub use crate::algebra::*;
    pub use crate::algo;
    pub use crate::descriptor::{Descriptor, Mask, MatrixDescriptor, MatrixMask};
    pub use crate::error::{Error, Result};
    pub use crate::matrix::{CooBuilder, Csr, Duplicates};
    pub use crate::ops;
    pub use crate::vector::{BitmapVector, DenseVector, SparseVector, Vector};
}
