#!/usr/bin/env bash
# CPU benchmark of compiled TorchScript graphs (see bench/cpu/README.md).
#
#   bench/cpu/run.sh                  # all workloads, 4K..16M, 1 and 2 threads
#   bench/cpu/run.sh --quick          # 4K and 1M only
#   bench/cpu/run.sh --workloads gelu,softmax --threads 1
#
# Builds the hand-written reference into $TSMLIR_BUILD_DIR/bench-cpu (default
# build/) with clang++-22 and OpenMP (Debian: clang-22, libomp-22-dev), finds
# tsmlir-run in $TSMLIR_BUILD_DIR/bin, and runs run.py with /usr/bin/python3
# (Debian: python3-torch, python3-numpy; python3-matplotlib for the plots).
# Other arguments go to run.py (run.py --help).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
CXX="${CXX_FOR_BENCH:-/usr/lib/llvm-22/bin/clang++}"
OUT="$BUILD/bench-cpu"
mkdir -p "$OUT"

# The rpath makes the binary use LLVM 22's libomp, not an older libomp.so.5.
if [ ! -x "$OUT/handwritten" ] || [ "$HERE/handwritten.cpp" -nt "$OUT/handwritten" ] ||
   [ "$HERE/../common/BenchArrays.h" -nt "$OUT/handwritten" ]; then
  echo "building $OUT/handwritten" >&2
  if ! "$CXX" -O3 -march=native -fopenmp -Wl,-rpath,/usr/lib/llvm-22/lib \
      -I "$HERE/../common" "$HERE/handwritten.cpp" -o "$OUT/handwritten"; then
    echo "bench/cpu/run.sh: cannot build handwritten.cpp with $CXX -fopenmp" \
         "(Debian: apt-get install clang-22 libomp-22-dev)" >&2
    exit 1
  fi
fi

exec /usr/bin/python3 "$HERE/run.py" \
  --handwritten "$OUT/handwritten" \
  --tsmlir-run "$BUILD/bin/tsmlir-run" \
  --work-dir "$OUT/cases" \
  "$@"
