//! The operations, GraphBLAS style: every one computes a result `t`, then writes
//! `w<m> = w (.) t` (mask, optional accumulator, replace from the [`Descriptor`]).
//!
//! This module checks shapes (a mismatch is the caller's contract violation and panics,
//! naming the operands) and dispatches to the backend.
//!
//! A vector is a column, as in the GraphBLAS C API: an `n`-vector is an `n x 1` matrix,
//! so a positional operator sees its entry `u(i)` at row `i`, column 0 ([`column`](fn@column) adapts
//! [`tril`], [`rowindex`] and the other matrix index-unary operators to vectors).
//!
//! [`Descriptor`]: crate::descriptor::Descriptor

mod apply;
mod assign;
mod bfs_step;
mod ewise;
mod index;
mod matrix;
mod matrix_ewise;
mod mxm;
mod mxv;
mod reduce;
mod vxm;

pub use crate::algebra::Accum;
pub use crate::algebra::Indices;
pub use apply::{apply, apply_indexed, apply_inplace, partition, select, select_inplace};
pub use assign::{assign, assign_scalar};
pub use bfs_step::{BfsLevels, BfsState, Direction, StepCounts, bfs_step};
pub use ewise::{ewise_add, ewise_add_inplace, ewise_mult, ewise_mult_inplace};
pub use index::{
    assign_indices, assign_matrix, assign_reduce, extract, extract_col, extract_matrix, extract_row,
};
pub use matrix::{
    colindex, column, diag, diagindex, offdiag, rowindex, select_matrix, select_matrix_inplace,
    transpose, tril, triu, value_eq, value_ge, value_gt, value_le, value_lt, value_ne,
};
pub use matrix_ewise::{
    apply_matrix, apply_matrix_indexed, apply_matrix_inplace, ewise_add_matrix, ewise_mult_matrix,
    kronecker,
};
pub use mxm::{MxmMethod, mxm, mxm_inplace, mxm_with_method, reduce_matrix, reduce_rows};
pub use mxv::{mxv, mxv_inplace};
pub use reduce::reduce;
pub use vxm::{
    Fixpoint, PushMethod, vxm, vxm_accumulate, vxm_accumulate_fixpoint, vxm_inplace,
    vxm_with_method,
};

use crate::descriptor::Mask;

/// Panics unless the mask (if any) has the output's length.
pub(crate) fn check_mask(mask: Option<&Mask>, len: usize) {
    if let Some(m) = mask {
        assert_eq!(m.len(), len, "mask.len() != w.len()");
    }
}
