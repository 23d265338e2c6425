#!/usr/bin/env python3
"""Compares the outputs of a model compiled with its gradients
(tsmlir-compile --grad-output, run by tsmlir-run) with a corpus case's
references: out0.npy .. the case's outputs, then one grad_inI.npy per
floating-point input, then the parameters' gradients in the order NAMES
gives (the header's), from the case's grad_params.safetensors.

    check_gradient_outputs.py OUT_DIR CASE_DIR NUM_OUTPUTS NUM_INPUT_GRADS
        [NAME ...]

Prints one line per output and `all N outputs match`, or exits 1.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


def main():
    out_dir, case_dir = sys.argv[1:3]
    num_outputs, num_grads = int(sys.argv[3]), int(sys.argv[4])
    names = sys.argv[5:]
    refs = [(os.path.join(case_dir, "out%d.npy" % k), "output %d" % k)
            for k in range(num_outputs)]
    refs += [(os.path.join(case_dir, "grad_in%d.npy" % k),
              "gradient of input %d" % k) for k in range(num_grads)]
    params = {}
    if names:
        params = harness.read_safetensors(
            os.path.join(case_dir, "grad_params.safetensors"))
    failed = False
    for k in range(len(refs) + len(names)):
        ours = np.load(os.path.join(out_dir, "out%d.npy" % k))
        if k < len(refs):
            path, what = refs[k]
            ref = np.load(path)
        else:
            name = names[k - len(refs)]
            ref, what = params[name], "gradient of parameter " + name
        why = harness.mismatch(ours, ref, what)
        print("out%d: %s: %s" % (k, what, why or "match"))
        failed |= why is not None
    if failed:
        return 1
    print("all %d outputs match" % (len(refs) + len(names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
