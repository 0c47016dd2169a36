//! `Csr<T>`: compressed sparse rows with u64 offsets, u32 column indices, sorted rows.

use std::sync::OnceLock;

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
///
/// A matrix remembers whether it is known to be symmetric (`A == A'`, values included):
/// the reader knows it of an undirected or Matrix Market symmetric file, `symmetrize`
/// of a pattern, and [`Csr::is_symmetric`] once it has checked. The products use it to
/// read `A'` as `A` (a pull over `A`'s rows in place of a push); it is never part of
/// the matrix's value (`==` ignores it).
#[derive(Clone, Debug)]
pub struct Csr<T> {
    nrows: usize,
    ncols: usize,
    offsets: Vec<u64>,
    indices: Vec<Index>,
    values: Vec<T>,
    symmetric: OnceLock<bool>,
}

impl<T: PartialEq> PartialEq for Csr<T> {
    fn eq(&self, other: &Self) -> bool {
        self.nrows == other.nrows
            && self.ncols == other.ncols
            && self.offsets == other.offsets
            && self.indices == other.indices
            && self.values == other.values
    }
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
            symmetric: OnceLock::new(),
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
            symmetric: OnceLock::new(),
        }
    }

    /// An `nrows x ncols` matrix with no entries.
    pub fn empty(nrows: usize, ncols: usize) -> Self {
        assert!(
            nrows <= MAX_DIM && ncols <= MAX_DIM,
            "dimension exceeds 2^32"
        );
        Csr {
            nrows,
            ncols,
            offsets: vec![0; nrows + 1],
            indices: Vec::new(),
            values: Vec::new(),
            symmetric: OnceLock::new(),
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

    /// Number of stored entries, GraphBLAS's name for [`Csr::nnz`] (as on vectors).
    pub fn nvals(&self) -> usize {
        self.nnz()
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

    /// The values, parallel to [`Csr::indices`], to change in place; the structure stays
    /// as it is. What the matrix remembers of its symmetry is forgotten (new values may
    /// break it), so the next [`Csr::is_symmetric`] checks again.
    ///
    /// ```
    /// use edgeblas::matrix::Csr;
    /// let mut a = Csr::new_checked(2, 2, vec![0, 1, 2], vec![1, 0], vec![1.0, 2.0]).unwrap();
    /// a.values_mut().iter_mut().for_each(|x| *x *= 10.0);
    /// assert_eq!(a.values(), &[10.0, 20.0]);
    /// ```
    pub fn values_mut(&mut self) -> &mut [T] {
        self.symmetric = OnceLock::new();
        &mut self.values
    }

    /// Sets the stored entry `A(i, j)` to `x` (`GrB_Matrix_setElement` on an entry that
    /// exists; the structure never changes, so an absent entry is an error rather than an
    /// insertion: build a new matrix, or [`crate::ops::assign_matrix`], to add entries).
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] when `(i, j)` is outside the matrix;
    /// [`Error::InvalidArgument`] when `A(i, j)` is not stored.
    ///
    /// ```
    /// use edgeblas::matrix::Csr;
    /// let mut a = Csr::new_checked(2, 2, vec![0, 1, 1], vec![1], vec![5u32]).unwrap();
    /// a.set(0, 1, 7).unwrap();
    /// assert_eq!(a.get(0, 1), Some(7));
    /// assert!(a.set(1, 0, 7).is_err()); // not stored
    /// assert!(a.set(2, 0, 7).is_err()); // out of bounds
    /// ```
    pub fn set(&mut self, i: usize, j: usize, x: T) -> Result<()> {
        if i >= self.nrows || j >= self.ncols {
            return Err(Error::OutOfBounds {
                row: i as u64,
                col: j as u64,
                nrows: self.nrows as u64,
                ncols: self.ncols as u64,
            });
        }
        let s = self.offsets[i] as usize;
        match self.row(i).0.binary_search(&(j as Index)) {
            Ok(p) => {
                self.values_mut()[s + p] = x;
                Ok(())
            }
            Err(_) => Err(Error::InvalidArgument(format!(
                "A({i}, {j}) is not a stored entry: set changes an existing entry and \
                 never the structure"
            ))),
        }
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
        (
            self.nrows,
            self.ncols,
            self.offsets,
            self.indices,
            self.values,
        )
    }

    /// The same structure with every value mapped by `f`.
    pub fn map<Z: Scalar>(&self, f: impl Fn(T) -> Z + Sync) -> Csr<Z> {
        Csr {
            nrows: self.nrows,
            ncols: self.ncols,
            offsets: self.offsets.clone(),
            indices: self.indices.clone(),
            values: self.values.par_iter().map(|&x| f(x)).collect(),
            symmetric: self.symmetric_if_known(),
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
            symmetric: self.symmetric_if_known(),
        }
    }

    /// The first `k` entries of each row (its `k` smallest columns), as a matrix of the
    /// same shape: the sample graph of Afforest and of LAGraph's FastSV7.
    ///
    /// # Complexity
    /// O(nrows + entries kept): a pass over the offsets, then the kept entries copied in
    /// parallel blocks of rows. The other entries are never read.
    pub fn first_entries(&self, k: usize) -> Csr<T> {
        const BLOCK: usize = 1 << 14;
        let n = self.nrows;
        let off = &self.offsets;
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u64);
        let mut total = 0u64;
        for w in off.windows(2) {
            total += (w[1] - w[0]).min(k as u64);
            offsets.push(total);
        }
        let mut indices = vec![0 as Index; total as usize];
        let mut values = vec![T::default(); total as usize];
        // One slice of the result per block of rows, filled in parallel.
        let mut blocks = Vec::with_capacity(n.div_ceil(BLOCK));
        let (mut cols_left, mut vals_left) = (indices.as_mut_slice(), values.as_mut_slice());
        for b in (0..n).step_by(BLOCK) {
            let len = (offsets[(b + BLOCK).min(n)] - offsets[b]) as usize;
            let (c, cr) = std::mem::take(&mut cols_left).split_at_mut(len);
            let (v, vr) = std::mem::take(&mut vals_left).split_at_mut(len);
            (cols_left, vals_left) = (cr, vr);
            blocks.push((b, c, v));
        }
        blocks.into_par_iter().for_each(|(b, cols, vals)| {
            let mut at = 0;
            for i in b..(b + BLOCK).min(n) {
                let lo = off[i] as usize;
                let len = (off[i + 1] as usize - lo).min(k);
                cols[at..at + len].copy_from_slice(&self.indices[lo..lo + len]);
                vals[at..at + len].copy_from_slice(&self.values[lo..lo + len]);
                at += len;
            }
        });
        Csr {
            nrows: n,
            ncols: self.ncols,
            offsets,
            indices,
            values,
            symmetric: OnceLock::new(),
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
            symmetric: self.symmetric.clone(),
        }
    }

    /// Number of diagonal entries `A(i, i)` (self-loops).
    pub fn count_diagonal(&self) -> usize {
        (0..self.nrows)
            .into_par_iter()
            .filter(|&i| self.row(i).0.binary_search(&(i as Index)).is_ok())
            .count()
    }

    /// The transpose, as [`Csr::transpose`] computes it, in parallel: entries are
    /// distributed by column bucket (at most 1024), each block of rows writing its own
    /// range of every bucket in row order, then every bucket is counting-sorted by column,
    /// stably, so each row of `A'` lists its columns in increasing order.
    fn transpose_parallel(&self) -> Csr<T> {
        let (nrows, ncols, nnz) = (self.nrows, self.ncols, self.nnz());
        if nnz < 1 << 16 || ncols == 0 || rayon::current_num_threads() == 1 {
            return self.transpose();
        }
        let bits = usize::BITS - (ncols - 1).leading_zeros();
        let shift = bits.saturating_sub(10);
        let nb = ((ncols - 1) >> shift) + 1;
        let blocks = balanced_row_blocks(&self.offsets, rayon::current_num_threads() * 4);
        let span = |r0: usize, r1: usize| self.offsets[r0] as usize..self.offsets[r1] as usize;
        let hist: Vec<Vec<usize>> = blocks
            .par_iter()
            .map(|&(r0, r1)| {
                let mut h = vec![0usize; nb];
                for &j in &self.indices[span(r0, r1)] {
                    h[j as usize >> shift] += 1;
                }
                h
            })
            .collect();
        let mut bounds = vec![0usize; nb + 1];
        for b in 0..nb {
            bounds[b + 1] = bounds[b] + hist.iter().map(|h| h[b]).sum::<usize>();
        }
        // (column, row, value) in bucket-major order, rows ascending within a bucket.
        let mut scratch: Vec<Triple<T>> = vec![(0, 0, T::default()); nnz];
        {
            let mut per_block: Vec<Vec<&mut [Triple<T>]>> =
                (0..blocks.len()).map(|_| Vec::with_capacity(nb)).collect();
            let mut rest = &mut scratch[..];
            for b in 0..nb {
                for (k, h) in hist.iter().enumerate() {
                    let (head, tail) = rest.split_at_mut(h[b]);
                    per_block[k].push(head);
                    rest = tail;
                }
            }
            blocks
                .par_iter()
                .zip(per_block)
                .for_each(|(&(r0, r1), mut out)| {
                    let mut fill = vec![0usize; nb];
                    for i in r0..r1 {
                        for p in span(i, i + 1) {
                            let j = self.indices[p];
                            let b = j as usize >> shift;
                            out[b][fill[b]] = (j, i as Index, self.values[p]);
                            fill[b] += 1;
                        }
                    }
                });
        }
        // Column counts, bucket by bucket, then their prefix sum: the offsets of A'.
        let mut offsets = vec![0u64; ncols + 1];
        {
            let mut rest = &scratch[..];
            let mut pieces = Vec::with_capacity(nb);
            for b in 0..nb {
                let (head, tail) = rest.split_at(bounds[b + 1] - bounds[b]);
                pieces.push(head);
                rest = tail;
            }
            offsets[1..]
                .par_chunks_mut(1 << shift)
                .zip(pieces)
                .enumerate()
                .for_each(|(b, (counts, piece))| {
                    for e in piece {
                        counts[e.0 as usize - (b << shift)] += 1;
                    }
                });
        }
        for j in 0..ncols {
            offsets[j + 1] += offsets[j];
        }
        let mut indices = vec![0 as Index; nnz];
        let mut values = vec![T::default(); nnz];
        {
            let mut pieces = Vec::with_capacity(nb);
            let (mut ri, mut rv, mut rs) = (&mut indices[..], &mut values[..], &scratch[..]);
            for b in 0..nb {
                let len = bounds[b + 1] - bounds[b];
                let (hi, ti) = ri.split_at_mut(len);
                let (hv, tv) = rv.split_at_mut(len);
                let (hs, ts) = rs.split_at(len);
                pieces.push((b, hi, hv, hs));
                (ri, rv, rs) = (ti, tv, ts);
            }
            pieces.into_par_iter().for_each(|(b, out_i, out_v, piece)| {
                let c0 = b << shift;
                let c1 = ((b + 1) << shift).min(ncols);
                let base = offsets[c0];
                let mut next: Vec<usize> = (c0..c1).map(|j| (offsets[j] - base) as usize).collect();
                for &(j, i, v) in piece {
                    let q = &mut next[j as usize - c0];
                    out_i[*q] = i;
                    out_v[*q] = v;
                    *q += 1;
                }
            });
        }
        // SAFETY: every entry (i, j, v) of A lands once in row j of the result (the
        // offsets are the column counts' prefix sum); a bucket keeps row order and the
        // scatter within it is stable, so each row's indices strictly increase; they are
        // row numbers of A, so below nrows = the result's ncols.
        unsafe { Csr::new_unchecked(ncols, nrows, offsets, indices, values) }
    }

    /// `A ∪ A'`: the undirected closure of a square matrix, every row sorted.
    ///
    /// An entry present both as `A(i, j)` and `A(j, i)` gets `combine(A(i, j), A(j, i))`;
    /// one present on one side only keeps its value; a diagonal entry `A(i, i)` is its
    /// own transpose and keeps its value as it is (it is not combined with itself).
    ///
    /// # Panics
    /// If the matrix is not square (`A.nrows() != A.ncols()`).
    ///
    /// # Complexity
    /// O(nnz + n): a transpose, then a merge of the sorted rows of `A` and `A'`, in
    /// parallel over blocks of rows with about the same number of entries.
    ///
    /// ```
    /// use edgeblas::matrix::{CooBuilder, Duplicates};
    /// let mut b = CooBuilder::new(3, 3);
    /// b.push(0, 1, 5.0).unwrap();
    /// b.push(1, 0, 2.0).unwrap();
    /// b.push(2, 1, 7.0).unwrap();
    /// b.push(2, 2, 1.0).unwrap();
    /// let s = b.build(Duplicates::Error).unwrap().symmetrize(f64::min);
    /// assert_eq!(s.get(0, 1), Some(2.0));
    /// assert_eq!(s.get(1, 2), Some(7.0));
    /// assert_eq!(s.get(2, 2), Some(1.0));
    /// assert_eq!(s.nnz(), 5);
    /// ```
    pub fn symmetrize(&self, combine: impl Fn(T, T) -> T + Sync) -> Csr<T> {
        assert_eq!(
            self.nrows, self.ncols,
            "symmetrize needs a square matrix: A.nrows() != A.ncols()"
        );
        let n = self.nrows;
        let t = self.transpose_parallel();
        let lens: Vec<u64> = (0..n)
            .into_par_iter()
            .map(|i| merged_len(self.row(i).0, t.row(i).0) as u64)
            .collect();
        let mut offsets = vec![0u64; n + 1];
        for i in 0..n {
            offsets[i + 1] = offsets[i] + lens[i];
        }
        drop(lens);
        let total = offsets[n] as usize;
        let mut indices = vec![0 as Index; total];
        let mut values = vec![T::default(); total];

        // Blocks of rows with about `total / blocks` entries each, written in parallel.
        let blocks = (rayon::current_num_threads() * 8).max(1);
        let mut bounds = vec![0usize];
        for k in 1..blocks {
            let target = (total as u64 * k as u64) / blocks as u64;
            let r = offsets.partition_point(|&o| o < target).min(n);
            if r > *bounds.last().unwrap_or(&0) {
                bounds.push(r);
            }
        }
        if *bounds.last().unwrap_or(&0) < n || bounds.len() == 1 {
            bounds.push(n);
        }
        let mut pieces = Vec::with_capacity(bounds.len());
        {
            let (mut rest_i, mut rest_v) = (&mut indices[..], &mut values[..]);
            for w in bounds.windows(2) {
                let len = (offsets[w[1]] - offsets[w[0]]) as usize;
                let (hi, ti) = rest_i.split_at_mut(len);
                let (hv, tv) = rest_v.split_at_mut(len);
                pieces.push((w[0], w[1], hi, hv));
                rest_i = ti;
                rest_v = tv;
            }
        }
        pieces.into_par_iter().for_each(|(r0, r1, out_i, out_v)| {
            let mut q = 0usize;
            for i in r0..r1 {
                let (ac, av) = self.row(i);
                let (bc, bv) = t.row(i);
                let (mut x, mut y) = (0usize, 0usize);
                while x < ac.len() || y < bc.len() {
                    let (c, v) = if y == bc.len() || (x < ac.len() && ac[x] < bc[y]) {
                        x += 1;
                        (ac[x - 1], av[x - 1])
                    } else if x == ac.len() || bc[y] < ac[x] {
                        y += 1;
                        (bc[y - 1], bv[y - 1])
                    } else {
                        x += 1;
                        y += 1;
                        let c = ac[x - 1];
                        let v = if c as usize == i {
                            av[x - 1]
                        } else {
                            combine(av[x - 1], bv[y - 1])
                        };
                        (c, v)
                    };
                    out_i[q] = c;
                    out_v[q] = v;
                    q += 1;
                }
            }
        });
        // SAFETY: each output row is the sorted merge (duplicates joined) of a sorted row
        // of A and one of A', whose columns are < n; the offsets are the prefix sum of
        // exactly those merged lengths, and every block wrote its rows' full range.
        let s = unsafe { Csr::new_unchecked(n, n, offsets, indices, values) };
        // The structure is symmetric; with no values (a pattern) so is the matrix.
        if std::mem::size_of::<T>() == 0 {
            s.assume_symmetric()
        } else {
            s
        }
    }

    /// Whether the matrix equals its transpose (structure and values): `A == A'`.
    ///
    /// The answer is remembered (a matrix never changes), and a symmetric matrix then
    /// lets [`ops::vxm`](crate::ops::vxm) pull over its rows instead of pushing (the
    /// same result, parallel by output). Free for a matrix known to be symmetric from
    /// where it came from: read from an undirected or Matrix Market symmetric file, or
    /// the pattern `symmetrize` made.
    ///
    /// # Complexity
    /// O(nnz + n) (a transpose and a comparison, in parallel) the first time, or about
    /// 4096 lookups when one of them finds an entry without its mirror (most directed
    /// graphs); O(1) after.
    pub fn is_symmetric(&self) -> bool {
        *self.symmetric.get_or_init(|| self.check_symmetric())
    }

    /// `A == A'`, checked: a sample of entries against their mirrors, then in full.
    fn check_symmetric(&self) -> bool {
        if self.nrows != self.ncols {
            return false;
        }
        let nnz = self.nnz();
        for p in (0..nnz).step_by((nnz / 4096).max(1)) {
            let i = self.offsets.partition_point(|&o| o <= p as u64) - 1;
            let j = self.indices[p] as usize;
            if self.get(j, i) != Some(self.values[p]) {
                return false;
            }
        }
        self.transpose_parallel() == *self
    }

    /// Whether the matrix is known to be symmetric without checking it (see
    /// [`Csr::is_symmetric`]).
    pub(crate) fn known_symmetric(&self) -> bool {
        self.symmetric.get() == Some(&true)
    }

    /// The matrix, recorded as symmetric: for builders that know it by construction.
    /// A wrong claim gives wrong products, not undefined behaviour; debug builds check
    /// small matrices.
    pub(crate) fn assume_symmetric(self) -> Self {
        debug_assert!(
            self.nnz() > 1 << 20 || (self.nrows == self.ncols && self.transpose() == self),
            "assume_symmetric on a matrix that is not symmetric"
        );
        let _ = self.symmetric.set(true);
        self
    }

    /// The flag for a matrix with the same structure and values mapped entry by entry:
    /// symmetric if this one is known to be; unknown otherwise (a map can make equal
    /// values of unequal ones).
    fn symmetric_if_known(&self) -> OnceLock<bool> {
        let flag = OnceLock::new();
        if self.known_symmetric() {
            let _ = flag.set(true);
        }
        flag
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

/// The length of the sorted union of two sorted, duplicate-free index lists.
fn merged_len(a: &[Index], b: &[Index]) -> usize {
    let (mut x, mut y, mut k) = (0usize, 0usize, 0usize);
    while x < a.len() && y < b.len() {
        match a[x].cmp(&b[y]) {
            std::cmp::Ordering::Less => x += 1,
            std::cmp::Ordering::Greater => y += 1,
            std::cmp::Ordering::Equal => {
                x += 1;
                y += 1;
            }
        }
        k += 1;
    }
    k + (a.len() - x) + (b.len() - y)
}

/// `(column, row, value)`: an entry on its way into the transpose.
type Triple<T> = (Index, Index, T);

/// At most `blocks` ranges of rows `[r0, r1)` covering all rows, with about the same
/// number of entries each.
fn balanced_row_blocks(offsets: &[u64], blocks: usize) -> Vec<(usize, usize)> {
    let n = offsets.len() - 1;
    let total = offsets[n];
    let blocks = blocks.max(1) as u64;
    let mut out = Vec::with_capacity(blocks as usize);
    let mut r0 = 0usize;
    for k in 1..=blocks {
        let r1 = if k == blocks {
            n
        } else {
            offsets.partition_point(|&o| o < total * k / blocks).min(n)
        };
        if r1 > r0 {
            out.push((r0, r1));
            r0 = r1;
        }
    }
    out
}

#[cfg(test)]
mod transpose_symmetrize_tests {
    use super::*;
    use crate::matrix::{CooBuilder, Duplicates};

    /// A seeded random `nrows x ncols` matrix with about `m` entries.
    fn random(nrows: usize, ncols: usize, m: usize, seed: u64) -> Csr<i64> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut b = CooBuilder::new(nrows, ncols);
        for _ in 0..m {
            // Skewed rows: some long, most short.
            let r = (next() as usize % nrows) >> (next() % 8);
            let v = (next() % 100) as i64;
            b.push(r, next() as usize % ncols, v).unwrap();
        }
        b.build(Duplicates::KeepFirst).unwrap()
    }

    #[test]
    fn parallel_transpose_equals_transpose() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        pool.install(|| {
            for (nrows, ncols, m, seed) in [
                (1000, 3000, 200_000, 1),
                (5000, 700, 150_000, 2),
                (3, 100_000, 150_000, 3),
                (200_000, 200_000, 300_000, 4),
            ] {
                let a = random(nrows, ncols, m, seed);
                assert!(
                    a.nnz() >= 1 << 16,
                    "case {seed}: {} entries, too few",
                    a.nnz()
                );
                assert_eq!(a.transpose_parallel(), a.transpose(), "case {seed}");
            }
        });
    }

    /// Whether `a` equals its transpose, by a fresh check that no flag can answer.
    fn really_symmetric<T: Scalar>(a: &Csr<T>) -> bool {
        a.nrows == a.ncols && a.transpose() == *a
    }

    #[test]
    fn the_symmetry_flag_is_only_ever_true_of_symmetric_matrices() {
        for seed in 1..40 {
            let n = 1 + seed as usize % 9;
            let a = random(n, n, 2 * n, seed);
            // Symmetric structure, values that differ on the two sides.
            let s = a.symmetrize(|x, y| x - y);
            let p = a.pattern().symmetrize(|x, _| x);
            assert!(!s.known_symmetric() && p.known_symmetric(), "case {seed}");
            assert!(really_symmetric(&p) && p == s.pattern(), "case {seed}");
            assert_eq!(s.is_symmetric(), really_symmetric(&s), "case {seed}");
            // The answer is remembered, and equality ignores it.
            assert_eq!(s.known_symmetric(), really_symmetric(&s), "case {seed}");
            assert_eq!(s, s.map(|x| x), "case {seed}");
            // A map keeps a known symmetry; a checked asymmetry it forgets, since a map
            // can make the two sides equal.
            let zero = s.map(|_| 0i64);
            assert!(
                !zero.known_symmetric() || s.known_symmetric(),
                "case {seed}"
            );
            assert!(zero.is_symmetric(), "case {seed}");
            assert_eq!(
                a.transpose().is_symmetric(),
                really_symmetric(&a),
                "case {seed}"
            );
            let m = a.symmetrize(i64::min);
            assert!(
                m.is_symmetric() && m.transpose().known_symmetric(),
                "case {seed}"
            );
        }
        assert!(!random(3, 4, 5, 1).is_symmetric(), "a rectangle");
    }

    #[test]
    fn one_missing_mirror_or_one_unequal_value_among_many_is_found() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| {
            let s = random(2000, 2000, 200_000, 9).symmetrize(|x, y| x.min(y));
            assert!(s.nnz() > 20 * 4096 && s.is_symmetric());
            // Drop one entry off the diagonal: its mirror is left alone.
            for p in [0, s.nnz() / 3, s.nnz() - 1] {
                let (nrows, ncols, offsets, indices, mut values) = s.clone().into_parts();
                let i = offsets.partition_point(|&o| o <= p as u64) - 1;
                if indices[p] as usize == i {
                    continue;
                }
                let mut b = CooBuilder::new(nrows, ncols);
                for (r, (c, v)) in (0..nrows)
                    .flat_map(|r| (offsets[r]..offsets[r + 1]).map(move |_| r))
                    .zip(indices.iter().zip(&values))
                    .enumerate()
                    .filter(|&(q, _)| q != p)
                    .map(|(_, x)| x)
                {
                    b.push(r, *c as usize, *v).unwrap();
                }
                let missing = b.build(Duplicates::Error).unwrap();
                assert!(!missing.is_symmetric(), "entry {p} dropped");
                // Change one value instead.
                values[p] += 1;
                let unequal = Csr::new_checked(nrows, ncols, offsets, indices, values).unwrap();
                assert!(!unequal.is_symmetric(), "entry {p} changed");
            }
        });
    }

    #[test]
    fn symmetrize_is_union_with_transpose() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        pool.install(|| {
            for (n, m, seed) in [(300, 100_000, 5), (50_000, 200_000, 6), (7, 30, 7)] {
                let a = random(n, n, m, seed);
                let s = a.symmetrize(|x, y| x.min(y));
                assert!(s.is_symmetric());
                let t = a.transpose();
                for i in 0..n {
                    for j in 0..n.min(40) {
                        let want = match (a.get(i, j), t.get(i, j)) {
                            (Some(x), Some(_)) if i == j => Some(x),
                            (Some(x), Some(y)) => Some(x.min(y)),
                            (x, y) => x.or(y),
                        };
                        assert_eq!(s.get(i, j), want, "({i}, {j}) case {seed}");
                    }
                }
                assert_eq!(s.nnz(), {
                    let mut u = CooBuilder::new(n, n);
                    for (i, j, v) in a.iter().chain(t.iter()) {
                        u.push(i, j as usize, v).unwrap();
                    }
                    u.build(Duplicates::KeepFirst).unwrap().nnz()
                });
            }
        });
    }
}
