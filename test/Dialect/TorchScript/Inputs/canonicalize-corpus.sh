#!/bin/sh
# Imports every graph file under CORPUS, runs -canonicalize -cse (with the
# verifier on, as tsmlir-opt always runs it), exports the result, and counts
# the ts ops before and after.
# Usage: canonicalize-corpus.sh CORPUS TMPDIR
set -u
corpus=$1
tmp=$2
mkdir -p "$tmp"
files=0 failures=0 before=0 after=0
count() {
  tsmlir-opt "$1" --print-op-stats -o /dev/null 2>&1 |
    awk -F, '/ ts\./ { n += $2 } END { print n + 0 }'
}
for f in "$corpus"/*/*.txt; do
  files=$((files + 1))
  name=${f#"$corpus"/}
  if ! tsmlir-translate --import-torchscript "$f" -o "$tmp/in.mlir" 2> "$tmp/err" ||
     ! tsmlir-opt "$tmp/in.mlir" -canonicalize -cse -mlir-print-debuginfo -o "$tmp/out.mlir" 2>> "$tmp/err" ||
     ! tsmlir-translate --export-torchscript "$tmp/out.mlir" -o "$tmp/out.txt" 2>> "$tmp/err" ||
     ! tsmlir-translate --import-torchscript "$tmp/out.txt" -o /dev/null 2>> "$tmp/err"; then
    echo "FAIL: $name: $(head -1 "$tmp/err")"
    failures=$((failures + 1))
    continue
  fi
  before=$((before + $(count "$tmp/in.mlir")))
  after=$((after + $(count "$tmp/out.mlir")))
done
echo "corpus: $files files, $failures failures, ts ops $before before, $after after"
if [ "$after" -lt "$before" ]; then echo "the graphs shrank"; else echo "the graphs did not shrink"; fi
