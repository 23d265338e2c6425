#!/bin/sh
# -ts-remove-mutation on every corpus graph, with the verifier on; the result
# must export as TorchScript and import again. Counts the in-place ops and
# list mutations before and after, and lists the graphs that have any.
# Usage: remove-mutation-corpus.sh CORPUS TMPDIR
set -u
corpus=$1 tmp=$2
. "$(dirname "$0")/corpus-lib.sh"
mkdir -p "$tmp"
# In-place ops (`add_`, `relu_`, `add_.Tensor`) and list mutations.
mutations='^ts\.aten\.([a-z0-9_]*[a-z0-9]_(\..*)?|append\.t|_set_item\.t)$'
files=0 failures=0 rewritten=0 kept=0
for f in "$corpus"/*/*.txt; do
  files=$((files + 1))
  name=${f#"$corpus"/}
  if ! tsmlir-translate --import-torchscript "$f" -mlir-print-debuginfo -o "$tmp/in.mlir" 2> "$tmp/err" ||
     ! tsmlir-opt "$tmp/in.mlir" -ts-remove-mutation -mlir-print-debuginfo -o "$tmp/out.mlir" 2>> "$tmp/err" ||
     ! tsmlir-translate --export-torchscript "$tmp/out.mlir" -o "$tmp/out.txt" 2>> "$tmp/err" ||
     ! tsmlir-translate --import-torchscript "$tmp/out.txt" -o /dev/null 2>> "$tmp/err"; then
    echo "FAIL: $name: $(head -1 "$tmp/err")"
    failures=$((failures + 1))
    continue
  fi
  before=$(count_ops "$tmp/in.mlir" "$mutations")
  [ "$before" -eq 0 ] && continue
  after=$(count_ops "$tmp/out.mlir" "$mutations")
  echo "$name: $before mutations, $((before - after)) rewritten, $after kept"
  rewritten=$((rewritten + before - after))
  kept=$((kept + after))
done
echo "remove-mutation: $files graphs, $failures failures, $rewritten rewritten, $kept kept"
