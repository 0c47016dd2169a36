#!/usr/bin/env bash
# The GPU check, in two halves (see ../shared/CUDA.md: the GPU machine has no Rust and
# no network, so everything is built here and carried there in the git-ignored .gpu/).
#
#   scripts/gpu-check.sh host-tests here (CI runs it): the cuda feature's tests, GPU
#                                  tests skipped without a device
#   scripts/gpu-check.sh prepare   here: builds the cuda test executables and the CLI
#                                  into .gpu/ (and copies a road graph there if
#                                  ../shared/data is present)
#   scripts/gpu-check.sh run       on the GPU machine, from the repository root: the
#                                  parity tests with EDGEBLAS_REQUIRE_GPU=1 (the device
#                                  algebra's cuda_ops_gpu among them), then
#                                  `bench bfs` on Kronecker scale 22 and 24 and a road
#                                  graph, GPU against edgeblas on all the machine's
#                                  cores, and a Markdown table last (also in $OUT or
#                                  .gpu/out/ as gpu-check.md); `sssp` on the same
#                                  graphs, CPU delta-stepping against GPU Bellman-Ford
#                                  (sssp.jsonl)
#
#                                  Then Chung-Lu generation into device CSR per schedule
#                                  (uniform, balanced, dynamic) on a power-law and a
#                                  real-distribution proxy (about 270 M and 330 M edges),
#                                  with and without coarsening, with the phase times.
#
# Environment for `run`: SCALES (default "22 24"), SOURCES (default random:8),
# REPS (default 3), CL_N (power-law vertices, default 20000000: a power law's plan has
# about groups^2 / 2 tasks, 60 M at 20 M vertices, so 200 M vertices outgrow a 10-minute
# command), CL_SCALE (copies of web-NotreDame's histogram, default 300), GPU_CHECK_SKIP_GPU=1 to run the CPU half
# alone (to test the script on a machine without a GPU), GPU_CHECK_SKIP_TESTS=1 to skip
# the parity tests and examples (when they ran already in the same lease), PARTS (default "bfs sssp chunglu":
# run one per call to stay inside a 10-minute device command; "tc" adds triangle counting,
# CPU against `tc --backend cuda`, on the Kronecker graphs; "algos" adds wcc, cdlp,
# pagerank and delta-stepping, CPU against `--backend cuda`).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"

# The cuda feature's tests as CI runs them (`host-tests`): the library's unit tests, the
# cuda_* integration tests and the CLI's. `prepare` builds with the very same arguments
# (plus --no-run), so after CI's test step it compiles nothing again.
LIB_TESTS=(--release --features cuda,plot -p edgeblas --lib --test cuda_parity
    --test cuda_host_kernels --test cuda_host_ops --test cuda_ops_api --test cuda_ops_gpu)
CLI_TESTS=(--release -p edgeblas-cli --features cuda --test cli)

host_tests() {
    ./scripts/setup-cuda.sh
    cargo test "${LIB_TESTS[@]}"
    cargo test "${CLI_TESTS[@]}"
}

# Copies the executables of a `cargo ... --message-format=json` build on stdin into
# .gpu/: integration tests by their names, the CLI binary and examples as they are.
copy_artifacts() {
    python3 -c '
import json, shutil, sys
for line in sys.stdin:
    if not line.startswith("{"):
        continue
    m = json.loads(line)
    exe = m.get("executable")
    if m.get("reason") != "compiler-artifact" or not exe:
        continue
    kind, name = m["target"]["kind"], m["target"]["name"]
    if (kind == ["test"] and name.startswith("cuda_")) or kind == ["bin"] or (kind == ["example"] and not m["profile"]["test"]):
        shutil.copy(exe, ".gpu/" + name)
        print("copied", name)
'
}

prepare() {
    ./scripts/setup-cuda.sh
    mkdir -p .gpu
    cargo test "${LIB_TESTS[@]}" --no-run --message-format=json | copy_artifacts
    # The CLI binary the CLI's tests ran (same features, same build).
    cargo test "${CLI_TESTS[@]}" --no-run --message-format=json | copy_artifacts
    cargo build --release --features cuda,plot -p edgeblas --example bfs_cuda \
        --example chung_lu_cuda --message-format=json | copy_artifacts
    for b in edgeblas bfs_cuda chung_lu_cuda cuda_parity cuda_host_kernels cuda_host_ops cuda_ops_gpu; do
        [ -x ".gpu/$b" ] || { echo "error: prepare did not produce .gpu/$b" >&2; exit 1; }
    done
    # The shared libraries the binaries use beyond glibc (fontconfig and freetype, for
    # the report's plots), in case the GPU machine lacks them.
    mkdir -p .gpu/lib
    for b in .gpu/edgeblas .gpu/bfs_cuda .gpu/chung_lu_cuda .gpu/cuda_parity .gpu/cuda_host_kernels .gpu/cuda_host_ops .gpu/cuda_ops_gpu; do
        # A binary may link nothing beyond glibc: then grep selects no line, which is
        # not a failure here (under pipefail it would end the script).
        ldd "$b" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' |
            { grep -Ev '/(libc|libm|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' || true; } |
            xargs -r -I{} cp -L {} .gpu/lib/
    done
    road=../shared/data/real/USA-road-FLA-hops.mtx.gz
    if [ -f "$road" ]; then
        .gpu/edgeblas convert "$road" .gpu/road-FLA.ebg
    fi
    ls -la .gpu
}

run() {
    local out="${OUT:-.gpu/out}"
    mkdir -p "$out" /tmp/gpu-check
    local bin=.gpu/edgeblas
    local sources="${SOURCES:-random:8}"
    local reps="${REPS:-3}"
    local cores
    cores=$(nproc)
    export LD_LIBRARY_PATH="$PWD/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    if [ "${GPU_CHECK_SKIP_GPU:-0}" != 1 ]; then
        nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    fi
    if [ "${GPU_CHECK_SKIP_GPU:-0}" != 1 ] && [ "${GPU_CHECK_SKIP_TESTS:-0}" != 1 ]; then
        echo "== parity tests (EDGEBLAS_REQUIRE_GPU=1)"
        EDGEBLAS_REQUIRE_GPU=1 .gpu/cuda_host_kernels
        EDGEBLAS_REQUIRE_GPU=1 .gpu/cuda_parity --test-threads=1
        echo "== device algebra (cuda::ops and cuda::pagerank against the CPU's ops)"
        .gpu/cuda_host_ops
        EDGEBLAS_REQUIRE_GPU=1 .gpu/cuda_ops_gpu --test-threads=1
        echo "== example bfs_cuda (scale 20)"
        .gpu/bfs_cuda 20
        echo "== example chung_lu_cuda (web-NotreDame x 100)"
        .gpu/chung_lu_cuda 100
    fi
    local parts="${PARTS:-bfs sssp chunglu}"
    local graphs=()
    [[ " $parts " == *" bfs "* || " $parts " == *" sssp "* || " $parts " == *" tc "* || " $parts " == *" algos "* ]] || SCALES=" "
    for s in ${SCALES:-22 24}; do
        local f=/tmp/gpu-check/kron$s.ebg
        if [ ! -f "$f" ]; then
            "$bin" generate rmat --scale "$s" --edge-factor 16 --undirected --quiet -o "$f"
        fi
        graphs+=("$f")
    done
    if [[ " $parts " == *" bfs "* ]] && [ -f .gpu/road-FLA.ebg ]; then
        graphs+=(.gpu/road-FLA.ebg)
    fi
    : >"$out/results.jsonl"
    for f in "${graphs[@]}"; do
        echo "== $f ($(date +%T))"
        "$bin" bench bfs "$f" --sources "$sources" --reps "$reps" --threads "$cores" \
            --policy beamer --json | tee -a "$out/results.jsonl"
        if [ "${GPU_CHECK_SKIP_GPU:-0}" != 1 ]; then
            for p in beamer push; do
                "$bin" bench bfs "$f" --sources "$sources" --reps "$reps" --backend cuda \
                    --policy "$p" --validate --json | tee -a "$out/results.jsonl"
            done
        fi
    done
    # SSSP (unit weights on the generated graphs): the CPU's delta-stepping, then the GPU's
    # Bellman-Ford, from one vertex with out-arcs; JSON lines in sssp.jsonl.
    : >"$out/sssp.jsonl"
    if [[ " $parts " == *" sssp "* ]]; then
        for f in "${graphs[@]}"; do
            echo "== sssp $f ($(date +%T))"
            local src
            src=$("$bin" bench bfs "$f" --sources random:1:7 --reps 1 --json |
                python3 -c 'import json,sys; print(json.load(sys.stdin)["per_source"][0]["source"])')
            "$bin" sssp "$f" --source "$src" --threads "$cores" --json | tee -a "$out/sssp.jsonl"
            if [ "${GPU_CHECK_SKIP_GPU:-0}" != 1 ]; then
                "$bin" sssp "$f" --source "$src" --backend cuda --json | tee -a "$out/sssp.jsonl"
            fi
        done
    fi
    # Triangle counting (PARTS including tc): the CPU's masked mxm, then the device's
    # (`tc --backend cuda`); the counts must agree. JSON lines in tc.jsonl.
    : >"$out/tc.jsonl"
    if [[ " $parts " == *" tc "* ]]; then
        for f in "${graphs[@]}"; do
            echo "== tc $f ($(date +%T))"
            "$bin" tc "$f" --threads "$cores" --json | tee -a "$out/tc.jsonl"
            if [ "${GPU_CHECK_SKIP_GPU:-0}" != 1 ]; then
                "$bin" tc "$f" --backend cuda --json | tee -a "$out/tc.jsonl"
            fi
        done
        python3 - "$out/tc.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
counts = {}
for r in rows:
    counts.setdefault(r["file"], set()).add(r["triangles"])
    print(f"tc {r['file']} {r['backend']}: {r['triangles']} triangles, {r['seconds']:.4f} s")
bad = [f for f, c in counts.items() if len(c) != 1]
if bad:
    sys.exit(f"tc: the backends disagree on {bad}")
PY
    fi
    # The device algorithms over the algebra (PARTS including algos): wcc, cdlp, pagerank
    # and delta-stepping, the CPU on all cores and then `--backend cuda` on the same
    # graph; the results must agree (components, communities, reached and distance sum
    # exactly, the rank sum within 1e-9). JSON lines in algos.jsonl, a table in algos.md.
    : >"$out/algos.jsonl"
    if [[ " $parts " == *" algos "* ]]; then
        for f in "${graphs[@]}"; do
            local src
            src=$("$bin" bench bfs "$f" --sources random:1:7 --reps 1 --json |
                python3 -c 'import json,sys; print(json.load(sys.stdin)["per_source"][0]["source"])')
            for cmd in "wcc" "cdlp --iterations 10" "pagerank --iterations 20" \
                "sssp --source $src --method delta-stepping"; do
                echo "== $cmd $f ($(date +%T))"
                local backends="cpu"
                [ "${GPU_CHECK_SKIP_GPU:-0}" != 1 ] && backends="cpu cuda"
                for b in $backends; do
                    local th=()
                    [ "$b" = cpu ] && th=(--threads "$cores")
                    # shellcheck disable=SC2086
                    "$bin" $cmd "$f" --backend "$b" "${th[@]}" --json |
                        python3 -c 'import json,sys; r=json.load(sys.stdin); r["command"]=sys.argv[1]; print(json.dumps(r))' "${cmd%% *}" |
                        tee -a "$out/algos.jsonl"
                done
            done
        done
        python3 - "$out/algos.jsonl" <<'PY' | tee "$out/algos.md"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
keys = ["components", "largest", "communities", "reached", "distance_sum", "iterations"]
print("| graph | command | backend | seconds | speedup vs CPU |")
print("|---|---|---|---|---|")
cpu, bad = {}, []
for r in rows:
    k = (r["file"], r["command"])
    if r["backend"] == "cpu":
        cpu[k] = r
    else:
        c = cpu.get(k)
        if c and any(c.get(x) != r.get(x) for x in keys):
            bad.append(k)
        if c and "sum" in c and abs(c["sum"] - r["sum"]) > 1e-9:
            bad.append(k)
    sp = cpu[k]["seconds"] / r["seconds"] if k in cpu else float("nan")
    print(f"| {r['file'].split('/')[-1]} | {r['command']} | {r['backend']} | {r['seconds']:.4f} | {sp:.2f} |")
if bad:
    sys.exit(f"algos: the backends disagree on {bad}")
PY
    fi
    # Chung-Lu: a power law and web-NotreDame's histogram with every count times CL_SCALE.
    local cl_n="${CL_N:-20000000}" cl_scale="${CL_SCALE:-300}"
    awk -F, -v k="$cl_scale" '/^#/ || /^degree/ {print; next} {print $1 "," $2 * k}' \
        src/generate/chung_lu/web-NotreDame.degrees.csv >/tmp/gpu-check/notredame-x.csv
    : >"$out/chunglu.jsonl"
    if [[ " $parts " == *" chunglu "* ]] && [ "${GPU_CHECK_SKIP_GPU:-0}" != 1 ]; then
        for input in "--power-law n=$cl_n,gamma=2.1,dmin=4" "--degrees /tmp/gpu-check/notredame-x.csv"; do
            for coarsen in "" "--coarsen 0.05 --coarsen-cut 64"; do
                for sched in uniform balanced dynamic; do
                    echo "== chung-lu $input $coarsen --schedule $sched ($(date +%T))"
                    # shellcheck disable=SC2086
                    "$bin" bench chung-lu $input $coarsen --backend cuda --schedule "$sched" \
                        --reps "$reps" --json | tee -a "$out/chunglu.jsonl"
                done
            done
        done
    fi
    if [[ " $parts " == *" chunglu "* ]]; then
        "$bin" bench chung-lu --power-law "n=$cl_n,gamma=2.1,dmin=4" --threads "$cores" \
            --reps 1 --json | tee -a "$out/chunglu.jsonl"
    fi
    python3 - "$out/chunglu.jsonl" <<'PY' | tee "$out/chunglu.md"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("| input | vertices | groups (before) | edges | where | schedule | median s | G edges/s | phases (s) |")
print("|---|---|---|---|---|---|---|---|---|")
for r in rows:
    where = r.get("device") or f"cpu x{r['threads']}"
    ph = r.get("phases_seconds") or {}
    phs = ", ".join(f"{k} {v:.3f}" for k, v in ph.items())
    print(f"| {r['vertices']} v | {r['vertices']} | {r['groups']} ({r['groups_before']}) | {r['edges']} | {where} | {r.get('schedule') or '-'} | {r['seconds_median']:.4f} | {r['edges'] / r['seconds_median'] / 1e9:.2f} | {phs} |")
PY
    python3 - "$out/results.jsonl" "$cores" <<'PY' | tee "$out/gpu-check.md"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cores = sys.argv[2]
print(f"| graph | n | arcs | backend | policy | median ms | GTEPS | speedup vs CPU | GB/s (CSR read once + parents/levels written once) |")
print("|---|---|---|---|---|---|---|---|---|")
cpu = {r["file"]: r["seconds_median"] for r in rows if r["backend"] == "cpu"}
for r in rows:
    n, m = r["vertices"], r["arcs"]
    t = r["seconds_median"]
    # bytes the traversal must move: offsets (8 (n + 1)) and indices (4 m) read once,
    # parents and levels (4 n each) written once
    gbs = (8 * (n + 1) + 4 * m + 8 * n) / t / 1e9
    who = r["device"] if r["backend"] == "cuda" else f"cpu x{r['threads']}"
    sp = cpu.get(r["file"], float("nan")) / t
    name = r["file"].split("/")[-1]
    print(f"| {name} | {n} | {m} | {who} | {r['policy']} | {t*1e3:.3f} | {r['gteps']:.2f} | {sp:.2f} | {gbs:.1f} |")
PY
}

case "$mode" in
    prepare) prepare ;;
    run) run ;;
    host-tests) host_tests ;;
    *)
        echo "usage: scripts/gpu-check.sh prepare|run|host-tests" >&2
        exit 2
        ;;
esac
