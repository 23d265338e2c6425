#!/usr/bin/env python3
"""Runs small TorchScript functions on edge-case tensors on the CPU with
tsmlir-run and compares their outputs with eager PyTorch's: empty tensors
(a 0-sized dimension), size-1 broadcasting, 0-d tensors and their type
promotion, Fortran-order, transposed and big-endian .npy inputs, NaN and
infinity through max/min/relu/clamp/softmax and arithmetic, integer
division (true, floor, trunc, remainder) and overflow (wrapping int32,
int64 and uint8 arithmetic, narrowing casts), f16/f64/i64/u8/bool dtypes,
and a tensor of more than 2^31 elements.

Each case is a Python function, scripted by PyTorch; its graph (calls
inlined) and its inputs (.npy, in the layout the case gives them) are run by
tsmlir-run without fusion groups and with every fusion strategy. Eager
PyTorch runs the same function on the same (possibly non-contiguous)
tensors. Every output must have PyTorch's dtype and shape; floats must be
close (the tolerances by dtype, and why, are in harness.py) with NaNs in
the same places and infinities equal; other dtypes equal.

A run that fails must be listed in EXPECTED_FAILURES with its reason, and a
listed run that passes fails the test, so the table stays true.

The case of more than 2^31 elements (big_index: a uint8 tensor of 2^31 + 16
elements, whose sum, maximum, index of the maximum and elements past 2^31
are checked) runs only when --only names it (edge-cases-big-cpu.test): it
takes tens of seconds, as tsmlir-run copies its 2 GiB input, and about
6 GiB of memory. It is skipped, with the reason printed and counted as
skipped, when MemAvailable is below 8 GiB; lit runs it only when it has
that much (the feature memory-8g, test/lit.cfg.py), so that the test says
UNSUPPORTED rather than passing without it.

Usage: run_edge_cases.py TMPDIR [--only NAME,...] [--jobs N]
                         [--tool tsmlir-run]
"""
import argparse
import concurrent.futures
import os
import shutil
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)

VARIANTS = [("no-fusion", ["--no-fusion"]),
            ("pointwise", ["--strategy", "pointwise"]),
            ("nnc", ["--strategy", "nnc"]),
            ("nvfuser", ["--strategy", "nvfuser"]),
            ("aggressive", ["--strategy", "aggressive"])]

# (name, function, inputs): inputs are torch tensors, numpy arrays (saved
# in their own layout and byte order), or Python numbers.
CASES = []

# name -> why every run of the case is expected to fail.
EXPECTED_FAILURES = {}

INF = float("inf")
NAN = float("nan")


def case(*inputs):
    def register(fn):
        CASES.append((fn.__name__, fn, list(inputs)))
        return fn
    return register


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def ints(*shape, dtype=torch.int64, low=-9, high=10):
    return torch.randint(low, high, shape, dtype=dtype)


def fortran(t):
    """`t` as a Fortran-order numpy array (its .npy says fortran_order)."""
    return np.asfortranarray(t.numpy())


def t_(x, dtype=torch.float32):
    return torch.tensor(x, dtype=dtype)


# ---------------------------------------------------------------------------
# Empty tensors
# ---------------------------------------------------------------------------

@case(randn(0, 3), randn(3), randn(0, 1))
def empty_pointwise(x, y, z):
    return (x + y, torch.relu(x), x * 2.5, torch.where(x > 0, x, y),
            torch.sigmoid(x - z), x > y)


@case(randn(0, 3), randn(4, 0))
def empty_reductions(x, w):
    return (x.sum(0), x.sum(1), x.sum(), x.mean(1), torch.amax(x, 1),
            torch.softmax(x, 1), torch.log_softmax(x, 0), x.mean(0),
            x.prod(), w.sum(1), w.mean(1), torch.softmax(w, 1), w.prod())


@case(randn(0, 3), randn(2, 3), randn(3, 0, 2))
def empty_shapes(x, y, z):
    return (torch.cat([x, y]), torch.cat([y, x, y], 0), x.view(3, 0),
            x.t(), x[:, 1:], y[1:1], z.permute(2, 0, 1), z.reshape(-1),
            z.unsqueeze(1), y.expand(0, 2, 3), y[2:], z.flatten(1),
            torch.cat([x, x], 1), torch.cat([z, z], 0))


@case(randn(3, 0), randn(0, 4), randn(2, 3, 0), randn(2, 0, 5))
def empty_matmul(a, b, c, d):
    return torch.mm(a, b), torch.matmul(a, b), torch.bmm(c, d)


@case(ints(0, 3), ints(0, 3, dtype=torch.int32),
      torch.zeros(0, 2, dtype=torch.bool))
def empty_ints(i, j, b):
    return i.sum(0), i + 1, j.sum(1), b.sum(), b.any(), b.all(), i * j


# ---------------------------------------------------------------------------
# Size-1 broadcasting
# ---------------------------------------------------------------------------

@case(randn(3, 1), randn(1, 4), randn(1), randn(4, 1, 1))
def broadcast_size1(a, b, c, d):
    return a + b, a * c, d - a, torch.maximum(a, b), torch.where(a > 0, b, d)


@case(randn(1, 5), randn(3, 1), randn(1, 1, 1))
def broadcast_reduce(a, b, c):
    return ((a + b).sum(0), torch.softmax(a, 0), a.amax(0, keepdim=True),
            (b * c).mean(), torch.log_softmax(b, 1), c.sum([0, 2]),
            torch.softmax(a + b, 1))


@case(randn(1, 3), randn(2, 1, 1))
def broadcast_expand(a, b):
    return (a.expand(4, 3) + 1, a.expand(2, 4, 3).sum(1),
            b.expand(2, 4, 3) * a, b.squeeze(), b.squeeze(1) + a)


# ---------------------------------------------------------------------------
# 0-d tensors and numbers
# ---------------------------------------------------------------------------

@case(t_(1.5), randn(4), randn(2, 3))
def zero_dim(s, x, m):
    return (s + x, s * 2, s.sum(), torch.softmax(s, 0), s.unsqueeze(0),
            x.sum() + s, s.expand(2, 3) * m, torch.relu(s), s.view(1, 1),
            torch.amax(s, 0), m.sum(), (m + s).mean())


@case(ints(4), t_(1.5, torch.float64), randn(4, dtype=torch.float16),
      t_(0.25), t_(3, torch.int64), ints(4, dtype=torch.uint8, low=0,
                                          high=255), t_(True, torch.bool))
def zero_dim_promotion(i, d, h, f, n, u, b):
    return (i + d, h + f, h * d, i * f, u + n, u * 2, i + b, h + 1.5,
            i * 2.5, u > n, d + f, i / n, b * f)


@case(randn(3), 2.5, ints(3), 3, torch.tensor([1.0, 2.0, 1e4],
                                              dtype=torch.float16))
def float_argument(x, a: float, i, n: int, h):
    return (x * a, x + a, torch.clamp(x, min=-a, max=a), x.sum() * a, i * a,
            i * 2.5, i + n, x * n, h * 1e5, h + a, i / n)


# ---------------------------------------------------------------------------
# Layouts: Fortran order, transposes, byte order
# ---------------------------------------------------------------------------

@case(fortran(randn(3, 4)), fortran(randn(3, 4, 2)), randn(3, 4).numpy())
def fortran_inputs(a, b, c):
    return (a + 1, a.sum(0), a.sum(1), a.t(), b.sum(2), b[:, 1], a + c,
            torch.mm(a, c.t()), torch.softmax(b, 1), a.contiguous().view(12))


@case(randn(4, 3).numpy().T, np.transpose(randn(2, 3, 4).numpy(), (2, 0, 1)),
      randn(5, 6).numpy()[::2, 1::2])
def transposed_inputs(a, b, c):
    return a * 2, b.sum(0), a.reshape(-1), b.permute(1, 2, 0), c + 1


@case(fortran(ints(3, 5)), fortran(randn(2, 3) > 0),
      fortran(randn(4, 3, dtype=torch.float64)),
      fortran(ints(3, 2, dtype=torch.uint8, low=0, high=255)))
def fortran_dtypes(i, b, d, u):
    return i.sum(1), i * 3, b.sum(0), b.t(), d.sum(0), d.exp(), u + 1, u.t()


@case(randn(3, 4).numpy().astype(">f4"), ints(2, 3).numpy().astype(">i8"),
      fortran(randn(2, 5)).astype(">f8"))
def big_endian(a, i, d):
    return a + 1, a.sum(1), i * 2, i.sum(), d.t(), d.sum(0)


# ---------------------------------------------------------------------------
# NaN and infinity
# ---------------------------------------------------------------------------

NAN_MATRIX = torch.tensor([[1.0, NAN, 3.0, -1.0, 0.5],
                           [2.0, 0.0, -INF, 4.0, 1.0],
                           [NAN, NAN, NAN, NAN, NAN],
                           [INF, -2.0, 1.0, NAN, 0.0]])


@case(NAN_MATRIX, torch.tensor([NAN, 1.0, INF, -INF, 0.0]))
def nan_max_min(x, y):
    a, ai = torch.max(x, 1)
    b, bi = torch.min(x, 0)
    return (torch.max(x), torch.min(x), torch.amax(x, 1), torch.amin(x, 0),
            a, ai, b, bi, torch.argmax(x, 1), torch.argmin(x, 0),
            torch.maximum(x, y), torch.minimum(x, y), torch.max(y, x),
            torch.min(x, y))


@case(NAN_MATRIX)
def nan_relu_clamp(x):
    return (torch.relu(x), torch.clamp(x, -1.0, 1.0), x.clamp_min(0.5),
            x.clamp_max(0.5), torch.clamp(x, min=0.0), F.hardtanh(x),
            torch.sigmoid(x), torch.tanh(x), torch.abs(x), -x, torch.sign(x))


@case(torch.tensor([[NAN, 1.0, 2.0], [-INF, 0.0, 1.0], [INF, 0.0, 1.0],
                    [-INF, -INF, -INF], [INF, INF, 1.0], [1e30, -1e30, 0.0]]))
def nan_softmax(x):
    return (torch.softmax(x, 1), torch.log_softmax(x, 1), torch.softmax(x, 0),
            torch.log_softmax(x, 0), torch.logsumexp(x, [1]))


@case(torch.tensor([INF, -INF, NAN, 0.0, 1.0, -1.0]),
      torch.tensor([INF, INF, 1.0, 0.0, 0.0, 0.0]))
def inf_arithmetic(x, y):
    return (x - y, x * y, x / y, x + y, torch.exp(x), torch.log(x),
            torch.sqrt(x), x.sum(), y.sum(), x.mean(), torch.pow(x, 2),
            torch.pow(x, 0.5), 1.0 / x, x * 0)


@case(NAN_MATRIX, torch.tensor([NAN, 1.0, INF, -INF, 0.0]))
def nan_compare(x, y):
    return (x == x, x != x, x > 0, x <= y, torch.where(x > 0, x, y),
            torch.eq(x, y), x.to(torch.bool), torch.ne(x, float("nan")), x.sum(1),
            torch.mean(x, 0))


# ---------------------------------------------------------------------------
# Integers: division and overflow
# ---------------------------------------------------------------------------

@case(torch.tensor([7, -7, 7, -7, 0, 5]), torch.tensor([2, 2, -2, -2, 3, 0]))
def int_true_div(a, b):
    return a / b, torch.div(a, b), a / 2, 7 / b, a.float() / b


@case(torch.tensor([7, -7, 7, -7, 0, 6, -1]),
      torch.tensor([2, 2, -2, -2, 3, 3, 5]))
def int_floor_div(a, b):
    return (a // b, torch.div(a, b, rounding_mode="floor"),
            torch.div(a, b, rounding_mode="trunc"), torch.remainder(a, b),
            a % b, torch.div(a, -3, rounding_mode="floor"), a % -3,
            torch.floor_divide(a, b), torch.div(a, 4, rounding_mode="trunc"),
            torch.remainder(a, 4))


@case(torch.tensor([7, -7, 0]), torch.tensor([2.5, -2.5, 1.0]))
def floor_divide_number(a, x):
    return a // 3, x // 2


@case(torch.tensor([7.5, -7.5, 7.5, -7.5, 0.0, 6.0, -0.0, 1.0]),
      torch.tensor([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 5.0, 0.0]))
def float_floor_div(x, y):
    return (x // y, torch.div(x, y, rounding_mode="floor"),
            torch.div(x, y, rounding_mode="trunc"), torch.remainder(x, y),
            x % y, x % 2.5)


@case(torch.tensor([2 ** 31 - 1, -2 ** 31, 5, -5], dtype=torch.int32),
      torch.tensor([2 ** 63 - 1, -2 ** 63, 3 * 2 ** 61, 7]))
def int_overflow(i, l):
    return (i + 1, i * 2, -i, torch.abs(i), i - 1, i.sum(), l + 1, l * 4,
            -l, l.sum(), i.to(torch.int16), i * l)


@case(torch.tensor([250, 3, 128, 127, 0, 255], dtype=torch.uint8),
      torch.tensor([10, 5, 128, 1, 1, 255], dtype=torch.uint8))
def uint8_wrap(u, v):
    return (u + v, u - v, u * 3, u.sum(), u > 100, u < v, torch.relu(u),
            torch.abs(u), torch.maximum(u, v), torch.minimum(u, v),
            torch.clamp(u, 2, 200), torch.amax(u, 0), -u, u.to(torch.int64),
            u.float() / 2, torch.max(u), u == 250, u > -1, u + 300,
            torch.where(u > 128, u, v), u // v, u % v, torch.sign(u))


@case(torch.tensor([-2.7, 2.7, -0.5, 1e9, 255.9, -1.0]),
      torch.tensor([2 ** 32 + 5, -1, 2 ** 53 + 1, 300]),
      torch.tensor([NAN, 0.0, -0.0, 2.0]))
def casts(x, l, z):
    return (x.to(torch.int32), x.to(torch.int64), l.to(torch.int32),
            l.to(torch.uint8), l.to(torch.float32), l.to(torch.float64),
            z.to(torch.bool), x.to(torch.float16), l.to(torch.bool),
            x.to(torch.bool))


@case(torch.tensor([True, True, False, False]),
      torch.tensor([True, False, True, False]))
def bool_arithmetic(a, b):
    return (a + b, a * b, a.sum(), a & b, a | b, a ^ b, ~a,
            torch.logical_and(a, b), a.to(torch.float32) + b, a + 1,
            a.float().mean(), torch.maximum(a, b), a == b, a > b,
            torch.where(a, b, a))


@case(ints(3, 4, low=-3, high=4), torch.tensor([2, 3, 0, 1]))
def int_pow(a, e):
    return a ** 2, a ** 3, torch.pow(a, e), torch.pow(2, e)


# Advanced indexing by several index tensors: adjacent (their broadcast dims
# replace the indexed ones) and apart (they lead), negative and 0-d indices,
# broadcasting [2, 1] with [3], literal lists, bool and int
# tensors.
@case(randn(4, 5, 6), torch.tensor([0, 3, -1]), torch.tensor([[1], [-2]]),
      torch.tensor([2, 0, 5]), torch.tensor(3),
      torch.rand(4, 5, 6) > 0.5, ints(4, 5, 6))
def advanced_index(x, a, b, c, z, m, n):
    return (x[a, b], x[a, :, c], x[:, b, c], x[a, 1:3, c], x[z, a],
            x[:, :, c], x[a, b, c], x[[0, 3], [1, 2]], m[a, b], n[:, a, c],
            x[z, z, z], x[b])


# frexp at zeros, subnormals, the largest finite values, infinities and NaN
# (mantissa and exponent equal, as the exponent is an integer output).
@case(torch.tensor([0., -0., 1., 0.5, -3., 1e-40, 1e-45, 3.4e38, float("inf"),
                    -float("inf"), float("nan"), 1 - 2 ** -24, 2 ** -126]),
      torch.tensor([5e-324, 1e-310, 1.7e308, 1 - 2 ** -53, -12345.678],
                   dtype=torch.float64))
def frexp(x, d):
    m, e = torch.frexp(x)
    n, f = torch.frexp(d)
    return m, e, n, f


# linspace as PyTorch's CPU kernel writes it, bit for bit: the booleans say
# where tsmlir's result equals eager PyTorch's (integers truncate per vector
# lane; floats round by fused multiply-adds and per lane).
LINSPACE_REF = [torch.linspace(-7.0, 1.0, 1000),
                torch.linspace(4.3, 50, 17, dtype=torch.float64),
                torch.linspace(0, -3, 50, dtype=torch.int64),
                torch.linspace(-30.02, 50, 16, dtype=torch.int32)]


@case(*LINSPACE_REF)
def linspace_exact(f, d, l, i):
    return (torch.linspace(-7.0, 1.0, 1000) == f,
            torch.linspace(4.3, 50, 17, dtype=torch.float64) == d,
            torch.linspace(0, -3, 50, dtype=torch.int64) == l,
            torch.linspace(-30.02, 50, 16, dtype=torch.int32) == i)


# ---------------------------------------------------------------------------
# Dtypes
# ---------------------------------------------------------------------------

@case(randn(4, 8, dtype=torch.float16), randn(8, dtype=torch.float16),
      t_(0.5))
def float16(h, g, f):
    # PyTorch 1.13's CPU kernels have no f16 exp, softmax, relu or clamp.
    a, ai = torch.max(h, 1)
    return (h + g, h * g, h.sum(1), h.mean(0), h + f, h.sum(), h.float(),
            torch.amax(h, 1), h > g, h / 3, a, ai, torch.maximum(h, g),
            torch.where(h > 0, h, g), h ** 2, -h, h.abs(), h // g, h % g,
            torch.cat([h, g.unsqueeze(0)]), h.float().exp().half())


@case(randn(4, 8, dtype=torch.float64), randn(8))
def float64(d, f):
    return (d.exp(), d.tanh(), torch.sigmoid(d), torch.log(d.abs()),
            d.sum(1), d.mean(), torch.softmax(d, 1), d + f, d * 1e-300,
            d.sum() * 1e200, torch.pow(d, 3), torch.sqrt(d.abs()))


@case(torch.tensor([[2 ** 60, -(2 ** 60) + 1, 3], [5, 2 ** 62, -7]]),
      ints(3, 4))
def int64(l, i):
    a, ai = torch.max(l, 1)
    return (l + 1, l.sum(1), a, ai, torch.argmax(l), l * 3, l > 2 ** 59,
            l.sum(0), i.sum(), torch.amin(i, 1), i.t() * 2)


@case(torch.rand(3, 5) > 0.5, randn(3, 5))
def bool_dtype(b, x):
    return (b.sum(1), b.any(), b.all(), torch.where(b, x, -x),
            b.to(torch.int64) * 3, x * b, b.t(), torch.amax(b, 1),
            torch.logical_not(b), x.masked_fill(b, 0.0), b.sum(0) > 1)


@case(torch.rand(3, 5) > 0.5, randn(3, 5))
def reduce_dim_overloads(b, x):
    return b.any(1), b.all(0), x.prod(1)


# ---------------------------------------------------------------------------
# Running and comparing
# ---------------------------------------------------------------------------

def graph_text(fn):
    scripted = torch.jit.script(fn)
    graph = scripted.graph.copy()
    torch._C._jit_pass_inline(graph)
    return str(graph)


def as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def compare(out_dir, expected):
    return harness.compare_dir(out_dir, expected)


def run_tool(tool, graph, inputs, flags, out_dir):
    """None when tsmlir-run succeeded, else why not."""
    return harness.run_tool(
        [tool, graph] + ["--input=" + i for i in inputs] + flags, out_dir)


def prepare(name, fn, inputs, tmp):
    """Writes the case's graph and inputs; returns the tsmlir-run inputs and
    eager PyTorch's outputs."""
    case_dir = os.path.join(tmp, name)
    os.makedirs(case_dir, exist_ok=True)
    graph = os.path.join(case_dir, "graph.txt")
    with open(graph, "w") as f:
        f.write(graph_text(fn))
    args, torch_args = [], []
    for i, x in enumerate(inputs):
        if isinstance(x, (torch.Tensor, np.ndarray)):
            array = x.numpy() if isinstance(x, torch.Tensor) else x
            path = os.path.join(case_dir, "in%d.npy" % i)
            np.save(path, array)
            args.append(path)
            # PyTorch reads the array in its own layout (Fortran order and
            # transposes stay non-contiguous tensors).
            if not array.dtype.isnative:
                array = array.astype(array.dtype.newbyteorder("="))
            torch_args.append(torch.from_numpy(array.copy(order="K")))
        else:
            args.append(str(x).lower() if isinstance(x, bool) else repr(x))
            torch_args.append(x)
    expected = [t.numpy() for t in as_tuple(fn(*torch_args))]
    return graph, args, expected


def mem_available_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 2 ** 20
    except OSError:
        pass
    return 0.0


BIG = 2 ** 31 + 16
# Nonzero elements of big_index's input (the rest are zeros).
BIG_MARKS = {0: 3, 2 ** 30: 11, 2 ** 31 - 1: 5, 2 ** 31: 7, 2 ** 31 + 1: 9,
             BIG - 1: 200}


def big_index(x):
    return (x + 1)[2147483644:], x.sum(), torch.amax(x, 0), torch.argmax(x)


def run_big(tool, tmp):
    """big_index: a uint8 tensor of 2^31 + 16 elements, mostly zeros (a
    sparse .npy file, so that writing it costs nothing). None when it
    matches, else why not. The outputs are small, so that the test does not
    spend its time writing gigabytes: the elements of x + 1 past 2^31 - 4,
    the sum and the maximum of every element, and the index of the
    maximum, past 2^31."""
    case_dir = os.path.join(tmp, "big_index")
    os.makedirs(case_dir, exist_ok=True)
    graph = os.path.join(case_dir, "graph.txt")
    with open(graph, "w") as f:
        f.write(graph_text(big_index))
    path = os.path.join(case_dir, "in0.npy")
    x = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint8,
                                  shape=(BIG,))
    for i, v in BIG_MARKS.items():
        x[i] = v
    x.flush()
    del x
    tail = np.ones(20, dtype=np.uint8)
    for i, v in BIG_MARKS.items():
        if i >= 2 ** 31 - 4:
            tail[i - (2 ** 31 - 4)] = v + 1
    expected = [tail, np.array(sum(BIG_MARKS.values()), dtype=np.int64),
                np.array(200, dtype=np.uint8), np.array(BIG - 1)]
    try:
        out_dir = os.path.join(case_dir, "nnc")
        why = run_tool(tool, graph, [path], ["--strategy", "nnc"], out_dir)
        return why or compare(out_dir, expected)
    finally:
        shutil.rmtree(case_dir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tmp")
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tool", default="tsmlir-run")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))

    jobs = []
    for name, fn, inputs in CASES:
        if only and name not in only:
            continue
        graph, inputs, expected = prepare(name, fn, inputs, args.tmp)
        for variant, flags in VARIANTS:
            out_dir = os.path.join(args.tmp, name, variant)
            jobs.append((name, variant, graph, inputs, flags, out_dir,
                         expected))

    def run(job):
        name, variant, graph, inputs, flags, out_dir, expected = job
        why = run_tool(args.tool, graph, inputs, flags, out_dir)
        return name, variant, why or compare(out_dir, expected)

    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results += list(pool.map(run, jobs))

    skipped = 0
    if "big_index" in only:
        free = mem_available_gib()
        if free < 8:
            print("skipped: big_index: MemAvailable is %.1f GiB, below 8 GiB"
                  % free)
            skipped += 1
        else:
            results.append(("big_index", "nnc", run_big(args.tool, args.tmp)))

    tally = harness.Tally()
    for name, variant, why in results:
        tally.record(name, "%s [%s]" % (name, variant), why,
                     EXPECTED_FAILURES.get(name))
    tally.print_problems()
    for name, reason in sorted(EXPECTED_FAILURES.items()):
        if not only or name in only:
            print("expected failure: %s: %s" % (name, reason))
    tally.print("per case")
    print("edge cases: %d runs, %d match PyTorch, %d failures, %d expected "
          "failures, %d unexpected passes, %d skipped" %
          (tally.total(), tally.total("match"), tally.total("fail"),
           tally.total("xfail"), tally.total("xpass"), skipped))
    return 1 if tally.failures or tally.unexpected_passes else 0


if __name__ == "__main__":
    sys.exit(main())
