#!/usr/bin/env bash
# torchvision's classification models end to end: the archives of
# test/Target/PtArchive/Inputs/save_torchvision.py (27 models, one to three
# of each family of torchvision 0.14, scripted, frozen and traced: 67
# archives, 4.2 GB in a temporary folder) compiled and run by tsmlir-run on
# one 1x3x224x224 image and compared with PyTorch's output for the same
# archive (test/e2e/Inputs/run_torchvision.py says how). Part of
# scripts/long-tests.sh; too long for every CI run.
#
#   scripts/torchvision-e2e.sh [--only MODEL,...]
#
# Environment: TSMLIR_BUILD_DIR (default build/), TSMLIR_TORCHVISION_JOBS
# (parallel tsmlir-run processes, default 1: the largest models take
# several GB each).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export PATH="$BUILD/bin:$PATH"

/usr/bin/python3 -W ignore "$ROOT/test/Target/PtArchive/Inputs/save_torchvision.py" \
  "$TMP" "$@"
/usr/bin/python3 "$ROOT/test/e2e/Inputs/run_torchvision.py" "$TMP" \
  --jobs "${TSMLIR_TORCHVISION_JOBS:-1}" "$@"
