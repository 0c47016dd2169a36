//! Where kernels run: the one interface the search loops are written against.

use cudarc::driver::{DeviceRepr, ValidAsZeroBits};

use super::abi::*;
use crate::error::Result;

/// Plain data that lives in a buffer of either executor.
pub(crate) trait Pod:
    Copy + Default + DeviceRepr + ValidAsZeroBits + Send + Sync + 'static
{
}
impl Pod for u8 {}
impl Pod for u32 {}
impl Pod for u64 {}
impl Pod for f64 {}
impl Pod for EbLevelCounters {}
impl Pod for EbRelaxCounters {}
impl Pod for EbClTask {}

/// One kernel launch (or its sequential host form), with its parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Launch {
    /// The first frontier.
    InitSources(EbInitParams),
    /// A push level: small and medium vertices, then big ones.
    Push(EbPushParams),
    /// A pull level over every vertex.
    Pull(EbPullParams),
    /// Sparse queue to bitmap.
    QueueToBits(EbConvertParams),
    /// Bitmap to sparse queue.
    BitsToQueue(EbConvertParams),
    /// Bellman-Ford pass 1 (smallest candidate).
    RelaxMin(EbRelaxParams),
    /// Bellman-Ford pass 2 (smallest vertex giving it).
    RelaxArg(EbRelaxParams),
    /// Bellman-Ford pass 3 (commit).
    RelaxCommit(EbRelaxParams),
    /// After the rounds: the smallest tail of a tight arc into each vertex.
    RelaxTight(EbRelaxParams),
    /// A Chung-Lu count or fill pass, on stream `stream` (0: the main one).
    ClPass(EbClParams, usize),
    /// Prefix sum step 1.
    ScanBlocks(EbScanParams),
    /// Prefix sum step 2.
    ScanAdd(EbScanParams),
    /// `out[i] = in[i]`.
    CopyU64(EbScanParams),
    /// Sort the short rows, list the others.
    SortClassify(EbSortParams),
    /// One merge pass over the listed rows.
    SortMerge(EbSortParams),
    /// Copy the listed rows from `src` to `dst`.
    SortCopy(EbSortParams),
    /// A device-algebra kernel (csrc/ops.cuh, instantiated by build.rs), by name, over
    /// `p.items` items.
    Op(&'static str, EbOpParams),
}

/// An executor: memory and launches. Buffers are addressed by raw pointers inside the
/// parameter structs, as the kernels see them.
pub(crate) trait Exec {
    /// A buffer of `T`.
    type Buf<T: Pod>;
    /// `len` zeroed elements.
    fn alloc<T: Pod>(&self, len: usize) -> Result<Self::Buf<T>>;
    /// A copy of `data`.
    fn upload<T: Pod>(&self, data: &[T]) -> Result<Self::Buf<T>>;
    /// The first `len` elements (waits for the work queued before).
    fn download<T: Pod>(&self, b: &Self::Buf<T>, len: usize) -> Result<Vec<T>>;
    /// Writes `data` at element `at`.
    fn write<T: Pod>(&self, b: &mut Self::Buf<T>, at: usize, data: &[T]) -> Result<()>;
    /// Sets every byte to zero.
    fn zero<T: Pod>(&self, b: &mut Self::Buf<T>) -> Result<()>;
    /// Sets every element of a u32 buffer.
    fn fill_u32(&self, b: &mut Self::Buf<u32>, value: u32) -> Result<()>;
    /// Sets every element of a u64 buffer.
    fn fill_u64(&self, b: &mut Self::Buf<u64>, value: u64) -> Result<()>;
    /// The element address the kernels use.
    fn addr<T: Pod>(&self, b: &Self::Buf<T>) -> *mut T;
    /// Runs (or queues) one launch.
    fn run(&self, l: Launch) -> Result<()>;
    /// Element `at` (waits for the work queued before).
    fn read<T: Pod>(&self, b: &Self::Buf<T>, at: usize) -> Result<T>;
    /// Waits for the work of every stream (launches on other streams included).
    fn barrier(&self) -> Result<()>;
    /// Streams available to the dynamic schedule.
    fn streams(&self) -> usize;
}
