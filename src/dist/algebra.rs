//! The algebra over row blocks: a vector is cut as the rows are ([`RowBlocks`]: each
//! rank holds the entries of the vertices it owns), and a matrix by rows (each rank
//! holds its rows, with the global column numbering).
//!
//! ```text
//! w<m> = w (.) (A (+).(x) u)    mxv: u gathered whole on every rank (the frontier
//!                               exchange of the distributed BFS), then each rank's rows
//!                               by the CPU kernels (rayon), any semiring
//! w<m> = w (.) (u' (+).(x) A)    vxm: each rank pushes its piece of u through its rows
//!                               (the CPU kernels), the partial sums go to the owners of
//!                               their columns (the push exchange of the distributed BFS),
//!                               which add them up in rank order
//! ```
//!
//! Each `mxv` output entry is one row's sum, computed by one rank in the CPU's order, so
//! `mxv` gives every entry exactly as [`crate::ops::mxv`] on one process does. A `vxm`
//! entry is a sum of per-rank partial sums: exactly the one process's for a monoid that
//! does not depend on the order of its terms (MIN, MAX, OR, AND, ANY, integer PLUS...),
//! and for float PLUS the same terms in the same order but grouped by rank (a few units in
//! the last place).

use mpi::datatype::Equivalence;

use super::net::Net;
use super::partition::{Partition, RowBlocks};
use crate::algebra::{Index, Monoid, Scalar, Semiring};
use crate::descriptor::{Descriptor, Mask};
use crate::matrix::Csr;
use crate::ops::Accum;
use crate::vector::{SparseVector, Vector};

/// Every rank's piece of `u` (this rank's: `u`, of the length of its block), gathered
/// whole on every rank: the values alone (one allgatherv, a dense vector) when every
/// piece is full, else the present entries as global indices and values (two
/// allgathervs, a sparse vector). Collective.
///
/// # Panics
/// When `u.len()` is not the length of this rank's block.
pub fn allgather_vector<U: Scalar + Equivalence>(
    net: &Net,
    part: &RowBlocks,
    u: &Vector<U>,
) -> Vector<U> {
    let me = part.range(net.rank());
    assert_eq!(
        u.len(),
        me.len(),
        "u.len() != the rows of this rank's block"
    );
    // A dense piece is sent as it lies (no pairs, no copy), when every piece is dense.
    let dense = match u {
        Vector::Dense(d) => Some(d.as_slice()),
        _ => None,
    };
    if net.allreduce_max(dense.is_none() as u64) == 0 {
        let values = dense.expect("this rank's piece is dense");
        return Vector::from_dense(net.allgatherv(values));
    }
    let entries: Vec<(Index, U)> = match u {
        Vector::Sparse(s) => s.iter().collect(),
        Vector::Bitmap(b) => b.iter().collect(),
        Vector::Dense(d) => d.iter().collect(),
    };
    let full = entries.len() == u.len();
    if net.allreduce_max(!full as u64) == 0 {
        let values: Vec<U> = entries.into_iter().map(|(_, x)| x).collect();
        return Vector::from_dense(net.allgatherv(&values));
    }
    let (indices, values): (Vec<Index>, Vec<U>) = entries
        .into_iter()
        .map(|(i, x)| (i + me.start as Index, x))
        .unzip();
    let indices = net.allgatherv(&indices);
    let values = net.allgatherv(&values);
    Vector::Sparse(
        SparseVector::new_checked(part.vertices(), indices, values)
            .expect("the blocks ascend with the ranks"),
    )
}

/// `w<m> = w (.) (A (+).(x) u)` -- pull, distributed by rows: `a` is this rank's rows of
/// `A` (`part`'s block of rows, all `n` columns), `u`, `w` and the mask this rank's
/// pieces of the vectors (the block's length). `u` is gathered whole on every rank
/// ([`allgather_vector`]), then each rank computes its rows with [`crate::ops::mxv`]
/// (its threads, any semiring). Collective.
///
/// # Panics
/// On shapes that do not fit the block (`a.nrows()`, `w.len()` or `u.len()` not the
/// block's rows, `a.ncols()` not `n`), or a descriptor that transposes `A` (a row cut
/// cannot).
#[allow(clippy::too_many_arguments)]
pub fn mxv<S, A, U>(
    net: &Net,
    part: &RowBlocks,
    w: &mut Vector<S::Output>,
    mask: Option<&Mask>,
    accum: Accum<'_, S::Output>,
    semiring: S,
    a: &Csr<A>,
    u: &Vector<U>,
    desc: &Descriptor,
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar + Equivalence,
{
    let rows = part.range(net.rank()).len();
    assert_eq!(a.nrows(), rows, "A's rows != the rows of this rank's block");
    assert_eq!(a.ncols(), part.vertices(), "A.ncols() != n");
    assert!(!desc.transpose, "a row-distributed A cannot be transposed");
    let whole = allgather_vector(net, part, u);
    crate::ops::mxv(w, mask, accum, semiring, a, &whole, desc);
}

/// A semiring whose multiply sees the global inner index: a rank's rows are numbered
/// from 0 locally, so `k + by` is the vertex a positional semiring must return.
#[derive(Clone, Copy)]
struct Shifted<S> {
    s: S,
    by: Index,
}

impl<S: Semiring<A, U>, A, U> Semiring<A, U> for Shifted<S> {
    type Output = S::Output;
    type Add = S::Add;
    #[inline]
    fn add(&self) -> S::Add {
        self.s.add()
    }
    #[inline]
    fn multiply(&self, a: A, u: U, k: Index) -> S::Output {
        self.s.multiply(a, u, k + self.by)
    }
}

/// Below one received term per this many owned rows, [`vxm`] combines its terms by a
/// sort instead of a dense workspace.
const SPARSE_TERMS: usize = 16;

/// `w<m> = w (.) (u' (+).(x) A)` -- push, distributed by rows: `a` is this rank's rows of
/// `A` (`part`'s block of rows, all `n` columns), `u`, `w` and the mask this rank's
/// pieces of the vectors (the block's length). Each rank computes `u_r' A_r` with
/// [`crate::ops::vxm`] (its threads; a positional semiring sees global indices), sends
/// each entry to the owner of its column (two alltoallvs, the indices and the values),
/// and each owner sums what it receives in rank order with the semiring's monoid, then
/// writes its piece of `w` through the mask and the accumulator (as
/// [`crate::ops::assign`]). Collective.
///
/// Exact for an order-free monoid; float PLUS groups its terms by rank (the module's
/// float rule).
///
/// # Panics
/// On shapes that do not fit the block, or a descriptor that transposes `A`.
#[allow(clippy::too_many_arguments)]
pub fn vxm<S, A, U>(
    net: &Net,
    part: &RowBlocks,
    w: &mut Vector<S::Output>,
    mask: Option<&Mask>,
    accum: Accum<'_, S::Output>,
    semiring: S,
    u: &Vector<U>,
    a: &Csr<A>,
    desc: &Descriptor,
) where
    S: Semiring<A, U>,
    S::Output: Equivalence,
    A: Scalar,
    U: Scalar,
{
    let me = part.range(net.rank());
    let (n, rows) = (part.vertices(), me.len());
    assert_eq!(a.nrows(), rows, "A's rows != the rows of this rank's block");
    assert_eq!(a.ncols(), n, "A.ncols() != n");
    assert_eq!(u.len(), rows, "u.len() != the rows of this rank's block");
    assert_eq!(w.len(), rows, "w.len() != the rows of this rank's block");
    assert!(!desc.transpose, "a row-distributed A cannot be transposed");
    if net.size() == 1 {
        // One block of every row and column: the product is the local one.
        crate::ops::vxm(w, mask, accum, semiring, u, a, desc);
        return;
    }
    let shifted = Shifted {
        s: semiring,
        by: me.start as Index,
    };
    let mut t: Vector<S::Output> = Vector::new(n);
    crate::ops::vxm(&mut t, None, None, shifted, u, a, &Descriptor::DEFAULT);
    let ranks = part.ranks();
    let mut idx: Vec<Vec<Index>> = vec![Vec::new(); ranks];
    let mut val: Vec<Vec<S::Output>> = vec![Vec::new(); ranks];
    let mut r = 0;
    for (j, x) in t.to_pairs() {
        // The pairs ascend, and so do the blocks.
        while j as usize >= part.range(r).end {
            r += 1;
        }
        idx[r].push(j - part.range(r).start as Index);
        val[r].push(x);
    }
    drop(t);
    let got_i = net.alltoallv(&idx);
    drop(idx);
    let got_v = net.alltoallv(&val);
    drop(val);
    // Each owned column's partial sums, in rank order: through a dense workspace when the
    // terms are many, else by sorting them (stable: rank order within a column), so that
    // a call costs O(terms), not O(rows), when few arrive.
    let monoid = semiring.add();
    let z = if got_i.len() * SPARSE_TERMS < rows {
        let mut order: Vec<(Index, u32)> = got_i
            .iter()
            .enumerate()
            .map(|(k, &i)| (i, k as u32))
            .collect();
        order.sort_unstable();
        let mut pairs: Vec<(Index, S::Output)> = Vec::with_capacity(order.len());
        for run in order.chunk_by(|a, b| a.0 == b.0) {
            let mut x = got_v[run[0].1 as usize];
            for &(_, k) in &run[1..] {
                x = monoid.combine(x, got_v[k as usize]);
            }
            pairs.push((run[0].0, x));
        }
        Vector::from_pairs(rows, pairs)
    } else {
        let mut sum = vec![monoid.identity(); rows];
        let mut seen = vec![false; rows];
        let mut touched = Vec::new();
        for (&i, &x) in got_i.iter().zip(&got_v) {
            let i = i as usize;
            if seen[i] {
                sum[i] = monoid.combine(sum[i], x);
            } else {
                seen[i] = true;
                sum[i] = x;
                touched.push(i as Index);
            }
        }
        touched.sort_unstable();
        Vector::from_pairs(rows, touched.into_iter().map(|i| (i, sum[i as usize])))
    };
    crate::ops::assign(w, mask, accum, &z, desc);
}

/// `w (+)= u' (+).(x) A` on this rank's dense piece `w`, in place, returning the entries
/// of `w` that changed with their new values: [`crate::ops::vxm_accumulate`] over row
/// blocks (`a`, `u` and `w` as in [`vxm`]). The product is [`vxm`]'s (each column's
/// terms summed by its owner), then combined into `w` entry by entry; on one rank it is
/// the local [`crate::ops::vxm_accumulate`] itself (no product vector). The same `w`
/// and changed set as one process for an order-free monoid (MIN, MAX, LOR, LAND: the
/// relaxation of shortest paths). Collective.
///
/// # Panics
/// As [`vxm`], and when `w` is not dense.
pub fn vxm_accumulate<S, A, U>(
    net: &Net,
    part: &RowBlocks,
    w: &mut Vector<S::Output>,
    semiring: S,
    u: &Vector<U>,
    a: &Csr<A>,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    S::Output: Equivalence,
    A: Scalar,
    U: Scalar,
{
    if net.size() == 1 {
        return crate::ops::vxm_accumulate(w, semiring, u, a);
    }
    let rows = w.len();
    let mut t: Vector<S::Output> = Vector::new(rows);
    vxm(
        net,
        part,
        &mut t,
        None,
        None,
        semiring,
        u,
        a,
        &Descriptor::DEFAULT,
    );
    let Vector::Dense(d) = w else {
        panic!("vxm_accumulate: w must be dense (Vector::full)")
    };
    crate::backend::cpu::accumulate::combine_changed(semiring.add(), &t, d.as_mut_slice())
}

/// Rounds of [`vxm_accumulate`] until nothing changes, over row blocks:
/// [`crate::ops::vxm_accumulate_fixpoint`] (`a`, `u` and `w` as in [`vxm`]; `keep(j, x)`
/// sees `j` as an index into this rank's piece). Each round is one distributed
/// [`vxm_accumulate`], the next frontier its changes that `keep` admits, until the
/// frontier is empty on every rank or `max_rounds` rounds ran; on one rank it is the
/// local operation itself. The same `w`, changed set (this rank's piece of it) and
/// rounds as one process for an order-free monoid. Collective.
///
/// # Panics
/// As [`vxm_accumulate`].
#[allow(clippy::too_many_arguments)]
pub fn vxm_accumulate_fixpoint<S, A, Z>(
    net: &Net,
    part: &RowBlocks,
    w: &mut Vector<Z>,
    semiring: S,
    u: &Vector<Z>,
    a: &Csr<A>,
    keep: impl Fn(Index, Z) -> bool + Sync,
    max_rounds: usize,
) -> crate::ops::Fixpoint<Z>
where
    S: Semiring<A, Z, Output = Z>,
    Z: Scalar + Equivalence,
    A: Scalar,
{
    if net.size() == 1 {
        return crate::ops::vxm_accumulate_fixpoint(w, semiring, u, a, keep, max_rounds);
    }
    let rows = w.len();
    let live = |f: &Vector<Z>| net.allreduce_sum(&[f.nvals() as u64])[0];
    let mut f = u.clone();
    let mut left = live(&f);
    let mut changed: Vec<Index> = Vec::new();
    let mut rounds = 0;
    while left > 0 && rounds < max_rounds {
        rounds += 1;
        let c = vxm_accumulate(net, part, w, semiring, &f, a);
        let mut next = Vector::new(rows);
        crate::ops::select(&mut next, None, None, &keep, &c, &Descriptor::DEFAULT);
        changed.extend(c.to_pairs().into_iter().map(|(j, _)| j));
        f = next;
        left = live(&f);
    }
    changed.sort_unstable();
    changed.dedup();
    let Vector::Dense(d) = &*w else {
        panic!("vxm_accumulate_fixpoint: w must be dense (Vector::full)")
    };
    let vals = changed.iter().map(|&j| d.as_slice()[j as usize]).collect();
    crate::ops::Fixpoint {
        // SAFETY: sorted, deduplicated indices of the rank's piece.
        changed: Vector::Sparse(unsafe { SparseVector::new_unchecked(rows, changed, vals) }),
        rounds,
        converged: left == 0,
    }
}
