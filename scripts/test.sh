#!/usr/bin/env bash
# Sets up (installs missing Debian packages, configures), builds and runs the
# whole tsmlir test suite. Ends with one line: how many tests passed and failed.
#
#   scripts/test.sh [lit args...]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"

"$ROOT/scripts/setup.sh"
ninja -C "$BUILD" tsmlir-test-depends

results="$BUILD/test-results.xml"
rm -f "$results"
status=0
/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$results" "$@" "$BUILD/test" \
  || status=$?

python3 "$ROOT/scripts/lit_results.py" "$results"
exit $status
