#!/usr/bin/env python3
"""The gradients of 3-D grid_sample (OpInfo samples only 2-D ones) through
tsmlir-run --grad-output against torch.autograd.grad: every interpolation
that has a 3-D form (bilinear, nearest) by every padding mode and
align_corners, float64, a grid reaching 20% outside [-1, 1] so that every
padding matters. One line per combination, then a summary.

Usage: run_grid_sample_grad.py TMPDIR
"""
import itertools
import os
import subprocess
import sys

import numpy as np
import torch

TOLERANCE = 1e-10  # absolute; the gradients are of order 1


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    torch.manual_seed(0)
    matched = total = 0
    for mode, padding, align in itertools.product(
            ["bilinear", "nearest"], ["zeros", "border", "reflection"],
            [False, True]):
        source = (
            "def f(x: torch.Tensor, grid: torch.Tensor):\n"
            "    return torch.nn.functional.grid_sample(x, grid, mode=%r, "
            "padding_mode=%r, align_corners=%r)\n" % (mode, padding, align))
        fn = torch.jit.CompilationUnit(source).f
        graph = fn.graph.copy()
        torch._C._jit_pass_inline(graph)
        x = torch.randn(2, 3, 4, 5, 6, dtype=torch.float64)
        grid = torch.rand(2, 3, 2, 4, 3, dtype=torch.float64) * 2.4 - 1.2
        case = os.path.join(work, "%s-%s-%s" % (mode, padding, align))
        os.makedirs(case, exist_ok=True)
        with open(os.path.join(case, "graph.txt"), "w") as f:
            f.write(str(graph))
        xr, gr = x.clone().requires_grad_(), grid.clone().requires_grad_()
        out = fn(xr, gr)
        upstream = torch.randn_like(out)
        expected = torch.autograd.grad(out, [xr, gr], upstream)
        for name, value in (("x", x), ("grid", grid), ("up", upstream)):
            np.save(os.path.join(case, name + ".npy"), value.numpy())
        result = subprocess.run(
            ["tsmlir-run", os.path.join(case, "graph.txt"),
             "--input=" + os.path.join(case, "x.npy"),
             "--input=" + os.path.join(case, "grid.npy"),
             "--grad-output=" + os.path.join(case, "up.npy"),
             "--output-dir", os.path.join(case, "out")],
            capture_output=True, text=True)
        total += 1
        label = "%s %s align_corners=%s" % (mode, padding, align)
        if result.returncode:
            print("%s: error: %s" % (label, result.stderr.strip()[:200]))
            continue
        errors = [float(np.abs(np.load(os.path.join(
            case, "out", "grad_in%d.npy" % i)) - e.numpy()).max())
            for i, e in enumerate(expected)]
        good = all(e <= TOLERANCE for e in errors)
        matched += good
        print("%s: %s (largest differences: input %.1e, grid %.1e)" % (
            label, "match" if good else "MISMATCH", *errors))
    print("grid_sample 3-D gradients: %d of %d match" % (matched, total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
