#!/usr/bin/env python3
"""Differential testing of tsmlir-run against PyTorch on random graphs.

A seeded generator writes random TorchScript functions: pointwise ops
(add/sub/mul/div with alpha and Python numbers, relu, sigmoid, tanh, exp,
log, sqrt, clamp, where, comparisons, logical ops, neg, abs, pow,
maximum/minimum, casts, rounding division and remainder), reductions (sum,
mean, amax/amin, max and argmax with indices, softmax, log_softmax, over
dims, with keepdim) and shape ops (view, reshape, flatten, permute,
transpose, unsqueeze, squeeze, expand, slices, select, cat) on inputs of
random broadcast-compatible shapes (0-d tensors and size-1 dimensions
included, now and then a 0-sized one) and dtypes (f32, f64, f16, i64, i32,
u8, bool), some in Fortran order, some holding NaN or infinity, with an
optional run-time float argument. Each statement is evaluated eagerly
while the function is generated, so that only valid programs of moderate
values are kept: a statement PyTorch refuses, or one whose result has new
infinities or magnitudes above 1e5, is drawn again (a few ops may produce
NaN on purpose). Float comparisons, rounding divisions, casts to integers
and argmax only read values every implementation rounds alike (inputs, +,
-, *, /, abs, max, ...), so that a one-ulp difference in exp or a sum
cannot flip a boolean or an integer.

Each function is scripted (torch.jit.CompilationUnit, calls inlined), its
graph written as graph.txt with its inputs as .npy files, and run by
tsmlir-run without fusion groups and with every fusion strategy. The
reference is PyTorch running the same scripted function with the graph
executor's optimizations off, that is the graph tsmlir compiles, op by op
(TorchScript's `3.0 - x` is `-x + 3.0`, which wraps for uint8 where
eager's rsub does not; the executor's peephole pass drops `x * 1` even
where it turns a bool x into int64). Every output must have PyTorch's
dtype and shape; integers and booleans must be equal, floats close (the
tolerances by dtype, and why, are in harness.py; NaNs in the same places). A
float output outside the tolerance still matches when its error against
the function evaluated in float64 is at most 4 times PyTorch's own error
plus the tolerance: it is then as accurate as PyTorch (a sum summed in
another order), not wrong.

A run that tsmlir refuses because it does not import or lower an op ("has
no lowering", "unsupported operator") is counted as unsupported, not as a
mismatch. Every other failure is a mismatch: it is printed with its seed
and, with --minimize, reduced to the shortest program that still fails
(the dependency slice of the first statement whose value differs, then
statements replaced by inputs holding their values while it still fails);
--save DIR writes the reduced case as a regression case in the corpus's
format (graph.txt, inN.npy, outN.npy, meta.json, source.py), which
run_difftest_regressions.py runs.

With --long P, P per cent of the graphs (chosen by seed) are long: MIN to
MAX statements are drawn (--long-size, 300,2000 by default; those the
outputs do not depend on are then dropped), mostly pointwise, in a chain
whose statements also read the 20 values before them, so that each value
has several readers and fusion groups of hundreds of ops form.

Usage:
  difftest.py TMPDIR [--seed S] [--count N] [--jobs J] [--variants V,...]
              [--minimize] [--save DIR] [--tool tsmlir-run] [--keep]
              [--long P] [--long-size MIN,MAX]

The last line reads
  difftest: seed S, N graphs, R runs, M match PyTorch, X mismatches, U unsupported
and the exit status is 1 when X > 0.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

torch.set_num_threads(1)
# The reference runs the graph as printed, op by op: the graph executor's
# optimizations would, for one, drop `x * 1` even where it turns a bool x
# into int64.
torch._C._set_graph_executor_optimize(False)

VARIANTS = [("no-fusion", ["--no-fusion"]),
            ("pointwise", ["--strategy", "pointwise"]),
            ("nnc", ["--strategy", "nnc"]),
            ("nvfuser", ["--strategy", "nvfuser"]),
            ("aggressive", ["--strategy", "aggressive"])]

FLOATS = (torch.float16, torch.float32, torch.float64)
DTYPE_NAMES = {torch.float16: "torch.float16", torch.float32: "torch.float32",
               torch.float64: "torch.float64", torch.int64: "torch.int64",
               torch.int32: "torch.int32", torch.uint8: "torch.uint8",
               torch.bool: "torch.bool"}
# Input dtypes, with their weights.
INPUT_DTYPES = [(torch.float32, 60), (torch.float64, 8), (torch.float16, 5),
                (torch.int64, 12), (torch.int32, 5), (torch.uint8, 4),
                (torch.bool, 6)]
SIZES = [1, 1, 2, 3, 4, 5, 6, 7, 8, 16, 32]
MAX_NUMEL = 4096
MAX_MAGNITUDE = 1e5
# Long graphs (--long): statements read the value just made or one of the
# LONG_WINDOW values before it.
LONG_WINDOW = 20


# ---------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------

class Arg:
    def __init__(self, name, value, fortran=False):
        self.name = name
        self.value = value  # a tensor, or a Python float
        self.fortran = fortran

    @property
    def is_tensor(self):
        return isinstance(self.value, torch.Tensor)

    def annotation(self):
        return "Tensor" if self.is_tensor else "float"


class Stmt:
    def __init__(self, targets, expr, deps):
        self.targets = targets
        self.expr = expr
        self.deps = deps

    def line(self):
        return "%s = %s" % (", ".join(self.targets), self.expr)


class Program:
    def __init__(self, args, stmts, outputs):
        self.args = args
        self.stmts = stmts
        self.outputs = outputs

    def source(self):
        params = ", ".join("%s: %s" % (a.name, a.annotation())
                           for a in self.args)
        lines = ["def f(%s):" % params]
        lines += ["    " + s.line() for s in self.stmts]
        if len(self.outputs) == 1:
            lines.append("    return %s" % self.outputs[0])
        else:
            lines.append("    return (%s)" % ", ".join(self.outputs))
        return "\n".join(lines) + "\n"

    def run(self, inputs=None):
        """PyTorch's outputs of the scripted function, as a list of
        tensors."""
        unit = torch.jit.CompilationUnit(self.source())
        if inputs is None:
            inputs = [a.value.clone() if a.is_tensor else a.value
                      for a in self.args]
        out = unit.f(*inputs)
        return list(out) if isinstance(out, tuple) else [out]

    def graph(self):
        unit = torch.jit.CompilationUnit(self.source())
        graph = unit.f.graph.copy()
        torch._C._jit_pass_inline(graph)
        return str(graph)

    def slice_to(self, outputs):
        """The program computing only `outputs`, with the statements and
        arguments they depend on."""
        needed = set(outputs)
        kept = []
        for s in reversed(self.stmts):
            if needed & set(s.targets):
                kept.append(s)
                needed |= set(s.deps)
        kept.reverse()
        args = [a for a in self.args if a.name in needed]
        return Program(args, kept, list(outputs))


# ---------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------

class Value:
    def __init__(self, name, tensor, exact):
        self.name = name
        self.t = tensor
        self.exact = exact  # rounded alike by every implementation

    @property
    def shape(self):
        return list(self.t.shape)

    @property
    def dtype(self):
        return self.t.dtype

    @property
    def is_float(self):
        return self.t.dtype in FLOATS


def fmt(x):
    return repr(float(x)) if isinstance(x, float) else str(x)


class Generator:
    def __init__(self, seed, long_size=None):
        self.rng = random.Random(seed)
        # (least, most) statements of a long graph; None: a short one.
        self.long = long_size
        self.torch_gen = torch.Generator().manual_seed(seed)
        self.args = []
        self.values = []  # tensor values, in order
        self.stmts = []
        self.uses = {}
        self.float_arg = None
        self.next_id = 0

    # Inputs.

    def choose_dtype(self):
        dtypes, weights = zip(*INPUT_DTYPES)
        return self.rng.choices(dtypes, weights)[0]

    def random_shape(self):
        rank = self.rng.choices([0, 1, 2, 3, 4], [6, 20, 35, 27, 12])[0]
        while True:
            shape = [self.rng.choice(SIZES) for _ in range(rank)]
            # (Not in a long graph, whose values would all be empty after
            # it.)
            if not self.long and self.rng.random() < 0.03 and rank:
                shape[self.rng.randrange(rank)] = 0
            if int(np.prod(shape)) <= MAX_NUMEL:
                return shape

    def random_tensor(self, shape, dtype):
        g = self.torch_gen
        if dtype in FLOATS:
            scale = self.rng.choice([1.0, 1.0, 3.0])
            t = torch.randn(shape, generator=g) * scale
            if t.numel() and self.rng.random() < 0.08:
                flat = t.view(-1)
                flat[self.rng.randrange(t.numel())] = float("nan")
                if self.rng.random() < 0.5:
                    flat[self.rng.randrange(t.numel())] = self.rng.choice(
                        [float("inf"), float("-inf")])
            return t.to(dtype)
        if dtype == torch.bool:
            return torch.rand(shape, generator=g) > 0.5
        if dtype == torch.uint8:
            return torch.randint(0, 256, shape, generator=g, dtype=dtype)
        return torch.randint(-6, 7, shape, generator=g, dtype=dtype)

    def new_input(self, shape, dtype):
        name = "a%d" % len(self.args)
        t = self.random_tensor(shape, dtype)
        fortran = t.dim() >= 2 and self.rng.random() < 0.15
        self.args.append(Arg(name, t, fortran))
        v = Value(name, t, True)
        self.values.append(v)
        return v

    def compatible_shape(self, shape):
        """A shape that broadcasts with `shape` to `shape` (mostly) or to a
        bigger one."""
        shape = list(shape)
        r = self.rng.random()
        if r < 0.25:
            return shape
        if r < 0.45 and shape:
            return shape[self.rng.randrange(len(shape) + 1):]
        out = [1 if self.rng.random() < 0.4 else d for d in shape]
        if self.rng.random() < 0.2 and len(out) < 4:
            lead = self.rng.choice([2, 3])
            if int(np.prod(shape)) * lead <= MAX_NUMEL:
                out = [lead] + out
        return out

    # Operands.

    def pick(self, pred=lambda v: True, recent=True, window=None):
        values = self.values[-window:] if window else self.values
        candidates = [v for v in values if pred(v)]
        if not candidates:
            return None
        if recent and self.rng.random() < 0.6:
            candidates = candidates[-3:]
        return self.rng.choice(candidates)

    def other_operand(self, x, allow_scalar=True):
        """A second operand for a binary op with `x`: an existing value of a
        broadcast-compatible shape, a new input, or a Python number."""
        r = self.rng.random()
        if allow_scalar and r < 0.3:
            if self.float_arg is not None and self.rng.random() < 0.3:
                return self.float_arg, True
            if x.is_float or self.rng.random() < 0.3:
                return fmt(self.rng.choice([0.5, 2.0, -1.5, 3.0, 0.25])), True
            return fmt(self.rng.choice([1, 2, 3, -2])), True
        # A long graph reads its recent values rather than new inputs.
        if r < (0.9 if self.long else 0.6):
            def fits(v):
                try:
                    torch.broadcast_shapes(x.t.shape, v.t.shape)
                    return v is not x or self.rng.random() < 0.3
                except RuntimeError:
                    return False
            v = self.pick(fits, window=LONG_WINDOW if self.long else None)
            if v is not None:
                return v.name, v.exact
        dtype = x.dtype if self.rng.random() < 0.75 else self.choose_dtype()
        v = self.new_input(self.compatible_shape(x.shape), dtype)
        return v.name, True

    def rand_dim(self, x, extra=0):
        n = len(x.shape) + extra
        d = self.rng.randrange(n)
        return d - n if self.rng.random() < 0.3 else d

    def rand_dims(self, x):
        rank = len(x.shape)
        k = self.rng.randint(1, rank)
        dims = sorted(self.rng.sample(range(rank), k))
        if self.rng.random() < 0.2:
            dims = [d - rank for d in dims]
        return dims

    # Statements: each returns (expr, exact) or None.

    def op_binary(self, x):
        other, oexact = self.other_operand(x)
        op = self.rng.choice(["add", "sub", "mul", "div", "op"])
        exact = x.exact and oexact
        if op in ("add", "sub"):
            alpha = self.rng.choice([None, None, 2, 0.5, -1])
            if alpha is None:
                return "torch.%s(%s, %s)" % (op, x.name, other), exact
            return ("torch.%s(%s, %s, alpha=%s)" % (op, x.name, other,
                                                    fmt(alpha)),
                    exact and alpha in (2, -1))
        if op == "mul":
            return "torch.mul(%s, %s)" % (x.name, other), exact
        if op == "div":
            return "torch.div(%s, %s)" % (x.name, other), False
        sym = self.rng.choice(["+", "-", "*", "/"])
        if self.rng.random() < 0.5:
            return "%s %s %s" % (x.name, sym, other), exact and sym != "/"
        return "%s %s %s" % (other, sym, x.name), exact and sym != "/"

    def op_unary(self, x):
        r = self.rng.choice(["relu", "sigmoid", "tanh", "exp", "log", "neg",
                             "abs", "pow", "sqrt", "clamp", "clamp_min",
                             "cast"])
        n = x.name
        if r == "relu":
            return "torch.relu(%s)" % n, x.exact
        if r in ("sigmoid", "tanh", "exp"):
            return "torch.%s(%s)" % (r, n), False
        if r == "log":
            if self.rng.random() < 0.15:
                return "torch.log(%s)" % n, False  # NaN for negatives
            return "torch.log(torch.abs(%s) + 1)" % n, False
        if r == "neg":
            return "torch.neg(%s)" % n if self.rng.random() < 0.5 \
                else "-%s" % n, x.exact
        if r == "abs":
            return "torch.abs(%s)" % n, x.exact
        if r == "pow":
            if not x.is_float and self.rng.random() < 0.3:
                if self.rng.random() < 0.5:
                    return "torch.pow(%s, %d)" % (
                        n, self.rng.choice([0, 4, 5, 7])), True
                e = self.new_input(x.shape, torch.int64)
                return "torch.pow(%s, torch.remainder(%s, 4))" % (
                    n, e.name), True
            e = self.rng.choice([2, 3, 2.0, 0.5, 1.5, -1.0])
            if e in (0.5, 1.5):
                return "torch.pow(torch.abs(%s) + 1, %s)" % (n, fmt(e)), False
            return "torch.pow(%s, %s)" % (n, fmt(e)), x.exact and e != -1.0
        if r == "sqrt":
            return "torch.sqrt(torch.abs(%s))" % n, False
        if r == "clamp":
            lo = self.rng.choice([None, -1.0, -0.5, 0, -2])
            hi = self.rng.choice([None, 1.0, 0.5, 2, 3])
            if lo is None and hi is None:
                lo = 0
            if self.float_arg is not None and self.rng.random() < 0.2:
                lo = self.float_arg
            if lo is not None and hi is not None and not isinstance(lo, str) \
                    and lo > hi:
                lo, hi = hi, lo
            args = []
            if lo is not None:
                args.append("min=%s" % (lo if isinstance(lo, str)
                                        else fmt(lo)))
            if hi is not None:
                args.append("max=%s" % fmt(hi))
            return "torch.clamp(%s, %s)" % (n, ", ".join(args)), x.exact
        if r == "clamp_min":
            return "torch.clamp_min(%s, %s)" % (
                n, fmt(self.rng.choice([0, -1.0, 0.5]))), x.exact
        # cast
        targets = [torch.float32, torch.float64, torch.float16, torch.int64,
                   torch.int32, torch.bool]
        if not x.exact:
            targets = [t for t in targets if t in FLOATS]
        to = self.rng.choice(targets)
        if self.rng.random() < 0.3 and to in (torch.float32, torch.int64,
                                              torch.float64):
            method = {torch.float32: "float", torch.int64: "long",
                      torch.float64: "double"}[to]
            return "%s.%s()" % (n, method), x.exact or to in FLOATS
        return "%s.to(%s)" % (n, DTYPE_NAMES[to]), x.exact

    def op_compare(self, x):
        if x.is_float and not x.exact:
            return None
        other, oexact = self.other_operand(x)
        if not oexact:
            return None
        op = self.rng.choice(["gt", "lt", "ge", "le", "eq", "ne"])
        if self.rng.random() < 0.5:
            sym = {"gt": ">", "lt": "<", "ge": ">=", "le": "<=", "eq": "==",
                   "ne": "!="}[op]
            return "%s %s %s" % (x.name, sym, other), True
        return "torch.%s(%s, %s)" % (op, x.name, other), True

    def op_where(self, x):
        conds = [v for v in self.values if v.dtype == torch.bool]
        if conds and self.rng.random() < 0.7:
            cond = self.rng.choice(conds).name
        elif x.is_float and not x.exact:
            v = self.pick(lambda v: v.exact and v.dtype != torch.bool)
            if v is None:
                return None
            cond = "%s > 0" % v.name
        else:
            cond = "%s > %s" % (x.name, fmt(self.rng.choice([0, 1, 0.5])))
        other, oexact = self.other_operand(x)
        if self.rng.random() < 0.5:
            return "torch.where(%s, %s, %s)" % (cond, x.name, other), \
                x.exact and oexact
        return "torch.where(%s, %s, %s)" % (cond, other, x.name), \
            x.exact and oexact

    def op_divide(self, x):
        """Rounding division and remainder, of exact operands only (they
        jump where the quotient crosses an integer). An integer division by
        zero makes PyTorch raise, so such a statement is drawn again."""
        if not x.exact:
            return None
        other, oexact = self.other_operand(x)
        if not oexact:
            return None
        exact = True
        number = not other[0].isalpha()
        kind = self.rng.choice(["floor", "trunc", "remainder", "//", "%"])
        if kind in ("floor", "trunc"):
            return "torch.div(%s, %s, rounding_mode=%r)" % (
                x.name, other, kind), exact
        if kind == "remainder":
            return "torch.remainder(%s, %s)" % (x.name, other), exact
        if kind == "//" and number and (self.long or
                                        self.rng.random() < 0.8):
            # tensor // number is aten::floor_divide.Scalar, which tsmlir
            # does not import; keep it rare.
            return None
        return "%s %s %s" % (x.name, kind, other), exact

    def op_logical(self, x):
        """Boolean ops on comparisons and bool values."""
        if x.dtype != torch.bool:
            x = self.pick(lambda v: v.dtype == torch.bool,
                          window=LONG_WINDOW if self.long else None)
            if x is None:
                return None
        others = [v for v in self.values if v.dtype == torch.bool]
        y = self.rng.choice(others)
        try:
            torch.broadcast_shapes(x.t.shape, y.t.shape)
        except RuntimeError:
            return None
        op = self.rng.choice(["logical_and", "logical_or", "logical_xor",
                              "logical_not", "&", "|", "^", "~"])
        if op == "~":
            return "~%s" % x.name, True
        if op == "logical_not":
            return "torch.logical_not(%s)" % x.name, True
        if op.startswith("logical"):
            return "torch.%s(%s, %s)" % (op, x.name, y.name), True
        return "%s %s %s" % (x.name, op, y.name), True

    def op_minmax(self, x):
        other, oexact = self.other_operand(x, allow_scalar=False)
        op = self.rng.choice(["maximum", "minimum", "max", "min"])
        return "torch.%s(%s, %s)" % (op, x.name, other), x.exact and oexact

    def op_reduce(self, x):
        if not x.shape:
            return None
        op = self.rng.choice(["sum", "sum", "mean", "amax", "amin", "max",
                              "softmax", "log_softmax", "sum_all",
                              "mean_all", "sum_dtype", "max_all", "argmax"])
        keep = self.rng.choice(["True", "False"])
        if op in ("sum", "mean", "amax", "amin"):
            dims = self.rand_dims(x)
            exact = op in ("amax", "amin") and x.exact
            if self.rng.random() < 0.5:
                return "torch.%s(%s, %s, %s)" % (op, x.name, dims, keep), exact
            return "%s.%s(%s, keepdim=%s)" % (x.name, op, dims, keep), exact
        if op == "max":
            if x.is_float and not x.exact:
                return None
            return ("torch.max(%s, %d, %s)" % (x.name, self.rand_dim(x), keep),
                    True, 2)
        if op == "max_all":
            return "torch.%s(%s)" % (self.rng.choice(["max", "min"]),
                                     x.name), x.exact
        if op == "argmax":
            if x.is_float and not x.exact:
                return None
            return "torch.%s(%s, %d, %s)" % (
                self.rng.choice(["argmax", "argmin"]), x.name,
                self.rand_dim(x), keep), True
        if op in ("softmax", "log_softmax"):
            # PyTorch refuses integers, but not an empty integer tensor.
            if not x.is_float:
                return None
            return "torch.%s(%s, %d)" % (op, x.name, self.rand_dim(x)), False
        if op == "sum_all":
            return "torch.sum(%s)" % x.name, not x.is_float
        if op == "mean_all":
            return "%s.mean()" % x.name, False
        return "torch.sum(%s, %s, %s, dtype=torch.float64)" % (
            x.name, self.rand_dims(x), keep), False

    def op_shape(self, x):
        n, shape, rank = x.name, x.shape, len(x.shape)
        r = self.rng.choice(["view", "reshape", "flatten", "permute",
                             "transpose", "unsqueeze", "squeeze", "expand",
                             "slice", "select", "cat", "contiguous"])
        if r in ("view", "reshape"):
            numel = int(np.prod(shape))
            if numel == 0:
                return None
            new = []
            rest = numel
            while rest > 1 and len(new) < 3:
                divisors = [d for d in range(2, rest + 1) if rest % d == 0]
                d = self.rng.choice(divisors)
                new.append(d)
                rest //= d
            if rest > 1:
                new.append(rest)
            if self.rng.random() < 0.3:
                new.insert(self.rng.randrange(len(new) + 1), 1)
            self.rng.shuffle(new)
            if new and self.rng.random() < 0.4:
                new[self.rng.randrange(len(new))] = -1
            return "%s.%s(%s)" % (n, r, new), x.exact
        if rank == 0 and r not in ("unsqueeze", "expand"):
            return None
        if r == "flatten":
            start = self.rng.randrange(rank)
            end = self.rng.randrange(start, rank)
            return "torch.flatten(%s, %d, %d)" % (n, start, end), x.exact
        if r == "permute":
            perm = list(range(rank))
            self.rng.shuffle(perm)
            return "%s.permute(%s)" % (n, perm), x.exact
        if r == "transpose":
            return "torch.transpose(%s, %d, %d)" % (
                n, self.rand_dim(x), self.rand_dim(x)), x.exact
        if r == "unsqueeze":
            return "torch.unsqueeze(%s, %d)" % (n, self.rand_dim(x, 1)), \
                x.exact
        if r == "squeeze":
            ones = [i for i, d in enumerate(shape) if d == 1]
            if ones and self.rng.random() < 0.7:
                return "torch.squeeze(%s, %d)" % (n, self.rng.choice(ones)), \
                    x.exact
            return "torch.squeeze(%s)" % n, x.exact
        if r == "expand":
            new = [self.rng.choice([2, 3, 4]) if d == 1 else
                   (-1 if self.rng.random() < 0.5 else d) for d in shape]
            if self.rng.random() < 0.3 or not new:
                new = [self.rng.choice([2, 3])] + new
            numel = int(np.prod([abs(d) if d != -1 else shape[i - len(new) +
                                                              rank]
                                 for i, d in enumerate(new)]))
            if numel > MAX_NUMEL:
                return None
            return "%s.expand(%s)" % (n, new), x.exact
        if r == "slice":
            d = self.rng.randrange(rank)
            size = shape[d]
            start = self.rng.choice([None, 0, 1, -2, size // 2])
            end = self.rng.choice([None, -1, size, size + 3, 2])
            step = self.rng.choice([None, None, 2, 3])
            part = "%s:%s" % ("" if start is None else start,
                              "" if end is None else end)
            if step:
                part += ":%d" % step
            index = [":"] * d + [part]
            return "%s[%s]" % (n, ", ".join(index)), x.exact
        if r == "select":
            d = self.rng.randrange(rank)
            if shape[d] == 0:
                return None
            i = self.rng.randrange(-shape[d], shape[d])
            if self.rng.random() < 0.5:
                return "torch.select(%s, %d, %d)" % (n, d, i), x.exact
            return "%s[%s]" % (n, ", ".join([":"] * d + [str(i)])), x.exact
        if r == "cat":
            d = self.rand_dim(x)
            others = [v for v in self.values
                      if v.dtype == x.dtype and len(v.shape) == rank and
                      all(a == b for i, (a, b) in
                          enumerate(zip(v.shape, shape)) if i != d % rank)]
            parts = [n]
            exact = x.exact
            for _ in range(self.rng.choice([1, 1, 2])):
                if others and self.rng.random() < 0.5:
                    v = self.rng.choice(others)
                else:
                    new = list(shape)
                    new[d] = self.rng.choice([1, 2, 3])
                    v = self.new_input(new, x.dtype)
                parts.append(v.name)
                exact = exact and v.exact
            self.rng.shuffle(parts)
            return "torch.cat([%s], %d)" % (", ".join(parts), d), exact
        return "%s.contiguous()" % n, x.exact

    # Driver.

    def try_stmt(self, make, x):
        made = make(x)
        if made is None:
            return False
        expr, exact = made[0], made[1]
        ntargets = made[2] if len(made) > 2 else 1
        base = self.next_id
        targets = ["v%d" % (base + i) for i in range(ntargets)]
        scope = {"torch": torch}
        scope.update({a.name: a.value for a in self.args})
        scope.update({v.name: v.t for v in self.values})
        try:
            result = eval(expr, scope)
        except Exception:
            return False
        results = list(result) if ntargets > 1 else [result]
        for t in results:
            if not isinstance(t, torch.Tensor) or t.numel() > MAX_NUMEL:
                return False
            if self.long and t.numel() == 0:
                return False
            if t.dtype in FLOATS and t.numel():
                finite = torch.isfinite(t)
                big = t.abs()[finite].max().item() if finite.any() else 0.0
                if big > MAX_MAGNITUDE:
                    return False
                if torch.isinf(t).any() and "log" not in expr:
                    inputs_inf = any(
                        torch.isinf(v.t).any().item() for v in self.values
                        if v.name in expr and v.is_float)
                    if not inputs_inf:
                        return False
        words = set(re.findall(r"\w+", expr))
        deps = [v.name for v in self.values if v.name in words]
        if self.float_arg is not None and _mentions(expr, self.float_arg):
            deps.append(self.float_arg)
        self.stmts.append(Stmt(targets, expr, deps))
        for d in deps:
            self.uses[d] = self.uses.get(d, 0) + 1
        self.next_id += ntargets
        for name, t in zip(targets, results):
            # Max's indices are exact integers; its values are as exact as
            # its input.
            self.values.append(Value(name, t, exact or t.dtype not in FLOATS))
        return True

    def grow_long(self):
        """Statements up to a count drawn from self.long, mostly pointwise: a
        chain, each statement mostly reading the value just made, whose
        statements also read the LONG_WINDOW values before it, so that each
        value has several readers (shared reads). With few reductions and
        shape ops, fusion groups of hundreds of ops form."""
        kinds = [(self.op_binary, 36), (self.op_unary, 26),
                 (self.op_minmax, 10), (self.op_where, 6),
                 (self.op_compare, 4), (self.op_reduce, 2),
                 (self.op_shape, 3), (self.op_divide, 3),
                 (self.op_logical, 2)]
        makers, weights = zip(*kinds)
        target = self.rng.randint(*self.long)
        attempts = 0
        last = self.values[-1]
        while len(self.stmts) < target and attempts < 8 * target:
            attempts += 1
            x = last
            if self.rng.random() < 0.15:
                # A value a statement made: an input would start the chain
                # anew.
                args = {a.name for a in self.args}
                x = self.pick(lambda v: v.name not in args, recent=False,
                              window=LONG_WINDOW) or x
            if self.try_stmt(self.rng.choices(makers, weights)[0], x):
                last = self.values[-1]

    def generate(self):
        if self.rng.random() < 0.15:
            self.float_arg = "s0"
            self.args.append(Arg("s0", self.rng.choice([0.5, 1.25, -2.0])))
        self.new_input(self.random_shape(), self.choose_dtype())
        kinds = [(self.op_binary, 30), (self.op_unary, 20),
                 (self.op_compare, 6), (self.op_where, 6),
                 (self.op_minmax, 6), (self.op_reduce, 14),
                 (self.op_shape, 20), (self.op_divide, 5),
                 (self.op_logical, 3)]
        makers, weights = zip(*kinds)
        if self.long:
            self.grow_long()
        else:
            target = self.rng.randint(2, 12)
            attempts = 0
            while len(self.stmts) < target and attempts < 200:
                attempts += 1
                x = self.pick(lambda v: v.dtype != torch.bool or
                              self.rng.random() < 0.3)
                if x is None:
                    x = self.pick()
                self.try_stmt(self.rng.choices(makers, weights)[0], x)
        if not self.stmts:
            return None
        # Return the last value and a few others nothing reads.
        produced = [t for s in self.stmts for t in s.targets]
        leaves = [t for t in produced[:-1] if not self.uses.get(t)]
        outputs = [produced[-1]]
        self.rng.shuffle(leaves)
        outputs += leaves[:self.rng.choice([0, 1, 2])]
        program = Program(self.args, self.stmts, outputs)
        return program.slice_to(outputs)


def _mentions(expr, name):
    return re.search(r"\b%s\b" % re.escape(name), expr) is not None


# ---------------------------------------------------------------------------
# Running and comparing
# ---------------------------------------------------------------------------

def close(ours, ref, rtol, atol):
    return np.allclose(ours, ref, rtol=rtol, atol=atol, equal_nan=True)


def compare(out_dir, expected, reference64):
    """None when the outputs in `out_dir` match `expected` (numpy arrays),
    else why not. `reference64` computes the float64 evaluation lazily."""
    for i, ref in enumerate(expected):
        path = os.path.join(out_dir, "out%d.npy" % i)
        if not os.path.exists(path):
            return "out%d missing" % i
        ours = np.load(path)
        if ours.dtype != ref.dtype or ours.shape != ref.shape:
            return "out%d: %s%s, PyTorch gives %s%s" % (
                i, ours.dtype, list(ours.shape), ref.dtype, list(ref.shape))
        if ref.dtype.kind == "f":
            rtol, atol = harness.tolerance(ref)
            if close(ours, ref, rtol, atol):
                continue
            if not np.array_equal(np.isnan(ours), np.isnan(ref)):
                return "out%d: NaNs in other places (%d, PyTorch %d)" % (
                    i, int(np.isnan(ours).sum()), int(np.isnan(ref).sum()))
            r64 = reference64()
            if r64 is not None and r64[i] is not None:
                exact = r64[i]
                with np.errstate(invalid="ignore"):
                    ours_err = np.abs(ours.astype(np.float64) - exact)
                    torch_err = np.abs(ref.astype(np.float64) - exact)
                    bound = 4 * torch_err + atol + rtol * np.abs(exact)
                    ok = (ours_err <= bound) | (np.isnan(ours) & np.isnan(ref))
                    ok |= ours.astype(np.float64) == ref.astype(np.float64)
                if ok.all():
                    continue
            with np.errstate(invalid="ignore"):
                diff = np.abs(ours.astype(np.float64) - ref)
            return "out%d: max abs error %.3g" % (i, np.nanmax(diff))
        elif not np.array_equal(ours, ref):
            return "out%d: %d elements differ" % (i, int((ours != ref).sum()))
    return None


def float64_reference(program):
    """The program's outputs evaluated with its float inputs in float64, as
    numpy arrays (None where an output is not a float)."""
    inputs = []
    for a in program.args:
        if a.is_tensor and a.value.dtype in FLOATS:
            inputs.append(a.value.to(torch.float64))
        elif a.is_tensor:
            inputs.append(a.value.clone())
        else:
            inputs.append(a.value)
    try:
        outs = program.run(inputs)
    except Exception:
        return None
    return [o.detach().numpy().astype(np.float64) if o.dtype in FLOATS
            else None for o in outs]


def write_case(program, case_dir):
    """Writes graph.txt, inN.npy and the tsmlir-run --input values; returns
    them and PyTorch's outputs."""
    os.makedirs(case_dir, exist_ok=True)
    with open(os.path.join(case_dir, "graph.txt"), "w") as f:
        f.write(program.graph())
    with open(os.path.join(case_dir, "source.py"), "w") as f:
        f.write(program.source())
    inputs = []
    for i, a in enumerate(program.args):
        if a.is_tensor:
            path = os.path.join(case_dir, "in%d.npy" % i)
            array = a.value.numpy()
            np.save(path, np.asfortranarray(array) if a.fortran else array)
            inputs.append(path)
        else:
            inputs.append(repr(a.value))
    expected = [t.detach().numpy() for t in program.run()]
    return inputs, expected


def run_tsmlir(tool, case_dir, inputs, flags, out_dir):
    """None when tsmlir-run succeeded, else its first error line."""
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, f))
    cmd = [tool, os.path.join(case_dir, "graph.txt")] + [
        "--input=" + i for i in inputs] + flags + ["--output-dir", out_dir]
    # A long run outlives rebuilds: wait a while for a tool being relinked.
    for attempt in range(30):
        try:
            result = subprocess.run(cmd, capture_output=True, text=True)
            break
        except FileNotFoundError:
            if attempt == 29:
                raise
            time.sleep(2)
    if result.returncode == 0:
        return None
    lines = [l for l in result.stderr.splitlines() if "error:" in l]
    why = (lines or result.stderr.strip().splitlines() or
           ["exit status %d" % result.returncode])[0]
    return "error: " + why.split("error: ", 1)[-1]


# What tsmlir-run says of an op it has no lowering for, or of an operator
# overload the importer does not know.
UNSUPPORTED = ("has no lowering", "unsupported operator")


def check(program, tool, case_dir, variants):
    """Runs `program` with each variant: a list of (variant, outcome, why),
    outcome being "match", "mismatch" or "unsupported"."""
    inputs, expected = write_case(program, case_dir)
    cache = []

    def reference64():
        if not cache:
            cache.append(float64_reference(program))
        return cache[0]

    results = []
    for variant, flags in variants:
        out_dir = os.path.join(case_dir, variant)
        why = run_tsmlir(tool, case_dir, inputs, flags, out_dir)
        if why and any(u in why for u in UNSUPPORTED):
            results.append((variant, "unsupported", why))
            continue
        if why is None:
            why = compare(out_dir, expected, reference64)
        results.append((variant, "mismatch" if why else "match", why))
    return results


def fails(program, tool, case_dir, flags):
    """Whether `program` still mismatches under `flags`."""
    try:
        results = check(program, tool, case_dir, [("run", flags)])
    except Exception:
        return False  # not a valid program any more
    return results[0][1] == "mismatch"


def minimize(program, tool, case_dir, flags):
    """A shorter program that still mismatches under `flags`: the slice of
    the first statement whose value differs, then statements replaced by
    inputs holding their values while it still fails."""
    best = program
    for s in program.stmts:
        candidate = program.slice_to(s.targets)
        if len(candidate.stmts) < len(best.stmts) and \
                fails(candidate, tool, case_dir, flags):
            best = candidate
            break
    changed = True
    while changed and len(best.stmts) > 1:
        changed = False
        for i, s in enumerate(best.stmts[:-1]):
            values = dict(zip(s.targets, _values_of(best, s)))
            args = list(best.args) + [Arg(t, v) for t, v in values.items()]
            rest = best.stmts[:i] + best.stmts[i + 1:]
            candidate = Program(args, rest, best.outputs).slice_to(
                best.outputs)
            if fails(candidate, tool, case_dir, flags):
                best = candidate
                changed = True
                break
    return best


def _values_of(program, stmt):
    """The values of `stmt`'s targets in `program`."""
    return program.slice_to(stmt.targets).run()


def save_regression(program, save_dir, name, variant, why, seed):
    case_dir = os.path.join(save_dir, name)
    if os.path.exists(case_dir):
        shutil.rmtree(case_dir)
    inputs, expected = write_case(program, case_dir)
    meta_inputs = []
    for i, a in enumerate(program.args):
        if a.is_tensor:
            meta_inputs.append({"name": a.name, "kind": "tensor",
                                "file": "in%d.npy" % i})
        else:
            meta_inputs.append({"name": a.name, "kind": "float",
                                "value": a.value})
    for i, e in enumerate(expected):
        np.save(os.path.join(case_dir, "out%d.npy" % i), e)
    meta = {"name": name, "inputs": meta_inputs, "scalar_args": {},
            "n_outputs": len(expected),
            "found_by": "difftest.py --seed %d (%s): %s" % (seed, variant,
                                                            why)}
    with open(os.path.join(case_dir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    return case_dir


def long_size_for(seed, percent, size):
    """The (least, most) statements of the graph of `seed` when it is one of
    the `percent` per cent of graphs that are long, else None."""
    if random.Random("long %d" % seed).random() * 100 < percent:
        return size
    return None


def run_seed(seed, tmp, tool, variants, keep, long_size=None):
    program = None
    for attempt in range(5):
        program = Generator(seed * 8 + attempt, long_size).generate()
        if program is not None:
            try:
                # TorchScript compiles and runs it.
                program.graph()
                program.run()
                break
            except Exception:
                program = None
    if program is None:
        return seed, None, []
    case_dir = os.path.join(tmp, "g%d" % seed)
    results = check(program, tool, case_dir, variants)
    if not keep and all(r[1] != "mismatch" for r in results):
        shutil.rmtree(case_dir, ignore_errors=True)
    return seed, program, results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tmp")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variants", default="")
    parser.add_argument("--minimize", action="store_true")
    parser.add_argument("--save", default="")
    parser.add_argument("--tool", default="tsmlir-run")
    parser.add_argument("--keep", action="store_true",
                        help="keep the cases that match too")
    parser.add_argument("--show", action="store_true",
                        help="print each program")
    parser.add_argument("--long", type=float, default=0, metavar="PERCENT",
                        help="make this per cent of the graphs long (chains "
                             "of mostly pointwise ops with shared reads)")
    parser.add_argument("--long-size", default="300,2000", metavar="MIN,MAX",
                        help="statements of a long graph")
    parser.add_argument("--max-unsupported", type=int, default=-1,
                        help="fail when more runs than this are unsupported "
                             "(a lowering that regressed); -1: no bound")
    args = parser.parse_args()
    chosen = set(filter(None, args.variants.split(",")))
    variants = [v for v in VARIANTS if not chosen or v[0] in chosen]
    os.makedirs(args.tmp, exist_ok=True)
    size = tuple(int(n) for n in args.long_size.split(","))

    graphs = runs = matched = unsupported = 0
    mismatches = []
    seeds = range(args.seed, args.seed + args.count)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for seed, program, results in pool.map(
                lambda s: run_seed(s, args.tmp, args.tool, variants,
                                   args.keep,
                                   long_size_for(s, args.long, size)),
                seeds):
            if program is None:
                continue
            graphs += 1
            if args.show:
                print("# seed %d\n%s" % (seed, program.source()))
            for variant, outcome, why in results:
                runs += 1
                if outcome == "match":
                    matched += 1
                elif outcome == "unsupported":
                    unsupported += 1
                    print("UNSUPPORTED: seed %d [%s]: %s" % (seed, variant,
                                                             why))
                else:
                    mismatches.append((seed, program, variant, why))
    for seed, program, variant, why in mismatches:
        print("MISMATCH: seed %d [%s]: %s" % (seed, variant, why))
        print("  " + program.source().replace("\n", "\n  ").rstrip())
    if args.minimize:
        done = set()
        for seed, program, variant, why in mismatches:
            if seed in done:
                continue
            done.add(seed)
            flags = dict(VARIANTS)[variant]
            case_dir = os.path.join(args.tmp, "min%d" % seed)
            small = minimize(program, args.tool, case_dir, flags)
            print("MINIMIZED: seed %d [%s]:" % (seed, variant))
            print("  " + small.source().replace("\n", "\n  ").rstrip())
            if args.save:
                where = save_regression(small, args.save, "seed%d" % seed,
                                        variant, why, seed)
                print("  saved as %s" % where)
    print("difftest: seed %d, %d graphs, %d runs, %d match PyTorch, "
          "%d mismatches, %d unsupported" %
          (args.seed, graphs, runs, matched, len(mismatches), unsupported))
    if 0 <= args.max_unsupported < unsupported:
        print("difftest: %d unsupported runs, more than the bound of %d"
              % (unsupported, args.max_unsupported))
        return 1
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
