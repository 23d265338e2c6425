#!/usr/bin/env bash
# Matrix products and convolutions against oneDNN and OpenBLAS
# (see bench/kernels/run.py).
#
#   bench/kernels/run.sh                       # every case, 1 and 2 threads
#   bench/kernels/run.sh --cases gemm --threads 1
#   bench/kernels/run.sh --only gemm_256,conv_3x3_64
#
# Builds baseline.cpp into $TSMLIR_BUILD_DIR/bench-kernels (default build/)
# with clang++-22, OpenMP and oneDNN (Debian: clang-22, libomp-22-dev,
# libdnnl-dev). OpenBLAS is Debian's pthread build, loaded by path: the
# installed one, or else the package unpacked into the build directory
# (apt-get download, no root, the system's BLAS left as it is). Runs run.py
# with /usr/bin/python3 (python3-torch, python3-numpy). Other arguments go to
# run.py.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
CXX="${CXX_FOR_BENCH:-/usr/lib/llvm-22/bin/clang++}"
OUT="$BUILD/bench-kernels"
mkdir -p "$OUT"

if [ ! -x "$OUT/baseline" ] || [ "$HERE/baseline.cpp" -nt "$OUT/baseline" ] ||
   [ "$HERE/../common/BenchArrays.h" -nt "$OUT/baseline" ]; then
  echo "building $OUT/baseline" >&2
  if ! "$CXX" -O3 -march=native -fopenmp -Wl,-rpath,/usr/lib/llvm-22/lib \
      -I "$HERE/../common" "$HERE/baseline.cpp" -o "$OUT/baseline" -ldnnl -ldl; then
    echo "bench/kernels/run.sh: cannot build baseline.cpp with $CXX" \
         "(Debian: apt-get install clang-22 libomp-22-dev libdnnl-dev)" >&2
    exit 1
  fi
fi

OPENBLAS=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0
if [ ! -e "$OPENBLAS" ]; then
  OPENBLAS="$OUT/openblas/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0"
  if [ ! -e "$OPENBLAS" ]; then
    echo "fetching Debian's libopenblas0-pthread into $OUT/openblas" >&2
    (cd "$OUT" && rm -f libopenblas0-pthread_*.deb &&
     apt-get download libopenblas0-pthread >&2 &&
     dpkg-deb -x libopenblas0-pthread_*.deb openblas) || {
      echo "bench/kernels/run.sh: cannot fetch libopenblas0-pthread" >&2
      exit 1
    }
  fi
fi

exec /usr/bin/python3 "$HERE/run.py" \
  --baseline "$OUT/baseline" \
  --openblas "$OPENBLAS" \
  --tsmlir-run "$BUILD/bin/tsmlir-run" \
  --work-dir "$OUT/cases" \
  "$@"
