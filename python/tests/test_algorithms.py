"""The algorithms against scipy.sparse.csgraph and pure-Python references."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import edgeblas as eb
from conftest import (random_graph, ref_betweenness, ref_bfs, ref_cdlp, ref_lcc,
                      ref_pagerank, ref_triangles)

POLICIES = ["beamer", "gunrock", "ligra", "xbfs", "push", "pull"]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("undirected", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_bfs_matches_csgraph_and_reference(policy, undirected, seed):
    a = random_graph(200, density=0.015, seed=seed, undirected=undirected)
    levels, parents = eb.bfs(a, 3, policy=policy)
    assert levels.dtype == np.int64 and parents.dtype == np.int64
    d = csgraph.shortest_path(a, unweighted=True, indices=3)
    np.testing.assert_array_equal(levels, np.where(np.isinf(d), -1, d).astype(np.int64))
    rl, rp = ref_bfs(a, 3)
    np.testing.assert_array_equal(levels, rl)
    np.testing.assert_array_equal(parents, rp)


def test_bfs_on_a_graph_object_and_threads():
    a = random_graph(300, density=0.01, seed=2, undirected=True)
    g = eb.Graph.from_scipy(a, directed=False)
    want = eb.bfs(a, 0)
    for threads in (None, 1, 2):
        got = eb.bfs(g, 0, threads=threads)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])


def test_bfs_unreached_is_minus_one():
    a = sp.csr_array(np.array([[0, 1, 0], [0, 0, 0], [0, 0, 0]], dtype=float))
    levels, parents = eb.bfs(a, 0)
    assert levels.tolist() == [0, 1, -1]
    assert parents.tolist() == [0, 0, -1]


@pytest.mark.parametrize("method", ["auto", "delta-stepping", "bellman-ford"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sssp_matches_dijkstra(method, seed):
    a = random_graph(150, density=0.03, seed=seed, weights=True)
    d = eb.sssp(a, 5, method=method)
    assert d.dtype == np.float64
    np.testing.assert_allclose(d, csgraph.dijkstra(a, indices=5))


@pytest.mark.parametrize("delta", [0.5, 3.0, 100.0])
def test_sssp_delta_parameter(delta):
    a = random_graph(100, density=0.05, seed=3, weights=True)
    np.testing.assert_allclose(eb.sssp(a, 0, method="delta-stepping", delta=delta),
                               csgraph.dijkstra(a, indices=0))


def test_sssp_negative_weights_match_bellman_ford():
    rng = np.random.default_rng(4)
    n = 60
    # A DAG (arcs from low to high index) cannot have a negative cycle.
    a = sp.random_array((n, n), density=0.1, format="csr", rng=rng)
    a = sp.csr_array(sp.triu(a, 1))
    a.data = np.floor(a.data * 10) - 3
    a.data[a.data == 0] = 1
    d = eb.sssp(a, 0)
    np.testing.assert_allclose(d, csgraph.bellman_ford(a, indices=0))


def test_sssp_negative_cycle_raises():
    a = sp.csr_array(np.array([[0, 1.0, 0], [0, 0, -2.0], [0.5, 0, 0]]))
    with pytest.raises(ValueError, match="negative cycle reachable from source 0"):
        eb.sssp(a, 0)
    with pytest.raises(ValueError, match="negative weight"):
        eb.sssp(a, 0, method="delta-stepping")


def test_sssp_unreached_is_inf():
    a = sp.csr_array(np.array([[0, 2.0, 0], [0, 0, 0], [0, 0, 0]]))
    assert eb.sssp(a, 0).tolist() == [0.0, 2.0, np.inf]


@pytest.mark.parametrize("undirected", [False, True])
@pytest.mark.parametrize("iterations", [1, 5, 20])
def test_pagerank_matches_reference(undirected, iterations):
    a = random_graph(80, density=0.04, seed=5, undirected=undirected)
    pr = eb.pagerank(a, iterations=iterations)
    np.testing.assert_allclose(pr, ref_pagerank(a, 0.85, iterations), rtol=1e-10)


def test_pagerank_in_f32():
    a = random_graph(80, density=0.04, seed=5)
    ref = ref_pagerank(a, 0.85, 20)
    pr = eb.pagerank(a, iterations=20, precision="f32")
    assert pr.dtype == np.float64
    np.testing.assert_allclose(pr, ref, rtol=1e-5, atol=1e-7)
    # every rank is a float32 value: the sweep ran in float32
    assert (pr.astype(np.float32).astype(np.float64) == pr).all()
    with pytest.raises(ValueError, match="precision"):
        eb.pagerank(a, precision="f16")


def test_pagerank_tolerance_and_damping():
    a = random_graph(100, density=0.05, seed=6)
    pr = eb.pagerank(a, damping=0.5, tolerance=1e-10)
    np.testing.assert_allclose(pr, ref_pagerank(a, 0.5, 200), rtol=1e-6)
    assert pr.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("undirected", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_wcc_matches_csgraph(undirected, seed):
    a = random_graph(300, density=0.004, seed=seed, undirected=undirected)
    _, comp = csgraph.connected_components(a, directed=True, connection="weak")
    smallest = {}
    for v, c in enumerate(comp):
        smallest.setdefault(c, v)
    for method in ["auto", "afforest", "fastsv"]:
        labels = eb.wcc(a, method=method)
        np.testing.assert_array_equal(labels, [smallest[c] for c in comp], err_msg=method)


def test_wcc_names_its_methods():
    a = random_graph(20, density=0.1, seed=1, undirected=True)
    with pytest.raises(ValueError, match="afforest"):
        eb.wcc(a, method="union-find")


@pytest.mark.parametrize("undirected", [False, True])
@pytest.mark.parametrize("iterations", [1, 2, 5, 10])
def test_cdlp_matches_reference(undirected, iterations):
    a = random_graph(60, density=0.06, seed=7, undirected=undirected)
    labels = eb.cdlp(eb.Graph.from_scipy(a, directed=not undirected), iterations=iterations)
    np.testing.assert_array_equal(labels, ref_cdlp(a, iterations, directed=not undirected))


@pytest.mark.parametrize("undirected", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_lcc_matches_reference(undirected, seed):
    a = random_graph(70, density=0.08, seed=seed, undirected=undirected)
    np.testing.assert_allclose(eb.lcc(a), ref_lcc(a), atol=1e-12)


@pytest.mark.parametrize("method", ["auto", "sandia-ll", "sandia-uu", "burkhardt"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_triangles_match_trace(method, seed):
    a = random_graph(120, density=0.06, seed=seed, undirected=True)
    t = eb.triangles(a, method=method)
    assert isinstance(t, int)
    assert t == ref_triangles(a)


def test_triangles_of_rmat():
    a = eb.rmat(10, seed=3)
    assert eb.triangles(a) == ref_triangles(a)


@pytest.mark.parametrize("undirected", [False, True])
def test_betweenness_matches_brandes(undirected):
    a = random_graph(60, density=0.06, seed=8, undirected=undirected)
    sources = [0, 5, 17, 42]
    np.testing.assert_allclose(eb.betweenness(a, sources), ref_betweenness(a, sources), rtol=1e-9)


def test_betweenness_all_sources():
    a = random_graph(40, density=0.1, seed=9, undirected=True)
    np.testing.assert_allclose(eb.betweenness(a, np.arange(40)),
                               ref_betweenness(a, range(40)), rtol=1e-9)


@pytest.mark.parametrize("scale", [4, 8, 12])
def test_rmat_shape_and_symmetry(scale):
    a = eb.rmat(scale, edge_factor=8, seed=2)
    assert isinstance(a, sp.csr_array)
    assert a.shape == (2 ** scale, 2 ** scale)
    assert 0 < a.nnz <= 2 * 8 * 2 ** scale
    assert (a != a.T).nnz == 0
    a.check_format(full_check=True)
    d = eb.rmat(scale, edge_factor=8, seed=2, undirected=False)
    assert d.nnz <= 8 * 2 ** scale


def test_rmat_is_deterministic_per_seed():
    a, b, c = eb.rmat(9, seed=1), eb.rmat(9, seed=1), eb.rmat(9, seed=2)
    assert (a != b).nnz == 0
    assert (a != c).nnz > 0


def test_chung_lu_sequence():
    deg = np.full(2000, 10)
    a = eb.chung_lu(deg, seed=3)
    assert a.shape == (2000, 2000)
    assert (a != a.T).nnz == 0
    mean = a.nnz / 2000
    assert 8 < mean < 12


def test_chung_lu_histogram_and_directed():
    a = eb.chung_lu((np.array([2, 50]), np.array([1000, 20])), seed=1)
    assert a.shape == (1020, 1020)
    deg = np.diff(a.indptr)
    assert deg[:1000].mean() < deg[1000:].mean()
    d = eb.chung_lu(np.full(500, 6), seed=1, directed=True)
    assert d.shape == (500, 500)
    assert 4 < d.nnz / 500 < 8


def test_chung_lu_coarsen_and_seed():
    deg = np.arange(1, 1001) % 40 + 1
    a = eb.chung_lu(deg, seed=5, coarsen=0.1)
    assert a.shape == (1000, 1000)
    b1, b2 = eb.chung_lu(deg, seed=5), eb.chung_lu(deg, seed=5)
    assert (b1 != b2).nnz == 0


@pytest.mark.parametrize("threads", [1, 2])
def test_threads_give_the_same_answers(threads):
    a = eb.rmat(11, seed=4)
    assert eb.triangles(a, threads=threads) == eb.triangles(a)
    np.testing.assert_array_equal(eb.wcc(a, threads=threads), eb.wcc(a))
    np.testing.assert_allclose(eb.pagerank(a, threads=threads), eb.pagerank(a))
    np.testing.assert_allclose(eb.sssp(a, 0, threads=threads), eb.sssp(a, 0))


def test_the_gil_is_released():
    import threading
    import time

    a = eb.rmat(15, seed=1)
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        t0 = time.perf_counter()
        for _ in range(3):
            eb.pagerank(a, iterations=30, threads=1)
        t1 = time.perf_counter()
    finally:
        stop.set()
        t.join()
    during = [x for x in ticks if t0 < x < t1]
    # With the GIL held the ticker could not run while pagerank does.
    assert len(during) >= 5 or (t1 - t0) < 0.02


def test_graph_keeps_its_copy_and_renews_it():
    a = random_graph(100, density=0.03, seed=10, undirected=True)
    g = eb.Graph.from_scipy(a, directed=False)
    h1 = g._prepared()
    assert g._prepared() is h1
    assert h1.symmetric
    np.testing.assert_array_equal(eb.wcc(g), eb.wcc(a))
    np.testing.assert_allclose(eb.mxm(g, g).toarray(), (a @ a).toarray())
    b = random_graph(100, density=0.03, seed=11, undirected=True)
    g.matrix = b
    assert g._prepared() is not h1
    np.testing.assert_array_equal(eb.bfs(g, 0)[0], eb.bfs(b, 0)[0])


def test_directed_graph_detects_a_symmetric_pattern():
    a = random_graph(50, density=0.1, seed=12, undirected=True)
    assert eb.Graph.from_scipy(a)._prepared().symmetric
    d = random_graph(50, density=0.1, seed=12)
    assert not eb.Graph.from_scipy(d)._prepared().symmetric


@pytest.mark.parametrize("name", ["bfs", "sssp", "delta-stepping", "pagerank", "triangles", "wcc", "cdlp"])
def test_cuda_backend_agrees_with_the_cpu_or_says_why_not(name):
    """backend='cuda' gives the CPU's result on a GPU, or (a build without CUDA, the
    default wheel, or no GPU) a ValueError naming the parameter."""
    a = random_graph(60, density=0.1, seed=3)
    call = {
        "bfs": lambda backend: eb.bfs(a, 0, backend=backend),
        "sssp": lambda backend: eb.sssp(a, 0, method="bellman-ford", backend=backend),
        "delta-stepping": lambda backend: eb.sssp(a, 0, method="delta-stepping", backend=backend),
        "pagerank": lambda backend: eb.pagerank(a, iterations=10, backend=backend),
        "triangles": lambda backend: eb.triangles(a + a.T, backend=backend),
        "wcc": lambda backend: eb.wcc(a, backend=backend),
        "cdlp": lambda backend: eb.cdlp(a, iterations=5, backend=backend),
    }[name]
    cpu = call("cpu")
    try:
        gpu = call("cuda")
    except ValueError as e:
        assert "backend='cuda'" in str(e), str(e)
        return
    if name == "bfs":
        for x, y in zip(cpu, gpu):
            np.testing.assert_array_equal(x, y)
    elif name in ("sssp", "delta-stepping", "triangles", "wcc", "cdlp"):
        np.testing.assert_array_equal(cpu, gpu)
    else:
        np.testing.assert_allclose(cpu, gpu, rtol=1e-12, atol=1e-15)


def test_backend_names_are_checked():
    a = random_graph(10, density=0.3, seed=1)
    for call in (lambda: eb.bfs(a, 0, backend="tpu"), lambda: eb.sssp(a, 0, backend="tpu"),
                 lambda: eb.pagerank(a, backend="tpu"),
                 lambda: eb.triangles(a + a.T, backend="tpu"),
                 lambda: eb.wcc(a, backend="tpu"),
                 lambda: eb.cdlp(a, backend="tpu")):
        with pytest.raises(ValueError, match="backend=\"tpu\": expected 'cpu' or 'cuda'"):
            call()

