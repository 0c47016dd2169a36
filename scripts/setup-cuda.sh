#!/usr/bin/env bash
# Installs what `--features cuda` needs to build (not to run: that needs a GPU and its
# driver): libclang for bindgen (Debian's libclang-dev) and nvcc 13.0 from PyPI into the
# git-ignored .cuda-venv/, where build.rs finds it. nvcc is pinned to 13.0 so that the
# PTX it writes loads on a CUDA 13.0 driver. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! dpkg -s libclang-dev >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends libclang-dev >/dev/null
fi
if ! [ -x .cuda-venv/lib/python3*/site-packages/nvidia/cu13/bin/nvcc ] 2>/dev/null; then
    python3 -m venv .cuda-venv
    .cuda-venv/bin/pip install -q --disable-pip-version-check \
        nvidia-cuda-nvcc==13.0.88 nvidia-cuda-runtime==13.0.96 nvidia-cuda-cccl==13.0.85 \
        nvidia-cuda-crt==13.0.88 nvidia-nvvm==13.0.88
fi
echo "nvcc: $(ls .cuda-venv/lib/python3*/site-packages/nvidia/cu13/bin/nvcc)"
