//! `Csr<T>`: compressed sparse rows with u64 offsets, u32 column indices, sorted rows.

use rayon::prelude::*;

use crate::algebra::{Index, Scalar};
use crate::error::{Error, Result};

/// A sparse matrix in compressed sparse row form: the adjacency matrix of a graph, with
/// `A(i, j)` the arc `i -> j`.
///
/// # Invariants
/// - `offsets.len() == nrows + 1`, `offsets[0] == 0`, offsets never decrease and
///   `offsets[nrows] == indices.len() == values.len()`;
/// - every column index is `< ncols`, and within a row they strictly increase (sorted,
///   no duplicates);
/// - `nrows` and `ncols` are at most `2^32` (indices are `u32`).
///
/// `T = ()` stores no values: a pattern-only graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Csr<T> {
    nrows: usize,
    ncols: usize,
    offsets: Vec<u64>,
    indices: Vec<Index>,
    values: Vec<T>,
}

const MAX_DIM: usize = 1 << 32;

impl<T: Scalar> Csr<T> {
    /// Builds a matrix from its arrays, checking every invariant.
    ///
    /// # Errors
    /// [`Error::InvalidStructure`] naming the first broken invariant.
    pub fn new_checked(
        nrows: usize,
        ncols: usize,
        offsets: Vec<u64>,
        indices: Vec<Index>,
        values: Vec<T>,
    ) -> Result<Self> {
        let bad = |m: String| Err(Error::InvalidStructure(m));
        if nrows > MAX_DIM || ncols > MAX_DIM {
            return bad(format!("{nrows} x {ncols} exceeds 2^32 rows or columns"));
        }
        if offsets.len() != nrows + 1 {
            return bad(format!(
                "offsets has {} entries, expected nrows + 1 = {}",
                offsets.len(),
                nrows + 1
            ));
        }
        if offsets[0] != 0 {
            return bad(format!("offsets[0] = {}, expected 0", offsets[0]));
        }
        if offsets[nrows] != indices.len() as u64 || indices.len() != values.len() {
            return bad(format!(
                "offsets end at {}, but there are {} indices and {} values",
                offsets[nrows],
                indices.len(),
                values.len()
            ));
        }
        if let Some(i) = (0..nrows).find(|&i| offsets[i] > offsets[i + 1]) {
            return bad(format!("offsets decrease at row {i}"));
        }
        let broken = (0..nrows).into_par_iter().find_first(|&i| {
            let row = &indices[offsets[i] as usize..offsets[i + 1] as usize];
            row.windows(2).any(|w| w[0] >= w[1]) || row.last().is_some_and(|&c| c as usize >= ncols)
        });
        if let Some(i) = broken {
            return bad(format!(
                "row {i} has column indices that are unsorted, repeated or >= ncols = {ncols}"
            ));
        }
        Ok(Csr {
            nrows,
            ncols,
            offsets,
            indices,
            values,
        })
    }

    /// Builds a matrix from its arrays without checking.
    ///
    /// # Safety
    /// The caller guarantees every invariant listed on [`Csr`]. Operations index the
    /// arrays through the offsets without bounds checks in places, so a broken
    /// invariant is undefined behaviour.
    pub unsafe fn new_unchecked(
        nrows: usize,
        ncols: usize,
        offsets: Vec<u64>,
        indices: Vec<Index>,
        values: Vec<T>,
    ) -> Self {
        debug_assert!(offsets.len() == nrows + 1);
        debug_assert!(indices.len() == values.len());
        Csr {
            nrows,
            ncols,
            offsets,
            indices,
            values,
        }
    }

    /// An `nrows x ncols` matrix with no entries.
    pub fn empty(nrows: usize, ncols: usize) -> Self {
        assert!(nrows <= MAX_DIM && ncols <= MAX_DIM, "dimension exceeds 2^32");
        Csr {
            nrows,
            ncols,
            offsets: vec![0; nrows + 1],
            indices: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Number of rows.
    #[inline]
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Number of columns.
    #[inline]
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// Number of stored entries (arcs).
    #[inline]
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// Row offsets, `nrows + 1` of them.
    #[inline]
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    /// Column indices of all rows, row after row.
    #[inline]
    pub fn indices(&self) -> &[Index] {
        &self.indices
    }

    /// Values, parallel to [`Csr::indices`].
    #[inline]
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// Number of entries in row `i` (the out-degree of vertex `i`).
    #[inline]
    pub fn degree(&self, i: usize) -> usize {
        (self.offsets[i + 1] - self.offsets[i]) as usize
    }

    /// The column indices and values of row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> (&[Index], &[T]) {
        let (s, e) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        (&self.indices[s..e], &self.values[s..e])
    }

    /// The value at `(i, j)`, if stored (binary search in row `i`).
    pub fn get(&self, i: usize, j: usize) -> Option<T> {
        let (cols, vals) = self.row(i);
        let j = Index::try_from(j).ok()?;
        cols.binary_search(&j).ok().map(|p| vals[p])
    }

    /// Iterates over all entries as `(row, col, value)` in row-major order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Index, T)> + '_ {
        (0..self.nrows).flat_map(move |i| {
            let (c, v) = self.row(i);
            c.iter().zip(v).map(move |(&j, &x)| (i, j, x))
        })
    }

    /// Takes the matrix apart: `(nrows, ncols, offsets, indices, values)`.
    pub fn into_parts(self) -> (usize, usize, Vec<u64>, Vec<Index>, Vec<T>) {
        (self.nrows, self.ncols, self.offsets, self.indices, self.values)
    }

    /// The same structure with every value mapped by `f`.
    pub fn map<Z: Scalar>(&self, f: impl Fn(T) -> Z + Sync) -> Csr<Z> {
        Csr {
            nrows: self.nrows,
            ncols: self.ncols,
            offsets: self.offsets.clone(),
            indices: self.indices.clone(),
            values: self.values.par_iter().map(|&x| f(x)).collect(),
        }
    }

    /// The structure alone, as a pattern matrix.
    pub fn pattern(&self) -> Csr<()> {
        Csr {
            nrows: self.nrows,
            ncols: self.ncols,
            offsets: self.offsets.clone(),
            indices: self.indices.clone(),
            values: vec![(); self.nnz()],
        }
    }

    /// The transpose `A'` (the in-edges of a graph), rows sorted.
    ///
    /// # Complexity
    /// O(nnz + nrows + ncols) time: a counting pass, a prefix sum and a scatter in row
    /// order, which leaves every output row sorted without a sort.
    pub fn transpose(&self) -> Csr<T> {
        let mut counts = vec![0u64; self.ncols + 1];
        for &j in &self.indices {
            counts[j as usize + 1] += 1;
        }
        for j in 0..self.ncols {
            counts[j + 1] += counts[j];
        }
        let offsets = counts.clone();
        let mut next = counts;
        let mut indices = vec![0 as Index; self.nnz()];
        let mut values = vec![T::default(); self.nnz()];
        for i in 0..self.nrows {
            let (s, e) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
            for p in s..e {
                let j = self.indices[p] as usize;
                let q = next[j] as usize;
                next[j] += 1;
                indices[q] = i as Index;
                values[q] = self.values[p];
            }
        }
        Csr {
            nrows: self.ncols,
            ncols: self.nrows,
            offsets,
            indices,
            values,
        }
    }

    /// Number of diagonal entries `A(i, i)` (self-loops).
    pub fn count_diagonal(&self) -> usize {
        (0..self.nrows)
            .into_par_iter()
            .filter(|&i| self.row(i).0.binary_search(&(i as Index)).is_ok())
            .count()
    }

    /// Converts to a `sprs` CSR matrix (offsets become `usize`).
    pub fn to_sprs(&self) -> sprs::CsMat<T> {
        let indptr: Vec<usize> = self.offsets.iter().map(|&o| o as usize).collect();
        let indices: Vec<usize> = self.indices.iter().map(|&j| j as usize).collect();
        sprs::CsMat::new(
            (self.nrows, self.ncols),
            indptr,
            indices,
            self.values.clone(),
        )
    }

    /// Converts from a `sprs` matrix (CSR or CSC; CSC is converted).
    ///
    /// # Errors
    /// [`Error::InvalidStructure`] when a dimension exceeds 2^32.
    pub fn from_sprs(m: &sprs::CsMat<T>) -> Result<Self> {
        let m = if m.is_csr() {
            m.view().to_owned()
        } else {
            m.to_csr()
        };
        let (nrows, ncols) = m.shape();
        let offsets: Vec<u64> = m.indptr().raw_storage().iter().map(|&o| o as u64).collect();
        let offsets = if offsets.first().copied().unwrap_or(0) != 0 {
            let base = offsets[0];
            offsets.iter().map(|o| o - base).collect()
        } else {
            offsets
        };
        let indices: Vec<Index> = m.indices().iter().map(|&j| j as Index).collect();
        Csr::new_checked(nrows, ncols, offsets, indices, m.data().to_vec())
    }
}
