#!/usr/bin/env bash
# GPU benchmark of compiled TorchScript graphs (see bench/gpu/README.md).
#
#   bench/gpu/run.sh                  # 6 workloads x 1M, 16M, 64M, 256M elements
#   bench/gpu/run.sh --quick          # 1M and 16M, 20 runs
#   bench/gpu/run.sh --dry-run        # the plan and tsmlir-run's command lines
#   TSMLIR_BUILD_DIR=build-cuda bench/gpu/run.sh --workloads gelu,softmax
#
# Builds nothing: tsmlir-run is taken from $TSMLIR_BUILD_DIR/bin (default
# build/, relative to the repository), the cases are cached in
# $TSMLIR_BUILD_DIR/bench-gpu/cases. Runs run.py with $PYTHON (default
# python3), which needs PyTorch 2 with CUDA, Triton and numpy. Other
# arguments go to run.py (run.py --help).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-build}"
case "$BUILD" in
  /*) ;;
  *) BUILD="$ROOT/$BUILD" ;;
esac

exec "${PYTHON:-python3}" "$HERE/run.py" \
  --tsmlir-run "$BUILD/bin/tsmlir-run" \
  --work-dir "$BUILD/bench-gpu/cases" \
  "$@"
