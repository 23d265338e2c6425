#!/usr/bin/env python3
"""masked_select's gradient, whose upstream gradient has as many elements
as the mask sets (a size the data decide), on masks with some, none and
every element set and one broadcast against the input: tsmlir-opt
differentiates a function of it (--ts-optimize keeping masked_select
whole, then --ts-differentiate) and tsmlir-run runs the backward alone;
then tsmlir-run --grad-output runs forward and backward together (the
selected elements returned at the size the data decide). Every output and
gradient against eager PyTorch's and torch.autograd.grad's.

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
    matched = runs = 0
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
        np.save(os.path.join(case, "x.npy"), x.detach().numpy())
        joined = os.path.join(case, "joined")
        run(["tsmlir-run", source, "--entry=f",
             "--input=" + os.path.join(case, "x.npy"),
             "--input=" + os.path.join(case, "mask.npy"),
             "--grad-output=" + os.path.join(case, "g.npy"),
             "--output-dir", joined])
        for what, path, want in (
                ("backward", os.path.join(out, "out0.npy"), expected),
                ("selected", os.path.join(joined, "out0.npy"), y),
                ("gradient", os.path.join(joined, "grad_in0.npy"), expected)):
            ours = np.load(path)
            want = want.detach().numpy()
            good = ours.shape == want.shape and \
                (ours.size == 0 or float(np.abs(ours - want).max()) == 0.0)
            matched += good
            runs += 1
            print("%s (%d of %d set), %s: %s" % (
                name, int(mask.sum()), mask.numel(), what,
                "match" if good else "MISMATCH"))
    print("masked_select gradients: %d of %d match" % (matched, runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
