//! Community detection by label propagation (Graphalytics CDLP) on an executor (the GPU,
//! or the host build of the kernels in the tests): the CPU's synchronous rounds over
//! the same count matrix `M` (`algo::cdlp::neighbour_counts`: `A`, or `A + A'` over
//! counts for a directed graph), each round one pass of csrc/ops.cuh's
//! `eb_cdlp_mode_row` (a row's labels sorted with their counts in its own workspace
//! positions, then summed run by run: the most frequent label, the smallest on a tie).

use super::exec::{Exec, Launch};
use super::matrix::DMat;
use super::ops::{self as dops, pack};
use crate::algebra::Index;
use crate::error::Result;
use crate::vector::Vector;

/// `iterations` rounds over the count matrix `m` (`n x n`, u32 values) on `ex`: each
/// vertex's final label.
pub(crate) fn cdlp<E: Exec>(ex: &E, m: &DMat<E>, iterations: usize) -> Result<Vec<Index>> {
    let n = m.nrows;
    let name = dops::kernel("cdlp_mode", "u32")?;
    let mut labels = pack::upload(ex, &Vector::from_dense((0..n as Index).collect()))?;
    // Every row sorts in its own positions of M: one slot per entry (at least one, so
    // that an empty matrix allocates something).
    let keys = ex.alloc::<u32>(m.nnz.max(1))?;
    let counts = ex.alloc::<u64>(m.nnz.max(1))?;
    for _ in 0..iterations {
        let next = labels.duplicate(ex)?;
        let mut p = dops::params(n as u64, n);
        p.a = m.csr(ex);
        p.a_values = m.vals_ptr(ex).cast_const();
        p.u_values = labels.vals_ptr(ex).cast_const();
        p.w_values = next.vals_ptr(ex);
        p.ws_keys = ex.addr(&keys);
        p.ws_values = ex.addr(&counts).cast();
        ex.run(Launch::Op(name, p))?;
        labels = next;
    }
    Ok(pack::download::<E, Index>(ex, &labels)?
        .into_dense(0)
        .into_vec())
}
