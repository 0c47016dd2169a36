//! `CooBuilder`: collects `(row, col, value)` triples in any order and assembles a `Csr`,
//! with the caller's choice of what duplicates mean.

use rayon::prelude::*;

use super::Csr;
use crate::algebra::{Index, Monoid, Scalar};
use crate::error::{Error, Result};

/// What to do when the same `(row, col)` is given more than once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duplicates {
    /// Keep the value given first (in push order).
    KeepFirst,
    /// Keep the value given last.
    KeepLast,
    /// Fail with [`Error::Duplicate`] naming the first duplicated entry.
    Error,
}

/// A coordinate-list builder for [`Csr`].
///
/// ```
/// use edgeblas::matrix::{CooBuilder, Duplicates};
/// use edgeblas::algebra::Plus;
/// let mut b = CooBuilder::new(3, 3);
/// b.push(2, 0, 1.0).unwrap();
/// b.push(0, 1, 2.0).unwrap();
/// b.push(2, 0, 4.0).unwrap();
/// let summed = b.clone().build_combine(Plus::new());
/// assert_eq!(summed.get(2, 0), Some(5.0));
/// assert!(b.build(Duplicates::Error).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct CooBuilder<T> {
    nrows: usize,
    ncols: usize,
    rows: Vec<Index>,
    cols: Vec<Index>,
    vals: Vec<T>,
}

impl<T: Scalar> CooBuilder<T> {
    /// An empty builder for an `nrows x ncols` matrix (each at most 2^32).
    pub fn new(nrows: usize, ncols: usize) -> Self {
        assert!(
            nrows <= 1 << 32 && ncols <= 1 << 32,
            "dimension exceeds 2^32"
        );
        CooBuilder {
            nrows,
            ncols,
            rows: Vec::new(),
            cols: Vec::new(),
            vals: Vec::new(),
        }
    }

    /// An empty builder with room for `cap` entries.
    pub fn with_capacity(nrows: usize, ncols: usize, cap: usize) -> Self {
        let mut b = Self::new(nrows, ncols);
        b.reserve(cap);
        b
    }

    /// Reserves room for `extra` more entries.
    pub fn reserve(&mut self, extra: usize) {
        self.rows.reserve(extra);
        self.cols.reserve(extra);
        self.vals.reserve(extra);
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// Number of triples pushed so far (duplicates included).
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no triple was pushed.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Adds the entry `(row, col) = value`.
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] when the entry lies outside the matrix.
    pub fn push(&mut self, row: usize, col: usize, value: T) -> Result<()> {
        if row >= self.nrows || col >= self.ncols {
            return Err(Error::OutOfBounds {
                row: row as u64,
                col: col as u64,
                nrows: self.nrows as u64,
                ncols: self.ncols as u64,
            });
        }
        self.rows.push(row as Index);
        self.cols.push(col as Index);
        self.vals.push(value);
        Ok(())
    }

    /// Appends parallel arrays of triples already known to be in bounds.
    ///
    /// # Panics
    /// If the arrays differ in length or an entry is out of bounds (a caller's contract).
    pub fn extend_from_slices(&mut self, rows: &[Index], cols: &[Index], vals: &[T]) {
        assert!(
            rows.len() == cols.len() && cols.len() == vals.len(),
            "slice lengths differ"
        );
        assert!(
            rows.iter().all(|&r| (r as usize) < self.nrows),
            "row index out of bounds"
        );
        assert!(
            cols.iter().all(|&c| (c as usize) < self.ncols),
            "column index out of bounds"
        );
        self.rows.extend_from_slice(rows);
        self.cols.extend_from_slice(cols);
        self.vals.extend_from_slice(vals);
    }

    /// Adds, for every entry `(i, j)` with `i != j`, the mirror entry `(j, i)` with the
    /// same value: the undirected closure (both arc directions). Needs a square builder.
    pub fn symmetrize(&mut self) {
        assert_eq!(self.nrows, self.ncols, "symmetrize needs a square matrix");
        let n = self.rows.len();
        self.reserve(n);
        for p in 0..n {
            let (r, c) = (self.rows[p], self.cols[p]);
            if r != c {
                self.rows.push(c);
                self.cols.push(r);
                self.vals.push(self.vals[p]);
            }
        }
    }

    /// Assembles the matrix, resolving duplicates by `policy`.
    ///
    /// # Errors
    /// [`Error::Duplicate`] under [`Duplicates::Error`] when an entry repeats.
    pub fn build(self, policy: Duplicates) -> Result<Csr<T>> {
        self.build_counted(policy).map(|(m, _)| m)
    }

    /// As [`CooBuilder::build`], also returning how many triples were duplicates (the
    /// number of triples minus the number of stored entries).
    pub fn build_counted(self, policy: Duplicates) -> Result<(Csr<T>, u64)> {
        let keep_last = policy == Duplicates::KeepLast;
        let (m, dups, first_dup) = self.assemble(|a, b| if keep_last { b } else { a });
        if policy == Duplicates::Error
            && let Some((row, col)) = first_dup
        {
            return Err(Error::Duplicate { row, col });
        }
        Ok((m, dups))
    }

    /// Assembles the matrix, combining duplicates with the monoid, in push order.
    pub fn build_combine<M: Monoid<T>>(self, monoid: M) -> Csr<T> {
        self.assemble(|a, b| monoid.combine(a, b)).0
    }

    /// Counting sort by row (stable, so push order survives within a row), a stable sort
    /// of each row by column in parallel, then a parallel compaction of duplicates.
    fn assemble(self, combine: impl Fn(T, T) -> T + Sync) -> (Csr<T>, u64, Option<(u64, u64)>) {
        let CooBuilder {
            nrows,
            ncols,
            rows,
            cols,
            vals,
        } = self;
        let nnz = rows.len();
        let mut offsets = vec![0u64; nrows + 1];
        for &r in &rows {
            offsets[r as usize + 1] += 1;
        }
        for i in 0..nrows {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut pairs: Vec<(Index, T)> = vec![(0, T::default()); nnz];
        for p in 0..nnz {
            let r = rows[p] as usize;
            let q = next[r] as usize;
            next[r] += 1;
            pairs[q] = (cols[p], vals[p]);
        }
        drop((rows, cols, vals, next));

        // Sort each row and combine runs in place; record each row's unique count.
        let mut uniq = vec![(0u64, None::<Index>); nrows];
        split_rows_mut(&mut pairs, &offsets)
            .into_par_iter()
            .zip(uniq.par_iter_mut())
            .for_each(|(row, (u, dup))| {
                if row.windows(2).any(|w| w[0].0 >= w[1].0) {
                    row.sort_by_key(|e| e.0);
                }
                let mut w = 0usize;
                for r in 0..row.len() {
                    if w > 0 && row[w - 1].0 == row[r].0 {
                        row[w - 1].1 = combine(row[w - 1].1, row[r].1);
                        dup.get_or_insert(row[r].0);
                    } else {
                        row[w] = row[r];
                        w += 1;
                    }
                }
                *u = w as u64;
            });

        let first_dup = uniq
            .iter()
            .enumerate()
            .find_map(|(i, &(_, d))| d.map(|c| (i as u64, c as u64)));

        let mut new_offsets = vec![0u64; nrows + 1];
        for i in 0..nrows {
            new_offsets[i + 1] = new_offsets[i] + uniq[i].0;
        }
        let total = new_offsets[nrows] as usize;
        let mut indices = vec![0 as Index; total];
        let mut values = vec![T::default(); total];
        {
            let idx_rows = split_rows_mut(&mut indices, &new_offsets);
            let val_rows = split_rows_mut(&mut values, &new_offsets);
            idx_rows
                .into_par_iter()
                .zip(val_rows)
                .enumerate()
                .for_each(|(i, (ri, rv))| {
                    let src = &pairs[offsets[i] as usize..offsets[i] as usize + ri.len()];
                    for (p, &(c, v)) in src.iter().enumerate() {
                        ri[p] = c;
                        rv[p] = v;
                    }
                });
        }
        let dups = (nnz - total) as u64;
        // SAFETY: rows were sorted and de-duplicated above, every column came through
        // `push` (bounds-checked) or `extend_from_slices` (asserted), and the offsets
        // are the prefix sum of the per-row counts, ending at `total`.
        let m = unsafe { Csr::new_unchecked(nrows, ncols, new_offsets, indices, values) };
        (m, dups, first_dup)
    }
}

/// Splits `data` into one mutable slice per row, following `offsets`.
pub(crate) fn split_rows_mut<'a, X>(mut data: &'a mut [X], offsets: &[u64]) -> Vec<&'a mut [X]> {
    let mut out = Vec::with_capacity(offsets.len().saturating_sub(1));
    for w in offsets.windows(2) {
        let (head, tail) = data.split_at_mut((w[1] - w[0]) as usize);
        out.push(head);
        data = tail;
    }
    out
}
