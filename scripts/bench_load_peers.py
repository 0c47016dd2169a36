#!/usr/bin/env python3
"""Loading speed side by side: edgeblas against scipy.io.mmread and NetworKit's readers.

  python scripts/bench_load_peers.py --edgeblas target/release/edgeblas [--rounds 5]
         [--threads 2] FILE [FILE ...]

Each round runs every tool once on every file, in alternating order, each in a fresh
process, timing only the load call (the file is in the page cache after the first round).
Prints one JSON line per (file, tool) with the median seconds and MB/s of the file as
stored, then a markdown table. Tools missing from the Python environment are skipped.
Needs scipy and networkit (see ../shared/peers/README.md for the pinned versions).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

PEER = {
    "scipy.io.mmread": (
        ".mtx",
        "import scipy.io,time;t=time.perf_counter();scipy.io.mmread({f!r});print(time.perf_counter()-t)",
    ),
    "networkit.MTXGraphReader": (
        ".mtx",
        "import networkit as nk,time;nk.setNumberOfThreads({t});t=time.perf_counter();"
        "nk.graphio.MTXGraphReader().read({f!r});print(time.perf_counter()-t)",
    ),
    "networkit.EdgeListReader": (
        ".el",
        "import networkit as nk,time;nk.setNumberOfThreads({t});t=time.perf_counter();"
        "nk.graphio.EdgeListReader(' ',0,'#',True,True).read({f!r});print(time.perf_counter()-t)",
    ),
}


def run_edgeblas(binary, f, threads):
    out = subprocess.run(
        [binary, "bench", "load", f, "--reps", "1", "--threads", str(threads), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)["seconds_median"]


def run_peer(code, f, threads):
    out = subprocess.run(
        [sys.executable, "-c", code.format(f=f, t=threads)],
        check=True, capture_output=True, text=True,
    ).stdout
    return float(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--edgeblas", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    samples: dict[tuple[str, str], list[float]] = {}
    for r in range(a.rounds):
        for f in a.files:
            tools = ["edgeblas"] + [t for t, (ext, _) in PEER.items() if f.endswith(ext)]
            if r % 2:
                tools.reverse()
            for tool in tools:
                try:
                    s = (run_edgeblas(a.edgeblas, f, a.threads) if tool == "edgeblas"
                         else run_peer(PEER[tool][1], f, a.threads))
                except (subprocess.CalledProcessError, ValueError) as e:
                    print(f"# {tool} on {f} failed: {e}", file=sys.stderr)
                    continue
                samples.setdefault((f, tool), []).append(s)
    rows = []
    for (f, tool), xs in samples.items():
        med = statistics.median(xs)
        mb = os.path.getsize(f) / 1e6
        rec = dict(file=os.path.basename(f), tool=tool, threads=a.threads, runs=len(xs),
                   seconds_median=med, mb_per_s=mb / med, samples=xs)
        print(json.dumps(rec))
        rows.append(rec)
    print("\n| file | tool | threads | median s | MB/s |\n|---|---|---|---|---|")
    for rec in rows:
        print(f"| {rec['file']} | {rec['tool']} | {rec['threads']} | "
              f"{rec['seconds_median']:.3f} | {rec['mb_per_s']:.0f} |")


if __name__ == "__main__":
    main()
