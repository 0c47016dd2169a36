//! The device algebra's matrix operations over an executor: `transpose` (a counting sort
//! by column), `mxm` (masked dot products or Gustavson saxpy) and the matrix write-back
//! `C<M> = C (.) T` that ends both, as the CPU's `ops` end theirs. Written once over
//! [`Exec`], so the host build of the kernels runs the same launches in the tests.
//!
//! A result whose size is not known beforehand is built in two passes: a count per row,
//! a prefix sum of the counts into the offsets, then the entries written at them.

use std::ffi::c_void;

use super::abi::*;
use super::chung_lu::scan;
use super::exec::{Exec, Launch};
use super::ops::{NO_CSR, accum_code, kernel, pack, params, reduce_from, semiring_name, type_name};
use crate::algebra::{Accum, Monoid, Scalar, Semiring};
use crate::descriptor::MatrixDescriptor;
use crate::error::{Error, Result};
use crate::matrix::Csr;

/// A CSR matrix on an executor: `nrows + 1` offsets, `nnz` column indices and, unless
/// the type is `()`, one value slot of `elem` bytes per entry (in 8-byte words, so every
/// type is aligned).
pub(crate) struct DMat<E: Exec> {
    pub(crate) nrows: usize,
    pub(crate) ncols: usize,
    pub(crate) nnz: usize,
    pub(crate) elem: usize,
    pub(crate) off: E::Buf<u64>,
    pub(crate) idx: E::Buf<u32>,
    pub(crate) vals: Option<E::Buf<u64>>,
}

impl<E: Exec> DMat<E> {
    /// An `nrows x ncols` matrix with no entries.
    pub(crate) fn empty(ex: &E, nrows: usize, ncols: usize, elem: usize) -> Result<Self> {
        Self::with_offsets(ex, nrows, ncols, elem, ex.alloc::<u64>(nrows + 1)?, 0)
    }

    /// A matrix of `nnz` entries, with offsets `off` given, indices and values to fill.
    fn with_offsets(
        ex: &E,
        nrows: usize,
        ncols: usize,
        elem: usize,
        off: E::Buf<u64>,
        nnz: usize,
    ) -> Result<Self> {
        Ok(DMat {
            nrows,
            ncols,
            nnz,
            elem,
            off,
            idx: ex.alloc::<u32>(nnz)?,
            vals: if elem == 0 {
                None
            } else {
                Some(ex.alloc::<u64>((nnz * elem).div_ceil(8))?)
            },
        })
    }

    /// A copy of `a`'s structure, and its values unless `structure_only`.
    pub(crate) fn upload<T: Scalar>(ex: &E, a: &Csr<T>, structure_only: bool) -> Result<Self> {
        let elem = if structure_only {
            0
        } else {
            std::mem::size_of::<T>()
        };
        Ok(DMat {
            nrows: a.nrows(),
            ncols: a.ncols(),
            nnz: a.nnz(),
            elem,
            off: ex.upload(a.offsets())?,
            idx: ex.upload(a.indices())?,
            vals: if elem == 0 {
                None
            } else {
                Some(ex.upload(&pack::values_to_words(a.values()))?)
            },
        })
    }

    /// The matrix back on the host, checked.
    pub(crate) fn download<T: Scalar>(&self, ex: &E) -> Result<Csr<T>> {
        let offsets = ex.download(&self.off, self.nrows + 1)?;
        let indices = ex.download(&self.idx, self.nnz)?;
        let values = match &self.vals {
            Some(v) => pack::words_to_values::<T>(
                &ex.download(v, (self.nnz * self.elem).div_ceil(8))?,
                self.nnz,
            ),
            None => vec![T::default(); self.nnz],
        };
        Csr::new_checked(self.nrows, self.ncols, offsets, indices, values)
    }

    /// The structure as the kernels read it.
    pub(crate) fn csr(&self, ex: &E) -> EbCsr {
        EbCsr {
            offsets: ex.addr(&self.off),
            indices: ex.addr(&self.idx),
            nrows: self.nrows as u32,
            ncols: self.ncols as u32,
        }
    }

    /// The values' address (null for a pattern).
    pub(crate) fn vals_ptr(&self, ex: &E) -> *mut c_void {
        match &self.vals {
            Some(v) => ex.addr(v).cast(),
            None => std::ptr::null_mut(),
        }
    }
}

/// A matrix mask as the kernels read it (`flags == 0`: none).
#[derive(Clone, Copy)]
pub(crate) struct MatMaskView {
    pub(crate) m: EbCsr,
    pub(crate) values: *const c_void,
    pub(crate) ty: u32,
    pub(crate) flags: u32,
}

impl MatMaskView {
    /// No mask.
    pub(crate) const NONE: MatMaskView = MatMaskView {
        m: NO_CSR,
        values: std::ptr::null(),
        ty: 0,
        flags: 0,
    };

    /// The mask of matrix `m` (of type code `ty`): its structure or its true values,
    /// complemented or not.
    pub(crate) fn of<E: Exec>(
        ex: &E,
        m: &DMat<E>,
        ty: u32,
        structure: bool,
        complement: bool,
    ) -> MatMaskView {
        let mut flags = EB_MASK_ON;
        if structure {
            flags |= EB_MASK_STRUCTURE;
        }
        if complement {
            flags |= EB_MASK_COMPLEMENT;
        }
        MatMaskView {
            m: m.csr(ex),
            values: m.vals_ptr(ex).cast_const(),
            ty,
            flags,
        }
    }

    fn on(&self) -> bool {
        self.flags & EB_MASK_ON != 0
    }

    fn complemented(&self) -> bool {
        self.flags & EB_MASK_COMPLEMENT != 0
    }

    /// Rows and columns.
    pub(crate) fn shape(&self) -> (usize, usize) {
        (self.m.nrows as usize, self.m.ncols as usize)
    }
}

fn with_matrix_mask(mut p: EbOpParams, m: MatMaskView) -> EbOpParams {
    p.mm = m.m;
    p.m_values = m.values;
    p.m_type = m.ty;
    p.m_flags = m.flags;
    p
}

/// The static name of an instance that has no semiring or type suffix.
fn kernel_named(name: &str) -> Result<&'static str> {
    super::host::HOST_OPS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, _)| *n)
        .ok_or_else(|| Error::Unsupported(format!("CUDA: no device kernel {name}")))
}

/// The offsets of a result from its per-row counts (`counts`, `nrows` of them), and its
/// number of entries.
fn offsets_from_counts<E: Exec>(
    ex: &E,
    counts: &E::Buf<u64>,
    nrows: usize,
) -> Result<(E::Buf<u64>, usize)> {
    let off = ex.alloc::<u64>(nrows + 1)?;
    scan(ex, counts, nrows, &off)?;
    let nnz = ex.read(&off, nrows)? as usize;
    Ok((off, nnz))
}

/// `A'`: a counting sort by column (count, prefix sum, place), each row of the result
/// then sorted, so its rows ascend as [`Csr::transpose`]'s do. `ty` names the value type.
pub(crate) fn transpose<E: Exec>(ex: &E, ty: &str, a: &DMat<E>) -> Result<DMat<E>> {
    let (nrows, ncols) = (a.ncols, a.nrows);
    let mut counts = ex.alloc::<u64>(nrows)?;
    let mut p = params(a.nrows as u64, 0);
    p.a = a.csr(ex);
    p.a_values = a.vals_ptr(ex);
    p.counts = ex.addr(&counts);
    if a.nnz > 0 {
        ex.run(Launch::Op(kernel_named("eb_transpose_count")?, p))?;
    }
    let (off, nnz) = offsets_from_counts(ex, &counts, nrows)?;
    let t = DMat::with_offsets(ex, nrows, ncols, a.elem, off, nnz)?;
    if nnz > 0 {
        // The cursors: every row's next free slot, from its offset.
        ex.zero(&mut counts)?;
        ex.run(Launch::CopyU64(EbScanParams {
            in_: ex.addr(&t.off),
            out: ex.addr(&counts),
            sums: std::ptr::null_mut(),
            base: std::ptr::null(),
            len: nrows as u64,
        }))?;
        p.c_indices = ex.addr(&t.idx);
        p.c_values = t.vals_ptr(ex);
        ex.run(Launch::Op(kernel("transpose_place", ty)?, p))?;
        sort_rows(ex, ty, &t)?;
    }
    ex.barrier()?;
    Ok(t)
}

/// Sorts every row of `t` by column, values carried along.
fn sort_rows<E: Exec>(ex: &E, ty: &str, t: &DMat<E>) -> Result<()> {
    let mut p = params(t.nrows as u64, 0);
    p.c_offsets = ex.addr(&t.off);
    p.c_indices = ex.addr(&t.idx);
    p.c_values = t.vals_ptr(ex);
    ex.run(Launch::Op(kernel("sort_row", ty)?, p))
}

/// `T<M> = A (+).(x) B` for semiring kernels `sr`, output values of `elem` bytes (type
/// `ty`). Under an uncomplemented mask, dot products over the mask's entries with
/// `bt` = the rows of `B'`; otherwise saxpy over `b`'s rows (`bt` unused). `T` has
/// entries only where the mask allows.
#[allow(clippy::too_many_arguments)]
pub(crate) fn product<E: Exec>(
    ex: &E,
    sr: &str,
    ty: &str,
    elem: usize,
    mask: MatMaskView,
    a: &DMat<E>,
    b: &DMat<E>,
    dot: bool,
) -> Result<DMat<E>> {
    let nrows = a.nrows;
    let ncols = if dot { b.nrows } else { b.ncols };
    let mut counts = ex.alloc::<u64>(nrows)?;
    let mut p = with_matrix_mask(params(nrows as u64, 0), mask);
    p.a = a.csr(ex);
    p.a_values = a.vals_ptr(ex);
    p.b = b.csr(ex);
    p.b_values = b.vals_ptr(ex);
    p.counts = ex.addr(&counts);
    if a.nnz == 0 || b.nnz == 0 || nrows == 0 {
        return DMat::empty(ex, nrows, ncols, elem);
    }
    if dot {
        let name = kernel("mxm_dot", sr)?;
        ex.run(Launch::Op(name, p))?;
        let (off, nnz) = offsets_from_counts(ex, &counts, nrows)?;
        let t = DMat::with_offsets(ex, nrows, ncols, elem, off, nnz)?;
        if nnz > 0 {
            p.pass = 1;
            p.c_offsets = ex.addr(&t.off);
            p.c_indices = ex.addr(&t.idx);
            p.c_values = t.vals_ptr(ex);
            ex.run(Launch::Op(name, p))?;
        }
        ex.barrier()?;
        return Ok(t);
    }
    let name = kernel("mxm_saxpy", sr)?;
    let gather = kernel("saxpy_gather", ty)?;
    // The workspace: slots per row, their offsets, keys (empty) and values.
    ex.run(Launch::Op(kernel_named("eb_saxpy_slots")?, p))?;
    let (ws_off, slots) = offsets_from_counts(ex, &counts, nrows)?;
    let mut keys = ex.alloc::<u32>(slots)?;
    ex.fill_u32(&mut keys, EB_WS_EMPTY)?;
    let ws_vals = ex.alloc::<u64>((slots * elem).div_ceil(8))?;
    p.ws_offsets = ex.addr(&ws_off);
    p.ws_keys = ex.addr(&keys);
    p.ws_values = ex.addr(&ws_vals).cast();
    ex.zero(&mut counts)?;
    ex.run(Launch::Op(name, p))?;
    let (off, nnz) = offsets_from_counts(ex, &counts, nrows)?;
    let t = DMat::with_offsets(ex, nrows, ncols, elem, off, nnz)?;
    if nnz > 0 {
        p.c_offsets = ex.addr(&t.off);
        p.c_indices = ex.addr(&t.idx);
        p.c_values = t.vals_ptr(ex);
        ex.run(Launch::Op(gather, p))?;
    }
    ex.barrier()?;
    Ok(t)
}

/// `C<M> = C (.) T` (accumulator `accum`, an `EB_OP_*`; `EB_OP_NONE` for none), the
/// CPU's matrix write-back. `t_masked`: `T` has entries only where the mask allows, so
/// with no accumulator and nothing of `C` to keep, `T` simply becomes `C`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_back<E: Exec>(
    ex: &E,
    ty: &str,
    c: &mut DMat<E>,
    mask: MatMaskView,
    accum: u32,
    t: DMat<E>,
    t_masked: bool,
    replace: bool,
) -> Result<()> {
    if accum == EB_OP_NONE && (!mask.on() || (t_masked && (replace || c.nnz == 0))) {
        *c = t;
        return Ok(());
    }
    let name = kernel("matrix_write", ty)?;
    let nrows = c.nrows;
    let counts = ex.alloc::<u64>(nrows)?;
    let mut p = with_matrix_mask(params(nrows as u64, 0), mask);
    p.a = c.csr(ex);
    p.a_values = c.vals_ptr(ex);
    p.b = t.csr(ex);
    p.b_values = t.vals_ptr(ex);
    p.counts = ex.addr(&counts);
    p.op = accum;
    p.replace = replace as u32;
    ex.run(Launch::Op(name, p))?;
    let (off, nnz) = offsets_from_counts(ex, &counts, nrows)?;
    let out = DMat::with_offsets(ex, nrows, c.ncols, c.elem, off, nnz)?;
    if nnz > 0 {
        p.pass = 1;
        p.c_offsets = ex.addr(&out.off);
        p.c_indices = ex.addr(&out.idx);
        p.c_values = out.vals_ptr(ex);
        ex.run(Launch::Op(name, p))?;
    }
    ex.barrier()?;
    *c = out;
    Ok(())
}

/// The typed operations: names looked up from the Rust types, then the families above.
/// Shapes are the callers' to check.
pub(crate) mod typed {
    use super::*;

    /// `C<M> = C (.) A'` ([`crate::ops::transpose`]; `T = A` under `transpose_a`).
    pub(crate) fn transpose<E: Exec, T: Scalar>(
        ex: &E,
        c: &mut DMat<E>,
        mask: MatMaskView,
        accum: Accum<'_, T>,
        a: &DMat<E>,
        desc: &MatrixDescriptor,
    ) -> Result<()> {
        let ty = type_name::<T>()?;
        let acc = accum_code(accum)?;
        let t = if desc.transpose_a {
            duplicate(ex, a)?
        } else {
            super::transpose(ex, ty, a)?
        };
        write_back(ex, ty, c, mask, acc, t, false, desc.replace)
    }

    /// A copy of `a` on the same executor.
    fn duplicate<E: Exec>(ex: &E, a: &DMat<E>) -> Result<DMat<E>> {
        let off = ex.upload(&ex.download(&a.off, a.nrows + 1)?)?;
        let mut d = DMat::with_offsets(ex, a.nrows, a.ncols, a.elem, off, a.nnz)?;
        d.idx = ex.upload(&ex.download(&a.idx, a.nnz)?)?;
        if let Some(v) = &a.vals {
            d.vals = Some(ex.upload(&ex.download(v, (a.nnz * a.elem).div_ceil(8))?)?);
        }
        Ok(d)
    }

    /// `C<M> = C (.) (A (+).(x) B)` ([`crate::ops::mxm`]): masked dot products under an
    /// uncomplemented mask (over the rows of `B'`: `B` itself under `transpose_b`, else
    /// transposed on the device), Gustavson saxpy otherwise; `A'` under `transpose_a` is
    /// transposed on the device first. `a_ty` and `b_ty` name the operands' value types.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn mxm<E: Exec, S, A, B>(
        ex: &E,
        c: &mut DMat<E>,
        mask: MatMaskView,
        accum: Accum<'_, S::Output>,
        _semiring: S,
        a: &DMat<E>,
        b: &DMat<E>,
        desc: &MatrixDescriptor,
    ) -> Result<()>
    where
        S: Semiring<A, B> + 'static,
        A: 'static,
        B: 'static,
    {
        let sr = semiring_name::<S, A, B>()?;
        let ty = type_name::<S::Output>()?;
        let a_ty = type_name::<A>()?;
        let b_ty = type_name::<B>()?;
        let acc = accum_code(accum)?;
        let elem = std::mem::size_of::<S::Output>();
        let at;
        let a = if desc.transpose_a {
            at = super::transpose(ex, a_ty, a)?;
            &at
        } else {
            a
        };
        let dot = mask.on() && !mask.complemented();
        // dot reads the rows of B', saxpy those of B.
        let bt;
        let b = if dot != desc.transpose_b {
            bt = super::transpose(ex, b_ty, b)?;
            &bt
        } else {
            b
        };
        let t = product(ex, sr, ty, elem, mask, a, b, dot)?;
        write_back(ex, ty, c, mask, acc, t, true, desc.replace)
    }

    /// `s = (+)_{i, j} A(i, j)` ([`crate::ops::reduce_matrix`]): the values in storage
    /// order by segments, as [`super::super::ops::reduce`] sums a vector; the identity
    /// when `A` has no entries.
    pub(crate) fn reduce_matrix<E: Exec, T: Scalar, M: Monoid<T> + 'static>(
        ex: &E,
        monoid: M,
        a: &DMat<E>,
    ) -> Result<T> {
        let name = super::super::ops::monoid_name::<M, T>()?;
        if a.nnz == 0 {
            return Ok(monoid.identity());
        }
        let mut bits = ex.alloc::<u32>(a.nnz.div_ceil(32))?;
        ex.fill_u32(&mut bits, u32::MAX)?;
        let elem = std::mem::size_of::<T>();
        let r = reduce_from(
            ex,
            name,
            a.nnz,
            elem,
            ex.addr(&bits).cast_const(),
            a.vals_ptr(ex).cast_const(),
        )?;
        Ok(match r {
            Some(w) => pack::scalar_from_word(w),
            None => monoid.identity(),
        })
    }
}
