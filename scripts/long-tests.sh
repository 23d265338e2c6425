#!/usr/bin/env bash
# The tests too long for every CI run, run before an issue is resolved
# (docs/testing.md says which tests run where):
#
#   1. the whole suite under ASan + LeakSanitizer + UBSan, the corpus sweeps
#      that CI's `scripts/sanitize.sh asan --quick` leaves out included;
#   2. differential testing against PyTorch, COUNT random graphs from seed
#      1000 (scripts/difftest-long.sh; CI runs 40 from seed 1), long graphs
#      with shared reads among them;
#   3. every libFuzzer target for FUZZ_SECONDS each (scripts/fuzz.sh all);
#   4. torchvision's classification models from their .pt archives,
#      compared with PyTorch (scripts/torchvision-e2e.sh).
#
# The release build that difftest-long runs is set up and built first (a
# fresh clone has none).
#
#   scripts/long-tests.sh [COUNT] [FUZZ_SECONDS]    # default 400 graphs, 60 s
#
# Each part's output goes to the terminal as it runs; the script ends with
# one line per part (its wall time and status) and fails when any part did.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COUNT="${1:-400}"
FUZZ_SECONDS="${2:-60}"
case "$COUNT$FUZZ_SECONDS" in
  *[!0-9]*) echo "usage: $0 [COUNT] [FUZZ_SECONDS]" >&2; exit 2 ;;
esac
export TSMLIR_STAGE_TIMES
TSMLIR_STAGE_TIMES="$(mktemp)"
trap 'rm -f "$TSMLIR_STAGE_TIMES"' EXIT
source "$ROOT/scripts/stages.sh"

start=$SECONDS
status=0
stage "asan-whole-suite" "$ROOT/scripts/sanitize.sh" asan || status=1
# difftest-long runs the release build's tsmlir-run (fuzz.sh builds its
# own targets): set it up and build it first, as scripts/test.sh does.
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
if stage "release-setup" "$ROOT/scripts/setup.sh" &&
   stage "release-build" ninja -C "$BUILD" tsmlir-test-depends; then
  stage "difftest-long" "$ROOT/scripts/difftest-long.sh" "$COUNT" 1000 \
    || status=1
  stage "torchvision-e2e" "$ROOT/scripts/torchvision-e2e.sh" || status=1
else
  status=1
fi
stage "fuzz-all" "$ROOT/scripts/fuzz.sh" all "$FUZZ_SECONDS" || status=1

echo
echo "long tests (wall clock):"
print_stage_times "$start"
exit $status
