#!/usr/bin/env bash
# Installs what tsmlir needs (Debian 12 packages) when it is missing, and
# configures the build in ./build (or $TSMLIR_BUILD_DIR).
#
#   scripts/setup.sh            # install missing packages, configure
#
# Runs as root, or uses sudo. Safe to run again: it installs nothing that is
# present and reconfigures in place.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22

# libclang-rt-22-dev: libFuzzer and ASan for the importer's fuzz target;
# libbenchmark-dev: Google Benchmark for bench/; python3-torch and
# python3-numpy: the tests that run rewritten graphs in PyTorch and compare
# compiled code with PyTorch's outputs; libomp-22-dev: the OpenMP runtime
# compiled code uses for threads (tsmlir-run --threads N); python3-psutil:
# lit's per-test timeout (test/lit.cfg.py); ccache: a machine
# that has built before (a developer's, CI's) reuses its compiled objects;
# libzip-dev and pkg-config: the .pt archive reader (lib/Support/ZipArchive);
# python3-torchvision: the tests that save torchvision models as archives;
# python3-pytest: the Python package's tests (test/python); pybind11-dev and
# python3-dev: the package's in-process compiler (tsmlir.compile); python3-pip:
# its install test; python3-matplotlib: the benchmarks' plots (bench/cpu);
# libdnnl-dev: oneDNN, the kernels of libtsmlir_kernels (convolutions and
# matrix products, runtime/lib/Kernels.cpp).
PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
          lld-22 libclang-rt-22-dev libbenchmark-dev cmake ninja-build python3
          python3-torch python3-numpy python3-psutil libomp-22-dev ccache
          libzip-dev pkg-config python3-torchvision python3-pytest
          pybind11-dev python3-dev python3-pip python3-matplotlib
          libdnnl-dev)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# ccache, unless TSMLIR_CCACHE=0: paths under the source tree are hashed
# relative to it (CCACHE_BASEDIR) and the working directory is not hashed, so
# a fresh clone elsewhere (CI's) hits the objects an earlier build cached.
launcher=""
if [ "${TSMLIR_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
  launcher="/usr/bin/env;CCACHE_BASEDIR=$ROOT;CCACHE_NOHASHDIR=1;ccache"
fi

cmake -G Ninja -S "$ROOT" -B "$BUILD" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$LLVM_PREFIX/bin/clang" \
  -DCMAKE_CXX_COMPILER="$LLVM_PREFIX/bin/clang++" \
  -DLLVM_USE_LINKER=lld \
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
  -DCMAKE_C_COMPILER_LAUNCHER="$launcher" \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" \
  ${TSMLIR_CMAKE_ARGS:-}
