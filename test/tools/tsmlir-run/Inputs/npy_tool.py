#!/usr/bin/env python3
"""Makes the inputs of the tsmlir-run tests and checks their outputs against
NumPy.

    npy_tool.py make DIR          writes the inputs
    npy_tool.py check DIR NAME    checks DIR/NAME/out*.npy, prints 'NAME: ok'
    npy_tool.py scale_add OUT X Y A
                                  checks scale_add.txt's outputs in OUT for
                                  the inputs X.npy and Y.npy (in DIR, OUT's
                                  parent's parent) and the float A
    npy_tool.py mm OUT X Y        checks mm.txt's output in OUT (X @ Y)
    npy_tool.py cat OUT X Y       checks cat.txt's output in OUT (X; Y)
    npy_tool.py running_sum OUT X K
                                  checks running_sum.mlir's outputs in OUT
                                  for X, the module's K-th call (from 1)
"""
import os
import sys

import numpy as np


def make(d):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    np.save(os.path.join(d, "x.npy"), x)
    np.save(os.path.join(d, "y.npy"), rng.standard_normal((2, 3)).astype(np.float32))
    np.save(os.path.join(d, "x_3x2.npy"), x.reshape(3, 2))
    np.save(os.path.join(d, "x_f64.npy"), x.astype(np.float64))
    np.save(os.path.join(d, "f16.npy"), x.astype(np.float16))
    np.save(os.path.join(d, "i32.npy"), np.arange(-3, 3, dtype=np.int32).reshape(2, 3))
    np.save(os.path.join(d, "i64.npy"), np.arange(6, dtype=np.int64).reshape(3, 2))
    np.save(os.path.join(d, "u8.npy"), np.arange(250, 256, dtype=np.uint8))
    np.save(os.path.join(d, "bool.npy"), np.array([[True, False, True], [False, False, True]]))
    np.save(os.path.join(d, "fortran.npy"),
            np.asfortranarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4)))
    np.save(os.path.join(d, "bigendian.npy"), x.astype(">f4"))
    np.save(os.path.join(d, "scalar.npy"), np.array(1.5, dtype=np.float32))
    np.save(os.path.join(d, "y_3x2.npy"), rng.standard_normal((3, 2)).astype(np.float32))
    np.save(os.path.join(d, "x_4x5.npy"), rng.standard_normal((4, 5)).astype(np.float32))
    np.save(os.path.join(d, "y_4x5.npy"), rng.standard_normal((4, 5)).astype(np.float32))
    # Sizes for the dynamic specialisations (jit-dynamic.test).
    for m, n in ((7, 9), (5, 1), (1, 8), (6, 4)):
        for name in ("x", "y"):
            np.save(os.path.join(d, "%s_%dx%d.npy" % (name, m, n)),
                    rng.standard_normal((m, n)).astype(np.float32))
    np.save(os.path.join(d, "w_4x3.npy"), rng.standard_normal((4, 3)).astype(np.float32))
    np.save(os.path.join(d, "w_9x4.npy"), rng.standard_normal((9, 4)).astype(np.float32))


def expected(d, name):
    load = lambda f: np.load(os.path.join(d, f))
    if name == "scale_add":
        r = load("x.npy") * np.float32(0.5) + load("y.npy")
        return [r, r > 0.5]
    if name == "bool":
        return [~load("bool.npy")]
    if name == "u8":
        # uint8 arithmetic wraps, as in PyTorch.
        return [(load("u8.npy") * 2).astype(np.uint8)]
    if name == "pow3":
        return [load("x.npy") ** 3]
    if name in ("f16", "i32", "i64", "fortran", "bigendian", "scalar", "x_f64"):
        a = load(name + ".npy")
        return [np.array(a * a.dtype.type(2), order="C").astype(a.dtype.newbyteorder("="))]
    raise SystemExit("unknown check " + name)


def check(d, name):
    want = expected(d, name)
    out = os.path.join(d, name)
    for i, w in enumerate(want):
        got = np.load(os.path.join(out, "out%d.npy" % i))
        assert got.dtype == w.dtype, (i, got.dtype, w.dtype)
        assert got.shape == w.shape, (i, got.shape, w.shape)
        if w.dtype.kind == "f":
            assert np.allclose(got, w, rtol=1e-3 if w.dtype == np.float16 else 1e-6), (i, got, w)
        else:
            assert np.array_equal(got, w), (i, got, w)
    print("%s: ok" % name)


def check_mm(out, x, y, op="mm"):
    d = os.path.dirname(os.path.dirname(os.path.abspath(out)))
    a = np.load(os.path.join(d, x + ".npy"))
    b = np.load(os.path.join(d, y + ".npy"))
    w = a @ b if op == "mm" else np.concatenate([a, b], 0)
    got = np.load(os.path.join(out, "out0.npy"))
    assert got.shape == w.shape and np.allclose(got, w, rtol=1e-5, atol=1e-6), (got, w)
    print("%s: ok" % os.path.basename(out))


def check_running_sum(out, x, k):
    """The K-th call counts K and adds K to a total that starts at 0.5: the
    output is X times the total."""
    d = os.path.dirname(os.path.dirname(os.path.abspath(out)))
    x = np.load(os.path.join(d, x + ".npy"))
    k = int(k)
    total = np.float32(0.5 + k * (k + 1) / 2)
    for i, w in enumerate([x * total, np.array(k, dtype=np.int64)]):
        got = np.load(os.path.join(out, "out%d.npy" % i))
        assert got.dtype == w.dtype and got.shape == w.shape, (i, got, w)
        assert np.allclose(got, w, rtol=1e-6), (i, got, w)
    print("%s: ok" % os.path.basename(out))


def check_scale_add(out, x, y, a):
    d = os.path.dirname(os.path.dirname(os.path.abspath(out)))
    x = np.load(os.path.join(d, x + ".npy"))
    y = np.load(os.path.join(d, y + ".npy"))
    r = x * np.float32(a) + y
    for i, w in enumerate([r, r > np.float32(a)]):
        got = np.load(os.path.join(out, "out%d.npy" % i))
        assert got.dtype == w.dtype and got.shape == w.shape, (i, got, w)
        assert np.allclose(got, w, rtol=1e-6) if w.dtype.kind == "f" \
            else np.array_equal(got, w), (i, got, w)
    print("%s: ok" % os.path.basename(out))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    elif sys.argv[1] == "scale_add":
        check_scale_add(*sys.argv[2:6])
    elif sys.argv[1] == "running_sum":
        check_running_sum(*sys.argv[2:5])
    elif sys.argv[1] in ("mm", "cat"):
        check_mm(*sys.argv[2:5], op=sys.argv[1])
    else:
        check(sys.argv[2], sys.argv[3])
