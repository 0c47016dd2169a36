//! The device algebra (`edgeblas::cuda::ops`) through the host build of its kernels
//! (`cuda::host::ops`: csrc/ops.cuh as instantiated by build.rs, run by the same launch
//! sequence as on the GPU), against the CPU's `edgeblas::ops` on random matrices and
//! vectors: every built-in semiring over every type it takes, `mxv` and `vxm` in both
//! directions (pull and push), every mask form (none, structural, valued over several
//! types, complemented), accumulators, replace; `ewise_add`, `ewise_mult`, `apply`,
//! `assign`, `reduce`, and `extract` and `assign_reduce` with the index list a vector
//! (FastSV's gather and scatter; the device wcc on them); the device delta-stepping and CDLP; `mxm` (masked dot and saxpy), `transpose`, `reduce_matrix` and
//! the device triangle count with every matrix-mask form, accumulators, replace and both
//! transposes (tests/common/cuda_matrix_cases.rs; `mxm` must give the CPU's bytes under
//! every semiring). Exact monoids must give the CPU's bytes; float PLUS sums (the
//! push combines each output's terms from the identity) agree within a relative 1e-9
//! (f64) or 1e-4 (f32). Needs the `cuda` feature (nvcc), no GPU.

#![cfg(feature = "cuda")]

#[path = "common/cuda_ops_cases.rs"]
mod cases;
#[path = "common/cuda_matrix_cases.rs"]
mod matrix_cases;
#[path = "common/oracle.rs"]
mod oracle;
#[path = "common/random.rs"]
mod random;

use cases::{MaskArg, MaskVec, Runner};
use edgeblas::algebra::*;
use edgeblas::cuda::host::ops::{self as hops, HostMask, HostMatrixMask};
use edgeblas::cuda::{DeviceValue, UnaryOp};
use edgeblas::descriptor::{Descriptor, MatrixDescriptor};
use edgeblas::vector::Vector;
use edgeblas::{Error, matrix::Csr};
use matrix_cases::{MatMaskArg, MatMaskMat, MatrixRunner};

/// The host build of the kernels.
struct Host;

fn host_mask(m: &MaskArg<'_>) -> HostMask {
    fn one<T: DeviceValue>(v: &Vector<T>, m: &MaskArg<'_>) -> HostMask {
        let h = if m.structure {
            HostMask::structure(v)
        } else {
            HostMask::values(v)
        };
        if m.complement { h.complement() } else { h }
    }
    match m.v {
        MaskVec::Unit(v) => one(v, m),
        MaskVec::Bool(v) => one(v, m),
        MaskVec::I32(v) => one(v, m),
        MaskVec::U32(v) => one(v, m),
        MaskVec::F64(v) => one(v, m),
    }
}

impl Runner for Host {
    fn mxv<S, A, U>(
        &self,
        w: &mut Vector<S::Output>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, S::Output>,
        s: S,
        a: &Csr<A>,
        u: &Vector<U>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>
    where
        S: Semiring<A, U> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        U: DeviceValue,
    {
        hops::mxv(w, mask.map(host_mask).as_ref(), accum, s, a, u, desc)
    }
    fn vxm<S, A, U>(
        &self,
        w: &mut Vector<S::Output>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, S::Output>,
        s: S,
        u: &Vector<U>,
        a: &Csr<A>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>
    where
        S: Semiring<A, U> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        U: DeviceValue,
    {
        hops::vxm(w, mask.map(host_mask).as_ref(), accum, s, u, a, desc)
    }
    fn ewise_add<T: DeviceValue, O: BinaryOp<T, T, Output = T>>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        op: &O,
        u: &Vector<T>,
        v: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()> {
        hops::ewise_add(w, mask.map(host_mask).as_ref(), accum, op, u, v, desc)
    }
    fn ewise_mult<T: DeviceValue, O: BinaryOp<T, T, Output = T>>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        op: &O,
        u: &Vector<T>,
        v: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()> {
        hops::ewise_mult(w, mask.map(host_mask).as_ref(), accum, op, u, v, desc)
    }
    fn apply<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        f: UnaryOp<'_, T>,
        u: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()> {
        hops::apply(w, mask.map(host_mask).as_ref(), accum, f, u, desc)
    }
    fn assign<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        u: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()> {
        hops::assign(w, mask.map(host_mask).as_ref(), accum, u, desc)
    }
    fn select<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        pred: edgeblas::cuda::SelectOp<T>,
        u: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()> {
        hops::select(w, mask.map(host_mask).as_ref(), accum, pred, u, desc)
    }
    fn assign_scalar<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        x: T,
        desc: &Descriptor,
    ) -> edgeblas::Result<()> {
        hops::assign_scalar(w, mask.map(host_mask).as_ref(), accum, x, desc)
    }
    fn reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        &self,
        m: M,
        u: &Vector<T>,
    ) -> edgeblas::Result<T> {
        hops::reduce(m, u)
    }
    fn extract<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        u: &Vector<T>,
        indices: &Vector<Index>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()> {
        hops::extract(w, mask.map(host_mask).as_ref(), accum, u, indices, desc)
    }
    fn assign_reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        &self,
        w: &mut Vector<T>,
        m: M,
        u: &Vector<T>,
        indices: &Vector<Index>,
    ) -> edgeblas::Result<()> {
        hops::assign_reduce(w, m, u, indices)
    }
}

fn host_matrix_mask(m: &MatMaskArg<'_>) -> HostMatrixMask {
    fn one<T: DeviceValue>(c: &Csr<T>, m: &MatMaskArg<'_>) -> HostMatrixMask {
        let h = if m.structure {
            HostMatrixMask::structure(c)
        } else {
            HostMatrixMask::values(c)
        };
        if m.complement { h.complement() } else { h }
    }
    match m.m {
        MatMaskMat::Unit(c) => one(c, m),
        MatMaskMat::Bool(c) => one(c, m),
        MatMaskMat::I32(c) => one(c, m),
        MatMaskMat::F64(c) => one(c, m),
    }
}

impl MatrixRunner for Host {
    fn mxm<S, A, B>(
        &self,
        c: &mut Csr<S::Output>,
        mask: Option<&MatMaskArg<'_>>,
        accum: Accum<'_, S::Output>,
        s: S,
        a: &Csr<A>,
        b: &Csr<B>,
        desc: &MatrixDescriptor,
    ) -> edgeblas::Result<()>
    where
        S: Semiring<A, B> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        B: DeviceValue,
    {
        hops::mxm(c, mask.map(host_matrix_mask).as_ref(), accum, s, a, b, desc)
    }
    fn transpose<T: DeviceValue>(
        &self,
        c: &mut Csr<T>,
        mask: Option<&MatMaskArg<'_>>,
        accum: Accum<'_, T>,
        a: &Csr<T>,
        desc: &MatrixDescriptor,
    ) -> edgeblas::Result<()> {
        hops::transpose(c, mask.map(host_matrix_mask).as_ref(), accum, a, desc)
    }
    fn reduce_matrix<T: DeviceValue, M: Monoid<T> + 'static>(
        &self,
        m: M,
        a: &Csr<T>,
    ) -> edgeblas::Result<T> {
        hops::reduce_matrix(m, a)
    }
    fn triangle_count(
        &self,
        g: &edgeblas::graph::Graph<'_, ()>,
        method: edgeblas::algo::triangles::TriangleMethod,
        presort: edgeblas::algo::triangles::Presort,
    ) -> edgeblas::Result<edgeblas::algo::triangles::TriangleCount> {
        edgeblas::cuda::host::triangle_count(g, method, presort)
    }
}

#[test]
fn transpose_equals_the_cpu() {
    matrix_cases::transposes(&Host);
}

#[test]
fn mxm_over_u32_equals_the_cpu() {
    matrix_cases::mxm_arith::<_, u32>(&Host, 1100, "u32");
}

#[test]
fn mxm_over_u64_equals_the_cpu() {
    matrix_cases::mxm_arith::<_, u64>(&Host, 1200, "u64");
}

#[test]
fn mxm_over_i32_equals_the_cpu() {
    matrix_cases::mxm_arith::<_, i32>(&Host, 1300, "i32");
}

#[test]
fn mxm_over_i64_equals_the_cpu() {
    matrix_cases::mxm_arith::<_, i64>(&Host, 1400, "i64");
}

#[test]
fn mxm_over_f32_equals_the_cpu() {
    matrix_cases::mxm_arith::<_, f32>(&Host, 1500, "f32");
}

#[test]
fn mxm_over_f64_equals_the_cpu() {
    matrix_cases::mxm_arith::<_, f64>(&Host, 1600, "f64");
}

#[test]
fn mxm_boolean_and_positional_semirings_equal_the_cpu() {
    matrix_cases::mxm_boolean_and_positional(&Host);
}

#[test]
fn mxm_long_rows_equal_the_cpu() {
    matrix_cases::mxm_long_rows(&Host);
}

#[test]
fn reduce_matrix_equals_the_cpu() {
    matrix_cases::reduce_matrices(&Host);
}

#[test]
fn triangle_count_through_the_host_kernels_equals_the_cpu() {
    matrix_cases::triangle_counts(&Host);
}

#[test]
fn semirings_over_u32_equal_the_cpu() {
    cases::arith_semirings::<_, u32>(&Host, 100, "u32", false);
}

#[test]
fn semirings_over_u64_equal_the_cpu() {
    cases::arith_semirings::<_, u64>(&Host, 200, "u64", false);
}

#[test]
fn semirings_over_i32_equal_the_cpu() {
    cases::arith_semirings::<_, i32>(&Host, 300, "i32", false);
}

#[test]
fn semirings_over_i64_equal_the_cpu() {
    cases::arith_semirings::<_, i64>(&Host, 400, "i64", false);
}

#[test]
fn semirings_over_f32_equal_the_cpu() {
    cases::arith_semirings::<_, f32>(&Host, 500, "f32", true);
}

#[test]
fn semirings_over_f64_equal_the_cpu() {
    cases::arith_semirings::<_, f64>(&Host, 600, "f64", true);
}

#[test]
fn boolean_and_positional_semirings_equal_the_cpu() {
    cases::boolean_and_positional(&Host);
}

#[test]
fn elementwise_over_u32_equals_the_cpu() {
    cases::elementwise_over_u32(&Host);
}

#[test]
fn elementwise_over_u64_equals_the_cpu() {
    cases::elementwise_over_u64(&Host);
}

#[test]
fn elementwise_over_i32_equals_the_cpu() {
    cases::elementwise_over_i32(&Host);
}

#[test]
fn elementwise_over_i64_equals_the_cpu() {
    cases::elementwise_over_i64(&Host);
}

#[test]
fn elementwise_over_f32_equals_the_cpu() {
    cases::elementwise_over_f32(&Host);
}

#[test]
fn elementwise_over_f64_equals_the_cpu() {
    cases::elementwise_over_f64(&Host);
}

#[test]
fn elementwise_over_bool_equals_the_cpu() {
    cases::elementwise_over_bool(&Host);
}

#[test]
fn extract_and_assign_reduce_equal_the_cpu() {
    cases::indexed(&Host);
}

#[test]
fn bfs_and_bellman_ford_templates_through_the_host_kernels_equal_the_cpu() {
    cases::templates(&Host);
}

#[test]
fn wcc_through_the_host_kernels_equals_the_cpu() {
    cases::wcc_cases(&edgeblas::cuda::host::wcc);
}

#[test]
fn delta_stepping_through_the_host_kernels_equals_the_cpu() {
    cases::delta_stepping_cases(&edgeblas::cuda::host::delta_stepping);
}

#[test]
fn cdlp_through_the_host_kernels_equals_the_cpu() {
    cases::cdlp_cases(&edgeblas::cuda::host::cdlp);
}

#[test]
fn pagerank_through_the_host_kernels_equals_the_cpu() {
    cases::pagerank_cases(&edgeblas::cuda::host::pagerank);
}

/// A semiring, monoid or operator the device has no kernel for is an `Unsupported` error
/// naming what it has; nothing falls back to the CPU silently.
#[test]
fn what_the_device_lacks_is_a_clear_error() {
    let a = random::to_csr(&vec![vec![Some(1.0f64), None], vec![None, Some(2.0)]], 2);
    let u = Vector::from_pairs(2, [(0, 1.0f64)]);
    let mut w = Vector::<f64>::new(2);
    let d = Descriptor::default();
    let unsupported = |e: Error, want: &str| match e {
        Error::Unsupported(m) => assert!(m.contains(want), "{m:?} should name {want:?}"),
        e => panic!("expected Unsupported, got {e:?}"),
    };
    let own = Compose(Min::<f64>::new(), |x: f64, y: f64| x * y + 1.0);
    unsupported(
        hops::mxv(&mut w, None, None, own, &a, &u, &d).unwrap_err(),
        "MinPlus",
    );
    unsupported(
        hops::vxm(&mut w, None, None, own, &u, &a, &d).unwrap_err(),
        "PlusTimes",
    );
    let closure = |x: f64, y: f64| x.max(y);
    unsupported(
        hops::mxv(
            &mut w,
            None,
            Some(&closure),
            MinPlus::<f64>::new(),
            &a,
            &u,
            &d,
        )
        .unwrap_err(),
        "accumulator",
    );
    unsupported(
        hops::ewise_add(&mut w, None, None, &closure, &u, &u, &d).unwrap_err(),
        "Plus",
    );
    let mut b = Vector::<bool>::new(2);
    unsupported(
        hops::mxv(&mut b, None, None, OrAnd, &a, &u, &d).unwrap_err(),
        "OrAnd",
    );
    let lt = |x: f64, y: f64| if x < y { x } else { y };
    unsupported(
        hops::apply(&mut w, None, None, UnaryOp::BindSecond(&lt, 1.0), &u, &d).unwrap_err(),
        "bound operator",
    );
    #[derive(Clone, Copy)]
    struct MyMin;
    impl Monoid<f64> for MyMin {
        fn identity(&self) -> f64 {
            f64::INFINITY
        }
        fn combine(&self, a: f64, b: f64) -> f64 {
            a.min(b)
        }
    }
    unsupported(hops::reduce(MyMin, &u).unwrap_err(), "Plus");
    // The matrix operations say the same.
    let md = MatrixDescriptor::DEFAULT;
    let mut c = Csr::<f64>::empty(2, 2);
    unsupported(
        hops::mxm(&mut c, None, None, own, &a, &a, &md).unwrap_err(),
        "MinPlus",
    );
    unsupported(
        hops::mxm(
            &mut c,
            None,
            Some(&closure),
            PlusTimes::<f64>::new(),
            &a,
            &a,
            &md,
        )
        .unwrap_err(),
        "accumulator",
    );
    unsupported(
        hops::transpose(&mut c, None, Some(&closure), &a, &md).unwrap_err(),
        "accumulator",
    );
    unsupported(hops::reduce_matrix(MyMin, &a).unwrap_err(), "Plus");
}
