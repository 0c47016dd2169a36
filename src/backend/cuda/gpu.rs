//! The GPU executor: a cudarc context and stream, the embedded fatbins loaded as
//! modules, and the launches with their grid sizes.

use std::sync::Arc;

use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtr, DriverError, LaunchConfig,
    PushKernelArg, sys,
};
use cudarc::nvrtc::Ptx;

use super::abi::*;
use super::exec::{Exec, Launch, Pod};
use crate::error::{Error, Result};

mod fatbins {
    include!(concat!(env!("OUT_DIR"), "/fatbins.rs"));
}

pub(crate) fn device_error(what: &str, e: DriverError) -> Error {
    Error::Unsupported(format!("CUDA: {what}: {e}"))
}

/// The kernels, by name.
#[derive(Debug)]
struct Kernels {
    init_sources: CudaFunction,
    push_small: CudaFunction,
    push_big: CudaFunction,
    pull: CudaFunction,
    queue_to_bits: CudaFunction,
    bits_to_queue: CudaFunction,
    fill_u32: CudaFunction,
    fill_u64: CudaFunction,
    relax_min: CudaFunction,
    relax_arg: CudaFunction,
    relax_commit: CudaFunction,
    relax_tight: CudaFunction,
    cl_pass: CudaFunction,
    scan_blocks: CudaFunction,
    scan_add: CudaFunction,
    copy_u64: CudaFunction,
    sort_classify: CudaFunction,
    sort_merge: CudaFunction,
    sort_copy: CudaFunction,
}

/// One GPU: its context, the stream every launch goes to, and the loaded kernels.
#[derive(Debug)]
pub(crate) struct GpuExec {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    k: Kernels,
    /// The device algebra's module (csrc/ops.cuh's instances) and its kernels, looked up
    /// by name on first use.
    ops: Arc<cudarc::driver::CudaModule>,
    ops_fns: std::sync::Mutex<std::collections::HashMap<&'static str, CudaFunction>>,
    /// Blocks in a grid-stride launch that fills the device.
    max_blocks: u32,
    /// The dynamic schedule's extra streams, made on first use.
    extra: std::sync::OnceLock<Vec<Arc<CudaStream>>>,
}

/// Extra streams of the dynamic Chung-Lu schedule.
const EXTRA_STREAMS: usize = 4;

impl GpuExec {
    /// Opens GPU `ordinal`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] when no CUDA driver is installed, no such GPU exists, or
    /// the kernels do not load (a driver older than CUDA 13.0).
    pub(crate) fn new(ordinal: usize) -> Result<GpuExec> {
        // SAFETY: only tries to open the driver library.
        if !unsafe { sys::is_culib_present() } {
            return Err(Error::Unsupported(
                "CUDA: no CUDA driver (libcuda.so) on this machine: the cuda backend needs an \
                 NVIDIA GPU and its driver"
                    .into(),
            ));
        }
        let count = CudaContext::device_count().map_err(|e| device_error("counting GPUs", e))?;
        if ordinal >= count.max(0) as usize {
            return Err(Error::Unsupported(format!(
                "CUDA: no GPU {ordinal} ({count} found)"
            )));
        }
        let ctx = CudaContext::new(ordinal).map_err(|e| device_error("creating a context", e))?;
        let stream = ctx.default_stream();
        let load = |file: &str, name: &str| -> Result<CudaFunction> {
            let bin = fatbins::FATBINS
                .iter()
                .find(|(stem, _)| *stem == file)
                .map(|(_, b)| *b)
                .ok_or_else(|| Error::Unsupported(format!("CUDA: no kernel file {file}")))?;
            let module = ctx
                .load_module(Ptx::from_binary(bin.to_vec()))
                .map_err(|e| device_error(&format!("loading csrc/{file}.cu"), e))?;
            module
                .load_function(name)
                .map_err(|e| device_error(&format!("finding kernel {name}"), e))
        };
        let k = Kernels {
            init_sources: load("frontier", "eb_init_sources")?,
            push_small: load("bfs_push", "eb_push_small")?,
            push_big: load("bfs_push", "eb_push_big")?,
            pull: load("bfs_pull", "eb_pull")?,
            queue_to_bits: load("frontier", "eb_queue_to_bits")?,
            bits_to_queue: load("frontier", "eb_bits_to_queue")?,
            fill_u32: load("frontier", "eb_fill_u32")?,
            fill_u64: load("relax", "eb_fill_u64")?,
            relax_min: load("relax", "eb_relax_min")?,
            relax_arg: load("relax", "eb_relax_arg")?,
            relax_commit: load("relax", "eb_relax_commit")?,
            relax_tight: load("relax", "eb_relax_tight")?,
            cl_pass: load("chung_lu", "eb_cl_pass")?,
            scan_blocks: load("chung_lu", "eb_scan_blocks")?,
            scan_add: load("chung_lu", "eb_scan_add")?,
            copy_u64: load("chung_lu", "eb_copy_u64")?,
            sort_classify: load("chung_lu", "eb_sort_classify")?,
            sort_merge: load("chung_lu", "eb_sort_merge")?,
            sort_copy: load("chung_lu", "eb_sort_copy")?,
        };
        let ops_bin = fatbins::FATBINS
            .iter()
            .find(|(stem, _)| *stem == "ops")
            .map(|(_, b)| *b)
            .ok_or_else(|| Error::Unsupported("CUDA: no kernel file ops".into()))?;
        let ops = ctx
            .load_module(Ptx::from_binary(ops_bin.to_vec()))
            .map_err(|e| device_error("loading the device algebra (ops)", e))?;
        let sms = ctx
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(|e| device_error("reading the SM count", e))?;
        Ok(GpuExec {
            ctx,
            stream,
            k,
            ops,
            ops_fns: std::sync::Mutex::new(std::collections::HashMap::new()),
            max_blocks: (sms.max(1) as u32) * 16,
            extra: std::sync::OnceLock::new(),
        })
    }

    /// The device's name.
    pub(crate) fn name(&self) -> String {
        self.ctx.name().unwrap_or_else(|_| "unknown GPU".into())
    }

    /// Threads of a grid that fills the device (the balanced schedule's lanes).
    pub(crate) fn threads(&self) -> usize {
        self.max_blocks as usize * EB_BLOCK as usize
    }

    /// Waits for the queued work.
    pub(crate) fn synchronize(&self) -> Result<()> {
        self.stream
            .synchronize()
            .map_err(|e| device_error("synchronizing", e))
    }

    /// A grid of `threads` threads (at least one block, at most `max_blocks`).
    fn grid(&self, threads: u64) -> LaunchConfig {
        let blocks = threads
            .div_ceil(EB_BLOCK as u64)
            .clamp(1, self.max_blocks as u64) as u32;
        LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (EB_BLOCK, 1, 1),
            shared_mem_bytes: 0,
        }
    }

    fn extra_streams(&self) -> Result<&[Arc<CudaStream>]> {
        if self.extra.get().is_none() {
            let mut v = Vec::with_capacity(EXTRA_STREAMS);
            for _ in 0..EXTRA_STREAMS {
                v.push(
                    self.ctx
                        .new_stream()
                        .map_err(|e| device_error("creating a stream", e))?,
                );
            }
            let _ = self.extra.set(v);
        }
        Ok(self.extra.get().expect("set above"))
    }

    fn launch<P: cudarc::driver::DeviceRepr>(
        &self,
        f: &CudaFunction,
        p: &P,
        cfg: LaunchConfig,
        what: &str,
    ) -> Result<()> {
        self.launch_on(&self.stream, f, p, cfg, what)
    }

    fn launch_on<P: cudarc::driver::DeviceRepr>(
        &self,
        stream: &CudaStream,
        f: &CudaFunction,
        p: &P,
        cfg: LaunchConfig,
        what: &str,
    ) -> Result<()> {
        let mut b = stream.launch_builder(f);
        b.arg(p);
        // SAFETY: the parameter struct matches the kernel's signature (csrc/abi.h, checked
        // by bindgen's layout assertions) and points into live device buffers sized by the
        // caller; every kernel guards its index range.
        unsafe { b.launch(cfg) }
            .map(|_| ())
            .map_err(|e| device_error(&format!("launching {what}"), e))
    }
}

impl Exec for GpuExec {
    type Buf<T: Pod> = CudaSlice<T>;

    fn alloc<T: Pod>(&self, len: usize) -> Result<CudaSlice<T>> {
        self.stream
            .alloc_zeros(len.max(1))
            .map_err(|e| device_error(&format!("allocating {len} elements"), e))
    }
    fn upload<T: Pod>(&self, data: &[T]) -> Result<CudaSlice<T>> {
        if data.is_empty() {
            return self.alloc(1);
        }
        self.stream
            .clone_htod(data)
            .map_err(|e| device_error("copying to the device", e))
    }
    fn download<T: Pod>(&self, b: &CudaSlice<T>, len: usize) -> Result<Vec<T>> {
        if len == 0 {
            return Ok(Vec::new());
        }
        self.stream
            .clone_dtoh(&b.slice(..len))
            .map_err(|e| device_error("copying from the device", e))
    }
    fn write<T: Pod>(&self, b: &mut CudaSlice<T>, at: usize, data: &[T]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        self.stream
            .memcpy_htod(data, &mut b.slice_mut(at..at + data.len()))
            .map_err(|e| device_error("copying to the device", e))
    }
    fn zero<T: Pod>(&self, b: &mut CudaSlice<T>) -> Result<()> {
        self.stream
            .memset_zeros(b)
            .map_err(|e| device_error("clearing device memory", e))
    }
    fn fill_u32(&self, b: &mut CudaSlice<u32>, value: u32) -> Result<()> {
        let p = EbFillParams {
            dst: self.addr(b),
            n: b.len() as u64,
            value,
            pad: 0,
        };
        self.launch(
            &self.k.fill_u32,
            &p,
            self.grid(b.len() as u64),
            "eb_fill_u32",
        )
    }
    fn fill_u64(&self, b: &mut CudaSlice<u64>, value: u64) -> Result<()> {
        let n = b.len() as u64;
        let cfg = self.grid(n);
        let mut l = self.stream.launch_builder(&self.k.fill_u64);
        l.arg(&mut *b).arg(&n).arg(&value);
        // SAFETY: eb_fill_u64(uint64_t *dst, uint64_t n, uint64_t value) writes dst[0..n).
        unsafe { l.launch(cfg) }
            .map(|_| ())
            .map_err(|e| device_error("launching eb_fill_u64", e))
    }
    fn addr<T: Pod>(&self, b: &CudaSlice<T>) -> *mut T {
        let (ptr, _sync) = b.device_ptr(&self.stream);
        ptr as usize as *mut T
    }
    fn run(&self, l: Launch) -> Result<()> {
        match l {
            Launch::InitSources(p) => self.launch(
                &self.k.init_sources,
                &p,
                self.grid(p.sources_len as u64),
                "eb_init_sources",
            ),
            Launch::Push(p) => {
                if p.frontier_len > 0 {
                    self.launch(
                        &self.k.push_small,
                        &p,
                        self.grid(p.frontier_len as u64),
                        "eb_push_small",
                    )?;
                }
                if p.big_len > 0 {
                    let cfg = LaunchConfig {
                        grid_dim: (p.big_len.min(self.max_blocks * 4), 1, 1),
                        block_dim: (EB_BLOCK, 1, 1),
                        shared_mem_bytes: 0,
                    };
                    self.launch(&self.k.push_big, &p, cfg, "eb_push_big")?;
                }
                Ok(())
            }
            Launch::Pull(p) => {
                self.launch(&self.k.pull, &p, self.grid(p.s.a.nrows as u64), "eb_pull")
            }
            Launch::QueueToBits(p) => self.launch(
                &self.k.queue_to_bits,
                &p,
                self.grid(p.queue_len as u64),
                "eb_queue_to_bits",
            ),
            Launch::BitsToQueue(p) => self.launch(
                &self.k.bits_to_queue,
                &p,
                self.grid(p.nwords as u64),
                "eb_bits_to_queue",
            ),
            Launch::RelaxMin(p) => self.launch(
                &self.k.relax_min,
                &p,
                self.grid(p.frontier_len as u64 * 32),
                "eb_relax_min",
            ),
            Launch::RelaxArg(p) => self.launch(
                &self.k.relax_arg,
                &p,
                self.grid(p.frontier_len as u64 * 32),
                "eb_relax_arg",
            ),
            Launch::RelaxTight(p) => self.launch(
                &self.k.relax_tight,
                &p,
                self.grid(p.frontier_len as u64 * 32),
                "eb_relax_tight",
            ),
            Launch::RelaxCommit(p) => self.launch(
                &self.k.relax_commit,
                &p,
                self.grid(p.touched_len as u64),
                "eb_relax_commit",
            ),
            Launch::ClPass(p, stream) => {
                let threads = if p.lane_bounds.is_null() {
                    p.chunk_end - p.chunk_begin
                } else {
                    p.lanes as u64
                };
                let cfg = self.grid(threads);
                if stream == 0 {
                    self.launch(&self.k.cl_pass, &p, cfg, "eb_cl_pass")
                } else {
                    let s = &self.extra_streams()?[(stream - 1) % EXTRA_STREAMS];
                    self.launch_on(s, &self.k.cl_pass, &p, cfg, "eb_cl_pass")
                }
            }
            Launch::ScanBlocks(p) => {
                let blocks = p.len.div_ceil(EB_SCAN_BLOCK as u64);
                self.launch(
                    &self.k.scan_blocks,
                    &p,
                    self.grid(blocks * EB_BLOCK as u64),
                    "eb_scan_blocks",
                )
            }
            Launch::ScanAdd(p) => {
                self.launch(&self.k.scan_add, &p, self.grid(p.len), "eb_scan_add")
            }
            Launch::CopyU64(p) => {
                self.launch(&self.k.copy_u64, &p, self.grid(p.len), "eb_copy_u64")
            }
            Launch::SortClassify(p) => self.launch(
                &self.k.sort_classify,
                &p,
                self.grid(p.nrows as u64),
                "eb_sort_classify",
            ),
            Launch::SortMerge(p) => {
                self.launch(&self.k.sort_merge, &p, self.grid(u64::MAX), "eb_sort_merge")
            }
            Launch::SortCopy(p) => {
                self.launch(&self.k.sort_copy, &p, self.grid(u64::MAX), "eb_sort_copy")
            }
            Launch::Op(name, p) => {
                if p.items == 0 {
                    return Ok(());
                }
                let f = {
                    let mut fns = self.ops_fns.lock().unwrap_or_else(|e| e.into_inner());
                    match fns.get(name) {
                        Some(f) => f.clone(),
                        None => {
                            let f = self
                                .ops
                                .load_function(name)
                                .map_err(|e| device_error(&format!("finding kernel {name}"), e))?;
                            fns.insert(name, f.clone());
                            f
                        }
                    }
                };
                self.launch(&f, &p, self.grid(p.items), name)
            }
        }
    }
    fn read<T: Pod>(&self, b: &CudaSlice<T>, at: usize) -> Result<T> {
        let v = self
            .stream
            .clone_dtoh(&b.slice(at..at + 1))
            .map_err(|e| device_error("copying from the device", e))?;
        Ok(v[0])
    }
    fn barrier(&self) -> Result<()> {
        if let Some(v) = self.extra.get() {
            for s in v {
                s.synchronize()
                    .map_err(|e| device_error("synchronizing a stream", e))?;
            }
        }
        self.synchronize()
    }
    fn streams(&self) -> usize {
        EXTRA_STREAMS
    }
}
