#!/usr/bin/env python3
"""SSSP side by side: edgeblas `sssp` (delta-stepping) against gapbs `sssp` (delta-stepping,
the same delta and sources), alternating the two programs, several rounds, medians.

  python3 scripts/bench_sssp_peers.py --gapbs DIR --edgeblas target/release/edgeblas \
      --graph BASE --delta D [--sources 4] [--rounds 3] [--threads 2] [--out F.jsonl]

With `--bellman-ford PYTHON` instead of `--gapbs`/`--delta`: edgeblas `sssp --method
bellman-ford` against SuiteSparse's MIN.PLUS Bellman-Ford (../shared/peers/sssp_bench.py
`--tool gb-bf` under PYTHON, a venv with python-graphblas), the same sources, alternating
by round (the peer loads BASE.wel once a round and times each source once).

BASE.w.ebg (or BASE.wel) is what edgeblas reads, BASE.wsg what gapbs reads (gapbs's
converter: `converter -f BASE.nohdr.wel -s -w -b BASE.wsg`); BASE.sources lists the
sources, 0-based, as ../shared/peers writes them. Times are the kernels' own (gapbs's
`Trial Time`, edgeblas's JSON `seconds`), loading excluded. SuiteSparse's Bellman-Ford runs
through ../shared/peers/sssp_bench.py.
"""
import argparse
import json
import os
import re
import statistics
import subprocess


def inputs(base, k):
    """What edgeblas reads (BASE.w.ebg, else BASE.wel) and the first k sources."""
    ebg = base + ".w.ebg" if os.path.exists(base + ".w.ebg") else base + ".wel"
    srcs = [int(l) for l in open(base + ".sources") if l.strip() and not l.startswith("#")]
    return ebg, srcs[:k]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gapbs")
    ap.add_argument("--edgeblas", required=True)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--delta", type=int)
    ap.add_argument("--bellman-ford", metavar="PYTHON", dest="bellman_ford")
    ap.add_argument("--sources", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if a.bellman_ford:
        return bellman_ford(a)
    if not (a.gapbs and a.delta):
        ap.error("--gapbs and --delta (or --bellman-ford PYTHON)")
    base = a.graph
    ebg, srcs = inputs(base, a.sources)
    env = dict(os.environ, OMP_NUM_THREADS=str(a.threads))
    times = {"edgeblas": [], "gapbs": []}
    for r in range(a.rounds):
        for s in srcs:
            o = subprocess.run([a.edgeblas, "sssp", ebg, "--source", str(s), "--delta", str(a.delta),
                                "--threads", str(a.threads), "--json"], capture_output=True, text=True, check=True)
            e = json.loads(o.stdout)
            times["edgeblas"].append(e["seconds"])
            o = subprocess.run([os.path.join(a.gapbs, "sssp"), "-f", base + ".wsg", "-d", str(a.delta),
                                "-r", str(s), "-n", "1"], capture_output=True, text=True, check=True, env=env)
            times["gapbs"].append(float(re.search(r"Trial Time:\s+([0-9.]+)", o.stdout).group(1)))
    med = {k: statistics.median(v) for k, v in times.items()}
    rec = dict(graph=os.path.basename(base), delta=a.delta, threads=a.threads, sources=srcs,
               rounds=a.rounds, edgeblas_median_s=med["edgeblas"], gapbs_median_s=med["gapbs"],
               ratio_gapbs_over_edgeblas=med["gapbs"] / med["edgeblas"], times=times)
    line = json.dumps(rec)
    print(line)
    if a.out:
        with open(a.out, "a") as f:
            f.write(line + "\n")


def bellman_ford(a):
    base = a.graph
    ebg, srcs = inputs(base, a.sources)
    peer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../shared/peers/sssp_bench.py")
    times = {"edgeblas": [], "suitesparse": []}
    rounds = {}
    for r in range(a.rounds):
        for s in srcs:
            o = subprocess.run([a.edgeblas, "sssp", ebg, "--source", str(s), "--method", "bellman-ford",
                                "--threads", str(a.threads), "--json"], capture_output=True, text=True, check=True)
            e = json.loads(o.stdout)
            times["edgeblas"].append(e["seconds"])
            rounds[s] = e["rounds"]
        o = subprocess.run([a.bellman_ford, peer, base + ".wel", "--tool", "gb-bf", "--threads", str(a.threads),
                            "--nsources", str(len(srcs)), "--reps", "1"], capture_output=True, text=True, check=True)
        for line in o.stdout.splitlines():
            rec = json.loads(line)
            if rec.get("kind") == "sssp-source":
                times["suitesparse"].append(rec["t_median"])
    med = {k: statistics.median(v) for k, v in times.items()}
    rec = dict(graph=os.path.basename(base), method="bellman-ford", threads=a.threads, sources=srcs,
               rounds=a.rounds, edgeblas_rounds=rounds, edgeblas_median_s=med["edgeblas"],
               suitesparse_median_s=med["suitesparse"],
               ratio_suitesparse_over_edgeblas=med["suitesparse"] / med["edgeblas"], times=times)
    line = json.dumps(rec)
    print(line)
    if a.out:
        with open(a.out, "a") as f:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
