#!/usr/bin/env bash
# The GPU check kit (scripts/gpu-kit.sh builds it): runs every model on the
# GPU and compares it with PyTorch's outputs, runs the GPU benchmark against
# eager PyTorch, torch.compile and the copy bandwidth, and writes report.md
# and report.json beside this script, failures first.
#
#   ./run.sh                      # everything
#   ./run.sh --no-bench           # the models only
#   ./run.sh --bench-sizes 1M,16M --runs 20
#   ./run.sh --help
#
# Needs Python 3 with numpy, PyTorch 2 built for CUDA (the benchmark and
# zero-copy calls; without it the models run on numpy arrays) and an NVIDIA
# driver. PYTHON picks the interpreter (default python3).
set -uo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "${PYTHON:-python3}" "$DIR/kit_run.py" "$@"
