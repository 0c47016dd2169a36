#!/usr/bin/env python3
"""SuiteSparse:GraphBLAS (python-graphblas) running the same sequence of operations as
examples/pagerank.rs and examples/bellman_ford.rs, on the same Matrix Market file.

    pip install python-graphblas==2025.2.0 suitesparse-graphblas==9.4.5.0 scipy numpy
    python3 scripts/bench_templates_peers.py GRAPH.mtx SOURCES [--threads 2]

SOURCES are 0-based indices, comma-separated. Bellman-Ford uses the weights
w(i, j) = 1 + (31 i + 17 j) mod 255, as the Rust example does.
"""
import argparse
import time

import graphblas as gb
import numpy as np
import scipy.io
from graphblas import Matrix, Vector, binary, monoid, semiring


def pagerank(A, deg, iterations, damping=0.85):
    """`iterations` rounds of the PageRank template (the dangling rank spread over all
    vertices); `deg` is the out-degree vector. Also used by bench_algos_peers.py."""
    n = A.nrows
    r = Vector(float, n)
    r << 1.0 / n
    for _ in range(iterations):
        w = r.ewise_mult(deg, binary.truediv).new()
        dangling_r = Vector(float, n)
        dangling_r(mask=~deg.S, replace=True) << r
        dangling = dangling_r.reduce(monoid.plus).value or 0.0
        t = w.vxm(A, semiring.plus_first["FP64"]).new()
        base = (1 - damping + damping * dangling) / n
        r << base
        r(binary.plus) << t.apply(binary.times, right=damping)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graph")
    ap.add_argument("sources")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=20)
    args = ap.parse_args()
    gb.ss.config["nthreads"] = args.threads
    m = scipy.io.mmread(args.graph).tocsr()
    m.sum_duplicates()
    n = m.shape[0]
    coo = m.tocoo()
    r_, c_ = coo.row.astype(np.int64), coo.col.astype(np.int64)
    A = Matrix.from_coo(r_, c_, True, nrows=n, ncols=n, dtype=bool)

    # PageRank: the template of examples/pagerank.rs, operation for operation. In vxm
    # GraphBLAS multiplies (u(k), A(k, j)), so the Rust PLUS.SECOND (vector entry) is PLUS_FIRST.
    deg = A.reduce_rowwise(monoid.plus["INT64"]).new(dtype="FP64")
    damping = 0.85
    t0 = time.perf_counter()
    r = pagerank(A, deg, args.iterations, damping)
    ms = (time.perf_counter() - t0) * 1e3
    print(f"pagerank: n {n}, arcs {A.nvals}, {args.iterations} iterations in {ms:.1f} ms, "
          f"rank sum {r.reduce().value:.12f}")

    # Bellman-Ford: the template of examples/bellman_ford.rs.
    W = Matrix.from_coo(r_, c_, 1.0 + ((31 * r_ + 17 * c_) % 255), nrows=n, ncols=n,
                        dtype=float)
    for s in [int(x) for x in args.sources.split(",")]:
        t0 = time.perf_counter()
        dist = Vector(float, n)
        dist << float("inf")
        f = Vector.from_coo([s], [0.0], size=n)
        dist(mask=f.S) << f
        rounds = 0
        while f.nvals > 0 and rounds < n:
            t = f.vxm(W, semiring.min_plus).new()
            # f = select(t < dist): the changed set
            lt = t.ewise_mult(dist, binary.lt).new()
            f = Vector(float, n)
            f(mask=lt.V) << t
            dist(binary.min, mask=f.S) << f
            rounds += 1
        ms = (time.perf_counter() - t0) * 1e3
        d = dist.to_coo()[1]
        fin = d[np.isfinite(d)]
        print(f"bellman-ford template: source {s}, {rounds} rounds, reached {fin.size}, "
              f"distance sum {fin.sum():g}, {ms:.1f} ms")


if __name__ == "__main__":
    main()
