#!/usr/bin/env bash
# The main job on a bundled example: sets up, builds, and runs tsmlir-opt on
# examples/ratio_iou.mlir (a real TorchScript graph in the ts dialect). It
# prints the canonicalised, CSE'd graph and the op counts before and after.
#
#   scripts/run-example.sh [example.mlir]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
EXAMPLE="${1:-$ROOT/examples/ratio_iou.mlir}"

"$ROOT/scripts/setup.sh" > /dev/null
ninja -C "$BUILD" tsmlir-opt > /dev/null

OPT="$BUILD/bin/tsmlir-opt"
count_ops() { "$OPT" "$@" --print-op-stats -o /dev/null 2>&1 |
              awk -F, '/ ts\./ { n += $2 } END { print n + 0 }'; }

echo "== $EXAMPLE, after -canonicalize -cse:"
"$OPT" "$EXAMPLE" -canonicalize -cse
echo
echo "== ts ops: $(count_ops "$EXAMPLE") before, $(count_ops "$EXAMPLE" -canonicalize -cse) after"
