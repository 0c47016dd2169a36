#!/usr/bin/env python3
"""BFS side by side: `edgeblas bench bfs` against gapbs `bfs` and SuiteSparse:GraphBLAS's
direction-optimising parent BFS (../shared/peers/bfs_bench.py --tool gb-pushpull), the
same sources, the programs alternating, several rounds.

  python3 scripts/bench_bfs_peers.py --gapbs DIR --edgeblas target/release/edgeblas \\
      --graphs /work/graphs/kron20,/work/graphs/road-fla [--threads 1,2] [--rounds 3] \\
      [--sources 8] [--peers-python $WORK/venv/bin/python] > rows.jsonl

BASE.ebg is what edgeblas reads, BASE.sg what gapbs reads (`converter -f BASE.el -s -b
BASE.sg`), BASE.el what bfs_bench.py reads, BASE.sources the sources (0-based, as
../shared/peers/gen_graphs.py writes them). Times are the kernels' own, warm: edgeblas's
`seconds_median` over the sources (one search per source in one process), gapbs's
median `Trial Time` over 3 trials per source, SuiteSparse's median of per-source
medians of 3 repetitions after a warm-up. Without --peers-python SuiteSparse is skipped.
One JSON line per (graph, threads, round, tool), then a summary line per (graph,
threads) with the medians over rounds and the ratios.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "..", "..", "shared", "peers")


def run_edgeblas(a, base, srcs, t):
    out = subprocess.run([a.edgeblas, "bench", "bfs", base + ".ebg", "--sources",
                          ",".join(map(str, srcs)), "--threads", str(t), "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["seconds_median"]


def run_gapbs(a, base, srcs, t):
    env = dict(os.environ, OMP_NUM_THREADS=str(t))
    times = []
    for s in srcs:
        out = subprocess.run([os.path.join(a.gapbs, "bfs"), "-f", base + ".sg", "-r", str(s),
                              "-n", "3"], check=True, capture_output=True, text=True,
                             env=env).stdout
        times += [float(x) for x in re.findall(r"Trial Time:\s+([0-9.]+)", out)]
    return statistics.median(times)


def run_suitesparse(a, base, srcs, t):
    out = subprocess.run([a.peers_python, os.path.join(PEERS, "bfs_bench.py"), base + ".el",
                          "--tool", "gb-pushpull", "--threads", str(t), "--sources",
                          ",".join(map(str, srcs)), "--reps", "3"],
                         check=True, capture_output=True, text=True).stdout
    lines = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    return [l for l in lines if l.get("kind") == "bfs-summary"][-1]["t_median"]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gapbs", required=True)
    ap.add_argument("--edgeblas", required=True)
    ap.add_argument("--graphs", required=True, help="comma-separated BASE paths")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sources", type=int, default=8)
    ap.add_argument("--peers-python", default=None)
    a = ap.parse_args()
    for base in a.graphs.split(","):
        srcs = [int(l) for l in open(base + ".sources")
                if l.strip() and not l.startswith("#")][: a.sources]
        name = os.path.basename(base)
        for t in [int(x) for x in a.threads.split(",")]:
            got = {}
            for r in range(a.rounds):
                tools = [("edgeblas", run_edgeblas), ("gapbs", run_gapbs)]
                if a.peers_python:
                    tools.append(("suitesparse", run_suitesparse))
                for tool, f in tools:
                    sec = f(a, base, srcs, t)
                    got.setdefault(tool, []).append(sec)
                    print(json.dumps(dict(graph=name, threads=t, round=r, tool=tool,
                                          seconds=sec)), flush=True)
            med = {k: statistics.median(v) for k, v in got.items()}
            summary = dict(graph=name, threads=t, summary=True,
                           **{f"{k}_median_s": v for k, v in med.items()},
                           **{f"{k}_runs_s": v for k, v in got.items()},
                           gapbs_over_edgeblas=med["gapbs"] / med["edgeblas"])
            if "suitesparse" in med:
                summary["suitesparse_over_edgeblas"] = med["suitesparse"] / med["edgeblas"]
            print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    sys.exit(main())
