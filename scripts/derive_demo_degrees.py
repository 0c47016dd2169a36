#!/usr/bin/env python3
"""Derives the degree distribution embedded in `edgeblas demo` from the SNAP graph.

    python3 scripts/derive_demo_degrees.py [GRAPH] [OUT]

GRAPH defaults to ../shared/data/real/web-NotreDame.txt.gz (SNAP web-NotreDame: R. Albert,
H. Jeong and A.-L. Barabasi, "Diameter of the World-Wide Web", Nature 401, 1999; from the
Stanford Large Network Dataset Collection, J. Leskovec and A. Krevl, 2014,
https://snap.stanford.edu/data/web-NotreDame.html). OUT defaults to
src/generate/chung_lu/web-NotreDame.degrees.csv.

The Chung-Lu generator is undirected, so the graph is read as undirected: the degree of a
vertex is its degree in the symmetrized simple graph (u -> v and v -> u are one edge,
repeats merged, self-loops dropped). Every id from 0 to the largest id counts as a vertex
(degree 0 included). The output is a `degree,count` CSV with a header, ascending by
degree, preceded by `#` comment lines giving the provenance (the generator's `--degrees`
reader skips them).
"""

import gzip
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_IN = os.path.join(ROOT, "..", "shared", "data", "real", "web-NotreDame.txt.gz")
DEFAULT_OUT = os.path.join(ROOT, "src", "generate", "chung_lu", "web-NotreDame.degrees.csv")


def main() -> None:
    src = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_IN
    out = sys.argv[2] if len(sys.argv) > 2 else DEFAULT_OUT
    opener = gzip.open if src.endswith(".gz") else open
    edges = set()
    max_id = -1
    records = 0
    with opener(src, "rt") as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in "#%":
                continue
            a, b = line.split()[:2]
            u, v = int(a), int(b)
            records += 1
            max_id = max(max_id, u, v)
            if u != v:
                edges.add((u, v) if u < v else (v, u))
    n = max_id + 1
    deg = [0] * n
    for u, v in edges:
        deg[u] += 1
        deg[v] += 1
    hist = sorted(Counter(deg).items())
    with open(out, "w", newline="\n") as f:
        f.write("# web-NotreDame (SNAP): R. Albert, H. Jeong and A.-L. Barabasi, Nature 401, 1999;\n")
        f.write("# J. Leskovec and A. Krevl, SNAP Datasets, 2014, https://snap.stanford.edu/data/web-NotreDame.html\n")
        f.write(f"# undirected degrees of the symmetrized simple graph (no self-loops): n = {n}, "
                f"{len(edges)} edges from {records} arcs; written by scripts/derive_demo_degrees.py\n")
        f.write("degree,count\n")
        for d, c in hist:
            f.write(f"{d},{c}\n")
    print(f"{src}: {records} arcs, n = {n}, {len(edges)} undirected edges, "
          f"{len(hist)} distinct degrees, max degree {hist[-1][0]} -> {out}")


if __name__ == "__main__":
    main()
