#!/usr/bin/env bash
# Builds the GPU check kit: one folder (at most 60 MiB) that runs on an
# NVIDIA machine with Python, PyTorch 2 and a driver, but no LLVM, no tsmlir
# build and no network (docs/gpu-codegen.md, "The GPU check kit").
#
#   scripts/gpu-kit.sh --out DIR [--chip sm_90] [--format isa|bin]
#                      [--only CASE,...] [--sizes 1M,16M,64M,256M]
#   DIR/run.sh        # there: models, benchmark, DIR/report.md
#
# TSMLIR_BUILD_DIR picks the build (default build); needs tsmlir-compile and
# libtsmlir_cuda_runtime.so there, and Debian's python3 with PyTorch (the
# benchmark's graphs) and numpy. No GPU or CUDA toolkit needed (--format bin
# needs ptxas).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "${PYTHON:-/usr/bin/python3}" "$ROOT/scripts/gpu_kit/build.py" \
  --build "${TSMLIR_BUILD_DIR:-$ROOT/build}" "$@"
