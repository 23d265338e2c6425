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

python3 - "$results" <<'PY'
import sys
import xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    print("tsmlir tests: no results (lit did not run)")
    sys.exit(0)
cases = root.iter("testcase")
passed = failed = skipped = 0
for c in cases:
    if c.find("failure") is not None or c.find("error") is not None:
        failed += 1
    elif c.find("skipped") is not None:
        skipped += 1
    else:
        passed += 1
print(f"tsmlir tests: {passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
