#!/bin/sh
# Imports every graph file under CORPUS, exports it, imports the export, and
# checks that
#   - both imports are the same MLIR (locations aside), and
#   - the export is the original text, byte for byte.
# Usage: roundtrip.sh CORPUS TMPDIR
set -u
corpus=$1
tmp=$2
mkdir -p "$tmp"
files=0 roundtrips=0 identical=0 failures=0
for f in "$corpus"/*/*.txt; do
  files=$((files + 1))
  name=${f#"$corpus"/}
  if ! tsmlir-translate --import-torchscript "$f" -o "$tmp/first.mlir" 2> "$tmp/err" ||
     ! tsmlir-translate --export-torchscript "$tmp/first.mlir" -o "$tmp/export.txt" 2>> "$tmp/err" ||
     ! tsmlir-translate --import-torchscript "$tmp/export.txt" -o "$tmp/second.mlir" 2>> "$tmp/err"; then
    echo "FAIL: $name: $(head -1 "$tmp/err")"
    failures=$((failures + 1))
    continue
  fi
  tsmlir-translate --import-torchscript "$f" --mlir-print-debuginfo=false -o "$tmp/first.nodebug.mlir"
  tsmlir-translate --import-torchscript "$tmp/export.txt" --mlir-print-debuginfo=false -o "$tmp/second.nodebug.mlir"
  if cmp -s "$tmp/first.nodebug.mlir" "$tmp/second.nodebug.mlir"; then
    roundtrips=$((roundtrips + 1))
  else
    echo "FAIL: $name: the re-imported MLIR differs"
    failures=$((failures + 1))
  fi
  if cmp -s "$f" "$tmp/export.txt"; then
    identical=$((identical + 1))
  else
    echo "DIFFERENT EXPORT: $name"
  fi
done
echo "corpus: $files files, $roundtrips round trips, $identical identical exports, $failures failures"
