#!/usr/bin/env python3
"""The MPI backend against one process on the same box (issue 34, item 2): the same
command as `edgeblas CMD GRAPH` (the CPU backend, all THREADS threads), as `mpirun -np 1
--bind-to none ... --backend mpi --threads THREADS`, and as `mpirun -np THREADS ...
--backend mpi --threads 1`, the three alternating in every round; medians of the
commands' own JSON `seconds` (loading excluded).

    python3 scripts/mpi_vs_cpu.py --edgeblas target/release/edgeblas --graph G.ebg \\
        [--commands bfs,sssp,pagerank,wcc] [--rounds 5] [--threads 2] [--out F.jsonl]

The binary must be built with `--features mpi`. One JSON line per command on stdout
(and appended to --out), then a Markdown table.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ARGS = {
    "bfs": ["--source", "1"],
    "sssp": ["--source", "1", "--method", "bellman-ford"],
    "sssp-ds": ["--source", "1", "--method", "delta-stepping"],
    "pagerank": ["--iterations", "20"],
    "wcc": [],
}


def run(cmd):
    o = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       stdin=subprocess.DEVNULL)
    if o.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{o.stderr}")
    line = [l for l in o.stdout.splitlines() if l.startswith("{")][0]
    return json.loads(line)["seconds"]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edgeblas", required=True)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--commands", default="bfs,sssp,pagerank,wcc")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out")
    a = ap.parse_args()
    mpi = ["mpirun", "--oversubscribe", "--bind-to", "none"]
    if os.geteuid() == 0:
        mpi.append("--allow-run-as-root")
    t = str(a.threads)
    rows = []
    for name in a.commands.split(","):
        sub = name.split("-")[0]
        base = [a.edgeblas, sub, a.graph] + ARGS[name] + ["--json"]
        cmds = {
            "cpu": base + ["--threads", t],
            "mpi P=1": mpi + ["-np", "1"] + base + ["--backend", "mpi", "--threads", t],
            f"mpi P={t}": mpi + ["-np", t] + base + ["--backend", "mpi", "--threads", "1"],
        }
        times = {k: [] for k in cmds}
        for _ in range(a.rounds):
            for k, c in cmds.items():
                times[k].append(run(c))
        med = {k: statistics.median(v) for k, v in times.items()}
        rec = {"command": name, "graph": a.graph, "threads": a.threads,
               "commands": {k: " ".join(c) for k, c in cmds.items()},
               "seconds": times, "median": med,
               "load": open("/proc/loadavg").read().split()[:3]}
        print(json.dumps(rec))
        if a.out:
            with open(a.out, "a") as f:
                f.write(json.dumps(rec) + "\n")
        rows.append((name, med))
    keys = list(rows[0][1]) if rows else []
    print()
    print("| command | " + " | ".join(f"{k} (s)" for k in keys) + " | mpi P=1 / cpu |")
    print("|---" * (len(keys) + 2) + "|")
    for name, med in rows:
        ratio = med["mpi P=1"] / med["cpu"]
        print(f"| {name} | " + " | ".join(f"{med[k]:.4f}" for k in keys) + f" | {ratio:.2f} |")


if __name__ == "__main__":
    main()
