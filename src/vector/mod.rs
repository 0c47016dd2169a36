//! Vectors in three forms: [`SparseVector`] (sorted indices + values: the push frontier),
//! [`BitmapVector`] (presence bits + values: the pull frontier) and [`DenseVector`]
//! (every entry present), and the [`Vector`] enum that holds any of them.

mod bitmap;
mod dense;
mod sparse;

pub(crate) use bitmap::BitIter;
pub use bitmap::BitmapVector;

/// The set bit positions of one word, lowest first.
pub(crate) fn bit_positions(w: u64) -> BitIter {
    BitIter(w)
}
pub use dense::DenseVector;
pub use sparse::SparseVector;

use crate::algebra::{Index, Scalar};

/// A vector of length `len` in one of three storage forms. Operations accept any form
/// and choose the form of their output; conversions are explicit and cheap to reason
/// about (sparse <-> bitmap is the pivot of direction-optimizing BFS).
#[derive(Clone, Debug)]
pub enum Vector<T> {
    /// Sorted indices and their values.
    Sparse(SparseVector<T>),
    /// One presence bit per index, and a value slot per index.
    Bitmap(BitmapVector<T>),
    /// A value for every index.
    Dense(DenseVector<T>),
}

impl<T: Scalar> Vector<T> {
    /// An empty (all-absent) sparse vector of length `len`.
    pub fn new(len: usize) -> Self {
        Vector::Sparse(SparseVector::new(len))
    }

    /// A dense vector with `value` at every index.
    pub fn full(len: usize, value: T) -> Self {
        Vector::Dense(DenseVector::from_vec(vec![value; len]))
    }

    /// A sparse vector from `(index, value)` pairs in any order; a repeated index keeps
    /// the last value.
    ///
    /// # Panics
    /// If an index is `>= len`.
    pub fn from_pairs(len: usize, pairs: impl IntoIterator<Item = (Index, T)>) -> Self {
        Vector::Sparse(SparseVector::from_pairs(len, pairs))
    }

    /// A dense vector holding `values` (every index present): GrB_Vector_build of a
    /// full array.
    pub fn from_dense(values: Vec<T>) -> Self {
        Vector::Dense(DenseVector::from_vec(values))
    }

    /// Sets `w(i) = x` (GrB_Vector_setElement). A sparse vector inserts in place (a
    /// shift, O(nvals)); a bitmap or dense vector writes the slot.
    ///
    /// # Panics
    /// If `i >= len`.
    pub fn set(&mut self, i: usize, x: T) {
        assert!(
            i < self.len(),
            "index {i} out of range for length {}",
            self.len()
        );
        match self {
            Vector::Sparse(v) => v.set(i, x),
            Vector::Bitmap(b) => b.set(i, x),
            Vector::Dense(d) => d.as_mut_slice()[i] = x,
        }
    }

    /// Removes the entry at `i`, if present (GrB_Vector_removeElement). A dense vector
    /// becomes a bitmap.
    ///
    /// # Panics
    /// If `i >= len`.
    pub fn remove(&mut self, i: usize) {
        assert!(
            i < self.len(),
            "index {i} out of range for length {}",
            self.len()
        );
        match self {
            Vector::Sparse(v) => v.remove(i),
            Vector::Bitmap(b) => b.remove(i),
            Vector::Dense(_) => {
                self.make_bitmap();
                if let Vector::Bitmap(b) = self {
                    b.remove(i);
                }
            }
        }
    }

    /// Length (the number of indices, present or not).
    pub fn len(&self) -> usize {
        match self {
            Vector::Sparse(v) => v.len(),
            Vector::Bitmap(v) => v.len(),
            Vector::Dense(v) => v.len(),
        }
    }

    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of present entries.
    pub fn nvals(&self) -> usize {
        match self {
            Vector::Sparse(v) => v.nvals(),
            Vector::Bitmap(v) => v.nvals(),
            Vector::Dense(v) => v.len(),
        }
    }

    /// The entry at `i`, if present.
    pub fn get(&self, i: usize) -> Option<T> {
        match self {
            Vector::Sparse(v) => v.get(i),
            Vector::Bitmap(v) => v.get(i),
            Vector::Dense(v) => v.as_slice().get(i).copied(),
        }
    }

    /// Present entries as `(index, value)` in ascending index order.
    pub fn to_pairs(&self) -> Vec<(Index, T)> {
        match self {
            Vector::Sparse(v) => v.iter().collect(),
            Vector::Bitmap(v) => v.iter().collect(),
            Vector::Dense(v) => v.iter().collect(),
        }
    }

    /// Converts to the sparse form (no-op when already sparse).
    pub fn into_sparse(self) -> SparseVector<T> {
        match self {
            Vector::Sparse(v) => v,
            Vector::Bitmap(v) => v.to_sparse(),
            Vector::Dense(v) => v.to_sparse(),
        }
    }

    /// Converts to the bitmap form (no-op when already a bitmap).
    pub fn into_bitmap(self) -> BitmapVector<T> {
        match self {
            Vector::Sparse(v) => BitmapVector::from_sparse(&v),
            Vector::Bitmap(v) => v,
            Vector::Dense(v) => BitmapVector::from_dense(&v),
        }
    }

    /// Converts to the dense form, `fill` standing for every absent entry.
    pub fn into_dense(self, fill: T) -> DenseVector<T> {
        match self {
            Vector::Sparse(v) => v.to_dense(fill),
            Vector::Bitmap(v) => v.to_dense(fill),
            Vector::Dense(v) => v,
        }
    }

    /// Makes this vector sparse in place.
    pub fn make_sparse(&mut self) {
        if !matches!(self, Vector::Sparse(_)) {
            let v = std::mem::replace(self, Vector::new(0));
            *self = Vector::Sparse(v.into_sparse());
        }
    }

    /// Makes this vector a bitmap in place.
    pub fn make_bitmap(&mut self) {
        if !matches!(self, Vector::Bitmap(_)) {
            let v = std::mem::replace(self, Vector::new(0));
            *self = Vector::Bitmap(v.into_bitmap());
        }
    }

    /// Removes every entry, keeping the length (and the storage form where it can).
    pub fn clear(&mut self) {
        match self {
            Vector::Sparse(v) => v.clear(),
            Vector::Bitmap(v) => v.clear(),
            Vector::Dense(v) => *self = Vector::new(v.len()),
        }
    }

    /// The form's name: `"sparse"`, `"bitmap"` or `"dense"`.
    pub fn format_name(&self) -> &'static str {
        match self {
            Vector::Sparse(_) => "sparse",
            Vector::Bitmap(_) => "bitmap",
            Vector::Dense(_) => "dense",
        }
    }
}

impl<T: Scalar> PartialEq for Vector<T> {
    /// Equal when the lengths and the present entries agree, whatever the forms.
    fn eq(&self, other: &Self) -> bool {
        if let (Vector::Dense(a), Vector::Dense(b)) = (self, other) {
            return a.as_slice() == b.as_slice();
        }
        self.len() == other.len() && self.to_pairs() == other.to_pairs()
    }
}

impl<T> From<SparseVector<T>> for Vector<T> {
    fn from(v: SparseVector<T>) -> Self {
        Vector::Sparse(v)
    }
}

impl<T> From<BitmapVector<T>> for Vector<T> {
    fn from(v: BitmapVector<T>) -> Self {
        Vector::Bitmap(v)
    }
}

impl<T> From<DenseVector<T>> for Vector<T> {
    fn from(v: DenseVector<T>) -> Self {
        Vector::Dense(v)
    }
}
