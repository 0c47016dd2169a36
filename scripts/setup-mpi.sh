#!/usr/bin/env bash
# Installs what `--features mpi` needs: OpenMPI's library, headers and mpirun
# (libopenmpi-dev, openmpi-bin) from the OS packages, and libclang for the bindings that
# rsmpi's mpi-sys generates at build time. Idempotent: does nothing when all are there.
# Uses sudo only when not root.
set -euo pipefail
need=()
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)
command -v mpicc >/dev/null 2>&1 || need+=(libopenmpi-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# bindgen (in mpi-sys) loads libclang.so at build time.
# (libclang.so itself or libclang-NN.so: libclang-cpp, which other packages bring, is not it.)
if ! ls /usr/lib/llvm-*/lib/libclang.so* /usr/lib/llvm-*/lib/libclang-[0-9]*.so* \
    /usr/lib/*/libclang.so* /usr/lib/*/libclang-[0-9]*.so* >/dev/null 2>&1; then
    need+=(libclang-dev)
fi
if ((${#need[@]} == 0)); then
    echo "setup-mpi: OpenMPI $(mpirun --version 2>/dev/null | head -n1 | awk '{print $NF}') and libclang are installed"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "setup-mpi: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${need[@]}"
mpirun --version | head -n1
