//! Matrices and vectors against the dense oracle: `Csr::new_checked` rejects every
//! broken invariant, the COO builder's duplicate policies, transposes, `sprs` round
//! trips, and the conversions between the three vector forms.

use crate::oracle;
use crate::qc;
use crate::random;

use edgeblas::algebra::Index;
use edgeblas::prelude::*;
use edgeblas::vector::{BitmapVector, SparseVector};
use quickcheck::TestResult;

use oracle::DMat;
use qc::Seed;
use random::{Form, Rng};

/// Seed of every quickcheck run here.
const QC_SEED: u64 = 0x6d61_7472_6978;

fn qc(tests: u64) -> quickcheck::QuickCheck {
    qc::qc(tests, QC_SEED)
}

fn small_i64(r: &mut Rng) -> i64 {
    r.range(-9, 9)
}

fn random_matrix(r: &mut Rng) -> (DMat<i64>, usize) {
    let (m, n) = random::shape(r);
    let d = random::density(r);
    (random::mat(r, m, n, d, small_i64), n)
}

fn is_invalid<T>(r: edgeblas::Result<T>) -> bool {
    matches!(r, Err(Error::InvalidStructure(_)))
}

// ---- Csr::new_checked ------------------------------------------------------------------

#[test]
fn new_checked_accepts_valid_arrays() {
    let a = Csr::new_checked(3, 4, vec![0, 2, 2, 3], vec![0, 3, 1], vec![1, 2, 3]).unwrap();
    assert_eq!(a.get(0, 3), Some(2));
    assert_eq!(a.get(2, 1), Some(3));
    assert_eq!(a.get(1, 1), None);
    assert!(Csr::<()>::new_checked(0, 0, vec![0], vec![], vec![]).is_ok());
    assert!(Csr::<()>::new_checked(0, 5, vec![0], vec![], vec![]).is_ok());
    assert!(Csr::<()>::new_checked(5, 0, vec![0; 6], vec![], vec![]).is_ok());
}

#[test]
fn new_checked_rejects_each_broken_invariant() {
    let ok = |o: Vec<u64>, i: Vec<Index>, v: Vec<i32>| Csr::new_checked(3, 4, o, i, v);
    // unsorted row
    assert!(is_invalid(ok(
        vec![0, 2, 2, 3],
        vec![3, 0, 1],
        vec![1, 2, 3]
    )));
    // duplicate column
    assert!(is_invalid(ok(
        vec![0, 2, 2, 3],
        vec![1, 1, 1],
        vec![1, 2, 3]
    )));
    // column >= ncols
    assert!(is_invalid(ok(
        vec![0, 2, 2, 3],
        vec![0, 4, 1],
        vec![1, 2, 3]
    )));
    assert!(is_invalid(ok(
        vec![0, 2, 2, 3],
        vec![0, 1, 9],
        vec![1, 2, 3]
    )));
    // offsets: wrong count, not starting at 0, decreasing, not ending at nnz
    assert!(is_invalid(ok(vec![0, 2, 3], vec![0, 3, 1], vec![1, 2, 3])));
    assert!(is_invalid(ok(
        vec![0, 2, 2, 3, 3],
        vec![0, 3, 1],
        vec![1, 2, 3]
    )));
    assert!(is_invalid(ok(
        vec![1, 2, 2, 3],
        vec![0, 3, 1],
        vec![1, 2, 3]
    )));
    assert!(is_invalid(ok(
        vec![0, 3, 2, 3],
        vec![0, 1, 3],
        vec![1, 2, 3]
    )));
    assert!(is_invalid(ok(
        vec![0, 2, 2, 2],
        vec![0, 3, 1],
        vec![1, 2, 3]
    )));
    assert!(is_invalid(ok(
        vec![0, 2, 2, 4],
        vec![0, 3, 1],
        vec![1, 2, 3]
    )));
    // values and indices of different lengths
    assert!(is_invalid(ok(vec![0, 2, 2, 3], vec![0, 3, 1], vec![1, 2])));
    // no offsets at all
    assert!(is_invalid(Csr::<i32>::new_checked(
        0,
        0,
        vec![],
        vec![],
        vec![]
    )));
}

#[test]
fn new_checked_rejects_dimensions_past_2_pow_32() {
    let n = (1usize << 32) + 1;
    assert!(is_invalid(Csr::<()>::new_checked(
        0,
        n,
        vec![0],
        vec![],
        vec![]
    )));
}

/// A random valid matrix passes; the same arrays broken in one random way fail.
fn prop_breakage(s: Seed) -> TestResult {
    let r = &mut Rng::new(s.0);
    let (a, ncols) = random_matrix(r);
    let nrows = a.len();
    let (_, _, mut offsets, mut indices, mut values) = random::to_csr(&a, ncols).into_parts();
    if Csr::new_checked(
        nrows,
        ncols,
        offsets.clone(),
        indices.clone(),
        values.clone(),
    )
    .is_err()
    {
        return TestResult::error(format!("seed {}: a valid matrix was rejected", s.0));
    }
    // Rows with two or more entries, for the in-row breakages.
    let long: Vec<usize> = (0..nrows)
        .filter(|&i| offsets[i + 1] - offsets[i] >= 2)
        .collect();
    let how = r.below(7);
    match how {
        0 if !long.is_empty() => {
            // unsorted: swap two neighbours in a row
            let i = r.pick(&long);
            let p = offsets[i] as usize + r.below((offsets[i + 1] - offsets[i]) as usize - 1);
            indices.swap(p, p + 1);
        }
        1 if !long.is_empty() => {
            // duplicate: a column repeated in a row
            let i = r.pick(&long);
            let p = offsets[i] as usize + r.below((offsets[i + 1] - offsets[i]) as usize - 1);
            indices[p + 1] = indices[p];
        }
        2 if !indices.is_empty() => {
            // a column past the end, at the end of a row so the row stays sorted
            let i = (0..nrows)
                .rev()
                .find(|&i| offsets[i + 1] > offsets[i])
                .unwrap();
            indices[offsets[i + 1] as usize - 1] = (ncols + r.below(3)) as Index;
        }
        3 => {
            offsets.pop();
        }
        4 => offsets[0] = 1 + r.below(3) as u64,
        5 if nrows >= 2 && offsets[nrows] > 0 => {
            // decreasing inside (the end still matches nnz)
            let i = 1 + r.below(nrows - 1);
            offsets[i] = offsets[nrows] + 1;
        }
        _ => {
            if r.chance(0.5) {
                values.push(0);
            } else {
                indices.push(0);
                values.push(0);
            }
        }
    }
    if is_invalid(Csr::new_checked(nrows, ncols, offsets, indices, values)) {
        TestResult::passed()
    } else {
        TestResult::error(format!(
            "seed {}: breakage {how} of a {nrows} x {ncols} matrix was accepted",
            s.0
        ))
    }
}

#[test]
fn new_checked_rejects_random_breakage() {
    qc(300).quickcheck(prop_breakage as fn(Seed) -> TestResult);
}

// ---- Csr::set and Csr::values_mut ---------------------------------------------------------

/// Setting random positions (stored, absent, out of bounds) agrees with the dense oracle:
/// a stored entry takes the value, anything else is the error its case names and changes
/// nothing; `values_mut` then writes every value in place. The symmetry the matrix
/// remembers never outlives a change of values.
fn prop_set(s: Seed) -> TestResult {
    let r = &mut Rng::new(s.0);
    let (mut want, ncols) = random_matrix(r);
    let nrows = want.len();
    let mut a = random::to_csr(&want, ncols);
    for _ in 0..(4 * a.nnz() + 8) {
        let (i, j) = (r.below(nrows + 2), r.below(ncols + 2));
        let x = small_i64(r);
        let got = a.set(i, j, x);
        match want.get_mut(i).and_then(|row| row.get_mut(j)) {
            Some(Some(v)) => {
                assert!(got.is_ok(), "({i}, {j}) is stored: {got:?}");
                *v = x;
            }
            Some(None) => assert!(matches!(got, Err(Error::InvalidArgument(_))), "{got:?}"),
            None => assert!(matches!(got, Err(Error::OutOfBounds { .. })), "{got:?}"),
        }
    }
    assert_eq!(random::from_csr(&a), want);
    for v in a.values_mut() {
        *v = v.wrapping_mul(3) + 1;
    }
    let mapped: Vec<Vec<Option<i64>>> = want
        .iter()
        .map(|row| {
            row.iter()
                .map(|v| v.map(|x| x.wrapping_mul(3) + 1))
                .collect()
        })
        .collect();
    assert_eq!(random::from_csr(&a), mapped);
    TestResult::passed()
}

#[test]
fn set_changes_stored_entries_only_as_the_oracle_says() {
    qc(200).quickcheck(prop_set as fn(Seed) -> TestResult);
}

// ---- Csr::first_entries --------------------------------------------------------------------

/// The first `k` entries of each row keep the shape, and each row is the oracle row's
/// first `k` present entries with their values, as a valid matrix.
fn prop_first_entries(s: Seed) -> TestResult {
    let r = &mut Rng::new(s.0);
    let (a, ncols) = random_matrix(r);
    let k = r.below(6);
    let got = random::to_csr(&a, ncols).first_entries(k);
    let want: DMat<i64> = a
        .iter()
        .map(|row| {
            let mut left = k;
            row.iter()
                .map(|x| match x {
                    Some(v) if left > 0 => {
                        left -= 1;
                        Some(*v)
                    }
                    _ => None,
                })
                .collect()
        })
        .collect();
    assert_eq!(
        (got.nrows(), got.ncols()),
        (a.len(), ncols),
        "k = {k}: shape"
    );
    assert_eq!(random::from_csr(&got), want, "k = {k}");
    let (m, n, off, idx, vals) = got.into_parts();
    assert!(
        Csr::new_checked(m, n, off, idx, vals).is_ok(),
        "k = {k}: invalid"
    );
    TestResult::passed()
}

#[test]
fn first_entries_keep_each_rows_smallest_columns() {
    qc(200).quickcheck(prop_first_entries as fn(Seed) -> TestResult);
    // Rows in several of its parallel blocks (16,384 rows each), against each row's own
    // prefix, and every entry when k reaches the longest row.
    let a = random::graph(&mut Rng::new(7), 40_000, 6, |r| r.range(0, 100));
    for k in [0, 1, 3, 64] {
        let t = a.first_entries(k);
        for i in [0, 16_383, 16_384, 20_000, 32_768, 39_999] {
            let ((tc, tv), (ac, av)) = (t.row(i), a.row(i));
            let keep = ac.len().min(k);
            assert_eq!((tc, tv), (&ac[..keep], &av[..keep]), "k = {k}, row {i}");
        }
        assert_eq!(
            t.nnz(),
            (0..a.nrows()).map(|i| a.degree(i).min(k)).sum::<usize>()
        );
    }
    assert_eq!(
        a.first_entries(64),
        a,
        "k past every row: the matrix itself"
    );
}

#[test]
fn changing_values_forgets_a_remembered_symmetry() {
    // A symmetric matrix, checked (and so remembered) as symmetric.
    let mut a = Csr::new_checked(2, 2, vec![0, 1, 2], vec![1, 0], vec![4i64, 4]).unwrap();
    assert!(a.is_symmetric());
    a.set(0, 1, 5).unwrap();
    assert!(!a.is_symmetric(), "after set");
    a.set(0, 1, 4).unwrap();
    assert!(a.is_symmetric());
    a.values_mut()[1] = 9;
    assert!(!a.is_symmetric(), "after values_mut");
}

// ---- the COO builder -------------------------------------------------------------------------

/// Random triples over a small matrix, so that many repeat.
fn random_triples(r: &mut Rng) -> (usize, usize, Vec<(usize, usize, i64)>) {
    let (m, n) = (random::dim(r).min(300), random::dim(r).min(300));
    let count = if m * n == 0 {
        0
    } else {
        r.below(3 * m * n + 1).min(20_000)
    };
    let t = (0..count)
        .map(|_| (r.below(m), r.below(n), r.range(-1000, 1000)))
        .collect();
    (m, n, t)
}

fn builder(m: usize, n: usize, t: &[(usize, usize, i64)]) -> CooBuilder<i64> {
    let mut b = CooBuilder::new(m, n);
    for &(i, j, x) in t {
        b.push(i, j, x).unwrap();
    }
    b
}

/// What each policy must give, computed from the triples in push order.
struct Expected {
    first: DMat<i64>,
    last: DMat<i64>,
    sum: DMat<i64>,
    first_dup: Option<(u64, u64)>,
    dups: u64,
}

fn expected(m: usize, n: usize, t: &[(usize, usize, i64)]) -> Expected {
    let mut first = oracle::empty_mat(m, n);
    let mut last = oracle::empty_mat(m, n);
    let mut sum: DMat<i64> = oracle::empty_mat(m, n);
    let mut seen = vec![vec![0u32; n]; m];
    for &(i, j, x) in t {
        first[i][j].get_or_insert(x);
        last[i][j] = Some(x);
        sum[i][j] = Some(sum[i][j].map_or(x, |s: i64| s.wrapping_add(x)));
        seen[i][j] += 1;
    }
    let first_dup = (0..m)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .find(|&(i, j)| seen[i][j] > 1)
        .map(|(i, j)| (i as u64, j as u64));
    let unique = seen.iter().flatten().filter(|&&c| c > 0).count();
    Expected {
        first,
        last,
        sum,
        first_dup,
        dups: (t.len() - unique) as u64,
    }
}

fn prop_duplicates(s: Seed) -> TestResult {
    let r = &mut Rng::new(s.0);
    let (m, n, t) = random_triples(r);
    let want = expected(m, n, &t);
    let b = builder(m, n, &t);
    let fail = |what: &str| {
        TestResult::error(format!(
            "seed {}: {what} for {} triples over {m} x {n}",
            s.0,
            t.len()
        ))
    };
    let (kf, dups) = b.clone().build_counted(Duplicates::KeepFirst).unwrap();
    if random::from_csr(&kf) != want.first || dups != want.dups {
        return fail("KeepFirst");
    }
    let kl = b.clone().build(Duplicates::KeepLast).unwrap();
    if random::from_csr(&kl) != want.last {
        return fail("KeepLast");
    }
    let summed = b.clone().build_combine(Plus::<i64>::new());
    if random::from_csr(&summed) != want.sum {
        return fail("build_combine(Plus)");
    }
    // ANY keeps the first: the same as KeepFirst.
    if b.clone().build_combine(Any::<i64>::new()) != kf {
        return fail("build_combine(Any)");
    }
    match (b.build(Duplicates::Error), want.first_dup) {
        (Ok(a), None) if random::from_csr(&a) == want.first => TestResult::passed(),
        (Err(Error::Duplicate { row, col }), Some(d)) if (row, col) == d => TestResult::passed(),
        (got, d) => fail(&format!(
            "Duplicates::Error gave {:?}, want the first duplicate {d:?}",
            got.map(|a| a.nnz())
        )),
    }
}

#[test]
fn builder_duplicate_policies_match_oracle() {
    qc(100).quickcheck(prop_duplicates as fn(Seed) -> TestResult);
}

#[test]
fn builder_keeps_push_order_across_a_large_build() {
    // Many rows, many repeats: the parallel per-row sort must stay stable.
    let r = &mut Rng::new(11);
    let (m, n) = (3000, 40);
    let t: Vec<(usize, usize, i64)> = (0..60_000)
        .map(|_| (r.below(m), r.below(n), r.range(-1000, 1000)))
        .collect();
    let want = expected(m, n, &t);
    let b = builder(m, n, &t);
    assert_eq!(
        random::from_csr(&b.clone().build(Duplicates::KeepFirst).unwrap()),
        want.first
    );
    assert_eq!(
        random::from_csr(&b.clone().build(Duplicates::KeepLast).unwrap()),
        want.last
    );
    let (row, col) = want.first_dup.unwrap();
    assert!(matches!(
        b.build(Duplicates::Error),
        Err(Error::Duplicate { row: r0, col: c0 }) if (r0, c0) == (row, col)
    ));
}

#[test]
fn builder_reports_the_duplicate_and_out_of_bounds_entries() {
    let mut b = CooBuilder::new(4, 5);
    for (i, j) in [(3, 1), (0, 4), (2, 2), (3, 1), (2, 2)] {
        b.push(i, j, 1u8).unwrap();
    }
    // The first duplicated entry in row-major order.
    assert!(matches!(
        b.clone().build(Duplicates::Error),
        Err(Error::Duplicate { row: 2, col: 2 })
    ));
    assert_eq!(b.len(), 5);
    assert!(matches!(
        b.push(4, 0, 1),
        Err(Error::OutOfBounds {
            row: 4,
            col: 0,
            nrows: 4,
            ncols: 5
        })
    ));
    assert!(matches!(
        b.push(0, 5, 1),
        Err(Error::OutOfBounds { row: 0, col: 5, .. })
    ));
    assert_eq!(b.len(), 5, "a rejected push adds nothing");
}

#[test]
fn builder_extend_and_symmetrize_match_oracle() {
    let r = &mut Rng::new(3);
    let n = 70;
    let t: Vec<(usize, usize, i64)> = (0..500)
        .map(|_| (r.below(n), r.below(n), r.range(-9, 9)))
        .collect();
    let rows: Vec<Index> = t.iter().map(|e| e.0 as Index).collect();
    let cols: Vec<Index> = t.iter().map(|e| e.1 as Index).collect();
    let vals: Vec<i64> = t.iter().map(|e| e.2).collect();
    let mut b = CooBuilder::new(n, n);
    b.extend_from_slices(&rows, &cols, &vals);
    assert_eq!(
        b.clone().build(Duplicates::KeepLast).unwrap(),
        builder(n, n, &t).build(Duplicates::KeepLast).unwrap()
    );
    // symmetrize appends the mirror of every off-diagonal triple, after all of them.
    b.symmetrize();
    let mut mirrored = t.clone();
    mirrored.extend(t.iter().filter(|e| e.0 != e.1).map(|&(i, j, x)| (j, i, x)));
    assert_eq!(
        random::from_csr(&b.build(Duplicates::KeepFirst).unwrap()),
        expected(n, n, &mirrored).first
    );
}

// ---- Csr ---------------------------------------------------------------------------------

fn prop_csr(s: Seed) -> TestResult {
    let r = &mut Rng::new(s.0);
    let (a, ncols) = random_matrix(r);
    let m = random::to_csr(&a, ncols);
    let at = oracle::transpose(&a, ncols);
    let t = m.transpose();
    let ok = (t.nrows(), t.ncols()) == (ncols, a.len())
        && random::from_csr(&t) == at
        && t.transpose() == m
        && m.iter().collect::<Vec<_>>() == oracle::triples(&a)
        && (0..a.len()).all(|i| m.degree(i) == a[i].iter().flatten().count())
        && m.count_diagonal()
            == (0..a.len().min(ncols))
                .filter(|&i| a[i][i].is_some())
                .count()
        && random::from_csr(&m.map(|x| x * 2))
            == a.iter()
                .map(|row| row.iter().map(|x| x.map(|x| x * 2)).collect())
                .collect::<DMat<i64>>()
        && m.pattern()
            .iter()
            .map(|e| (e.0, e.1))
            .eq(m.iter().map(|e| (e.0, e.1)))
        && (0..a.len()).all(|i| (0..ncols).all(|j| m.get(i, j) == a[i][j]));
    if ok {
        TestResult::passed()
    } else {
        TestResult::error(format!("seed {}: {} x {ncols}", s.0, a.len()))
    }
}

#[test]
fn transpose_and_accessors_match_oracle() {
    qc(100).quickcheck(prop_csr as fn(Seed) -> TestResult);
}

fn prop_symmetrize(s: Seed) -> TestResult {
    let r = &mut Rng::new(s.0);
    let n = random::dim(r).min(300);
    let d = random::density(r);
    let a = random::mat(r, n, n, d, small_i64);
    let m = random::to_csr(&a, n);
    // A non-commutative combine shows the order: A(i, j) first in row i.
    let combine = |x: i64, y: i64| 10 * x + y;
    let mut want = oracle::empty_mat(n, n);
    for i in 0..n {
        for j in 0..n {
            want[i][j] = match (a[i][j], a[j][i]) {
                (Some(x), Some(y)) if i != j => Some(combine(x, y)),
                (Some(x), _) => Some(x),
                (None, y) => y,
            };
        }
    }
    let sym = m.symmetrize(combine);
    let plain = m.symmetrize(|x, _| x).pattern();
    let ok = random::from_csr(&sym) == want
        && plain.is_symmetric()
        && m.is_symmetric() == (a == oracle::transpose(&a, n));
    if ok {
        TestResult::passed()
    } else {
        TestResult::error(format!("seed {}: symmetrize of {n} x {n}", s.0))
    }
}

#[test]
fn symmetrize_matches_oracle() {
    qc(100).quickcheck(prop_symmetrize as fn(Seed) -> TestResult);
}

fn prop_sprs(s: Seed) -> TestResult {
    let r = &mut Rng::new(s.0);
    let (a, ncols) = random_matrix(r);
    let m = random::to_csr(&a, ncols);
    let sp = m.to_sprs();
    let back = Csr::from_sprs(&sp).unwrap();
    // From CSC storage, and from a slice of rows (its offsets do not start at 0).
    let from_csc = Csr::from_sprs(&sp.to_csc()).unwrap();
    let nrows = a.len();
    let (lo, hi) = (r.below(nrows + 1), r.below(nrows + 1));
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    let slice = Csr::from_sprs(&sp.slice_outer(lo..hi).to_owned()).unwrap();
    let ok = back == m
        && from_csc == m
        && sp.shape() == (nrows, ncols)
        && sp.nnz() == m.nnz()
        && random::from_csr(&slice) == a[lo..hi].to_vec()
        && slice.ncols() == ncols;
    if ok {
        TestResult::passed()
    } else {
        TestResult::error(format!("seed {}: {nrows} x {ncols}, rows {lo}..{hi}", s.0))
    }
}

#[test]
fn sprs_round_trip() {
    qc(100).quickcheck(prop_sprs as fn(Seed) -> TestResult);
}

// ---- vectors -----------------------------------------------------------------------------------

fn prop_vector_forms(s: Seed) -> TestResult {
    let r = &mut Rng::new(s.0);
    let n = if r.chance(0.03) {
        r.range(262_145, 300_000) as usize // past 4096 words: the parallel index scan
    } else {
        random::dim(r)
    };
    let (d, f) = random::vector_case(r, n, small_i64);
    let v = random::to_vector(&d, f, 77);
    let pairs = oracle::pairs(&d);
    let nvals = pairs.len();
    let fill = 1234;
    let dense: Vec<i64> = d.iter().map(|x| x.unwrap_or(fill)).collect();
    let sparse = v.clone().into_sparse();
    let bitmap = v.clone().into_bitmap();
    let mut made_sparse = Vector::Bitmap(bitmap.clone());
    made_sparse.make_sparse();
    let mut made_bitmap = Vector::Sparse(sparse.clone());
    made_bitmap.make_bitmap();
    let ok = v.to_pairs() == pairs
        && v.nvals() == nvals
        && v.len() == n
        && sparse.iter().collect::<Vec<_>>() == pairs
        && sparse.nvals() == nvals
        && bitmap.iter().collect::<Vec<_>>() == pairs
        && bitmap.indices() == pairs.iter().map(|p| p.0).collect::<Vec<_>>()
        && bitmap.nvals() == nvals
        && bitmap.to_sparse() == sparse
        && Vector::Bitmap(BitmapVector::from_sparse(&sparse)).to_pairs() == pairs
        && v.clone().into_dense(fill).as_slice() == dense.as_slice()
        && sparse.to_dense(fill).as_slice() == dense.as_slice()
        && bitmap.to_dense(fill).as_slice() == dense.as_slice()
        && made_sparse.format_name() == "sparse"
        && made_bitmap.format_name() == "bitmap"
        && made_sparse == v
        && made_bitmap == v
        && (0..n.min(300)).all(|i| v.get(i) == d[i] && bitmap.get(i) == d[i]);
    // A full vector converts to a dense one with every entry, and back.
    let full = Vector::Dense(v.clone().into_dense(fill));
    let ok = ok
        && full.nvals() == n
        && full.clone().into_sparse().nvals() == n
        && full.clone().into_bitmap().nvals() == n
        && Vector::Bitmap(full.clone().into_bitmap()).to_pairs() == full.to_pairs();
    let mut cleared = v.clone();
    cleared.clear();
    let ok = ok && cleared.len() == n && cleared.nvals() == 0;
    if ok {
        TestResult::passed()
    } else {
        TestResult::error(format!(
            "seed {}: {f:?} of length {n}, {nvals} entries",
            s.0
        ))
    }
}

#[test]
fn vector_conversions_preserve_entries() {
    qc(100).quickcheck(prop_vector_forms as fn(Seed) -> TestResult);
}

#[test]
fn sparse_vector_new_checked_rejects_broken_arrays() {
    let bad = |i: Vec<Index>, v: Vec<i32>| {
        matches!(
            SparseVector::new_checked(5, i, v),
            Err(Error::InvalidStructure(_))
        )
    };
    assert!(bad(vec![2, 1], vec![0, 0]));
    assert!(bad(vec![1, 1], vec![0, 0]));
    assert!(bad(vec![1, 5], vec![0, 0]));
    assert!(bad(vec![1, 2], vec![0]));
    assert!(SparseVector::new_checked(5, vec![0, 4], vec![1, 2]).is_ok());
}

#[test]
#[should_panic(expected = "bit set past len")]
fn bitmap_from_parts_rejects_a_bit_past_len() {
    BitmapVector::from_parts(3, vec![0b1001], vec![0u8; 3]);
}

#[test]
fn vectors_of_different_forms_compare_by_entries() {
    let s = Vector::from_pairs(130, [(0, 1i64), (64, 2), (129, 3)]);
    let b = Vector::Bitmap(s.clone().into_bitmap());
    assert_eq!(s, b);
    assert_ne!(s, Vector::from_pairs(130, [(0, 1i64), (64, 2)]));
    assert_ne!(s, Vector::from_pairs(131, [(0, 1i64), (64, 2), (129, 3)]));
    // from_pairs keeps the last value of a repeated index.
    assert_eq!(
        Vector::from_pairs(4, [(2, 1i64), (0, 5), (2, 9)]).to_pairs(),
        vec![(0, 5), (2, 9)]
    );
    let f = random::to_vector(&vec![Some(1i64); 65], Form::Dense, 0);
    assert_eq!(f.nvals(), 65);
}
