//! Push: `t<m> = u (+).(x) A` over the out-edges of the entries of a sparse `u`
//! (SpMSpV, Gustavson-style). Each frontier entry `k` scatters `A(k, j) (x) u(k)` to every
//! `j` the mask allows; the terms of one `j` are summed in ascending `k`.
//!
//! Parallel form: the entries of `u` are cut into chunks of about equal edge counts;
//! each chunk emits its terms and sorts them by `j` (stably, so `k` order survives);
//! then every range of output indices merges its slices of all chunks, in chunk order.

use rayon::prelude::*;

use super::SEQUENTIAL_WORK;
use crate::algebra::{Index, Monoid, Scalar, Semiring};
use crate::descriptor::Mask;
use crate::matrix::Csr;
use crate::vector::{SparseVector, Vector};

/// The entries of `u` as sorted parallel arrays (borrowed when `u` is sparse).
pub(crate) fn entries<U: Scalar>(u: &Vector<U>) -> std::borrow::Cow<'_, SparseVector<U>> {
    match u {
        Vector::Sparse(s) => std::borrow::Cow::Borrowed(s),
        Vector::Bitmap(b) => std::borrow::Cow::Owned(b.to_sparse()),
        Vector::Dense(d) => std::borrow::Cow::Owned(d.to_sparse()),
    }
}

/// `t<m> = u (+).(x) A`, the result sparse and restricted to the mask.
pub(crate) fn vxm_push<S, A, U>(
    s: S,
    u: &Vector<U>,
    a: &Csr<A>,
    mask: Option<&Mask>,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let n = a.ncols();
    let u = entries(u);
    let (ks, us) = (u.indices(), u.values());
    let offsets = a.offsets();
    let work: usize = if ks.len() < SEQUENTIAL_WORK {
        ks.iter().map(|&k| a.degree(k as usize)).sum()
    } else {
        ks.par_iter().map(|&k| a.degree(k as usize)).sum()
    };
    let allowed = |j: Index| mask.is_none_or(|m| m.allows(j as usize));
    let emit = |range: std::ops::Range<usize>, out: &mut Vec<(Index, S::Output)>| {
        for p in range {
            let (k, uk) = (ks[p], us[p]);
            let (s0, e0) = (
                offsets[k as usize] as usize,
                offsets[k as usize + 1] as usize,
            );
            let (cols, vals) = (&a.indices()[s0..e0], &a.values()[s0..e0]);
            for (&j, &x) in cols.iter().zip(vals) {
                if allowed(j) {
                    out.push((j, s.multiply(x, uk, k)));
                }
            }
        }
    };
    let threads = rayon::current_num_threads();
    if work < SEQUENTIAL_WORK || threads == 1 {
        let mut terms = Vec::with_capacity(work.min(n.max(16)));
        emit(0..ks.len(), &mut terms);
        return Vector::Sparse(combine_sorted(n, &s.add(), terms));
    }

    // Chunks of about equal work, in order of k.
    let nchunks = (threads * 4).min(ks.len()).max(1);
    let target = work.div_ceil(nchunks);
    let mut bounds = vec![0usize];
    let mut acc = 0usize;
    for (p, &k) in ks.iter().enumerate() {
        acc += a.degree(k as usize);
        if acc >= target && p + 1 < ks.len() {
            bounds.push(p + 1);
            acc = 0;
        }
    }
    bounds.push(ks.len());
    let chunks: Vec<Vec<(Index, S::Output)>> = bounds
        .par_windows(2)
        .map(|w| {
            let mut terms = Vec::new();
            emit(w[0]..w[1], &mut terms);
            terms.sort_by_key(|e| e.0);
            terms
        })
        .collect();

    // Output ranges of about equal size; each merges its slice of every chunk.
    let nranges = threads * 4;
    let width = n.div_ceil(nranges).max(1);
    let add = s.add();
    let parts: Vec<(Vec<Index>, Vec<S::Output>)> = (0..nranges)
        .into_par_iter()
        .map(|r| {
            let (lo, hi) = ((r * width) as u64, ((r + 1) * width) as u64);
            let mut terms = Vec::new();
            for c in &chunks {
                let a0 = c.partition_point(|e| (e.0 as u64) < lo);
                let a1 = c.partition_point(|e| (e.0 as u64) < hi);
                terms.extend_from_slice(&c[a0..a1]);
            }
            let (_, i, v) = combine_sorted(n, &add, terms).into_parts();
            (i, v)
        })
        .collect();
    let total: usize = parts.iter().map(|p| p.0.len()).sum();
    let mut indices = Vec::with_capacity(total);
    let mut values = Vec::with_capacity(total);
    for (i, v) in parts {
        indices.extend_from_slice(&i);
        values.extend_from_slice(&v);
    }
    // SAFETY: ranges are disjoint and ascending, each strictly increasing within.
    Vector::Sparse(unsafe { SparseVector::new_unchecked(n, indices, values) })
}

/// Stable-sorts terms by index and sums each run in order.
fn combine_sorted<Z: Scalar, M: Monoid<Z>>(
    n: usize,
    add: &M,
    mut terms: Vec<(Index, Z)>,
) -> SparseVector<Z> {
    terms.sort_by_key(|e| e.0);
    let mut indices: Vec<Index> = Vec::with_capacity(terms.len());
    let mut values: Vec<Z> = Vec::with_capacity(terms.len());
    for (j, z) in terms {
        if indices.last() == Some(&j) {
            let last = values.last_mut().expect("parallel arrays");
            *last = add.combine(*last, z);
        } else {
            indices.push(j);
            values.push(z);
        }
    }
    // SAFETY: sorted and de-duplicated just above; every j is a column index < n.
    unsafe { SparseVector::new_unchecked(n, indices, values) }
}
