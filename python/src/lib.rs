//! The compiled half of the `edgeblas` Python package (`edgeblas._edgeblas`).
//!
//! Python passes matrices as `(nrows, ncols, indptr, indices, data)` tuples of numpy
//! arrays (the arrays of a `scipy.sparse.csr_array`); the package in
//! `python/edgeblas/__init__.py` builds those tuples and wraps the results. Every input is
//! copied once into a [`Csr`] (which owns its arrays); results are handed back as numpy
//! arrays that own the Rust buffers, without a copy. Every algorithm runs with the GIL
//! released, in a rayon pool of `threads` workers when the caller asks for one. Library
//! errors become `ValueError` (or `FileNotFoundError`/`OSError` for files) with the
//! message the CLI prints; a panic becomes a `ValueError` instead of killing the
//! interpreter.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use edgeblas::algebra::{
    AnyPair, AnySecondI, BinaryOp, Indices, Max, MaxFirst, MaxPlus, MaxSecond, MaxTimes, Min,
    MinFirst, MinMax, MinPlus, MinSecond, MinSecondI, Monoid, OrAnd, Plus, PlusFirst, PlusPair,
    PlusSecond, PlusTimes, Semiring, Times,
};
use edgeblas::algo::{
    self, PageRankOptions, Presort, Stop, TriangleMethod, WccMethod,
    bellman_ford::bellman_ford_with,
    bfs::{Beamer, BfsOptions, Gunrock, Ligra, Policy, Pull, Push, Xbfs},
    delta_stepping::{default_delta, delta_stepping_with},
};
use edgeblas::descriptor::{MatrixDescriptor, MatrixMask};
use edgeblas::generate::chung_lu::{self as cl, Coarsen, Degrees, Plan, PlanOptions};
use edgeblas::generate::rmat::Rmat;
use edgeblas::graph::Graph;
use edgeblas::io::{self, Format, ReadOptions, ValueType, VertexIds};
use edgeblas::matrix::Csr;
use edgeblas::{Error, ops};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// A matrix as Python hands it over: shape, indptr, indices, data (`None`: a pattern).
type RawMatrix<'py> = (
    usize,
    usize,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Option<Bound<'py, PyAny>>,
);

/// The Python exception for a library error: files not found are `FileNotFoundError`,
/// other file errors `OSError`, everything else `ValueError`; the text is the CLI's.
fn to_py(e: Error) -> PyErr {
    match &e {
        Error::WrongFormat {
            path, line, found, ..
        } => PyValueError::new_err(format!(
            "{path}:{line}: this is a {} file; drop format= or use format='{found}'",
            found.long_name()
        )),
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(e.to_string())
        }
        Error::Io { .. } => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

fn invalid(m: impl Into<String>) -> Error {
    Error::InvalidArgument(m.into())
}

/// The rayon pool of `n` workers, built once per size.
fn pool(n: usize) -> Result<Arc<rayon::ThreadPool>, Error> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    if n == 0 {
        return Err(invalid("threads: must be at least 1"));
    }
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(p) = pools.get(&n) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| invalid(format!("threads: {e}")))?;
    let p = Arc::new(p);
    pools.insert(n, p.clone());
    Ok(p)
}

/// Runs `f` without the GIL, in a pool of `threads` workers when given, turning a panic
/// into a `ValueError`.
fn run<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    f: impl FnOnce() -> Result<T, Error> + Send,
) -> PyResult<T> {
    let pool = threads.map(pool).transpose().map_err(to_py)?;
    let out = py.allow_threads(move || {
        catch_unwind(AssertUnwindSafe(move || match pool {
            Some(p) => p.install(f),
            None => f(),
        }))
    });
    match out {
        Ok(r) => r.map_err(to_py),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "internal error".into());
            Err(PyValueError::new_err(msg))
        }
    }
}

/// An index array (int32 or int64) as `u64`s, refusing negative entries.
fn u64s(a: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u64>> {
    if let Ok(x) = a.extract::<PyReadonlyArray1<'_, i64>>() {
        let s = x.as_slice()?;
        if let Some(k) = s.iter().position(|&v| v < 0) {
            return Err(to_py(invalid(format!(
                "{what}[{k}] = {} is negative",
                s[k]
            ))));
        }
        return Ok(s.iter().map(|&v| v as u64).collect());
    }
    if let Ok(x) = a.extract::<PyReadonlyArray1<'_, i32>>() {
        let s = x.as_slice()?;
        if let Some(k) = s.iter().position(|&v| v < 0) {
            return Err(to_py(invalid(format!(
                "{what}[{k}] = {} is negative",
                s[k]
            ))));
        }
        return Ok(s.iter().map(|&v| v as u64).collect());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "{what}: expected a contiguous 1-D int32 or int64 numpy array"
    )))
}

/// An index array as `u32`s, refusing negative entries and entries beyond the u32 range
/// (one pass over int32 or int64 input).
fn u32s(a: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u32>> {
    fn bad(what: &str, k: usize, v: i64) -> PyErr {
        if v < 0 {
            to_py(invalid(format!("{what}[{k}] = {v} is negative")))
        } else {
            to_py(invalid(format!(
                "{what}[{k}] = {v} is beyond the u32 range of vertex indices"
            )))
        }
    }
    if let Ok(x) = a.extract::<PyReadonlyArray1<'_, i32>>() {
        let s = x.as_slice()?;
        if let Some(k) = s.iter().position(|&v| v < 0) {
            return Err(bad(what, k, i64::from(s[k])));
        }
        return Ok(s.iter().map(|&v| v as u32).collect());
    }
    if let Ok(x) = a.extract::<PyReadonlyArray1<'_, i64>>() {
        let s = x.as_slice()?;
        if let Some(k) = s
            .iter()
            .position(|&v| !(0..=i64::from(u32::MAX)).contains(&v))
        {
            return Err(bad(what, k, s[k]));
        }
        return Ok(s.iter().map(|&v| v as u32).collect());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "{what}: expected a contiguous 1-D int32 or int64 numpy array"
    )))
}

/// A float64 data array, refusing NaN.
fn f64s(a: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<f64>> {
    let x = a.extract::<PyReadonlyArray1<'_, f64>>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{what}: expected a contiguous 1-D float64 numpy array"
        ))
    })?;
    let s = x.as_slice()?;
    if let Some(k) = s.iter().position(|v| v.is_nan()) {
        return Err(to_py(invalid(format!(
            "{what}[{k}]: weight NaN is not a number"
        ))));
    }
    Ok(s.to_vec())
}

fn structure(m: &RawMatrix<'_>) -> PyResult<(Vec<u64>, Vec<u32>)> {
    let indptr = u64s(&m.2, "indptr")?;
    let indices = u32s(&m.3, "indices")?;
    Ok((indptr, indices))
}

/// The matrix with float64 values (a pattern gets ones).
fn csr_f64(m: &RawMatrix<'_>) -> PyResult<Csr<f64>> {
    let (indptr, indices) = structure(m)?;
    let values = match &m.4 {
        Some(d) => f64s(d, "data")?,
        None => vec![1.0; indices.len()],
    };
    Csr::new_checked(m.0, m.1, indptr, indices, values).map_err(to_py)
}

/// The matrix's pattern (stored entries are arcs, explicit zeros included).
fn csr_pattern(m: &RawMatrix<'_>) -> PyResult<Csr<()>> {
    let (indptr, indices) = structure(m)?;
    let n = indices.len();
    Csr::new_checked(m.0, m.1, indptr, indices, vec![(); n]).map_err(to_py)
}

/// A square pattern: the graph of an algorithm.
fn square(m: &RawMatrix<'_>, what: &str) -> PyResult<()> {
    if m.0 != m.1 {
        return Err(to_py(invalid(format!(
            "{what} needs a square matrix (a graph), and this one is {} x {}",
            m.0, m.1
        ))));
    }
    Ok(())
}

/// A matrix copied once into the library's arrays and kept: an `edgeblas.Graph` holds
/// one, so that repeated calls on it skip the copy, the checks and the symmetry test.
#[pyclass(frozen, module = "edgeblas._edgeblas")]
struct Prepared {
    values: Arc<Csr<f64>>,
    pattern: Arc<Csr<()>>,
    symmetric: bool,
}

#[pymethods]
impl Prepared {
    /// Copies the matrix; `symmetric=None` tests the pattern (square matrices only).
    #[new]
    #[pyo3(signature = (a, symmetric=None))]
    fn new(py: Python<'_>, a: RawMatrix<'_>, symmetric: Option<bool>) -> PyResult<Self> {
        let values = csr_f64(&a)?;
        let (values, pattern, symmetric) = run(py, None, move || {
            let pattern = values.pattern();
            let symmetric = symmetric.unwrap_or_else(|| algo::is_symmetric_pattern(&pattern));
            Ok((values, pattern, symmetric))
        })?;
        Ok(Prepared {
            values: Arc::new(values),
            pattern: Arc::new(pattern),
            symmetric,
        })
    }

    /// Whether the pattern is symmetric (as given or as tested).
    #[getter]
    fn symmetric(&self) -> bool {
        self.symmetric
    }
}

/// A matrix argument: the arrays of a scipy matrix, or a [`Prepared`] copy.
#[derive(FromPyObject)]
enum Input<'py> {
    Prepared(Bound<'py, Prepared>),
    Raw(RawMatrix<'py>),
}

impl Input<'_> {
    fn shape(&self) -> (usize, usize) {
        match self {
            Input::Prepared(p) => (p.get().values.nrows(), p.get().values.ncols()),
            Input::Raw(m) => (m.0, m.1),
        }
    }

    fn known_symmetric(&self) -> bool {
        matches!(self, Input::Prepared(p) if p.get().symmetric)
    }

    fn values(&self) -> PyResult<Arc<Csr<f64>>> {
        match self {
            Input::Prepared(p) => Ok(p.get().values.clone()),
            Input::Raw(m) => Ok(Arc::new(csr_f64(m)?)),
        }
    }

    /// The square pattern of a graph algorithm.
    fn graph(&self, what: &str) -> PyResult<Arc<Csr<()>>> {
        let (r, c) = self.shape();
        if r != c {
            return Err(to_py(invalid(format!(
                "{what} needs a square matrix (a graph), and this one is {r} x {c}"
            ))));
        }
        match self {
            Input::Prepared(p) => Ok(p.get().pattern.clone()),
            Input::Raw(m) => Ok(Arc::new(csr_pattern(m)?)),
        }
    }
}

fn check_vertex(n: usize, v: u64, what: &str) -> Result<u32, Error> {
    if v < n as u64 {
        Ok(v as u32)
    } else {
        Err(invalid(format!("{what}: vertex {v} is not in the graph")))
    }
}

/// The values of a result matrix as numpy data.
trait OutScalar: edgeblas::algebra::Scalar {
    fn from_f64(x: f64) -> Self;
    fn accum(name: &str) -> Result<AccumFn<Self>, Error>;
    fn data<'py>(py: Python<'py>, v: Vec<Self>) -> Bound<'py, PyAny>;
}

type AccumFn<T> = Box<dyn Fn(T, T) -> T + Send + Sync>;

fn unknown_accum(name: &str, choices: &str) -> Error {
    invalid(format!(
        "unknown accumulator '{name}': expected one of {choices}"
    ))
}

impl OutScalar for f64 {
    fn from_f64(x: f64) -> f64 {
        x
    }
    fn accum(name: &str) -> Result<AccumFn<f64>, Error> {
        Ok(match name {
            "plus" => Box::new(|a, b| a + b),
            "minus" => Box::new(|a, b| a - b),
            "times" => Box::new(|a, b| a * b),
            "div" => Box::new(|a, b| a / b),
            // The monoids' operators, with their tie rule (-0.0 of two equal zeros).
            "min" => Box::new(|a, b| Min::<f64>::new().apply(a, b)),
            "max" => Box::new(|a, b| Max::<f64>::new().apply(a, b)),
            "first" => Box::new(|a, _| a),
            "second" => Box::new(|_, b| b),
            _ => {
                return Err(unknown_accum(
                    name,
                    "plus, minus, times, div, min, max, first, second",
                ));
            }
        })
    }
    fn data<'py>(py: Python<'py>, v: Vec<f64>) -> Bound<'py, PyAny> {
        PyArray1::from_vec(py, v).into_any()
    }
}

impl OutScalar for bool {
    fn from_f64(x: f64) -> bool {
        x != 0.0
    }
    fn accum(name: &str) -> Result<AccumFn<bool>, Error> {
        Ok(match name {
            "lor" | "plus" | "max" => Box::new(|a, b| a | b),
            "land" | "times" | "min" => Box::new(|a, b| a & b),
            "lxor" => Box::new(|a, b| a ^ b),
            "first" => Box::new(|a, _| a),
            "second" => Box::new(|_, b| b),
            _ => return Err(unknown_accum(name, "lor, land, lxor, first, second")),
        })
    }
    fn data<'py>(py: Python<'py>, v: Vec<bool>) -> Bound<'py, PyAny> {
        PyArray1::from_vec(py, v).into_any()
    }
}

impl OutScalar for u32 {
    fn from_f64(x: f64) -> u32 {
        x as u32
    }
    fn accum(name: &str) -> Result<AccumFn<u32>, Error> {
        Ok(match name {
            "min" => Box::new(u32::min),
            "max" => Box::new(u32::max),
            "plus" => Box::new(u32::wrapping_add),
            "first" => Box::new(|a, _| a),
            "second" => Box::new(|_, b| b),
            _ => return Err(unknown_accum(name, "min, max, plus, first, second")),
        })
    }
    fn data<'py>(py: Python<'py>, v: Vec<u32>) -> Bound<'py, PyAny> {
        let v: Vec<i64> = v.into_iter().map(i64::from).collect();
        PyArray1::from_vec(py, v).into_any()
    }
}

/// A result matrix as `(nrows, ncols, indptr, indices, data)`: `indptr` as uint64 and
/// `indices` as uint32 over the Rust buffers (the package views them as int64/int32).
fn matrix_out<'py, T: OutScalar>(py: Python<'py>, c: Csr<T>) -> PyResult<Bound<'py, PyTuple>> {
    let (nrows, ncols, offsets, indices, values) = c.into_parts();
    let items: Vec<Bound<'py, PyAny>> = vec![
        nrows.into_pyobject(py)?.into_any(),
        ncols.into_pyobject(py)?.into_any(),
        PyArray1::from_vec(py, offsets).into_any(),
        PyArray1::from_vec(py, indices).into_any(),
        T::data(py, values),
    ];
    PyTuple::new(py, items)
}

fn pattern_out<'py>(py: Python<'py>, c: Csr<()>) -> PyResult<Bound<'py, PyTuple>> {
    let (nrows, ncols, offsets, indices, _) = c.into_parts();
    let items: Vec<Bound<'py, PyAny>> = vec![
        nrows.into_pyobject(py)?.into_any(),
        ncols.into_pyobject(py)?.into_any(),
        PyArray1::from_vec(py, offsets).into_any(),
        PyArray1::from_vec(py, indices).into_any(),
        py.None().into_bound(py),
    ];
    PyTuple::new(py, items)
}

/// A result of one of three value types.
enum AnyCsr {
    F(Csr<f64>),
    B(Csr<bool>),
    I(Csr<u32>),
}

impl AnyCsr {
    fn into_py(self, py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        match self {
            AnyCsr::F(c) => matrix_out(py, c),
            AnyCsr::B(c) => matrix_out(py, c),
            AnyCsr::I(c) => matrix_out(py, c),
        }
    }
}

/// What `mxm` does besides the product.
struct MxmArgs<'a> {
    mask: Option<&'a Csr<f64>>,
    complement: bool,
    structural: bool,
    accum: Option<&'a str>,
    c: Option<&'a Csr<f64>>,
}

fn mxm_with<S, T>(s: S, a: &Csr<f64>, b: &Csr<f64>, x: &MxmArgs<'_>) -> Result<Csr<T>, Error>
where
    S: Semiring<f64, f64, Output = T>,
    T: OutScalar,
{
    let mut out = match x.c {
        Some(c) => c.map(T::from_f64),
        None => Csr::empty(a.nrows(), b.ncols()),
    };
    let mask = x.mask.map(|m| {
        let mm = if x.structural {
            MatrixMask::structure(m)
        } else {
            MatrixMask::values(m)
        };
        if x.complement { mm.complement() } else { mm }
    });
    let acc = x.accum.map(T::accum).transpose()?;
    let acc_ref = acc.as_ref().map(|f| f as &dyn BinaryOp<T, T, Output = T>);
    ops::mxm(
        &mut out,
        mask.as_ref(),
        acc_ref,
        s,
        a,
        b,
        &MatrixDescriptor::DEFAULT,
    );
    Ok(out)
}

/// The built-in semirings by name.
const SEMIRINGS: &str = "plus_times, min_plus, max_plus, max_times, min_max, plus_pair, \
     plus_first, plus_second, min_first, min_second, max_first, max_second, lor_land \
     (or_and), any_pair, min_secondi, any_secondi";

fn check_semiring(name: &str) -> Result<(), Error> {
    if SEMIRINGS.split([',', ' ', '(', ')']).any(|s| s == name) {
        Ok(())
    } else {
        Err(invalid(format!(
            "unknown semiring '{name}': expected one of {SEMIRINGS}"
        )))
    }
}

fn mxm_named(name: &str, a: &Csr<f64>, b: &Csr<f64>, x: &MxmArgs<'_>) -> Result<AnyCsr, Error> {
    use AnyCsr::{B, F, I};
    Ok(match name {
        "plus_times" => F(mxm_with(PlusTimes::<f64>::new(), a, b, x)?),
        "min_plus" => F(mxm_with(MinPlus::<f64>::new(), a, b, x)?),
        "max_plus" => F(mxm_with(MaxPlus::<f64>::new(), a, b, x)?),
        "max_times" => F(mxm_with(MaxTimes::<f64>::new(), a, b, x)?),
        "min_max" => F(mxm_with(MinMax::<f64>::new(), a, b, x)?),
        "plus_pair" => F(mxm_with(PlusPair::<f64>::new(), a, b, x)?),
        "plus_first" => F(mxm_with(PlusFirst::<f64>::new(), a, b, x)?),
        "plus_second" => F(mxm_with(PlusSecond::<f64>::new(), a, b, x)?),
        "min_first" => F(mxm_with(MinFirst::<f64>::new(), a, b, x)?),
        "min_second" => F(mxm_with(MinSecond::<f64>::new(), a, b, x)?),
        "max_first" => F(mxm_with(MaxFirst::<f64>::new(), a, b, x)?),
        "max_second" => F(mxm_with(MaxSecond::<f64>::new(), a, b, x)?),
        "lor_land" | "or_and" => B(mxm_with(OrAnd, a, b, x)?),
        "any_pair" => B(mxm_with(AnyPair, a, b, x)?),
        "min_secondi" => I(mxm_with(MinSecondI, a, b, x)?),
        "any_secondi" => I(mxm_with(AnySecondI, a, b, x)?),
        _ => {
            check_semiring(name)?;
            unreachable!()
        }
    })
}

/// `C<M> = C (accum) A (+).(x) B` over a named semiring.
#[pyfunction]
#[pyo3(signature = (a, b, semiring, mask=None, complement=false, structural=true, accum=None, c=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn mxm<'py>(
    py: Python<'py>,
    a: Input<'py>,
    b: Input<'py>,
    semiring: &str,
    mask: Option<Input<'py>>,
    complement: bool,
    structural: bool,
    accum: Option<&str>,
    c: Option<Input<'py>>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    check_semiring(semiring).map_err(to_py)?;
    let (sa, sb) = (a.shape(), b.shape());
    if sa.1 != sb.0 {
        return Err(to_py(invalid(format!(
            "mxm: A is {} x {} and B is {} x {}: A's columns must match B's rows",
            sa.0, sa.1, sb.0, sb.1
        ))));
    }
    for (what, m) in [("mask", &mask), ("C", &c)] {
        if let Some(m) = m.as_ref().map(Input::shape)
            && m != (sa.0, sb.1)
        {
            return Err(to_py(invalid(format!(
                "mxm: {what} is {} x {}, but A B is {} x {}",
                m.0, m.1, sa.0, sb.1
            ))));
        }
    }
    let (ca, cb) = (a.values()?, b.values()?);
    let cm = mask.as_ref().map(Input::values).transpose()?;
    let cc = c.as_ref().map(Input::values).transpose()?;
    let out = run(py, threads, || {
        mxm_named(
            semiring,
            &ca,
            &cb,
            &MxmArgs {
                mask: cm.as_deref(),
                complement,
                structural,
                accum,
                c: cc.as_deref(),
            },
        )
    })?;
    out.into_py(py)
}

/// A binary operator on float64 by name (ewise and apply with a bound scalar).
fn binary_op(name: &str) -> Result<fn(f64, f64) -> f64, Error> {
    Ok(match name {
        "plus" => |x, y| x + y,
        "minus" => |x, y| x - y,
        "rminus" => |x, y| y - x,
        "times" => |x, y| x * y,
        "div" => |x, y| x / y,
        "rdiv" => |x, y| y / x,
        "min" => |x, y| Min::<f64>::new().apply(x, y),
        "max" => |x, y| Max::<f64>::new().apply(x, y),
        "first" => |x, _| x,
        "second" => |_, y| y,
        "pair" | "oneb" => |_, _| 1.0,
        "pow" => f64::powf,
        "eq" => |x, y| f64::from(u8::from(x == y)),
        "ne" => |x, y| f64::from(u8::from(x != y)),
        "lt" => |x, y| f64::from(u8::from(x < y)),
        "le" => |x, y| f64::from(u8::from(x <= y)),
        "gt" => |x, y| f64::from(u8::from(x > y)),
        "ge" => |x, y| f64::from(u8::from(x >= y)),
        "lor" => |x, y| f64::from(u8::from(x != 0.0 || y != 0.0)),
        "land" => |x, y| f64::from(u8::from(x != 0.0 && y != 0.0)),
        "lxor" => |x, y| f64::from(u8::from((x != 0.0) != (y != 0.0))),
        _ => {
            return Err(invalid(format!(
                "unknown operator '{name}': expected one of plus, minus, rminus, times, div, \
                 rdiv, min, max, first, second, pair, pow, eq, ne, lt, le, gt, ge, lor, land, \
                 lxor"
            )));
        }
    })
}

fn same_shape(a: &RawMatrix<'_>, b: &RawMatrix<'_>, what: &str) -> PyResult<()> {
    if (a.0, a.1) != (b.0, b.1) {
        return Err(to_py(invalid(format!(
            "{what}: A is {} x {} and B is {} x {}: the shapes must match",
            a.0, a.1, b.0, b.1
        ))));
    }
    Ok(())
}

/// Union of the two patterns; `op` where both hold an entry.
#[pyfunction]
#[pyo3(signature = (a, b, op="plus"))]
fn ewise_add<'py>(
    py: Python<'py>,
    a: RawMatrix<'py>,
    b: RawMatrix<'py>,
    op: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    same_shape(&a, &b, "ewise_add")?;
    let f = binary_op(op).map_err(to_py)?;
    let (ca, cb) = (csr_f64(&a)?, csr_f64(&b)?);
    let out = run(py, None, || {
        let mut c = Csr::empty(ca.nrows(), ca.ncols());
        ops::ewise_add_matrix(&mut c, None, None, &f, &ca, &cb, &MatrixDescriptor::DEFAULT);
        Ok(c)
    })?;
    matrix_out(py, out)
}

/// Intersection of the two patterns, values `op(a, b)`.
#[pyfunction]
#[pyo3(signature = (a, b, op="times"))]
fn ewise_mult<'py>(
    py: Python<'py>,
    a: RawMatrix<'py>,
    b: RawMatrix<'py>,
    op: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    same_shape(&a, &b, "ewise_mult")?;
    let f = binary_op(op).map_err(to_py)?;
    let (ca, cb) = (csr_f64(&a)?, csr_f64(&b)?);
    let out = run(py, None, || {
        let mut c = Csr::empty(ca.nrows(), ca.ncols());
        ops::ewise_mult_matrix(&mut c, None, None, &f, &ca, &cb, &MatrixDescriptor::DEFAULT);
        Ok(c)
    })?;
    matrix_out(py, out)
}

fn unary_op(name: &str) -> Result<fn(f64) -> f64, Error> {
    Ok(match name {
        "identity" => |x| x,
        "abs" => f64::abs,
        "ainv" | "neg" => |x| -x,
        "minv" => |x| 1.0 / x,
        "one" => |_| 1.0,
        "lnot" => |x| f64::from(u8::from(x == 0.0)),
        "sqrt" => f64::sqrt,
        "exp" => f64::exp,
        "log" => f64::ln,
        _ => {
            return Err(invalid(format!(
                "unknown operator '{name}': expected one of identity, abs, ainv, minv, one, \
                 lnot, sqrt, exp, log, rowindex, colindex, diagindex, or a binary operator \
                 with left= or right="
            )));
        }
    })
}

/// A column (an `n x 1` matrix, as the package passes a Vector) as the vector it is.
fn column_vector(c: &Csr<f64>) -> edgeblas::vector::Vector<f64> {
    edgeblas::vector::Vector::from_pairs(c.nrows(), c.iter().map(|(i, _, x)| (i as u32, x)))
}

/// A vector as the `n x 1` column the package reads back.
fn vector_column<T: edgeblas::algebra::Scalar>(v: &edgeblas::vector::Vector<T>) -> Csr<T> {
    let pairs = v.to_pairs();
    let mut offsets = vec![0u64; v.len() + 1];
    for &(i, _) in &pairs {
        offsets[i as usize + 1] = 1;
    }
    for i in 0..v.len() {
        offsets[i + 1] += offsets[i];
    }
    let (indices, values) = pairs.into_iter().map(|(_, x)| (0, x)).unzip();
    Csr::new_checked(v.len(), 1, offsets, indices, values).expect("a column's arrays")
}

/// An index-unary operator `f(i, j, x)` with a float64 value.
type IndexOp = Box<dyn Fn(u32, u32, f64) -> f64 + Send + Sync>;

/// An index-unary operator by name (GrB_ROWINDEX, GrB_COLINDEX, GrB_DIAGINDEX), its
/// integer value as float64.
fn index_op(name: &str, k: i64) -> Option<IndexOp> {
    fn boxed(f: impl Fn(u32, u32, f64) -> i64 + Send + Sync + 'static) -> IndexOp {
        Box::new(move |i, j, x| f(i, j, x) as f64)
    }
    Some(match name {
        "rowindex" => boxed(ops::rowindex(k)),
        "colindex" => boxed(ops::colindex(k)),
        "diagindex" => boxed(ops::diagindex(k)),
        _ => return None,
    })
}

/// `f(x)` on every entry: a unary operator, a binary one with a bound scalar, or an
/// index-unary one (`f(i, j, x)`, with `thunk`). `vector=True`: `a` is a Vector as its
/// `n x 1` column, applied to as a vector (GrB_Vector_apply: `v(i)` at row `i`, column 0).
#[pyfunction]
#[pyo3(signature = (a, op, left=None, right=None, thunk=None, vector=false))]
#[allow(clippy::too_many_arguments)]
fn apply<'py>(
    py: Python<'py>,
    a: RawMatrix<'py>,
    op: &str,
    left: Option<f64>,
    right: Option<f64>,
    thunk: Option<i64>,
    vector: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let ca = csr_f64(&a)?;
    if let Some(g) = index_op(op, thunk.unwrap_or(0)) {
        if left.is_some() || right.is_some() {
            return Err(to_py(invalid(format!(
                "apply: {op} takes thunk=, not left= or right="
            ))));
        }
        let out = run(py, None, || {
            if vector {
                let u = column_vector(&ca);
                let mut w = edgeblas::vector::Vector::new(u.len());
                let d = Default::default();
                ops::apply_indexed(&mut w, None, None, ops::column(&g), &u, &d);
                return Ok(vector_column(&w));
            }
            let mut c = Csr::empty(ca.nrows(), ca.ncols());
            ops::apply_matrix_indexed(&mut c, None, None, &g, &ca, &MatrixDescriptor::DEFAULT);
            Ok(c)
        })?;
        return matrix_out(py, out);
    }
    if thunk.is_some() {
        return Err(to_py(invalid(format!(
            "apply: thunk= goes with rowindex, colindex or diagindex, not {op}"
        ))));
    }
    let f: Box<dyn Fn(f64) -> f64 + Send + Sync> = match (left, right) {
        (None, None) => Box::new(unary_op(op).map_err(to_py)?),
        (Some(l), None) => {
            let b = binary_op(op).map_err(to_py)?;
            Box::new(move |x| b(l, x))
        }
        (None, Some(r)) => {
            let b = binary_op(op).map_err(to_py)?;
            Box::new(move |x| b(x, r))
        }
        (Some(_), Some(_)) => {
            return Err(to_py(invalid("apply: give left= or right=, not both")));
        }
    };
    let out = run(py, None, || {
        let mut c = Csr::empty(ca.nrows(), ca.ncols());
        ops::apply_matrix(&mut c, None, None, &f, &ca, &MatrixDescriptor::DEFAULT);
        Ok(c)
    })?;
    matrix_out(py, out)
}

/// Keeps the entries a named predicate accepts. `vector=True`: `a` is a Vector as its
/// `n x 1` column, selected from as a vector (GrB_Vector_select: `v(i)` at row `i`,
/// column 0).
#[pyfunction]
#[pyo3(signature = (a, op, thunk=0.0, vector=false))]
fn select<'py>(
    py: Python<'py>,
    a: RawMatrix<'py>,
    op: &str,
    thunk: f64,
    vector: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let ca = csr_f64(&a)?;
    let k = thunk as i64;
    let keep: Box<dyn Fn(u32, u32, f64) -> bool + Send + Sync> = match op {
        "tril" => Box::new(ops::tril(k)),
        "triu" => Box::new(ops::triu(k)),
        "diag" => Box::new(ops::diag(k)),
        "offdiag" => Box::new(ops::offdiag(k)),
        "value_eq" | "valueeq" | "eq" => Box::new(ops::value_eq(thunk)),
        "value_ne" | "valuene" | "ne" => Box::new(ops::value_ne(thunk)),
        "value_gt" | "valuegt" | "gt" => Box::new(ops::value_gt(thunk)),
        "value_ge" | "valuege" | "ge" => Box::new(ops::value_ge(thunk)),
        "value_lt" | "valuelt" | "lt" => Box::new(ops::value_lt(thunk)),
        "value_le" | "valuele" | "le" => Box::new(ops::value_le(thunk)),
        "nonzero" => Box::new(|_, _, x| x != 0.0),
        _ => {
            return Err(to_py(invalid(format!(
                "unknown select operator '{op}': expected one of tril, triu, diag, offdiag, \
                 value_eq, value_ne, value_gt, value_ge, value_lt, value_le, nonzero"
            ))));
        }
    };
    let out = run(py, None, || {
        if vector {
            let u = column_vector(&ca);
            let mut w = edgeblas::vector::Vector::new(u.len());
            let d = Default::default();
            ops::select(&mut w, None, None, ops::column(&keep), &u, &d);
            return Ok(vector_column(&w));
        }
        let mut c = Csr::empty(ca.nrows(), ca.ncols());
        ops::select_matrix(&mut c, None, None, &keep, &ca, &MatrixDescriptor::DEFAULT);
        Ok(c)
    })?;
    matrix_out(py, out)
}

fn monoid_error(name: &str) -> Error {
    invalid(format!(
        "unknown monoid '{name}': expected one of plus, times, min, max, lor, land, any"
    ))
}

/// Row sums over a named monoid: `(row indices, values)` of the rows that hold entries.
fn rows_reduced(a: &Csr<f64>, name: &str) -> Result<(Vec<i64>, Vec<f64>), Error> {
    fn go<M: Monoid<f64>>(m: M, a: &Csr<f64>) -> (Vec<i64>, Vec<f64>) {
        let mut w = edgeblas::vector::Vector::new(a.nrows());
        ops::reduce_rows(&mut w, None, None, m, a, &Default::default());
        w.to_pairs()
            .into_iter()
            .map(|(i, x)| (i64::from(i), x))
            .unzip()
    }
    let truth = |a: &Csr<f64>| a.map(|x| f64::from(u8::from(x != 0.0)));
    Ok(match name {
        "plus" => go(Plus::<f64>::new(), a),
        "times" => go(Times::<f64>::new(), a),
        "min" => go(Min::<f64>::new(), a),
        "max" => go(Max::<f64>::new(), a),
        "lor" => go(Max::<f64>::new(), &truth(a)),
        "land" => go(Min::<f64>::new(), &truth(a)),
        "any" => go(edgeblas::algebra::Any::<f64>::new(), a),
        _ => return Err(monoid_error(name)),
    })
}

/// Each row (`columns=False`) or column reduced by a monoid, as `(indices, values)`.
#[pyfunction]
#[pyo3(signature = (a, monoid="plus", columns=false))]
fn reduce_vector<'py>(
    py: Python<'py>,
    a: RawMatrix<'py>,
    monoid: &str,
    columns: bool,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let ca = csr_f64(&a)?;
    let (i, x) = run(py, None, || {
        if columns {
            rows_reduced(&ca.transpose(), monoid)
        } else {
            rows_reduced(&ca, monoid)
        }
    })?;
    Ok((
        PyArray1::from_vec(py, i).into_any(),
        PyArray1::from_vec(py, x).into_any(),
    ))
}

/// Every entry reduced by a monoid (its identity when there is none).
#[pyfunction]
#[pyo3(signature = (a, monoid="plus"))]
fn reduce_scalar(py: Python<'_>, a: RawMatrix<'_>, monoid: &str) -> PyResult<f64> {
    let ca = csr_f64(&a)?;
    run(py, None, || {
        let t = |a: &Csr<f64>| a.map(|x| f64::from(u8::from(x != 0.0)));
        Ok(match monoid {
            "plus" => ops::reduce_matrix(Plus::<f64>::new(), &ca),
            "times" => ops::reduce_matrix(Times::<f64>::new(), &ca),
            "min" => ops::reduce_matrix(Min::<f64>::new(), &ca),
            "max" => ops::reduce_matrix(Max::<f64>::new(), &ca),
            "lor" => ops::reduce_matrix(Max::<f64>::new(), &t(&ca)).max(0.0),
            "land" => {
                if ca.nnz() == 0 {
                    1.0
                } else {
                    ops::reduce_matrix(Min::<f64>::new(), &t(&ca))
                }
            }
            "any" => ca.values().first().copied().unwrap_or(0.0),
            _ => return Err(monoid_error(monoid)),
        })
    })
}

/// `A'`.
#[pyfunction]
fn transpose<'py>(py: Python<'py>, a: RawMatrix<'py>) -> PyResult<Bound<'py, PyTuple>> {
    let ca = csr_f64(&a)?;
    let out = run(py, None, || {
        let mut c = Csr::empty(ca.ncols(), ca.nrows());
        ops::transpose(&mut c, None, None, &ca, &MatrixDescriptor::DEFAULT);
        Ok(c)
    })?;
    matrix_out(py, out)
}

fn index_list(v: Option<Bound<'_, PyAny>>, n: usize, what: &str) -> PyResult<Option<Vec<u32>>> {
    let Some(v) = v else { return Ok(None) };
    let l = u32s(&v, what)?;
    if let Some(k) = l.iter().position(|&i| i as usize >= n) {
        return Err(to_py(invalid(format!(
            "{what}[{k}] = {} is out of range for dimension {n}",
            l[k]
        ))));
    }
    Ok(Some(l))
}

/// `A(I, J)`; `None` takes every row or column.
#[pyfunction]
#[pyo3(signature = (a, rows=None, cols=None))]
fn extract<'py>(
    py: Python<'py>,
    a: RawMatrix<'py>,
    rows: Option<Bound<'py, PyAny>>,
    cols: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let r = index_list(rows, a.0, "rows")?;
    let c = index_list(cols, a.1, "cols")?;
    let ca = csr_f64(&a)?;
    let out = run(py, None, || {
        let ri = r.as_deref().map_or(Indices::All, Indices::List);
        let ci = c.as_deref().map_or(Indices::All, Indices::List);
        let mut out = Csr::empty(ri.count(ca.nrows()), ci.count(ca.ncols()));
        ops::extract_matrix(
            &mut out,
            None,
            None,
            &ca,
            &ri,
            &ci,
            &MatrixDescriptor::DEFAULT,
        );
        Ok(out)
    })?;
    matrix_out(py, out)
}

fn policy(name: &str) -> Result<Box<dyn Policy>, Error> {
    Ok(match name {
        "beamer" => Box::new(Beamer::default()),
        "gunrock" => Box::new(Gunrock::default()),
        "ligra" => Box::new(Ligra::default()),
        "xbfs" => Box::new(Xbfs::default()),
        "push" => Box::new(Push),
        "pull" => Box::new(Pull),
        _ => {
            return Err(invalid(format!(
                "policy='{name}': expected beamer, gunrock, ligra, xbfs, push or pull"
            )));
        }
    })
}

fn unreached(v: Vec<u32>) -> Vec<i64> {
    v.into_iter()
        .map(|x| if x == u32::MAX { -1 } else { i64::from(x) })
        .collect()
}

/// The algorithms' view of a pattern: symmetric when the caller said so (an undirected
/// `Graph`, `symmetric=True`), its symmetry found on first need otherwise.
fn graph_of(a: &Csr<()>, known_symmetric: bool) -> Graph<'_, ()> {
    if known_symmetric {
        Graph::symmetric(a)
    } else {
        Graph::new(a)
    }
}

/// Whether `backend` is "cuda" (else "cpu"; anything else is an error naming it).
fn on_cuda(backend: &str) -> PyResult<bool> {
    match backend {
        "cpu" => Ok(false),
        "cuda" => Ok(true),
        b => Err(to_py(invalid(format!(
            "backend={b:?}: expected 'cpu' or 'cuda'"
        )))),
    }
}

/// The first GPU, for `backend="cuda"`: the library's error, naming the parameter, when
/// this build has no CUDA (the wheel's default; build with the `cuda` feature) or the
/// machine no GPU.
fn open_gpu() -> Result<edgeblas::cuda::Gpu, Error> {
    edgeblas::cuda::Gpu::new(0).map_err(|e| invalid(format!("backend='cuda': {e}")))
}

/// Breadth-first search from `source`: `(levels, parents)`, -1 where unreached.
#[pyfunction]
#[pyo3(signature = (a, source, policy="beamer", symmetric=false, threads=None, backend="cpu"))]
#[allow(clippy::too_many_arguments)]
fn bfs<'py>(
    py: Python<'py>,
    a: Input<'py>,
    source: u64,
    policy: &str,
    symmetric: bool,
    threads: Option<usize>,
    backend: &str,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let cuda = on_cuda(backend)?;
    let g = a.graph("bfs")?;
    let symmetric = symmetric || a.known_symmetric();
    let p = self::policy(policy).map_err(to_py)?;
    let s = check_vertex(g.nrows(), source, "source").map_err(to_py)?;
    let (levels, parents) = run(py, threads, || {
        let bg = if symmetric {
            Graph::symmetric(&g)
        } else {
            Graph::detect(&g)
        };
        let r = if cuda {
            let gpu = open_gpu()?;
            let d = edgeblas::cuda::DeviceBfsGraph::new(&gpu, &bg)?;
            edgeblas::cuda::bfs(&d, &[s], p.as_ref(), &BfsOptions::default())?
        } else {
            algo::bfs::bfs(&bg, &[s], p.as_ref(), &BfsOptions::default())?
        };
        Ok((unreached(r.levels), unreached(r.parents)))
    })?;
    Ok((
        PyArray1::from_vec(py, levels).into_any(),
        PyArray1::from_vec(py, parents).into_any(),
    ))
}

/// Single-source shortest paths: float64 distances, inf where unreached.
#[pyfunction]
#[pyo3(signature = (a, source, method="auto", delta=None, threads=None, backend="cpu"))]
#[allow(clippy::too_many_arguments)]
fn sssp<'py>(
    py: Python<'py>,
    a: Input<'py>,
    source: u64,
    method: &str,
    delta: Option<f64>,
    threads: Option<usize>,
    backend: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let cuda = on_cuda(backend)?;
    let (r, c) = a.shape();
    if r != c {
        return Err(to_py(invalid(format!(
            "sssp needs a square matrix (a graph), and this one is {r} x {c}"
        ))));
    }
    let w = a.values()?;
    let s = check_vertex(w.nrows(), source, "source").map_err(to_py)?;
    if let Some(d) = delta
        && !(d > 0.0 && d.is_finite())
    {
        return Err(to_py(invalid(format!("delta={d}: not a positive number"))));
    }
    let negative = w.values().iter().any(|&x| x < 0.0);
    let delta_stepping = match method {
        "auto" => !negative,
        "delta-stepping" | "delta_stepping" => {
            if negative {
                return Err(to_py(invalid(
                    "method='delta-stepping': the matrix has a negative weight (use \
                     method='bellman-ford')",
                )));
            }
            true
        }
        "bellman-ford" | "bellman_ford" => false,
        _ => {
            return Err(to_py(invalid(format!(
                "method='{method}': expected auto, delta-stepping or bellman-ford"
            ))));
        }
    };
    let d = run(py, threads, || {
        let sp = if delta_stepping {
            let d = delta.unwrap_or_else(|| default_delta(&w));
            if cuda {
                edgeblas::cuda::delta_stepping(&open_gpu()?, &Graph::directed(&w), s, d)?
            } else {
                delta_stepping_with(&Graph::directed(&w), s, d, false)?
            }
        } else if cuda {
            let gpu = open_gpu()?;
            let d = edgeblas::cuda::DeviceCsr::upload(&gpu, &w)?;
            edgeblas::cuda::bellman_ford(&d, s)?.map_err(|c| {
                invalid(format!(
                    "negative cycle reachable from source {source} through vertex {}",
                    c.vertex
                ))
            })?
        } else {
            bellman_ford_with(&Graph::directed(&w), s, false).map_err(|c| {
                invalid(format!(
                    "negative cycle reachable from source {source} through vertex {}",
                    c.vertex
                ))
            })?
        };
        Ok(sp.distances)
    })?;
    Ok(PyArray1::from_vec(py, d).into_any())
}

/// PageRank with the CLI's options: `iterations` fixes the count, otherwise it stops at
/// `tolerance` (L1 change) or after `max_iterations`.
#[pyfunction]
#[pyo3(signature = (a, damping=0.85, iterations=None, tolerance=1e-4, max_iterations=1000, symmetric=false, threads=None, precision="f64", backend="cpu"))]
#[allow(clippy::too_many_arguments)]
fn pagerank<'py>(
    py: Python<'py>,
    a: Input<'py>,
    damping: f64,
    iterations: Option<usize>,
    tolerance: f64,
    max_iterations: usize,
    symmetric: bool,
    threads: Option<usize>,
    precision: &str,
    backend: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let cuda = on_cuda(backend)?;
    let precision: algo::Precision = match precision {
        "f32" => algo::Precision::F32,
        "f64" => algo::Precision::F64,
        p => {
            return Err(to_py(invalid(format!(
                "precision={p:?}: expected 'f32' or 'f64'"
            ))));
        }
    };
    let g = a.graph("pagerank")?;
    let symmetric = symmetric || a.known_symmetric();
    let stop = match iterations {
        Some(k) => Stop::Iterations(k),
        None => Stop::Tolerance {
            tolerance,
            max_iterations,
        },
    };
    let opts = PageRankOptions { damping, stop };
    opts.check()
        .map_err(|e| match e {
            Error::InvalidArgument(m) if m.starts_with("iterations") && iterations.is_none() => {
                invalid(format!("max_{m}"))
            }
            Error::InvalidArgument(m) => invalid(m),
            e => e,
        })
        .map_err(to_py)?;
    let r = run(py, threads, || {
        let graph = graph_of(&g, symmetric);
        let pr = if cuda {
            edgeblas::cuda::pagerank(&open_gpu()?, &graph, &opts, precision)?
        } else {
            algo::pagerank_with(&graph, &opts, precision)?
        };
        Ok(pr.ranks)
    })?;
    Ok(PyArray1::from_vec(py, r).into_any())
}

fn labels_out(py: Python<'_>, v: Vec<u32>) -> Bound<'_, PyAny> {
    let v: Vec<i64> = v.into_iter().map(i64::from).collect();
    PyArray1::from_vec(py, v).into_any()
}

/// Weakly connected components: each vertex's smallest component member.
#[pyfunction]
#[pyo3(signature = (a, symmetric=false, threads=None, backend="cpu", method="auto"))]
fn wcc<'py>(
    py: Python<'py>,
    a: Input<'py>,
    symmetric: bool,
    threads: Option<usize>,
    backend: &str,
    method: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let cuda = on_cuda(backend)?;
    let m = match method {
        "auto" if cuda => WccMethod::FastSv,
        "auto" => WccMethod::Afforest,
        _ => WccMethod::from_name(method).map_err(|_| {
            to_py(invalid(format!(
                "method='{method}': expected 'afforest', 'fastsv' or 'auto'"
            )))
        })?,
    };
    if cuda && m != WccMethod::FastSv {
        return Err(to_py(invalid(format!(
            "method='{method}': backend='cuda' runs 'fastsv' only"
        ))));
    }
    let g = a.graph("wcc")?;
    let symmetric = symmetric || a.known_symmetric();
    let l = run(py, threads, || {
        let graph = graph_of(&g, symmetric);
        let c = if cuda {
            edgeblas::cuda::wcc(&open_gpu()?, &graph)?
        } else {
            algo::wcc_with(&graph, m)
        };
        Ok(c.labels)
    })?;
    Ok(labels_out(py, l))
}

/// Community detection by label propagation (Graphalytics CDLP).
#[pyfunction]
#[pyo3(signature = (a, iterations=10, symmetric=false, threads=None, backend="cpu"))]
fn cdlp<'py>(
    py: Python<'py>,
    a: Input<'py>,
    iterations: usize,
    symmetric: bool,
    threads: Option<usize>,
    backend: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let cuda = on_cuda(backend)?;
    let g = a.graph("cdlp")?;
    let symmetric = symmetric || a.known_symmetric();
    let l = run(py, threads, || {
        let graph = graph_of(&g, symmetric);
        Ok(if cuda {
            edgeblas::cuda::cdlp(&open_gpu()?, &graph, iterations)?
        } else {
            algo::cdlp(&graph, iterations)
        })
    })?;
    Ok(labels_out(py, l))
}

/// Local clustering coefficient (Graphalytics LCC).
#[pyfunction]
#[pyo3(signature = (a, symmetric=false, threads=None))]
fn lcc<'py>(
    py: Python<'py>,
    a: Input<'py>,
    symmetric: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let g = a.graph("lcc")?;
    let symmetric = symmetric || a.known_symmetric();
    let c = run(py, threads, || Ok(algo::lcc(&graph_of(&g, symmetric))))?;
    Ok(PyArray1::from_vec(py, c).into_any())
}

/// The number of triangles of an undirected (symmetric) graph.
#[pyfunction]
#[pyo3(signature = (a, method="auto", symmetric=false, threads=None, backend="cpu"))]
fn triangles(
    py: Python<'_>,
    a: Input<'_>,
    method: &str,
    symmetric: bool,
    threads: Option<usize>,
    backend: &str,
) -> PyResult<u64> {
    let cuda = on_cuda(backend)?;
    let g = a.graph("triangles")?;
    let symmetric = symmetric || a.known_symmetric();
    let m = TriangleMethod::from_name(method).map_err(|_| {
        to_py(invalid(format!(
            "method='{method}': expected sandia-ll, sandia-uu, burkhardt or auto"
        )))
    })?;
    run(py, threads, || {
        let graph = graph_of(&g, symmetric);
        if !graph.is_symmetric() {
            return Err(invalid(
                "the matrix: triangles counts the triangles of an undirected graph, and this one is \
                 directed (some arc has no reverse); symmetrize it (A + A.T) first",
            ));
        }
        Ok(if cuda {
            edgeblas::cuda::triangle_count(&open_gpu()?, &graph, m, Presort::Auto)?.triangles
        } else {
            algo::triangle_count(&graph, m, Presort::Auto).triangles
        })
    })
}

/// Betweenness centrality from the given sources (Brandes).
#[pyfunction]
#[pyo3(signature = (a, sources, symmetric=false, threads=None))]
fn betweenness<'py>(
    py: Python<'py>,
    a: Input<'py>,
    sources: Bound<'py, PyAny>,
    symmetric: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let g = a.graph("betweenness")?;
    let symmetric = symmetric || a.known_symmetric();
    let src = u64s(&sources, "sources")?
        .into_iter()
        .map(|v| check_vertex(g.nrows(), v, "sources"))
        .collect::<Result<Vec<u32>, Error>>()
        .map_err(to_py)?;
    let c = run(py, threads, || {
        Ok(algo::betweenness(&graph_of(&g, symmetric), &src))
    })?;
    Ok(PyArray1::from_vec(py, c).into_any())
}

/// A Chung-Lu graph from a degree sequence or a `(degree, count)` histogram.
#[pyfunction]
#[pyo3(signature = (degrees=None, histogram=None, seed=1, directed=false, coarsen=None, coarsen_cut=0.0, threads=None))]
#[allow(clippy::too_many_arguments)]
fn chung_lu<'py>(
    py: Python<'py>,
    degrees: Option<Bound<'py, PyAny>>,
    histogram: Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>,
    seed: u64,
    directed: bool,
    coarsen: Option<f64>,
    coarsen_cut: f64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let d = match (degrees, histogram) {
        (Some(d), None) => {
            let seq = u64s(&d, "degrees")?;
            if directed {
                Degrees::Directed {
                    out: seq.clone(),
                    inn: seq,
                }
            } else {
                Degrees::Sequence(seq)
            }
        }
        (None, Some((deg, count))) => {
            let deg = u64s(&deg, "degrees")?;
            let count = u64s(&count, "counts")?;
            if deg.len() != count.len() {
                return Err(to_py(invalid(format!(
                    "degrees has {} entries and counts {}: they must match",
                    deg.len(),
                    count.len()
                ))));
            }
            Degrees::Histogram(deg.into_iter().zip(count).collect())
        }
        _ => return Err(to_py(invalid("give degrees or a (degree, count) pair"))),
    };
    let g = run(py, threads, || {
        d.validate()?;
        let coarsen = coarsen.map(|c| Coarsen::new(c, coarsen_cut)).transpose()?;
        let plan = Plan::new(&d, &PlanOptions { coarsen, directed })?;
        Ok(cl::generate(&plan, seed))
    })?;
    pattern_out(py, g)
}

/// An R-MAT (Kronecker) graph of `2^scale` vertices.
#[pyfunction]
#[pyo3(signature = (scale, edge_factor=16, seed=1, undirected=true, a=0.57, b=0.19, c=0.19, permute=true, threads=None))]
#[allow(clippy::too_many_arguments)]
fn rmat<'py>(
    py: Python<'py>,
    scale: u32,
    edge_factor: u64,
    seed: u64,
    undirected: bool,
    a: f64,
    b: f64,
    c: f64,
    permute: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let r = Rmat {
        scale,
        edge_factor,
        a,
        b,
        c,
        seed,
        undirected,
        permute,
    };
    let g = run(py, threads, || r.generate())?;
    pattern_out(py, g)
}

fn format_of(f: Option<&str>) -> PyResult<Option<Format>> {
    f.map(Format::from_name).transpose().map_err(to_py)
}

/// Reads a graph file: `(matrix tuple, ids, directed)`.
#[pyfunction]
#[pyo3(signature = (path, format=None, undirected=false))]
fn read<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    format: Option<&str>,
    undirected: bool,
) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyAny>, bool)> {
    let format = format_of(format)?;
    let g = run(py, None, || {
        io::read_graph(
            &path,
            &ReadOptions {
                format,
                undirected,
                ..ReadOptions::default()
            },
        )
    })?;
    let n = g.vertices();
    let ids: Vec<u64> = match &g.ids {
        VertexIds::Offset(b) => (0..n as u64).map(|i| b + i).collect(),
        VertexIds::Explicit(v) => v.clone(),
    };
    let directed = g.directed;
    let m = match g.weights {
        Some(w) => {
            let (nr, nc, o, i, _) = g.adjacency.into_parts();
            matrix_out(py, Csr::new_checked(nr, nc, o, i, w).map_err(to_py)?)?
        }
        None => pattern_out(py, g.adjacency)?,
    };
    Ok((m, PyArray1::from_vec(py, ids).into_any(), directed))
}

/// Writes a matrix (weights unless `pattern`) with optional vertex ids.
#[pyfunction]
#[pyo3(signature = (path, a, ids=None, directed=true, pattern=false, format=None))]
fn write(
    py: Python<'_>,
    path: std::path::PathBuf,
    a: RawMatrix<'_>,
    ids: Option<Bound<'_, PyAny>>,
    directed: bool,
    pattern: bool,
    format: Option<&str>,
) -> PyResult<()> {
    square(&a, "write")?;
    let format = format_of(format)?;
    let w = csr_f64(&a)?;
    let ids = match ids {
        Some(i) => {
            let v = u64s(&i, "ids")?;
            if v.len() != w.nrows() {
                return Err(to_py(invalid(format!(
                    "ids has {} entries for {} vertices",
                    v.len(),
                    w.nrows()
                ))));
            }
            if v.windows(2).any(|p| p[0] >= p[1]) {
                return Err(to_py(invalid("ids must be strictly increasing")));
            }
            VertexIds::Explicit(v)
        }
        None => VertexIds::Offset(0),
    };
    let records = w.nnz() as u64;
    let (adjacency, weights) = (w.pattern(), (!pattern).then(|| w.values().to_vec()));
    let g = io::Graph {
        adjacency,
        value_type: match &weights {
            None => ValueType::Pattern,
            Some(w) if w.iter().all(|x| x.fract() == 0.0) => ValueType::Integer,
            Some(_) => ValueType::Real,
        },
        weights,
        ids,
        directed,
        records,
        duplicates: 0,
    };
    run(py, None, || io::write_graph(Path::new(&path), &g, format))
}

/// The compiled module.
#[pymodule]
fn _edgeblas(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mxm, m)?)?;
    m.add_function(wrap_pyfunction!(ewise_add, m)?)?;
    m.add_function(wrap_pyfunction!(ewise_mult, m)?)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(select, m)?)?;
    m.add_function(wrap_pyfunction!(reduce_vector, m)?)?;
    m.add_function(wrap_pyfunction!(reduce_scalar, m)?)?;
    m.add_function(wrap_pyfunction!(transpose, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(bfs, m)?)?;
    m.add_function(wrap_pyfunction!(sssp, m)?)?;
    m.add_function(wrap_pyfunction!(pagerank, m)?)?;
    m.add_function(wrap_pyfunction!(wcc, m)?)?;
    m.add_function(wrap_pyfunction!(cdlp, m)?)?;
    m.add_function(wrap_pyfunction!(lcc, m)?)?;
    m.add_function(wrap_pyfunction!(triangles, m)?)?;
    m.add_function(wrap_pyfunction!(betweenness, m)?)?;
    m.add_function(wrap_pyfunction!(chung_lu, m)?)?;
    m.add_function(wrap_pyfunction!(rmat, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(write, m)?)?;
    m.add_class::<Prepared>()?;
    m.add("SEMIRINGS", SEMIRINGS)?;
    Ok(())
}
