//! Masks (structural or valued, optionally complemented) and descriptors (replace,
//! transpose): how an operation says where it may write and what it does elsewhere.

use std::borrow::Cow;

use crate::algebra::{Index, Scalar, Truthy};
use crate::matrix::Csr;
use crate::vector::Vector;

/// Where an operation may write: the entries of a vector (its structure, or the entries
/// whose value is true), optionally complemented.
///
/// `w<m> = t` writes `t(i)` where `m` allows `i`; elsewhere `w(i)` is kept, or deleted
/// under [`Descriptor::replace`]. BFS says "not yet visited" with
/// `Mask::structure(&visited).complement()`.
#[derive(Clone, Debug)]
pub struct Mask<'a> {
    len: usize,
    set: MaskSet<'a>,
    complement: bool,
}

/// The set of indices a mask names, before complementing.
#[derive(Clone, Debug)]
pub(crate) enum MaskSet<'a> {
    /// Every index (a dense mask vector, structural).
    All,
    /// Presence words, bit `i % 64` of word `i / 64`.
    Bits(Cow<'a, [u64]>),
    /// Strictly increasing indices.
    Sorted(Cow<'a, [Index]>),
}

impl<'a> Mask<'a> {
    /// The structure of `v`: every present entry, whatever its value. Borrows `v`.
    pub fn structure<T: Scalar>(v: &'a Vector<T>) -> Self {
        let set = match v {
            // A sparse or bitmap vector holding every index is as full as a dense one.
            _ if v.nvals() == v.len() => MaskSet::All,
            Vector::Sparse(s) => MaskSet::Sorted(Cow::Borrowed(s.indices())),
            Vector::Bitmap(b) => MaskSet::Bits(Cow::Borrowed(b.bits())),
            Vector::Dense(_) => MaskSet::All,
        };
        Mask {
            len: v.len(),
            set,
            complement: false,
        }
    }

    /// The present entries of `v` whose value is true (non-zero).
    pub fn values<T: Scalar + Truthy>(v: &Vector<T>) -> Mask<'static> {
        let set = match v {
            Vector::Sparse(s) => MaskSet::Sorted(Cow::Owned(
                s.iter().filter(|e| e.1.truthy()).map(|e| e.0).collect(),
            )),
            Vector::Bitmap(b) => {
                let mut bits = b.bits().to_vec();
                for (i, x) in b.iter() {
                    if !x.truthy() {
                        bits[i as usize >> 6] &= !(1 << (i & 63));
                    }
                }
                MaskSet::Bits(Cow::Owned(bits))
            }
            Vector::Dense(d) => {
                let mut bits = vec![0u64; d.len().div_ceil(64)];
                for (i, x) in d.iter() {
                    if x.truthy() {
                        bits[i as usize >> 6] |= 1 << (i & 63);
                    }
                }
                MaskSet::Bits(Cow::Owned(bits))
            }
        };
        Mask {
            len: v.len(),
            set,
            complement: false,
        }
    }

    /// The complement: allows exactly the indices this mask does not.
    pub fn complement(mut self) -> Self {
        self.complement = !self.complement;
        self
    }

    /// Whether the mask is complemented.
    pub fn is_complemented(&self) -> bool {
        self.complement
    }

    /// The length of the vector the mask came from.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the length is zero.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether an operation may write index `i`.
    #[inline]
    pub fn allows(&self, i: usize) -> bool {
        let inside = match &self.set {
            MaskSet::All => true,
            MaskSet::Bits(b) => (b[i >> 6] >> (i & 63)) & 1 == 1,
            MaskSet::Sorted(s) => s.binary_search(&(i as Index)).is_ok(),
        };
        inside != self.complement
    }

    pub(crate) fn set(&self) -> &MaskSet<'a> {
        &self.set
    }

    /// Whether the mask allows no index, as far as its form tells at no cost: the
    /// complement of a full set, or an empty list.
    pub(crate) fn allows_none(&self) -> bool {
        self.len == 0
            || match &self.set {
                MaskSet::All => self.complement,
                MaskSet::Sorted(s) => s.is_empty() && !self.complement,
                MaskSet::Bits(_) => false,
            }
    }

    /// The mask as presence words after complementing (for word-at-a-time scans).
    /// Borrows when the mask already is bits and not complemented.
    pub(crate) fn allowed_words(&self) -> Cow<'_, [u64]> {
        let nw = self.len.div_ceil(64);
        let mut words: Vec<u64> = match &self.set {
            MaskSet::All => vec![u64::MAX; nw],
            MaskSet::Bits(b) if !self.complement => return Cow::Borrowed(b),
            MaskSet::Bits(b) => b.to_vec(),
            MaskSet::Sorted(s) => {
                let mut w = vec![0u64; nw];
                for &i in s.iter() {
                    w[i as usize >> 6] |= 1 << (i & 63);
                }
                w
            }
        };
        if self.complement {
            words.iter_mut().for_each(|w| *w = !*w);
        }
        if !self.len.is_multiple_of(64)
            && let Some(last) = words.last_mut()
        {
            *last &= (1u64 << (self.len % 64)) - 1;
        }
        Cow::Owned(words)
    }
}

/// Modifiers of an operation, an immutable value. `Descriptor::default()` merges into
/// the output outside the mask and uses the matrix as given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Descriptor {
    /// Delete output entries the mask does not allow (GrB_REPLACE).
    pub replace: bool,
    /// Use the transpose of the matrix operand: `mxv` then pushes over `A`'s rows and
    /// `vxm` pulls over them.
    pub transpose: bool,
}

impl Descriptor {
    /// Merge outside the mask, matrix as given.
    pub const DEFAULT: Descriptor = Descriptor {
        replace: false,
        transpose: false,
    };

    /// This descriptor with replace set.
    pub const fn with_replace(self) -> Self {
        Descriptor {
            replace: true,
            ..self
        }
    }

    /// This descriptor with transpose set.
    pub const fn with_transpose(self) -> Self {
        Descriptor {
            transpose: true,
            ..self
        }
    }
}

/// Where a matrix operation may write: the entries of a matrix (its structure, or the
/// entries whose value is true), optionally complemented. Made from any matrix.
///
/// `C<M> = T` writes `T(i, j)` where `M` allows `(i, j)`; elsewhere `C(i, j)` is kept, or
/// deleted under [`MatrixDescriptor::replace`]. Triangle counting restricts `L L'` to
/// the pattern of `L` with `MatrixMask::structure(&l)`.
#[derive(Clone, Debug)]
pub struct MatrixMask<'a> {
    nrows: usize,
    ncols: usize,
    offsets: Cow<'a, [u64]>,
    indices: Cow<'a, [Index]>,
    complement: bool,
}

impl<'a> MatrixMask<'a> {
    /// The structure of `m`: every stored entry, whatever its value. Borrows `m`.
    pub fn structure<T: Scalar>(m: &'a Csr<T>) -> Self {
        MatrixMask {
            nrows: m.nrows(),
            ncols: m.ncols(),
            offsets: Cow::Borrowed(m.offsets()),
            indices: Cow::Borrowed(m.indices()),
            complement: false,
        }
    }

    /// The stored entries of `m` whose value is true (non-zero).
    pub fn values<T: Scalar + Truthy>(m: &Csr<T>) -> MatrixMask<'static> {
        let mut offsets = Vec::with_capacity(m.nrows() + 1);
        let mut indices = Vec::new();
        offsets.push(0u64);
        for i in 0..m.nrows() {
            let (cols, vals) = m.row(i);
            indices.extend(
                cols.iter()
                    .zip(vals)
                    .filter(|(_, x)| x.truthy())
                    .map(|(&j, _)| j),
            );
            offsets.push(indices.len() as u64);
        }
        MatrixMask {
            nrows: m.nrows(),
            ncols: m.ncols(),
            offsets: Cow::Owned(offsets),
            indices: Cow::Owned(indices),
            complement: false,
        }
    }

    /// The complement: allows exactly the positions this mask does not.
    pub fn complement(mut self) -> Self {
        self.complement = !self.complement;
        self
    }

    /// Whether the mask is complemented.
    pub fn is_complemented(&self) -> bool {
        self.complement
    }

    /// Rows of the matrix the mask came from.
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Columns of the matrix the mask came from.
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// Whether an operation may write position `(i, j)`.
    pub fn allows(&self, i: usize, j: usize) -> bool {
        let inside = Index::try_from(j).is_ok_and(|j| self.row(i).binary_search(&j).is_ok());
        inside != self.complement
    }

    /// The columns the mask names in row `i`, sorted, before complementing.
    #[inline]
    pub fn row(&self, i: usize) -> &[Index] {
        &self.indices[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// How many positions the mask names, before complementing.
    pub fn nvals(&self) -> usize {
        self.indices.len()
    }
}

/// Modifiers of a matrix operation, an immutable value, like GraphBLAS's descriptor with
/// `GrB_OUTP`, `GrB_INP0` and `GrB_INP1`. `MatrixDescriptor::default()` merges into the
/// output outside the mask and uses the inputs as given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatrixDescriptor {
    /// Delete output entries the mask does not allow (GrB_REPLACE).
    pub replace: bool,
    /// Use the transpose of the first matrix input (GrB_INP0 = GrB_TRAN).
    pub transpose_a: bool,
    /// Use the transpose of the second matrix input (GrB_INP1 = GrB_TRAN).
    pub transpose_b: bool,
}

impl MatrixDescriptor {
    /// Merge outside the mask, inputs as given.
    pub const DEFAULT: MatrixDescriptor = MatrixDescriptor {
        replace: false,
        transpose_a: false,
        transpose_b: false,
    };

    /// This descriptor with replace set.
    pub const fn with_replace(self) -> Self {
        MatrixDescriptor {
            replace: true,
            ..self
        }
    }

    /// This descriptor with the first input transposed.
    pub const fn with_transpose_a(self) -> Self {
        MatrixDescriptor {
            transpose_a: true,
            ..self
        }
    }

    /// This descriptor with the second input transposed.
    pub const fn with_transpose_b(self) -> Self {
        MatrixDescriptor {
            transpose_b: true,
            ..self
        }
    }
}
