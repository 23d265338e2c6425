#!/usr/bin/env python3
"""Compares a program's out*.npy with a corpus case's PyTorch outputs.

Usage: match_pytorch.py OUT_DIR CASE_DIR
Prints 'CASE: N outputs match PyTorch' and exits 0, or says which output
differs and exits 1. The tolerance is the corpus tests' (rtol 1e-4,
atol 1e-5), from test/e2e/Inputs/run_corpus.py.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "e2e", "Inputs"))
from run_corpus import compare  # noqa: E402


def main():
    out_dir, case_dir = sys.argv[1], sys.argv[2]
    with open(os.path.join(case_dir, "meta.json")) as f:
        meta = json.load(f)
    case = os.path.basename(os.path.normpath(case_dir))
    why = compare(out_dir, case_dir, meta)
    if why:
        print("%s: %s" % (case, why))
        return 1
    print("%s: %d outputs match PyTorch" % (case, meta["n_outputs"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
