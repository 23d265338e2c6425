#!/usr/bin/env bash
# The main job on a bundled example: sets up, builds, then
#   1. imports a graph PyTorch printed (examples/ratio_iou.txt, the graph of
#      torch.jit.script(ratio_iou)) into the ts dialect,
#   2. canonicalises and CSEs it with tsmlir-opt,
#   3. exports the result as TorchScript text again,
# and prints the op counts before and after.
#
#   scripts/run-example.sh [graph.txt]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
GRAPH="${1:-$ROOT/examples/ratio_iou.txt}"

"$ROOT/scripts/setup.sh" > /dev/null
ninja -C "$BUILD" tsmlir-opt tsmlir-translate > /dev/null

OPT="$BUILD/bin/tsmlir-opt"
TRANSLATE="$BUILD/bin/tsmlir-translate"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

count_ops() { "$OPT" "$1" --print-op-stats -o /dev/null 2>&1 |
              awk -F, '/ ts\./ { n += $2 } END { print n + 0 }'; }

"$TRANSLATE" --import-torchscript "$GRAPH" -o "$TMP/imported.mlir"
"$OPT" "$TMP/imported.mlir" -canonicalize -cse -mlir-print-debuginfo \
  -o "$TMP/optimized.mlir"
echo "== $GRAPH, imported, canonicalised and CSE'd, exported:"
"$TRANSLATE" --export-torchscript "$TMP/optimized.mlir"
echo
echo "== ts ops: $(count_ops "$TMP/imported.mlir") before, $(count_ops "$TMP/optimized.mlir") after"
