"""Concurrency: every call releases the GIL, so Python threads run bfs, sssp, mxm and
pagerank on one shared Graph at once, and their results must equal sequential calls.
A KeyboardInterrupt (Ctrl-C) that arrives during a long call is raised when the call
returns, and the Graph stays usable."""

import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import scipy.sparse as sp

import edgeblas as eb
from conftest import random_graph

THREADS = 8

CALLS = [
    ("bfs", lambda g, k: eb.bfs(g, k % 40)),
    ("bfs threads=2", lambda g, k: eb.bfs(g, k % 40, policy="push", threads=2)),
    ("sssp", lambda g, k: eb.sssp(g, k % 40)),
    ("sssp bellman-ford", lambda g, k: eb.sssp(g, k % 40, method="bellman-ford")),
    ("mxm", lambda g, k: eb.mxm(g, g, "min_plus" if k % 2 else "plus_times")),
    ("pagerank", lambda g, k: eb.pagerank(g, iterations=5 + k % 4)),
    ("pagerank threads=3", lambda g, k: eb.pagerank(g, threads=3)),
]


def assert_same(want, got, what):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), what
        for i, (w, g) in enumerate(zip(want, got)):
            assert_same(w, g, f"{what}[{i}]")
    elif sp.issparse(want):
        assert sp.issparse(got), what
        assert want.shape == got.shape, what
        w, g = sp.csr_array(want), sp.csr_array(got)
        w.sort_indices()
        g.sort_indices()
        np.testing.assert_array_equal(w.indptr, g.indptr, err_msg=what)
        np.testing.assert_array_equal(w.indices, g.indices, err_msg=what)
        np.testing.assert_array_equal(w.data, g.data, err_msg=what)
    else:
        np.testing.assert_array_equal(np.asarray(want), np.asarray(got), err_msg=what)


def test_eight_threads_on_one_graph_give_the_sequential_results():
    a = random_graph(2000, density=0.003, seed=7, weights=True)
    jobs = [(name, f, k) for k in range(8) for name, f in CALLS]
    want = [f(eb.Graph.from_scipy(a), k) for _, f, k in jobs]
    # One Graph for every thread, fresh so that its first calls race to prepare it.
    shared = eb.Graph.from_scipy(a)

    def run_round(pool, order, together):
        # In the first round the first call of every kind starts at once.
        barrier = threading.Barrier(len(CALLS)) if together else None

        def call(job):
            _, f, k = job
            if barrier is not None and k == 0:
                barrier.wait(timeout=120)
            return f(shared, k)

        return list(pool.map(call, order))

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for rnd in range(3):
            order = list(range(len(jobs)))
            if rnd == 1:
                order.reverse()
            got = run_round(pool, [jobs[i] for i in order], rnd == 0)
            for i, g in zip(order, got):
                name, _, k = jobs[i]
                assert_same(want[i], g, f"round {rnd}: {name} #{k}")
    # The Graph is unchanged by all of it.
    np.testing.assert_array_equal(shared.matrix.toarray(), sp.csr_array(a).toarray())


def test_calls_overlap_when_the_gil_is_released():
    """A thread that only counts in Python keeps counting while another thread is inside
    a long call: the call does not hold the GIL."""
    g = eb.Graph.from_scipy(eb.rmat(14, edge_factor=16, seed=2))
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        start = time.perf_counter()
        eb.pagerank(g, iterations=400, threads=1)
        end = time.perf_counter()
    finally:
        done.set()
        t.join()
    during = [x for x in ticks if start < x < end]
    if end - start < 0.05:
        pytest.skip("the call was too quick to tell")
    assert len(during) >= 5, f"{len(during)} ticks in {end - start:.3f} s"


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signals reach the main thread only")
def test_keyboard_interrupt_arrives_when_a_long_call_returns_and_the_graph_stays_usable():
    g = eb.Graph.from_scipy(eb.rmat(15, edge_factor=16, seed=3))
    want = eb.pagerank(g, iterations=3)
    # A call long enough to interrupt: double the iterations until it takes 0.4 s.
    iterations, took = 8, 0.0
    while took < 0.4 and iterations < 1 << 16:
        iterations *= 2
        t0 = time.perf_counter()
        eb.pagerank(g, iterations=iterations)
        took = time.perf_counter() - t0
    fired = []

    def interrupt():
        fired.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(took / 10, interrupt)
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        timer.start()
        eb.pagerank(g, iterations=iterations)
        # Raised at the first Python step after the call; the wait is only for a late
        # timer.
        deadline = time.perf_counter() + 30
        while time.perf_counter() < deadline:
            time.sleep(0.01)
    raised = time.perf_counter()
    timer.join()
    assert fired, "the timer never fired"
    # The signal came early in the call, the exception only once the call was done (a
    # call cut short at the signal would have raised at about took / 10).
    assert fired[0] - start < took / 2
    assert raised - start > took / 2, (raised - start, took)
    # The Graph is as it was.
    np.testing.assert_array_equal(eb.pagerank(g, iterations=3), want)
    np.testing.assert_array_equal(eb.bfs(g, 0)[0], eb.bfs(g.matrix, 0)[0])
