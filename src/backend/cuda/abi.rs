//! The structs and constants of `csrc/abi.h`, as bindgen writes them (with its layout
//! checks), and the marker traits that let cudarc pass them to kernels.
#![allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    dead_code,
    missing_docs,
    clippy::all
)]

include!(concat!(env!("OUT_DIR"), "/abi.rs"));

macro_rules! device_repr {
    ($($t:ty),*) => {$(
        // SAFETY: plain C structs of integers and pointers (csrc/abi.h), passed by value.
        unsafe impl cudarc::driver::DeviceRepr for $t {}
    )*};
}
device_repr!(
    EbPushParams,
    EbPullParams,
    EbConvertParams,
    EbInitParams,
    EbRelaxParams,
    EbFillParams,
    EbLevelCounters,
    EbRelaxCounters,
    EbClParams,
    EbClTask,
    EbScanParams,
    EbSortParams,
    EbOpParams
);
// SAFETY: all-zero is a valid value of these counters (plain integers).
unsafe impl cudarc::driver::ValidAsZeroBits for EbLevelCounters {}
// SAFETY: as above.
unsafe impl cudarc::driver::ValidAsZeroBits for EbRelaxCounters {}
// SAFETY: integers and doubles; all-zero is a valid (empty) task.
unsafe impl cudarc::driver::ValidAsZeroBits for EbClTask {}
