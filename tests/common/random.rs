//! Seeded random test data: shapes, dense oracle matrices and vectors, and their
//! library forms. Randomness is a SplitMix64 stream from a seed the test passes in, so a
//! failing seed replays exactly.
//!
//! Included next to `oracle.rs` as `#[path = "common/random.rs"] mod random;` (it
//! names `super::oracle`).

#![allow(dead_code)]

use edgeblas::algebra::{Index, Scalar};
use edgeblas::matrix::{CooBuilder, Csr, Duplicates};
use edgeblas::vector::{BitmapVector, DenseVector, Vector};

use super::oracle::{DMat, DVec};

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and the same on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A stream from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// A dimension: often 0, 1 or tiny, often around a 64-bit word boundary, sometimes a
/// few hundred, and sometimes past 1024 (more than one parallel pull task).
pub fn dim(r: &mut Rng) -> usize {
    match r.below(100) {
        0..=3 => 0,
        4..=9 => 1,
        10..=34 => r.range(2, 9) as usize,
        35..=56 => r.range(60, 70) as usize,
        57..=86 => r.range(100, 300) as usize,
        _ => r.range(1025, 1300) as usize,
    }
}

/// Two dimensions whose product stays small enough for a dense oracle in debug builds.
pub fn shape(r: &mut Rng) -> (usize, usize) {
    let (mut m, mut n) = (dim(r), dim(r));
    if m > 1000 && n > 300 {
        n = r.range(1, 64) as usize;
    }
    if n > 1000 && m > 300 {
        m = r.range(1, 64) as usize;
    }
    (m, n)
}

/// A density: empty, very sparse, sparse, half, full.
pub fn density(r: &mut Rng) -> f64 {
    r.pick(&[0.0, 0.01, 0.05, 0.2, 0.5, 1.0])
}

/// A random `nrows x ncols` matrix with about `density * nrows * ncols` entries.
pub fn mat<T: Copy>(
    r: &mut Rng,
    nrows: usize,
    ncols: usize,
    density: f64,
    mut value: impl FnMut(&mut Rng) -> T,
) -> DMat<T> {
    let mut a: DMat<T> = vec![vec![None; ncols]; nrows];
    let cells = nrows * ncols;
    if cells == 0 {
        return a;
    }
    if density >= 0.2 {
        for row in a.iter_mut() {
            for x in row.iter_mut() {
                if r.chance(density) {
                    *x = Some(value(r));
                }
            }
        }
    } else {
        let nnz = (density * cells as f64).round() as usize;
        for _ in 0..nnz {
            let (i, j) = (r.below(nrows), r.below(ncols));
            a[i][j] = Some(value(r));
        }
    }
    a
}

/// A random vector with about `density * len` entries (all of them at density 1).
pub fn vec_of<T: Copy>(
    r: &mut Rng,
    len: usize,
    density: f64,
    mut value: impl FnMut(&mut Rng) -> T,
) -> DVec<T> {
    (0..len)
        .map(|_| {
            if density >= 1.0 || r.chance(density) {
                Some(value(r))
            } else {
                None
            }
        })
        .collect()
}

/// The three storage forms of a vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Sorted indices and values.
    Sparse,
    /// Presence bits and value slots.
    Bitmap,
    /// Every entry present.
    Dense,
}

/// A random form.
pub fn form(r: &mut Rng) -> Form {
    r.pick(&[Form::Sparse, Form::Bitmap, Form::Dense])
}

/// A random vector in a random form: a dense form gets every entry.
pub fn vector_case<T: Copy>(
    r: &mut Rng,
    len: usize,
    value: impl FnMut(&mut Rng) -> T,
) -> (DVec<T>, Form) {
    let f = form(r);
    let d = if f == Form::Dense { 1.0 } else { density(r) };
    (vec_of(r, len, d, value), f)
}

/// The library vector holding `v` in `form`. A bitmap's absent slots hold `stale`,
/// which a correct kernel never reads.
///
/// # Panics
/// If `form` is dense and `v` has an absent entry.
pub fn to_vector<T: Scalar>(v: &DVec<T>, form: Form, stale: T) -> Vector<T> {
    match form {
        Form::Sparse => Vector::from_pairs(
            v.len(),
            v.iter()
                .enumerate()
                .filter_map(|(i, x)| x.map(|x| (i as Index, x))),
        ),
        Form::Bitmap => {
            let mut bits = vec![0u64; v.len().div_ceil(64)];
            let values = v
                .iter()
                .enumerate()
                .map(|(i, x)| match x {
                    Some(x) => {
                        bits[i >> 6] |= 1 << (i & 63);
                        *x
                    }
                    None => stale,
                })
                .collect();
            Vector::Bitmap(BitmapVector::from_parts(v.len(), bits, values))
        }
        Form::Dense => Vector::Dense(DenseVector::from_vec(
            v.iter()
                .map(|x| x.expect("a dense vector has every entry"))
                .collect(),
        )),
    }
}

/// The library matrix holding `a` (through the checked constructor).
pub fn to_csr<T: Scalar>(a: &DMat<T>, ncols: usize) -> Csr<T> {
    let mut offsets = vec![0u64];
    let (mut indices, mut values) = (Vec::new(), Vec::new());
    for row in a {
        for (j, x) in row.iter().enumerate() {
            if let Some(x) = x {
                indices.push(j as Index);
                values.push(*x);
            }
        }
        offsets.push(indices.len() as u64);
    }
    Csr::new_checked(a.len(), ncols, offsets, indices, values).expect("a valid matrix")
}

/// The dense oracle form of a library matrix.
pub fn from_csr<T: Scalar>(m: &Csr<T>) -> DMat<T> {
    let mut a = vec![vec![None; m.ncols()]; m.nrows()];
    for (i, j, x) in m.iter() {
        a[i][j as usize] = Some(x);
    }
    a
}

/// The dense oracle form of a library vector.
pub fn from_vector<T: Scalar>(v: &Vector<T>) -> DVec<T> {
    let mut d = vec![None; v.len()];
    for (i, x) in v.to_pairs() {
        d[i as usize] = Some(x);
    }
    d
}

/// A random n x n graph with about `deg` arcs per row (a repeated arc keeps its last
/// value) and values from `val`.
pub fn graph<T: Scalar>(r: &mut Rng, n: usize, deg: usize, val: impl Fn(&mut Rng) -> T) -> Csr<T> {
    let mut b = CooBuilder::new(n, n);
    for _ in 0..n * deg {
        let (i, j) = (r.below(n), r.below(n));
        let x = val(r);
        b.push(i, j, x).unwrap();
    }
    b.build(Duplicates::KeepLast).unwrap()
}

/// A dimension for dense-oracle property tests: 0, 1, tiny, around a word, or a few dozen.
pub fn small_dim(r: &mut Rng) -> usize {
    match r.below(100) {
        0..=4 => 0,
        5..=12 => 1,
        13..=49 => r.range(2, 9) as usize,
        50..=69 => r.range(60, 70) as usize,
        _ => r.range(10, 40) as usize,
    }
}

/// Weights `lo..=hi` (integers: ties abound), or fractional ones when `lo > hi`.
pub fn random_weighted(seed: u64, n: usize, m: usize, lo: i64, hi: i64) -> Csr<f64> {
    let mut r = Rng::new(seed);
    let mut b = CooBuilder::new(n, n);
    for _ in 0..m {
        let w = if lo <= hi {
            (lo + (r.next_u64() % (hi - lo + 1) as u64) as i64) as f64
        } else {
            (r.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 10.0
        };
        b.push(r.below(n), r.below(n), w).unwrap();
    }
    b.build(Duplicates::KeepFirst).unwrap()
}

/// A DAG with weights -10..=10: negative arcs, no cycle.
pub fn random_dag(seed: u64, n: usize, m: usize) -> Csr<f64> {
    let mut r = Rng::new(seed);
    let mut b = CooBuilder::new(n, n);
    for _ in 0..m {
        let (i, j) = (r.below(n), r.below(n));
        if i < j {
            b.push(i, j, (r.next_u64() % 21) as f64 - 10.0).unwrap();
        }
    }
    b.build(Duplicates::KeepFirst).unwrap()
}
