#!/usr/bin/env python3
"""SuiteSparse:GraphBLAS (python-graphblas) running the products of `edgeblas bench mxm`
on the same Matrix Market file, with the same figures (nvals and the sum of C's values).

    pip install python-graphblas==2025.2.0 suitesparse-graphblas==9.4.5.0 scipy numpy
    python3 scripts/bench_mxm_peers.py GRAPH.mtx --op tc|square|masked-square [--threads 2] [--runs 3]

The graph is read as a pattern (values dropped, duplicates merged); a symmetric Matrix
Market file is expanded to both arcs, as edgeblas reads it.
  tc:            L = tril(A, -1); C<L.S> = L @ L.T over plus_pair; reduce (all timed)
  square:        C = A @ A over plus_pair
  masked-square: C<A.S> = A @ A over plus_pair
"""
import argparse
import json
import statistics
import time

import graphblas as gb
import numpy as np
import scipy.io
from graphblas import Matrix, monoid, select, semiring


def run(op, A):
    if op == "tc":
        L = select.tril(A, -1).new()
        C = Matrix(np.uint64, A.nrows, A.ncols)
        C(mask=L.S) << L.mxm(L.T, semiring.plus_pair["UINT64"])
    elif op == "square":
        C = A.mxm(A, semiring.plus_pair["UINT64"]).new()
    else:
        C = Matrix(np.uint64, A.nrows, A.ncols)
        C(mask=A.S) << A.mxm(A, semiring.plus_pair["UINT64"])
    return C.nvals, int(C.reduce_scalar(monoid.plus["UINT64"]).value or 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graph")
    ap.add_argument("--op", required=True, choices=["tc", "square", "masked-square"])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    gb.ss.config["nthreads"] = args.threads
    m = scipy.io.mmread(args.graph).tocoo()
    n = m.shape[0]
    r_, c_ = m.row.astype(np.int64), m.col.astype(np.int64)
    A = Matrix.from_coo(r_, c_, True, nrows=n, ncols=n, dtype=bool)
    got = run(args.op, A)  # warm-up
    secs = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        got = run(args.op, A)
        secs.append(time.perf_counter() - t0)
    print(json.dumps({"peer": "suitesparse", "op": args.op, "threads": args.threads,
                      "runs": args.runs, "seconds_median": statistics.median(secs),
                      "seconds": secs, "nvals": got[0], "sum": got[1]}))


if __name__ == "__main__":
    main()
