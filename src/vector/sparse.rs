//! `SparseVector<T>`: strictly increasing indices with their values.

use super::DenseVector;
use crate::algebra::{Index, Scalar};
use crate::error::{Error, Result};

/// A sparse vector.
///
/// # Invariants
/// Indices strictly increase and are `< len`; `indices.len() == values.len()`.
#[derive(Clone, Debug, PartialEq)]
pub struct SparseVector<T> {
    len: usize,
    indices: Vec<Index>,
    values: Vec<T>,
}

impl<T: Scalar> SparseVector<T> {
    /// An empty vector of length `len`.
    pub fn new(len: usize) -> Self {
        SparseVector {
            len,
            indices: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Builds from sorted arrays, checking the invariants.
    ///
    /// # Errors
    /// [`Error::InvalidStructure`] if indices are unsorted, repeated or out of range, or
    /// the arrays differ in length.
    pub fn new_checked(len: usize, indices: Vec<Index>, values: Vec<T>) -> Result<Self> {
        if indices.len() != values.len() {
            return Err(Error::InvalidStructure(format!(
                "{} indices but {} values",
                indices.len(),
                values.len()
            )));
        }
        if indices.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Error::InvalidStructure(
                "indices not strictly increasing".into(),
            ));
        }
        if indices.last().is_some_and(|&i| i as usize >= len) {
            return Err(Error::InvalidStructure(format!(
                "index out of range for length {len}"
            )));
        }
        Ok(SparseVector {
            len,
            indices,
            values,
        })
    }

    /// Builds from sorted arrays without checking.
    ///
    /// # Safety
    /// The caller guarantees the invariants; operations rely on them for indexing.
    pub unsafe fn new_unchecked(len: usize, indices: Vec<Index>, values: Vec<T>) -> Self {
        debug_assert!(indices.len() == values.len());
        debug_assert!(indices.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(indices.last().is_none_or(|&i| (i as usize) < len));
        SparseVector {
            len,
            indices,
            values,
        }
    }

    /// From `(index, value)` pairs in any order; a repeated index keeps the last value.
    ///
    /// # Panics
    /// If an index is `>= len`.
    pub fn from_pairs(len: usize, pairs: impl IntoIterator<Item = (Index, T)>) -> Self {
        let mut p: Vec<(Index, T)> = pairs.into_iter().collect();
        assert!(
            p.iter().all(|&(i, _)| (i as usize) < len),
            "index out of range for length {len}"
        );
        p.sort_by_key(|e| e.0);
        let mut indices = Vec::with_capacity(p.len());
        let mut values: Vec<T> = Vec::with_capacity(p.len());
        for (i, v) in p {
            if indices.last() == Some(&i) {
                *values.last_mut().expect("parallel arrays") = v;
            } else {
                indices.push(i);
                values.push(v);
            }
        }
        SparseVector {
            len,
            indices,
            values,
        }
    }

    /// Length.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of present entries.
    pub fn nvals(&self) -> usize {
        self.indices.len()
    }

    /// The sorted indices.
    pub fn indices(&self) -> &[Index] {
        &self.indices
    }

    /// The values, parallel to the indices.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The entry at `i` (binary search).
    pub fn get(&self, i: usize) -> Option<T> {
        let i = Index::try_from(i).ok()?;
        self.indices.binary_search(&i).ok().map(|p| self.values[p])
    }

    /// Present entries in ascending index order.
    pub fn iter(&self) -> impl Iterator<Item = (Index, T)> + '_ {
        self.indices
            .iter()
            .copied()
            .zip(self.values.iter().copied())
    }

    /// Sets entry `i` to `x`, inserting it at its sorted place (O(nvals)).
    ///
    /// # Panics
    /// If `i >= len`.
    pub fn set(&mut self, i: usize, x: T) {
        assert!(
            i < self.len,
            "index {i} out of range for length {}",
            self.len
        );
        match self.indices.binary_search(&(i as Index)) {
            Ok(p) => self.values[p] = x,
            Err(p) => {
                self.indices.insert(p, i as Index);
                self.values.insert(p, x);
            }
        }
    }

    /// Removes entry `i`, if present (O(nvals)).
    pub fn remove(&mut self, i: usize) {
        if let Ok(p) = self.indices.binary_search(&(i as Index)) {
            self.indices.remove(p);
            self.values.remove(p);
        }
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.indices.clear();
        self.values.clear();
    }

    /// Takes the vector apart: `(len, indices, values)`.
    pub fn into_parts(self) -> (usize, Vec<Index>, Vec<T>) {
        (self.len, self.indices, self.values)
    }

    /// The dense form, `fill` at every absent index.
    pub fn to_dense(&self, fill: T) -> DenseVector<T> {
        let mut v = vec![fill; self.len];
        for (i, x) in self.iter() {
            v[i as usize] = x;
        }
        DenseVector::from_vec(v)
    }
}
