//! `DenseVector<T>`: a value at every index.

use super::SparseVector;
use crate::algebra::{Index, Scalar};

/// A dense (full) vector: every index holds a value.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseVector<T> {
    values: Vec<T>,
}

impl<T: Scalar> DenseVector<T> {
    /// Wraps a `Vec`.
    pub fn from_vec(values: Vec<T>) -> Self {
        assert!(values.len() <= 1 << 32, "length exceeds 2^32");
        DenseVector { values }
    }

    /// Length (= number of entries).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The values.
    pub fn as_slice(&self) -> &[T] {
        &self.values
    }

    /// The values, mutable.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.values
    }

    /// Unwraps the `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        self.values
    }

    /// All entries in index order.
    pub fn iter(&self) -> impl Iterator<Item = (Index, T)> + '_ {
        self.values
            .iter()
            .enumerate()
            .map(|(i, &x)| (i as Index, x))
    }

    /// The sparse form (every entry present).
    pub fn to_sparse(&self) -> SparseVector<T> {
        let indices = (0..self.len() as u64).map(|i| i as Index).collect();
        // SAFETY: 0..len is strictly increasing and in range; one value per index.
        unsafe { SparseVector::new_unchecked(self.len(), indices, self.values.clone()) }
    }
}
