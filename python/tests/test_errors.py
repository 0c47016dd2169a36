"""Bad input raises Python exceptions with the command line's messages, and never
crashes the interpreter."""

import numpy as np
import pytest
import scipy.sparse as sp

import edgeblas as eb
from conftest import random_graph

SQUARE = random_graph(10, density=0.3, seed=0)
RECT = sp.csr_array(np.ones((3, 4)))


@pytest.mark.parametrize("call", [
    lambda a: eb.bfs(a, 0), lambda a: eb.sssp(a, 0), lambda a: eb.pagerank(a),
    lambda a: eb.wcc(a), lambda a: eb.cdlp(a), lambda a: eb.lcc(a),
    lambda a: eb.triangles(a), lambda a: eb.betweenness(a, [0]),
])
def test_non_square_matrix(call):
    with pytest.raises(ValueError, match="needs a square matrix .* 3 x 4"):
        call(RECT)


def test_undirected_graph_needs_a_symmetric_matrix():
    a = sp.csr_array(np.array([[0, 1.0], [0, 0]]))
    with pytest.raises(ValueError, match="symmetric"):
        eb.Graph.from_scipy(a, directed=False)
    eb.Graph.from_scipy(a + a.T, directed=False)


def test_graph_needs_square():
    with pytest.raises(ValueError, match="square"):
        eb.Graph.from_scipy(RECT)


@pytest.mark.parametrize("call", [
    lambda: eb.bfs(SQUARE, 10), lambda: eb.sssp(SQUARE, 99), lambda: eb.bfs(SQUARE, -1),
    lambda: eb.betweenness(SQUARE, [0, 10]),
])
def test_source_out_of_range(call):
    with pytest.raises(ValueError, match=r"^sources?: vertex -?\d+ is not in the graph") as e:
        call()
    assert "--" not in str(e.value)


@pytest.mark.parametrize("call, name", [
    (lambda: eb.sssp(SQUARE, 0, method="fast"), "method='fast'"),
    (lambda: eb.sssp(SQUARE, 0, delta=-1.0), "delta=-1"),
    (lambda: eb.bfs(SQUARE, 0, policy="fast"), "policy='fast'"),
    (lambda: eb.triangles(SQUARE + SQUARE.T, method="fast"), "method='fast'"),
    (lambda: eb.pagerank(SQUARE, iterations=0), "iterations"),
    (lambda: eb.pagerank(SQUARE, max_iterations=0), "max_iterations"),
])
def test_argument_errors_name_the_python_argument(call, name):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value).startswith(name), str(e.value)
    assert "--" not in str(e.value)


@pytest.mark.parametrize("fmt", ["edgelist", "dimacs", "adj", "graphalytics"])
def test_a_matrix_market_file_read_as_another_format_is_refused(tmp_path, fmt):
    p = tmp_path / ("g.e" if fmt == "graphalytics" else "g.txt")
    p.write_text("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n")
    if fmt == "graphalytics":
        (tmp_path / "g.v").write_text("1\n2\n3\n")
    with pytest.raises(ValueError, match="this is a Matrix Market file; drop format= or use "
                                         "format='mtx'") as e:
        eb.read(str(p), format=fmt)
    assert str(e.value).startswith(f"{p}:1: ")


def test_source_must_be_an_integer():
    with pytest.raises(TypeError):
        eb.bfs(SQUARE, 1.5)


def unsorted():
    return sp.csr_array((np.array([1.0, 2.0]), np.array([2, 0]), np.array([0, 2, 2, 2])),
                        shape=(3, 3))


def duplicated():
    return sp.csr_array((np.array([1.0, 2.0]), np.array([1, 1]), np.array([0, 2, 2, 2])),
                        shape=(3, 3))


@pytest.mark.parametrize("make", [unsorted, duplicated])
@pytest.mark.parametrize("call", [lambda a: eb.mxm(a, a), lambda a: eb.bfs(a, 0),
                                  lambda a: eb.transpose(a), lambda a: eb.sssp(a, 0)])
def test_unsorted_or_duplicate_indices(make, call):
    with pytest.raises(ValueError, match="row 0 has column indices that are unsorted, repeated"):
        call(make())


def test_int64_indices_beyond_u32():
    big = 2 ** 33
    a = sp.csr_array((np.array([1.0]), np.array([big - 1], dtype=np.int64),
                      np.array([0, 1], dtype=np.int64)), shape=(1, big))
    with pytest.raises(ValueError, match="beyond the u32 range"):
        eb.transpose(a)


@pytest.mark.parametrize("call", [lambda a: eb.mxm(a, a), lambda a: eb.sssp(a, 0),
                                  lambda a: eb.apply(a, "abs")])
def test_nan_weights(call):
    a = sp.csr_array(np.array([[0, np.nan], [1.0, 0]]))
    with pytest.raises(ValueError, match="NaN is not a number"):
        call(a)


def test_unknown_semiring():
    with pytest.raises(ValueError, match="unknown semiring 'plus_plus': expected one of plus_times"):
        eb.mxm(SQUARE, SQUARE, "plus_plus")
    with pytest.raises(ValueError, match="unknown semiring"):
        eb.vxm(np.ones(10), SQUARE, "nope")


@pytest.mark.parametrize("call,msg", [
    (lambda: eb.bfs(SQUARE, 0, policy="fast"), "policy='fast': expected beamer"),
    (lambda: eb.sssp(SQUARE, 0, method="dijkstra"), "method='dijkstra'"),
    (lambda: eb.sssp(SQUARE, 0, delta=-1.0), "delta=-1"),
    (lambda: eb.pagerank(SQUARE, damping=1.5), r"damping 1.5: must be in \[0, 1\]"),
    (lambda: eb.pagerank(SQUARE, iterations=0), "iterations: must be at least 1"),
    (lambda: eb.pagerank(SQUARE, tolerance=-1.0), "tolerance -1"),
    (lambda: eb.triangles(SQUARE, method="x"), "method='x': expected sandia-ll"),
    (lambda: eb.ewise_add(SQUARE, SQUARE, "nope"), "unknown operator 'nope'"),
    (lambda: eb.apply(SQUARE, "nope"), "unknown operator 'nope'"),
    (lambda: eb.select(SQUARE, "nope"), "unknown select operator"),
    (lambda: eb.reduce_rows(SQUARE, "nope"), "unknown monoid"),
    (lambda: eb.mxm(SQUARE, SQUARE, accum="nope", C=SQUARE), "unknown accumulator"),
    (lambda: eb.mxm(SQUARE, RECT[:, :3].T), "mxm: A is 10 x 10 and B is 3 x 3"),
    (lambda: eb.mxm(SQUARE, SQUARE, mask=RECT), "mxm: mask is 3 x 4"),
    (lambda: eb.ewise_add(SQUARE, RECT), "the shapes must match"),
    (lambda: eb.extract(SQUARE, [10]), r"rows\[0\] = 10 is out of range"),
    (lambda: eb.bfs(SQUARE, 0, threads=0), "threads: must be at least 1"),
    (lambda: eb.read("x.txt", format="weird"), "unknown graph format 'weird'"),
    (lambda: eb.rmat(4, a=0.9, b=0.9), "."),
    (lambda: eb.chung_lu(np.array([], dtype=int)), "."),
])
def test_bad_arguments(call, msg):
    with pytest.raises(ValueError, match=msg) as e:
        call()
    assert "--" not in str(e.value), "a Python error names no command-line flag"


def test_triangles_need_an_undirected_graph():
    a = sp.csr_array(np.array([[0, 1.0], [0, 0]]))
    with pytest.raises(ValueError, match="triangles counts the triangles of an undirected graph"):
        eb.triangles(a)


@pytest.mark.parametrize("bad", [np.ones((3, 3)), [[1, 0], [0, 1]], "matrix", None])
def test_not_a_sparse_matrix(bad):
    with pytest.raises(TypeError, match="scipy.sparse"):
        eb.bfs(bad, 0)


def test_complex_data():
    with pytest.raises(TypeError, match="complex"):
        eb.mxm(sp.csr_array(np.array([[1j]])), sp.csr_array(np.array([[1j]])))


def test_missing_file(tmp_path):
    p = tmp_path / "absent.mtx"
    with pytest.raises(FileNotFoundError, match=str(p)):
        eb.read(p)


def test_parse_error_names_file_and_line(tmp_path):
    p = tmp_path / "bad.el"
    p.write_text("1 2\n2 3\nthree four\n")
    with pytest.raises(ValueError, match=rf"{p}:3: "):
        eb.read(p)


def test_mtx_parse_error_names_line(tmp_path):
    p = tmp_path / "bad.mtx"
    p.write_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.0\n9 1 1.0\n")
    with pytest.raises(ValueError, match=rf"{p}:4: "):
        eb.read(p)


def test_interpreter_survives_many_errors():
    for _ in range(100):
        with pytest.raises(ValueError):
            eb.bfs(SQUARE, 1000)
    assert eb.bfs(SQUARE, 0)[0][0] == 0
