"""Files: read and write round trips, and the LDBC Graphalytics validation cases read
through edgeblas.read (skipped when ../shared/data/graphalytics is absent)."""

import numpy as np
import pytest
import scipy.sparse as sp

import edgeblas as eb
from conftest import random_graph


def expected(path):
    out = {}
    for line in path.read_text().split("\n"):
        if line.strip():
            k, v = line.split()
            out[int(k)] = v
    return out


def by_id(g, values):
    return {int(i): v for i, v in zip(g.ids, values)}


@pytest.mark.parametrize("fmt,ext", [("mtx", "mtx"), ("edgelist", "el"), ("graphalytics", "e"),
                                     ("binary", "ebg"), ("dimacs", "gr")])
def test_write_read_round_trip(tmp_path, fmt, ext):
    a = random_graph(40, density=0.1, seed=1, weights=True)
    p = tmp_path / f"g.{ext}"
    eb.write(p, a, format=fmt)
    g = eb.read(p)
    assert isinstance(g, eb.Graph)
    assert isinstance(g.matrix, sp.csr_array)
    assert g.directed
    # Formats that number from 1 keep their ids; the matrix is over rows either way.
    n = g.matrix.shape[0]
    dense = np.zeros((40, 40))
    ids = g.ids - g.ids.min() if fmt in ("dimacs",) else g.ids
    if n == 40:
        dense = g.matrix.toarray()
    else:
        dense[np.ix_(ids, ids)] = g.matrix.toarray()
    np.testing.assert_allclose(dense[:n, :n] if n == 40 else dense, a.toarray())


def test_graph_round_trip_keeps_ids_and_direction(tmp_path):
    a = random_graph(20, density=0.2, seed=2, undirected=True)
    g = eb.Graph.from_scipy(a, ids=np.arange(20) * 10 + 5, directed=False)
    g.weighted = False
    p = tmp_path / "g.e"
    eb.write(p, g)
    h = eb.read(p, undirected=True)
    assert not h.directed
    assert h.ids.tolist() == g.ids.tolist()
    assert (h.matrix != a).nnz == 0


def test_read_edge_list_ids(tmp_path):
    p = tmp_path / "g.el"
    p.write_text("# comment\n10 20\n20 30\n")
    g = eb.read(p)
    assert g.matrix.shape[0] == g.ids.shape[0]
    rows = {int(g.ids[i]) for i in range(g.matrix.shape[0]) if g.matrix.indptr[i + 1] > g.matrix.indptr[i]}
    assert rows == {10, 20}


def test_read_undirected(tmp_path):
    p = tmp_path / "g.mtx"
    p.write_text("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n")
    g = eb.read(p, undirected=True)
    assert not g.directed
    assert (g.matrix != g.matrix.T).nnz == 0
    assert g.matrix.nnz == 4


def test_plot_degrees():
    mpl = pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure
    fig = eb.plot_degrees(eb.rmat(8))
    assert isinstance(fig, Figure)
    assert mpl is not None


def test_plot_degrees_without_matplotlib(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_mpl(name, *args, **kw):
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib")
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_mpl)
    with pytest.raises(ImportError, match="pip install matplotlib"):
        eb.plot_degrees(eb.rmat(4))


# --- LDBC Graphalytics validation cases -----------------------------------------------

UNREACHED = "9223372036854775807"


def load(dirpath, name, undirected):
    if name.endswith(".e"):
        return eb.read(dirpath / name, undirected=undirected)
    return eb.read(dirpath / name, format="adj", undirected=undirected)


@pytest.mark.parametrize("inp,undirected,source,out", [
    ("bfs-dir-input", False, 1, "bfs-dir-output"),
    ("bfs-undir-input", True, 1, "bfs-undir-output"),
    ("example-directed-input", False, 1, "example-directed-BFS"),
    ("example-undirected-input", True, 2, "example-undirected-BFS"),
])
@pytest.mark.parametrize("policy", ["beamer", "push", "pull"])
def test_graphalytics_bfs(graphalytics, inp, undirected, source, out, policy):
    g = load(graphalytics, inp, undirected)
    s = int(np.searchsorted(g.ids, source))
    levels, _ = eb.bfs(g, s, policy=policy)
    got = by_id(g, [UNREACHED if x < 0 else str(x) for x in levels])
    assert got == expected(graphalytics / out)


@pytest.mark.parametrize("inp,undirected,source,out", [
    ("sssp-dir-input.e", False, 1, "sssp-dir-output"),
    ("sssp-undir-input.e", True, 1, "sssp-undir-output"),
    ("example-directed.e", False, 1, "example-directed-SSSP"),
    ("example-undirected.e", True, 2, "example-undirected-SSSP"),
])
@pytest.mark.parametrize("method", ["auto", "bellman-ford"])
def test_graphalytics_sssp(graphalytics, inp, undirected, source, out, method):
    g = load(graphalytics, inp, undirected)
    d = eb.sssp(g, int(np.searchsorted(g.ids, source)), method=method)
    want = expected(graphalytics / out)
    got = by_id(g, d)
    assert set(got) == set(want)
    for k, v in want.items():
        if v == "Infinity":
            assert np.isinf(got[k])
        else:
            assert got[k] == pytest.approx(float(v), abs=1e-4)


@pytest.mark.parametrize("inp,undirected,iterations,out", [
    ("pr-dir-input", False, 14, "pr-dir-output"),
    ("pr-undir-input", True, 26, "pr-undir-output"),
    ("example-directed-input", False, 2, "example-directed-PR"),
    ("example-undirected-input", True, 2, "example-undirected-PR"),
])
def test_graphalytics_pagerank(graphalytics, inp, undirected, iterations, out):
    g = load(graphalytics, inp, undirected)
    got = by_id(g, eb.pagerank(g, iterations=iterations))
    want = expected(graphalytics / out)
    assert set(got) == set(want)
    for k, v in want.items():
        assert got[k] == pytest.approx(float(v), rel=1e-4)


@pytest.mark.parametrize("inp,undirected,out", [
    ("wcc-dir-input", False, "wcc-dir-output"),
    ("wcc-undir-input", True, "wcc-undir-output"),
    ("example-directed-input", False, "example-directed-WCC"),
    ("example-undirected-input", True, "example-undirected-WCC"),
])
def test_graphalytics_wcc(graphalytics, inp, undirected, out):
    g = load(graphalytics, inp, undirected)
    got = by_id(g, eb.wcc(g))
    want = expected(graphalytics / out)
    assert set(got) == set(want)
    fwd, back = {}, {}
    for k in want:
        assert fwd.setdefault(got[k], want[k]) == want[k]
        assert back.setdefault(want[k], got[k]) == got[k]


@pytest.mark.parametrize("inp,undirected,iterations,out", [
    ("cdlp-dir-input", False, 5, "cdlp-dir-output"),
    ("cdlp-undir-input", True, 5, "cdlp-undir-output"),
    ("example-directed-input", False, 2, "example-directed-CDLP"),
    ("example-undirected-input", True, 2, "example-undirected-CDLP"),
])
def test_graphalytics_cdlp(graphalytics, inp, undirected, iterations, out):
    g = load(graphalytics, inp, undirected)
    labels = eb.cdlp(g, iterations=iterations)
    got = by_id(g, [str(int(g.ids[x])) for x in labels])
    assert got == expected(graphalytics / out)


@pytest.mark.parametrize("inp,undirected,out", [
    ("lcc-dir-input", False, "lcc-dir-output"),
    ("lcc-undir-input", True, "lcc-undir-output"),
    ("example-directed-input", False, "example-directed-LCC"),
    ("example-undirected-input", True, "example-undirected-LCC"),
])
def test_graphalytics_lcc(graphalytics, inp, undirected, out):
    g = load(graphalytics, inp, undirected)
    got = by_id(g, eb.lcc(g))
    want = expected(graphalytics / out)
    assert set(got) == set(want)
    for k, v in want.items():
        assert got[k] == pytest.approx(float(v), abs=1e-6)


def test_graphalytics_skip_reason_names_the_folder(monkeypatch, tmp_path):
    import conftest
    monkeypatch.setattr(conftest, "GRAPHALYTICS", tmp_path / "absent")
    with pytest.raises(pytest.skip.Exception, match="not at"):
        conftest.graphalytics.__wrapped__()


def test_write_replaces_a_file_whole_and_a_failed_write_changes_nothing(tmp_path):
    a = random_graph(30, density=0.1, seed=4, weights=True)
    p = tmp_path / "g.mtx"
    p.write_text("old\n")
    eb.write(p, a)
    # Written through a temporary file renamed into place: nothing else is left.
    assert sorted(x.name for x in tmp_path.iterdir()) == ["g.mtx"]
    assert eb.read(p).matrix.nnz == a.nnz
    # A destination that cannot be a file: an error naming it, the folder unchanged.
    (tmp_path / "d.mtx").mkdir()
    with pytest.raises(OSError, match="d.mtx"):
        eb.write(tmp_path / "d.mtx", a)
    blocker = tmp_path / "f"
    blocker.write_text("a file\n")
    with pytest.raises(OSError, match="g2.mtx"):
        eb.write(blocker / "g2.mtx", a)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["d.mtx", "f", "g.mtx"]
    assert blocker.read_text() == "a file\n"
