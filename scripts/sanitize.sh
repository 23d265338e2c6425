#!/usr/bin/env bash
# Builds tsmlir with sanitizers and runs the test suite under them
# (docs/reliability.md#sanitizers).
#
#   scripts/sanitize.sh asan [lit args...]   ASan + LeakSanitizer + UBSan, in
#                                            build-asan/ ($TSMLIR_ASAN_BUILD_DIR)
#   scripts/sanitize.sh tsan [lit args...]   ThreadSanitizer, in build-tsan/
#                                            ($TSMLIR_TSAN_BUILD_DIR)
#   scripts/sanitize.sh asan --quick         what CI runs: the whole suite but
#                                            the corpus sweeps (QUICK_SKIP)
#
# Without lit arguments the whole suite runs; with them, what they name (paths
# under the build's test/ directory, -v, --filter=...). Every sanitizer report
# aborts its program and is also written under BUILD/sanitizer-reports/; the
# script prints each, ends with one line counting tests and findings, and
# fails if any test failed or any sanitizer reported anything.
#
# The build is optimised with -O1 (TSMLIR_SANITIZER_OPT: quick to compile, as
# fast as the tests need) and has line tables for the reports' stack traces.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LLVM_PREFIX=/usr/lib/llvm-22

kind="${1:-}"
case "$kind" in
  asan) BUILD="${TSMLIR_ASAN_BUILD_DIR:-$ROOT/build-asan}"
        option=-DTSMLIR_ENABLE_ASAN_UBSAN=ON; name="ASan+UBSan" ;;
  tsan) BUILD="${TSMLIR_TSAN_BUILD_DIR:-$ROOT/build-tsan}"
        option=-DTSMLIR_ENABLE_TSAN=ON; name="TSan" ;;
  *) echo "usage: scripts/sanitize.sh asan|tsan [--quick] [lit args...]" >&2
     exit 2 ;;
esac
shift
quick=0
if [[ "${1:-}" == --quick ]]; then
  quick=1
  shift
fi
# --quick skips the sweeps that run one pass pipeline over every corpus graph
# and compare the text it prints (hundreds of tsmlir-opt processes each, the
# bulk of the suite's time): their passes run under the sanitizer in the
# passes' own tests, and on every corpus graph in e2e/corpus-cpu,
# e2e/corpus-aot and e2e/corpus-ptx, which compile and run whole pipelines.
# It also skips the torchvision sweeps of the .pt front end (each saves dozens
# of models with PyTorch, gigabytes, for minutes): the same reader, parser and
# emitter run under the sanitizer on every corpus archive (e2e/corpus-pt), the
# hostile and malformed archives, the parser's tests and the bundled model.
QUICK_SKIP='(Dialect/TorchScript/[a-z-]*-corpus|Dialect/TorchScript/optimize-numerics|Dialect/Fusion/fusion-corpus|Target/TorchScript/corpus-roundtrip|Target/PtArchive/torchvision-import|Target/PtArchive/graph-compare|e2e/opinfo|e2e/opinfo-grad|e2e/autodiff|e2e/train-example|e2e/nn-modules|e2e/corpus-jit|e2e/corpus-jit-dynamic)\.test'

source "$ROOT/scripts/stages.sh"
# setup.sh installs PyTorch and numpy: a run without them is broken, not a
# run whose PyTorch tests may be skipped (test/lit.cfg.py).
export TSMLIR_REQUIRE_TORCH="${TSMLIR_REQUIRE_TORCH:-1}"

# The packages (clang's sanitizer runtimes are in libclang-rt-22-dev).
TSMLIR_BUILD_DIR="$BUILD" \
  TSMLIR_CMAKE_ARGS="$option -DTSMLIR_BUILD_BENCHMARKS=OFF ${TSMLIR_CMAKE_ARGS:-}" \
  stage "$kind setup" "$ROOT/scripts/setup.sh"
stage "$kind build" ninja -C "$BUILD" tsmlir-test-depends

reports="$BUILD/sanitizer-reports"
rm -rf "$reports"
mkdir -p "$reports"

tests=("$@")
if ((${#tests[@]} == 0)); then
  tests=("$BUILD/test")
fi
if ((quick)); then
  tests=(--filter-out="$QUICK_SKIP" "${tests[@]}")
fi
results="$BUILD/test-results.xml"
rm -f "$results"
status=0
stage "$kind tests" "$LLVM_PREFIX/bin/lit" -sv --xunit-xml-output="$results" \
  "${tests[@]}" || status=$?

report_status=0
python3 - "$results" "$reports" "$name" "$ROOT/scripts" <<'PY' || report_status=$?
import os
import sys
results, reports, name, scripts = sys.argv[1:5]
sys.path.insert(0, scripts)
from lit_results import summary
# A finding is a report with a SUMMARY line (every ASan, LSan, UBSan and
# TSan report ends with one). With allocator_may_return_null, ASan also logs
# "failed to allocate" warnings for the allocations it refuses (huge
# tensors the tools must refuse with a diagnostic): those are counted apart.
findings = refused = 0
for f in sorted(os.listdir(reports)):
    path = os.path.join(reports, f)
    with open(path, errors="replace") as report:
        text = report.read()
    if "SUMMARY:" in text:
        findings += 1
        print("==== %s" % path)
        sys.stdout.write(text)
    elif "failed to allocate" in text:
        refused += 1
    else:
        findings += 1
        print("==== %s (no summary)" % path)
        sys.stdout.write(text)
print(f"{summary(results, 'sanitize ' + name)}; "
      f"{findings} sanitizer finding(s), {refused} allocation(s) refused")
sys.exit(1 if findings else 0)
PY
if ((status == 0)); then
  status=$report_status
fi
exit $status
