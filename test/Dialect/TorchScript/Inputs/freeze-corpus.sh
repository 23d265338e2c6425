#!/bin/sh
# -ts-freeze on every corpus graph, with the case's params.safetensors where
# it has one, with the verifier on: counts the attribute reads (prim::GetAttr)
# before and after. Then the modules whose callees are in CALLEES: graph.txt
# with its callees and params, frozen, against PyTorch's own frozen.txt by op
# kinds and counts (the differences are printed); and inlined.txt and
# traced_inlined.txt, whose attribute chains import binds, frozen as well.
# Usage: freeze-corpus.sh CORPUS CALLEES TMPDIR
set -u
corpus=$1 callees=$2 tmp=$3
. "$(dirname "$0")/corpus-lib.sh"
mkdir -p "$tmp"
files=0 failures=0 before=0 after=0
for f in "$corpus"/*/*.txt; do
  files=$((files + 1))
  name=${f#"$corpus"/}
  dir=$(dirname "$f")
  set --
  [ -e "$dir/params.safetensors" ] && set -- --params "$dir/params.safetensors"
  if ! tsmlir-translate --import-torchscript "$f" "$@" -o "$tmp/in.mlir" 2> "$tmp/err" ||
     ! tsmlir-opt "$tmp/in.mlir" -ts-freeze -o "$tmp/out.mlir" 2>> "$tmp/err"; then
    echo "FAIL: $name: $(head -1 "$tmp/err")"
    failures=$((failures + 1))
    continue
  fi
  before=$((before + $(count_ops "$tmp/in.mlir" '^ts\.prim\.GetAttr$')))
  after=$((after + $(count_ops "$tmp/out.mlir" '^ts\.prim\.GetAttr$')))
done
echo "freeze: $files graphs, $failures failures, $before attribute reads before, $after after"

compare() { # compare NAME FROZEN.mlir REFERENCE.mlir
  op_stats "$2" > "$tmp/ours"
  op_stats "$3" > "$tmp/theirs"
  if cmp -s "$tmp/ours" "$tmp/theirs"; then
    echo "$1: the same ops as frozen.txt"
  else
    echo "$1: other ops than frozen.txt (< ours, > PyTorch's):"
    diff "$tmp/ours" "$tmp/theirs" | sed -n 's/^[<>]/  &/p'
  fi
}
for case in mlp_module conv_block; do
  params="$corpus/$case/params.safetensors"
  tsmlir-translate --import-torchscript "$corpus/$case/frozen.txt" -o "$tmp/ref.mlir" ||
    { echo "FAIL: $case/frozen.txt"; continue; }
  import_case "$corpus" "$callees" "$case" graph.txt "$tmp/$case.mlir" --params "$params" &&
    tsmlir-opt "$tmp/$case.mlir" -ts-freeze -mlir-print-debuginfo -o "$tmp/$case.frozen.mlir" ||
    { echo "FAIL: $case"; continue; }
  compare "$case/graph.txt" "$tmp/$case.frozen.mlir" "$tmp/ref.mlir"
  for file in inlined.txt traced_inlined.txt; do
    tsmlir-translate --import-torchscript "$corpus/$case/$file" --params "$params" |
      tsmlir-opt -ts-freeze -o "$tmp/$case.frozen2.mlir" ||
      { echo "FAIL: $case/$file"; continue; }
    compare "$case/$file" "$tmp/$case.frozen2.mlir" "$tmp/ref.mlir"
  done
done
# The frozen MLP exports as TorchScript, its constants named as PyTorch's.
tsmlir-translate --export-torchscript "$tmp/mlp_module.frozen.mlir"
