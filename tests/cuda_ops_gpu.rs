//! On a GPU: the device algebra (`edgeblas::cuda::ops`) against the CPU's `ops`, the
//! same random cases as the host build's test (tests/common/cuda_ops_cases.rs): every
//! built-in semiring over every type, `mxv` and `vxm` both ways, every mask form,
//! accumulators; `ewise_add`, `ewise_mult`, `apply`, `assign`, `reduce`, `extract`,
//! `assign_reduce` and the wcc on them, delta-stepping and CDLP; `mxm` (dot and
//! saxpy), `transpose`, `reduce_matrix` and the triangle count with matrix masks
//! (tests/common/cuda_matrix_cases.rs). Operands are
//! uploaded, the operation runs on the device, the result is downloaded. Without a GPU
//! every test prints SKIP and passes, unless `EDGEBLAS_REQUIRE_GPU=1`; without the
//! `cuda` feature they are ignored.

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
use edgeblas::cuda::{
    self, DeviceCsr, DeviceMask, DeviceMatrixMask, DeviceValue, DeviceVector, Gpu, UnaryOp,
};
use edgeblas::descriptor::{Descriptor, MatrixDescriptor};
use edgeblas::matrix::Csr;
use edgeblas::vector::Vector;
use matrix_cases::{MatMaskArg, MatMaskMat, MatrixRunner};

/// The GPU, or `None` after printing why the test is skipped.
fn gpu(test: &str) -> Option<Gpu> {
    match Gpu::new(0) {
        Ok(g) => Some(g),
        Err(e) => {
            if std::env::var("EDGEBLAS_REQUIRE_GPU").is_ok_and(|v| v == "1") {
                panic!("{test}: EDGEBLAS_REQUIRE_GPU=1 but no GPU: {e}");
            }
            println!("SKIP {test}: {e}");
            None
        }
    }
}

/// The device: operands uploaded, results downloaded.
struct Device(Gpu);

/// A mask vector on the device, of its own type.
enum DevMaskVec {
    Unit(DeviceVector<()>),
    Bool(DeviceVector<bool>),
    I32(DeviceVector<i32>),
    U32(DeviceVector<u32>),
    F64(DeviceVector<f64>),
}

impl Device {
    fn mask_vec(&self, m: Option<&MaskArg<'_>>) -> Option<DevMaskVec> {
        let g = &self.0;
        m.map(|m| match m.v {
            MaskVec::Unit(v) => DevMaskVec::Unit(DeviceVector::upload(g, v).unwrap()),
            MaskVec::Bool(v) => DevMaskVec::Bool(DeviceVector::upload(g, v).unwrap()),
            MaskVec::I32(v) => DevMaskVec::I32(DeviceVector::upload(g, v).unwrap()),
            MaskVec::U32(v) => DevMaskVec::U32(DeviceVector::upload(g, v).unwrap()),
            MaskVec::F64(v) => DevMaskVec::F64(DeviceVector::upload(g, v).unwrap()),
        })
    }
}

fn device_mask<'a>(v: &'a DevMaskVec, m: &MaskArg<'_>) -> DeviceMask<'a> {
    fn one<'v, T: DeviceValue>(v: &'v DeviceVector<T>, m: &MaskArg<'_>) -> DeviceMask<'v> {
        let d = if m.structure {
            DeviceMask::structure(v)
        } else {
            DeviceMask::values(v)
        };
        if m.complement { d.complement() } else { d }
    }
    match v {
        DevMaskVec::Unit(v) => one(v, m),
        DevMaskVec::Bool(v) => one(v, m),
        DevMaskVec::I32(v) => one(v, m),
        DevMaskVec::U32(v) => one(v, m),
        DevMaskVec::F64(v) => one(v, m),
    }
}

/// Runs `f` on the uploaded `w` and mask, then downloads `w`.
fn on_device<T: DeviceValue>(
    d: &Device,
    w: &mut Vector<T>,
    mask: Option<&MaskArg<'_>>,
    f: impl FnOnce(&mut DeviceVector<T>, Option<&DeviceMask<'_>>) -> edgeblas::Result<()>,
) -> edgeblas::Result<()> {
    let mv = d.mask_vec(mask);
    let dm = mv.as_ref().zip(mask).map(|(v, m)| device_mask(v, m));
    let mut dw = DeviceVector::upload(&d.0, w)?;
    f(&mut dw, dm.as_ref())?;
    *w = dw.download()?;
    Ok(())
}

impl Runner for Device {
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
        let da = DeviceCsr::upload(&self.0, a)?;
        let du = DeviceVector::upload(&self.0, u)?;
        on_device(self, w, mask, |w, m| {
            cuda::ops::mxv(w, m, accum, s, &da, &du, desc)
        })
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
        let da = DeviceCsr::upload(&self.0, a)?;
        let du = DeviceVector::upload(&self.0, u)?;
        on_device(self, w, mask, |w, m| {
            cuda::ops::vxm(w, m, accum, s, &du, &da, desc)
        })
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
        let du = DeviceVector::upload(&self.0, u)?;
        let dv = DeviceVector::upload(&self.0, v)?;
        on_device(self, w, mask, |w, m| {
            cuda::ops::ewise_add(w, m, accum, op, &du, &dv, desc)
        })
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
        let du = DeviceVector::upload(&self.0, u)?;
        let dv = DeviceVector::upload(&self.0, v)?;
        on_device(self, w, mask, |w, m| {
            cuda::ops::ewise_mult(w, m, accum, op, &du, &dv, desc)
        })
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
        let du = DeviceVector::upload(&self.0, u)?;
        on_device(self, w, mask, |w, m| {
            cuda::ops::apply(w, m, accum, f, &du, desc)
        })
    }
    fn assign<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        u: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()> {
        let du = DeviceVector::upload(&self.0, u)?;
        on_device(self, w, mask, |w, m| {
            cuda::ops::assign(w, m, accum, &du, desc)
        })
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
        let du = DeviceVector::upload(&self.0, u)?;
        on_device(self, w, mask, |w, m| {
            cuda::ops::select(w, m, accum, pred, &du, desc)
        })
    }
    fn assign_scalar<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        x: T,
        desc: &Descriptor,
    ) -> edgeblas::Result<()> {
        on_device(self, w, mask, |w, m| {
            cuda::ops::assign_scalar(w, m, accum, x, desc)
        })
    }
    fn reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        &self,
        m: M,
        u: &Vector<T>,
    ) -> edgeblas::Result<T> {
        cuda::ops::reduce(m, &DeviceVector::upload(&self.0, u)?)
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
        let du = DeviceVector::upload(&self.0, u)?;
        let di = DeviceVector::upload(&self.0, indices)?;
        on_device(self, w, mask, |w, m| {
            cuda::ops::extract(w, m, accum, &du, &di, desc)
        })
    }
    fn assign_reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        &self,
        w: &mut Vector<T>,
        m: M,
        u: &Vector<T>,
        indices: &Vector<Index>,
    ) -> edgeblas::Result<()> {
        let du = DeviceVector::upload(&self.0, u)?;
        let di = DeviceVector::upload(&self.0, indices)?;
        on_device(self, w, None, |w, _| {
            cuda::ops::assign_reduce(w, m, &du, &di)
        })
    }
}

/// A mask matrix on the device, of its own type.
enum DevMatMask {
    Unit(DeviceCsr<()>),
    Bool(DeviceCsr<bool>),
    I32(DeviceCsr<i32>),
    F64(DeviceCsr<f64>),
}

impl Device {
    fn matrix_mask(&self, m: Option<&MatMaskArg<'_>>) -> edgeblas::Result<Option<DevMatMask>> {
        let g = &self.0;
        m.map(|m| {
            Ok(match m.m {
                MatMaskMat::Unit(c) => DevMatMask::Unit(DeviceCsr::upload(g, c)?),
                MatMaskMat::Bool(c) => DevMatMask::Bool(DeviceCsr::upload(g, c)?),
                MatMaskMat::I32(c) => DevMatMask::I32(DeviceCsr::upload(g, c)?),
                MatMaskMat::F64(c) => DevMatMask::F64(DeviceCsr::upload(g, c)?),
            })
        })
        .transpose()
    }
}

fn device_matrix_mask<'a>(v: &'a DevMatMask, m: &MatMaskArg<'_>) -> DeviceMatrixMask<'a> {
    fn one<'v, T: DeviceValue>(c: &'v DeviceCsr<T>, m: &MatMaskArg<'_>) -> DeviceMatrixMask<'v> {
        let d = if m.structure {
            DeviceMatrixMask::structure(c)
        } else {
            DeviceMatrixMask::values(c)
        };
        if m.complement { d.complement() } else { d }
    }
    match v {
        DevMatMask::Unit(c) => one(c, m),
        DevMatMask::Bool(c) => one(c, m),
        DevMatMask::I32(c) => one(c, m),
        DevMatMask::F64(c) => one(c, m),
    }
}

impl MatrixRunner for Device {
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
        let mv = self.matrix_mask(mask)?;
        let dm = mv.as_ref().zip(mask).map(|(v, m)| device_matrix_mask(v, m));
        let da = DeviceCsr::upload(&self.0, a)?;
        let db = DeviceCsr::upload(&self.0, b)?;
        let mut dc = DeviceCsr::upload(&self.0, c)?;
        cuda::ops::mxm(&mut dc, dm.as_ref(), accum, s, &da, &db, desc)?;
        *c = dc.download()?;
        Ok(())
    }
    fn transpose<T: DeviceValue>(
        &self,
        c: &mut Csr<T>,
        mask: Option<&MatMaskArg<'_>>,
        accum: Accum<'_, T>,
        a: &Csr<T>,
        desc: &MatrixDescriptor,
    ) -> edgeblas::Result<()> {
        let mv = self.matrix_mask(mask)?;
        let dm = mv.as_ref().zip(mask).map(|(v, m)| device_matrix_mask(v, m));
        let da = DeviceCsr::upload(&self.0, a)?;
        let mut dc = DeviceCsr::upload(&self.0, c)?;
        cuda::ops::transpose(&mut dc, dm.as_ref(), accum, &da, desc)?;
        *c = dc.download()?;
        Ok(())
    }
    fn reduce_matrix<T: DeviceValue, M: Monoid<T> + 'static>(
        &self,
        m: M,
        a: &Csr<T>,
    ) -> edgeblas::Result<T> {
        cuda::ops::reduce_matrix(m, &DeviceCsr::upload(&self.0, a)?)
    }
    fn triangle_count(
        &self,
        g: &edgeblas::graph::Graph<'_, ()>,
        method: edgeblas::algo::triangles::TriangleMethod,
        presort: edgeblas::algo::triangles::Presort,
    ) -> edgeblas::Result<edgeblas::algo::triangles::TriangleCount> {
        cuda::triangle_count(&self.0, g, method, presort)
    }
}

macro_rules! gpu_tests {
    ($($name:ident => |$d:ident| $body:expr;)*) => {$(
        #[test]
        #[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
        fn $name() {
            let Some(g) = gpu(stringify!($name)) else { return };
            let $d = Device(g);
            $body;
        }
    )*};
}

gpu_tests! {
    device_semirings_over_u32_equal_the_cpu => |d| cases::arith_semirings::<_, u32>(&d, 100, "u32", false);
    device_semirings_over_u64_equal_the_cpu => |d| cases::arith_semirings::<_, u64>(&d, 200, "u64", false);
    device_semirings_over_i32_equal_the_cpu => |d| cases::arith_semirings::<_, i32>(&d, 300, "i32", false);
    device_semirings_over_i64_equal_the_cpu => |d| cases::arith_semirings::<_, i64>(&d, 400, "i64", false);
    device_semirings_over_f32_equal_the_cpu => |d| cases::arith_semirings::<_, f32>(&d, 500, "f32", true);
    device_semirings_over_f64_equal_the_cpu => |d| cases::arith_semirings::<_, f64>(&d, 600, "f64", true);
    device_boolean_and_positional_semirings_equal_the_cpu => |d| cases::boolean_and_positional(&d);
    device_elementwise_over_u32_equals_the_cpu => |d| cases::elementwise_over_u32(&d);
    device_elementwise_over_u64_equals_the_cpu => |d| cases::elementwise_over_u64(&d);
    device_elementwise_over_i32_equals_the_cpu => |d| cases::elementwise_over_i32(&d);
    device_elementwise_over_i64_equals_the_cpu => |d| cases::elementwise_over_i64(&d);
    device_elementwise_over_f32_equals_the_cpu => |d| cases::elementwise_over_f32(&d);
    device_elementwise_over_f64_equals_the_cpu => |d| cases::elementwise_over_f64(&d);
    device_elementwise_over_bool_equals_the_cpu => |d| cases::elementwise_over_bool(&d);
    device_transpose_equals_the_cpu => |d| matrix_cases::transposes(&d);
    device_mxm_over_u32_equals_the_cpu => |d| matrix_cases::mxm_arith::<_, u32>(&d, 1100, "u32");
    device_mxm_over_u64_equals_the_cpu => |d| matrix_cases::mxm_arith::<_, u64>(&d, 1200, "u64");
    device_mxm_over_i32_equals_the_cpu => |d| matrix_cases::mxm_arith::<_, i32>(&d, 1300, "i32");
    device_mxm_over_i64_equals_the_cpu => |d| matrix_cases::mxm_arith::<_, i64>(&d, 1400, "i64");
    device_mxm_over_f32_equals_the_cpu => |d| matrix_cases::mxm_arith::<_, f32>(&d, 1500, "f32");
    device_mxm_over_f64_equals_the_cpu => |d| matrix_cases::mxm_arith::<_, f64>(&d, 1600, "f64");
    device_mxm_boolean_and_positional_semirings_equal_the_cpu => |d| matrix_cases::mxm_boolean_and_positional(&d);
    device_mxm_long_rows_equal_the_cpu => |d| matrix_cases::mxm_long_rows(&d);
    device_reduce_matrix_equals_the_cpu => |d| matrix_cases::reduce_matrices(&d);
    device_triangle_count_equals_the_cpu => |d| matrix_cases::triangle_counts(&d);
    device_extract_and_assign_reduce_equal_the_cpu => |d| cases::indexed(&d);
    device_bfs_and_bellman_ford_templates_equal_the_cpu => |d| cases::templates(&d);
}

#[test]
#[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
fn device_delta_stepping_equals_the_cpu() {
    let Some(g) = gpu("device_delta_stepping_equals_the_cpu") else {
        return;
    };
    cases::delta_stepping_cases(&|graph, s, d| cuda::delta_stepping(&g, graph, s, d));
}

#[test]
#[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
fn device_cdlp_equals_the_cpu() {
    let Some(g) = gpu("device_cdlp_equals_the_cpu") else {
        return;
    };
    cases::cdlp_cases(&|graph, k| cuda::cdlp(&g, graph, k));
}

#[test]
#[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
fn device_wcc_equals_the_cpu() {
    let Some(g) = gpu("device_wcc_equals_the_cpu") else {
        return;
    };
    cases::wcc_cases(&|graph| cuda::wcc(&g, graph));
}

#[test]
#[cfg_attr(not(feature = "cuda"), ignore = "needs --features cuda (and a GPU)")]
fn device_pagerank_equals_the_cpu() {
    let Some(g) = gpu("device_pagerank_equals_the_cpu") else {
        return;
    };
    cases::pagerank_cases(&|graph, opts, p| cuda::pagerank(&g, graph, opts, p));
}
