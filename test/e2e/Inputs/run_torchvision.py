#!/usr/bin/env python3
"""torchvision's classification models end to end: every archive that
test/Target/PtArchive/Inputs/save_torchvision.py wrote (random weights,
eval mode; scripted, frozen and traced) is compiled and run by tsmlir-run
on one seeded 1x3x224x224 image and compared with what PyTorch gives for
the same archive (torch.jit.load, under torch.no_grad(), as a user runs a
model for inference).

Tolerance: the logits of a model are sums of tens of layers of f32 products
whose order of summation differs from PyTorch's kernels (oneDNN's blocked
convolutions, MKL's GEMM), so their rounding errors differ by more than one
layer's: an output element matches within rtol 1e-3 and atol 1e-4 of the
largest logit's magnitude. A wrong layer (a transposed weight, a missing
bias, a wrong padding) moves logits by far more than that.

A run that fails or mismatches fails the driver unless EXPECTED_FAILURES
lists it with the same reason; a listed run that passes, or fails
otherwise, fails it too.

Prints one line per archive, sorted (`MODEL/FORM.pt: match (compile and run
S s)`), then the total:

  torchvision: N archives, M match, F failures, X expected failures

Usage: run_torchvision.py ARCHIVES [--only MODEL,...] [--jobs N]
"""
import argparse
import concurrent.futures
import os
import sys
import time
import warnings

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

RTOL, ATOL_SCALE = 1e-3, 1e-4

# "MODEL/FORM" -> the reason its run fails, exactly as the driver sees it
# (none today: traced swin_t's padding, computed by rsub and remainder of
# 0-d tensors with numbers, folds).
EXPECTED_FAILURES = {}


def archives(root, only):
    for model in sorted(os.listdir(root)):
        directory = os.path.join(root, model)
        if not os.path.isdir(directory) or (only and model not in only):
            continue
        for name in sorted(os.listdir(directory)):
            if name.endswith(".pt"):
                yield model, name[:-3], os.path.join(directory, name)


def reference(path, image):
    """PyTorch's output for `image`, from the archive itself."""
    module = torch.jit.load(path)
    with torch.no_grad():
        out = module(image)
    if isinstance(out, (tuple, list)):
        out = out[0]
    return out.numpy()


def compare(ours, ref):
    if ours.shape != ref.shape or ours.dtype != ref.dtype:
        return "out0: %s%s, PyTorch gives %s%s" % (
            ours.dtype, list(ours.shape), ref.dtype, list(ref.shape))
    atol = ATOL_SCALE * float(np.abs(ref).max())
    if np.allclose(ours, ref, rtol=RTOL, atol=atol):
        return None
    diff = np.abs(ours.astype(np.float64) - ref)
    return "out0: %d of %d logits off, max abs error %.3g (largest logit " \
        "%.3g)" % (int((~np.isclose(ours, ref, rtol=RTOL, atol=atol)).sum()),
                   ref.size, diff.max(), np.abs(ref).max())


def run_one(job):
    model, form, path, image_path, ref = job
    out_dir = os.path.join(os.path.dirname(path), "out-" + form)
    start = time.time()
    why = harness.run_tool(["tsmlir-run", path, "--input=" + image_path],
                           out_dir)
    seconds = time.time() - start
    if why is None:
        produced = os.path.join(out_dir, "out0.npy")
        why = compare(np.load(produced), ref) if os.path.exists(produced) \
            else "out0 missing"
    return job, why, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("archives")
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)
    only = set(filter(None, args.only.split(",")))
    torch.manual_seed(1)
    image = torch.randn(1, 3, 224, 224)
    image_path = os.path.join(args.archives, "image.npy")
    np.save(image_path, image.numpy())
    jobs = [(model, form, path, image_path, reference(path, image))
            for model, form, path in archives(args.archives, only)]
    counts = {"match": 0, "fail": 0, "xfail": 0, "xpass": 0}
    lines, problems = [], []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for (model, form, _, _, _), why, seconds in pool.map(run_one, jobs):
            key = "%s/%s" % (model, form)
            expected = EXPECTED_FAILURES.get(key)
            if why is None:
                outcome = "UNEXPECTED PASS" if expected else "match"
                counts["xpass" if expected else "match"] += 1
            elif expected and why == expected:
                outcome = "expected failure"
                counts["xfail"] += 1
            else:
                outcome = "FAIL"
                counts["fail"] += 1
                problems.append("FAIL: %s.pt: %s" % (key, why))
            if outcome == "UNEXPECTED PASS":
                problems.append("UNEXPECTED PASS: %s.pt (listed: %s)" %
                                (key, expected))
            lines.append("  %s.pt: %s (compile and run %.1f s)" %
                         (key, outcome, seconds))
    for p in problems:
        print(p)
    print("per archive:")
    for line in sorted(lines):
        print(line)
    print("torchvision: %d archives, %d match, %d failures, %d expected "
          "failures, %d unexpected passes" % (
              len(jobs), counts["match"], counts["fail"], counts["xfail"],
              counts["xpass"]))
    return 1 if counts["fail"] or counts["xpass"] else 0


if __name__ == "__main__":
    sys.exit(main())
