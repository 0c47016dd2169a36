//! The `cuda` feature's implementation of the module's API.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::CudaSlice;

use super::{DeviceValue, Schedule};
use crate::algebra::Index;
use crate::algo::bellman_ford::{NegativeCycle, ShortestPaths};
use crate::algo::bfs::{self as cpu_bfs, BfsGraph, BfsOptions, BfsResult, LevelTrace, Policy};
use crate::backend::cuda::abi::{EB_UNREACHED, EbConvertParams, EbLevelCounters};
use crate::backend::cuda::exec::{Exec, Launch};
use crate::backend::cuda::gpu::GpuExec;
use crate::backend::cuda::host::HostExec;
use crate::backend::cuda::levels::{GraphView, Levels, Structure, csr_view};
use crate::backend::cuda::relax;
use crate::error::{Error, Result};
use crate::generate::chung_lu::Plan;
use crate::matrix::Csr;
use crate::vector::{BitmapVector, DenseVector, SparseVector};

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
#[derive(Debug)]
pub struct DeviceCsr<T> {
    gpu: Gpu,
    nrows: usize,
    ncols: usize,
    nnz: usize,
    offsets: CudaSlice<u64>,
    indices: CudaSlice<u32>,
    values: Option<CudaSlice<u8>>,
    _t: PhantomData<T>,
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
            nrows: a.nrows(),
            ncols: a.ncols(),
            nnz: a.nnz(),
            offsets: gpu.ex.upload(a.offsets())?,
            indices: gpu.ex.upload(a.indices())?,
            values: None,
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
        let s = DeviceCsr::upload_structure(gpu, a)?;
        Ok(DeviceCsr {
            values: upload_values(gpu, a.values())?,
            gpu: s.gpu,
            nrows: s.nrows,
            ncols: s.ncols,
            nnz: s.nnz,
            offsets: s.offsets,
            indices: s.indices,
            _t: PhantomData,
        })
    }

    /// Copies the matrix back to the host.
    ///
    /// # Errors
    /// A device error.
    pub fn download(&self) -> Result<Csr<T>> {
        let ex = &self.gpu.ex;
        let offsets = ex.download(&self.offsets, self.nrows + 1)?;
        let indices = ex.download(&self.indices, self.nnz)?;
        let values = download_values(&self.gpu, &self.values, self.nnz)?;
        Csr::new_checked(self.nrows, self.ncols, offsets, indices, values)
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.nnz
    }
    /// The device it lives on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
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
        if a.nrows != a.ncols {
            return Err(Error::InvalidArgument(format!(
                "bfs needs a square adjacency, not {} x {}",
                a.nrows, a.ncols
            )));
        }
        Ok(DeviceBfsGraph { a, at: None })
    }

    /// Number of vertices.
    pub fn vertices(&self) -> usize {
        self.a.nrows
    }
    /// Number of arcs.
    pub fn arcs(&self) -> usize {
        self.a.nnz
    }

    fn view(&self) -> GraphView {
        let ex = &*self.a.gpu.ex;
        let n = self.a.nrows as u32;
        let a = csr_view(ex, n, &self.a.offsets, &self.a.indices);
        let at = match &self.at {
            Some(t) => csr_view(ex, n, &t.offsets, &t.indices),
            None => a,
        };
        GraphView {
            a,
            at,
            m: self.a.nnz as u64,
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
        nrows: g.n,
        ncols: g.n,
        nnz: g.nnz,
        offsets: g.offsets,
        indices: g.indices,
        values: None,
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
/// [`crate::algo::bellman_ford`]: equal distances and predecessors.
///
/// # Errors
/// The outer error: a device error, a non-square matrix or a source outside it. The
/// inner one: a negative cycle reachable from the source.
pub fn bellman_ford(
    a: &DeviceCsr<f64>,
    source: Index,
) -> Result<Result<ShortestPaths, NegativeCycle>> {
    check_square(a.nrows, a.ncols, source)?;
    let ex = &*a.gpu.ex;
    let w = a.values.as_ref().expect("f64 values are stored");
    // The values are the f64s' bytes: cudaMalloc aligns them for doubles.
    let weights = ex.addr(w).cast::<f64>().cast_const();
    relax::bellman_ford(ex, a.nrows as u32, &a.offsets, &a.indices, weights, source)
}

fn check_square(nrows: usize, ncols: usize, source: Index) -> Result<()> {
    if nrows != ncols {
        return Err(Error::InvalidArgument(format!(
            "bellman-ford needs a square matrix, not {nrows} x {ncols}"
        )));
    }
    if source as usize >= nrows {
        return Err(Error::InvalidArgument(format!(
            "vertex {source} is not in the graph ({nrows} vertices)"
        )));
    }
    Ok(())
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
        check_square(a.nrows(), a.ncols(), source)?;
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
}
