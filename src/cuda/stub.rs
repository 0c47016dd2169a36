//! Without the `cuda` feature: the same API, and every entry point says why it cannot
//! run. No value of these types can be made, so the methods past [`Gpu::new`] and the
//! `upload`s are never reached.

use std::convert::Infallible;
use std::marker::PhantomData;

use super::{DeviceValue, Schedule};
use crate::algebra::Index;
use crate::algo::bellman_ford::{NegativeCycle, ShortestPaths};
use crate::algo::bfs::{BfsGraph, BfsOptions, BfsResult, Policy};
use crate::error::{Error, Result};
use crate::generate::chung_lu::Plan;
use crate::matrix::Csr;
use crate::vector::{BitmapVector, DenseVector, SparseVector};

fn unsupported<T>() -> Result<T> {
    Err(Error::Unsupported(
        "edgeblas was built without the `cuda` feature: rebuild with `--features cuda` \
         (scripts/setup-cuda.sh installs the toolchain)"
            .into(),
    ))
}

/// An open GPU. Without the `cuda` feature, [`Gpu::new`] always fails.
#[derive(Clone, Debug)]
pub struct Gpu {
    never: Infallible,
}

impl Gpu {
    /// Opens GPU `ordinal`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn new(_ordinal: usize) -> Result<Gpu> {
        unsupported()
    }
    /// The device's name.
    pub fn name(&self) -> String {
        match self.never {}
    }
    /// Waits until the work queued on the device is done.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn synchronize(&self) -> Result<()> {
        match self.never {}
    }
}

/// A CSR matrix in device memory.
#[derive(Debug)]
pub struct DeviceCsr<T> {
    gpu: Gpu,
    _t: PhantomData<T>,
}

impl DeviceCsr<()> {
    /// Copies the structure of `a` (offsets and indices, no values) to the device.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn upload_structure<T: crate::algebra::Scalar>(gpu: &Gpu, _a: &Csr<T>) -> Result<Self> {
        match gpu.never {}
    }
}

impl<T: DeviceValue> DeviceCsr<T> {
    /// Copies `a` to the device.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn upload(gpu: &Gpu, _a: &Csr<T>) -> Result<Self> {
        match gpu.never {}
    }
    /// An `nrows x ncols` matrix with no entries on `gpu`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn empty(gpu: &Gpu, _nrows: usize, _ncols: usize) -> Result<Self> {
        match gpu.never {}
    }
    /// Copies the matrix back to the host.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn download(&self) -> Result<Csr<T>> {
        match self.gpu.never {}
    }
    /// Number of rows.
    pub fn nrows(&self) -> usize {
        match self.gpu.never {}
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        match self.gpu.never {}
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        match self.gpu.never {}
    }
    /// The device it lives on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }
}

/// A graph prepared for traversal on the device.
#[derive(Debug)]
pub struct DeviceBfsGraph {
    gpu: Gpu,
}

impl DeviceBfsGraph {
    /// Copies the structure of `g`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn new<T: crate::algebra::Scalar>(gpu: &Gpu, _g: &BfsGraph<'_, T>) -> Result<Self> {
        match gpu.never {}
    }
    /// A symmetric graph already on the device.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn symmetric(a: DeviceCsr<()>) -> Result<Self> {
        match a.gpu.never {}
    }

    /// Number of vertices.
    pub fn vertices(&self) -> usize {
        match self.gpu.never {}
    }
    /// Number of arcs.
    pub fn arcs(&self) -> usize {
        match self.gpu.never {}
    }
}

/// Breadth-first search on the device.
///
/// # Errors
/// Never returns in this build.
pub fn bfs(
    g: &DeviceBfsGraph,
    _sources: &[Index],
    _policy: &dyn Policy,
    _opts: &BfsOptions,
) -> Result<BfsResult> {
    match g.gpu.never {}
}

/// Bellman-Ford on the device.
///
/// # Errors
/// Never returns in this build.
pub fn bellman_ford(
    a: &DeviceCsr<f64>,
    _source: Index,
) -> Result<Result<ShortestPaths, NegativeCycle>> {
    match a.gpu.never {}
}

/// A sparse vector in device memory.
#[derive(Debug)]
pub struct DeviceSparseVector<T> {
    gpu: Gpu,
    _t: PhantomData<T>,
}

impl<T: DeviceValue> DeviceSparseVector<T> {
    /// Copies `v` to the device.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn upload(gpu: &Gpu, _v: &SparseVector<T>) -> Result<Self> {
        match gpu.never {}
    }
    /// Copies the vector back, sorted by index.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn download(&self) -> Result<SparseVector<T>> {
        match self.gpu.never {}
    }
    /// Length.
    pub fn len(&self) -> usize {
        match self.gpu.never {}
    }
    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        match self.gpu.never {}
    }
    /// Number of present entries.
    pub fn nvals(&self) -> usize {
        match self.gpu.never {}
    }
}

impl DeviceSparseVector<()> {
    /// The entries of a device bitmap.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn from_bitmap(b: &DeviceBitmap) -> Result<Self> {
        match b.gpu.never {}
    }
}

/// A bitmap of present indices in device memory.
#[derive(Debug)]
pub struct DeviceBitmap {
    gpu: Gpu,
}

impl DeviceBitmap {
    /// Copies the presence bits of `v` to the device.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn upload<T: crate::algebra::Scalar>(gpu: &Gpu, _v: &BitmapVector<T>) -> Result<Self> {
        match gpu.never {}
    }
    /// The set bits of a device sparse vector.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn from_sparse<T: DeviceValue>(v: &DeviceSparseVector<T>) -> Result<Self> {
        match v.gpu.never {}
    }
    /// Copies the bitmap back.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn download(&self) -> Result<BitmapVector<()>> {
        match self.gpu.never {}
    }
    /// Length.
    pub fn len(&self) -> usize {
        match self.gpu.never {}
    }
    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        match self.gpu.never {}
    }
}

/// A dense vector in device memory.
#[derive(Debug)]
pub struct DeviceDenseVector<T> {
    gpu: Gpu,
    _t: PhantomData<T>,
}

impl<T: DeviceValue> DeviceDenseVector<T> {
    /// Copies `v` to the device.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn upload(gpu: &Gpu, _v: &DenseVector<T>) -> Result<Self> {
        match gpu.never {}
    }
    /// Copies the vector back.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn download(&self) -> Result<DenseVector<T>> {
        match self.gpu.never {}
    }
    /// Length.
    pub fn len(&self) -> usize {
        match self.gpu.never {}
    }
    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        match self.gpu.never {}
    }
}

/// [`bfs`] leaving parents and levels on the device.
///
/// # Errors
/// Never returns in this build.
pub fn bfs_on_device(
    g: &DeviceBfsGraph,
    _sources: &[Index],
    _policy: &dyn Policy,
    _opts: &BfsOptions,
) -> Result<DeviceBfsResult> {
    match g.gpu.never {}
}

/// A search's result with parents and levels in device memory.
#[derive(Debug)]
pub struct DeviceBfsResult {
    gpu: Gpu,
    /// Vertices reached (the sources included).
    pub reached: usize,
    /// The deepest level reached.
    pub max_depth: u32,
    /// `false` when a depth limit or a target stopped the search early.
    pub complete: bool,
    /// Per-level trace, when asked for.
    pub trace: Vec<crate::algo::bfs::LevelTrace>,
}

impl DeviceBfsResult {
    /// Copies parents and levels back.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn download(&self) -> Result<BfsResult> {
        match self.gpu.never {}
    }
}

/// Generates a Chung-Lu graph on the device.
///
/// # Errors
/// Never returns in this build.
pub fn chung_lu(gpu: &Gpu, _plan: &Plan, _seed: u64, _schedule: Schedule) -> Result<DeviceCsr<()>> {
    match gpu.never {}
}

/// [`chung_lu`] with per-phase seconds.
///
/// # Errors
/// Never returns in this build.
pub fn chung_lu_phases(
    gpu: &Gpu,
    _plan: &Plan,
    _seed: u64,
    _schedule: Schedule,
) -> Result<(DeviceCsr<()>, super::Phases)> {
    match gpu.never {}
}

/// A vector in device memory for the device algebra ([`ops`]).
#[derive(Debug)]
pub struct DeviceVector<T> {
    gpu: Gpu,
    _t: PhantomData<T>,
}

impl<T: DeviceValue> DeviceVector<T> {
    /// An empty vector of length `len` on `gpu`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn new(gpu: &Gpu, _len: usize) -> Result<Self> {
        match gpu.never {}
    }
    /// Copies `v` (any form) to the device.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn upload(gpu: &Gpu, _v: &crate::vector::Vector<T>) -> Result<Self> {
        match gpu.never {}
    }
    /// Copies the vector back (as a bitmap).
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn download(&self) -> Result<crate::vector::Vector<T>> {
        match self.gpu.never {}
    }
    /// A copy on the same device.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn try_clone(&self) -> Result<Self> {
        match self.gpu.never {}
    }
    /// Length.
    pub fn len(&self) -> usize {
        match self.gpu.never {}
    }
    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        match self.gpu.never {}
    }
    /// Number of present entries.
    ///
    /// # Errors
    /// Never returns in this build.
    pub fn nvals(&self) -> Result<usize> {
        match self.gpu.never {}
    }
    /// The device it lives on.
    pub fn gpu(&self) -> &Gpu {
        match self.gpu.never {}
    }
}

/// Where a device operation may write (the device form of
/// [`crate::descriptor::Mask`]).
#[derive(Clone, Copy, Debug)]
pub struct DeviceMask<'a> {
    never: &'a Infallible,
}

impl<'a> DeviceMask<'a> {
    /// The structure of `v`.
    pub fn structure<T: DeviceValue>(v: &'a DeviceVector<T>) -> Self {
        match v.gpu.never {}
    }
    /// The present entries of `v` whose value is true.
    pub fn values<T: DeviceValue>(v: &'a DeviceVector<T>) -> Self {
        match v.gpu.never {}
    }
    /// The complement.
    pub fn complement(self) -> Self {
        match *self.never {}
    }
    /// The length of the vector the mask came from.
    pub fn len(&self) -> usize {
        match *self.never {}
    }
    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        match *self.never {}
    }
}

/// Where a device matrix operation may write (the device form of
/// [`crate::descriptor::MatrixMask`]).
#[derive(Clone, Copy, Debug)]
pub struct DeviceMatrixMask<'a> {
    never: &'a Infallible,
}

impl<'a> DeviceMatrixMask<'a> {
    /// The structure of `m`.
    pub fn structure<T: DeviceValue>(m: &'a DeviceCsr<T>) -> Self {
        match m.gpu.never {}
    }
    /// The stored entries of `m` whose value is true.
    pub fn values<T: DeviceValue>(m: &'a DeviceCsr<T>) -> Self {
        match m.gpu.never {}
    }
    /// The complement.
    pub fn complement(self) -> Self {
        match *self.never {}
    }
    /// Rows of the matrix the mask came from.
    pub fn nrows(&self) -> usize {
        match *self.never {}
    }
    /// Columns of the matrix the mask came from.
    pub fn ncols(&self) -> usize {
        match *self.never {}
    }
}

/// The device algebra: the operations of [`crate::ops`] by the same names and in the
/// same argument order. In this build every one returns [`Error::Unsupported`] (no
/// operand can be made).
pub mod ops {
    use super::*;
    use crate::algebra::{Accum, BinaryOp, Monoid, Semiring};
    use crate::descriptor::{Descriptor, MatrixDescriptor};

    /// `w<m> = w (.) (A (+).(x) u)` -- pull.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn mxv<S, A, U>(
        _w: &mut DeviceVector<S::Output>,
        _mask: Option<&DeviceMask<'_>>,
        _accum: Accum<'_, S::Output>,
        _semiring: S,
        _a: &DeviceCsr<A>,
        _u: &DeviceVector<U>,
        _desc: &Descriptor,
    ) -> Result<()>
    where
        S: Semiring<A, U> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        U: DeviceValue,
    {
        unsupported()
    }

    /// `w<m> = w (.) (u (+).(x) A)` -- push.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn vxm<S, A, U>(
        _w: &mut DeviceVector<S::Output>,
        _mask: Option<&DeviceMask<'_>>,
        _accum: Accum<'_, S::Output>,
        _semiring: S,
        _u: &DeviceVector<U>,
        _a: &DeviceCsr<A>,
        _desc: &Descriptor,
    ) -> Result<()>
    where
        S: Semiring<A, U> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        U: DeviceValue,
    {
        unsupported()
    }

    /// `w<m> = w (.) (u (+) v)` -- union.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn ewise_add<T: DeviceValue>(
        _w: &mut DeviceVector<T>,
        _mask: Option<&DeviceMask<'_>>,
        _accum: Accum<'_, T>,
        _op: &impl BinaryOp<T, T, Output = T>,
        _u: &DeviceVector<T>,
        _v: &DeviceVector<T>,
        _desc: &Descriptor,
    ) -> Result<()> {
        unsupported()
    }

    /// `w<m> = w (.) (u (x) v)` -- intersection.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn ewise_mult<T: DeviceValue>(
        _w: &mut DeviceVector<T>,
        _mask: Option<&DeviceMask<'_>>,
        _accum: Accum<'_, T>,
        _op: &impl BinaryOp<T, T, Output = T>,
        _u: &DeviceVector<T>,
        _v: &DeviceVector<T>,
        _desc: &Descriptor,
    ) -> Result<()> {
        unsupported()
    }

    /// `w<m> = w (.) f(u)`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn apply<T: DeviceValue>(
        _w: &mut DeviceVector<T>,
        _mask: Option<&DeviceMask<'_>>,
        _accum: Accum<'_, T>,
        _f: super::super::UnaryOp<'_, T>,
        _u: &DeviceVector<T>,
        _desc: &Descriptor,
    ) -> Result<()> {
        unsupported()
    }

    /// `w<m> = w (.) u`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn assign<T: DeviceValue>(
        _w: &mut DeviceVector<T>,
        _mask: Option<&DeviceMask<'_>>,
        _accum: Accum<'_, T>,
        _u: &DeviceVector<T>,
        _desc: &Descriptor,
    ) -> Result<()> {
        unsupported()
    }

    /// `w<m> = w (.) u(I)` -- extract, the indices on the device.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn extract<T: DeviceValue>(
        _w: &mut DeviceVector<T>,
        _mask: Option<&DeviceMask<'_>>,
        _accum: Accum<'_, T>,
        _u: &DeviceVector<T>,
        _indices: &DeviceVector<Index>,
        _desc: &Descriptor,
    ) -> Result<()> {
        unsupported()
    }

    /// `w(I(k)) = w(I(k)) (+) u(k)` -- the scatter-reduce, the indices on the device.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn assign_reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        _w: &mut DeviceVector<T>,
        _monoid: M,
        _u: &DeviceVector<T>,
        _indices: &DeviceVector<Index>,
    ) -> Result<()> {
        unsupported()
    }

    /// `w<m> = w (.) select(u)`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn select<T: DeviceValue>(
        _w: &mut DeviceVector<T>,
        _mask: Option<&DeviceMask<'_>>,
        _accum: Accum<'_, T>,
        _pred: super::super::SelectOp<T>,
        _u: &DeviceVector<T>,
        _desc: &Descriptor,
    ) -> Result<()> {
        unsupported()
    }

    /// `w<m> = w (.) x`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn assign_scalar<T: DeviceValue>(
        _w: &mut DeviceVector<T>,
        _mask: Option<&DeviceMask<'_>>,
        _accum: Accum<'_, T>,
        _x: T,
        _desc: &Descriptor,
    ) -> Result<()> {
        unsupported()
    }

    /// `s = (+)_i u(i)`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        _monoid: M,
        _u: &DeviceVector<T>,
    ) -> Result<T> {
        unsupported()
    }

    /// `C<M> = C (.) (A (+).(x) B)` -- GrB_mxm.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn mxm<S, A, B>(
        _c: &mut DeviceCsr<S::Output>,
        _mask: Option<&DeviceMatrixMask<'_>>,
        _accum: Accum<'_, S::Output>,
        _semiring: S,
        _a: &DeviceCsr<A>,
        _b: &DeviceCsr<B>,
        _desc: &MatrixDescriptor,
    ) -> Result<()>
    where
        S: Semiring<A, B> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        B: DeviceValue,
    {
        unsupported()
    }

    /// `C<M> = C (.) A'` -- GrB_transpose.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn transpose<T: DeviceValue>(
        _c: &mut DeviceCsr<T>,
        _mask: Option<&DeviceMatrixMask<'_>>,
        _accum: Accum<'_, T>,
        _a: &DeviceCsr<T>,
        _desc: &MatrixDescriptor,
    ) -> Result<()> {
        unsupported()
    }

    /// `s = (+)_{i, j} A(i, j)`.
    ///
    /// # Errors
    /// Always [`Error::Unsupported`] in this build.
    pub fn reduce_matrix<T: DeviceValue, M: Monoid<T> + 'static>(
        _monoid: M,
        _a: &DeviceCsr<T>,
    ) -> Result<T> {
        unsupported()
    }
}

/// PageRank on the device.
///
/// # Errors
/// Never returns in this build (no [`Gpu`] can be made).
pub fn pagerank(
    gpu: &Gpu,
    _g: &crate::graph::Graph<'_, ()>,
    _opts: &crate::algo::pagerank::PageRankOptions,
    _precision: crate::algo::pagerank::Precision,
) -> Result<crate::algo::pagerank::PageRank> {
    match gpu.never {}
}

/// Triangle counting on the device.
///
/// # Errors
/// Never returns in this build (no [`Gpu`] can be made).
pub fn triangle_count(
    gpu: &Gpu,
    _g: &crate::graph::Graph<'_, ()>,
    _method: crate::algo::triangles::TriangleMethod,
    _presort: crate::algo::triangles::Presort,
) -> Result<crate::algo::triangles::TriangleCount> {
    match gpu.never {}
}

/// Weakly connected components on the device.
///
/// # Errors
/// Never returns in this build (no [`Gpu`] can be made).
pub fn wcc(
    gpu: &Gpu,
    _g: &crate::graph::Graph<'_, ()>,
) -> Result<crate::algo::components::Components> {
    match gpu.never {}
}

/// Single-source shortest paths by delta-stepping on the device.
///
/// # Errors
/// Never returns in this build (no [`Gpu`] can be made).
pub fn delta_stepping(
    gpu: &Gpu,
    _g: &crate::graph::Graph<'_, f64>,
    _source: Index,
    _delta: f64,
) -> Result<ShortestPaths> {
    match gpu.never {}
}

/// Community detection by label propagation on the device.
///
/// # Errors
/// Never returns in this build (no [`Gpu`] can be made).
pub fn cdlp(gpu: &Gpu, _g: &crate::graph::Graph<'_, ()>, _iterations: usize) -> Result<Vec<Index>> {
    match gpu.never {}
}
