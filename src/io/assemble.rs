//! From parsed records to the adjacency: CSR assembly with duplicate counting, weights
//! combined by `min`, and the undirected closure `A ∪ A'`.

use rayon::prelude::*;

use super::text::Part;
use crate::algebra::Min;
use crate::matrix::{CooBuilder, Csr, Duplicates};

/// How records become arcs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Each record is the arc `src -> dst`.
    Directed,
    /// Each record is an undirected edge; duplicates are counted on `(src, dst)` as written.
    Undirected,
    /// Each record is an undirected edge; duplicates are counted on unordered pairs
    /// (Matrix Market symmetric).
    Symmetric,
}

/// The adjacency pattern, the weights (when `weighted`) and the number of duplicate
/// records, for an `n x n` graph whose records are `parts` (every index below `n`).
pub(crate) fn build(
    n: usize,
    mut parts: Vec<Part>,
    weighted: bool,
    shape: Shape,
) -> (Csr<()>, Option<Vec<f64>>, u64) {
    if shape == Shape::Symmetric {
        // One canonical orientation (lower triangle), so a pair given both ways counts once.
        parts.par_iter_mut().for_each(|p| {
            for (s, d) in p.src.iter_mut().zip(p.dst.iter_mut()) {
                if *s < *d {
                    std::mem::swap(s, d);
                }
            }
        });
    }
    let total: usize = parts.iter().map(|p| p.src.len()).sum();
    let (pattern, weights, dups) = if weighted {
        let mut b = CooBuilder::<f64>::with_capacity(n, n, total);
        for p in parts {
            b.extend_from_slices(&p.src, &p.dst, &p.w);
        }
        let m = b.build_combine(Min::new());
        let dups = (total - m.nnz()) as u64;
        let (pattern, w) = split_values(m);
        (pattern, Some(w), dups)
    } else {
        let mut b = CooBuilder::<()>::with_capacity(n, n, total);
        for p in parts {
            let unit = vec![(); p.src.len()];
            b.extend_from_slices(&p.src, &p.dst, &unit);
        }
        // KeepFirst never fails: only Duplicates::Error reports one.
        let (m, dups) = match b.build_counted(Duplicates::KeepFirst) {
            Ok(x) => x,
            Err(_) => unreachable!("KeepFirst does not fail on duplicates"),
        };
        (m, None, dups)
    };
    if shape == Shape::Directed {
        return (pattern, weights, dups);
    }
    let (pattern, weights) = symmetrize(&pattern, weights.as_deref());
    (pattern, weights, dups)
}

/// `A ∪ A'` with weights combined by `min`.
pub(crate) fn symmetrize(a: &Csr<()>, weights: Option<&[f64]>) -> (Csr<()>, Option<Vec<f64>>) {
    match weights {
        None => (a.symmetrize(|x, _| x), None),
        Some(w) => {
            let (pattern, w) = split_values(with_values(a, w).symmetrize(|x, y| x.min(y)));
            (pattern, Some(w))
        }
    }
}

/// The pattern and the values of a weighted matrix.
pub(crate) fn split_values(m: Csr<f64>) -> (Csr<()>, Vec<f64>) {
    let (nrows, ncols, offsets, indices, values) = m.into_parts();
    let unit = vec![(); indices.len()];
    // SAFETY: the structure comes from a valid Csr, unchanged; `()` values are one per index.
    let pattern = unsafe { Csr::new_unchecked(nrows, ncols, offsets, indices, unit) };
    (pattern, values)
}

/// The pattern `a` with values `w` (one per stored entry).
pub(crate) fn with_values(a: &Csr<()>, w: &[f64]) -> Csr<f64> {
    assert_eq!(w.len(), a.nnz(), "weights.len() != adjacency.nnz()");
    // SAFETY: the structure is `a`'s, a valid Csr; one value per index (asserted).
    unsafe {
        Csr::new_unchecked(
            a.nrows(),
            a.ncols(),
            a.offsets().to_vec(),
            a.indices().to_vec(),
            w.to_vec(),
        )
    }
}
