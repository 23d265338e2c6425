#!/usr/bin/env python3
"""Modules that write their state in place, end to end: each module (in
training mode) is saved by torch.jit.save as scripted.pt and traced.pt,
called K times by tsmlir-run (--repeat K, one compiled graph), and the
outputs of the K-th call are compared with those of eager PyTorch's K-th
call of the same module: the running statistics a call writes are those the
next call reads. Then the same through an ahead-of-time shared object
(tsmlir-compile --shared, run K times through its C ABI), and through the
JIT (tsmlir-run --jit) on a sequence of calls of two batch sizes, which
profile, specialise for each, then hit: the JIT keeps one state that the
fallback and every specialisation read and write, so each call's outputs
equal those of PyTorch's same call of the archive's module (loaded with
torch.jit.load: a traced module keeps what tracing fixed, which eager
PyTorch recomputes for another batch size); once more through the JIT's persistent
cache (--cache-dir: shared objects), by two processes, the second finding
the first's code.

Prints one line per archive and number of calls, then the total:

  LAYER/FORM.pt xK: N outputs, match|FAIL: why
  LAYER/FORM.pt jit[ cache R]: PATH, PATH, ...: match|FAIL: why
  ...
  module state: N runs, M match, F failures

Usage: run_module_state.py TMPDIR
"""
import copy
import os
import re
import sys
import warnings

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

CALLS = (1, 3)
# The JIT's calls: which of a module's two inputs each call takes.
JIT_CALLS = (0, 0, 1, 0, 1)
# The modules run through the JIT's persistent cache.
CACHED = ("batch_norm2d", "counter")


class RunningStats(nn.Module):
    """A normalisation layer in training mode and its statistics."""

    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def forward(self, x):
        return self.layer(x), self.layer.running_mean, self.layer.running_var


class Counter(nn.Module):
    """A buffer updated in place through a view and a count, read again
    after the writes."""

    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros((), dtype=torch.int64))
        self.register_buffer("ema", torch.arange(6.0).reshape(2, 3))

    def forward(self, x):
        self.count.add_(1)
        self.ema.mul_(0.5)
        self.ema[0].add_(x.sum(0))
        return x.sum(0) * self.ema, self.count


def make_modules():
    """Each module, its input, and another of another batch size (the
    JIT's second specialisation)."""
    torch.manual_seed(0)
    randn = torch.randn
    return {
        "batch_norm2d": (RunningStats(nn.BatchNorm2d(3, momentum=0.3)),
                         [randn(2, 3, 4, 5)], [randn(3, 3, 4, 5)]),
        "batch_norm1d_cumulative": (RunningStats(nn.BatchNorm1d(
            4, momentum=None)), [randn(5, 4)], [randn(3, 4)]),
        "instance_norm1d": (RunningStats(nn.InstanceNorm1d(
            4, affine=True, track_running_stats=True)), [randn(3, 4, 6)],
            [randn(2, 4, 6)]),
        "counter": (Counter(), [randn(4, 3)], [randn(2, 3)]),
    }


def flatten(value):
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in flatten(v)]
    return [value]


def save(name, module, inputs, other, tmp):
    directory = os.path.join(tmp, name)
    os.makedirs(directory, exist_ok=True)
    module.train()
    refs = {}
    with torch.no_grad():
        # Copies run: the archives keep the state before any call.
        eager = copy.deepcopy(module)
        for k in range(1, max(CALLS) + 1):
            outputs = flatten(eager(*inputs))
            refs[k] = [o.clone().numpy() for o in outputs]
    for i, x in enumerate(inputs):
        np.save(os.path.join(directory, "in%d.npy" % i), x.numpy())
    for i, x in enumerate(other):
        np.save(os.path.join(directory, "other%d.npy" % i), x.numpy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.save(torch.jit.script(module),
                       os.path.join(directory, "scripted.pt"))
        traced = torch.jit.trace(copy.deepcopy(module), tuple(inputs),
                                 check_trace=False)
        # Tracing ran a call: the state goes back to the one before.
        with torch.no_grad():
            before = dict(module.named_buffers())
            for key, buffer in traced.named_buffers():
                buffer.copy_(before[key])
        torch.jit.save(traced, os.path.join(directory, "traced.pt"))
    return directory, refs


def jit_references(archive, inputs, other):
    """PyTorch's outputs of the archive's module for the JIT's calls, from
    the state saved: a traced module keeps what tracing fixed (the
    cumulative average's factor for the traced batch), as tsmlir does."""
    module = torch.jit.load(archive)
    refs = []
    with torch.no_grad():
        for which in JIT_CALLS:
            outputs = flatten(module(*(inputs, other)[which]))
            refs.append([o.clone().numpy() for o in outputs])
    return refs


def run_jit(archive, directory, n, jit_refs, out, extra=()):
    """Runs the JIT's calls; returns the calls' paths and why they fail (or
    None)."""
    calls = []
    for which in JIT_CALLS:
        prefix = ("in", "other")[which]
        calls.append("--call=" + ",".join(
            os.path.join(directory, "%s%d.npy" % (prefix, i))
            for i in range(n)))
    why = harness.run_tool(["tsmlir-run", archive, "--jit"] + calls +
                           list(extra), out)
    with open(os.path.join(out, "stdout.txt")) as f:
        paths = re.findall(r"^tsmlir-run: call \d+: (\w+(?: dynamic)?) ",
                           f.read(), re.M)
    for k, ref in enumerate(jit_refs):
        why = why or harness.compare_dir(os.path.join(out, "call%d" % k), ref)
    if not why and len(paths) != len(JIT_CALLS):
        why = "%d calls reported" % len(paths)
    return paths, why


def main():
    tmp = sys.argv[1]
    os.makedirs(tmp, exist_ok=True)
    lines, counts = [], {"match": 0, "fail": 0}
    for name, (module, inputs, other) in sorted(make_modules().items()):
        directory, refs = save(name, module, inputs, other, tmp)
        ins = ["--input=" + os.path.join(directory, "in%d.npy" % i)
               for i in range(len(inputs))]
        for form in ("scripted", "traced"):
            archive = os.path.join(directory, form + ".pt")
            for k in CALLS:
                out = os.path.join(directory, "out-%s-%d" % (form, k))
                why = harness.run_tool(
                    ["tsmlir-run", archive, "--repeat=%d" % k] + ins, out)
                why = why or harness.compare_dir(out, refs[k])
                counts["fail" if why else "match"] += 1
                lines.append("%s/%s.pt x%d: %d outputs, %s" % (
                    name, form, k, len(refs[k]), "FAIL: " + why if why
                    else "match"))
        # Ahead of time: the state lives in the shared object.
        so = os.path.join(directory, "model.so")
        compiled = harness.run(["tsmlir-compile", os.path.join(
            directory, "scripted.pt"), "--shared", "-o", so] + [
            "--input=" + os.path.join(directory, "in%d.npy" % i)
            for i in range(len(inputs))])
        k = max(CALLS)
        out = os.path.join(directory, "out-aot")
        why = (harness.first_error(compiled) if compiled.returncode else
               harness.run_tool(["tsmlir-run", so, "--repeat=%d" % k] + ins,
                                out))
        why = why or harness.compare_dir(out, refs[k])
        counts["fail" if why else "match"] += 1
        lines.append("%s/model.so x%d: %d outputs, %s" % (
            name, k, len(refs[k]), "FAIL: " + why if why else "match"))
        # The JIT: one state for its fallback and specialisations.
        for form in ("scripted", "traced"):
            archive = os.path.join(directory, form + ".pt")
            jit_refs = jit_references(archive, inputs, other)
            runs = [("jit", ())]
            if name in CACHED and form == "scripted":
                cache = os.path.join(directory, "cache")
                runs += [("jit cache %d" % r, ("--cache-dir=" + cache,))
                         for r in (1, 2)]
            for label, extra in runs:
                out = os.path.join(directory, "out-" + label.replace(" ", "-"))
                paths, why = run_jit(archive, directory, len(inputs),
                                     jit_refs, out, extra)
                counts["fail" if why else "match"] += 1
                lines.append("%s/%s.pt %s: %s: %s" % (
                    name, form, label, ", ".join(paths),
                    "FAIL: " + why if why else "match"))
    print("per run:")
    for line in lines:
        print("  " + line)
    print("module state: %d runs, %d match, %d failures" % (
        len(lines), counts["match"], counts["fail"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
