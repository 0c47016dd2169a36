"""edgeblas: graph algorithms as sparse linear algebra, from Python.

Matrices go in and come out as ``scipy.sparse.csr_array``; vectors are
:class:`Vector` (sparse: ``indices`` and ``values``; a column, as in GraphBLAS:
``v[i]`` is at row ``i``, column 0) or dense numpy arrays. A
square matrix's row ``i`` is vertex ``i``, and every result is indexed the same
way. Every algorithm runs with the GIL released; ``threads=None`` uses the
global pool (all cores), ``threads=k`` a pool of ``k`` workers.

Threads and Ctrl-C: with the GIL released, Python threads may call these
functions at once, on one shared :class:`Graph` too, and get what sequential
calls give. A ``KeyboardInterrupt`` (Ctrl-C) that arrives during a long call
is raised when the call returns, not in the middle of it: Python runs signal
handlers only between its own steps. The Graph is left as it was, usable.

Files that :func:`write` makes appear whole or not at all (a temporary file
beside the destination, renamed into place once written and synced).

Copies: every input matrix is copied once into the library's own CSR arrays
(u64 row offsets, u32 column indices, float64 values); a scipy matrix at every
call, a :class:`Graph` once (it keeps the copy for the algorithms and ``mxm``); index arrays of dtype
int32 or int64 are read in place for that copy, other index dtypes, bool or
integer data and non-CSR scipy formats are converted first (one more copy).
Results are numpy arrays that own the Rust buffers, with no copy: a result
matrix's ``indices`` are the Rust u32 array viewed as int32 (int64, copied, when
a dimension exceeds 2^31 - 1), its ``indptr`` the u64 array viewed as int64
(scipy may narrow it to int32, a copy of ``nrows + 1`` entries).

Bad input raises ``ValueError`` (or ``TypeError`` for a wrong kind of object,
``FileNotFoundError`` for a missing file) with the message the ``edgeblas``
command line prints.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from . import _edgeblas as _ext

__all__ = [
    "Graph",
    "Vector",
    "read",
    "write",
    "mxm",
    "mxv",
    "vxm",
    "ewise_add",
    "ewise_mult",
    "apply",
    "select",
    "reduce_rows",
    "reduce_columns",
    "reduce_scalar",
    "transpose",
    "extract",
    "bfs",
    "sssp",
    "pagerank",
    "wcc",
    "cdlp",
    "lcc",
    "triangles",
    "betweenness",
    "chung_lu",
    "rmat",
    "plot_degrees",
    "SEMIRINGS",
]

#: The built-in semiring names, as one string.
SEMIRINGS = _ext.SEMIRINGS

_I32_MAX = np.iinfo(np.int32).max


class Graph:
    """A graph: its adjacency ``matrix`` (``csr_array``; ``matrix[i, j]`` is the
    weight of arc ``i -> j``), the vertex ``ids`` as written in the file (row
    ``i`` is vertex ``ids[i]``) and whether it is ``directed`` (an undirected
    graph stores each edge as two arcs)."""

    def __init__(self, matrix, ids=None, directed=True, weighted=True,
                 _symmetric_checked=False):
        m = _csr(matrix)
        if m.shape[0] != m.shape[1]:
            raise ValueError(
                f"a graph needs a square matrix, and this one is {m.shape[0]} x {m.shape[1]}"
            )
        self.matrix = m
        if ids is None:
            ids = np.arange(m.shape[0], dtype=np.int64)
        else:
            ids = np.asarray(ids)
            if ids.ndim != 1 or ids.shape[0] != m.shape[0]:
                raise ValueError(
                    f"ids has {ids.size} entries for {m.shape[0]} vertices"
                )
        self.ids = ids
        self.directed = bool(directed)
        if not self.directed and not _symmetric_checked:
            p = sp.csr_array(m, dtype=bool, copy=True)
            if (p != p.T).nnz:
                raise ValueError(
                    "an undirected graph needs a symmetric matrix (some arc has no "
                    "reverse): symmetrize it (A + A.T) first"
                )
        self.weighted = bool(weighted)

    @classmethod
    def from_scipy(cls, A, ids=None, directed=True):
        """The graph of a square scipy.sparse matrix or array (``A[i, j]`` = arc
        ``i -> j``), with optional vertex ids."""
        return cls(A, ids=ids, directed=directed)

    def _prepared(self):
        """The library's copy of the matrix, made at the first call that needs it and
        kept (with its symmetry test): later calls on this Graph copy nothing. Assign
        a new ``matrix`` rather than changing it in place."""
        cached = self.__dict__.get("_cache")
        if cached is None or cached[0] is not self.matrix:
            handle = _ext.Prepared(_raw(self.matrix), None if self.directed else True)
            cached = (self.matrix, handle)
            self._cache = cached
        return cached[1]

    @property
    def vertices(self) -> int:
        """The number of vertices."""
        return self.matrix.shape[0]

    @property
    def arcs(self) -> int:
        """The number of stored arcs (an undirected edge counts twice)."""
        return self.matrix.nnz

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        return f"<edgeblas.Graph {kind}, {self.vertices} vertices, {self.arcs} arcs>"


class Vector:
    """A sparse vector of ``size`` entries: sorted ``indices`` (int64) and their
    ``values``."""

    def __init__(self, indices, values, size):
        self.indices = np.asarray(indices, dtype=np.int64)
        self.values = np.asarray(values)
        self.size = int(size)

    @classmethod
    def from_dense(cls, array, missing=None):
        """Every entry of a 1-D array, or those that differ from ``missing``
        (``missing=nan`` drops the NaNs)."""
        a = np.asarray(array)
        if a.ndim != 1:
            raise ValueError(f"from_dense: expected a 1-D array, got {a.ndim} dimensions")
        if missing is None:
            keep = np.arange(a.shape[0], dtype=np.int64)
        elif isinstance(missing, float) and np.isnan(missing):
            keep = np.flatnonzero(~np.isnan(a))
        else:
            keep = np.flatnonzero(a != missing)
        return cls(keep, a[keep], a.shape[0])

    @classmethod
    def from_coo(cls, indices, values, size):
        """The vector with ``values[k]`` at ``indices[k]``; indices in any order,
        no repeats, each below ``size``."""
        i = np.asarray(indices, dtype=np.int64)
        v = np.asarray(values)
        if v.ndim == 0:
            v = np.full(i.shape[0], v)
        if i.ndim != 1 or v.shape != i.shape:
            raise ValueError(
                f"from_coo: {i.size} indices and {v.size} values: they must match"
            )
        size = int(size)
        if i.size and (i.min() < 0 or i.max() >= size):
            bad = i[(i < 0) | (i >= size)][0]
            raise ValueError(f"from_coo: index {bad} is out of range for size {size}")
        order = np.argsort(i, kind="stable")
        i, v = i[order], v[order]
        if i.size > 1 and np.any(i[1:] == i[:-1]):
            dup = i[1:][i[1:] == i[:-1]][0]
            raise ValueError(f"from_coo: duplicate index {dup}")
        return cls(i, v, size)

    @property
    def nvals(self) -> int:
        """The number of stored entries."""
        return int(self.indices.shape[0])

    def to_dense(self, fill=0):
        """A dense numpy array, ``fill`` where no entry is stored."""
        dtype = np.result_type(self.values.dtype, np.asarray(fill).dtype)
        out = np.full(self.size, fill, dtype=dtype)
        out[self.indices] = self.values
        return out

    def __len__(self):
        return self.size

    def __eq__(self, other):
        return (
            isinstance(other, Vector)
            and self.size == other.size
            and np.array_equal(self.indices, other.indices)
            and np.array_equal(self.values, other.values)
        )

    def __repr__(self):
        return f"<edgeblas.Vector size {self.size}, {self.nvals} entries>"


# ----------------------------------------------------------------------------
# Conversions


def _csr(A):
    """``A`` as a csr_array (no copy when it already is one)."""
    if isinstance(A, Graph):
        return A.matrix
    if not sp.issparse(A):
        raise TypeError(
            f"expected an edgeblas.Graph or a scipy.sparse matrix or array, got {type(A).__name__}"
        )
    if A.format != "csr":
        A = A.tocsr()
    if not isinstance(A, sp.csr_array):
        A = sp.csr_array(A)
    return A


def _raw(A):
    """The (nrows, ncols, indptr, indices, data) tuple the extension reads."""
    m = _csr(A)
    if m.ndim != 2:
        raise ValueError("expected a 2-D matrix")
    data = m.data
    if data.dtype != np.float64:
        if np.iscomplexobj(data):
            raise TypeError("complex values are not supported")
        data = data.astype(np.float64)
    indptr, indices = m.indptr, m.indices
    if indptr.dtype not in (np.int32, np.int64):
        indptr = indptr.astype(np.int64)
    if indices.dtype not in (np.int32, np.int64):
        indices = indices.astype(np.int64)
    return (
        m.shape[0],
        m.shape[1],
        np.ascontiguousarray(indptr),
        np.ascontiguousarray(indices),
        np.ascontiguousarray(data),
    )


def _arg(A):
    """A Graph's kept copy, or a scipy matrix's arrays (copied by the call)."""
    if isinstance(A, Graph):
        return A._prepared()
    return _raw(A)


def _symmetric(A):
    return isinstance(A, Graph) and not A.directed


def _matrix(t):
    """A csr_array over the buffers the extension returned."""
    nrows, ncols, indptr, indices, data = t
    indptr = indptr.view(np.int64)
    if max(nrows, ncols, indices.shape[0]) <= _I32_MAX:
        # scipy keeps one index dtype for both arrays: narrowing indptr (nrows + 1
        # entries) spares a copy of the indices.
        indices = indices.view(np.int32)
        indptr = indptr.astype(np.int32)
    else:
        indices = indices.astype(np.int64)
    if data is None:
        data = np.ones(indices.shape[0], dtype=np.float64)
    return sp.csr_array((data, indices, indptr), shape=(nrows, ncols), copy=False)


def _row(v: Vector):
    v = _vector(v)
    data = v.values
    return sp.csr_array(
        (data, v.indices, np.array([0, v.nvals], dtype=np.int64)), shape=(1, v.size)
    )


def _column(v: Vector):
    v = _vector(v)
    indptr = np.zeros(v.size + 1, dtype=np.int64)
    np.add.at(indptr, v.indices + 1, 1)
    np.cumsum(indptr, out=indptr)
    return sp.csr_array(
        (v.values, np.zeros(v.nvals, dtype=np.int64), indptr), shape=(v.size, 1)
    )


def _vector(x):
    if isinstance(x, Vector):
        return x
    if isinstance(x, np.ndarray) or isinstance(x, (list, tuple)):
        return Vector.from_dense(np.asarray(x))
    raise TypeError(
        f"expected an edgeblas.Vector or a 1-D numpy array, got {type(x).__name__}"
    )


def _from_row(m) -> Vector:
    m = _csr(m)
    return Vector(m.indices.astype(np.int64), m.data, m.shape[1])


def _from_column(m) -> Vector:
    m = _csr(m)
    counts = np.diff(m.indptr)
    return Vector(np.flatnonzero(counts), m.data, m.shape[0])


# ----------------------------------------------------------------------------
# Files


def read(path, format=None, undirected=False) -> Graph:
    """Reads a graph file (Matrix Market, edge list, DIMACS, Graphalytics,
    adjacency, binary; the format from the extension unless given).
    ``undirected=True`` takes every arc both ways."""
    m, ids, directed = _ext.read(str(path), format, undirected)
    weighted = m[4] is not None
    if ids.size == 0 or ids.max() <= np.iinfo(np.int64).max:
        ids = ids.view(np.int64)
    return Graph(_matrix(m), ids=ids, directed=directed, weighted=weighted,
                 _symmetric_checked=True)


def write(path, matrix_or_graph, format=None) -> None:
    """Writes a Graph (its ids and direction kept) or a square matrix (a
    directed graph on vertices 0..n-1) to a file."""
    g = matrix_or_graph
    if isinstance(g, Graph):
        ids = g.ids
        if ids.dtype != np.int64:
            ids = ids.astype(np.int64)
        _ext.write(str(path), _raw(g), ids, g.directed, not g.weighted, format)
    else:
        pattern = sp.issparse(g) and g.dtype == np.bool_
        _ext.write(str(path), _raw(g), None, True, pattern, format)


# ----------------------------------------------------------------------------
# The algebra


def mxm(A, B, semiring="plus_times", mask=None, complement=False, structural=True,
        accum=None, C=None, threads=None):
    """``C<mask> = C accum (A (+).(x) B)`` over a named semiring; a new
    csr_array. ``mask`` is a matrix (its pattern with ``structural=True``, its
    nonzero values otherwise), ``complement`` inverts it; ``accum`` names a
    binary operator that merges the product into ``C``."""
    return _matrix(_ext.mxm(
        _arg(A), _arg(B), semiring,
        None if mask is None else _arg(mask), complement, structural, accum,
        None if C is None else _arg(C), threads,
    ))


def vxm(x, A, semiring="plus_times", mask=None, complement=False, structural=True,
        accum=None, w=None, threads=None) -> Vector:
    """``w<mask> = w accum (x (+).(x) A)``: x a Vector or dense 1-D array, the
    result a Vector (``*_secondi`` semirings give the index of ``x``'s entry)."""
    m = None if mask is None else _row(mask)
    c = None if w is None else _row(w)
    r = mxm(_row(x), A, semiring, m, complement, structural, accum, c, threads)
    return _from_row(r)


def mxv(A, x, semiring="plus_times", mask=None, complement=False, structural=True,
        accum=None, w=None, threads=None) -> Vector:
    """``w<mask> = w accum (A (+).(x) x)``; x a Vector or a dense 1-D array."""
    m = None if mask is None else _column(mask)
    c = None if w is None else _column(w)
    r = mxm(A, _column(x), semiring, m, complement, structural, accum, c, threads)
    return _from_column(r)


def _pair(A, B, f, op):
    if isinstance(A, Vector) or isinstance(B, Vector):
        a, b = _vector(A), _vector(B)
        if a.size != b.size:
            raise ValueError(f"the vectors have sizes {a.size} and {b.size}: they must match")
        return _from_row(_matrix(f(_raw(_row(a)), _raw(_row(b)), op)))
    return _matrix(f(_raw(A), _raw(B), op))


def ewise_add(A, B, op="plus"):
    """Union of two matrices (or two Vectors): ``op`` where both hold an entry,
    the lone entry elsewhere."""
    return _pair(A, B, _ext.ewise_add, op)


def ewise_mult(A, B, op="times"):
    """Intersection of two matrices (or two Vectors), values ``op(a, b)``."""
    return _pair(A, B, _ext.ewise_mult, op)


_INDEX_OPS = ("rowindex", "colindex", "diagindex")


def apply(A, op, left=None, right=None, thunk=None):
    """``op`` on every entry: a unary operator (identity, abs, ainv, minv, one,
    lnot, sqrt, exp, log), a binary one with a scalar bound on the ``left``
    or the ``right``, or an index-unary one with ``thunk`` k (default 0):
    rowindex ``i + k``, colindex ``j + k``, diagindex ``j - (i + k)``, int64
    values. A Vector is a column, as in GraphBLAS: its entry ``v[i]`` is at row
    ``i``, column 0 (rowindex gives ``i + k``, colindex ``k``)."""
    t = None if thunk is None else int(thunk)
    if isinstance(A, Vector):
        r = _from_column(_matrix(_ext.apply(_raw(_column(A)), op, left, right, t, True)))
    else:
        r = _matrix(_ext.apply(_raw(A), op, left, right, t))
    if op in _INDEX_OPS:
        if isinstance(r, Vector):
            r.values = r.values.astype(np.int64)
        else:
            r.data = r.data.astype(np.int64)
    return r


def select(A, op, thunk=0):
    """The entries a predicate keeps: tril, triu, diag, offdiag (``thunk`` is
    the diagonal offset k), value_eq, value_ne, value_gt, value_ge, value_lt,
    value_le (against ``thunk``), nonzero. A Vector is a column, as in
    GraphBLAS: its entry ``v[i]`` is at row ``i``, column 0, so ``tril`` with
    k = 0 keeps every entry and ``triu`` only ``v[0]``."""
    if isinstance(A, Vector):
        return _from_column(_matrix(_ext.select(_raw(_column(A)), op, float(thunk), True)))
    return _matrix(_ext.select(_raw(A), op, float(thunk)))


def reduce_rows(A, monoid="plus") -> Vector:
    """Each row reduced by a monoid (plus, times, min, max, lor, land, any);
    rows with no entry are absent from the Vector."""
    i, x = _ext.reduce_vector(_raw(A), monoid, False)
    return Vector(i, x, _csr(A).shape[0])


def reduce_columns(A, monoid="plus") -> Vector:
    """Each column reduced by a monoid, as a Vector."""
    i, x = _ext.reduce_vector(_raw(A), monoid, True)
    return Vector(i, x, _csr(A).shape[1])


def reduce_scalar(A, monoid="plus") -> float:
    """Every entry of a matrix or Vector reduced by a monoid (its identity when
    there is none)."""
    if isinstance(A, Vector):
        A = _row(A)
    return _ext.reduce_scalar(_raw(A), monoid)


def transpose(A):
    """``A.T`` as a new csr_array."""
    return _matrix(_ext.transpose(_raw(A)))


def extract(A, rows=None, cols=None):
    """``A[rows][:, cols]`` with index lists (repeats allowed); ``None`` keeps
    every row or column. On a Vector, ``rows`` are the indices to extract."""
    if isinstance(A, Vector):
        return _from_row(extract(_row(A), None, rows))
    r = None if rows is None else np.ascontiguousarray(rows, dtype=np.int64)
    c = None if cols is None else np.ascontiguousarray(cols, dtype=np.int64)
    return _matrix(_ext.extract(_raw(A), r, c))


# ----------------------------------------------------------------------------
# The algorithms


def _index(v, what):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{what}: expected an integer vertex index, got {type(v).__name__}")
    v = int(v)
    if v < 0:
        raise ValueError(f"{what}: vertex {v} is not in the graph")
    return v


def bfs(A, source, policy="beamer", threads=None, backend="cpu"):
    """Breadth-first search from row ``source``: ``(levels, parents)`` int64
    arrays, -1 where a vertex is unreached; a parent is the smallest-index vertex
    of the previous level with an arc to it, the source its own parent.
    ``policy``: beamer, gunrock, ligra, xbfs, push or pull. ``backend``: 'cpu' or
    'cuda' (the first GPU, the same result; ValueError in a build without CUDA
    or on a machine without a GPU)."""
    return _ext.bfs(_arg(A), _index(source, "source"), policy, _symmetric(A), threads,
                    backend)


def sssp(A, source, method="auto", delta=None, threads=None, backend="cpu"):
    """Shortest-path distances from row ``source`` (float64, inf where
    unreached), the matrix values as arc lengths. ``method``: auto
    (delta-stepping, or Bellman-Ford when a weight is negative),
    delta-stepping or bellman-ford. A negative cycle raises ValueError.
    ``backend``: 'cpu' or 'cuda' (either method on the first GPU)."""
    return _ext.sssp(_arg(A), _index(source, "source"), method, delta, threads, backend)


def pagerank(A, damping=0.85, iterations=None, tolerance=1e-4, max_iterations=1000,
             threads=None, precision="f64", backend="cpu"):
    """PageRank (Graphalytics semantics: dangling vertices spread their rank
    evenly). ``iterations`` fixes the count; otherwise it stops when the L1
    change falls below ``tolerance`` or after ``max_iterations``.
    ``precision``: 'f64' (default) or 'f32' (the sweep in float32; the ranks
    are returned as float64 either way). ``backend``: 'cpu' or 'cuda' (the first
    GPU)."""
    return _ext.pagerank(_arg(A), damping, iterations, tolerance, max_iterations,
                         _symmetric(A), threads, precision, backend)


def wcc(A, threads=None, backend="cpu", method="auto"):
    """Weakly connected components: per vertex, the smallest vertex index of its
    component (int64). ``backend``: 'cpu' or 'cuda' (FastSV over the device algebra
    on the first GPU; the same labels). ``method``: 'afforest' (concurrent
    union-find, the CPU's default), 'fastsv' (the algebra's rounds) or 'auto' (the
    backend's own); every method gives the same labels."""
    return _ext.wcc(_arg(A), _symmetric(A), threads, backend, method)


def cdlp(A, iterations=10, threads=None, backend="cpu"):
    """Community detection by label propagation (Graphalytics CDLP): int64
    labels, each the smallest index of the label's origin. ``backend``: 'cpu' or
    'cuda' (the rounds on the first GPU; the same labels)."""
    return _ext.cdlp(_arg(A), iterations, _symmetric(A), threads, backend)


def lcc(A, threads=None):
    """Local clustering coefficient per vertex (Graphalytics LCC), float64."""
    return _ext.lcc(_arg(A), _symmetric(A), threads)


def triangles(A, method="auto", threads=None, backend="cpu") -> int:
    """The number of triangles of an undirected graph (a symmetric pattern;
    self-loops ignored). ``method``: auto, sandia-ll, sandia-uu, burkhardt.
    ``backend``: 'cpu' or 'cuda' (the masked product on the first GPU)."""
    return _ext.triangles(_arg(A), method, _symmetric(A), threads, backend)


def betweenness(A, sources, threads=None):
    """Betweenness centrality (Brandes) summed over the given source rows,
    float64 per vertex."""
    s = np.atleast_1d(np.asarray(sources))
    if s.dtype.kind not in "iu":
        raise TypeError("sources: expected integer vertex indices")
    if s.size and s.min() < 0:
        raise ValueError(f"sources: vertex {s.min()} is not in the graph")
    return _ext.betweenness(_arg(A), np.ascontiguousarray(s, dtype=np.int64),
                            _symmetric(A), threads)


def chung_lu(degrees, seed=1, directed=False, coarsen=None, coarsen_cut=0.0, threads=None):
    """A Chung-Lu random graph (a csr_array of ones). ``degrees``: a 1-D array
    of expected degrees (vertex i gets ``degrees[i]``), or a ``(degree, count)``
    pair of arrays (vertices numbered group by group in ascending degree).
    ``coarsen=DELTA`` merges degree groups within a factor 1 + DELTA."""
    if isinstance(degrees, tuple) and len(degrees) == 2:
        d = np.ascontiguousarray(degrees[0], dtype=np.int64)
        c = np.ascontiguousarray(degrees[1], dtype=np.int64)
        t = _ext.chung_lu(None, (d, c), seed, directed, coarsen, coarsen_cut, threads)
    else:
        d = np.asarray(degrees)
        if d.ndim != 1:
            raise ValueError("degrees: expected a 1-D array or a (degree, count) pair")
        if d.dtype.kind == "f":
            if np.any(d != np.round(d)):
                raise ValueError("degrees: expected whole numbers")
        d = np.ascontiguousarray(d, dtype=np.int64)
        t = _ext.chung_lu(d, None, seed, directed, coarsen, coarsen_cut, threads)
    return _matrix(t)


def rmat(scale, edge_factor=16, seed=1, undirected=True, a=0.57, b=0.19, c=0.19,
         permute=True, threads=None):
    """An R-MAT (Graph500 Kronecker) graph with ``2**scale`` vertices and
    ``edge_factor * 2**scale`` generated edges (duplicates and self-loops
    removed), a csr_array of ones."""
    return _matrix(_ext.rmat(scale, edge_factor, seed, undirected, a, b, c, permute, threads))


# ----------------------------------------------------------------------------
# Plots


def plot_degrees(A, ax=None):
    """A log-log plot of the out-degree distribution (a matplotlib Figure).
    Needs matplotlib: ``pip install matplotlib``."""
    try:
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError(
            "plot_degrees needs matplotlib: pip install matplotlib"
        ) from e
    m = _csr(A)
    deg = np.diff(m.indptr)
    values, counts = np.unique(deg[deg > 0], return_counts=True)
    if ax is None:
        fig = Figure(figsize=(6, 4))
        ax = fig.subplots()
    else:
        fig = ax.figure
    ax.loglog(values, counts, "o", markersize=3)
    ax.set_xlabel("out-degree")
    ax.set_ylabel("vertices")
    ax.set_title(f"{m.shape[0]} vertices, {m.nnz} arcs")
    ax.grid(True, which="both", alpha=0.3)
    return fig
