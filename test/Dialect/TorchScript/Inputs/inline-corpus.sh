#!/bin/sh
# -ts-inline on every corpus graph, with the verifier on: counts the calls
# inlined and left. Then the cases whose callees are in CALLEES: graph.txt
# with its callees, inlined, against PyTorch's own inlined.txt, by op kinds
# and counts (after -canonicalize -cse on both sides for the modules, whose
# callees PyTorch inlines after optimizing them).
# Usage: inline-corpus.sh CORPUS CALLEES TMPDIR
set -u
corpus=$1 callees=$2 tmp=$3
. "$(dirname "$0")/corpus-lib.sh"
mkdir -p "$tmp"
calls='^ts\.prim\.Call(Function|Method)$'
files=0 failures=0 before=0 after=0
for f in "$corpus"/*/*.txt; do
  files=$((files + 1))
  name=${f#"$corpus"/}
  if ! tsmlir-translate --import-torchscript "$f" -o "$tmp/in.mlir" 2> "$tmp/err" ||
     ! tsmlir-opt "$tmp/in.mlir" -ts-inline -o "$tmp/out.mlir" 2>> "$tmp/err"; then
    echo "FAIL: $name: $(head -1 "$tmp/err")"
    failures=$((failures + 1))
    continue
  fi
  before=$((before + $(count_ops "$tmp/in.mlir" "$calls")))
  after=$((after + $(count_ops "$tmp/out.mlir" "$calls")))
done
echo "inline: $files graphs, $failures failures, $before calls, $after left (no callees given)"

for dir in "$callees"/*/; do
  case=$(basename "$dir")
  import_case "$corpus" "$callees" "$case" graph.txt "$tmp/$case.mlir" &&
    tsmlir-opt "$tmp/$case.mlir" -ts-inline -mlir-print-debuginfo -o "$tmp/$case.inlined.mlir" &&
    tsmlir-translate --import-torchscript "$corpus/$case/inlined.txt" -o "$tmp/$case.ref.mlir" ||
    { echo "FAIL: $case"; continue; }
  inlined=$(($(count_ops "$tmp/$case.mlir" "$calls") - $(count_ops "$tmp/$case.inlined.mlir" "$calls")))
  funcs=$(count_ops "$tmp/$case.inlined.mlir" '^func\.func$')
  if op_stats "$tmp/$case.inlined.mlir" > "$tmp/ours" &&
     op_stats "$tmp/$case.ref.mlir" > "$tmp/theirs" && cmp -s "$tmp/ours" "$tmp/theirs"; then
    same="the same ops as inlined.txt"
  elif op_stats "$tmp/$case.inlined.mlir" -canonicalize -cse > "$tmp/ours" &&
       op_stats "$tmp/$case.ref.mlir" -canonicalize -cse > "$tmp/theirs" &&
       cmp -s "$tmp/ours" "$tmp/theirs"; then
    same="the same ops as inlined.txt after -canonicalize -cse"
  else
    same="other ops than inlined.txt:"
  fi
  echo "$case: $inlined calls inlined, $funcs function left, $same"
  diff "$tmp/ours" "$tmp/theirs" | sed -n 's/^[<>]/  &/p'
done
# The inlined graph exports as TorchScript, with the callee's source ranges.
tsmlir-translate --export-torchscript "$tmp/call_function.inlined.mlir"
