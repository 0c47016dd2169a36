"""edgeblas: graph algorithms as sparse linear algebra, from Python.

Matrices go in and come out as ``scipy.sparse.csr_array``; vectors are
:class:`Vector` (sparse: ``indices`` and ``values``) or dense numpy arrays. A
square matrix's row ``i`` is vertex ``i``, and every result is indexed the same
way. Every algorithm runs with the GIL released; ``threads=None`` uses the
global pool (all cores), ``threads=k`` a pool of ``k`` workers.

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

from os import PathLike
from typing import Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from matplotlib.figure import Figure

#: The built-in semiring names, as one string.
SEMIRINGS: str

MatrixLike = Union["Graph", sp.sparray, sp.spmatrix]
VectorLike = Union["Vector", npt.ArrayLike]
Path = Union[str, PathLike[str]]

class Graph:
    """A graph: its adjacency ``matrix`` (``csr_array``; ``matrix[i, j]`` is the
    weight of arc ``i -> j``), the vertex ``ids`` as written in the file (row
    ``i`` is vertex ``ids[i]``) and whether it is ``directed`` (an undirected
    graph stores each edge as two arcs)."""
    matrix: sp.csr_array
    ids: npt.NDArray[np.int64]
    directed: bool
    weighted: bool
    def __init__(self, matrix: MatrixLike, ids: Optional[npt.ArrayLike] = ..., directed: bool = ..., weighted: bool = ...) -> None: ...
    @classmethod
    def from_scipy(cls, A: MatrixLike, ids: Optional[npt.ArrayLike] = ..., directed: bool = ...) -> "Graph":
        """The graph of a square scipy.sparse matrix or array (``A[i, j]`` = arc
        ``i -> j``), with optional vertex ids."""
        ...
    @property
    def vertices(self) -> int:
        """The number of vertices."""
        ...
    @property
    def arcs(self) -> int:
        """The number of stored arcs (an undirected edge counts twice)."""
        ...
    def __repr__(self) -> str: ...

class Vector:
    """A sparse vector of ``size`` entries: sorted ``indices`` (int64) and their
    ``values``."""
    indices: npt.NDArray[np.int64]
    values: np.ndarray
    size: int
    def __init__(self, indices: npt.ArrayLike, values: npt.ArrayLike, size: int) -> None: ...
    @classmethod
    def from_dense(cls, array: npt.ArrayLike, missing: Optional[object] = ...) -> "Vector":
        """Every entry of a 1-D array, or those that differ from ``missing``
        (``missing=nan`` drops the NaNs)."""
        ...
    @classmethod
    def from_coo(cls, indices: npt.ArrayLike, values: npt.ArrayLike, size: int) -> "Vector":
        """The vector with ``values[k]`` at ``indices[k]``; indices in any order,
        no repeats, each below ``size``."""
        ...
    @property
    def nvals(self) -> int:
        """The number of stored entries."""
        ...
    def to_dense(self, fill: object = ...) -> np.ndarray:
        """A dense numpy array, ``fill`` where no entry is stored."""
        ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __repr__(self) -> str: ...

def read(path: Path, format: Optional[str] = ..., undirected: bool = ...) -> Graph:
    """Reads a graph file (Matrix Market, edge list, DIMACS, Graphalytics,
    adjacency, binary; the format from the extension unless given).
    ``undirected=True`` takes every arc both ways."""
    ...
def write(path: Path, matrix_or_graph: MatrixLike, format: Optional[str] = ...) -> None:
    """Writes a Graph (its ids and direction kept) or a square matrix (a
    directed graph on vertices 0..n-1) to a file."""
    ...
def mxm(A: MatrixLike, B: MatrixLike, semiring: str = ..., mask: Optional[MatrixLike] = ..., complement: bool = ..., structural: bool = ..., accum: Optional[str] = ..., C: Optional[MatrixLike] = ..., threads: Optional[int] = ...) -> sp.csr_array:
    """``C<mask> = C accum (A (+).(x) B)`` over a named semiring; a new
    csr_array. ``mask`` is a matrix (its pattern with ``structural=True``, its
    nonzero values otherwise), ``complement`` inverts it; ``accum`` names a
    binary operator that merges the product into ``C``."""
    ...
def vxm(x: VectorLike, A: MatrixLike, semiring: str = ..., mask: Optional[VectorLike] = ..., complement: bool = ..., structural: bool = ..., accum: Optional[str] = ..., w: Optional[VectorLike] = ..., threads: Optional[int] = ...) -> Vector:
    """``w<mask> = w accum (x (+).(x) A)``: x a Vector or dense 1-D array, the
    result a Vector (``*_secondi`` semirings give the index of ``x``'s entry)."""
    ...
def mxv(A: MatrixLike, x: VectorLike, semiring: str = ..., mask: Optional[VectorLike] = ..., complement: bool = ..., structural: bool = ..., accum: Optional[str] = ..., w: Optional[VectorLike] = ..., threads: Optional[int] = ...) -> Vector:
    """``w<mask> = w accum (A (+).(x) x)``; x a Vector or a dense 1-D array."""
    ...
def ewise_add(A: Union[MatrixLike, Vector], B: Union[MatrixLike, Vector], op: str = ...) -> Union[sp.csr_array, Vector]:
    """Union of two matrices (or two Vectors): ``op`` where both hold an entry,
    the lone entry elsewhere."""
    ...
def ewise_mult(A: Union[MatrixLike, Vector], B: Union[MatrixLike, Vector], op: str = ...) -> Union[sp.csr_array, Vector]:
    """Intersection of two matrices (or two Vectors), values ``op(a, b)``."""
    ...
def apply(A: Union[MatrixLike, Vector], op: str, left: Optional[float] = ..., right: Optional[float] = ..., thunk: Optional[int] = ...) -> Union[sp.csr_array, Vector]:
    """``op`` on every entry: a unary operator (identity, abs, ainv, minv, one,
    lnot, sqrt, exp, log), a binary one with a scalar bound on the ``left``
    or the ``right``, or an index-unary one with ``thunk`` k (default 0):
    rowindex ``i + k``, colindex ``j + k``, diagindex ``j - (i + k)``, int64
    values. A Vector is a column, as in GraphBLAS: its entry ``v[i]`` is at row
    ``i``, column 0 (rowindex gives ``i + k``, colindex ``k``)."""
    ...
def select(A: Union[MatrixLike, Vector], op: str, thunk: float = ...) -> Union[sp.csr_array, Vector]:
    """The entries a predicate keeps: tril, triu, diag, offdiag (``thunk`` is
    the diagonal offset k), value_eq, value_ne, value_gt, value_ge, value_lt,
    value_le (against ``thunk``), nonzero. A Vector is a column, as in
    GraphBLAS: its entry ``v[i]`` is at row ``i``, column 0, so ``tril`` with
    k = 0 keeps every entry and ``triu`` only ``v[0]``."""
    ...
def reduce_rows(A: MatrixLike, monoid: str = ...) -> Vector:
    """Each row reduced by a monoid (plus, times, min, max, lor, land, any);
    rows with no entry are absent from the Vector."""
    ...
def reduce_columns(A: MatrixLike, monoid: str = ...) -> Vector:
    """Each column reduced by a monoid, as a Vector."""
    ...
def reduce_scalar(A: Union[MatrixLike, Vector], monoid: str = ...) -> float:
    """Every entry of a matrix or Vector reduced by a monoid (its identity when
    there is none)."""
    ...
def transpose(A: MatrixLike) -> sp.csr_array:
    """``A.T`` as a new csr_array."""
    ...
def extract(A: Union[MatrixLike, Vector], rows: Optional[Sequence[int]] = ..., cols: Optional[Sequence[int]] = ...) -> Union[sp.csr_array, Vector]:
    """``A[rows][:, cols]`` with index lists (repeats allowed); ``None`` keeps
    every row or column. On a Vector, ``rows`` are the indices to extract."""
    ...
def bfs(A: MatrixLike, source: int, policy: str = ..., threads: Optional[int] = ..., backend: str = ...) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Breadth-first search from row ``source``: ``(levels, parents)`` int64
    arrays, -1 where a vertex is unreached; a parent is the smallest-index vertex
    of the previous level with an arc to it, the source its own parent.
    ``policy``: beamer, gunrock, ligra, xbfs, push or pull."""
    ...
def sssp(A: MatrixLike, source: int, method: str = ..., delta: Optional[float] = ..., threads: Optional[int] = ..., backend: str = ...) -> npt.NDArray[np.float64]:
    """Shortest-path distances from row ``source`` (float64, inf where
    unreached), the matrix values as arc lengths. ``method``: auto
    (delta-stepping, or Bellman-Ford when a weight is negative),
    delta-stepping or bellman-ford. A negative cycle raises ValueError."""
    ...
def pagerank(A: MatrixLike, damping: float = ..., iterations: Optional[int] = ..., tolerance: float = ..., max_iterations: int = ..., threads: Optional[int] = ..., precision: str = ..., backend: str = ...) -> npt.NDArray[np.float64]:
    """PageRank (Graphalytics semantics: dangling vertices spread their rank
    evenly). ``iterations`` fixes the count; otherwise it stops when the L1
    change falls below ``tolerance`` or after ``max_iterations``.
    ``precision``: 'f64' (default) or 'f32' (the sweep in float32; the ranks
    are returned as float64 either way)."""
    ...
def wcc(A: MatrixLike, threads: Optional[int] = ..., backend: str = ..., method: str = ...) -> npt.NDArray[np.int64]:
    """Weakly connected components: per vertex, the smallest vertex index of its
    component (int64). ``backend``: 'cpu' or 'cuda'. ``method``: 'afforest'
    (the CPU's default), 'fastsv' (the only one on 'cuda') or 'auto'."""
    ...
def cdlp(A: MatrixLike, iterations: int = ..., threads: Optional[int] = ..., backend: str = ...) -> npt.NDArray[np.int64]:
    """Community detection by label propagation (Graphalytics CDLP): int64
    labels, each the smallest index of the label's origin. ``backend``: 'cpu' or
    'cuda'."""
    ...
def lcc(A: MatrixLike, threads: Optional[int] = ...) -> npt.NDArray[np.float64]:
    """Local clustering coefficient per vertex (Graphalytics LCC), float64."""
    ...
def triangles(A: MatrixLike, method: str = ..., threads: Optional[int] = ..., backend: str = ...) -> int:
    """The number of triangles of an undirected graph (a symmetric pattern;
    self-loops ignored). ``method``: auto, sandia-ll, sandia-uu, burkhardt."""
    ...
def betweenness(A: MatrixLike, sources: npt.ArrayLike, threads: Optional[int] = ...) -> npt.NDArray[np.float64]:
    """Betweenness centrality (Brandes) summed over the given source rows,
    float64 per vertex."""
    ...
def chung_lu(degrees: Union[npt.ArrayLike, Tuple[npt.ArrayLike, npt.ArrayLike]], seed: int = ..., directed: bool = ..., coarsen: Optional[float] = ..., coarsen_cut: float = ..., threads: Optional[int] = ...) -> sp.csr_array:
    """A Chung-Lu random graph (a csr_array of ones). ``degrees``: a 1-D array
    of expected degrees (vertex i gets ``degrees[i]``), or a ``(degree, count)``
    pair of arrays (vertices numbered group by group in ascending degree).
    ``coarsen=DELTA`` merges degree groups within a factor 1 + DELTA."""
    ...
def rmat(scale: int, edge_factor: int = ..., seed: int = ..., undirected: bool = ..., a: float = ..., b: float = ..., c: float = ..., permute: bool = ..., threads: Optional[int] = ...) -> sp.csr_array:
    """An R-MAT (Graph500 Kronecker) graph with ``2**scale`` vertices and
    ``edge_factor * 2**scale`` generated edges (duplicates and self-loops
    removed), a csr_array of ones."""
    ...
def plot_degrees(A: MatrixLike, ax: Optional[object] = ...) -> Figure:
    """A log-log plot of the out-degree distribution (a matplotlib Figure).
    Needs matplotlib: ``pip install matplotlib``."""
    ...
