#!/usr/bin/env bash
# The main job on a bundled example: sets up, builds, then
#   1. imports a graph PyTorch printed (examples/ratio_iou.txt, the graph of
#      torch.jit.script(ratio_iou)) into the ts dialect,
#   2. canonicalises and CSEs it with tsmlir-opt,
#   3. exports the result as TorchScript text again, and prints the op counts
#      before and after;
#   4. compiles the real corpus graph test/Corpus/ratio_iou/graph.txt for the
#      CPU with tsmlir-run, unfused and with nnc fusion groups, runs it on the
#      inputs PyTorch was recorded with, and compares the output with
#      PyTorch's (max abs error), with the time of one call;
#   5. compiles a real model as users hold it, a torch.jit.save archive
#      (examples/squeezenet/squeezenet1_1.pt: torchvision's SqueezeNet 1.1,
#      scripted), read with no Python or libtorch, runs it on the bundled
#      image and compares its 1000 logits with PyTorch's recorded output.
#
#   scripts/run-example.sh [graph.txt]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
GRAPH="${1:-$ROOT/examples/ratio_iou.txt}"

"$ROOT/scripts/setup.sh" > /dev/null
ninja -C "$BUILD" tsmlir-opt tsmlir-translate tsmlir-run > /dev/null

# Compares out0.npy with PyTorch's output at the suite's float32 tolerance.
compare() {
  /usr/bin/python3 -c "
import sys, numpy as np
ours, ref = np.load(sys.argv[1]), np.load(sys.argv[2])
ok = ours.dtype == ref.dtype and ours.shape == ref.shape and np.allclose(ours, ref, rtol=1e-4, atol=1e-5)
print('   vs PyTorch: %s, max abs error %.3g' % ('match' if ok else 'MISMATCH', np.abs(ours - ref).max()))
sys.exit(0 if ok else 1)" "$1" "$2"
}

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

CASE="$ROOT/test/Corpus/ratio_iou"
echo
echo "== $CASE/graph.txt compiled for the CPU and run on PyTorch's recorded inputs:"
for variant in "--no-fusion" "--strategy nnc"; do
  out="$TMP/out${variant// /_}"
  # shellcheck disable=SC2086
  "$BUILD/bin/tsmlir-run" "$CASE/graph.txt" --input "$CASE/in0.npy" \
    --input "$CASE/in1.npy" --output-dir "$out" $variant --benchmark 50 |
    sed 's/^/   /'
  compare "$out/out0.npy" "$CASE/out0.npy"
done

MODEL="$ROOT/examples/squeezenet"
echo
echo "== $MODEL/squeezenet1_1.pt (torch.jit.save of torchvision's SqueezeNet 1.1)"
echo "   imported from the archive, compiled for the CPU, run on the bundled image:"
"$TRANSLATE" --import-pt "$MODEL/squeezenet1_1.pt" -o "$TMP/squeezenet.mlir"
echo "   $(count_ops "$TMP/squeezenet.mlir") ts ops after import (calls inlined, attributes frozen)"
"$BUILD/bin/tsmlir-run" "$MODEL/squeezenet1_1.pt" --input "$MODEL/input.npy" \
  --output-dir "$TMP/squeezenet" | sed 's/^/   /'
compare "$TMP/squeezenet/out0.npy" "$MODEL/output.npy"
