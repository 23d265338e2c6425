#!/usr/bin/env python3
"""masked_select's gradient, whose upstream gradient has as many elements
as the mask sets (a size the data decide): tsmlir-opt differentiates a
function of it (--ts-optimize keeping masked_select whole, then
--ts-differentiate), and tsmlir-run runs the backward alone on masks with
some, none and every element set, broadcasting against the input; each
input gradient against torch.autograd.grad's.

Usage: run_masked_select_grad.py TMPDIR
"""
import os
import subprocess
import sys

import numpy as np
import torch

FUNCTION = """func.func @f(%x: !ts.tensor<f64, [4, 5]>, %mask: !ts.tensor<i1, [MASK]>) -> !ts.tensor {
  %0 = ts.aten.masked_select %x, %mask : (!ts.tensor<f64, [4, 5]>, !ts.tensor<i1, [MASK]>) -> !ts.tensor
  return %0 : !ts.tensor
}
"""


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode:
        raise SystemExit("%s failed: %s" % (cmd[0], result.stderr.strip()))


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    torch.manual_seed(0)
    cases = [("some", [4, 5], lambda s: torch.rand(s) > 0.5),
             ("none", [4, 5], lambda s: torch.zeros(s, dtype=torch.bool)),
             ("every", [4, 5], lambda s: torch.ones(s, dtype=torch.bool)),
             ("broadcast", [5], lambda s: torch.rand(s) > 0.4)]
    matched = 0
    for name, mask_sizes, make in cases:
        case = os.path.join(work, name)
        os.makedirs(case, exist_ok=True)
        source = os.path.join(case, "f.mlir")
        with open(source, "w") as f:
            f.write(FUNCTION.replace("MASK", ", ".join(map(str, mask_sizes))))
        split = os.path.join(case, "split.mlir")
        run(["tsmlir-opt", source, "--ts-optimize=keep=ts.aten.masked_select",
             "--ts-differentiate=func=f", "-o", split])
        x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
        mask = make(mask_sizes)
        y = torch.masked_select(x, mask)
        g = torch.randn(y.shape, dtype=torch.float64)
        (expected,) = torch.autograd.grad(y, [x], g)
        np.save(os.path.join(case, "mask.npy"), mask.numpy())
        np.save(os.path.join(case, "g.npy"), g.numpy())
        out = os.path.join(case, "out")
        # The backward takes what it reads of the forward's arguments (the
        # mask), then the upstream gradient.
        run(["tsmlir-run", split, "--entry=f_backward",
             "--input=" + os.path.join(case, "mask.npy"),
             "--input=" + os.path.join(case, "g.npy"), "--output-dir", out])
        ours = np.load(os.path.join(out, "out0.npy"))
        error = float(np.abs(ours - expected.numpy()).max())
        good = ours.shape == tuple(expected.shape) and error == 0.0
        matched += good
        print("%s (%d of %d set): %s" % (name, int(mask.sum()), mask.numel(),
                                         "match" if good else
                                         "MISMATCH %.1e" % error))
    print("masked_select gradients: %d of %d match" % (matched, len(cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
