#!/usr/bin/env python3
"""The Python bindings against python-graphblas (SuiteSparse:GraphBLAS) and scipy, from
one Python process, on R-MAT (Graph500 Kronecker) graphs, and the bindings' call
overhead against the CLI's `edgeblas bench` figure for the same kernel.

    python -m pip install ./python python-graphblas scipy numpy
    cargo build --release          # for --cli target/release/edgeblas
    python3 scripts/bench_python.py --scales 18 20 --rounds 3 --cli target/release/edgeblas

Graphs: `edgeblas.rmat(scale)` (edge factor 16, seed 1, undirected, duplicates and
self-loops removed); SSSP weights are integers 1..63 drawn per arc (numpy seed 1). Every
program gets the same csr_array (python-graphblas imports it once, untimed). The source
is the vertex of largest degree. Kernels, each the same computation in the three:
  bfs       levels and parents from the source (scipy: breadth_first_order with
            predecessors; graphblas: level-synchronous push, q<!v> = q any.secondi A)
  sssp      distances (scipy: Dijkstra; graphblas: Bellman-Ford with a frontier, min.plus)
  pagerank  20 iterations of the Graphalytics formula (scipy: A.T @ x per iteration)
  tc        triangles (graphblas: L = tril(A, -1), C<L> = L plus.pair L', reduce; scipy:
            the same with (L @ L.T).multiply(L), unmasked, only where it fits)
  mxm       C<A> = A plus.pair A (scipy: (A @ A).multiply(A), unmasked, only where it fits)
edgeblas alone, for the call overhead against the CLI:
  bfs-copy  bfs on the csr_array itself: the call copies it and tests its symmetry
  tc-mxm    the CLI's `bench mxm --op tc` from Python: select, transpose, masked mxm, reduce
The rounds alternate the programs (edgeblas, graphblas, scipy, then again); each cell is
the median of the rounds. Times exclude building the graph and the conversions to each
library's own type (for edgeblas: the first use of each Graph, which copies it).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

import edgeblas as eb

ITERS = 20


def timed(f):
    t = time.perf_counter()
    r = f()
    return time.perf_counter() - t, r


# --- python-graphblas -------------------------------------------------------------------

def gb_kernels(gb, A, W, s):
    from graphblas import Matrix, Vector, binary, monoid, select, semiring
    n = A.shape[0]
    GA = gb.io.from_scipy_sparse(A)
    GW = gb.io.from_scipy_sparse(W)

    def bfs():
        parents = Vector(np.int64, n)
        parents[s] = s
        levels = Vector(np.int64, n)
        levels[s] = 0
        q = Vector(np.int64, n)
        q[s] = s
        depth = 0
        while q.nvals:
            depth += 1
            q(~parents.S, replace=True) << q.vxm(GA, semiring.any_secondi["INT64"])
            parents(q.S) << q
            levels(q.S)[:] << depth
        return levels

    def sssp():
        d = Vector(np.float64, n)
        d[s] = 0.0
        f = d.dup()
        while f.nvals:
            t = f.vxm(GW, semiring.min_plus).new()
            dn = d.ewise_add(t, binary.min).new()
            same = dn.ewise_mult(d, binary.eq).new()
            f = Vector(np.float64, n)
            f(~same.V, replace=True) << dn
            d = dn
        return d

    def pagerank():
        damp = 0.85
        outdeg = GA.reduce_rowwise(monoid.plus["FP64"]).new()
        x = Vector(np.float64, n)
        x[:] << 1.0 / n
        for _ in range(ITERS):
            w = x.ewise_mult(outdeg, binary.truediv).new()
            linked = x.ewise_mult(outdeg, binary.first).new().reduce().value or 0.0
            dangling = x.reduce().value - linked
            y = w.vxm(GA, semiring.plus_first["FP64"]).new()
            x = Vector(np.float64, n)
            x[:] << (1 - damp) / n + damp * dangling / n
            x(binary.plus) << y.apply(binary.times, right=damp)
        return x

    def tc():
        L = select.tril(GA, -1).new()
        C = Matrix(np.int64, n, n)
        C(mask=L.S) << L.mxm(L.T, semiring.plus_pair["INT64"])
        return int(C.reduce_scalar(monoid.plus["INT64"]).value or 0)

    def mxm():
        C = Matrix(np.int64, n, n)
        C(mask=GA.S) << GA.mxm(GA, semiring.plus_pair["INT64"])
        return C.nvals

    return {"bfs": bfs, "sssp": sssp, "pagerank": pagerank, "tc": tc, "mxm": mxm}


# --- scipy --------------------------------------------------------------------------------

def scipy_kernels(A, W, s, big):
    n = A.shape[0]
    AT = sp.csr_array(A.T)
    outdeg = np.diff(A.indptr).astype(np.float64)

    def pagerank():
        d = 0.85
        x = np.full(n, 1.0 / n)
        inv = np.divide(1.0, outdeg, out=np.zeros(n), where=outdeg > 0)
        for _ in range(ITERS):
            dangling = x[outdeg == 0].sum()
            x = (1 - d) / n + d * dangling / n + d * (AT @ (x * inv))
        return x

    def tc():
        L = sp.csr_array(sp.tril(A, -1))
        return int((L @ L.T).multiply(L).sum())

    def mxm():
        return (A @ A).multiply(A).nnz

    k = {
        "bfs": lambda: csgraph.breadth_first_order(A, s, directed=True, return_predecessors=True),
        "sssp": lambda: csgraph.dijkstra(W, indices=s),
        "pagerank": pagerank,
    }
    if not big:
        k["tc"] = tc
        k["mxm"] = mxm
    return k


def eb_kernels(A, W, s, threads):
    """On edgeblas.Graph objects, which keep the library's copy after the first call
    (made here, untimed, like the other libraries' imports)."""
    G = eb.Graph.from_scipy(A, directed=False)
    GW = eb.Graph.from_scipy(W)
    G._prepared()
    GW._prepared()

    def tc_mxm():
        # The CLI's `bench mxm --op tc`: L = tril(A, -1), C<L> = L L' over plus.pair, sum.
        L = eb.Graph.from_scipy(eb.select(G, "tril", -1))
        return eb.reduce_scalar(eb.mxm(L, eb.transpose(L), "plus_pair", mask=L, threads=threads))

    return {
        "bfs": lambda: eb.bfs(G, s, threads=threads),
        "sssp": lambda: eb.sssp(GW, s, threads=threads),
        "pagerank": lambda: eb.pagerank(G, iterations=ITERS, threads=threads),
        "tc": lambda: eb.triangles(G, threads=threads),
        "mxm": lambda: eb.mxm(G, G, "plus_pair", mask=G, threads=threads).nnz,
        "bfs-copy": lambda: eb.bfs(A, s, threads=threads),
        "tc-mxm": tc_mxm,
    }


def cli_figures(cli, A, s, threads, runs):
    """The CLI's own timing of BFS (bench bfs) and triangle counting (bench mxm --op tc)
    on the same graph, written as a binary file."""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "g.ebg")
        eb.write(p, A, format="binary")
        env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
        out = {}
        r = subprocess.run([cli, "bench", "bfs", p, "--sources", str(s), "--reps", str(runs),
                            "--threads", str(threads), "--json"],
                           capture_output=True, text=True, env=env)
        if r.returncode == 0:
            out["bfs"] = json.loads(r.stdout)
        else:
            out["bfs_error"] = r.stderr.strip()
        r = subprocess.run([cli, "bench", "mxm", p, "--op", "tc", "--runs", str(runs), "--json"],
                           capture_output=True, text=True, env=env)
        if r.returncode == 0:
            out["tc"] = json.loads(r.stdout)
        else:
            out["tc_error"] = r.stderr.strip()
        return out


def check(progs, A, s):
    """Untimed: the three programs agree (levels, distances, ranks, triangles, nvals)."""
    e, g, c = progs["edgeblas"], progs["graphblas"], progs["scipy"]
    assert np.array_equal(e["bfs"]()[1], e["bfs-copy"]()[1])
    levels = e["bfs"]()[0]
    gl = g["bfs"]()
    assert np.array_equal(levels, gl.to_dense(fill_value=-1)), "bfs levels differ"
    order, pred = c["bfs"]()
    assert set(order.tolist()) == set(np.flatnonzero(levels >= 0).tolist()), "bfs reach differs"
    d = e["sssp"]()
    assert np.allclose(d, c["sssp"]()), "sssp differs from Dijkstra"
    assert np.allclose(d, g["sssp"]().to_dense(fill_value=np.inf)), "sssp differs (graphblas)"
    pr = e["pagerank"]()
    assert np.allclose(pr, c["pagerank"](), rtol=1e-9), "pagerank differs (scipy)"
    assert np.allclose(pr, g["pagerank"]().to_dense(fill_value=0), rtol=1e-9), "pagerank differs"
    t = e["tc"]()
    assert t == g["tc"](), "triangles differ"
    assert t == round(e["tc-mxm"]()), "triangles differ (tc-mxm)"
    if "tc" in c:
        assert t == c["tc"](), "triangles differ (scipy)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", type=int, nargs="+", default=[18, 20])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--kernels", nargs="+",
                    default=["bfs", "sssp", "pagerank", "tc", "mxm", "bfs-copy", "tc-mxm"])
    ap.add_argument("--mxm-max-scale", type=int, default=18,
                    help="skip mxm above this scale (masked A A grows fast)")
    ap.add_argument("--scipy-product-max-scale", type=int, default=16,
                    help="skip scipy's unmasked products (tc, mxm) above this scale")
    ap.add_argument("--cli", help="path of the edgeblas binary, for the call overhead")
    a = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(a.threads))
    import graphblas as gb
    gb.init("suitesparse", blocking=True)
    gb.ss.config["nthreads"] = a.threads
    results = []
    for scale in a.scales:
        A = eb.rmat(scale)
        rng = np.random.default_rng(1)
        W = A.copy()
        W.data = rng.integers(1, 64, size=W.nnz).astype(np.float64)
        s = int(np.argmax(np.diff(A.indptr)))
        progs = {
            "edgeblas": eb_kernels(A, W, s, a.threads),
            "graphblas": gb_kernels(gb, A, W, s),
            "scipy": scipy_kernels(A, W, s, big=scale > a.scipy_product_max_scale),
        }
        check(progs, A, s)
        times = {}
        for k in a.kernels:
            if k == "mxm" and scale > a.mxm_max_scale:
                continue
            for _ in range(a.rounds):
                for prog, ks in progs.items():
                    if k not in ks:
                        continue
                    t, _ = timed(ks[k])
                    times.setdefault((k, prog), []).append(t)
        for (k, prog), ts in times.items():
            row = {"scale": scale, "n": A.shape[0], "arcs": A.nnz, "kernel": k, "program": prog,
                   "times": ts, "median": statistics.median(ts)}
            results.append(row)
            print(json.dumps(row), flush=True)
        if a.cli:
            cli = cli_figures(a.cli, A, s, a.threads, a.rounds)
            print(json.dumps({"scale": scale, "cli": cli}), flush=True)
    print(f"load average at the end: {os.getloadavg()}", file=sys.stderr)


if __name__ == "__main__":
    main()
