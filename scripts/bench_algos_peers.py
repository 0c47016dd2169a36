#!/usr/bin/env python3
"""edgeblas's algorithm commands (tc, wcc, pagerank, bc) against gapbs and
SuiteSparse:GraphBLAS (python-graphblas) on one graph, the programs alternating.

    python3 scripts/bench_algos_peers.py --gapbs GAPBS_DIR --edgeblas target/release/edgeblas \\
        --graph /work/graphs/kron20 --kernels tc,cc,pr,bc --bc-source 86435 \\
        --rounds 3 --threads 2 [--trials 3] [--quiet-run ../shared/peers/quiet_run.py] \\
        [--out results.jsonl] [--skip-missing | --no-edgeblas] [--no-suitesparse] [--precision f32]

BASE (--graph, no extension) must have BASE.sg (gapbs `converter -f RAW.el -s -b BASE.sg`)
and BASE.mtx (read by edgeblas and by python-graphblas); both must hold the same
symmetric graph, ids 0-based in .sg and 1-based in .mtx. GAPBS_DIR holds gapbs binaries
already built with gapbs's own Makefile (this script builds nothing).

Per round, for each kernel, in this order:
  gapbs      OMP_NUM_THREADS=T DIR/K -f BASE.sg ... -n TRIALS -a   -> median of "Trial Time"
               tc: tc -n TRIALS -a           cc: cc -n TRIALS -a (Afforest)
               pr: pr -i ITERS -t 0 -n TRIALS -a  (-t 0: the stop test `error < 0` never
                   holds, so exactly ITERS Gauss-Seidel sweeps)
               bc: bc -r SRC -i 1 -n TRIALS -a    (one Brandes source)
             (-a prints the analysis of the last trial, outside the trial timer)
  edgeblas   EDGEBLAS tc|wcc|pagerank|bc BASE.mtx --undirected --threads T --json
               -> its "seconds" (loading excluded); bc gets --sources SRC+1 (the .mtx id),
               pagerank --iterations ITERS --precision P (--precision, f64 by default)
  suitesparse (tc and pr only, in this process, graph loaded once, threads via
             gb.ss.config["nthreads"]); TRIALS timed runs after one warm-up, median:
               tc: L = tril(A, -1); C<L.S> = L plus.pair L'; reduce   (as
                   bench_mxm_peers.py --op tc; all timed)
               pr: ITERS iterations of the Graphalytics/LAGraph sequence of
                   bench_templates_peers.py (dangling mass spread evenly; the degree
                   vector is computed before the timer; only the iterations are timed)

One JSON line per (graph, kernel) on stdout (and appended to --out): per program the
exact command, per-round seconds, the median over rounds, the result figure (triangles;
components and largest; rank sum / top vertices; ...), foreign CPU per round (CPU used by
other processes during the run / (wall * ncpu), from /proc/stat; or quiet_run.py's figure
when --quiet-run wraps the subprocesses; SuiteSparse then waits for an idle box and
retries once above --ss-max-foreign), and ratio = peer median / edgeblas median
(> 1: edgeblas faster).

Notes on what is compared: gapbs pr is float32 Gauss-Seidel without dangling-mass
redistribution (its ranks do not sum to 1 when there are vertices without arcs), so its
time per sweep, not its ranks, compares with the Jacobi-style SuiteSparse/edgeblas
sequence. gapbs's vertex count is max id + 1 of its edge list, which can be below the
.mtx count when the last ids are isolated (printed as gapbs_nodes); isolated vertices
count as components. gapbs tc relabels by degree inside its trial time when its
heuristic finds the degrees skewed (kron, not urand/road). gapbs bc's printed scores are
divided by the largest one and include the source's own dependency, so only its time is
compared.

A missing edgeblas subcommand is an error (exit 2) naming it; with --skip-missing that
kernel's edgeblas entry is {"error": ...} and the peers still run (--no-edgeblas: only
the peers).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

EDGEBLAS_CMD = {"tc": "tc", "cc": "wcc", "pr": "pagerank", "bc": "bc"}
KERNELS = ("tc", "cc", "pr", "bc")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def cpu_busy_ticks():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v[:8]) - (v[3] + v[4])


def wait_idle(thresh, max_wait):
    """Waits (at most max_wait s) until the box is >= thresh idle over 2 s."""
    t0 = time.time()
    while idle_frac() < thresh and time.time() - t0 < max_wait:
        pass


def idle_frac(window=2.0):
    with open("/proc/stat") as f:
        v0 = [int(x) for x in f.readline().split()[1:]]
    time.sleep(window)
    with open("/proc/stat") as f:
        v1 = [int(x) for x in f.readline().split()[1:]]
    d = [b - a for a, b in zip(v0[:8], v1[:8])]
    tot = sum(d)
    return (d[3] + d[4]) / tot if tot else 1.0


class Foreign:
    """CPU other processes used while a block ran, as a fraction of wall * ncpu."""

    def __init__(self, children):
        self.children = children

    def _own(self):
        if self.children:
            r = resource.getrusage(resource.RUSAGE_CHILDREN)
        else:
            r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    def __enter__(self):
        self.o0, self.b0, self.t0 = self._own(), cpu_busy_ticks(), time.time()
        return self

    def __exit__(self, *exc):
        self.wall = time.time() - self.t0
        own = self._own() - self.o0
        busy = (cpu_busy_ticks() - self.b0) / os.sysconf("SC_CLK_TCK")
        ncpu = os.cpu_count() or 1
        self.frac = max(0.0, (busy - own) / (self.wall * ncpu)) if self.wall > 0 else 0.0
        return False


def run_cmd(cmd, env, args):
    """Runs cmd (under quiet_run.py when given); returns (stdout, stderr, foreign_frac)."""
    full = list(cmd)
    tmp = None
    if args.quiet_run:
        # quiet_run may retry; --stdout keeps only the last try's output
        fd, tmp = tempfile.mkstemp(prefix="bench_algos_", suffix=".out")
        os.close(fd)
        full = ([sys.executable, args.quiet_run] + shlex.split(args.quiet_args)
                + ["--stdout", tmp, "--"] + full)
    try:
        with Foreign(children=True) as fg:
            p = subprocess.run(full, env=env, capture_output=True, text=True,
                               timeout=args.timeout)
        stdout = p.stdout
        if tmp:
            with open(tmp) as f:
                stdout = f.read()
    finally:
        if tmp:
            os.unlink(tmp)
    foreign = fg.frac
    for line in p.stderr.splitlines():
        if line.startswith("QUIET "):
            try:
                foreign = json.loads(line[6:])["foreign_cpu_frac"]
            except (ValueError, KeyError):
                pass
    if p.returncode != 0:
        raise RuntimeError(f"exit {p.returncode}: {' '.join(full)}\n{stdout[-2000:]}"
                           f"\n{p.stderr[-2000:]}")
    return stdout, p.stderr, round(foreign, 4)


# --------------------------------------------------------------------------- gapbs

def gapbs_cmd(args, kernel, sg):
    exe = os.path.join(args.gapbs, kernel)
    c = [exe, "-f", sg]
    if kernel == "pr":
        c += ["-i", str(args.iterations), "-t", "0"]
    elif kernel == "bc":
        c += ["-r", str(args.bc_source), "-i", "1"]
    return c + ["-n", str(args.trials), "-a"]


def parse_gapbs(kernel, out):
    trials = [float(x) for x in re.findall(r"Trial Time:\s+([0-9.eE+-]+)", out)]
    if not trials:
        raise RuntimeError("gapbs printed no 'Trial Time:' line:\n" + out[-2000:])
    res = {}
    m = re.search(r"Graph has (\d+) nodes and (\d+) (un)?directed edges", out)
    if m:
        res["gapbs_nodes"] = int(m.group(1))
        res["gapbs_edges"] = int(m.group(2))
    if kernel == "tc":
        m = re.search(r"^(\d+) triangles", out, re.M)
        if m:
            res["triangles"] = int(m.group(1))
    elif kernel == "cc":
        m = re.search(r"There are (\d+) components", out)
        if m:
            res["components"] = int(m.group(1))
        m = re.search(r"biggest clusters\s*\n\s*(\d+):(\d+)", out)
        if m:
            res["largest"] = int(m.group(2))
    else:  # pr, bc: -a prints the top 5 as "vertex:score"
        tail = out.split("Trial Time:")[-1]
        top = re.findall(r"^(\d+):([0-9.eE+-]+)$", tail, re.M)
        if top:
            res["top5"] = [[int(v), float(s)] for v, s in top]
    return trials, res


# ------------------------------------------------------------------------ edgeblas

def edgeblas_available(args):
    """Subcommand -> None when `EDGEBLAS SUB --help` works, else the reason."""
    missing = {}
    for k in args.kernel_list:
        sub = EDGEBLAS_CMD[k]
        if not args.edgeblas:
            missing[k] = "no --edgeblas given"
            continue
        if not os.access(args.edgeblas, os.X_OK):
            missing[k] = f"{args.edgeblas} is not an executable file"
            continue
        p = subprocess.run([args.edgeblas, sub, "--help"], capture_output=True, text=True)
        if p.returncode != 0:
            first = (p.stderr or p.stdout).strip().splitlines()[:1]
            missing[k] = (f"`{args.edgeblas} {sub}` is not a subcommand of this binary"
                          f" ({first[0] if first else 'exit ' + str(p.returncode)})")
    return missing


def edgeblas_cmd(args, kernel, mtx):
    c = [args.edgeblas, EDGEBLAS_CMD[kernel], mtx, "--undirected"]
    if kernel == "pr":
        c += ["--iterations", str(args.iterations), "--precision", args.precision]
    elif kernel == "bc":
        c += ["--sources", str(args.bc_source + 1)]  # .mtx ids are 1-based, as written
    return c + ["--threads", str(args.threads), "--json"]


def parse_edgeblas_json(out):
    for line in reversed(out.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if "seconds" in obj:
                return obj
    try:  # a pretty-printed object
        obj = json.loads(out)
        if isinstance(obj, dict) and "seconds" in obj:
            return obj
    except ValueError:
        pass
    raise RuntimeError("edgeblas printed no JSON object with \"seconds\":\n" + out[-2000:])


EDGEBLAS_RESULT_KEYS = {
    "tc": ("triangles",),
    "cc": ("components", "largest"),
    "pr": ("iterations", "sum"),
    "bc": ("sum", "max"),  # one source: sum = sum over reached t != s of (d(s, t) - 1)
}


# --------------------------------------------------------------------- SuiteSparse

class SuiteSparse:
    def __init__(self, mtx, threads):
        import graphblas as gb
        import numpy as np
        import scipy.io
        from graphblas import Matrix

        self.gb, self.np = gb, np
        gb.ss.config["nthreads"] = threads
        t0 = time.perf_counter()
        m = scipy.io.mmread(mtx).tocoo()
        n = m.shape[0]
        r, c = m.row.astype(np.int64), m.col.astype(np.int64)
        # pattern: values dropped, duplicates merged (as bench_mxm_peers.py reads it)
        self.A = Matrix.from_coo(r, c, True, nrows=n, ncols=n, dtype=bool)
        self.n = n
        self.load_s = time.perf_counter() - t0
        self.version = getattr(gb, "__version__", "?")
        try:
            self.ss_version = gb.ss.about["library_version"]
        except Exception:  # noqa: BLE001 - optional figure
            self.ss_version = "?"
        self._deg = None

    def tc(self):
        """Seconds, triangles: L = tril(A,-1); C<L.S> = L plus.pair L'; reduce (all timed)."""
        from graphblas import Matrix, monoid, select, semiring
        np = self.np
        t0 = time.perf_counter()
        L = select.tril(self.A, -1).new()
        C = Matrix(np.uint64, self.A.nrows, self.A.ncols)
        C(mask=L.S) << L.mxm(L.T, semiring.plus_pair["UINT64"])
        tri = int(C.reduce_scalar(monoid.plus["UINT64"]).value or 0)
        return time.perf_counter() - t0, {"triangles": tri}

    def pr(self, iterations):
        """The sequence of bench_templates_peers.py (Graphalytics/LAGraph PageRank)."""
        from graphblas import monoid

        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from bench_templates_peers import pagerank

        A = self.A
        if self._deg is None:  # outside the timer, like the template
            self._deg = A.reduce_rowwise(monoid.plus["INT64"]).new(dtype="FP64")
        deg = self._deg
        damping = 0.85
        t0 = time.perf_counter()
        r = pagerank(A, deg, iterations, damping)
        secs = time.perf_counter() - t0
        idx, val = r.to_coo()
        top = self.np.argsort(-val, kind="stable")[:5]
        return secs, {"iterations": iterations, "sum": float(val.sum()),
                      "top5": [[int(idx[i]), float(val[i])] for i in top]}


def ss_command(kernel, args):
    if kernel == "tc":
        return (f"python-graphblas in-process (nthreads={args.threads}): L = tril(A,-1); "
                "C<L.S> = L plus_pair[UINT64] L'; reduce plus (bench_mxm_peers.py --op tc)")
    return (f"python-graphblas in-process (nthreads={args.threads}): {args.iterations} "
            "iterations of bench_templates_peers.py's PageRank (d=0.85, dangling spread)")


# ---------------------------------------------------------------------------- main

def med(xs):
    return statistics.median(xs) if xs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gapbs", required=True, help="folder with the built gapbs binaries")
    ap.add_argument("--edgeblas", default=None, help="path of the edgeblas binary")
    ap.add_argument("--graph", required=True, help="BASE: uses BASE.sg and BASE.mtx")
    ap.add_argument("--kernels", default="tc,cc,pr,bc")
    ap.add_argument("--bc-source", type=int, default=None,
                    help="0-based BC source (gapbs id; edgeblas gets ID+1 in the .mtx)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--trials", type=int, default=3,
                    help="gapbs -n and SuiteSparse timed runs per round (median)")
    ap.add_argument("--iterations", type=int, default=20, help="PageRank iterations")
    ap.add_argument("--precision", choices=["f64", "f32"], default="f64",
                    help="edgeblas pagerank --precision (gapbs pr sweeps in f32; "
                         "SuiteSparse's sequence stays in f64)")
    ap.add_argument("--no-suitesparse", action="store_true")
    ap.add_argument("--no-edgeblas", action="store_true", help="run only the peers")
    ap.add_argument("--skip-missing", action="store_true",
                    help="run the peers even where an edgeblas subcommand is missing")
    ap.add_argument("--quiet-run", default=None,
                    help="path of quiet_run.py: wrap gapbs and edgeblas in it, and wait for "
                         "an idle box before each SuiteSparse run")
    ap.add_argument("--quiet-args", default="--wait 60 --tries 2 --max-foreign 0.08")
    ap.add_argument("--ss-tries", type=int, default=2,
                    help="with --quiet-run: SuiteSparse retries when foreign CPU is high")
    ap.add_argument("--ss-max-foreign", type=float, default=0.08)
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--out", default=None, help="append the JSON lines here too")
    args = ap.parse_args()

    args.kernel_list = [k.strip() for k in args.kernels.split(",") if k.strip()]
    bad = [k for k in args.kernel_list if k not in KERNELS]
    if bad:
        ap.error(f"unknown kernel(s) {bad}; choose from {','.join(KERNELS)}")
    if "bc" in args.kernel_list and args.bc_source is None:
        ap.error("--bc-source is required for bc")
    base = args.graph
    for ext in (".sg", ".mtx"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    sg, mtx = base + ".sg", base + ".mtx"
    for f in (sg, mtx):
        if not os.path.exists(f):
            ap.error(f"{f} does not exist")
    for k in args.kernel_list:
        exe = os.path.join(args.gapbs, k)
        if not os.access(exe, os.X_OK):
            ap.error(f"gapbs binary {exe} missing (build gapbs with its own `make` first)")

    if args.no_edgeblas:
        missing = {k: "not run (--no-edgeblas)" for k in args.kernel_list}
    else:
        missing = edgeblas_available(args)
    if missing and not args.skip_missing and not args.no_edgeblas:
        for k, why in missing.items():
            log(f"error: edgeblas for kernel {k}: {why}")
        log("(use --skip-missing to run only the peers)")
        sys.exit(2)

    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    ss = None
    if not args.no_suitesparse and {"tc", "pr"} & set(args.kernel_list):
        log(f"loading {mtx} into python-graphblas ...")
        ss = SuiteSparse(mtx, args.threads)
        log(f"  n={ss.n} arcs={ss.A.nvals} in {ss.load_s:.1f}s")

    graph_name = os.path.basename(base)
    for k in args.kernel_list:
        g = dict(program="gapbs", cmd="OMP_NUM_THREADS=%d " % args.threads
                 + shlex.join(gapbs_cmd(args, k, sg)), seconds=[], trial_times=[],
                 foreign_cpu=[], result=None)
        e = dict(program="edgeblas", foreign_cpu=[], seconds=[], result=None)
        if k in missing:
            e["error"] = missing[k]
            e["cmd"] = None
        else:
            e["cmd"] = shlex.join(edgeblas_cmd(args, k, mtx))
        s = None
        if ss is not None and k in ("tc", "pr"):
            s = dict(program="suitesparse", cmd=ss_command(k, args), seconds=[],
                     run_times=[], foreign_cpu=[], result=None,
                     versions=dict(python_graphblas=ss.version, suitesparse=ss.ss_version),
                     load_s=round(ss.load_s, 3))
            # warm-up (not timed, not recorded)
            ss.tc() if k == "tc" else ss.pr(args.iterations)

        for rnd in range(args.rounds):
            out, _, fr = run_cmd(gapbs_cmd(args, k, sg), env, args)
            trials, res = parse_gapbs(k, out)
            g["trial_times"].append(trials)
            g["seconds"].append(med(trials))
            g["foreign_cpu"].append(fr)
            g["result"] = res
            log(f"[{graph_name} {k} round {rnd + 1}] gapbs {med(trials):.4f}s foreign {fr}")

            if "error" not in e:
                out, _, fr = run_cmd(edgeblas_cmd(args, k, mtx), env, args)
                obj = parse_edgeblas_json(out)
                e["seconds"].append(float(obj["seconds"]))
                e["foreign_cpu"].append(fr)
                e["result"] = {kk: obj[kk] for kk in EDGEBLAS_RESULT_KEYS[k] if kk in obj}
                e["json"] = {kk: v for kk, v in obj.items()
                             if isinstance(v, (int, float, str, bool)) or v is None}
                log(f"[{graph_name} {k} round {rnd + 1}] edgeblas {obj['seconds']:.4f}s "
                    f"foreign {fr}")

            if s is not None:
                for attempt in range(1, (args.ss_tries if args.quiet_run else 1) + 1):
                    if args.quiet_run:
                        wait_idle(0.93, 60)
                    times = []
                    with Foreign(children=False) as fg:
                        for _ in range(args.trials):
                            sec, res = (ss.tc() if k == "tc" else ss.pr(args.iterations))
                            times.append(sec)
                    if fg.frac <= args.ss_max_foreign:
                        break
                s["run_times"].append(times)
                s["seconds"].append(med(times))
                s["foreign_cpu"].append(round(fg.frac, 4))
                s["result"] = res
                log(f"[{graph_name} {k} round {rnd + 1}] suitesparse {med(times):.4f}s "
                    f"foreign {round(fg.frac, 4)} (attempt {attempt})")

        progs = [p for p in (g, e, s) if p is not None]
        for p in progs:
            p["seconds_median"] = med(p["seconds"])
        eb = e.get("seconds_median")
        ratio = {}
        for p in (g, s):
            if p is not None and eb:
                ratio[f"{p['program']}/edgeblas"] = round(p["seconds_median"] / eb, 4)
        line = dict(graph=graph_name, kernel=k, edgeblas_subcommand=EDGEBLAS_CMD[k],
                    threads=args.threads, rounds=args.rounds, trials=args.trials,
                    sg=sg, mtx=mtx, ratio=ratio,
                    **{p["program"]: p for p in progs})
        if k == "pr":
            line["iterations"] = args.iterations
            line["precision"] = args.precision
        if k == "bc":
            line["bc_source_0based"] = args.bc_source
            line["bc_source_mtx"] = args.bc_source + 1
        text = json.dumps(line)
        print(text, flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(text + "\n")


if __name__ == "__main__":
    main()
