#!/usr/bin/env bash
# The measurements of BENCHMARKS.md's "MPI scale-out (issue 17)": distributed BFS on a
# Kronecker graph and distributed Chung-Lu generation for P ranks, with the bytes and
# messages the ranks exchange; medians of REPS runs; a Markdown summary last (also in
# $OUT/mpi-bench.md), the raw JSON lines in $OUT/*.jsonl.
#
# Environment: SCALE (Kronecker scale, default 20), PS (rank counts, default "1 2 4"),
# REPS (default 5), CL_SPEC (Chung-Lu power law, default n=2000000,gamma=2.1,dmin=4),
# OUT (default target/mpi-bench), SKIP_BUILD=1 to use the built binary as it is.
# Past the machine's cores the ranks are oversubscribed (mpirun --oversubscribe); every
# rank runs one thread unless the cores allow more (the binary's default).
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE="${SCALE:-20}"
PS="${PS:-1 2 4}"
REPS="${REPS:-5}"
CL_SPEC="${CL_SPEC:-n=2000000,gamma=2.1,dmin=4}"
OUT="${OUT:-target/mpi-bench}"
mkdir -p "$OUT"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    ./scripts/setup-mpi.sh
    cargo build --release --features mpi
fi
B=target/release/edgeblas
MPI=(mpirun --oversubscribe)
if [ "$(id -u)" -eq 0 ]; then
    MPI+=(--allow-run-as-root)
fi
G="$OUT/kron$SCALE.ebg"
if [ ! -f "$G" ]; then
    "$B" generate rmat --scale "$SCALE" --undirected --quiet -o "$G"
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" | tee "$OUT/load.txt"
: > "$OUT/bfs.jsonl"
: > "$OUT/chunglu.jsonl"
for p in $PS; do
    for r in $(seq "$REPS"); do
        "${MPI[@]}" -np "$p" "$B" bfs "$G" --source random:1:1 --backend mpi --json </dev/null \
            | grep '^{' >> "$OUT/bfs.jsonl"
    done
    "${MPI[@]}" -np "$p" "$B" bench chung-lu --power-law "$CL_SPEC" --backend mpi \
        --reps "$REPS" --json </dev/null | grep '^{' >> "$OUT/chunglu.jsonl"
done
# One process, all cores, for reference.
for r in $(seq "$REPS"); do
    "$B" bfs "$G" --source random:1:1 --json >> "$OUT/bfs-cpu.jsonl"
done
"$B" bench chung-lu --power-law "$CL_SPEC" --reps "$REPS" --json > "$OUT/chunglu-cpu.json"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
python3 - "$OUT" <<'EOF' | tee "$OUT/mpi-bench.md"
import json, statistics, sys, collections
out = sys.argv[1]
med = statistics.median
runs = collections.defaultdict(list)
for line in open(f"{out}/bfs.jsonl"):
    j = json.loads(line)
    runs[j["ranks"]].append(j)
cpu = [json.loads(l) for l in open(f"{out}/bfs-cpu.jsonl")]
j0 = cpu[0]
print(f"BFS on {j0['file']}: {j0['vertices']} vertices, {j0['arcs']} arcs, source {j0['sources']}, "
      f"{len(cpu)} runs each; one process ({j0['threads']} threads): median {med(c['seconds'] for c in cpu):.4f} s\n")
print("| P | median s | GTEPS | bytes sent (all ranks) | messages | distribute bytes | levels push/pull |")
print("|---|---|---|---|---|---|---|")
for p, js in sorted(runs.items()):
    dirs = "/".join(str(sum(1 for t in js[0]["trace"] if t["direction"] == d)) for d in ("push", "pull"))
    print(f"| {p} | {med(j['seconds'] for j in js):.4f} | {med(j['gteps'] for j in js):.3f} | "
          f"{js[0]['bytes_sent']:,} | {js[0]['messages']:,} | {js[0]['distribute']['bytes']:,} | {dirs} |")
print("\nPer level (median seconds over the runs; bytes and messages of all ranks):\n")
ps = sorted(runs)
print("| level | direction | frontier | " + " | ".join(f"P={p} s | P={p} bytes" for p in ps) + " |")
print("|---|---|---|" + "---|---|" * len(ps))
for k, t in enumerate(runs[ps[0]][0]["trace"]):
    cells = []
    for p in ps:
        lv = [j["trace"][k] for j in runs[p]]
        cells.append(f"{med(x['seconds'] for x in lv):.4f} | {lv[0]['bytes_sent']:,}")
    print(f"| {t['level']} | {t['direction']} | {t['frontier_vertices']:,} | " + " | ".join(cells) + " |")
cl = [json.loads(l) for l in open(f"{out}/chunglu.jsonl")]
c0 = json.load(open(f"{out}/chunglu-cpu.json"))
print(f"\nChung-Lu {cl[0]['vertices']:,} vertices, {cl[0]['edges']:,.0f} edges (median of {cl[0]['reps']} runs); "
      f"one process ({c0['threads']} threads): {c0['seconds_median']:.3f} s, {c0['medges_per_s']:.1f} M edges/s\n")
print("| P | threads/rank | median s | M edges/s | bytes sent | bytes/edge | messages |")
print("|---|---|---|---|---|---|---|")
for j in cl:
    print(f"| {j['ranks']} | {j['threads']} | {j['seconds_median']:.3f} | {j['medges_per_s']:.1f} | "
          f"{j['bytes_sent']:,} | {j['bytes_per_edge']:.2f} | {j['messages']:,} |")
EOF
