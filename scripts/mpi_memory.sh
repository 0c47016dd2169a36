#!/usr/bin/env bash
# Peak memory and time per rank of the distributed commands (BENCHMARKS.md, "MPI: memory
# per rank"): every rank reads its own rows of a Kronecker `.ebg`, so rank 0's peak
# resident set at P ranks should be about 1/P of the graph plus the O(n) vectors and
# outputs. Each rank runs under /usr/bin/time (its peak RSS in KiB to $OUT/rss.RANK);
# the table reports rank 0's and the largest rank's peak, the command's `seconds` from
# its JSON, and the one-process CPU run (no MPI) for reference. Medians of REPS runs.
#
# With FORM=el (or mtx) the input is the same graph as a text file, which rank 0 streams in
# blocks to the ranks (never holding the graph); the table then also gives load_seconds.
#
# Environment: SCALE (Kronecker scale, default 20), PS (rank counts, default "1 2 4"),
# FORM (ebg, el or mtx; default ebg),
# REPS (default 3), COMMANDS (default "bfs sssp pagerank wcc"), OUT (default
# target/mpi-memory), SKIP_BUILD=1 to use the built binary as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE="${SCALE:-20}"
PS="${PS:-1 2 4}"
REPS="${REPS:-3}"
COMMANDS="${COMMANDS:-bfs sssp pagerank wcc}"
OUT="$(realpath -m "${OUT:-target/mpi-memory}")"
mkdir -p "$OUT"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    ./scripts/setup-mpi.sh
    cargo build --release --features mpi
fi
B="$(realpath target/release/edgeblas)"
MPI=(mpirun --oversubscribe -x RSS_DIR)
if [ "$(id -u)" -eq 0 ]; then
    MPI+=(--allow-run-as-root)
fi
FORM="${FORM:-ebg}"
G="$OUT/kron$SCALE.ebg"
if [ ! -f "$G" ]; then
    "$B" generate rmat --scale "$SCALE" --undirected --quiet -o "$G"
fi
if [ "$FORM" != ebg ]; then
    T="$OUT/kron$SCALE.$FORM"
    if [ ! -f "$T" ]; then
        "$B" convert "$G" "$T" >/dev/null
    fi
    G="$T"
fi
# Each rank's peak RSS, by its rank number.
cat > "$OUT/wrap.sh" <<'EOF'
#!/bin/sh
exec /usr/bin/time -f "%M" -o "$RSS_DIR/rss.$OMPI_COMM_WORLD_RANK" "$@"
EOF
chmod +x "$OUT/wrap.sh"
args() {
    case "$1" in
        bfs) echo "bfs $G --source 1" ;;
        sssp) echo "sssp $G --source 1 --method bellman-ford" ;;
        pagerank) echo "pagerank $G --iterations 20" ;;
        wcc) echo "wcc $G" ;;
    esac
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" | tee "$OUT/load.txt"
: > "$OUT/runs.jsonl"
for r in $(seq "$REPS"); do
    for c in $COMMANDS; do
        # shellcheck disable=SC2046
        /usr/bin/time -f "%M" -o "$OUT/rss.cpu" "$B" $(args "$c") --json > "$OUT/run.json"
        python3 - "$OUT" "$c" 0 >> "$OUT/runs.jsonl" <<'EOF'
import json, sys
out, cmd, p = sys.argv[1], sys.argv[2], int(sys.argv[3])
j = json.loads([l for l in open(f"{out}/run.json") if l.startswith("{")][0])
rss = int(open(f"{out}/rss.cpu").read().split()[-1])
print(json.dumps({"command": cmd, "ranks": p, "seconds": j["seconds"], "load": j.get("load_seconds"), "rank0_kib": rss, "max_kib": rss}))
EOF
        for p in $PS; do
            rm -f "$OUT"/rss.[0-9]*
            # shellcheck disable=SC2046
            RSS_DIR="$OUT" "${MPI[@]}" -np "$p" "$OUT/wrap.sh" "$B" $(args "$c") --backend mpi --json \
                </dev/null > "$OUT/run.json"
            python3 - "$OUT" "$c" "$p" >> "$OUT/runs.jsonl" <<'EOF'
import json, sys
out, cmd, p = sys.argv[1], sys.argv[2], int(sys.argv[3])
j = json.loads([l for l in open(f"{out}/run.json") if l.startswith("{")][0])
rss = [int(open(f"{out}/rss.{r}").read().split()[-1]) for r in range(p)]
print(json.dumps({"command": cmd, "ranks": p, "seconds": j["seconds"], "load": j.get("load_seconds"), "rank0_kib": rss[0], "max_kib": max(rss)}))
EOF
        done
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
python3 - "$OUT" "$G" <<'EOF' | tee "$OUT/mpi-memory.md"
import collections, json, os, statistics, sys
out, g = sys.argv[1], sys.argv[2]
runs = collections.defaultdict(list)
for line in open(f"{out}/runs.jsonl"):
    j = json.loads(line)
    runs[(j["command"], j["ranks"])].append(j)
med = statistics.median
print(f"{os.path.basename(g)}: {os.path.getsize(g):,} bytes; medians of {len(next(iter(runs.values())))} runs")
print()
print("| command | P | rank 0 peak RSS (MiB) | largest rank (MiB) | rank 0 vs P = 1 | load seconds | seconds |")
print("|---|---|---|---|---|---|---|")
for (cmd, p) in sorted(runs, key=lambda k: (k[0], k[1])):
    rs = runs[(cmd, p)]
    r0 = med(r["rank0_kib"] for r in rs) / 1024
    mx = med(r["max_kib"] for r in rs) / 1024
    base = runs.get((cmd, 1))
    ratio = f"{r0 / (med(r['rank0_kib'] for r in base) / 1024):.2f}" if base and p > 0 else ""
    s = med(r["seconds"] for r in rs)
    loads = [r["load"] for r in rs if r.get("load") is not None]
    load = f"{med(loads):.2f}" if loads else ""
    label = "one process (no MPI)" if p == 0 else str(p)
    print(f"| {cmd} | {label} | {r0:.0f} | {mx:.0f} | {ratio} | {load} | {s:.3f} |")
EOF
