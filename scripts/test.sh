#!/usr/bin/env bash
# Sets up (installs missing Debian packages, configures), builds and runs the
# whole tsmlir test suite. Ends with one line: how many tests passed and failed.
#
#   scripts/test.sh [lit args...]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"

source "$ROOT/scripts/stages.sh"
# setup.sh installs PyTorch and numpy: a run without them is broken, not a
# run whose PyTorch tests may be skipped (test/lit.cfg.py).
export TSMLIR_REQUIRE_TORCH="${TSMLIR_REQUIRE_TORCH:-1}"

stage "setup" "$ROOT/scripts/setup.sh"
stage "build" ninja -C "$BUILD" tsmlir-test-depends

results="$BUILD/test-results.xml"
rm -f "$results"
status=0
stage "tests" /usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$results" \
  "$@" "$BUILD/test" || status=$?

python3 "$ROOT/scripts/lit_results.py" "$results"
exit $status
