//! The kernels' per-element code built for the host (csrc/host/host_kernels.cu, by nvcc
//! in build.rs) and run sequentially: the executor the tests use without a GPU.

use std::cell::UnsafeCell;

use super::abi::*;
use super::exec::{Exec, Launch, Pod};
use crate::error::Result;

unsafe extern "C" {
    fn eb_host_init_sources(p: *const EbInitParams);
    fn eb_host_push(p: *const EbPushParams);
    fn eb_host_pull(p: *const EbPullParams);
    fn eb_host_queue_to_bits(p: *const EbConvertParams);
    fn eb_host_bits_to_queue(p: *const EbConvertParams);
    fn eb_host_relax_min(p: *const EbRelaxParams);
    fn eb_host_relax_arg(p: *const EbRelaxParams);
    fn eb_host_relax_commit(p: *const EbRelaxParams);
    fn eb_host_relax_tight(p: *const EbRelaxParams);
    fn eb_host_cl_pass(p: *const EbClParams);
    fn eb_host_scan_blocks(p: *const EbScanParams);
    fn eb_host_scan_add(p: *const EbScanParams);
    fn eb_host_copy_u64(p: *const EbScanParams);
    fn eb_host_sort_classify(p: *const EbSortParams);
    fn eb_host_sort_merge(p: *const EbSortParams);
    fn eb_host_sort_copy(p: *const EbSortParams);
    fn eb_host_cl_stream(seed: u64, task: u64, chunk: u64, out: *mut u64, len: u64);
}

mod ops_table {
    use super::EbOpParams;
    include!(concat!(env!("OUT_DIR"), "/ops_table.rs"));
}
pub(crate) use ops_table::HOST_OPS;

/// The first `len` draws of chung_lu.cuh's PCG stream of `(seed, task, chunk)`.
pub(crate) fn cl_stream(seed: u64, task: u64, chunk: u64, len: usize) -> Vec<u64> {
    let mut out = vec![0u64; len];
    // SAFETY: the C function writes exactly `len` u64s into `out`, which holds `len`.
    unsafe { eb_host_cl_stream(seed, task, chunk, out.as_mut_ptr(), len as u64) };
    out
}

/// A host buffer the C code writes through raw pointers.
pub(crate) struct HostBuf<T>(UnsafeCell<Vec<T>>);

/// The sequential host executor.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct HostExec;

impl Exec for HostExec {
    type Buf<T: Pod> = HostBuf<T>;

    fn alloc<T: Pod>(&self, len: usize) -> Result<HostBuf<T>> {
        // One spare element: a kernel may form (never read) the address one past the end.
        Ok(HostBuf(UnsafeCell::new(vec![T::default(); len.max(1)])))
    }
    fn upload<T: Pod>(&self, data: &[T]) -> Result<HostBuf<T>> {
        let mut v = data.to_vec();
        if v.is_empty() {
            v.push(T::default());
        }
        Ok(HostBuf(UnsafeCell::new(v)))
    }
    fn download<T: Pod>(&self, b: &HostBuf<T>, len: usize) -> Result<Vec<T>> {
        // SAFETY: no C call is running; the vector is not aliased mutably.
        Ok(unsafe { (&*b.0.get())[..len].to_vec() })
    }
    fn write<T: Pod>(&self, b: &mut HostBuf<T>, at: usize, data: &[T]) -> Result<()> {
        b.0.get_mut()[at..at + data.len()].copy_from_slice(data);
        Ok(())
    }
    fn zero<T: Pod>(&self, b: &mut HostBuf<T>) -> Result<()> {
        b.0.get_mut().fill(T::default());
        Ok(())
    }
    fn fill_u32(&self, b: &mut HostBuf<u32>, value: u32) -> Result<()> {
        b.0.get_mut().fill(value);
        Ok(())
    }
    fn fill_u64(&self, b: &mut HostBuf<u64>, value: u64) -> Result<()> {
        b.0.get_mut().fill(value);
        Ok(())
    }
    fn addr<T: Pod>(&self, b: &HostBuf<T>) -> *mut T {
        // SAFETY: only the address is taken; the C code is the only writer.
        unsafe { (*b.0.get()).as_mut_ptr() }
    }
    fn run(&self, l: Launch) -> Result<()> {
        // SAFETY: the parameters point into live HostBufs sized by the caller (the loops in
        // levels.rs and relax.rs), as the kernels' contracts in csrc/abi.h require.
        unsafe {
            match l {
                Launch::InitSources(p) => eb_host_init_sources(&p),
                Launch::Push(p) => eb_host_push(&p),
                Launch::Pull(p) => eb_host_pull(&p),
                Launch::QueueToBits(p) => eb_host_queue_to_bits(&p),
                Launch::BitsToQueue(p) => eb_host_bits_to_queue(&p),
                Launch::RelaxMin(p) => eb_host_relax_min(&p),
                Launch::RelaxArg(p) => eb_host_relax_arg(&p),
                Launch::RelaxCommit(p) => eb_host_relax_commit(&p),
                Launch::RelaxTight(p) => eb_host_relax_tight(&p),
                Launch::ClPass(p, _) => eb_host_cl_pass(&p),
                Launch::ScanBlocks(p) => eb_host_scan_blocks(&p),
                Launch::ScanAdd(p) => eb_host_scan_add(&p),
                Launch::CopyU64(p) => eb_host_copy_u64(&p),
                Launch::SortClassify(p) => eb_host_sort_classify(&p),
                Launch::SortMerge(p) => eb_host_sort_merge(&p),
                Launch::SortCopy(p) => eb_host_sort_copy(&p),
                Launch::Op(name, p) => {
                    let f = HOST_OPS
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, f)| *f)
                        .expect("kernel names come from HOST_OPS");
                    f(&p)
                }
            }
        }
        Ok(())
    }
    fn read<T: Pod>(&self, b: &HostBuf<T>, at: usize) -> Result<T> {
        // SAFETY: no C call is running.
        Ok(unsafe { (&*b.0.get())[at] })
    }
    fn barrier(&self) -> Result<()> {
        Ok(())
    }
    fn streams(&self) -> usize {
        4
    }
}
