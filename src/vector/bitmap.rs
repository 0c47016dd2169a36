//! `BitmapVector<T>`: one presence bit per index plus a value slot per index.

use rayon::prelude::*;

use super::{DenseVector, SparseVector};
use crate::algebra::{Index, Scalar};

/// Words of 64 presence bits needed for `len` indices.
#[inline]
pub(crate) fn words_for(len: usize) -> usize {
    len.div_ceil(64)
}

/// A bitmap vector.
///
/// # Invariants
/// `bits.len() == ceil(len / 64)`, no bit at or past `len` is set, `values.len() == len`,
/// and `nvals` is the number of set bits. The value slot of an absent index holds
/// `T::default()` or a stale value; it is never read as an entry.
#[derive(Clone, Debug)]
pub struct BitmapVector<T> {
    len: usize,
    bits: Vec<u64>,
    values: Vec<T>,
    nvals: usize,
}

impl<T: Scalar> BitmapVector<T> {
    /// An empty vector of length `len`.
    pub fn new(len: usize) -> Self {
        assert!(len <= 1 << 32, "length exceeds 2^32");
        BitmapVector {
            len,
            bits: vec![0; words_for(len)],
            values: vec![T::default(); len],
            nvals: 0,
        }
    }

    /// Builds from presence words and value slots, recounting `nvals`.
    ///
    /// # Panics
    /// If the sizes disagree or a bit past `len` is set (a caller's contract).
    pub fn from_parts(len: usize, bits: Vec<u64>, values: Vec<T>) -> Self {
        assert_eq!(bits.len(), words_for(len), "bits.len() != ceil(len / 64)");
        assert_eq!(values.len(), len, "values.len() != len");
        if !len.is_multiple_of(64) {
            assert_eq!(
                bits.last().copied().unwrap_or(0) >> (len % 64),
                0,
                "bit set past len"
            );
        }
        let nvals = bits.par_iter().map(|w| w.count_ones() as usize).sum();
        BitmapVector {
            len,
            bits,
            values,
            nvals,
        }
    }

    /// From a sparse vector.
    pub fn from_sparse(v: &SparseVector<T>) -> Self {
        let mut b = Self::new(v.len());
        for (i, x) in v.iter() {
            b.bits[i as usize >> 6] |= 1 << (i & 63);
            b.values[i as usize] = x;
        }
        b.nvals = v.nvals();
        b
    }

    /// From a dense vector (every bit set).
    pub fn from_dense(v: &DenseVector<T>) -> Self {
        let len = v.len();
        let mut bits = vec![u64::MAX; words_for(len)];
        if !len.is_multiple_of(64) {
            *bits.last_mut().expect("len > 0") = (1u64 << (len % 64)) - 1;
        }
        BitmapVector {
            len,
            bits,
            values: v.as_slice().to_vec(),
            nvals: len,
        }
    }

    /// Length.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of present entries.
    #[inline]
    pub fn nvals(&self) -> usize {
        self.nvals
    }

    /// Whether index `i` is present.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        i < self.len && (self.bits[i >> 6] >> (i & 63)) & 1 == 1
    }

    /// The entry at `i`, if present.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        self.contains(i).then(|| self.values[i])
    }

    /// Sets entry `i` to `x` (present afterwards).
    ///
    /// # Panics
    /// If `i >= len`.
    #[inline]
    pub fn set(&mut self, i: usize, x: T) {
        assert!(
            i < self.len,
            "index {i} out of range for length {}",
            self.len
        );
        let w = &mut self.bits[i >> 6];
        let m = 1u64 << (i & 63);
        self.nvals += (*w & m == 0) as usize;
        *w |= m;
        self.values[i] = x;
    }

    /// Removes entry `i` (absent afterwards).
    #[inline]
    pub fn remove(&mut self, i: usize) {
        if i < self.len {
            let w = &mut self.bits[i >> 6];
            let m = 1u64 << (i & 63);
            self.nvals -= (*w & m != 0) as usize;
            *w &= !m;
        }
    }

    /// The presence words (bit `i % 64` of word `i / 64`).
    #[inline]
    pub fn bits(&self) -> &[u64] {
        &self.bits
    }

    /// The value slots (meaningful only where the bit is set).
    #[inline]
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// Presence words and value slots for in-place updates; call
    /// [`BitmapVector::recount`] afterwards if bits changed.
    pub fn parts_mut(&mut self) -> (&mut [u64], &mut [T]) {
        (&mut self.bits, &mut self.values)
    }

    /// Recomputes `nvals` from the bits.
    pub fn recount(&mut self) {
        self.nvals = self.bits.par_iter().map(|w| w.count_ones() as usize).sum();
    }

    /// Sets `nvals` to a count the caller computed while updating through `parts_mut`.
    ///
    /// # Panics
    /// In debug builds, if the count is wrong.
    pub fn set_nvals(&mut self, nvals: usize) {
        debug_assert_eq!(
            nvals,
            self.bits
                .iter()
                .map(|w| w.count_ones() as usize)
                .sum::<usize>()
        );
        self.nvals = nvals;
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.bits.iter_mut().for_each(|w| *w = 0);
        self.nvals = 0;
    }

    /// Present entries in ascending index order.
    pub fn iter(&self) -> impl Iterator<Item = (Index, T)> + '_ {
        self.bits.iter().enumerate().flat_map(move |(wi, &w)| {
            BitIter(w).map(move |b| {
                let i = (wi << 6) | b as usize;
                (i as Index, self.values[i])
            })
        })
    }

    /// Sorted indices of the present entries (parallel over blocks of words).
    pub fn indices(&self) -> Vec<Index> {
        const BLOCK: usize = 4096;
        if self.bits.len() <= BLOCK {
            return self.iter().map(|e| e.0).collect();
        }
        let parts: Vec<Vec<Index>> = self
            .bits
            .par_chunks(BLOCK)
            .enumerate()
            .map(|(c, words)| {
                let mut out = Vec::new();
                for (k, &w) in words.iter().enumerate() {
                    let base = ((c * BLOCK + k) << 6) as Index;
                    out.extend(BitIter(w).map(|b| base | b));
                }
                out
            })
            .collect();
        parts.concat()
    }

    /// The sparse form.
    pub fn to_sparse(&self) -> SparseVector<T> {
        let indices = self.indices();
        let values = indices.iter().map(|&i| self.values[i as usize]).collect();
        // SAFETY: indices come from set bits in ascending order, all below len.
        unsafe { SparseVector::new_unchecked(self.len, indices, values) }
    }

    /// The presence words and the value slots (absent slots hold stale values).
    pub fn into_parts(self) -> (Vec<u64>, Vec<T>) {
        (self.bits, self.values)
    }

    /// The dense form, `fill` at every absent index.
    pub fn to_dense(&self, fill: T) -> DenseVector<T> {
        let v = (0..self.len)
            .map(|i| {
                if self.contains(i) {
                    self.values[i]
                } else {
                    fill
                }
            })
            .collect();
        DenseVector::from_vec(v)
    }
}

/// Iterates over the set bit positions of one word, lowest first.
#[derive(Clone, Copy)]
pub(crate) struct BitIter(pub u64);

impl Iterator for BitIter {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}
