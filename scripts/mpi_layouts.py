#!/usr/bin/env python3
"""The distributed BFS's bytes per level in the 1-D and the 2-D layout: measured at P ranks
(default 4, oversubscribed: `mpirun --oversubscribe`) on one graph, then modelled to 1,024
ranks from the measured level profile.

  python3 scripts/mpi_layouts.py --edgeblas target/release/edgeblas --graph G.ebg \
      --source S [--ranks 4] [--threads 1]

The edgeblas binary must be built with `--features mpi`. Every byte count is the library's
own (`bytes_sent` of `bfs --json`: the payload a rank hands to MPI for other ranks, summed
over the ranks; see edgeblas::dist::net), so the measured rows are exact, not timed.

The model (per rank, per level, P = pr x pc = sqrt(P) x sqrt(P), a Graph500 Kronecker graph
of scale 30 whose levels have the measured shape scaled by 2^(30 - S)):

  1-D push   8 bytes per frontier arc to a remote owner: 8 ex/P (P-1)/P
  1-D pull   the frontier bitmap pieces to every other rank: min(n/8, 4 nf)/P (P-1)
  2-D push   expand: the frontier piece down the column, 4 nf/P (pr-1); fold: one
             (head, tail) pair per distinct head of the block, h = |T| (1 - exp(-(ex/P)/|T|))
             distinct heads among ex/P arcs into |T| = n/pr, sent as fold(h)
  2-D pull   frontier bits down the column, min(n/8, 4 nf)/P (pr-1); unvisited bits
             along the row, n/8/P (pc-1); fold(c) for c = k new/P candidates (new: the
             level's new vertices; k candidates per new vertex, between 1 when one block
             of the row finds it and pc when every block does)
  fold(c)    c pairs to the pc - 1 other owners of the row, each part in the smaller
             form (edgeblas::dist::bfs2d): 8 bytes a pair, or the owner's piece as bits
             (n/P/8) and 4 bytes a pair: min(8 c (pc-1)/pc, (pc-1) n/P/8 + 4 c (pc-1)/pc)
  counts     one allreduce of 3 words: 24 log2 P bytes (both layouts)

Messages per rank and level: 1-D 2 (P-1), 2-D 2 (pr-1) + 2 (pc-1), plus 2 log2 P.
"""
import argparse
import json
import math
import subprocess


def run(a, layout):
    cmd = ["mpirun", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none",
           "-np", str(a.ranks), a.edgeblas, "bfs", a.graph, "--source", str(a.source),
           "--backend", "mpi", "--layout", layout, "--threads", str(a.threads), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
    return json.loads(out.stdout)


def model(levels, n0, scale, p, kappa):
    """Bytes per rank of one search at P = p (1-D, 2-D); levels from the measurement."""
    f = 2 ** (scale - round(math.log2(n0)))
    n = 2 ** scale
    pr = 2 ** (round(math.log2(p)) // 2)
    pc = p // pr
    lg = math.ceil(math.log2(p)) if p > 1 else 0
    one = two = 0.0
    for k, (d, nf, ex, new) in enumerate(levels):
        nf, ex, new = nf * f, ex * f, new * f
        counts = 24 * lg

        def fold(c):
            return min(8 * c * (pc - 1) / pc, (pc - 1) * n / p / 8 + 4 * c * (pc - 1) / pc)

        if d == "push":
            one += 8 * ex / p * (p - 1) / p
            t = n / pr
            h = t * (1 - math.exp(-(ex / p) / t))
            two += 4 * nf / p * (pr - 1) + fold(h)
        else:
            front = min(n / 8, 4 * nf) / p
            one += front * (p - 1)
            two += front * (pr - 1) + n / 8 / p * (pc - 1) + fold(kappa(k, pc) * new / p)
        one += counts
        two += counts
    return one, two


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edgeblas", required=True)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    r1, r2 = run(a, "1d"), run(a, "2d")
    t1, t2 = r1["trace"], r2["trace"]
    assert [x["direction"] for x in t1] == [x["direction"] for x in t2], "the layouts took other directions"
    n = r1["vertices"]
    print(f"Measured: {a.graph}, {n} vertices, {r1['arcs']} arcs, source {a.source}, P = {a.ranks} "
          f"(2-D grid the squarest), bytes and messages of all ranks together:\n")
    print("| level | direction | frontier | new | 1-D bytes | 2-D bytes | 2-D / 1-D | 1-D messages | 2-D messages |")
    print("|---|---|---|---|---|---|---|---|---|")
    levels = []
    for k, (x, y) in enumerate(zip(t1, t2)):
        new = t1[k + 1]["frontier_vertices"] if k + 1 < len(t1) else 0
        levels.append((x["direction"], x["frontier_vertices"], x["edges_examined"], new))
        ratio = y["bytes_sent"] / x["bytes_sent"] if x["bytes_sent"] else float("nan")
        print(f"| {k} | {x['direction']} | {x['frontier_vertices']} | {new} | {x['bytes_sent']:,} | "
              f"{y['bytes_sent']:,} | {ratio:.2f} | {x['messages']} | {y['messages']} |")
    print(f"| all | | | | {r1['bytes_sent']:,} | {r2['bytes_sent']:,} | "
          f"{r2['bytes_sent'] / r1['bytes_sent']:.2f} | {r1['messages']} | {r2['messages']} |")
    print("\nModel, Graph500 scale 30 (strong scaling), bytes per rank per search:\n")
    print("| P | grid | 1-D MB | 2-D MB, 1 candidate | 2-D MB, sqrt(P) candidates | 1-D messages | 2-D messages |")
    print("|---|---|---|---|---|---|---|")
    levels_n = len(levels)
    for p in [4, 16, 64, 256, 1024]:
        prm = 2 ** (round(math.log2(p)) // 2)
        pcm = p // prm
        one, best = model(levels, n, 30, p, lambda k, pc: 1.0)
        _, worst = model(levels, n, 30, p, lambda k, pc: float(pc))
        lg = math.ceil(math.log2(p))
        m1 = levels_n * (2 * (p - 1) + 2 * lg)
        m2 = levels_n * (2 * (prm - 1) + 2 * (pcm - 1) + 2 * lg)
        print(f"| {p} | {prm}x{pcm} | {one / 1e6:,.1f} | {best / 1e6:,.1f} | {worst / 1e6:,.1f} | {m1} | {m2} |")


if __name__ == "__main__":
    main()
