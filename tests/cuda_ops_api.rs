//! `edgeblas::cuda::ops` has the names and argument order of `edgeblas::ops` in every
//! build: with the `cuda` feature (the device algebra) and without it (the stub, whose
//! entry points say the feature is missing). Compiles in both; runs without a GPU.

use edgeblas::algebra::*;
use edgeblas::cuda::{self, DeviceCsr, DeviceMask, DeviceMatrixMask, DeviceVector, Gpu, UnaryOp};
use edgeblas::descriptor::{Descriptor, MatrixDescriptor};

/// The operations' types, spelled out: a changed signature fails to compile here.
#[allow(clippy::type_complexity)]
#[test]
fn the_device_algebra_mirrors_ops() {
    type R = edgeblas::Result<()>;
    let _mxv: fn(
        &mut DeviceVector<f64>,
        Option<&DeviceMask<'_>>,
        Accum<'_, f64>,
        MinPlus<f64>,
        &DeviceCsr<f64>,
        &DeviceVector<f64>,
        &Descriptor,
    ) -> R = cuda::ops::mxv::<MinPlus<f64>, f64, f64>;
    let _vxm: fn(
        &mut DeviceVector<u32>,
        Option<&DeviceMask<'_>>,
        Accum<'_, u32>,
        MinSecondI,
        &DeviceVector<bool>,
        &DeviceCsr<()>,
        &Descriptor,
    ) -> R = cuda::ops::vxm::<MinSecondI, (), bool>;
    let _add: fn(
        &mut DeviceVector<i64>,
        Option<&DeviceMask<'_>>,
        Accum<'_, i64>,
        &Plus<i64>,
        &DeviceVector<i64>,
        &DeviceVector<i64>,
        &Descriptor,
    ) -> R = cuda::ops::ewise_add::<i64>;
    let _mult: fn(
        &mut DeviceVector<i64>,
        Option<&DeviceMask<'_>>,
        Accum<'_, i64>,
        &Times<i64>,
        &DeviceVector<i64>,
        &DeviceVector<i64>,
        &Descriptor,
    ) -> R = cuda::ops::ewise_mult::<i64>;
    let _apply: fn(
        &mut DeviceVector<f32>,
        Option<&DeviceMask<'_>>,
        Accum<'_, f32>,
        UnaryOp<'_, f32>,
        &DeviceVector<f32>,
        &Descriptor,
    ) -> R = cuda::ops::apply::<f32>;
    let _assign: fn(
        &mut DeviceVector<bool>,
        Option<&DeviceMask<'_>>,
        Accum<'_, bool>,
        &DeviceVector<bool>,
        &Descriptor,
    ) -> R = cuda::ops::assign::<bool>;
    let _assign_scalar: fn(
        &mut DeviceVector<i32>,
        Option<&DeviceMask<'_>>,
        Accum<'_, i32>,
        i32,
        &Descriptor,
    ) -> R = cuda::ops::assign_scalar::<i32>;
    let _reduce: fn(Plus<u64>, &DeviceVector<u64>) -> edgeblas::Result<u64> =
        cuda::ops::reduce::<u64, Plus<u64>>;
    let _extract: fn(
        &mut DeviceVector<u32>,
        Option<&DeviceMask<'_>>,
        Accum<'_, u32>,
        &DeviceVector<u32>,
        &DeviceVector<Index>,
        &Descriptor,
    ) -> R = cuda::ops::extract::<u32>;
    let _assign_reduce: fn(
        &mut DeviceVector<u32>,
        Min<u32>,
        &DeviceVector<u32>,
        &DeviceVector<Index>,
    ) -> R = cuda::ops::assign_reduce::<u32, Min<u32>>;
    let _wcc: fn(
        &Gpu,
        &edgeblas::graph::Graph<'_, ()>,
    ) -> edgeblas::Result<edgeblas::algo::components::Components> = cuda::wcc;
    let _delta_stepping: fn(
        &Gpu,
        &edgeblas::graph::Graph<'_, f64>,
        Index,
        f64,
    ) -> edgeblas::Result<edgeblas::algo::bellman_ford::ShortestPaths> = cuda::delta_stepping;
    let _cdlp: fn(&Gpu, &edgeblas::graph::Graph<'_, ()>, usize) -> edgeblas::Result<Vec<Index>> =
        cuda::cdlp;
    let _mxm: fn(
        &mut DeviceCsr<u64>,
        Option<&DeviceMatrixMask<'_>>,
        Accum<'_, u64>,
        PlusPair<u64>,
        &DeviceCsr<()>,
        &DeviceCsr<()>,
        &MatrixDescriptor,
    ) -> R = cuda::ops::mxm::<PlusPair<u64>, (), ()>;
    let _transpose: fn(
        &mut DeviceCsr<f64>,
        Option<&DeviceMatrixMask<'_>>,
        Accum<'_, f64>,
        &DeviceCsr<f64>,
        &MatrixDescriptor,
    ) -> R = cuda::ops::transpose::<f64>;
    let _reduce_matrix: fn(Plus<u64>, &DeviceCsr<u64>) -> edgeblas::Result<u64> =
        cuda::ops::reduce_matrix::<u64, Plus<u64>>;
    let _empty: fn(&Gpu, usize, usize) -> edgeblas::Result<DeviceCsr<i32>> =
        DeviceCsr::<i32>::empty;
    fn _matrix_masks<'a>(
        b: &'a DeviceCsr<bool>,
        f: &'a DeviceCsr<f32>,
    ) -> [DeviceMatrixMask<'a>; 2] {
        let m = DeviceMatrixMask::values(f).complement();
        let _shape: (usize, usize) = (m.nrows(), m.ncols());
        [DeviceMatrixMask::structure(b), m]
    }
    let _tc: fn(
        &Gpu,
        &edgeblas::graph::Graph<'_, ()>,
        edgeblas::algo::triangles::TriangleMethod,
        edgeblas::algo::triangles::Presort,
    ) -> edgeblas::Result<edgeblas::algo::triangles::TriangleCount> = cuda::triangle_count;
}

/// Without the feature, opening a device says why; with it and no GPU, too.
#[test]
fn without_a_device_opening_one_is_a_clear_error() {
    if let Err(e) = Gpu::new(0) {
        let m = e.to_string();
        assert!(m.contains("CUDA") || m.contains("cuda"), "{m}");
    }
}
