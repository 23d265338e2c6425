#!/usr/bin/env bash
# PyTorch's operator database (OpInfo) through tsmlir-run: every operator,
# every sample, in float32, float64, int64 and bool where the operator
# supports them (test/e2e/Inputs/run_opinfo.py says how samples are run and
# counted). Writes the per-operator table to docs/opinfo.md and ends with
# the summary line. CI runs a subset (test/e2e/opinfo.test).
#
#   scripts/opinfo.sh [--ops NAME,...] [--show-failures] [--time-limit S]
#
# The whole database takes hours on a small machine, so a run without --ops
# keeps each operator and dtype's outcomes in docs/opinfo-results.json as
# they are known, with the commit that ran them, and reuses those already
# there: a run stopped part way (by --time-limit SECONDS, or killed) goes on
# where it stopped, on this machine or another, and docs/opinfo.md is
# written when every job has its outcomes. To start over, remove the file.
#
# Environment: TSMLIR_OPINFO_JOBS=N parallel tsmlir-run processes (default:
# the number of cores), TSMLIR_BUILD_DIR (default build/),
# TSMLIR_OPINFO_WORK=DIR a work directory kept between runs: the outcomes
# a run wrote there are reused (run_opinfo.py --resume) too,
# TSMLIR_OPINFO_LEDGER=FILE another ledger (empty: none).
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
ledger="${TSMLIR_OPINFO_LEDGER-$ROOT/docs/opinfo-results.json}"
for arg in "$@"; do
  # A partial run writes neither the table nor the ledger of the whole
  # suite.
  if [[ "$arg" == --ops* ]]; then
    table="$BUILD/opinfo-partial.md"
    ledger="${TSMLIR_OPINFO_LEDGER:-}"
  fi
done
record=()
if [[ -n "$ledger" ]]; then
  build="$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  git -C "$ROOT" diff --quiet HEAD -- lib include tools runtime 2>/dev/null \
    || build="$build+changes"
  record=(--ledger "$ledger" --build "$build")
fi
/usr/bin/python3 "$ROOT/test/e2e/Inputs/run_opinfo.py" "$TMP" \
  --jobs "$JOBS" --table "$table" "${resume[@]}" "${record[@]}" "$@"
