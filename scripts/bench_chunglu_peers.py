#!/usr/bin/env python3
"""Chung-Lu generation side by side: `edgeblas bench chung-lu` against NetworKit
(ChungLuGenerator; ChungLuGeneratorAlamEtAl sequential and parallel through cl_alam) and
igraph, on the same degree sequences, alternating the programs in one run.

  python scripts/bench_chunglu_peers.py --edgeblas target/release/edgeblas \
      --alam-bin $WORK/cl_alam --work $WORK/chunglu [--threads 1,2] [--reps 3] > rows.jsonl
  python scripts/bench_chunglu_peers.py --summarize rows.jsonl [more.jsonl ...]   # tables

Sequences: the peers' power laws (../shared/peers/chunglu_bench.py degree_sequence:
n = 1M, gamma 2.1, dmin 2 and 4, seed 1, sorted descending), and web-NotreDame's
in-degree histogram expanded into a descending sequence. edgeblas reads the same
sequence as a text file (one degree per line: it keeps the vertex order) and, for the
real distribution, also the histogram CSV itself. Every row is one JSON line: tool,
distribution, threads, median seconds of generation, undirected edges, Medges/s, and
the quality numbers each tool reports.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "..", "..", "shared", "peers")
sys.path.insert(0, PEERS)
import chunglu_bench as cb  # noqa: E402


def sequences(work, big=False):
    out = {}
    for dmin in (2, 4):
        d = cb.degree_sequence(1_000_000, 2.1, dmin, 1)
        out[f"pl-n1M-g2.1-dmin{dmin}"] = d
    if big:
        out["pl-n10M-g2.1-dmin4"] = cb.degree_sequence(10_000_000, 2.1, 4, 1)
    hist = os.path.join(HERE, "..", "..", "shared", "data", "real", "degrees",
                        "web-NotreDame.in_degree_hist.csv")
    if os.path.exists(hist):
        h = np.loadtxt(hist, delimiter=",", skiprows=1, dtype=np.int64).reshape(-1, 2)
        d = np.repeat(h[:, 0], h[:, 1])
        out["web-NotreDame-in"] = np.sort(d)[::-1].copy()
        out["_hist:web-NotreDame-in"] = hist
    files = {}
    for name, d in out.items():
        if name.startswith("_"):
            continue
        p = os.path.join(work, name + ".txt")
        np.savetxt(p, d, fmt="%d")
        u = os.path.join(work, name + ".u64")
        d.astype("<u8").tofile(u)
        files[name] = (d, p, u)
    return files, out


def run_edgeblas(a, name, path, threads, label="edgeblas"):
    cmd = [a.edgeblas, "bench", "chung-lu", "--degrees", path, "--threads", str(threads),
           "--reps", str(a.our_reps), "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    j = json.loads(r.stdout.strip().splitlines()[-1])
    return dict(tool=label, dist=name, threads=threads, seconds=j["seconds_median"],
                edges=j["edges"], medges_per_s=j["edges"] / j["seconds_median"] / 1e6,
                kl_ideal_out_log2=j["kl_ideal_out_log2"], kl_in_out_log2=j["kl_in_out_log2"],
                edges_z=j["edges_z"], groups=j["groups"], tasks=j["tasks"], times=j["seconds"],
                command=" ".join(cmd))


def run_alam(a, name, d, u64, variant, threads):
    times, edges, q = [], [], None
    for rep in range(a.reps):
        outf = u64 + ".deg"
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        cmd = [a.alam_bin, u64, outf, variant, str(threads), str(1000 * (rep + 2))]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            return dict(tool="nk-" + variant, dist=name, threads=threads, failed=True,
                        error=(r.stderr or r.stdout).strip()[-200:], command=" ".join(cmd))
        j = json.loads(r.stdout.strip().splitlines()[-1])
        times.append(j["seconds"])
        edges.append(j["edges"])
        if q is None:
            dout = np.fromfile(outf, dtype="<u8").astype(np.int64)
            if variant.startswith("alam"):
                dout = dout[::-1].copy()
            q = cb.quality(d, dout)
    t = float(np.median(times))
    return dict(tool="nk-" + variant, dist=name, threads=threads, seconds=t,
                edges=int(np.median(edges)), medges_per_s=float(np.median(edges)) / t / 1e6,
                kl_ideal_out_log2=q["kl_ideal_out_log2"], kl_in_out_log2=q["kl_in_out_log2"],
                times=times, command=" ".join(cmd))


def run_networkit(a, name, d, threads):
    import networkit as nk
    nk.setNumberOfThreads(threads)
    times, edges, q = [], [], None
    seq = d.tolist()
    for rep in range(a.reps):
        nk.setSeed(1000 * (rep + 2), True)
        t0 = time.perf_counter()
        G = nk.generators.ChungLuGenerator(seq).generate()
        times.append(time.perf_counter() - t0)
        edges.append(G.numberOfEdges())
        if q is None:
            dout = np.asarray(nk.centrality.DegreeCentrality(G).run().scores(), dtype=np.int64)
            q = cb.quality(d, dout)
        del G
    t = float(np.median(times))
    return dict(tool="networkit", dist=name, threads=threads, seconds=t,
                edges=int(np.median(edges)), medges_per_s=float(np.median(edges)) / t / 1e6,
                kl_ideal_out_log2=q["kl_ideal_out_log2"], kl_in_out_log2=q["kl_in_out_log2"],
                times=times, command="networkit.generators.ChungLuGenerator(seq).generate()")


def run_igraph(a, name, d):
    import igraph as ig
    import random
    w = d.astype(float).tolist()
    random.seed(2)
    t0 = time.perf_counter()
    G = ig.Graph.Chung_Lu(w, loops=False, variant="original")
    t = time.perf_counter() - t0
    return dict(tool="igraph", dist=name, threads=1, seconds=t, edges=G.ecount(),
                medges_per_s=G.ecount() / t / 1e6, times=[t],
                command="igraph.Graph.Chung_Lu(w, loops=False, variant='original')")


def summarize(paths):
    """Markdown tables from the JSON lines of earlier runs: per configuration the median
    over rounds, then edgeblas against the best working NetworKit generator of the same
    round (a failed run has no seconds and is not a candidate)."""
    import statistics
    rows = [json.loads(l) for p in paths for l in open(p) if l.strip()]
    order = []
    by = {}
    for r in rows:
        k = (r["dist"], r["threads"], r["tool"])
        if k not in by:
            order.append(k)
        by.setdefault(k, []).append(r)
    print("| distribution | tool | threads | median time | edges | M edges/s | runs |")
    print("|---|---|---|---|---|---|---|")
    for k in order:
        ok = [r for r in by[k] if r.get("seconds")]
        if not ok:
            print(f"| {k[0]} | {k[2]} | {k[1]} | failed ({len(by[k])}x) | | | |")
            continue
        t = statistics.median(r["seconds"] for r in ok)
        e = ok[0]["edges"]
        runs = ", ".join(f"{r['seconds'] * 1e3:.0f}" for r in ok)
        print(f"| {k[0]} | {k[2]} | {k[1]} | {t * 1e3:.0f} ms | {e:,} | {e / t / 1e6:.2f} | {runs} ms |")
    print()
    print("| distribution | threads | round | edgeblas M edges/s | best working NetworKit (same round) | ratio |")
    print("|---|---|---|---|---|---|")
    rounds = {}
    for r in rows:
        rounds.setdefault((r["dist"], r["threads"], r.get("round", 0)), []).append(r)
    for (d, t, rnd), rs in rounds.items():
        ours = [r for r in rs if r["tool"] == "edgeblas" and r.get("seconds")]
        peers = [r for r in rs if r["tool"] in ("networkit", "nk-alam-par", "nk-alam-seq")
                 and r.get("seconds")]
        if not ours or not peers:
            continue
        best = max(peers, key=lambda r: r["medges_per_s"])
        x = ours[0]["medges_per_s"]
        print(f"| {d} | {t} | {rnd} | {x:.2f} | {best['tool']} {best['medges_per_s']:.2f} "
              f"| {x / best['medges_per_s']:.2f}x |")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--summarize":
        summarize(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edgeblas", required=True)
    ap.add_argument("--alam-bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--our-reps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=2, help="alternations per configuration")
    ap.add_argument("--igraph", action="store_true")
    ap.add_argument("--dists", default="", help="comma-separated subset of distributions")
    ap.add_argument("--big", action="store_true",
                    help="also the n = 10M power law (gamma 2.1, dmin 4)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    files, extra = sequences(a.work, a.big)
    threads = [int(t) for t in a.threads.split(",")]
    only = [x for x in a.dists.split(",") if x]
    for name, (d, txt, u64) in files.items():
        if only and name not in only:
            continue
        for rnd in range(a.rounds):
            for t in threads:
                rows = [run_edgeblas(a, name, txt, t)]
                hist = extra.get("_hist:" + name)
                if hist:
                    rows.append(run_edgeblas(a, name, hist, t, label="edgeblas (histogram)"))
                rows.append(run_alam(a, name, d, u64, "alam-par", t))
                if t == 1:
                    rows.append(run_alam(a, name, d, u64, "alam-seq", 1))
                rows.append(run_networkit(a, name, d, t))
                if t == 1 and a.igraph and rnd == 0:
                    rows.append(run_igraph(a, name, d))
                for r in rows:
                    r["round"] = rnd
                    print(json.dumps(r), flush=True)


if __name__ == "__main__":
    main()
