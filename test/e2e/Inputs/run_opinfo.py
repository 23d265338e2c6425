#!/usr/bin/env python3
"""PyTorch's operator database (OpInfo) run through tsmlir-run and compared
with eager PyTorch.

For every operator of `torch.testing._internal.common_methods_invocations.
op_db` and each of float32, float64, int64 and bool that it supports, the
operator's sample inputs become TorchScript functions per (operator,
dtype, variant), of up to CHUNK samples each: each sample is one call, its tensors are the function's
arguments and everything else (numbers, lists, dtypes, strings, None) is a
literal of the call. The variants are the operator itself (its function in
`torch`, `torch.nn.functional`, `torch.linalg` or `torch.special`, else its
Tensor method, else its operator syntax: `x[i]`, `2 - x`) and its in-place
form (`x.clone().add_(...)`, named OP_). PyTorch scripts the source; its
graph, calls inlined, is compiled and run by tsmlir-run; every output must
match what eager PyTorch gives for the same source (tolerances in
harness.py). A function that fails is run again sample by sample, so each
sample gets its own outcome; when it fails on an operator tsmlir refuses
and every node of that operator is still there, the samples calling it
are refused together and the others run again as one function
(split_unsupported), which keeps the whole database's run short:

  pass         every output matches PyTorch
  mismatch     tsmlir ran it and some output differs (a wrong answer)
  unsupported  tsmlir refused it with a diagnostic (an op or form it does not
               compile)
  error        anything else: a crash, a timeout, a diagnostic of another
               kind

sort, argsort and topk may order equal elements any way (PyTorch leaves
that order unspecified unless stable=True, and topk(sorted=False) its k
elements too): their indices are checked by what they select, not compared
one by one (ORDERINGS). unique(sorted=False) may return its values in any
order (PyTorch's is its hash table's): they are compared as a set, the
inverse by the values it selects and the counts by the values they count
(unique_check). median, nanmedian, kthvalue and mode along a dim may pick
any of equal elements: their indices are checked by what they select
(PICKS). Singular vectors and eigenvectors are unique only up to sign
(LAPACK's choice): svd, linalg.svd, linalg.eigh and symeig are checked by
their values, the matrix their vectors rebuild and the vectors'
orthonormality (BASES). empty, empty_like and the new_empty forms return
uninitialised memory: only their dtypes and shapes are compared
(UNINITIALISED).

Samples are counted apart, with their reason, when the comparison cannot
mean anything: complex or sparse values, results that differ between two
eager runs (random sampling, uninitialised memory), samples eager PyTorch
rejects, calls TorchScript cannot script, and operators OpInfo only reaches
through a Python lambda (no TorchScript form to call).

Prints one line per operator (`OP: S samples, P pass[, M mismatch, U
unsupported, E error]`), the samples set apart by reason, and one summary
line; `--table FILE` also writes the per-operator table (Markdown) with the
first failure of each operator.

Each operator and dtype's outcomes are written to results.json in its
directory under TMPDIR as soon as its samples have run. `--resume` reads
them back instead of running those samples again, so that a run of the
whole database stopped part way (it takes hours on a small machine) goes on
where it stopped: the samples are drawn from the same seeds each time, and
the outcomes kept are those of the tool that ran them.

`--ledger FILE` keeps the same records in one file that lives with the
sources (docs/opinfo-results.json for the whole database): each operator and
dtype's outcomes, passes counted and the rest listed, with the tsmlir
commit that ran them (`--build`). A run reads it back as `--resume` reads
the work directory and writes it after every job, so the whole database's
run goes on across machines as well as across runs. `--time-limit SECONDS`
starts no job after that many seconds: the run then prints how many jobs
are left and writes no table, which only a complete run writes.

Usage: run_opinfo.py TMPDIR [--ops NAME,...] [--subset FILE] [--jobs N]
                     [--table FILE] [--tool tsmlir-run] [--show-failures]
                     [--resume] [--ledger FILE [--build ID]]
                     [--time-limit SECONDS]
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import sys
import tempfile
import threading
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

# Debian's python3-torch lacks `expecttest`, which the test internals import
# (only for `ACCEPT` and `TestCase`): a stub module stands in for it.
_STUB_DIR = tempfile.mkdtemp(prefix="tsmlir-opinfo-")
with open(os.path.join(_STUB_DIR, "expecttest.py"), "w") as _f:
    _f.write("ACCEPT = False\n\n\nclass TestCase:\n    pass\n")
sys.path.insert(0, _STUB_DIR)

import torch  # noqa: E402
from torch.testing._internal.common_methods_invocations import op_db  # noqa

torch.set_num_threads(1)
warnings.filterwarnings("ignore")

DTYPES = [torch.float32, torch.float64, torch.int64, torch.bool]
DTYPE_NAMES = {torch.float32: "f32", torch.float64: "f64",
               torch.int64: "i64", torch.bool: "bool"}

# Namespaces searched, in order, for an operator's function.
NAMESPACES = ["torch", "torch.nn.functional", "torch.linalg", "torch.special",
              "torch.fft"]

# Operators written with Python's operator syntax: name -> format of the
# expression, {0} the input and {1} the first argument.
OPERATOR_SYNTAX = {
    "__radd__": "{1} + {0}", "__rsub__": "{1} - {0}", "__rmul__": "{1} * {0}",
    "__rdiv__": "{1} / {0}", "__rpow__": "{1} ** {0}", "__rmod__": "{1} % {0}",
    "__rmatmul__": "{1} @ {0}", "__rand__": "{1} & {0}",
    "__ror__": "{1} | {0}", "__rxor__": "{1} ^ {0}",
}


# Operators whose results may order equal elements any way: name ->
# (parameter names after the input with their defaults, whether the
# outputs are (values, indices) or only indices, the parameter saying which
# end comes first, its default).
ORDERINGS = {
    "sort": ([("dim", -1), ("descending", False)], True),
    "argsort": ([("dim", -1), ("descending", False)], False),
    "topk": ([("k", None), ("dim", -1), ("largest", True),
              ("sorted", True)], True),
}


# Operators returning (values, indices) of one element picked per row,
# whose index among equal elements PyTorch leaves unspecified: parameter
# names after the input with their defaults.
PICKS = {
    "median": [("dim", None), ("keepdim", False)],
    "nanmedian": [("dim", None), ("keepdim", False)],
    "kthvalue": [("k", None), ("dim", -1), ("keepdim", False)],
    "mode": [("dim", -1), ("keepdim", False)],
}


def pick_check(op_name, sample):
    """For PICKS operators called with a dim, a function of (our outputs,
    PyTorch's) giving None when the values equal PyTorch's and the indices
    select them from the input; otherwise None."""
    if op_name not in PICKS or not isinstance(sample.input, torch.Tensor):
        return None
    params = PICKS[op_name]
    given = dict(zip([n for n, _ in params], sample.args))
    given.update(sample.kwargs)
    arg = {n: given.get(n, d) for n, d in params}
    if arg["dim"] is None:
        return None
    inp = sample.input.detach().numpy()
    axis = arg["dim"] % max(inp.ndim, 1)

    def check(ours, refs):
        if len(ours) != 2 or len(refs) != 2:
            return "%d outputs, PyTorch gives %d" % (len(ours), len(refs))
        why = harness.mismatch(ours[0], refs[0], "values")
        if why:
            return why
        idx = ours[1]
        if idx.dtype != refs[1].dtype or idx.shape != refs[1].shape:
            return harness.mismatch(idx, refs[1], "indices")
        size = inp.shape[axis] if inp.ndim else 1
        if idx.size and (idx.min() < 0 or idx.max() >= size):
            return "indices: out of range"
        if inp.ndim == 0:
            return None
        kept = idx if arg["keepdim"] else np.expand_dims(idx, axis)
        picked = np.take_along_axis(inp, kept, axis=axis)
        if not arg["keepdim"]:
            picked = np.squeeze(picked, axis)
        return harness.mismatch(picked, refs[0], "values at indices")
    return check


# Operators whose results hold uninitialised memory: only their dtypes and
# shapes mean anything (two eager runs may agree on the garbage, which a
# small bool tensor often does).
UNINITIALISED = {"empty", "empty_like", "empty_strided", "new_empty",
                 "new_empty_strided"}


def uninitialised_check(op_name, sample):
    """For UNINITIALISED operators, a function of (our outputs, PyTorch's)
    comparing dtypes and shapes only; otherwise None."""
    if op_name not in UNINITIALISED:
        return None

    def check(ours, refs):
        if len(ours) != len(refs):
            return "%d outputs, PyTorch gives %d" % (len(ours), len(refs))
        for i, (o, r) in enumerate(zip(ours, refs)):
            if (o is None) != (r is None):
                return "out%d: None where PyTorch's is not, or the reverse" % i
            if o is not None and (o.dtype != r.dtype or o.shape != r.shape):
                return "out%d: %s%s, PyTorch gives %s%s" % (
                    i, o.dtype, list(o.shape), r.dtype, list(r.shape))
        return None
    return check


def unique_check(op_name, sample):
    """For unique(sorted=False) without a dim, a function of (our outputs,
    PyTorch's) giving None when ours are a valid answer in some order (see
    the module's docstring); otherwise None."""
    kwargs = sample.kwargs
    if op_name != "unique" or kwargs.get("sorted", True) or \
            kwargs.get("dim") is not None:
        return None
    inp = sample.input.detach().numpy()

    def check(ours, refs):
        if len(ours) != len(refs):
            return "%d outputs, PyTorch gives %d" % (len(ours), len(refs))
        values, ref_values = ours[0], refs[0]
        order = np.argsort(ref_values, kind="stable")
        why = harness.mismatch(np.sort(values), ref_values[order], "values")
        if why:
            return why
        # Where PyTorch's k-th value is among ours.
        ours_order = np.argsort(values, kind="stable")
        position = ours_order[np.searchsorted(values[ours_order], ref_values)]
        rest = list(zip(ours[1:], refs[1:]))
        if kwargs.get("return_inverse") and rest:
            inverse, ref_inverse = rest.pop(0)
            why = harness.mismatch(inverse, position[ref_inverse]
                                   if ref_inverse.size else ref_inverse,
                                   "inverse") or \
                harness.mismatch(values[inverse], inp, "values at inverse")
            if why:
                return why
        if kwargs.get("return_counts") and rest:
            counts, ref_counts = rest.pop(0)
            expected = np.zeros_like(ref_counts)
            expected[position] = ref_counts
            return harness.mismatch(counts, expected, "counts")
        return None
    return check


def ordering_check(op_name, sample):
    """For ORDERINGS operators, a function of (our outputs, PyTorch's)
    giving None when ours are a valid answer: the values equal PyTorch's
    (as multisets where topk(sorted=False) allows any order) and the
    indices are distinct along the dim and select those values from the
    input. Otherwise None (outputs are compared one by one)."""
    if op_name not in ORDERINGS or not isinstance(sample.input, torch.Tensor):
        return None
    params, with_values = ORDERINGS[op_name]
    given = dict(zip([n for n, _ in params], sample.args))
    given.update(sample.kwargs)
    arg = {n: given.get(n, d) for n, d in params}
    inp = sample.input.detach().numpy()
    axis = arg["dim"] % max(inp.ndim, 1)
    any_order = op_name == "topk" and not arg["sorted"]

    def select(idx):
        if inp.ndim == 0:
            return inp.reshape(idx.shape) if idx.size else idx.astype(inp.dtype)
        return np.take_along_axis(inp, idx, axis=axis)

    def check(ours, refs):
        if len(ours) != len(refs):
            return "%d outputs, PyTorch gives %d" % (len(ours), len(refs))
        idx, ref_idx = ours[-1], refs[-1]
        if idx.dtype != ref_idx.dtype or idx.shape != ref_idx.shape:
            return harness.mismatch(idx, ref_idx, "indices")
        size = inp.shape[axis] if inp.ndim else 1
        if idx.size and (idx.min() < 0 or idx.max() >= size):
            return "indices: out of range"
        if inp.ndim and idx.size:
            ordered = np.sort(idx, axis=axis)
            if (np.diff(ordered, axis=axis) == 0).any():
                return "indices: repeated along the dim"
        picked, ref_picked = select(idx), select(ref_idx)
        if any_order:
            picked, ref_picked = np.sort(picked, axis), np.sort(ref_picked, axis)
        why = harness.mismatch(picked, ref_picked, "selected values")
        if why or not with_values:
            return why
        values, ref_values = ours[0], refs[0]
        if any_order:
            return harness.mismatch(np.sort(values, axis),
                                    np.sort(ref_values, axis), "values") or \
                harness.mismatch(values, select(idx), "values at indices")
        return harness.mismatch(values, ref_values, "values") or \
            harness.mismatch(values, select(idx), "values at indices")
    return check


# Decompositions whose vectors are unique only up to sign (and rotation
# within repeated values): name -> (index of the values among the
# outputs, whether the last output is V^T rather than V).
BASES = {"svd": (1, False), "linalg.svd": (1, True), "linalg.eigh": (0, False),
         "symeig": (0, False)}


def basis_check(op_name, sample):
    """For BASES operators, a function of (our outputs, PyTorch's) giving
    None when the values equal PyTorch's, ours rebuild the same matrix (U
    diag(S) V^T, Q diag(L) Q^T) and the vectors are orthonormal, as
    PyTorch's; otherwise None (outputs are compared one by one)."""
    if op_name not in BASES or sample.kwargs.get("compute_uv") is False:
        return None
    if op_name == "symeig" and not sample.kwargs.get(
            "eigenvectors", sample.args[0] if sample.args else False):
        return None  # values and an empty tensor: compared one by one
    at, transposed = BASES[op_name]

    def parts(outputs):
        values = outputs[at]
        if op_name in ("linalg.eigh", "symeig"):
            left = right = outputs[1]
        else:
            left, right = outputs[0], outputs[2]
            if transposed:
                right = np.swapaxes(right, -1, -2)
        k = values.shape[-1]
        rebuilt = (left[..., :, :k] * values[..., None, :]) @ \
            np.swapaxes(right[..., :, :k], -1, -2)
        grams = [np.swapaxes(m, -1, -2) @ m for m in (left, right)]
        return [values, rebuilt] + grams

    def check(ours, refs):
        if len(ours) != len(refs):
            return "%d outputs, PyTorch gives %d" % (len(ours), len(refs))
        for i, (a, b) in enumerate(zip(ours, refs)):
            if a.dtype != b.dtype or a.shape != b.shape:
                return harness.mismatch(a, b, "out%d" % i)
        mine, theirs = parts(ours), parts(refs)
        for name, a, b in zip(["values", "rebuilt matrix"], mine, theirs):
            why = harness.mismatch(a, b, name)
            if why:
                return why
        # Orthonormal vectors: V^T V = I up to rounding, 32 ulps per row
        # of the product (LAPACK's own vectors meet it).
        for name, gram in zip(["left", "right"], mine[2:]):
            if gram.size == 0:
                continue
            n = gram.shape[-1]
            eps = np.finfo(gram.dtype).eps
            if not np.allclose(gram, np.eye(n, dtype=gram.dtype),
                               rtol=0, atol=32 * eps * n):
                return "%s vectors: not orthonormal (V^T V - I up to " \
                    "%.3g)" % (name, np.abs(gram - np.eye(n)).max())
        return None
    return check


class Unrepresentable(Exception):
    """A sample value that has no TorchScript literal."""


def qualified_name(op):
    return op.name + ("." + op.variant_test_name
                      if op.variant_test_name else "")


def resolve(path):
    obj = None
    for i, part in enumerate(path.split(".")):
        try:
            obj = __import__(part) if i == 0 else getattr(obj, part)
        except (ImportError, AttributeError):
            return None
    return obj


def call_form(op):
    """How the source calls `op`: ("function", "torch.add"), ("method",
    "add"), ("operator", format) or (None, why)."""
    if op.name == "__getitem__":
        return ("index", None)
    if op.name in OPERATOR_SYNTAX:
        return ("operator", OPERATOR_SYNTAX[op.name])
    for namespace in NAMESPACES:
        prefix = namespace[len("torch."):] + "." if "." in namespace else ""
        name = op.name
        if prefix and name.startswith(prefix):
            name = name[len(prefix):]
        elif "." in name:
            continue
        fn = resolve(namespace + "." + name)
        if fn is not None and fn is op.op:
            return ("function", namespace + "." + name)
    if op.method_variant is not None and \
            getattr(torch.Tensor, op.name, None) is op.method_variant:
        return ("method", op.name)
    return (None, "OpInfo calls it through a Python wrapper, not a "
            "TorchScript-callable function or method")


class Source:
    """One TorchScript function being written: its tensor parameters (and
    their values) and its statements."""

    def __init__(self):
        self.params = []   # (name, tensor)
        self.lines = []
        self.outputs = []  # expressions returned, flattened

    def tensor(self, t):
        name = "x%d" % len(self.params)
        self.params.append((name, t))
        return name

    def literal(self, v, list_type="int"):
        """TorchScript text for the sample value `v` (tensors become
        parameters)."""
        if isinstance(v, torch.Tensor):
            if v.layout != torch.strided:
                raise Unrepresentable("sparse")
            if v.is_complex():
                raise Unrepresentable("complex")
            return self.tensor(v)
        if v is None or isinstance(v, bool):
            return repr(v)
        if isinstance(v, int):
            return repr(v)
        if isinstance(v, float):
            if math.isnan(v):
                return 'float("nan")'
            if math.isinf(v):
                return 'float("%sinf")' % ("-" if v < 0 else "")
            return repr(v)
        if isinstance(v, complex):
            raise Unrepresentable("complex")
        if isinstance(v, str):
            return '"%s"' % v.replace("\\", "\\\\").replace('"', '\\"')
        if isinstance(v, torch.dtype):
            return str(v)
        if isinstance(v, torch.memory_format):
            return str(v)
        if isinstance(v, torch.device):
            return 'torch.device("%s")' % v.type
        if isinstance(v, torch.layout):
            return str(v)
        if isinstance(v, (list, tuple, torch.Size)):
            if len(v) == 0:
                return "torch.jit.annotate(List[%s], [])" % list_type
            items = [self.literal(x) for x in v]
            if isinstance(v, tuple) and not all(
                    isinstance(x, (int, float, bool, torch.Tensor))
                    for x in v):
                return "(%s,)" % ", ".join(items)
            return "[%s]" % ", ".join(items)
        raise Unrepresentable(type(v).__name__)

    def index_literal(self, v):
        """TorchScript text of a subscript (`x[...]`)."""
        # A list holding slices, Ellipsis or None indexes like a tuple.
        if isinstance(v, tuple) or (isinstance(v, list) and any(
                isinstance(x, slice) or x is Ellipsis or x is None
                for x in v)):
            return ", ".join(self.index_literal(x) for x in v) or "()"
        if isinstance(v, slice):
            parts = ["" if p is None else self.literal(p)
                     for p in (v.start, v.stop, v.step)]
            return ":".join(parts[:2] if v.step is None else parts)
        if v is Ellipsis:
            return "..."
        return self.literal(v)

    def call(self, form, sample, inplace):
        """The expression of one sample's call."""
        target, how = form
        inp = sample.input
        if target == "index":
            return "%s[%s]" % (self.literal(inp),
                               self.index_literal(sample.args[0]))
        args = [self.literal(a) for a in sample.args]
        kwargs = ["%s=%s" % (k, self.literal(v))
                  for k, v in sample.kwargs.items()]
        if inplace:
            if not isinstance(inp, torch.Tensor):
                raise Unrepresentable("in-place on a non-tensor")
            base = "%s.clone()" % self.literal(inp)
            return "%s.%s(%s)" % (base, inplace,
                                  ", ".join(args + kwargs))
        if target == "operator":
            return how.format(self.literal(inp), *args)
        if target == "method":
            if not isinstance(inp, torch.Tensor):
                raise Unrepresentable("method on a non-tensor")
            return "%s.%s(%s)" % (self.literal(inp), how,
                                  ", ".join(args + kwargs))
        first = self.literal(inp, list_type="Tensor")
        return "%s(%s)" % (how, ", ".join([first] + args + kwargs))

    def text(self):
        params = ", ".join("%s: Tensor" % n for n, _ in self.params)
        body = self.lines + ["return (%s,)" % ", ".join(self.outputs)
                             if self.outputs else "return None"]
        return "def fn(%s):\n%s\n" % (
            params, "\n".join("    " + l for l in body))


PRELUDE = ("import torch\nfrom torch import Tensor\n"
           "from typing import List, Optional, Tuple\n")


def flatten(value, expr):
    """[(expression, numpy value)] of the tensors and numbers in `value`
    (the result of `expr`), or raises Unrepresentable."""
    if isinstance(value, torch.Tensor):
        if value.layout != torch.strided:
            raise Unrepresentable("sparse")
        if value.is_complex():
            raise Unrepresentable("complex")
        if value.dtype in (torch.bfloat16, torch.complex32):
            raise Unrepresentable(str(value.dtype))
        return [(expr, value.detach().numpy().copy())]
    if isinstance(value, bool):
        return [(expr, np.array(value))]
    if isinstance(value, int):
        return [(expr, np.array(value, dtype=np.int64))]
    if isinstance(value, float):
        return [(expr, np.array(value, dtype=np.float64))]
    if value is None:
        # tsmlir-run writes no file for an output that is None.
        return [(expr, None)]
    if isinstance(value, (tuple, list, torch.Size)):
        out = []
        for i, item in enumerate(value):
            out += flatten(item, "%s[%d]" % (expr, i))
        return out
    raise Unrepresentable("a result of type " + type(value).__name__)


def same(a, b):
    if len(a) != len(b):
        return False
    for (_, x), (_, y) in zip(a, b):
        if x is None or y is None:
            if x is not y:
                return False
            continue
        if x.shape != y.shape or x.dtype != y.dtype or not np.array_equal(
                x, y, equal_nan=x.dtype.kind == "f"):
            return False
    return True


class Prepared:
    """One sample ready to run: its source, its arguments and PyTorch's
    flattened outputs; or the reason it is set apart."""

    def __init__(self, index, apart=None):
        self.index = index
        self.apart = apart
        self.call = None
        self.params = []
        self.outputs = []
        # ordering_check's function, or None.
        self.check = None


def prepare(form, sample, inplace, index):
    """Writes one sample's call and runs it eagerly (twice, to tell
    deterministic results from random ones)."""
    p = Prepared(index)
    src = Source()
    try:
        call = src.call(form, sample, inplace)
    except Unrepresentable as e:
        p.apart = "sample value has no TorchScript literal: %s" % e
        return p
    src.lines.append("r = " + call)
    src.outputs.append("r")
    text = PRELUDE + src.text()
    scope = {}
    try:
        exec(compile(text, "<opinfo>", "exec"), scope)
        args = [t for _, t in src.params]
        first = scope["fn"](*[a.clone() for a in args])
        second = scope["fn"](*[a.clone() for a in args])
    except Exception as e:  # noqa: BLE001 (PyTorch's own refusal)
        p.apart = "eager PyTorch rejects the sample"
        return p
    try:
        flat = flatten(first[0], "r")
        again = flatten(second[0], "r")
    except Unrepresentable as e:
        p.apart = "%s result" % e
        return p
    if any(v is not None and v.dtype.kind == "c" for _, v in flat):
        p.apart = "complex result"
        return p
    if not same(flat, again):
        p.apart = "nondeterministic (random sampling or uninitialised " \
            "memory)"
        return p
    # tsmlir compiles what TorchScript makes of the source: where PyTorch's
    # own TorchScript gives another result than eager Python (a list index
    # read another way), there is nothing to compare.
    try:
        scripted = torch.jit.CompilationUnit(src.text()).fn(
            *[a.clone() for a in args])
    except Exception:  # noqa: BLE001
        p.apart = "TorchScript cannot script the call"
        return p
    try:
        script_flat = flatten(scripted[0], "r")
    except Unrepresentable as e:
        p.apart = "%s result" % e
        return p
    if len(script_flat) != len(flat) or any(
            (a is None) != (b is None) or
            (a is not None and harness.mismatch(b, a, "r"))
            for (_, a), (_, b) in zip(flat, script_flat)):
        p.apart = "TorchScript's result differs from eager PyTorch's"
        return p
    p.call = call
    p.params = src.params
    p.outputs = flat
    return p


def function_text(samples):
    """One TorchScript function calling every sample in `samples`, its
    tensor arguments, and the outputs expected, flattened."""
    params, lines, returns, expected = [], [], [], []
    for s in samples:
        rename = {}
        for name, t in s.params:
            rename[name] = "x%d" % len(params)
            params.append(("x%d" % len(params), t))
        call = re.sub(r"\bx(\d+)\b",
                      lambda m: rename["x" + m.group(1)], s.call)
        var = "r%d" % s.index
        lines.append("%s = %s" % (var, call))
        for expr, value in s.outputs:
            returns.append(var + expr[1:])
            expected.append(value)
    sig = ", ".join("%s: Tensor" % n for n, _ in params)
    body = lines + ["return (%s,)" % ", ".join(returns)]
    return ("def fn(%s):\n%s\n" % (sig, "\n".join("    " + l for l in body)),
            [t for _, t in params], expected)


def script_graph(text):
    """PyTorch's graph of `text` (calls inlined), or raises."""
    cu = torch.jit.CompilationUnit(text)
    graph = cu.fn.graph.copy()
    torch._C._jit_pass_inline(graph)
    return str(graph)


UNSUPPORTED = re.compile(
    r"unsupported|not supported|no lowering|cannot lower|is not lowered|"
    r"unknown (op|operator|node)|does not support|not implemented|"
    r"has no .*lowering|refus", re.I)


def classify(error):
    if error is None:
        return "pass"
    if error.startswith("mismatch:"):
        return "mismatch"
    if UNSUPPORTED.search(error) and "timed out" not in error:
        return "unsupported"
    return "error"


def run_function(tool, work, text, graph, args, expected):
    """Runs the graph with tsmlir-run. Returns (None, per-output errors,
    outputs read) when it ran, else (first error, None, None)."""
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "fn.py"), "w") as f:
        f.write(text)
    with open(os.path.join(work, "graph.txt"), "w") as f:
        f.write(graph)
    inputs = []
    for i, t in enumerate(args):
        path = os.path.join(work, "in%d.npy" % i)
        np.save(path, t.detach().numpy())
        inputs.append("--input=" + path)
    out_dir = os.path.join(work, "out")
    why = harness.run_tool([tool, os.path.join(work, "graph.txt")] + inputs,
                           out_dir)
    if why:
        return why, None, None
    errors, outputs = [], []
    for i, ref in enumerate(expected):
        path = os.path.join(out_dir, "out%d.npy" % i)
        outputs.append(np.load(path) if os.path.exists(path) else None)
        if ref is None:
            errors.append("out%d: PyTorch gives None" % i
                          if os.path.exists(path) else None)
            continue
        if not os.path.exists(path):
            errors.append("out%d missing" % i)
            continue
        ours = outputs[-1]
        if ref.ndim == 0 and ours.ndim == 0 and ref.dtype != ours.dtype \
                and ref.dtype.kind in "biu" and ours.dtype.kind in "biu":
            ours = ours.astype(ref.dtype)
        errors.append(harness.mismatch(ours, ref, "out%d" % i))
    extra = os.path.join(out_dir, "out%d.npy" % len(expected))
    if os.path.exists(extra):
        return "mismatch: more outputs than PyTorch gives", None, None
    return None, errors, outputs


def sample_errors(s, errors, outputs):
    """The errors of sample `s` from its slice of the per-output `errors`
    and `outputs`: its ordering check's verdict where it has one."""
    if s.check and not any(e for e in errors if e and "missing" in e):
        why = s.check(outputs, [v for _, v in s.outputs])
        return [why] if why else []
    return [e for e in errors if e]


class Job:
    """One (operator, dtype, variant): its prepared samples."""

    def __init__(self, op_name, dtype, variant_name, samples):
        self.op_name = op_name
        self.dtype = dtype
        self.name = variant_name
        self.samples = samples  # Prepared, runnable
        self.results = {}       # sample index -> (outcome, why)


# Samples per compiled function: a function of hundreds of calls (OpInfo
# has 864 max_pool1d samples per dtype) takes minutes to compile; chunks
# keep each compile short, and a failure reruns only its chunk's samples
# one by one.
CHUNK = 64


# tsmlir-run's refusal of operators it has no op or lowering for, with the
# count of their nodes left after optimisation.
UNKNOWN_OPERATOR = re.compile(
    r"unsupported operator '([\w:.]+)' \((\d+) occurrences?\)")


def node_count(graph, kind):
    """How many nodes of `kind` (`aten::svd`) a graph's text has."""
    return len(re.findall(r"= %s\b(?:\[[^\]]*\])?\(" % re.escape(kind),
                          graph))


def split_unsupported(samples, graph, why):
    """When a function's refusal `why` names an operator none of whose
    nodes optimisation removed (the count it gives is the count in
    `graph`), the samples whose own graph has that operator are refused
    too, exactly: returns them with the remaining samples. Otherwise
    None: only running each sample alone tells."""
    m = UNKNOWN_OPERATOR.search(why or "")
    if not m or node_count(graph, m.group(1)) != int(m.group(2)):
        return None
    refused, rest = [], []
    for s in samples:
        try:
            own = script_graph(function_text([s])[0])
        except Exception:  # noqa: BLE001
            return None
        (refused if node_count(own, m.group(1)) else rest).append(s)
    return refused, rest


def run_samples(samples, job, tool, work):
    """Runs `samples` in one function; when that fails to compile or run,
    sets apart the samples that call an operator tsmlir refuses (one
    compile for all of them) and runs the others again together, or else
    runs them one by one. Records each sample's outcome in `job`."""
    text, args, expected = function_text(samples)
    try:
        graph = script_graph(text)
    except Exception:  # noqa: BLE001
        graph = None
    if graph is not None and len(samples) > 1:
        why, errors, outputs = run_function(tool, work, text, graph, args,
                                            expected)
        if why is None:
            k = 0
            for s in samples:
                n = len(s.outputs)
                errs = sample_errors(s, errors[k:k + n], outputs[k:k + n])
                k += n
                job.results[s.index] = (
                    ("mismatch", "mismatch: " + errs[0]) if errs
                    else ("pass", None))
            return
        split = split_unsupported(samples, graph, why)
        if split and split[0]:
            refused, rest = split
            for s in refused:
                job.results[s.index] = (classify(why), why)
            if rest:
                run_samples(rest, job, tool, work + "-rest")
            return
    for s in samples:
        text, args, expected = function_text([s])
        try:
            graph = script_graph(text)
        except Exception:  # noqa: BLE001
            job.results[s.index] = ("apart", "TorchScript cannot script the "
                                    "call")
            continue
        why, errors, outputs = run_function(
            tool, os.path.join(os.path.dirname(work), str(s.index)), text,
            graph, args, expected)
        if why is None:
            errs = sample_errors(s, errors, outputs)
            why = "mismatch: " + errs[0] if errs else None
        job.results[s.index] = (classify(why), why)


def job_key(job):
    """The name of `job`'s records: its work directory's name."""
    return "%s.%s" % (re.sub(r"[^\w.]", "_", job.name),
                      DTYPE_NAMES[job.dtype])


def index_ranges(indices):
    """Sorted sample indices as ranges: [0, 1, 2, 5] -> "0-2,5"."""
    parts, start = [], None
    for i, k in enumerate(indices):
        if start is None:
            start = k
        if i + 1 == len(indices) or indices[i + 1] != k + 1:
            parts.append(str(start) if start == k else "%d-%d" % (start, k))
            start = None
    return ",".join(parts)


class Ledger:
    """The outcomes of every job run so far, in one JSON file: key ->
    {"samples": index ranges, "pass": count, "other": {index: [outcome,
    why]}, "build": the tsmlir that ran them}. One line a job, sorted, so
    that the file's history reads as a diff of outcomes."""

    def __init__(self, path, build):
        self.path = path
        self.build = build
        self.lock = threading.Lock()
        self.records = {}
        if path and os.path.exists(path):
            try:
                with open(path) as f:
                    self.records = json.load(f)
            except (OSError, ValueError) as e:
                print("warning: ignoring the ledger %s: %s" % (path, e))

    def lookup(self, job):
        """`job`'s outcomes when the ledger has them for its samples."""
        record = self.records.get(job_key(job))
        indices = sorted(s.index for s in job.samples)
        try:
            if record is None or record["samples"] != index_ranges(indices):
                return None
            other = {int(k): tuple(v) for k, v in record["other"].items()}
            if len(other) + record["pass"] != len(indices):
                return None
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        return {k: other.get(k, ("pass", None)) for k in indices}

    def add(self, job):
        if not self.path:
            return
        indices = sorted(job.results)
        record = {"samples": index_ranges(indices),
                  "pass": sum(1 for k in indices
                              if job.results[k][0] == "pass"),
                  "other": {str(k): list(job.results[k]) for k in indices
                            if job.results[k][0] != "pass"},
                  "build": self.build}
        with self.lock:
            self.records[job_key(job)] = record
            text = "{\n%s\n}\n" % ",\n".join(
                "%s: %s" % (json.dumps(k), json.dumps(self.records[k],
                                                      sort_keys=True))
                for k in sorted(self.records))
            with open(self.path + ".tmp", "w") as f:
                f.write(text)
            os.replace(self.path + ".tmp", self.path)

    def builds(self, keys):
        """The builds that ran the records `keys`, each with its count."""
        counts = {}
        for k in keys:
            b = self.records.get(k, {}).get("build", "unknown")
            counts[b] = counts.get(b, 0) + 1
        return counts


def run_job(job, tool, tmp, resume=False, ledger=None, deadline=None):
    """Runs the samples of `job` in functions of up to CHUNK calls and
    writes their outcomes to results.json (and to `ledger`); with `resume`,
    reads the outcomes a previous run wrote instead, when they are for the
    same samples. Past `deadline` (time.monotonic()), runs nothing and
    returns None."""
    work = os.path.join(tmp, job_key(job))
    saved = os.path.join(work, "results.json")
    indices = sorted(s.index for s in job.samples)
    if ledger is not None:
        kept = ledger.lookup(job)
        if kept is not None:
            job.results = kept
            return job
    if resume and os.path.exists(saved):
        try:
            with open(saved) as f:
                record = json.load(f)
            if record.get("samples") == indices:
                job.results = {int(k): tuple(v)
                               for k, v in record["results"].items()}
                if ledger is not None:
                    ledger.add(job)
                return job
        except (OSError, ValueError, KeyError, TypeError):
            pass  # unreadable or stale: run the samples again
    if deadline is not None and time.monotonic() > deadline:
        return None
    chunks = [job.samples[i:i + CHUNK]
              for i in range(0, len(job.samples), CHUNK)]
    for k, chunk in enumerate(chunks):
        run_samples(chunk, job, tool, os.path.join(
            work, "all" if len(chunks) == 1 else "part%d" % k))
    os.makedirs(work, exist_ok=True)
    with open(saved + ".tmp", "w") as f:
        json.dump({"samples": indices,
                   "results": {str(k): list(v)
                               for k, v in job.results.items()}}, f)
    os.replace(saved + ".tmp", saved)
    if ledger is not None:
        ledger.add(job)
    return job


def make_jobs(op, apart):
    """The jobs of one OpInfo entry; samples set apart are added to
    `apart` as (operator, reason)."""
    name = qualified_name(op)
    form = call_form(op)
    jobs = []
    supported = set(op.supported_dtypes("cpu"))
    variants = [(name, None)]
    if op.inplace_variant is not None and form[0] is not None:
        variants.append((name + "_", op.name + "_"))
    for dtype in DTYPES:
        if dtype not in supported:
            continue
        # Some generators fail for some random draws (Debian's PyTorch 1.13
        # calls random.sample on a set, which Python 3.11 refuses): a failed
        # draw is made again from the next seeds before it is set apart.
        samples = None
        for retry in range(3):
            try:
                samples = list(op.sample_inputs("cpu", dtype,
                                                requires_grad=False))
                break
            except Exception:  # noqa: BLE001
                torch.manual_seed(retry + 1)
        if samples is None:
            apart.append((name, "OpInfo cannot make samples for %s" % dtype))
            continue
        for variant_name, inplace in variants:
            if form[0] is None:
                for _ in samples:
                    apart.append((variant_name, form[1]))
                continue
            prepared = []
            for i, sample in enumerate(samples):
                if inplace and sample.broadcasts_input:
                    continue
                p = prepare(form, sample, inplace, i)
                p.check = ordering_check(op.name, sample) or \
                    uninitialised_check(op.name, sample) or \
                    unique_check(op.name, sample) or \
                    pick_check(op.name, sample) or \
                    basis_check(op.name, sample)
                if p.apart:
                    apart.append((variant_name, p.apart))
                else:
                    prepared.append(p)
            if prepared:
                jobs.append(Job(name, dtype, variant_name, prepared))
    return jobs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tmp")
    parser.add_argument("--ops", default="",
                        help="comma-separated operator names (OpInfo's, with "
                        "the variant: div.trunc_rounding)")
    parser.add_argument("--subset", default="",
                        help="a file naming operators, one per line")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--table", default="")
    parser.add_argument("--tool", default="tsmlir-run")
    parser.add_argument("--show-failures", action="store_true",
                        help="print each failing sample and why")
    parser.add_argument("--resume", action="store_true",
                        help="reuse the outcomes a previous run wrote to "
                             "TMPDIR")
    parser.add_argument("--ledger", default="",
                        help="a JSON file of every job's outcomes, read "
                             "back and written after each job")
    parser.add_argument("--build", default="unknown",
                        help="the tsmlir (commit) the ledger names as "
                             "having run the jobs this run runs")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="start no job after SECONDS; a run stopped "
                             "so writes no table")
    args = parser.parse_args()
    start = time.monotonic()

    wanted = set(filter(None, args.ops.split(",")))
    if args.subset:
        with open(args.subset) as f:
            wanted |= {l.split("#")[0].strip() for l in f} - {""}
    ops = [op for op in op_db if not wanted or qualified_name(op) in wanted]
    missing = wanted - {qualified_name(op) for op in op_db}
    if missing:
        print("error: not in OpInfo: %s" % ", ".join(sorted(missing)))
        return 2

    apart = []
    jobs = []
    for op in ops:
        # Each operator's samples from the same seed, whichever operators run
        # with it: a subset's counts do not move when operators join it.
        torch.manual_seed(0)
        jobs += make_jobs(op, apart)

    ledger = Ledger(args.ledger, args.build) if args.ledger else None
    deadline = None if args.time_limit is None else start + args.time_limit
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        done = list(pool.map(
            lambda j: run_job(j, args.tool, args.tmp, args.resume, ledger,
                              deadline), jobs))
    left = sum(1 for j in done if j is None)
    if left:
        print("opinfo: stopped at the time limit: %d of %d jobs run, %d "
              "left (run again with the same ledger or work directory to "
              "go on); no table written" % (len(jobs) - left, len(jobs),
                                            left))
        return 0

    # Per operator (variants apart) outcome counts, and each first failure.
    table = {}
    first_failure = {}
    for job in done:
        counts = table.setdefault(job.name, {})
        for index in sorted(job.results):
            outcome, why = job.results[index]
            if outcome == "apart":
                apart.append((job.name, why))
                continue
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome != "pass":
                first_failure.setdefault(job.name, "%s [%s #%d]" % (
                    why, DTYPE_NAMES[job.dtype], index))
                if args.show_failures:
                    print("FAIL: %s [%s #%d]: %s: %s" % (
                        job.name, DTYPE_NAMES[job.dtype], index, outcome,
                        why))
    for name, _ in apart:
        table.setdefault(name, {})

    outcomes = ["pass", "mismatch", "unsupported", "error"]
    print("per operator:")
    for name in sorted(table):
        counts = table[name]
        n = sum(counts.values())
        if n == 0:
            continue
        parts = ["%d pass" % counts.get("pass", 0)] + [
            "%d %s" % (counts[o], o) for o in outcomes[1:] if counts.get(o)]
        print("  %s: %d samples, %s" % (name, n, ", ".join(parts)))
    reasons = {}
    for name, why in apart:
        reasons[why] = reasons.get(why, 0) + 1
    print("set apart:")
    for why in sorted(reasons):
        print("  %s: %d samples" % (why, reasons[why]))
    totals = {o: sum(c.get(o, 0) for c in table.values()) for o in outcomes}
    total = sum(totals.values())
    names = {n for n, c in table.items() if sum(c.values())}
    full = {n for n in names if table[n].get("pass", 0) == sum(
        table[n].values())}
    print("opinfo: %d operators, %d samples, %d pass (%.1f%%), %d mismatch, "
          "%d unsupported, %d error; %d operators pass every sample; %d "
          "samples set apart" % (
              len(names), total, totals["pass"],
              100.0 * totals["pass"] / max(total, 1), totals["mismatch"],
              totals["unsupported"], totals["error"], len(full), len(apart)))

    builds = ledger.builds(job_key(j) for j in done) if ledger else {}
    if builds:
        print("run by: %s" % ", ".join(
            "%s (%d jobs)" % kv for kv in sorted(builds.items())))
    if args.table:
        write_table(args.table, table, first_failure, reasons, totals,
                    len(names), len(full), len(apart), builds)
        print("table: %s" % args.table)
    return 0


def write_table(path, table, first_failure, reasons, totals, n_ops, n_full,
                n_apart, builds):
    total = sum(totals.values())
    with open(path, "w") as f:
        f.write("# OpInfo: PyTorch's operator database through tsmlir-run\n\n"
                "Generated by `scripts/opinfo.sh` (`test/e2e/Inputs/"
                "run_opinfo.py`, which says how samples are run and "
                "counted); do not edit.\n\n")
        f.write("**%d operators, %d samples: %d pass (%.1f%%), %d mismatch, "
                "%d unsupported, %d error. %d operators pass every sample. "
                "%d samples set apart.**\n\n" % (
                    n_ops, total, totals["pass"],
                    100.0 * totals["pass"] / max(total, 1),
                    totals["mismatch"], totals["unsupported"],
                    totals["error"], n_full, n_apart))
        if builds:
            f.write("Run by tsmlir %s.\n\n" % ", ".join(
                "%s (%d jobs)" % kv for kv in sorted(builds.items())))
        f.write("## Set apart\n\n| Reason | Samples |\n|---|---|\n")
        for why in sorted(reasons):
            f.write("| %s | %d |\n" % (why, reasons[why]))
        f.write("\n## Per operator\n\n"
                "| Operator | Samples | Pass | Mismatch | Unsupported | "
                "Error | First failure |\n|---|---|---|---|---|---|---|\n")
        for name in sorted(table):
            c = table[name]
            n = sum(c.values())
            if n == 0:
                continue
            why = first_failure.get(name, "").replace("|", "\\|")
            if len(why) > 160:
                why = why[:157] + "..."
            f.write("| `%s` | %d | %d | %d | %d | %d | %s |\n" % (
                name, n, c.get("pass", 0), c.get("mismatch", 0),
                c.get("unsupported", 0), c.get("error", 0), why))


if __name__ == "__main__":
    sys.exit(main())
