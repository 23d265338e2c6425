#!/usr/bin/env bash
# PyTorch's operator database (OpInfo) through tsmlir-run: every operator,
# every sample, in float32, float64, int64 and bool where the operator
# supports them (test/e2e/Inputs/run_opinfo.py says how samples are run and
# counted). Writes the per-operator table to docs/opinfo.md and ends with
# the summary line. CI runs a subset (test/e2e/opinfo.test).
#
#   scripts/opinfo.sh [--ops NAME,...] [--show-failures]
#
# Environment: TSMLIR_OPINFO_JOBS=N parallel tsmlir-run processes (default:
# the number of cores), TSMLIR_BUILD_DIR (default build/),
# TSMLIR_OPINFO_WORK=DIR a work directory kept between runs: the outcomes
# a run wrote there are reused (run_opinfo.py --resume), so a run stopped
# part way goes on where it stopped (empty DIR for a fresh run).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
JOBS="${TSMLIR_OPINFO_JOBS:-$(nproc)}"
resume=()
if [[ -n "${TSMLIR_OPINFO_WORK:-}" ]]; then
  TMP="$TSMLIR_OPINFO_WORK"
  mkdir -p "$TMP"
  resume=(--resume)
else
  TMP="$(mktemp -d)"
  trap 'rm -rf "$TMP"' EXIT
fi
export PATH="$BUILD/bin:$PATH"

table="$ROOT/docs/opinfo.md"
for arg in "$@"; do
  # A partial run does not overwrite the table of the whole suite.
  [[ "$arg" == --ops* ]] && table="$BUILD/opinfo-partial.md"
done
/usr/bin/python3 "$ROOT/test/e2e/Inputs/run_opinfo.py" "$TMP" \
  --jobs "$JOBS" --table "$table" "${resume[@]}" "$@"
echo "table: $table"
