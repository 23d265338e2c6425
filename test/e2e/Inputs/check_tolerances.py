#!/usr/bin/env python3
"""Shows that the comparison every driver uses (harness.py) catches wrong
answers: for each kind of output, a correct result within rounding passes
and a wrong one fails. Prints one line per check: `ok: WHAT` when the
comparison decided as it should, `FAIL: WHAT` otherwise."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

rng = np.random.default_rng(0)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


probs32 = softmax(rng.standard_normal((64, 1024)) * 3).astype(np.float32)
sigmoid32 = (1 / (1 + np.exp(-rng.standard_normal(4096) * 8))).astype(
    np.float32)
values32 = rng.standard_normal((32, 32)).astype(np.float32) * 10
values64 = rng.standard_normal((32, 32)) * 10
sums64 = rng.standard_normal(1000).cumsum()
probs16 = softmax(rng.standard_normal((8, 64))).astype(np.float16)
ints = rng.integers(-100, 100, (16,))

# (what, ours, reference, whether they must match)
CHECKS = [
    ("float32 softmax, 2 ulp off", probs32 * np.float32(1 + 2.4e-7), probs32,
     True),
    ("float32 softmax, 1% off", probs32 * np.float32(1.01), probs32, False),
    ("float32 softmax, 1% off in one row", np.concatenate(
        [probs32[:1] * np.float32(1.01), probs32[1:]]), probs32, False),
    ("float32 softmax, 0.1% off", probs32 * np.float32(1.001), probs32,
     False),
    ("float32 sigmoid, 1% off", sigmoid32 * np.float32(1.01), sigmoid32,
     False),
    ("float32 softmax, zeros", np.zeros_like(probs32), probs32, False),
    ("float32, 1e-5 relative off", values32 * np.float32(1 + 1e-5), values32,
     True),
    ("float32, 0.1% off", values32 * np.float32(1.001), values32, False),
    ("float32, zeros", np.zeros_like(values32), values32, False),
    ("float64, 1e-13 relative off", values64 * (1 + 1e-13), values64, True),
    ("float64, float32 rounding", values64.astype(np.float32).astype(
        np.float64), values64, False),
    ("float64, 1e-8 relative off", values64 * (1 + 1e-8), values64, False),
    ("float64 running sums, 1e-12 relative off", sums64 * (1 + 1e-12),
     sums64, True),
    ("float16 softmax, 1 ulp off", np.nextafter(probs16, np.float16(1)),
     probs16, True),
    ("float16 softmax, 1% off", (probs16 * np.float16(1.01)).astype(
        np.float16), probs16, False),
    ("int64, one element off", ints + (np.arange(16) == 3), ints, False),
    ("int64, equal", ints.copy(), ints, True),
    ("NaN in another place", np.where(np.arange(16) == 2, np.nan,
                                      values64[0, :16]), values64[0, :16],
     False),
    ("float32 as float64", values32.astype(np.float64), values32, False),
]

failures = 0
for what, ours, ref, should_match in CHECKS:
    why = harness.mismatch(np.asarray(ours), np.asarray(ref), "out0")
    if (why is None) == should_match:
        print("ok: %s: %s" % (what, "matches" if why is None else why))
    else:
        failures += 1
        print("FAIL: %s: %s" % (what, "matches, but must not" if why is None
                                else "must match, but " + why))
print("tolerance checks: %d, %d failures" % (len(CHECKS), failures))
sys.exit(1 if failures else 0)
