#!/usr/bin/env python3
"""A model of the distributed BFS and Chung-Lu generation at scale, from the measured
runs of scripts/mpi_bench.sh (its JSON lines in target/mpi-bench/ by default).

Each BFS level is bulk synchronous: a rank computes its share, then exchanges. Per rank
and per level:

    compute  = arcs examined / P / R          R: arcs a rank examines per second,
                                              measured at P = 1 on this box
    push     = 8 bytes per frontier arc sent to a remote owner  (alltoallv of (head,
               parent) pairs; (P-1)/P of the arcs are remote)
               + 2 (P - 1) messages           (the alltoall of counts, then the pairs)
    pull     = the frontier bitmap, n/8 bytes received (allgatherv of every rank's
               piece), or 4 bytes a frontier vertex when |F| < n/32
               + 2 (P - 1) messages
    counts   = one allreduce: 2 log2 P messages
    time     = compute + bytes / B + messages * alpha,  B = 25 GB/s, alpha = 2 us

The level profile (directions, frontier sizes, arcs examined) is the measured one of
Kronecker scale S0 at P = 1, scaled by 2^(S - S0): Kronecker levels keep their shape
as the scale grows. Weak scaling keeps 2^S0 vertices per rank (scale S0 + log2 P);
strong scaling fixes Graph500 scale 30 (2^30 vertices, 2^34 edges).

Chung-Lu: every edge is drawn once and sent as two (row, column) pairs of 8 bytes to
the owners of its rows, (P-1)/P of them remote; the rate R_gen (edges per second per
rank, walk, routing and the local CSR) is measured at P = 1 with one thread:

    time = m / P / R_gen + 16 m (P-1) / P^2 / B + 2 (P - 1) alpha + 2 log2 P alpha

Usage: scripts/mpi_model.py [DIR] (default target/mpi-bench).
"""
import json
import math
import statistics
import sys

B = 25e9  # bytes per second per rank (one rank per node)
ALPHA = 2e-6  # seconds per message
RANKS = [1, 4, 16, 64, 256, 1024]


def load(d):
    runs = [json.loads(l) for l in open(f"{d}/bfs.jsonl")]
    p1 = [r for r in runs if r["ranks"] == 1]
    cl = [json.loads(l) for l in open(f"{d}/chunglu.jsonl")]
    return p1, cl


def bfs_profile(p1):
    """Per level: direction, |F|, arcs examined, at the measured scale; R in arcs/s."""
    t = p1[0]["trace"]
    levels = [(x["direction"], x["frontier_vertices"], x["edges_examined"]) for x in t]
    secs = [statistics.median(r["trace"][k]["seconds"] for r in p1) for k in range(len(t))]
    examined = sum(x[2] for x in levels)
    rate = examined / sum(secs)
    n0 = p1[0]["vertices"]
    traversed = p1[0]["traversed_edges"]
    return levels, rate, n0, traversed


def bfs_time(levels, rate, factor, n, p, grid=False):
    """Seconds of one search on p ranks, levels scaled by `factor`; also bytes/rank.
    `grid`: the messages of a 2-D layout (sqrt(P) partners in each of the expand and
    the fold), the bytes unchanged."""
    total, total_bytes = 0.0, 0.0
    lg = math.ceil(math.log2(p)) if p > 1 else 0
    for direction, nf, ex in levels:
        nf, ex = nf * factor, ex * factor
        compute = ex / p / rate
        if p == 1:
            total += compute
            continue
        if direction == "push":
            by = 8 * ex / p * (p - 1) / p
        else:
            by = min(n / 8, 4 * nf) * (p - 1) / p
        partners = 2 * (math.isqrt(p) - 1) if grid else p - 1
        msgs = 2 * partners + 2 * lg
        total += compute + by / B + msgs * ALPHA
        total_bytes += by
    return total, total_bytes


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "target/mpi-bench"
    p1, cl = load(d)
    levels, rate, n0, traversed0 = bfs_profile(p1)
    s0 = round(math.log2(n0))
    print(f"Inputs: R = {rate / 1e6:.0f} M arcs examined per second per rank (Kronecker "
          f"scale {s0}, P = 1, {len(levels)} levels: "
          f"{' '.join(x[0] for x in levels)}); B = {B / 1e9:.0f} GB/s, alpha = "
          f"{ALPHA * 1e6:.0f} us.\n")
    print("BFS, Graph500 Kronecker (edge factor 16):\n")
    print("| P | weak: scale | weak: s per BFS | weak: GTEPS | weak: GTEPS/rank "
          "| strong (scale 30): s per BFS | strong: GTEPS | strong: GTEPS/rank | strong: comm share "
          "| strong, 2-D messages: GTEPS |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for p in RANKS:
        sw = s0 + int(math.log2(p))
        fw = 2 ** (sw - s0)
        tw, _ = bfs_time(levels, rate, fw, 2 ** sw, p)
        gw = traversed0 * fw / tw / 1e9
        fs = 2 ** (30 - s0)
        ts, _ = bfs_time(levels, rate, fs, 2 ** 30, p)
        compute = sum(ex * fs for _, _, ex in levels) / p / rate
        gs = traversed0 * fs / ts / 1e9
        t2, _ = bfs_time(levels, rate, fs, 2 ** 30, p, grid=True)
        print(f"| {p} | {sw} | {tw:.4f} | {gw:.2f} | {gw / p:.3f} | {ts:.3f} | {gs:.2f} | "
              f"{gs / p:.3f} | {1 - compute / ts:.0%} | {traversed0 * fs / t2 / 1e9:.2f} |")

    one = [c for c in cl if c["ranks"] == 1][0]
    r_gen = one["medges_per_s"] * 1e6 / one["threads"]
    m = 1e11
    print(f"\nChung-Lu, m = 10^11 edges (strong) and 10^11 / 1024 edges per rank (weak); "
          f"R_gen = {r_gen / 1e6:.1f} M edges/s per rank (measured, P = 1, one thread):\n")
    print("| P | strong: s | strong: G edges/s | strong: GB sent per rank | weak: m | weak: s | weak: G edges/s |")
    print("|---|---|---|---|---|---|---|")
    for p in RANKS:
        lg = math.ceil(math.log2(p)) if p > 1 else 0

        def t(mm):
            by = 16 * mm * (p - 1) / p / p
            return mm / p / r_gen + by / B + (2 * (p - 1) + 2 * lg) * ALPHA, by

        ts, by = t(m)
        mw = m / 1024 * p
        tw, _ = t(mw)
        print(f"| {p} | {ts:,.1f} | {m / ts / 1e9:.2f} | {by / 1e9:.1f} | {mw:.2e} | {tw:.1f} | "
              f"{mw / tw / 1e9:.2f} |")


if __name__ == "__main__":
    main()
