//! The algebra over row blocks: a vector is cut as the rows are ([`RowBlocks`]: each
//! rank holds the entries of the vertices it owns), and a matrix by rows (each rank
//! holds its rows, with the global column numbering).
//!
//! ```text
//! w<m> = w (.) (A (+).(x) u)    mxv: u gathered whole on every rank (the frontier
//!                               exchange of the distributed BFS), then each rank's rows
//!                               by the CPU kernels (rayon), any semiring
//! ```
//!
//! Each output entry is one row's sum, computed by one rank in the CPU's order, so `mxv`
//! gives every entry exactly as [`crate::ops::mxv`] on one process does.

use mpi::datatype::Equivalence;

use super::net::Net;
use super::partition::{Partition, RowBlocks};
use crate::algebra::{Index, Scalar, Semiring};
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
