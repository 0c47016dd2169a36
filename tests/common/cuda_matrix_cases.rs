//! The device algebra's matrix test cases (`mxm`, `transpose`, `reduce_matrix` and the
//! device triangle count), shared by the host build (tests/cuda_host_ops.rs) and the GPU
//! (tests/cuda_ops_gpu.rs): random matrices of every shape class, every built-in
//! semiring over every type it takes, every matrix-mask form (none, structural, valued
//! over several types, complemented), accumulators, replace and both transposes; each
//! result compared with the CPU's `edgeblas::ops` entry for entry. `mxm` sums a row's
//! terms in the CPU's order (ascending k, from the first), so every semiring, float PLUS
//! included, must give the CPU's bytes.
//!
//! Included next to `cuda_ops_cases.rs` (as `cases`) and `random.rs`.

#![allow(dead_code)]

use edgeblas::algebra::*;
use edgeblas::cuda::DeviceValue;
use edgeblas::descriptor::{MatrixDescriptor, MatrixMask};
use edgeblas::matrix::Csr;
use edgeblas::ops;

use super::cases::Same;
use super::random::{self, Rng};

/// A matrix mask as a runner builds its own: the matrix, structure or values,
/// complemented.
pub struct MatMaskArg<'a> {
    /// The mask matrix.
    pub m: &'a MatMaskMat,
    /// Structural (else valued).
    pub structure: bool,
    /// Complemented.
    pub complement: bool,
}

/// A mask matrix of one of several types (the valued test reads each type's zero).
pub enum MatMaskMat {
    Unit(Csr<()>),
    Bool(Csr<bool>),
    I32(Csr<i32>),
    F64(Csr<f64>),
}

impl MatMaskMat {
    fn random(r: &mut Rng, m: usize, n: usize) -> Self {
        let d = r.pick(&[0.0, 0.05, 0.3, 0.7, 1.0]);
        match r.below(4) {
            0 => MatMaskMat::Unit(random::to_csr(&random::mat(r, m, n, d, |_| ()), n)),
            1 => MatMaskMat::Bool(random::to_csr(
                &random::mat(r, m, n, d, |r| r.chance(0.6)),
                n,
            )),
            2 => MatMaskMat::I32(random::to_csr(
                &random::mat(r, m, n, d, |r| r.range(-1, 1) as i32),
                n,
            )),
            _ => MatMaskMat::F64(random::to_csr(
                &random::mat(r, m, n, d, |r| r.pick(&[0.0, -0.0, 0.5, f64::NAN])),
                n,
            )),
        }
    }

    /// The CPU mask of this matrix.
    pub fn mask(&self, structure: bool, complement: bool) -> MatrixMask<'_> {
        fn one<T: DeviceValue + Truthy>(
            m: &Csr<T>,
            structure: bool,
            complement: bool,
        ) -> MatrixMask<'_> {
            let k = if structure {
                MatrixMask::structure(m)
            } else {
                MatrixMask::values(m)
            };
            if complement { k.complement() } else { k }
        }
        match self {
            MatMaskMat::Unit(m) => one(m, structure, complement),
            MatMaskMat::Bool(m) => one(m, structure, complement),
            MatMaskMat::I32(m) => one(m, structure, complement),
            MatMaskMat::F64(m) => one(m, structure, complement),
        }
    }
}

/// Where the device algebra's matrix operations run, on host operands.
pub trait MatrixRunner {
    /// `cuda::ops::mxm`.
    #[allow(clippy::too_many_arguments)]
    fn mxm<S, A, B>(
        &self,
        c: &mut Csr<S::Output>,
        mask: Option<&MatMaskArg<'_>>,
        accum: Accum<'_, S::Output>,
        s: S,
        a: &Csr<A>,
        b: &Csr<B>,
        desc: &MatrixDescriptor,
    ) -> edgeblas::Result<()>
    where
        S: Semiring<A, B> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        B: DeviceValue;
    /// `cuda::ops::transpose`.
    fn transpose<T: DeviceValue>(
        &self,
        c: &mut Csr<T>,
        mask: Option<&MatMaskArg<'_>>,
        accum: Accum<'_, T>,
        a: &Csr<T>,
        desc: &MatrixDescriptor,
    ) -> edgeblas::Result<()>;
    /// `cuda::ops::reduce_matrix`.
    fn reduce_matrix<T: DeviceValue, M: Monoid<T> + 'static>(
        &self,
        m: M,
        a: &Csr<T>,
    ) -> edgeblas::Result<T>;
    /// `cuda::triangle_count`.
    fn triangle_count(
        &self,
        g: &edgeblas::graph::Graph<'_, ()>,
        method: edgeblas::algo::triangles::TriangleMethod,
        presort: edgeblas::algo::triangles::Presort,
    ) -> edgeblas::Result<edgeblas::algo::triangles::TriangleCount>;
}

fn assert_same_matrix<T: Same>(cpu: &Csr<T>, dev: &Csr<T>, exact: bool, what: &str) {
    assert_eq!(
        (cpu.nrows(), cpu.ncols()),
        (dev.nrows(), dev.ncols()),
        "{what}: shapes"
    );
    assert_eq!(
        cpu.offsets(),
        dev.offsets(),
        "{what}: the rows' lengths differ"
    );
    assert_eq!(
        cpu.indices(),
        dev.indices(),
        "{what}: the column indices differ"
    );
    for (p, (x, y)) in cpu.values().iter().zip(dev.values()).enumerate() {
        assert!(
            T::same(*x, *y, exact),
            "{what}: entry {p} (column {}): CPU {x:?}, device {y:?}",
            cpu.indices()[p]
        );
    }
}

/// A dimension: empty, one, a few, tens, a couple hundred.
fn dim(r: &mut Rng) -> usize {
    match r.below(100) {
        0..=3 => 0,
        4..=11 => 1,
        12..=40 => r.range(2, 9) as usize,
        41..=80 => r.range(20, 70) as usize,
        _ => r.range(100, 220) as usize,
    }
}

fn random_matrix<T: Same>(r: &mut Rng, m: usize, n: usize) -> Csr<T> {
    let d = r.pick(&[0.0, 0.01, 0.05, 0.2, 0.6]);
    random::to_csr(&random::mat(r, m, n, d, T::random), n)
}

/// A random mask for an `m x n` output, with its flags, or none.
fn random_mask(r: &mut Rng, m: usize, n: usize) -> (Option<MatMaskMat>, bool, bool) {
    let mm = r.chance(0.7).then(|| MatMaskMat::random(r, m, n));
    (mm, r.chance(0.5), r.chance(0.5))
}

/// How many random cases each semiring gets.
const CASES: usize = 16;

/// One random `mxm` case of semiring `s`: shapes, transposes, mask, accumulator,
/// replace and the initial `C` at random; the runner against the CPU.
fn mxm_case<R: MatrixRunner, S, A, B>(
    run: &R,
    r: &mut Rng,
    name: &str,
    s: S,
    accums: &[&dyn BinaryOp<S::Output, S::Output, Output = S::Output>],
) where
    S: Semiring<A, B> + 'static,
    S::Output: Same,
    A: Same,
    B: Same,
{
    let (m, k, n) = (dim(r), dim(r), dim(r));
    let desc = MatrixDescriptor {
        replace: r.chance(0.3),
        transpose_a: r.chance(0.25),
        transpose_b: r.chance(0.4),
    };
    let a: Csr<A> = if desc.transpose_a {
        random_matrix(r, k, m)
    } else {
        random_matrix(r, m, k)
    };
    let b: Csr<B> = if desc.transpose_b {
        random_matrix(r, n, k)
    } else {
        random_matrix(r, k, n)
    };
    let c0: Csr<S::Output> = if r.chance(0.4) {
        Csr::empty(m, n)
    } else {
        random_matrix(r, m, n)
    };
    let (mm, structure, complement) = random_mask(r, m, n);
    let cm_own = mm.as_ref().map(|v| v.mask(structure, complement));
    let hm_own = mm.as_ref().map(|v| MatMaskArg {
        m: v,
        structure,
        complement,
    });
    let accum = if r.chance(0.5) {
        None
    } else {
        Some(accums[r.below(accums.len())])
    };
    let what = format!(
        "{name}: mxm {m}x{k} (nnz {}) by {k}x{n} (nnz {}), C nnz {}, mask {:?}, accum {}, {desc:?}",
        a.nnz(),
        b.nnz(),
        c0.nnz(),
        mm.as_ref().map(|_| (structure, complement)),
        accum.is_some(),
    );
    let (mut cpu, mut dev) = (c0.clone(), c0);
    ops::mxm(&mut cpu, cm_own.as_ref(), accum, s, &a, &b, &desc);
    run.mxm(&mut dev, hm_own.as_ref(), accum, s, &a, &b, &desc)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_same_matrix(&cpu, &dev, true, &what);
}

fn mxms<R: MatrixRunner, S, A, B>(
    run: &R,
    seed: u64,
    name: &str,
    s: S,
    accums: &[&dyn BinaryOp<S::Output, S::Output, Output = S::Output>],
) where
    S: Semiring<A, B> + 'static,
    S::Output: Same,
    A: Same,
    B: Same,
{
    let mut r = Rng::new(seed);
    for _ in 0..CASES {
        mxm_case::<R, S, A, B>(run, &mut r, name, s, accums);
    }
}

/// `mxm` under every arithmetic semiring over `T`, with MIN, MAX and PLUS accumulators:
/// the CPU's bytes, float PLUS included.
pub fn mxm_arith<R: MatrixRunner, T: Same + Number>(run: &R, seed: u64, ty: &str)
where
    Min<T>: BinaryOp<T, T, Output = T>,
{
    let (min, max, plus) = (Min::<T>::new(), Max::<T>::new(), Plus::<T>::new());
    let acc: [&dyn BinaryOp<T, T, Output = T>; 3] = [&min, &max, &plus];
    let n = |s: &str| format!("{s}<{ty}>");
    mxms::<R, _, T, T>(run, seed, &n("MinPlus"), MinPlus::<T>::new(), &acc);
    mxms::<R, _, T, T>(run, seed + 1, &n("MaxPlus"), MaxPlus::<T>::new(), &acc);
    mxms::<R, _, T, T>(run, seed + 2, &n("PlusTimes"), PlusTimes::<T>::new(), &acc);
    mxms::<R, _, T, T>(run, seed + 3, &n("MaxTimes"), MaxTimes::<T>::new(), &acc);
    mxms::<R, _, T, T>(run, seed + 4, &n("MinMax"), MinMax::<T>::new(), &acc);
    mxms::<R, _, (), bool>(run, seed + 5, &n("PlusPair"), PlusPair::<T>::new(), &acc);
    mxms::<R, _, T, bool>(run, seed + 6, &n("PlusFirst"), PlusFirst::<T>::new(), &acc);
    mxms::<R, _, T, ()>(run, seed + 7, &n("MinFirst"), MinFirst::<T>::new(), &acc);
    mxms::<R, _, T, T>(run, seed + 8, &n("MaxFirst"), MaxFirst::<T>::new(), &acc);
    mxms::<R, _, (), T>(
        run,
        seed + 9,
        &n("PlusSecond"),
        PlusSecond::<T>::new(),
        &acc,
    );
    mxms::<R, _, bool, T>(run, seed + 10, &n("MinSecond"), MinSecond::<T>::new(), &acc);
    mxms::<R, _, T, T>(run, seed + 11, &n("MaxSecond"), MaxSecond::<T>::new(), &acc);
}

/// `mxm` under the Boolean and positional semirings.
pub fn mxm_boolean_and_positional<R: MatrixRunner>(run: &R) {
    let (lor, land, lxor) = (Lor, Land, Lxor);
    let b: [&dyn BinaryOp<bool, bool, Output = bool>; 3] = [&lor, &land, &lxor];
    mxms::<R, _, (), bool>(run, 1700, "OrAnd over a pattern", OrAnd, &b);
    mxms::<R, _, bool, bool>(run, 1701, "OrAnd over bool", OrAnd, &b);
    mxms::<R, _, (), ()>(run, 1702, "OrAnd over patterns", OrAnd, &b);
    mxms::<R, _, f64, i32>(run, 1703, "AnyPair", AnyPair, &b);
    let (min, max, plus) = (Min::<u32>::new(), Max::<u32>::new(), Plus::<u32>::new());
    let i: [&dyn BinaryOp<u32, u32, Output = u32>; 3] = [&min, &max, &plus];
    mxms::<R, _, (), ()>(run, 1704, "MinSecondI", MinSecondI, &i);
    mxms::<R, _, f64, bool>(run, 1705, "MinSecondI over values", MinSecondI, &i);
    mxms::<R, _, (), ()>(run, 1706, "AnySecondI", AnySecondI, &i);
    mxms::<R, _, i64, u64>(run, 1707, "AnySecondI over values", AnySecondI, &i);
}

/// Rows long enough for the hash workspace's probing, the dense workspace and the
/// heapsort of a gathered row: a few dense rows against a wide sparse `B`, and a power
/// law's hubs, under PLUS.TIMES over f64 (the order of the sums shows) and u64.
pub fn mxm_long_rows<R: MatrixRunner>(run: &R) {
    let mut r = Rng::new(1800);
    for case in 0..6 {
        let (m, k, n) = (r.range(1, 12) as usize, r.range(50, 400) as usize, 3000);
        let a: Csr<f64> = random::to_csr(&random::mat(&mut r, m, k, 0.5, f64::random), k);
        let d = [0.002, 0.01, 0.1][case % 3];
        let b: Csr<f64> = random::to_csr(&random::mat(&mut r, k, n, d, f64::random), n);
        let desc = MatrixDescriptor::DEFAULT;
        let (mut cpu, mut dev) = (Csr::<f64>::empty(m, n), Csr::<f64>::empty(m, n));
        let s = PlusTimes::<f64>::new();
        ops::mxm(&mut cpu, None, None, s, &a, &b, &desc);
        run.mxm(&mut dev, None, None, s, &a, &b, &desc).unwrap();
        assert_same_matrix(
            &cpu,
            &dev,
            true,
            &format!("long rows case {case} (density {d})"),
        );
    }
    let g: Csr<u64> = random::graph(&mut r, 2000, 8, |r| r.range(0, 9) as u64);
    let desc = MatrixDescriptor::DEFAULT.with_transpose_b();
    let (mut cpu, mut dev) = (Csr::<u64>::empty(2000, 2000), Csr::<u64>::empty(2000, 2000));
    let s = PlusTimes::<u64>::new();
    ops::mxm(&mut cpu, None, None, s, &g, &g, &desc);
    run.mxm(&mut dev, None, None, s, &g, &g, &desc).unwrap();
    assert_same_matrix(&cpu, &dev, true, "A A' of a random graph");
    let mask = MatMaskMat::Unit(g.pattern());
    let arg = MatMaskArg {
        m: &mask,
        structure: true,
        complement: false,
    };
    let (mut cpu, mut dev) = (Csr::<u64>::empty(2000, 2000), Csr::<u64>::empty(2000, 2000));
    ops::mxm(
        &mut cpu,
        Some(&mask.mask(true, false)),
        None,
        s,
        &g,
        &g,
        &desc,
    );
    run.mxm(&mut dev, Some(&arg), None, s, &g, &g, &desc)
        .unwrap();
    assert_same_matrix(&cpu, &dev, true, "C<A> = A A' of a random graph");
}

fn transpose_case<R: MatrixRunner, T: Same>(
    run: &R,
    r: &mut Rng,
    name: &str,
    accums: &[&dyn BinaryOp<T, T, Output = T>],
) {
    let (m, n) = random::shape(r);
    let desc = MatrixDescriptor {
        replace: r.chance(0.3),
        transpose_a: r.chance(0.2),
        transpose_b: false,
    };
    let (cm, cn) = if desc.transpose_a { (m, n) } else { (n, m) };
    let d = random::density(r);
    let a: Csr<T> = random::to_csr(&random::mat(r, m, n, d, T::random), n);
    let c0: Csr<T> = if r.chance(0.5) {
        Csr::empty(cm, cn)
    } else {
        random_matrix(r, cm, cn)
    };
    let (mm, structure, complement) = random_mask(r, cm, cn);
    let cm_own = mm.as_ref().map(|v| v.mask(structure, complement));
    let hm_own = mm.as_ref().map(|v| MatMaskArg {
        m: v,
        structure,
        complement,
    });
    let accum = if r.chance(0.5) || accums.is_empty() {
        None
    } else {
        Some(accums[r.below(accums.len())])
    };
    let what = format!(
        "{name}: transpose {m}x{n} (nnz {}), C nnz {}, mask {:?}, accum {}, {desc:?}",
        a.nnz(),
        c0.nnz(),
        mm.as_ref().map(|_| (structure, complement)),
        accum.is_some()
    );
    let (mut cpu, mut dev) = (c0.clone(), c0);
    ops::transpose(&mut cpu, cm_own.as_ref(), accum, &a, &desc);
    run.transpose(&mut dev, hm_own.as_ref(), accum, &a, &desc)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_same_matrix(&cpu, &dev, true, &what);
}

/// `transpose` over every device type, with masks, accumulators and replace; plain
/// transposes of large sparse matrices (many rows per column) against `Csr::transpose`.
pub fn transposes<R: MatrixRunner>(run: &R) {
    let mut r = Rng::new(1900);
    let (pf, mf) = (Plus::<f64>::new(), Min::<f64>::new());
    let (pi, mi) = (Plus::<i32>::new(), Max::<i32>::new());
    let (pu, tu) = (Plus::<u64>::new(), Times::<u32>::new());
    let (lor, lxor) = (Lor, Lxor);
    let first = First::<f32>::new();
    let second = Second::<i64>::new();
    for _ in 0..CASES * 2 {
        transpose_case::<R, f64>(run, &mut r, "f64", &[&pf, &mf]);
        transpose_case::<R, i32>(run, &mut r, "i32", &[&pi, &mi]);
        transpose_case::<R, u64>(run, &mut r, "u64", &[&pu]);
        transpose_case::<R, u32>(run, &mut r, "u32", &[&tu]);
        transpose_case::<R, bool>(run, &mut r, "bool", &[&lor, &lxor]);
        transpose_case::<R, f32>(run, &mut r, "f32", &[&first]);
        transpose_case::<R, i64>(run, &mut r, "i64", &[&second]);
        transpose_case::<R, ()>(run, &mut r, "()", &[]);
    }
    for n in [1usize, 50, 3000] {
        let g: Csr<f64> = random::graph(&mut r, n, 6, f64::random);
        let mut dev = Csr::<f64>::empty(n, n);
        run.transpose(&mut dev, None, None, &g, &MatrixDescriptor::DEFAULT)
            .unwrap();
        assert_same_matrix(
            &g.transpose(),
            &dev,
            true,
            &format!("graph of {n} vertices"),
        );
    }
}

/// `reduce_matrix` under exact monoids (the CPU's bytes) and float PLUS (within the
/// order rule: 1e-9 relative for f64).
pub fn reduce_matrices<R: MatrixRunner>(run: &R) {
    let mut r = Rng::new(2000);
    for _ in 0..CASES * 2 {
        let (m, n) = random::shape(&mut r);
        let d = random::density(&mut r);
        let a: Csr<u64> = random::to_csr(&random::mat(&mut r, m, n, d, u64::random), n);
        let f: Csr<f64> = random::to_csr(&random::mat(&mut r, m, n, d, f64::random), n);
        let what = format!("{m}x{n} nnz {}", a.nnz());
        for (cpu, dev) in [
            (
                ops::reduce_matrix(Plus::<u64>::new(), &a),
                run.reduce_matrix(Plus::<u64>::new(), &a).unwrap(),
            ),
            (
                ops::reduce_matrix(Max::<u64>::new(), &a),
                run.reduce_matrix(Max::<u64>::new(), &a).unwrap(),
            ),
        ] {
            assert_eq!(cpu, dev, "{what}");
        }
        let (c, d) = (
            ops::reduce_matrix(Plus::<f64>::new(), &f),
            run.reduce_matrix(Plus::<f64>::new(), &f).unwrap(),
        );
        assert!(f64::same(c, d, false), "{what}: PLUS f64 {c} vs {d}");
        let (c, d) = (
            ops::reduce_matrix(Min::<f64>::new(), &f),
            run.reduce_matrix(Min::<f64>::new(), &f).unwrap(),
        );
        assert!(f64::same(c, d, true), "{what}: MIN f64 {c} vs {d}");
    }
}

/// The device triangle count against `algo::triangle_count` on random symmetric graphs
/// (with self-loops, which both ignore), every method and presort.
pub fn triangle_counts<R: MatrixRunner>(run: &R) {
    use edgeblas::algo::triangles::{Presort, TriangleMethod, triangle_count};
    use edgeblas::graph::Graph;
    use edgeblas::matrix::{CooBuilder, Duplicates};
    let mut r = Rng::new(2100);
    for case in 0..18 {
        let n = [0, 1, 3, 40, 300, 2000][case % 6];
        let deg = r.range(1, 12) as usize;
        let a: Csr<()> = random::graph(&mut r, n, deg, |_| ());
        let mut sym = CooBuilder::new(n, n);
        for i in 0..n {
            for &j in a.row(i).0 {
                sym.push(i, j as usize, ()).unwrap();
                sym.push(j as usize, i, ()).unwrap();
            }
        }
        let s = sym.build(Duplicates::KeepFirst).unwrap();
        let g = Graph::symmetric(&s);
        for method in [
            TriangleMethod::SandiaLL,
            TriangleMethod::SandiaUU,
            TriangleMethod::Burkhardt,
            TriangleMethod::Auto,
        ] {
            let presort = [
                Presort::Auto,
                Presort::None,
                Presort::Ascending,
                Presort::Descending,
            ][r.below(4)];
            let cpu = triangle_count(&g, method, presort);
            let dev = run.triangle_count(&g, method, presort).unwrap();
            assert_eq!(
                cpu,
                dev,
                "case {case}: n {n} nnz {} {method:?} {presort:?}",
                s.nnz()
            );
        }
    }
}
