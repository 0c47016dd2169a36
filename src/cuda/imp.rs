//! The `cuda` feature's implementation of the module's API.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::CudaSlice;

use super::{DeviceValue, Schedule};
use crate::algebra::Index;
use crate::algo::bellman_ford::{NegativeCycle, ShortestPaths};
use crate::algo::bfs::{self as cpu_bfs, BfsGraph, BfsOptions, BfsResult, LevelTrace, Policy};
use crate::backend::cuda::abi::{EB_UNREACHED, EbConvertParams, EbCsr, EbLevelCounters};
use crate::backend::cuda::exec::{Exec, Launch};
use crate::backend::cuda::gpu::GpuExec;
use crate::backend::cuda::host::HostExec;
use crate::backend::cuda::levels::{GraphView, Levels, Structure, csr_view};
use crate::backend::cuda::matrix::{self as dmat, DMat, MatMaskView};
use crate::backend::cuda::ops::{self as dops, CsrView, DVec, MaskView};
use crate::backend::cuda::relax;
use crate::error::{Error, Result};
use crate::generate::chung_lu::Plan;
use crate::matrix::Csr;
use crate::vector::{BitmapVector, DenseVector, SparseVector, Vector};

/// An open GPU: a context, a stream and the loaded kernels. Cheap to clone (shared).
#[derive(Clone, Debug)]
pub struct Gpu {
    ex: Arc<GpuExec>,
}

impl Gpu {
    /// Opens GPU `ordinal` (0 for the first).
    ///
    /// # Errors
    /// [`Error::Unsupported`] when this machine has no CUDA driver, no such GPU, or a
    /// driver too old for the embedded kernels (CUDA 13.0 is needed).
    pub fn new(ordinal: usize) -> Result<Gpu> {
        Ok(Gpu {
            ex: Arc::new(GpuExec::new(ordinal)?),
        })
    }

    /// The device's name, e.g. `NVIDIA H200`.
    pub fn name(&self) -> String {
        self.ex.name()
    }

    /// Waits until the work queued on the device is done.
    ///
    /// # Errors
    /// A device error.
    pub fn synchronize(&self) -> Result<()> {
        self.ex.synchronize()
    }
}

fn as_bytes<T: DeviceValue>(v: &[T]) -> &[u8] {
    // SAFETY: DeviceValue is sealed to plain integer, float and bool types (and the
    // zero-sized unit), whose bytes are all initialised.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

fn from_bytes<T: DeviceValue>(b: &[u8], len: usize) -> Vec<T> {
    let mut out = vec![T::default(); len];
    let size = std::mem::size_of::<T>() * len;
    if size > 0 {
        // SAFETY: `out` holds `size` bytes; the bytes came from `as_bytes` of the same T.
        unsafe {
            std::ptr::copy_nonoverlapping(b.as_ptr(), out.as_mut_ptr().cast::<u8>(), size);
        }
    }
    out
}

fn upload_values<T: DeviceValue>(gpu: &Gpu, v: &[T]) -> Result<Option<CudaSlice<u8>>> {
    if std::mem::size_of::<T>() == 0 {
        Ok(None)
    } else {
        Ok(Some(gpu.ex.upload(as_bytes(v))?))
    }
}

fn download_values<T: DeviceValue>(
    gpu: &Gpu,
    b: &Option<CudaSlice<u8>>,
    len: usize,
) -> Result<Vec<T>> {
    match b {
        Some(b) => Ok(from_bytes(
            &gpu.ex.download(b, len * std::mem::size_of::<T>())?,
            len,
        )),
        None => Ok(vec![T::default(); len]),
    }
}

fn rows_fit(n: usize) -> Result<()> {
    if n >= EB_UNREACHED as usize {
        return Err(Error::Unsupported(format!(
            "CUDA: {n} rows; the device kernels index vertices with u32 below {EB_UNREACHED}"
        )));
    }
    Ok(())
}

/// A CSR matrix in device memory: row offsets, column indices and (unless `T` is `()`)
/// values, as in [`Csr`].
pub struct DeviceCsr<T> {
    gpu: Gpu,
    m: DMat<GpuExec>,
    _t: PhantomData<T>,
}

impl<T> std::fmt::Debug for DeviceCsr<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceCsr")
            .field("nrows", &self.m.nrows)
            .field("ncols", &self.m.ncols)
            .field("nnz", &self.m.nnz)
            .finish_non_exhaustive()
    }
}

impl DeviceCsr<()> {
    /// Copies the structure of `a` (offsets and indices, no values) to the device.
    ///
    /// # Errors
    /// A device error, or more rows than u32 ids allow.
    pub fn upload_structure<T: crate::algebra::Scalar>(gpu: &Gpu, a: &Csr<T>) -> Result<Self> {
        rows_fit(a.nrows().max(a.ncols()))?;
        Ok(DeviceCsr {
            gpu: gpu.clone(),
            m: DMat::upload(&*gpu.ex, a, true)?,
            _t: PhantomData,
        })
    }
}

impl<T: DeviceValue> DeviceCsr<T> {
    /// Copies `a` to the device.
    ///
    /// # Errors
    /// A device error (out of memory, say), or more rows than u32 ids allow.
    pub fn upload(gpu: &Gpu, a: &Csr<T>) -> Result<Self> {
        rows_fit(a.nrows().max(a.ncols()))?;
        Ok(DeviceCsr {
            gpu: gpu.clone(),
            m: DMat::upload(&*gpu.ex, a, false)?,
            _t: PhantomData,
        })
    }

    /// An `nrows x ncols` matrix with no entries on `gpu` (as [`Csr::empty`]): the
    /// output of a device [`ops::mxm`] or [`ops::transpose`].
    ///
    /// # Errors
    /// A device error, or more rows or columns than u32 ids allow.
    pub fn empty(gpu: &Gpu, nrows: usize, ncols: usize) -> Result<Self> {
        rows_fit(nrows.max(ncols))?;
        Ok(DeviceCsr {
            gpu: gpu.clone(),
            m: DMat::empty(&*gpu.ex, nrows, ncols, std::mem::size_of::<T>())?,
            _t: PhantomData,
        })
    }

    /// Copies the matrix back to the host.
    ///
    /// # Errors
    /// A device error.
    pub fn download(&self) -> Result<Csr<T>> {
        self.m.download(&*self.gpu.ex)
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.m.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.m.ncols
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.m.nnz
    }
    /// The device it lives on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    fn view(&self) -> CsrView {
        let ex = &*self.gpu.ex;
        CsrView {
            a: self.m.csr(ex),
            values: self.m.vals_ptr(ex).cast_const(),
        }
    }
}

/// A graph prepared for traversal on the device: its out-arcs and, unless symmetric,
/// its in-arcs for pull levels. Build it once and search it many times.
#[derive(Debug)]
pub struct DeviceBfsGraph {
    a: DeviceCsr<()>,
    at: Option<DeviceCsr<()>>,
}

impl DeviceBfsGraph {
    /// Copies the structure of `g` (its in-arcs too, built on the host if they are not
    /// yet, unless the graph is symmetric).
    ///
    /// # Errors
    /// A device error, or a non-square adjacency.
    pub fn new<T: crate::algebra::Scalar>(gpu: &Gpu, g: &BfsGraph<'_, T>) -> Result<Self> {
        let a = g.adjacency();
        if a.nrows() != a.ncols() {
            return Err(Error::InvalidArgument(format!(
                "bfs needs a square adjacency, not {} x {}",
                a.nrows(),
                a.ncols()
            )));
        }
        let a_dev = DeviceCsr::upload_structure(gpu, a)?;
        let at = if g.is_symmetric() {
            None
        } else {
            Some(DeviceCsr::upload(gpu, g.in_edges())?)
        };
        Ok(DeviceBfsGraph { a: a_dev, at })
    }

    /// A graph already on the device whose structure is symmetric (every arc stored both
    /// ways, as [`chung_lu`] writes an undirected graph): pull reads `a` itself. The
    /// caller vouches for the symmetry, as with [`BfsGraph::symmetric`].
    ///
    /// # Errors
    /// A non-square matrix.
    pub fn symmetric(a: DeviceCsr<()>) -> Result<Self> {
        if a.m.nrows != a.m.ncols {
            return Err(Error::InvalidArgument(format!(
                "bfs needs a square adjacency, not {} x {}",
                a.m.nrows, a.m.ncols
            )));
        }
        Ok(DeviceBfsGraph { a, at: None })
    }

    /// Number of vertices.
    pub fn vertices(&self) -> usize {
        self.a.m.nrows
    }
    /// Number of arcs.
    pub fn arcs(&self) -> usize {
        self.a.m.nnz
    }

    fn view(&self) -> GraphView {
        let ex = &*self.a.gpu.ex;
        let n = self.a.m.nrows as u32;
        let a = csr_view(ex, n, &self.a.m.off, &self.a.m.idx);
        let at = match &self.at {
            Some(t) => csr_view(ex, n, &t.m.off, &t.m.idx),
            None => a,
        };
        GraphView {
            a,
            at,
            m: self.a.m.nnz as u64,
        }
    }
}

/// Generates the Chung-Lu graph of `plan` under `seed` on the device, straight into a
/// [`DeviceCsr`] (sorted rows, no self-loops, no repeated entries; undirected edges both
/// ways): byte for byte [`crate::generate::chung_lu::generate`]'s graph, for every
/// schedule. Nothing is copied back unless asked ([`DeviceCsr::download`]).
///
/// # Errors
/// A device error (out of memory, say), or more vertices than u32 ids allow.
pub fn chung_lu(gpu: &Gpu, plan: &Plan, seed: u64, schedule: Schedule) -> Result<DeviceCsr<()>> {
    let ex = &*gpu.ex;
    let threads = ex.threads();
    let g = crate::backend::cuda::chung_lu::generate(ex, plan, seed, schedule, threads, None)?;
    Ok(device_csr(gpu, g))
}

/// [`chung_lu`] with the device synchronized after every phase, and the seconds of each:
/// setup, the walk alone (random numbers, skipping, decoding: a pass that writes
/// nothing), the count pass, the prefix sum, the fill pass and the row sort. Slower than
/// [`chung_lu`] by the extra walk and synchronizations; for finding where time goes.
///
/// # Errors
/// As [`chung_lu`].
pub fn chung_lu_phases(
    gpu: &Gpu,
    plan: &Plan,
    seed: u64,
    schedule: Schedule,
) -> Result<(DeviceCsr<()>, super::Phases)> {
    let ex = &*gpu.ex;
    let mut phases = Vec::new();
    let g = crate::backend::cuda::chung_lu::generate(
        ex,
        plan,
        seed,
        schedule,
        ex.threads(),
        Some(&mut phases),
    )?;
    Ok((device_csr(gpu, g), phases))
}

fn device_csr(gpu: &Gpu, g: crate::backend::cuda::chung_lu::Generated<GpuExec>) -> DeviceCsr<()> {
    DeviceCsr {
        gpu: gpu.clone(),
        m: DMat {
            nrows: g.n,
            ncols: g.n,
            nnz: g.nnz,
            elem: 0,
            off: g.offsets,
            idx: g.indices,
            vals: None,
        },
        _t: PhantomData,
    }
}

/// Breadth-first search on the device, each level's direction chosen by `policy` as in
/// [`crate::algo::bfs::bfs`], whose result this equals element by element (the trace's
/// times aside).
///
/// # Errors
/// As the CPU search for bad sources; a device error.
pub fn bfs(
    g: &DeviceBfsGraph,
    sources: &[Index],
    policy: &dyn Policy,
    opts: &BfsOptions,
) -> Result<BfsResult> {
    bfs_on_device(g, sources, policy, opts)?.download()
}

/// [`bfs`] leaving parents and levels on the device (what a timing of the search alone,
/// or a next step on the device, wants); [`DeviceBfsResult::download`] copies them back.
///
/// # Errors
/// As [`bfs`].
pub fn bfs_on_device(
    g: &DeviceBfsGraph,
    sources: &[Index],
    policy: &dyn Policy,
    opts: &BfsOptions,
) -> Result<DeviceBfsResult> {
    let n = g.vertices();
    crate::algo::bfs::check_source_ids(n, sources, opts)?;
    let ex = &*g.a.gpu.ex;
    let levels = Levels::new(ex, g.view(), sources, opts.target, opts.trace)?;
    let ((parents, levels), s) = cpu_bfs::drive(levels, n, g.arcs() as u64, policy, opts)?;
    ex.synchronize()?;
    Ok(DeviceBfsResult {
        gpu: g.a.gpu.clone(),
        n,
        parents,
        levels,
        reached: s.reached,
        max_depth: s.max_depth,
        complete: s.complete,
        trace: s.trace,
    })
}

/// A search's result with parents and levels in device memory.
#[derive(Debug)]
pub struct DeviceBfsResult {
    gpu: Gpu,
    n: usize,
    parents: CudaSlice<u32>,
    levels: CudaSlice<u32>,
    /// Vertices reached (the sources included).
    pub reached: usize,
    /// The deepest level reached.
    pub max_depth: u32,
    /// `false` when a depth limit or a target stopped the search early.
    pub complete: bool,
    /// Per-level trace, when asked for.
    pub trace: Vec<LevelTrace>,
}

impl DeviceBfsResult {
    /// Copies parents and levels back: the [`BfsResult`] of [`crate::algo::bfs::bfs`].
    ///
    /// # Errors
    /// A device error.
    pub fn download(&self) -> Result<BfsResult> {
        let (n, ex) = (self.n, &self.gpu.ex);
        Ok(BfsResult {
            parents: ex.download(&self.parents, n)?,
            levels: ex.download(&self.levels, n)?,
            reached: self.reached,
            max_depth: self.max_depth,
            complete: self.complete,
            trace: self.trace.clone(),
        })
    }
}

/// Bellman-Ford on the device over MIN.PLUS, round for round the CPU's
/// [`crate::algo::bellman_ford()`]: equal distances and predecessors.
///
/// # Errors
/// The outer error: a device error, a non-square matrix or a source outside it. The
/// inner one: a negative cycle reachable from the source.
pub fn bellman_ford(
    a: &DeviceCsr<f64>,
    source: Index,
) -> Result<Result<ShortestPaths, NegativeCycle>> {
    check_square("bellman-ford", a.m.nrows, a.m.ncols, source)?;
    let ex = &*a.gpu.ex;
    let w = a.m.vals.as_ref().expect("f64 values are stored");
    // The values are the f64s' bytes, in 8-byte words.
    let weights = ex.addr(w).cast::<f64>().cast_const();
    relax::bellman_ford(ex, a.m.nrows as u32, &a.m.off, &a.m.idx, weights, source)
}

/// The checks of a single-source search by method `what`: a square matrix, a source in
/// it.
fn check_square(what: &str, nrows: usize, ncols: usize, source: Index) -> Result<()> {
    if nrows != ncols {
        return Err(Error::InvalidArgument(format!(
            "{what} needs a square matrix, not {nrows} x {ncols}"
        )));
    }
    if source as usize >= nrows {
        return Err(Error::InvalidArgument(format!(
            "vertex {source} is not in the graph ({nrows} vertices)"
        )));
    }
    Ok(())
}

/// PageRank on the device with the Graphalytics semantics of
/// [`crate::algo::pagerank_with`]: the same iteration as the CPU's over [`ops`]
/// (`ewise_mult`, `reduce`, `apply`, the accumulated `mxv` over the in-edges), with the
/// graph's in-edges and every vector resident on the device; the ranks are copied back
/// at the end. The ranks equal the CPU's within float rounding (the sums are associated
/// as in [`ops`]: a row in order, `reduce` by segments of 2048).
///
/// # Errors
/// The parameter errors of [`crate::algo::pagerank::PageRankOptions::check`]; a device
/// error.
///
/// # Panics
/// If the adjacency is not square.
pub fn pagerank(
    gpu: &Gpu,
    g: &crate::graph::Graph<'_, ()>,
    opts: &crate::algo::pagerank::PageRankOptions,
    precision: crate::algo::pagerank::Precision,
) -> Result<crate::algo::pagerank::PageRank> {
    pagerank_on(&*gpu.ex, g, opts, precision, |a| {
        let d = DeviceCsr::upload_structure(gpu, a)?;
        let v = d.view();
        Ok((d, v))
    })
}

/// The device PageRank on executor `ex`, the in-edges uploaded by `upload` (which
/// returns what keeps them alive and their view).
fn pagerank_on<E: Exec, K>(
    ex: &E,
    g: &crate::graph::Graph<'_, ()>,
    opts: &crate::algo::pagerank::PageRankOptions,
    precision: crate::algo::pagerank::Precision,
    upload: impl FnOnce(&Csr<()>) -> Result<(K, CsrView)>,
) -> Result<crate::algo::pagerank::PageRank> {
    use crate::algo::pagerank::{PageRank, Precision};
    use crate::backend::cuda::pagerank::sweep;
    opts.check()?;
    let a = g.adjacency();
    assert_eq!(a.nrows(), a.ncols(), "pagerank needs a square matrix");
    let n = a.nrows();
    if n == 0 {
        return Ok(PageRank {
            ranks: Vec::new(),
            iterations: 0,
            change: 0.0,
        });
    }
    dops::fits(n)?;
    let at = if g.is_symmetric() { a } else { g.in_edges() };
    let outdeg: Vec<u64> = (0..n).map(|i| a.degree(i) as u64).collect();
    let (_keep, view) = upload(at)?;
    match precision {
        Precision::F64 => sweep::<E, f64>(ex, view, &outdeg, opts),
        Precision::F32 => sweep::<E, f32>(ex, view, &outdeg, opts),
    }
}

/// Triangle counting on the device, the method and presort of
/// [`crate::algo::triangle_count`] (whose count this equals): the operand `T` (the
/// presorted graph's strict lower or upper triangle, or its off-diagonal part) is built
/// on the host and uploaded, then `C<T> = T (+).(pair) T'` runs as the device's masked
/// dot products ([`ops::mxm`]) and `C` is summed there ([`ops::reduce_matrix`]).
///
/// # Errors
/// [`Error::InvalidArgument`] for a non-square adjacency; a device error.
pub fn triangle_count(
    gpu: &Gpu,
    g: &crate::graph::Graph<'_, ()>,
    method: crate::algo::triangles::TriangleMethod,
    presort: crate::algo::triangles::Presort,
) -> Result<crate::algo::triangles::TriangleCount> {
    triangle_count_on(&*gpu.ex, g, method, presort)
}

fn triangle_count_on<E: Exec>(
    ex: &E,
    g: &crate::graph::Graph<'_, ()>,
    method: crate::algo::triangles::TriangleMethod,
    presort: crate::algo::triangles::Presort,
) -> Result<crate::algo::triangles::TriangleCount> {
    use crate::algebra::{Plus, PlusPair};
    use crate::algo::triangles::{triangle_operand, triangles_from_sum};
    use crate::backend::cuda::abi::EB_TYPE_UNIT;
    use crate::descriptor::MatrixDescriptor;
    let a = g.adjacency();
    if a.nrows() != a.ncols() {
        return Err(Error::InvalidArgument(format!(
            "triangle counting needs a square adjacency, not {} x {}",
            a.nrows(),
            a.ncols()
        )));
    }
    rows_fit(a.nrows())?;
    let (t, method, presort) = triangle_operand(g, method, presort);
    let n = t.nrows();
    let dt = DMat::upload(ex, &t, true)?;
    let mut c = DMat::empty(ex, n, n, std::mem::size_of::<u64>())?;
    let mask = MatMaskView::of(ex, &dt, EB_TYPE_UNIT, true, false);
    // C<T> = T plus.pair T'
    dmat::typed::mxm::<E, PlusPair<u64>, (), ()>(
        ex,
        &mut c,
        mask,
        None,
        PlusPair::<u64>::new(),
        &dt,
        &dt,
        &MatrixDescriptor::DEFAULT.with_transpose_b(),
    )?;
    let sum = dmat::typed::reduce_matrix(ex, Plus::<u64>::new(), &c)?;
    Ok(triangles_from_sum(sum, method, presort))
}

/// Weakly connected components on the device: FastSV over the device algebra (`mxv`
/// with MIN.SECOND, [`ops::assign_reduce`] for the hooking, [`ops::extract`] for the
/// shortcuts), the graph's symmetric pattern and every vector resident on the device;
/// the labels are copied back at the end. The labels equal
/// [`crate::algo::wcc`]'s (each vertex's smallest component member, arcs followed
/// both ways); the rounds are the device's (the CPU first samples, as Afforest does).
///
/// # Errors
/// [`Error::InvalidArgument`] for a non-square adjacency; a device error.
pub fn wcc(
    gpu: &Gpu,
    g: &crate::graph::Graph<'_, ()>,
) -> Result<crate::algo::components::Components> {
    wcc_on(&*gpu.ex, g, |s| {
        let d = DeviceCsr::upload_structure(gpu, s)?;
        let v = d.view();
        Ok((d, v))
    })
}

/// The device wcc on executor `ex`, the symmetric pattern uploaded by `upload` (which
/// returns what keeps it alive and its view).
fn wcc_on<E: Exec, K>(
    ex: &E,
    g: &crate::graph::Graph<'_, ()>,
    upload: impl FnOnce(&Csr<()>) -> Result<(K, CsrView)>,
) -> Result<crate::algo::components::Components> {
    let a = g.adjacency();
    if a.nrows() != a.ncols() {
        return Err(Error::InvalidArgument(format!(
            "wcc needs a square adjacency, not {} x {}",
            a.nrows(),
            a.ncols()
        )));
    }
    let n = a.nrows();
    if n == 0 {
        return Ok(crate::algo::components::Components {
            labels: Vec::new(),
            rounds: 0,
        });
    }
    dops::fits(n)?;
    let sym;
    let s = if g.is_symmetric() {
        a
    } else {
        sym = a.symmetrize(|_, _| ());
        &sym
    };
    let (_keep, view) = upload(s)?;
    crate::backend::cuda::components::fastsv(ex, view, n)
}

/// Single-source shortest paths by delta-stepping on the device, over the device
/// algebra (`select`, `vxm` over MIN.PLUS, `ewise_mult`, `assign`, `reduce`): the light
/// arcs (`w <= delta`) and the heavy ones are split on the host and uploaded, the
/// distances stay on the device, bucket by bucket, and the predecessors come from one
/// pass over the tight arcs there. Distances and predecessors equal
/// [`crate::algo::delta_stepping()`]'s (the smallest `u` with `d(u) + w(u, v) = d(v)`);
/// `rounds` counts the device's relaxations.
///
/// # Errors
/// [`Error::InvalidArgument`] for a non-square adjacency, a source outside it, a delta
/// that is not a positive number, or a negative or NaN weight (as the CPU's); a device
/// error.
pub fn delta_stepping(
    gpu: &Gpu,
    g: &crate::graph::Graph<'_, f64>,
    source: Index,
    delta: f64,
) -> Result<ShortestPaths> {
    delta_stepping_on(&*gpu.ex, g, source, delta)
}

fn delta_stepping_on<E: Exec>(
    ex: &E,
    g: &crate::graph::Graph<'_, f64>,
    source: Index,
    delta: f64,
) -> Result<ShortestPaths> {
    use crate::descriptor::MatrixDescriptor;
    let a = g.adjacency();
    let n = a.nrows();
    check_square("delta-stepping", n, a.ncols(), source)?;
    let heavy_arcs = crate::algo::delta_stepping::check_delta(a, delta)?;
    dops::fits(n)?;
    let md = MatrixDescriptor::DEFAULT;
    let split = |heavy: bool| {
        let mut c = Csr::empty(n, n);
        crate::ops::select_matrix(&mut c, None, None, |_, _, w| (w > delta) == heavy, a, &md);
        c
    };
    let (light, heavy) = if heavy_arcs == 0 {
        (None, None)
    } else {
        (Some(split(false)), Some(split(true)))
    };
    let dl = DMat::upload(ex, light.as_ref().unwrap_or(a), false)?;
    let dh = heavy
        .as_ref()
        .map(|h| DMat::upload(ex, h, false))
        .transpose()?;
    drop((light, heavy));
    let view = |d: &DMat<E>| CsrView {
        a: d.csr(ex),
        values: d.vals_ptr(ex).cast_const(),
    };
    let (t, rounds) = crate::backend::cuda::sssp::delta_stepping(
        ex,
        view(&dl),
        dh.as_ref().map(view),
        n,
        source,
        delta,
    )?;
    let distances = dops::pack::download::<E, f64>(ex, &t)?
        .into_dense(f64::INFINITY)
        .into_vec();
    let weights = |d: &DMat<E>| d.vals_ptr(ex).cast_const().cast::<f64>();
    let mut arcs = vec![(dl.csr(ex), weights(&dl))];
    if let Some(h) = &dh {
        arcs.push((h.csr(ex), weights(h)));
    }
    let predecessors =
        relax::tight_predecessors(ex, &arcs, t.vals_ptr(ex).cast::<f64>(), &distances, source)?;
    Ok(ShortestPaths {
        distances,
        predecessors,
        rounds,
    })
}

/// Community detection by label propagation on the device, with the Graphalytics
/// semantics of [`crate::algo::cdlp()`] (synchronous rounds; the neighbours' most
/// frequent label, the smallest on a tie; a directed graph's in- and out-neighbours
/// both count): the count matrix is built on the host and uploaded, then each round is
/// one kernel over its rows (each row's labels sorted with their counts, then summed
/// run by run), the labels resident on the device. The labels equal the CPU's.
///
/// # Errors
/// [`Error::InvalidArgument`] for a non-square adjacency; a device error.
pub fn cdlp(gpu: &Gpu, g: &crate::graph::Graph<'_, ()>, iterations: usize) -> Result<Vec<Index>> {
    cdlp_on(&*gpu.ex, g, iterations)
}

fn cdlp_on<E: Exec>(
    ex: &E,
    g: &crate::graph::Graph<'_, ()>,
    iterations: usize,
) -> Result<Vec<Index>> {
    let a = g.adjacency();
    if a.nrows() != a.ncols() {
        return Err(Error::InvalidArgument(format!(
            "cdlp needs a square adjacency, not {} x {}",
            a.nrows(),
            a.ncols()
        )));
    }
    if a.nrows() == 0 {
        return Ok(Vec::new());
    }
    dops::fits(a.nrows())?;
    let m = crate::algo::cdlp::neighbour_counts(g);
    let dm = DMat::upload(ex, &m, false)?;
    drop(m);
    crate::backend::cuda::cdlp::cdlp(ex, &dm, iterations)
}

/// A matrix structure in the host executor's memory: offsets and indices.
type HostStructure = (<HostExec as Exec>::Buf<u64>, <HostExec as Exec>::Buf<u32>);

/// The structure of `a` in the host executor's memory, and its view (a pattern: no
/// values).
fn host_structure(ex: &HostExec, a: &Csr<()>) -> Result<(HostStructure, CsrView)> {
    let off = ex.upload(a.offsets())?;
    let idx = ex.upload(a.indices())?;
    let view = CsrView {
        a: EbCsr {
            offsets: ex.addr(&off),
            indices: ex.addr(&idx),
            nrows: a.nrows() as u32,
            ncols: a.ncols() as u32,
        },
        values: std::ptr::null(),
    };
    Ok(((off, idx), view))
}

/// A sparse vector in device memory: `nvals` indices (not necessarily sorted on the
/// device; sorted again on download) and their values.
#[derive(Debug)]
pub struct DeviceSparseVector<T> {
    gpu: Gpu,
    len: usize,
    nvals: usize,
    indices: CudaSlice<u32>,
    values: Option<CudaSlice<u8>>,
    _t: PhantomData<T>,
}

impl<T: DeviceValue> DeviceSparseVector<T> {
    /// Copies `v` to the device.
    ///
    /// # Errors
    /// A device error.
    pub fn upload(gpu: &Gpu, v: &SparseVector<T>) -> Result<Self> {
        rows_fit(v.len())?;
        Ok(DeviceSparseVector {
            gpu: gpu.clone(),
            len: v.len(),
            nvals: v.nvals(),
            indices: gpu.ex.upload(v.indices())?,
            values: upload_values(gpu, v.values())?,
            _t: PhantomData,
        })
    }

    /// Copies the vector back, sorted by index.
    ///
    /// # Errors
    /// A device error.
    pub fn download(&self) -> Result<SparseVector<T>> {
        let idx = self.gpu.ex.download(&self.indices, self.nvals)?;
        let vals: Vec<T> = download_values(&self.gpu, &self.values, self.nvals)?;
        let mut pairs: Vec<(Index, T)> = idx.into_iter().zip(vals).collect();
        pairs.sort_unstable_by_key(|p| p.0);
        let (i, v) = pairs.into_iter().unzip();
        SparseVector::new_checked(self.len, i, v)
    }

    /// Length.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Number of present entries.
    pub fn nvals(&self) -> usize {
        self.nvals
    }
}

impl DeviceSparseVector<()> {
    /// The entries of a device bitmap, converted on the device (kernel
    /// `eb_bits_to_queue`).
    ///
    /// # Errors
    /// A device error.
    pub fn from_bitmap(b: &DeviceBitmap) -> Result<Self> {
        let ex = &*b.gpu.ex;
        let queue = ex.alloc::<u32>(b.len)?;
        let nvals = bits_to_queue(ex, &b.words, b.len, &queue)?;
        Ok(DeviceSparseVector {
            gpu: b.gpu.clone(),
            len: b.len,
            nvals,
            indices: queue,
            values: None,
            _t: PhantomData,
        })
    }
}

fn bits_to_queue<E: Exec>(
    ex: &E,
    words: &E::Buf<u32>,
    len: usize,
    queue: &E::Buf<u32>,
) -> Result<usize> {
    let counters = ex.alloc::<EbLevelCounters>(1)?;
    let p = EbConvertParams {
        a_offsets: std::ptr::null(),
        queue: ex.addr(queue),
        big: std::ptr::null_mut(),
        bits: ex.addr(words),
        counters: ex.addr(&counters),
        queue_len: 0,
        nwords: len.div_ceil(32) as u32,
    };
    ex.run(Launch::BitsToQueue(p))?;
    Ok(ex.download(&counters, 1)?[0].vertices as usize)
}

fn queue_to_bits<E: Exec>(
    ex: &E,
    queue: &E::Buf<u32>,
    nvals: usize,
    words: &mut E::Buf<u32>,
) -> Result<()> {
    ex.zero(words)?;
    let p = EbConvertParams {
        a_offsets: std::ptr::null(),
        queue: ex.addr(queue),
        big: std::ptr::null_mut(),
        bits: ex.addr(words),
        counters: std::ptr::null_mut(),
        queue_len: nvals as u32,
        nwords: 0,
    };
    ex.run(Launch::QueueToBits(p))
}

/// A bitmap of present indices in device memory (32 per word, the layout of the host
/// [`BitmapVector`]'s 64-bit words on a little-endian machine): the pull frontier's form.
#[derive(Debug)]
pub struct DeviceBitmap {
    gpu: Gpu,
    len: usize,
    words: CudaSlice<u32>,
}

impl DeviceBitmap {
    /// Copies the presence bits of `v` to the device.
    ///
    /// # Errors
    /// A device error.
    pub fn upload<T: crate::algebra::Scalar>(gpu: &Gpu, v: &BitmapVector<T>) -> Result<Self> {
        rows_fit(v.len())?;
        let words: Vec<u32> = v
            .bits()
            .iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect();
        Ok(DeviceBitmap {
            gpu: gpu.clone(),
            len: v.len(),
            words: gpu.ex.upload(&words)?,
        })
    }

    /// The set bits of a device sparse vector, converted on the device (kernel
    /// `eb_queue_to_bits`).
    ///
    /// # Errors
    /// A device error.
    pub fn from_sparse<T: DeviceValue>(v: &DeviceSparseVector<T>) -> Result<Self> {
        let ex = &*v.gpu.ex;
        let mut words = ex.alloc::<u32>(v.len.div_ceil(64) * 2)?;
        queue_to_bits(ex, &v.indices, v.nvals, &mut words)?;
        Ok(DeviceBitmap {
            gpu: v.gpu.clone(),
            len: v.len,
            words,
        })
    }

    /// Copies the bitmap back (values are `()`).
    ///
    /// # Errors
    /// A device error.
    pub fn download(&self) -> Result<BitmapVector<()>> {
        let w = self
            .gpu
            .ex
            .download(&self.words, self.len.div_ceil(64) * 2)?;
        let bits = w
            .chunks(2)
            .map(|p| p[0] as u64 | (p.get(1).copied().unwrap_or(0) as u64) << 32)
            .collect();
        Ok(BitmapVector::from_parts(self.len, bits, vec![(); self.len]))
    }

    /// Length.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A dense vector in device memory.
#[derive(Debug)]
pub struct DeviceDenseVector<T> {
    gpu: Gpu,
    len: usize,
    values: Option<CudaSlice<u8>>,
    _t: PhantomData<T>,
}

impl<T: DeviceValue> DeviceDenseVector<T> {
    /// Copies `v` to the device.
    ///
    /// # Errors
    /// A device error.
    pub fn upload(gpu: &Gpu, v: &DenseVector<T>) -> Result<Self> {
        Ok(DeviceDenseVector {
            gpu: gpu.clone(),
            len: v.len(),
            values: upload_values(gpu, v.as_slice())?,
            _t: PhantomData,
        })
    }

    /// Copies the vector back.
    ///
    /// # Errors
    /// A device error.
    pub fn download(&self) -> Result<DenseVector<T>> {
        Ok(DenseVector::from_vec(download_values(
            &self.gpu,
            &self.values,
            self.len,
        )?))
    }

    /// Length.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A vector in device memory for the device algebra ([`ops`]): presence bits and one
/// value slot per index (the host's bitmap form), whatever its fill.
pub struct DeviceVector<T> {
    gpu: Gpu,
    v: DVec<GpuExec>,
    _t: PhantomData<T>,
}

impl<T> std::fmt::Debug for DeviceVector<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceVector")
            .field("len", &self.v.len)
            .finish_non_exhaustive()
    }
}

impl<T: DeviceValue> DeviceVector<T> {
    /// An empty vector of length `len` on `gpu`.
    ///
    /// # Errors
    /// A device error, or a length u32 indices cannot reach.
    pub fn new(gpu: &Gpu, len: usize) -> Result<Self> {
        dops::fits(len)?;
        Ok(DeviceVector {
            gpu: gpu.clone(),
            v: DVec::new(&*gpu.ex, len, std::mem::size_of::<T>())?,
            _t: PhantomData,
        })
    }

    /// Copies `v` (any form) to the device.
    ///
    /// # Errors
    /// A device error, or a length u32 indices cannot reach.
    pub fn upload(gpu: &Gpu, v: &Vector<T>) -> Result<Self> {
        dops::fits(v.len())?;
        Ok(DeviceVector {
            gpu: gpu.clone(),
            v: dops::pack::upload(&*gpu.ex, v)?,
            _t: PhantomData,
        })
    }

    /// Copies the vector back (as a bitmap).
    ///
    /// # Errors
    /// A device error.
    pub fn download(&self) -> Result<Vector<T>> {
        dops::pack::download(&*self.gpu.ex, &self.v)
    }

    /// A copy on the same device.
    ///
    /// # Errors
    /// A device error.
    pub fn try_clone(&self) -> Result<Self> {
        Ok(DeviceVector {
            gpu: self.gpu.clone(),
            v: self.v.duplicate(&*self.gpu.ex)?,
            _t: PhantomData,
        })
    }

    /// Length.
    pub fn len(&self) -> usize {
        self.v.len
    }
    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.v.len == 0
    }
    /// Number of present entries (reads the presence bits back).
    ///
    /// # Errors
    /// A device error.
    pub fn nvals(&self) -> Result<usize> {
        self.v.nvals(&*self.gpu.ex)
    }
    /// The device it lives on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }
}

/// Where a device operation may write: the entries of a [`DeviceVector`] (its
/// structure, or the entries whose value is true), optionally complemented; the device
/// form of [`crate::descriptor::Mask`].
#[derive(Clone, Copy)]
pub struct DeviceMask<'a> {
    view: MaskView,
    len: usize,
    _v: PhantomData<&'a ()>,
}

impl std::fmt::Debug for DeviceMask<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceMask")
            .field("len", &self.len)
            .field("flags", &self.view.flags)
            .finish_non_exhaustive()
    }
}

impl<'a> DeviceMask<'a> {
    /// The structure of `v`: every present entry, whatever its value.
    pub fn structure<T: DeviceValue>(v: &'a DeviceVector<T>) -> Self {
        let ty = dops::type_code::<T>().map_or(0, |c| c.1);
        DeviceMask {
            view: MaskView::of(&*v.gpu.ex, &v.v, ty, true, false),
            len: v.v.len,
            _v: PhantomData,
        }
    }

    /// The present entries of `v` whose value is true (non-zero).
    pub fn values<T: DeviceValue>(v: &'a DeviceVector<T>) -> Self {
        let ty = dops::type_code::<T>().map_or(0, |c| c.1);
        DeviceMask {
            view: MaskView::of(&*v.gpu.ex, &v.v, ty, false, false),
            len: v.v.len,
            _v: PhantomData,
        }
    }

    /// The complement: allows exactly the indices this mask does not.
    pub fn complement(mut self) -> Self {
        self.view.flags ^= crate::backend::cuda::abi::EB_MASK_COMPLEMENT;
        self
    }

    /// The length of the vector the mask came from.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Where a device matrix operation may write: the entries of a [`DeviceCsr`] (its
/// structure, or the entries whose value is true), optionally complemented; the device
/// form of [`crate::descriptor::MatrixMask`].
#[derive(Clone, Copy)]
pub struct DeviceMatrixMask<'a> {
    view: MatMaskView,
    _m: PhantomData<&'a ()>,
}

impl std::fmt::Debug for DeviceMatrixMask<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceMatrixMask")
            .field("nrows", &self.view.m.nrows)
            .field("ncols", &self.view.m.ncols)
            .field("flags", &self.view.flags)
            .finish_non_exhaustive()
    }
}

impl<'a> DeviceMatrixMask<'a> {
    /// The structure of `m`: every stored entry, whatever its value.
    pub fn structure<T: DeviceValue>(m: &'a DeviceCsr<T>) -> Self {
        let ty = dops::type_code::<T>().map_or(0, |c| c.1);
        DeviceMatrixMask {
            view: MatMaskView::of(&*m.gpu.ex, &m.m, ty, true, false),
            _m: PhantomData,
        }
    }

    /// The stored entries of `m` whose value is true (non-zero).
    pub fn values<T: DeviceValue>(m: &'a DeviceCsr<T>) -> Self {
        let ty = dops::type_code::<T>().map_or(0, |c| c.1);
        DeviceMatrixMask {
            view: MatMaskView::of(&*m.gpu.ex, &m.m, ty, false, false),
            _m: PhantomData,
        }
    }

    /// The complement: allows exactly the positions this mask does not.
    pub fn complement(mut self) -> Self {
        self.view.flags ^= crate::backend::cuda::abi::EB_MASK_COMPLEMENT;
        self
    }

    /// Rows of the matrix the mask came from.
    pub fn nrows(&self) -> usize {
        self.view.m.nrows as usize
    }

    /// Columns of the matrix the mask came from.
    pub fn ncols(&self) -> usize {
        self.view.m.ncols as usize
    }
}

fn matrix_mask_view(
    mask: Option<&DeviceMatrixMask<'_>>,
    nrows: usize,
    ncols: usize,
) -> MatMaskView {
    match mask {
        Some(m) => {
            assert_eq!(m.view.shape(), (nrows, ncols), "mask shape != C's shape");
            m.view
        }
        None => MatMaskView::NONE,
    }
}

fn mask_view(mask: Option<&DeviceMask<'_>>, len: usize) -> MaskView {
    match mask {
        Some(m) => {
            assert_eq!(m.len, len, "mask.len() != w.len()");
            m.view
        }
        None => MaskView::NONE,
    }
}

/// The device algebra: the operations of [`crate::ops`], by the same names and in the
/// same argument order, on [`DeviceCsr`] and [`DeviceVector`] with a [`DeviceMask`] (a
/// [`DeviceMatrixMask`] for `mxm` and `transpose`).
///
/// Semirings, monoids and operators are the built-in ones over the device's types (one
/// CUDA kernel per built-in semiring and type, instantiated by build.rs from one template
/// per kernel family); any other (a [`crate::algebra::Compose`], a user's type, a
/// closure) is an [`Error::Unsupported`] naming those the device has, never a silent
/// CPU fallback. Results equal the CPU's entry for entry: byte for byte under exact
/// monoids (integers, MIN, MAX, ANY, Booleans, positional); under float PLUS and TIMES,
/// `mxv`'s pull and `reduce` sum in the CPU's order within a row or a segment of 2048
/// entries, and `vxm`'s push sums each output's terms in the order they arrive (so within
/// a few ulps of the CPU, and not the same bytes from run to run). `mxm` sums each
/// entry's terms in ascending inner index from the first, one thread per row, as the
/// CPU does: the CPU's bytes under every semiring, float PLUS included;
/// `reduce_matrix` sums the values by segments of 2048 in storage order.
///
/// Shapes are the caller's contract, as in [`crate::ops`]: a mismatch panics, naming
/// the operands. Operands must live on one GPU.
pub mod ops {
    use super::*;
    use crate::algebra::{Accum, BinaryOp, Monoid, Semiring};
    use crate::backend::cuda::ops::typed;
    use crate::descriptor::{Descriptor, MatrixDescriptor};

    /// `w<m> = w (.) (A (+).(x) u)` -- pull: one row of `A` per output entry the mask
    /// allows, stopping at the monoid's terminal value; with `desc.transpose`, a push
    /// over `A`'s rows ([`crate::ops::mxv`]).
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a semiring or accumulator the device does not have; a
    /// device error.
    ///
    /// # Panics
    /// If the shapes disagree, as [`crate::ops::mxv`].
    pub fn mxv<S, A, U>(
        w: &mut DeviceVector<S::Output>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, S::Output>,
        semiring: S,
        a: &DeviceCsr<A>,
        u: &DeviceVector<U>,
        desc: &Descriptor,
    ) -> Result<()>
    where
        S: Semiring<A, U> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        U: DeviceValue,
    {
        let (rows, cols) = if desc.transpose {
            (a.m.ncols, a.m.nrows)
        } else {
            (a.m.nrows, a.m.ncols)
        };
        assert_eq!(u.len(), cols, "u.len() != A.ncols()");
        assert_eq!(w.len(), rows, "w.len() != A.nrows()");
        let m = mask_view(mask, w.len());
        typed::mxv(
            &*w.gpu.ex,
            &mut w.v,
            m,
            accum,
            semiring,
            a.view(),
            &u.v,
            desc,
        )
    }

    /// `w<m> = w (.) (u (+).(x) A)` -- push: each entry `u(k)` scatters `A(k, j) (x)
    /// u(k)` to the `j` the mask allows; with `desc.transpose`, a pull over `A`'s rows
    /// ([`crate::ops::vxm`]).
    ///
    /// # Errors
    /// As [`mxv`].
    ///
    /// # Panics
    /// If the shapes disagree, as [`crate::ops::vxm`].
    pub fn vxm<S, A, U>(
        w: &mut DeviceVector<S::Output>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, S::Output>,
        semiring: S,
        u: &DeviceVector<U>,
        a: &DeviceCsr<A>,
        desc: &Descriptor,
    ) -> Result<()>
    where
        S: Semiring<A, U> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        U: DeviceValue,
    {
        let (rows, cols) = if desc.transpose {
            (a.m.ncols, a.m.nrows)
        } else {
            (a.m.nrows, a.m.ncols)
        };
        assert_eq!(u.len(), rows, "u.len() != A.nrows()");
        assert_eq!(w.len(), cols, "w.len() != A.ncols()");
        let m = mask_view(mask, w.len());
        typed::vxm(
            &*w.gpu.ex,
            &mut w.v,
            m,
            accum,
            semiring,
            &u.v,
            a.view(),
            desc,
        )
    }

    /// `w<m> = w (.) (u (+) v)` -- union ([`crate::ops::ewise_add`]).
    ///
    /// # Errors
    /// [`Error::Unsupported`] for an operator the device does not have; a device error.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn ewise_add<T: DeviceValue>(
        w: &mut DeviceVector<T>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, T>,
        op: &impl BinaryOp<T, T, Output = T>,
        u: &DeviceVector<T>,
        v: &DeviceVector<T>,
        desc: &Descriptor,
    ) -> Result<()> {
        ewise(true, w, mask, accum, op, u, v, desc)
    }

    /// `w<m> = w (.) (u (x) v)` -- intersection ([`crate::ops::ewise_mult`]; on the
    /// device all three of one type).
    ///
    /// # Errors
    /// As [`ewise_add`].
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn ewise_mult<T: DeviceValue>(
        w: &mut DeviceVector<T>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, T>,
        op: &impl BinaryOp<T, T, Output = T>,
        u: &DeviceVector<T>,
        v: &DeviceVector<T>,
        desc: &Descriptor,
    ) -> Result<()> {
        ewise(false, w, mask, accum, op, u, v, desc)
    }

    #[allow(clippy::too_many_arguments)]
    fn ewise<T: DeviceValue>(
        add: bool,
        w: &mut DeviceVector<T>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, T>,
        op: &dyn BinaryOp<T, T, Output = T>,
        u: &DeviceVector<T>,
        v: &DeviceVector<T>,
        desc: &Descriptor,
    ) -> Result<()> {
        assert_eq!(u.len(), v.len(), "u.len() != v.len()");
        assert_eq!(w.len(), u.len(), "w.len() != u.len()");
        let m = mask_view(mask, w.len());
        typed::ewise(&*w.gpu.ex, add, &mut w.v, m, accum, op, &u.v, &v.v, desc)
    }

    /// `w<m> = w (.) f(u)` -- `f` applied to every present entry ([`crate::ops::apply`],
    /// with a built-in [`UnaryOp`] in place of the closure).
    ///
    /// # Errors
    /// As [`ewise_add`].
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn apply<T: DeviceValue>(
        w: &mut DeviceVector<T>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, T>,
        f: UnaryOp<'_, T>,
        u: &DeviceVector<T>,
        desc: &Descriptor,
    ) -> Result<()> {
        assert_eq!(w.len(), u.len(), "w.len() != u.len()");
        let m = mask_view(mask, w.len());
        let (code, bound) = super::unary_code(f);
        typed::apply(&*w.gpu.ex, &mut w.v, m, accum, code, bound, &u.v, desc)
    }

    /// `w<m> = w (.) u` -- GrB_assign of a whole vector ([`crate::ops::assign`]).
    ///
    /// # Errors
    /// As [`ewise_add`].
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn assign<T: DeviceValue>(
        w: &mut DeviceVector<T>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, T>,
        u: &DeviceVector<T>,
        desc: &Descriptor,
    ) -> Result<()> {
        assert_eq!(w.len(), u.len(), "w.len() != u.len()");
        let m = mask_view(mask, w.len());
        typed::assign(&*w.gpu.ex, &mut w.v, m, accum, &u.v, desc)
    }

    /// `w<m> = w (.) u(I)` -- GrB_extract with the index list on the device: `w(i) =
    /// u(I(i))` where that entry of `u` is present, `I` the values of `indices`
    /// ([`crate::ops::extract`]). A gather: FastSV's shortcut `gp = f(f)` is
    /// `extract(gp, f, f)`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when an entry of `indices` is absent or not below
    /// `u.len()` (checked on the device before the gather); a type the device does not
    /// have; a device error.
    ///
    /// # Panics
    /// If `w.len() != indices.len()` or the mask's length differs from `w`'s.
    pub fn extract<T: DeviceValue>(
        w: &mut DeviceVector<T>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, T>,
        u: &DeviceVector<T>,
        indices: &DeviceVector<Index>,
        desc: &Descriptor,
    ) -> Result<()> {
        assert_eq!(w.len(), indices.len(), "w.len() != |I|");
        let m = mask_view(mask, w.len());
        let ex = &*w.gpu.ex;
        typed::check_indices(ex, &indices.v, u.len(), "extract")?;
        typed::extract(ex, &mut w.v, m, accum, &u.v, &indices.v, desc)
    }

    /// `w(I(k)) = w(I(k)) (+) u(k)` for every present `u(k)` -- the scatter-reduce of
    /// [`crate::ops::assign_reduce`] with the index list on the device: the terms that
    /// land on one index meet by compare-and-swap, and where `w(I(k))` is absent their
    /// sum is stored. FastSV's hooking `f(f) min= mngp` is `assign_reduce(f, Min, mngp,
    /// f)`.
    ///
    /// Only monoids whose sum is the same in any order of the terms run on the device:
    /// MIN, MAX, PLUS and TIMES over the integer types, LOR and LAND over `bool` (the
    /// CPU's bytes for each).
    ///
    /// # Errors
    /// [`Error::Unsupported`] for another monoid, naming those there are;
    /// [`Error::InvalidArgument`] when an entry of `indices` is absent or not below
    /// `w.len()`; a device error.
    ///
    /// # Panics
    /// If `u.len() != indices.len()`.
    pub fn assign_reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        w: &mut DeviceVector<T>,
        monoid: M,
        u: &DeviceVector<T>,
        indices: &DeviceVector<Index>,
    ) -> Result<()> {
        assert_eq!(u.len(), indices.len(), "u.len() != |I|");
        let ex = &*w.gpu.ex;
        typed::check_indices(ex, &indices.v, w.len(), "assign_reduce")?;
        typed::assign_reduce(ex, &mut w.v, monoid, &u.v, &indices.v)
    }

    /// `w<m> = w (.) select(u)` -- the entries of `u` a built-in [`SelectOp`] keeps
    /// ([`crate::ops::select`], with the predicate in place of the closure).
    ///
    /// # Errors
    /// A type the device does not have; a device error.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn select<T: DeviceValue>(
        w: &mut DeviceVector<T>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, T>,
        pred: SelectOp<T>,
        u: &DeviceVector<T>,
        desc: &Descriptor,
    ) -> Result<()> {
        assert_eq!(w.len(), u.len(), "w.len() != u.len()");
        let m = mask_view(mask, w.len());
        typed::select(&*w.gpu.ex, &mut w.v, m, accum, pred, &u.v, desc)
    }

    /// `w<m> = w (.) x` -- the scalar `x` at every index the mask allows
    /// ([`crate::ops::assign_scalar`]).
    ///
    /// # Errors
    /// As [`ewise_add`].
    ///
    /// # Panics
    /// If the mask's length differs from `w`'s.
    pub fn assign_scalar<T: DeviceValue>(
        w: &mut DeviceVector<T>,
        mask: Option<&DeviceMask<'_>>,
        accum: Accum<'_, T>,
        x: T,
        desc: &Descriptor,
    ) -> Result<()> {
        let m = mask_view(mask, w.len());
        typed::assign_scalar(&*w.gpu.ex, &mut w.v, m, accum, x, desc)
    }

    /// `s = (+)_i u(i)` -- the monoid sum of the present entries, the identity when there
    /// are none ([`crate::ops::reduce`]).
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a monoid the device does not have; a device error.
    pub fn reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        monoid: M,
        u: &DeviceVector<T>,
    ) -> Result<T> {
        typed::reduce(&*u.gpu.ex, monoid, &u.v)
    }

    /// `C<M> = C (.) (A (+).(x) B)` -- GrB_mxm ([`crate::ops::mxm`]): `T(i, j)` is the
    /// monoid sum over `k` of `multiply(A(i, k), B(k, j), k)`, summed in ascending `k`
    /// from the first term (one thread per row), then written through the mask and the
    /// accumulator. `desc.transpose_a` and `desc.transpose_b` use `A'` and `B'`
    /// (transposed on the device when the method needs it).
    ///
    /// # Method
    /// - *dot*, under a mask that is not complemented: `T(i, j) = A(i, :) . B(:, j)` for
    ///   each (true, when valued) entry of the mask, a merge of `A`'s row with a row of
    ///   `B'` (`B` itself under `transpose_b`, else `B` transposed on the device) that
    ///   stops at the monoid's terminal value: triangle counting's `C<L> = L L'`.
    /// - *saxpy* (Gustavson) otherwise: row `i` accumulates the rows `B(k, :)` scaled by
    ///   `A(i, k)` in a workspace of its own: a hash table of the power of two at least
    ///   twice the row's terms, or a dense one (a slot per column) when that would be as
    ///   many slots as columns; then gathered and sorted. The workspaces together hold
    ///   fewer than four slots per term of the product (and at most the columns per
    ///   row), all allocated at once: no tiling bounds them yet.
    ///
    /// Results are the CPU's bytes for every built-in semiring, float PLUS included (the
    /// same terms in the same order).
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a semiring or accumulator the device does not have; a
    /// device error.
    ///
    /// # Panics
    /// If `ncols(A) != nrows(B)` (after the transposes), or `C` or the mask is not
    /// `nrows(A) x ncols(B)`, as [`crate::ops::mxm`].
    pub fn mxm<S, A, B>(
        c: &mut DeviceCsr<S::Output>,
        mask: Option<&DeviceMatrixMask<'_>>,
        accum: Accum<'_, S::Output>,
        semiring: S,
        a: &DeviceCsr<A>,
        b: &DeviceCsr<B>,
        desc: &MatrixDescriptor,
    ) -> Result<()>
    where
        S: Semiring<A, B> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        B: DeviceValue,
    {
        let (arows, acols) = if desc.transpose_a {
            (a.m.ncols, a.m.nrows)
        } else {
            (a.m.nrows, a.m.ncols)
        };
        let (inner, ncols) = if desc.transpose_b {
            (b.m.ncols, b.m.nrows)
        } else {
            (b.m.nrows, b.m.ncols)
        };
        assert_eq!(acols, inner, "ncols(A) != nrows(B) in mxm");
        assert_eq!(
            (c.m.nrows, c.m.ncols),
            (arows, ncols),
            "C's shape != nrows(A) x ncols(B) in mxm"
        );
        let m = matrix_mask_view(mask, arows, ncols);
        dmat::typed::mxm(&*c.gpu.ex, &mut c.m, m, accum, semiring, &a.m, &b.m, desc)
    }

    /// `C<M> = C (.) A'` -- GrB_transpose ([`crate::ops::transpose`]): a counting sort by
    /// column on the device (count, prefix sum, place), each row then sorted, so the
    /// rows ascend as the CPU's do. Under `desc.transpose_a`, `T = A`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for an accumulator the device does not have; a device
    /// error.
    ///
    /// # Panics
    /// If `C` is not `ncols(A) x nrows(A)` (`A`'s shape under `transpose_a`), or the mask
    /// has another shape.
    pub fn transpose<T: DeviceValue>(
        c: &mut DeviceCsr<T>,
        mask: Option<&DeviceMatrixMask<'_>>,
        accum: Accum<'_, T>,
        a: &DeviceCsr<T>,
        desc: &MatrixDescriptor,
    ) -> Result<()> {
        let shape = if desc.transpose_a {
            (a.m.nrows, a.m.ncols)
        } else {
            (a.m.ncols, a.m.nrows)
        };
        assert_eq!((c.m.nrows, c.m.ncols), shape, "C's shape != A''s shape");
        let m = matrix_mask_view(mask, shape.0, shape.1);
        dmat::typed::transpose(&*c.gpu.ex, &mut c.m, m, accum, &a.m, desc)
    }

    /// `s = (+)_{i, j} A(i, j)` -- GrB_Matrix_reduce to a scalar
    /// ([`crate::ops::reduce_matrix`]): the values in storage order, by segments of 2048
    /// as [`reduce`] sums a vector (exact monoids give the CPU's bytes; a float PLUS is
    /// associated differently, so within rounding); the identity when `A` has no entries.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a monoid the device does not have; a device error.
    pub fn reduce_matrix<T: DeviceValue, M: Monoid<T> + 'static>(
        monoid: M,
        a: &DeviceCsr<T>,
    ) -> Result<T> {
        dmat::typed::reduce_matrix(&*a.gpu.ex, monoid, &a.m)
    }
}

type Bound<'a, T> = Option<(&'a dyn crate::algebra::BinaryOp<T, T, Output = T>, T)>;

fn unary_code<T>(f: super::UnaryOp<'_, T>) -> (u32, Bound<'_, T>) {
    use super::UnaryOp as U;
    use crate::backend::cuda::abi::*;
    match f {
        U::Identity => (EB_UNARY_IDENTITY, None),
        U::Ainv => (EB_UNARY_AINV, None),
        U::Abs => (EB_UNARY_ABS, None),
        U::One => (EB_UNARY_ONE, None),
        U::BindFirst(op, x) => (EB_UNARY_BIND_FIRST, Some((op, x))),
        U::BindSecond(op, x) => (EB_UNARY_BIND_SECOND, Some((op, x))),
    }
}

use super::{SelectOp, UnaryOp};

/// The kernels' per-element code built for the host and run sequentially through the
/// same search loops as the GPU (what `tests/cuda_host_kernels.rs` compares with the
/// CPU backend on machines without a GPU). Not an API for users: slow by design.
#[doc(hidden)]
pub mod host {
    use super::*;

    /// [`super::bfs`] through the host build of the kernels.
    ///
    /// # Errors
    /// As [`super::bfs`].
    pub fn bfs<T: crate::algebra::Scalar>(
        g: &BfsGraph<'_, T>,
        sources: &[Index],
        policy: &dyn Policy,
        opts: &BfsOptions,
    ) -> Result<BfsResult> {
        let a = g.adjacency();
        if a.nrows() != a.ncols() {
            return Err(Error::InvalidArgument(
                "bfs needs a square adjacency".into(),
            ));
        }
        crate::algo::bfs::check_source_ids(a.nrows(), sources, opts)?;
        let ex = HostExec;
        let at = (!g.is_symmetric()).then(|| g.in_edges());
        let s = Structure::upload(&ex, a, at)?;
        let levels = Levels::new(&ex, s.view(&ex), sources, opts.target, opts.trace)?;
        let ((parents, levels), s) =
            cpu_bfs::drive(levels, a.nrows(), a.nnz() as u64, policy, opts)?;
        let n = a.nrows();
        Ok(s.with(ex.download(&parents, n)?, ex.download(&levels, n)?))
    }

    /// [`super::bellman_ford`] through the host build of the kernels.
    ///
    /// # Errors
    /// As [`super::bellman_ford`].
    pub fn bellman_ford(
        a: &Csr<f64>,
        source: Index,
    ) -> Result<Result<ShortestPaths, NegativeCycle>> {
        check_square("bellman-ford", a.nrows(), a.ncols(), source)?;
        let ex = HostExec;
        let off = ex.upload(a.offsets())?;
        let idx = ex.upload(a.indices())?;
        let w = ex.upload(a.values())?;
        relax::bellman_ford(
            &ex,
            a.nrows() as u32,
            &off,
            &idx,
            ex.addr(&w).cast_const(),
            source,
        )
    }

    /// [`super::chung_lu`] through the host build of the kernels: the same passes, scan
    /// and row sort, sequentially.
    ///
    /// # Errors
    /// As [`super::chung_lu`].
    pub fn chung_lu(plan: &Plan, seed: u64, schedule: Schedule) -> Result<Csr<()>> {
        let ex = HostExec;
        let g = crate::backend::cuda::chung_lu::generate(&ex, plan, seed, schedule, 7, None)?;
        let offsets = ex.download(&g.offsets, g.n + 1)?;
        let indices = ex.download(&g.indices, g.nnz)?;
        Csr::new_checked(g.n, g.n, offsets, indices, vec![(); g.nnz])
    }

    /// The first `len` draws of the device generator's random stream of `(seed, task,
    /// chunk)` (chung_lu.cuh's PCG in 64-bit halves), built for the host: the tests
    /// compare it with [`crate::generate::chung_lu::rng::Stream`].
    pub fn chung_lu_stream(seed: u64, task: u64, chunk: u64, len: usize) -> Vec<u64> {
        crate::backend::cuda::host::cl_stream(seed, task, chunk, len)
    }

    /// Sparse indices to bitmap words and back through the conversion kernels' host
    /// build: `(words, indices as listed)`.
    ///
    /// # Errors
    /// None in practice (host memory).
    pub fn convert(len: usize, indices: &[Index]) -> Result<(Vec<u32>, Vec<Index>)> {
        let ex = HostExec;
        let q = ex.upload(indices)?;
        let mut words = ex.alloc::<u32>(len.div_ceil(32))?;
        queue_to_bits(&ex, &q, indices.len(), &mut words)?;
        let back = ex.alloc::<u32>(len)?;
        let k = bits_to_queue(&ex, &words, len, &back)?;
        Ok((
            ex.download(&words, len.div_ceil(32))?,
            ex.download(&back, k)?,
        ))
    }
    /// [`super::pagerank`] through the host build of the kernels.
    ///
    /// # Errors
    /// As [`super::pagerank`].
    pub fn pagerank(
        g: &crate::graph::Graph<'_, ()>,
        opts: &crate::algo::pagerank::PageRankOptions,
        precision: crate::algo::pagerank::Precision,
    ) -> Result<crate::algo::pagerank::PageRank> {
        let ex = HostExec;
        pagerank_on(&ex, g, opts, precision, |a| host_structure(&ex, a))
    }

    /// [`super::delta_stepping`] through the host build of the kernels.
    ///
    /// # Errors
    /// As [`super::delta_stepping`].
    pub fn delta_stepping(
        g: &crate::graph::Graph<'_, f64>,
        source: Index,
        delta: f64,
    ) -> Result<ShortestPaths> {
        delta_stepping_on(&HostExec, g, source, delta)
    }

    /// [`super::cdlp`] through the host build of the kernels.
    ///
    /// # Errors
    /// As [`super::cdlp`].
    pub fn cdlp(g: &crate::graph::Graph<'_, ()>, iterations: usize) -> Result<Vec<Index>> {
        cdlp_on(&HostExec, g, iterations)
    }

    /// [`super::wcc`] through the host build of the kernels.
    ///
    /// # Errors
    /// As [`super::wcc`].
    pub fn wcc(g: &crate::graph::Graph<'_, ()>) -> Result<crate::algo::components::Components> {
        let ex = HostExec;
        wcc_on(&ex, g, |s| host_structure(&ex, s))
    }

    /// [`super::triangle_count`] through the host build of the kernels.
    ///
    /// # Errors
    /// As [`super::triangle_count`].
    pub fn triangle_count(
        g: &crate::graph::Graph<'_, ()>,
        method: crate::algo::triangles::TriangleMethod,
        presort: crate::algo::triangles::Presort,
    ) -> Result<crate::algo::triangles::TriangleCount> {
        triangle_count_on(&HostExec, g, method, presort)
    }

    /// The device algebra ([`super::ops`]) through the host build of its kernels, on
    /// host vectors and matrices: the same launches, run sequentially.
    pub mod ops {
        use super::*;
        use crate::algebra::{Accum, BinaryOp, Monoid, Semiring};
        use crate::backend::cuda::ops::{pack, typed};
        use crate::descriptor::{Descriptor, MatrixDescriptor};

        /// A mask of the host mirror, as [`super::super::DeviceMask`].
        #[derive(Clone, Debug)]
        pub struct HostMask {
            len: usize,
            bits: Vec<u32>,
            vals: Vec<u64>,
            elem: usize,
            ty: u32,
            structure: bool,
            complement: bool,
        }

        impl HostMask {
            fn of<T: DeviceValue>(v: &Vector<T>, structure: bool) -> Self {
                let (bits, vals) = pack::pack(v);
                HostMask {
                    len: v.len(),
                    bits,
                    vals,
                    elem: std::mem::size_of::<T>(),
                    ty: dops::type_code::<T>().map_or(0, |c| c.1),
                    structure,
                    complement: false,
                }
            }
            /// The structure of `v`.
            pub fn structure<T: DeviceValue>(v: &Vector<T>) -> Self {
                Self::of(v, true)
            }
            /// The true entries of `v`.
            pub fn values<T: DeviceValue>(v: &Vector<T>) -> Self {
                Self::of(v, false)
            }
            /// The complement.
            pub fn complement(mut self) -> Self {
                self.complement = !self.complement;
                self
            }
        }

        struct Uploaded {
            _v: Option<DVec<HostExec>>,
            view: MaskView,
        }

        fn upload_mask(ex: &HostExec, m: Option<&HostMask>, len: usize) -> Result<Uploaded> {
            Ok(match m {
                None => Uploaded {
                    _v: None,
                    view: MaskView::NONE,
                },
                Some(m) => {
                    assert_eq!(m.len, len, "mask.len() != w.len()");
                    let v = DVec::from_parts(ex, m.len, m.elem, &m.bits, &m.vals)?;
                    let view = MaskView::of(ex, &v, m.ty, m.structure, m.complement);
                    Uploaded { _v: Some(v), view }
                }
            })
        }

        type HostMat = DMat<HostExec>;

        /// `a` (structure and values) in host buffers, as the kernels read it.
        fn upload_matrix<A: DeviceValue>(ex: &HostExec, a: &Csr<A>) -> Result<HostMat> {
            DMat::upload(ex, a, false)
        }

        /// The view `mxv` and `vxm` take of a matrix.
        fn view(ex: &HostExec, m: &HostMat) -> CsrView {
            CsrView {
                a: m.csr(ex),
                values: m.vals_ptr(ex).cast_const(),
            }
        }

        /// A matrix mask of the host mirror, as [`super::super::DeviceMatrixMask`].
        #[derive(Clone, Debug)]
        pub struct HostMatrixMask {
            nrows: usize,
            ncols: usize,
            off: Vec<u64>,
            idx: Vec<Index>,
            words: Vec<u64>,
            elem: usize,
            ty: u32,
            structure: bool,
            complement: bool,
        }

        impl HostMatrixMask {
            fn of<T: DeviceValue>(m: &Csr<T>, structure: bool) -> Self {
                HostMatrixMask {
                    nrows: m.nrows(),
                    ncols: m.ncols(),
                    off: m.offsets().to_vec(),
                    idx: m.indices().to_vec(),
                    words: pack::values_to_words(m.values()),
                    elem: std::mem::size_of::<T>(),
                    ty: dops::type_code::<T>().map_or(0, |c| c.1),
                    structure,
                    complement: false,
                }
            }
            /// The structure of `m`.
            pub fn structure<T: DeviceValue>(m: &Csr<T>) -> Self {
                Self::of(m, true)
            }
            /// The true entries of `m`.
            pub fn values<T: DeviceValue>(m: &Csr<T>) -> Self {
                Self::of(m, false)
            }
            /// The complement.
            pub fn complement(mut self) -> Self {
                self.complement = !self.complement;
                self
            }
        }

        fn upload_matrix_mask(
            ex: &HostExec,
            m: Option<&HostMatrixMask>,
            nrows: usize,
            ncols: usize,
        ) -> Result<(Option<HostMat>, MatMaskView)> {
            Ok(match m {
                None => (None, MatMaskView::NONE),
                Some(m) => {
                    assert_eq!(
                        (m.nrows, m.ncols),
                        (nrows, ncols),
                        "mask shape != C's shape"
                    );
                    let d = DMat {
                        nrows: m.nrows,
                        ncols: m.ncols,
                        nnz: m.idx.len(),
                        elem: m.elem,
                        off: ex.upload(&m.off)?,
                        idx: ex.upload(&m.idx)?,
                        vals: if m.elem == 0 {
                            None
                        } else {
                            Some(ex.upload(&m.words)?)
                        },
                    };
                    let view = MatMaskView::of(ex, &d, m.ty, m.structure, m.complement);
                    (Some(d), view)
                }
            })
        }

        fn finish<T: DeviceValue>(
            ex: &HostExec,
            w: &mut Vector<T>,
            d: &DVec<HostExec>,
        ) -> Result<()> {
            *w = pack::download(ex, d)?;
            Ok(())
        }

        /// [`super::super::ops::mxv`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn mxv<S, A, U>(
            w: &mut Vector<S::Output>,
            mask: Option<&HostMask>,
            accum: Accum<'_, S::Output>,
            semiring: S,
            a: &Csr<A>,
            u: &Vector<U>,
            desc: &Descriptor,
        ) -> Result<()>
        where
            S: Semiring<A, U> + 'static,
            S::Output: DeviceValue,
            A: DeviceValue,
            U: DeviceValue,
        {
            let ex = HostExec;
            let m = upload_mask(&ex, mask, w.len())?;
            let ha = upload_matrix(&ex, a)?;
            let hu = pack::upload(&ex, u)?;
            let mut hw = pack::upload(&ex, w)?;
            typed::mxv(
                &ex,
                &mut hw,
                m.view,
                accum,
                semiring,
                view(&ex, &ha),
                &hu,
                desc,
            )?;
            finish(&ex, w, &hw)
        }

        /// [`super::super::ops::vxm`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn vxm<S, A, U>(
            w: &mut Vector<S::Output>,
            mask: Option<&HostMask>,
            accum: Accum<'_, S::Output>,
            semiring: S,
            u: &Vector<U>,
            a: &Csr<A>,
            desc: &Descriptor,
        ) -> Result<()>
        where
            S: Semiring<A, U> + 'static,
            S::Output: DeviceValue,
            A: DeviceValue,
            U: DeviceValue,
        {
            let ex = HostExec;
            let m = upload_mask(&ex, mask, w.len())?;
            let ha = upload_matrix(&ex, a)?;
            let hu = pack::upload(&ex, u)?;
            let mut hw = pack::upload(&ex, w)?;
            typed::vxm(
                &ex,
                &mut hw,
                m.view,
                accum,
                semiring,
                &hu,
                view(&ex, &ha),
                desc,
            )?;
            finish(&ex, w, &hw)
        }

        #[allow(clippy::too_many_arguments)]
        fn ewise<T: DeviceValue>(
            add: bool,
            w: &mut Vector<T>,
            mask: Option<&HostMask>,
            accum: Accum<'_, T>,
            op: &dyn BinaryOp<T, T, Output = T>,
            u: &Vector<T>,
            v: &Vector<T>,
            desc: &Descriptor,
        ) -> Result<()> {
            let ex = HostExec;
            let m = upload_mask(&ex, mask, w.len())?;
            let hu = pack::upload(&ex, u)?;
            let hv = pack::upload(&ex, v)?;
            let mut hw = pack::upload(&ex, w)?;
            typed::ewise(&ex, add, &mut hw, m.view, accum, op, &hu, &hv, desc)?;
            finish(&ex, w, &hw)
        }

        /// [`super::super::ops::ewise_add`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn ewise_add<T: DeviceValue>(
            w: &mut Vector<T>,
            mask: Option<&HostMask>,
            accum: Accum<'_, T>,
            op: &impl BinaryOp<T, T, Output = T>,
            u: &Vector<T>,
            v: &Vector<T>,
            desc: &Descriptor,
        ) -> Result<()> {
            ewise(true, w, mask, accum, op, u, v, desc)
        }

        /// [`super::super::ops::ewise_mult`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn ewise_mult<T: DeviceValue>(
            w: &mut Vector<T>,
            mask: Option<&HostMask>,
            accum: Accum<'_, T>,
            op: &impl BinaryOp<T, T, Output = T>,
            u: &Vector<T>,
            v: &Vector<T>,
            desc: &Descriptor,
        ) -> Result<()> {
            ewise(false, w, mask, accum, op, u, v, desc)
        }

        /// [`super::super::ops::apply`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn apply<T: DeviceValue>(
            w: &mut Vector<T>,
            mask: Option<&HostMask>,
            accum: Accum<'_, T>,
            f: UnaryOp<'_, T>,
            u: &Vector<T>,
            desc: &Descriptor,
        ) -> Result<()> {
            let ex = HostExec;
            let m = upload_mask(&ex, mask, w.len())?;
            let hu = pack::upload(&ex, u)?;
            let mut hw = pack::upload(&ex, w)?;
            let (code, bound) = unary_code(f);
            typed::apply(&ex, &mut hw, m.view, accum, code, bound, &hu, desc)?;
            finish(&ex, w, &hw)
        }

        /// [`super::super::ops::assign`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn assign<T: DeviceValue>(
            w: &mut Vector<T>,
            mask: Option<&HostMask>,
            accum: Accum<'_, T>,
            u: &Vector<T>,
            desc: &Descriptor,
        ) -> Result<()> {
            let ex = HostExec;
            let m = upload_mask(&ex, mask, w.len())?;
            let hu = pack::upload(&ex, u)?;
            let mut hw = pack::upload(&ex, w)?;
            typed::assign(&ex, &mut hw, m.view, accum, &hu, desc)?;
            finish(&ex, w, &hw)
        }

        /// [`super::super::ops::extract`] on the host.
        ///
        /// # Errors
        /// As the device form.
        ///
        /// # Panics
        /// As the device form.
        pub fn extract<T: DeviceValue>(
            w: &mut Vector<T>,
            mask: Option<&HostMask>,
            accum: Accum<'_, T>,
            u: &Vector<T>,
            indices: &Vector<Index>,
            desc: &Descriptor,
        ) -> Result<()> {
            assert_eq!(w.len(), indices.len(), "w.len() != |I|");
            let ex = HostExec;
            let m = upload_mask(&ex, mask, w.len())?;
            let hu = pack::upload(&ex, u)?;
            let hi = pack::upload(&ex, indices)?;
            let mut hw = pack::upload(&ex, w)?;
            typed::check_indices(&ex, &hi, u.len(), "extract")?;
            typed::extract(&ex, &mut hw, m.view, accum, &hu, &hi, desc)?;
            finish(&ex, w, &hw)
        }

        /// [`super::super::ops::assign_reduce`] on the host.
        ///
        /// # Errors
        /// As the device form.
        ///
        /// # Panics
        /// As the device form.
        pub fn assign_reduce<T: DeviceValue, M: Monoid<T> + 'static>(
            w: &mut Vector<T>,
            monoid: M,
            u: &Vector<T>,
            indices: &Vector<Index>,
        ) -> Result<()> {
            assert_eq!(u.len(), indices.len(), "u.len() != |I|");
            let ex = HostExec;
            let hu = pack::upload(&ex, u)?;
            let hi = pack::upload(&ex, indices)?;
            let mut hw = pack::upload(&ex, w)?;
            typed::check_indices(&ex, &hi, w.len(), "assign_reduce")?;
            typed::assign_reduce(&ex, &mut hw, monoid, &hu, &hi)?;
            finish(&ex, w, &hw)
        }

        /// [`super::super::ops::select`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn select<T: DeviceValue>(
            w: &mut Vector<T>,
            mask: Option<&HostMask>,
            accum: Accum<'_, T>,
            pred: SelectOp<T>,
            u: &Vector<T>,
            desc: &Descriptor,
        ) -> Result<()> {
            let ex = HostExec;
            let m = upload_mask(&ex, mask, w.len())?;
            let hu = pack::upload(&ex, u)?;
            let mut hw = pack::upload(&ex, w)?;
            typed::select(&ex, &mut hw, m.view, accum, pred, &hu, desc)?;
            finish(&ex, w, &hw)
        }

        /// [`super::super::ops::assign_scalar`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn assign_scalar<T: DeviceValue>(
            w: &mut Vector<T>,
            mask: Option<&HostMask>,
            accum: Accum<'_, T>,
            x: T,
            desc: &Descriptor,
        ) -> Result<()> {
            let ex = HostExec;
            let m = upload_mask(&ex, mask, w.len())?;
            let mut hw = pack::upload(&ex, w)?;
            typed::assign_scalar(&ex, &mut hw, m.view, accum, x, desc)?;
            finish(&ex, w, &hw)
        }

        /// [`super::super::ops::reduce`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn reduce<T: DeviceValue, M: Monoid<T> + 'static>(
            monoid: M,
            u: &Vector<T>,
        ) -> Result<T> {
            let ex = HostExec;
            let hu = pack::upload(&ex, u)?;
            typed::reduce(&ex, monoid, &hu)
        }

        /// [`super::super::ops::mxm`] on the host.
        ///
        /// # Errors
        /// As the device form.
        ///
        /// # Panics
        /// As the device form.
        pub fn mxm<S, A, B>(
            c: &mut Csr<S::Output>,
            mask: Option<&HostMatrixMask>,
            accum: Accum<'_, S::Output>,
            semiring: S,
            a: &Csr<A>,
            b: &Csr<B>,
            desc: &MatrixDescriptor,
        ) -> Result<()>
        where
            S: Semiring<A, B> + 'static,
            S::Output: DeviceValue,
            A: DeviceValue,
            B: DeviceValue,
        {
            let arows = if desc.transpose_a {
                a.ncols()
            } else {
                a.nrows()
            };
            let acols = if desc.transpose_a {
                a.nrows()
            } else {
                a.ncols()
            };
            let (inner, ncols) = if desc.transpose_b {
                (b.ncols(), b.nrows())
            } else {
                (b.nrows(), b.ncols())
            };
            assert_eq!(acols, inner, "ncols(A) != nrows(B) in mxm");
            assert_eq!(
                (c.nrows(), c.ncols()),
                (arows, ncols),
                "C's shape != nrows(A) x ncols(B) in mxm"
            );
            let ex = HostExec;
            let (_m, mv) = upload_matrix_mask(&ex, mask, arows, ncols)?;
            let ha = upload_matrix(&ex, a)?;
            let hb = upload_matrix(&ex, b)?;
            let mut hc = upload_matrix(&ex, c)?;
            dmat::typed::mxm(&ex, &mut hc, mv, accum, semiring, &ha, &hb, desc)?;
            *c = hc.download(&ex)?;
            Ok(())
        }

        /// [`super::super::ops::transpose`] on the host.
        ///
        /// # Errors
        /// As the device form.
        ///
        /// # Panics
        /// As the device form.
        pub fn transpose<T: DeviceValue>(
            c: &mut Csr<T>,
            mask: Option<&HostMatrixMask>,
            accum: Accum<'_, T>,
            a: &Csr<T>,
            desc: &MatrixDescriptor,
        ) -> Result<()> {
            let shape = if desc.transpose_a {
                (a.nrows(), a.ncols())
            } else {
                (a.ncols(), a.nrows())
            };
            assert_eq!((c.nrows(), c.ncols()), shape, "C's shape != A''s shape");
            let ex = HostExec;
            let (_m, mv) = upload_matrix_mask(&ex, mask, shape.0, shape.1)?;
            let ha = upload_matrix(&ex, a)?;
            let mut hc = upload_matrix(&ex, c)?;
            dmat::typed::transpose(&ex, &mut hc, mv, accum, &ha, desc)?;
            *c = hc.download(&ex)?;
            Ok(())
        }

        /// [`super::super::ops::reduce_matrix`] on the host.
        ///
        /// # Errors
        /// As the device form.
        pub fn reduce_matrix<T: DeviceValue, M: Monoid<T> + 'static>(
            monoid: M,
            a: &Csr<T>,
        ) -> Result<T> {
            let ex = HostExec;
            let ha = upload_matrix(&ex, a)?;
            dmat::typed::reduce_matrix(&ex, monoid, &ha)
        }
    }
}
