//! Graph algorithms on an NVIDIA GPU: the CUDA backend's public face.
//!
//! Open a device with [`Gpu::new`], copy a matrix to it ([`DeviceCsr::upload`]) or a
//! graph prepared for traversal ([`DeviceBfsGraph::new`]), and run [`bfs`] or
//! [`bellman_ford`] with graph and state resident on the device. Results equal the CPU
//! backend's element by element: the same parents (the smallest frontier vertex, by
//! `atomicMin` in push and the first in-neighbour of a sorted row in pull), levels,
//! distances and predecessors, and every switching [`Policy`] takes the same directions,
//! since it is asked on the host from one small counter struct read back per level.
//!
//! [`chung_lu`] generates a Chung-Lu graph straight into a [`DeviceCsr`] (the CPU
//! generator's graph, byte for byte, under any [`Schedule`]), and
//! [`DeviceBfsGraph::symmetric`] searches it where it lies.
//!
//! The device algebra, [`ops`], mirrors [`crate::ops`] by name and argument order
//! (`mxv`, `vxm`, `ewise_add`, `ewise_mult`, `apply`, `assign`, `assign_scalar`,
//! `select`, `reduce`, `extract` and `assign_reduce` with a device index list; `mxm`,
//! `transpose` and `reduce_matrix` on matrices) on
//! [`DeviceCsr`] and [`DeviceVector`] with a [`DeviceMask`] or [`DeviceMatrixMask`],
//! accumulators and descriptors, over the built-in semirings, monoids and operators (a
//! user's own is an [`Error::Unsupported`] naming what the device has); [`pagerank`]
//! runs PageRank on it with the graph and every vector resident on the device,
//! [`triangle_count`] counts triangles as the masked product `C<L> = L L'` there, and
//! [`wcc`] finds weakly connected components by FastSV's rounds; [`delta_stepping`]
//! finds shortest paths bucket by bucket over it, and [`cdlp`] propagates labels with
//! one kernel a round.
//!
//! Without the `cuda` feature this module has the same API and every entry point
//! returns [`Error::Unsupported`] saying so; with the feature but no GPU or driver,
//! [`Gpu::new`] returns that error instead of panicking.
//!
//! ```no_run
//! use edgeblas::algo::bfs::{Beamer, BfsGraph, BfsOptions};
//! use edgeblas::cuda::{self, DeviceBfsGraph, Gpu};
//! # fn main() -> edgeblas::Result<()> {
//! # let a = edgeblas::generate::rmat::Rmat::default().generate()?;
//! let gpu = Gpu::new(0)?;
//! let g = DeviceBfsGraph::new(&gpu, &BfsGraph::detect(&a))?;
//! let r = cuda::bfs(&g, &[0], &Beamer::default(), &BfsOptions::default())?;
//! println!("reached {} vertices in {} levels", r.reached, r.max_depth);
//! # Ok(())
//! # }
//! ```
//!
//! [`Policy`]: crate::algo::bfs::Policy
//! [`Error::Unsupported`]: crate::Error::Unsupported

#[cfg(feature = "cuda")]
mod imp;
#[cfg(not(feature = "cuda"))]
#[path = "stub.rs"]
mod imp;

pub use crate::backend::Schedule;
pub use imp::*;

/// Seconds per phase of a generation, in order: `(phase, seconds)`.
pub type Phases = Vec<(&'static str, f64)>;

/// Element types a device matrix or vector can hold.
pub trait DeviceValue: crate::algebra::Scalar + private::Sealed {}

mod private {
    pub trait Sealed {}
}

macro_rules! device_value {
    ($($t:ty),*) => {$(
        impl private::Sealed for $t {}
        impl DeviceValue for $t {}
    )*};
}
device_value!((), bool, u32, u64, i32, i64, f32, f64);

/// The unary operators [`ops::apply`] runs on the device (a closure cannot run there):
/// `f(x)` for every present entry `x`.
#[derive(Clone, Copy)]
pub enum UnaryOp<'a, T> {
    /// `x` (GrB_IDENTITY).
    Identity,
    /// `-x` (GrB_AINV): wrapping for integers (unsigned ones too), the sign flipped for
    /// floats.
    Ainv,
    /// `|x|` (GrB_ABS): wrapping for signed integers (`|MIN| = MIN`), the sign bit
    /// cleared for floats.
    Abs,
    /// `1` (GxB_ONE).
    One,
    /// `op(s, x)` with a built-in binary operator and its first operand bound
    /// (GrB_apply_BinaryOp1st; on the CPU, [`crate::algebra::bind_first`]).
    BindFirst(&'a dyn crate::algebra::BinaryOp<T, T, Output = T>, T),
    /// `op(x, s)` with its second operand bound (GrB_apply_BinaryOp2nd;
    /// [`crate::algebra::bind_second`]).
    BindSecond(&'a dyn crate::algebra::BinaryOp<T, T, Output = T>, T),
}

impl<T: std::fmt::Debug> std::fmt::Debug for UnaryOp<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnaryOp::Identity => f.write_str("Identity"),
            UnaryOp::Ainv => f.write_str("Ainv"),
            UnaryOp::Abs => f.write_str("Abs"),
            UnaryOp::One => f.write_str("One"),
            UnaryOp::BindFirst(op, x) => write!(f, "BindFirst(op {}, {x:?})", op.op_code()),
            UnaryOp::BindSecond(op, x) => write!(f, "BindSecond(op {}, {x:?})", op.op_code()),
        }
    }
}

/// The predicates [`ops::select`] runs on the device (a closure cannot run there): which
/// present entries `u(i)` to keep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SelectOp<T> {
    /// `u(i) == s` (GrB_VALUEEQ).
    ValueEq(T),
    /// `u(i) != s` (GrB_VALUENE).
    ValueNe(T),
    /// `u(i) < s` (GrB_VALUELT).
    ValueLt(T),
    /// `u(i) <= s` (GrB_VALUELE).
    ValueLe(T),
    /// `u(i) > s` (GrB_VALUEGT).
    ValueGt(T),
    /// `u(i) >= s` (GrB_VALUEGE).
    ValueGe(T),
    /// `i < k`: the entries before index `k`.
    IndexLt(crate::algebra::Index),
    /// `i >= k`: the entries from index `k` on.
    IndexGe(crate::algebra::Index),
}

impl<T: crate::algebra::Scalar + PartialOrd> SelectOp<T> {
    /// The predicate as the CPU's [`crate::ops::select`] takes it.
    pub fn holds(&self, i: crate::algebra::Index, x: T) -> bool {
        match *self {
            SelectOp::ValueEq(s) => x == s,
            SelectOp::ValueNe(s) => x != s,
            SelectOp::ValueLt(s) => x < s,
            SelectOp::ValueLe(s) => x <= s,
            SelectOp::ValueGt(s) => x > s,
            SelectOp::ValueGe(s) => x >= s,
            SelectOp::IndexLt(k) => i < k,
            SelectOp::IndexGe(k) => i >= k,
        }
    }
}
