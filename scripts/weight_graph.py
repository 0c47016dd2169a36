#!/usr/bin/env python3
"""Seeded integer weights on a symmetric edge list, the same weight on both arcs of an edge.

  python3 scripts/weight_graph.py IN.el OUT.wel [--low 1] [--high 1000] [--seed 1]

IN.el is a SNAP-style edge list (`# ...` comments, then `u v` per arc). Every undirected
edge {u, v} gets one weight drawn uniformly from [low, high] with numpy's default_rng(seed),
keyed by the edge's (min, max) pair, so both of its arcs carry it. OUT.wel keeps the
comments and writes `u v w` per arc, in the input's arc order. This is how USA-road-FLA
(hops only in ../shared/data) gets the weights of the SSSP benchmark in BENCHMARKS.md.
"""
import argparse

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--low", type=int, default=1)
    ap.add_argument("--high", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.low > a.high:
        raise SystemExit(f"error: --low {a.low} > --high {a.high}")
    comments = []
    with open(a.inp) as f:
        for line in f:
            if line.startswith("#"):
                comments.append(line)
            else:
                break
    arcs = np.loadtxt(a.inp, comments="#", dtype=np.int64, ndmin=2)
    if arcs.shape[1] < 2:
        raise SystemExit(f"error: {a.inp}: expected `u v` per line")
    u, v = arcs[:, 0], arcs[:, 1]
    lo, hi = np.minimum(u, v), np.maximum(u, v)
    keys = lo * (int(hi.max()) + 1) + hi
    uniq, inv = np.unique(keys, return_inverse=True)
    rng = np.random.default_rng(a.seed)
    w = rng.integers(a.low, a.high + 1, size=len(uniq))[inv]
    with open(a.out, "w") as f:
        f.writelines(comments)
        np.savetxt(f, np.column_stack([u, v, w]), fmt="%d")


if __name__ == "__main__":
    main()
