#!/usr/bin/env python3
"""The gradients of PyTorch's operator database (OpInfo) through tsmlir-run
--grad-output, compared with eager autograd's.

For every operator of op_db that supports autograd and float64, its first
SAMPLES float64 samples (run_opinfo.py writes and screens them: samples
set apart there are set apart here) become one TorchScript function each;
tsmlir-run runs it forward and backward with a random upstream gradient per
floating-point output (seeded), and every floating-point input's gradient
must match torch.autograd.grad's for the same upstream gradients (float64
tolerances of harness.py: rtol 1e-10, atol 1e-12); for the operators
whose vectors are unique only up to sign (GAUGES), the upstream gradient of
each vector tsmlir returns negated is negated too. Outcomes per sample:

  pass         the outputs and every gradient match
  mismatch     a gradient (or an output) differs
  unsupported  tsmlir refused it: an op without a derivative formula, or
               one the forward does not compile
  error        anything else

Every sample tsmlir ran is also checked against finite differences: the
derivative of sum_k <g_k, f_k(x)> along a random direction v, computed by
central differences of the eager float64 function (eps 1e-6), must agree
with sum_i <grad_i, v_i> of tsmlir's gradients to 1e-5 relative (a check of
the formulas that does not trust autograd's; points where the function has
a kink, as relu at 0 or max at a tie, may disagree legitimately).

Prints one line per operator, one line per failing sample with
--show-failures (FD: for a finite-difference disagreement), the summary
line and the finite-difference line.

Usage: run_opinfo_grad.py TMPDIR [--ops NAME,...] [--subset FILE]
                          [--samples N] [--jobs N] [--show-failures]
"""
import argparse
import concurrent.futures
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import run_opinfo  # noqa: E402
from run_opinfo import torch, op_db  # noqa: E402


def sample_function(p):
    """The eager function of prepared sample `p`."""
    scope = {}
    exec(compile(run_opinfo.PRELUDE + "def fn(%s):\n    return (%s,)\n" % (
        ", ".join("%s: Tensor" % n for n, _ in p.params), p.call),
        "<grad>", "exec"), scope)
    return scope["fn"]


def float_outputs(value):
    """The floating-point tensors of an output, flattened in order."""
    outs = []

    def collect(v):
        if isinstance(v, torch.Tensor):
            outs.append(v)
        elif isinstance(v, (tuple, list)):
            for x in v:
                collect(x)
    collect(value)
    return [o for o in outs if o.dtype.is_floating_point]


# The finite-difference check: the derivative of sum_k <g_k, f_k(x)> along
# a random direction v, (F(x + eps v) - F(x - eps v)) / (2 eps) in float64,
# against sum_i <grad_i, v_i> of tsmlir's gradients.
FD_EPS = 1e-6
FD_RTOL = 1e-5


def finite_difference(p, upstream, ours, seed):
    """None when tsmlir's gradients `ours` (by parameter index) agree with
    the finite difference along a random direction, else why not."""
    fn = sample_function(p)
    gen = torch.Generator().manual_seed(1000 + seed)
    base = [t.detach().clone() for _, t in p.params]
    direction = {i: torch.randn(base[i].shape, generator=gen,
                                dtype=base[i].dtype) for i in ours}

    def objective(sign):
        args = [t + sign * FD_EPS * direction[i] if i in direction else t
                for i, t in enumerate(base)]
        with torch.no_grad():
            outs = float_outputs(fn(*args)[0])
        terms = [(o.double() * g.double()).sum() for o, g in
                 zip(outs, upstream)]
        return sum(terms, torch.tensor(0.0, dtype=torch.float64))

    try:
        numeric = ((objective(1) - objective(-1)) / (2 * FD_EPS)).item()
    except Exception as e:  # noqa: BLE001 (a perturbed input is refused)
        return "eager refuses the perturbed input: %s" % (
            str(e).splitlines() or [""])[0][:60]
    analytic = sum(float((torch.from_numpy(g).double() *
                          direction[i].double()).sum())
                   for i, g in ours.items())
    scale = max(1.0, abs(numeric), abs(analytic))
    if abs(numeric - analytic) <= FD_RTOL * scale:
        return None
    return "directional derivative %.10g, finite difference %.10g" % (
        analytic, numeric)


def reference(p, seed):
    """(upstream gradients, expected input gradients by parameter index) of
    prepared sample `p`, from eager autograd; None when nothing in it is
    differentiable."""
    fn = sample_function(p)
    args = []
    for _, t in p.params:
        t = t.detach().clone()
        if t.dtype.is_floating_point:
            t.requires_grad_(True)
        args.append(t)
    floats = float_outputs(fn(*args)[0])
    gen = torch.Generator().manual_seed(seed)
    upstream = [torch.randn(o.shape, generator=gen, dtype=o.dtype)
                for o in floats]
    wanted = [(i, a) for i, a in enumerate(args) if a.requires_grad]
    live = [(o, g) for o, g in zip(floats, upstream) if o.requires_grad]
    if not wanted or not live:
        return None
    grads = torch.autograd.grad([o for o, _ in live], [a for _, a in wanted],
                                [g for _, g in live], allow_unused=True)
    expected = {}
    for (i, a), g in zip(wanted, grads):
        expected[i] = (torch.zeros_like(a) if g is None else g).detach()
    return upstream, expected


# Singular vectors and eigenvectors are unique only up to sign, and a loss
# of them (a random upstream gradient) depends on the sign: for these
# operators the upstream gradient of tsmlir's vectors is eager's flipped
# where tsmlir's vector is eager's negated (the same loss of the same
# function), and tsmlir runs again with it. Name -> (index of the output
# whose vectors set the signs, whether they are its rows, the outputs
# flipped with them and whether by rows).
GAUGES = {"linalg.eigh": (1, False, [(1, False)]),
          "symeig": (1, False, [(1, False)]),
          "svd": (0, False, [(0, False), (2, False)]),
          "linalg.svd": (0, False, [(0, False), (2, True)])}


def aligned_upstream(name, p, upstream, out_dir):
    """For GAUGES operators, the upstream gradients for tsmlir's outputs in
    `out_dir` that give eager's loss; None when no vector's sign differs."""
    if name not in GAUGES:
        return None
    fn = sample_function(p)
    with torch.no_grad():
        theirs = float_outputs(fn(*[t for _, t in p.params])[0])
    at, _, flipped = GAUGES[name]
    path = os.path.join(out_dir, "out%d.npy" % at)
    if len(theirs) <= at or not os.path.exists(path):
        return None
    ours = torch.from_numpy(np.load(path))
    k = min(ours.shape[-1], theirs[at].shape[-1])
    if name.endswith("svd"):
        k = min(p.params[0][1].shape[-2:])
    # +1 or -1 per vector (column), [batch..., k].
    dots = (ours[..., :k] * theirs[at][..., :k]).sum(-2)
    signs = torch.where(dots < 0, -1.0, 1.0).to(ours.dtype)
    if bool((signs > 0).all()):
        return None
    result = list(upstream)
    for index, rows in flipped:
        g = result[index].clone()
        if rows:
            g[..., :k, :] *= signs.unsqueeze(-1)
        else:
            g[..., :, :k] *= signs.unsqueeze(-2)
        result[index] = g
    return result


def run_sample(job):
    name, index, p, tool, work = job
    try:
        ref = reference(p, seed=index)
    except Exception as e:  # noqa: BLE001 (autograd refuses the sample)
        return job, "apart", "eager autograd rejects it: %s" % (
            str(e).splitlines() or [""])[0][:80]
    if ref is None:
        return job, "apart", "nothing differentiable"
    upstream, expected = ref
    text, args, outputs = run_opinfo.function_text([p])
    try:
        graph = run_opinfo.script_graph(text)
    except Exception:  # noqa: BLE001
        return job, "apart", "TorchScript cannot script the call"
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "graph.txt"), "w") as f:
        f.write(graph)
    cmd = [tool, os.path.join(work, "graph.txt")]
    for i, t in enumerate(args):
        path = os.path.join(work, "in%d.npy" % i)
        np.save(path, t.detach().numpy())
        cmd.append("--input=" + path)
    for k, g in enumerate(upstream):
        path = os.path.join(work, "grad_out%d.npy" % k)
        np.save(path, g.numpy())
        cmd.append("--grad-output=" + path)
    out_dir = os.path.join(work, "out")
    why = harness.run_tool(cmd, out_dir)
    aligned = None if why else aligned_upstream(name, p, upstream, out_dir)
    if aligned is not None:
        cmd = [c for c in cmd if not c.startswith("--grad-output=")]
        for k, g in enumerate(aligned):
            path = os.path.join(work, "grad_out%d_aligned.npy" % k)
            np.save(path, g.numpy())
            cmd.append("--grad-output=" + path)
        why = harness.run_tool(cmd, out_dir)
    if why:
        refused = "no derivative formula" in why or \
            "cannot differentiate" in why
        return job, "unsupported" if refused else run_opinfo.classify(why), why
    ours = {}
    for i in sorted(expected):
        path = os.path.join(out_dir, "grad_in%d.npy" % i)
        if not os.path.exists(path):
            return job, "error", "grad_in%d missing" % i
        ours[i] = np.load(path)
    fd = finite_difference(p, upstream, ours, index)
    for i, g in sorted(expected.items()):
        why = harness.mismatch(ours[i], g.numpy(), "grad_in%d" % i)
        if why:
            return job, "mismatch", ("mismatch: " + why, fd)
    return job, "pass", (None, fd)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tmp")
    parser.add_argument("--ops", default="")
    parser.add_argument("--subset", default="")
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--tool", default="tsmlir-run")
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args()

    wanted = set(filter(None, args.ops.split(",")))
    if args.subset:
        with open(args.subset) as f:
            wanted |= {l.split("#")[0].strip() for l in f} - {""}
    ops = [op for op in op_db
           if (not wanted or run_opinfo.qualified_name(op) in wanted)
           and op.supports_autograd
           and torch.float64 in op.supported_dtypes("cpu")]
    jobs = []
    for op in ops:
        name = run_opinfo.qualified_name(op)
        form = run_opinfo.call_form(op)
        if form[0] is None:
            continue
        torch.manual_seed(0)
        try:
            samples = list(op.sample_inputs("cpu", torch.float64,
                                            requires_grad=False))
        except Exception:  # noqa: BLE001
            continue
        taken = 0
        for i, sample in enumerate(samples):
            if taken == args.samples:
                break
            p = run_opinfo.prepare(form, sample, None, i)
            if p.apart:
                continue
            taken += 1
            jobs.append((name, i, p, args.tool,
                         os.path.join(args.tmp, name, str(i))))

    per_op, apart = {}, {}
    fd_checked, fd_agree, fd_disagree_ops = 0, 0, set()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job, outcome, why in pool.map(run_sample, jobs):
            name, index = job[0], job[1]
            if outcome == "apart":
                apart[why] = apart.get(why, 0) + 1
                continue
            if isinstance(why, tuple):
                why, fd = why
                fd_checked += 1
                if fd is None:
                    fd_agree += 1
                else:
                    fd_disagree_ops.add(name)
                    if args.show_failures:
                        print("FD: %s [#%d]: %s" % (name, index, fd))
            counts = per_op.setdefault(name, {})
            counts[outcome] = counts.get(outcome, 0) + 1
            if why and args.show_failures:
                print("FAIL: %s [#%d]: %s" % (name, index, why))
    totals = {}
    print("per operator:")
    for name in sorted(per_op):
        counts = per_op[name]
        n = sum(counts.values())
        parts = ["%d %s" % (counts[k], k) for k in
                 ("pass", "mismatch", "unsupported", "error") if counts.get(k)]
        print("  %s: %d samples, %s" % (name, n, ", ".join(parts)))
        for k, v in counts.items():
            totals[k] = totals.get(k, 0) + v
    if apart:
        print("set apart:")
        for why in sorted(apart):
            print("  %s: %d samples" % (why, apart[why]))
    n = sum(totals.values())
    full = sum(1 for c in per_op.values() if set(c) == {"pass"})
    print("opinfo gradients: %d operators, %d samples, %d pass (%.1f%%), "
          "%d mismatch, %d unsupported, %d error; %d operators pass every "
          "sample" % (len(per_op), n, totals.get("pass", 0),
                      100.0 * totals.get("pass", 0) / max(n, 1),
                      totals.get("mismatch", 0), totals.get("unsupported", 0),
                      totals.get("error", 0), full))
    print("finite differences: %d samples checked, %d agree (%d operators "
          "disagree somewhere: %s)" % (
              fd_checked, fd_agree, len(fd_disagree_ops),
              ", ".join(sorted(fd_disagree_ops)) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
