#!/usr/bin/env python3
"""Forward + backward on the CPU: tsmlir's save policies against eager
autograd, in one run.

    /usr/bin/python3 bench/autodiff/run.py [--runs 30] [--blocks a,b]
        [--tsmlir-run PATH] [--out bench/autodiff/results]

Blocks (float32, seeded, one thread; each a TorchScript function of its
inputs and weights, all of which require grad):

  mlp        linear -> gelu -> linear -> relu, 128 x 512 -> 2048 -> 512
  gelu_ln    x + gelu(layer_norm(x) * w + b) twice, 512 x 1024
  attention  a pre-LN transformer block: one head of self-attention with
             its projections, then a GELU MLP, residuals; 128 x 256, MLP
             1024
  conv       conv3x3 -> silu -> conv3x3 -> gelu, 8 x 16 x 32 x 32

For each block and policy (save-all: PyTorch's choice; min-cut), tsmlir-run
compiles the forward and the backward as two functions (the entry calls
one, then the other, with what the forward saved) and times a call with
`--benchmark RUNS` (median); its gradients are checked against eager
autograd's (computed in float64; the largest error relative to the
largest gradient element must stay under 1e-4) first. The saved bytes are the forward's `ts.autodiff`
attribute (the saved values; the arguments the backward reads again are
reported apart). Eager autograd is timed in this process with the same
method: a warm-up, then RUNS calls of forward + backward, median.

Prints a markdown table and writes it, with the machine, to OUT/results.md
and OUT/results.json.
"""

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

POLICIES = ("save-all", "min-cut")
# Gradients are checked against eager autograd's in float64.
GRADIENT_TOLERANCE = 1e-4
BENCH_LINE = re.compile(
    r"benchmark: (\d+) runs, median ([0-9.eE+-]+) us, min ([0-9.eE+-]+) us")
AUTODIFF_ATTR = re.compile(r"ts\.autodiff = \{([^}]*)\}")
ATTR_ENTRY = re.compile(r'(\w+) = ("[^"]*"|array<[^>]*>|-?\d+)')


def mlp(x, w1, b1, w2, b2):
    return F.relu(F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2))


def gelu_ln(x, w, b):
    for _ in range(2):
        x = x + F.gelu(F.layer_norm(x, [x.shape[-1]]) * w + b)
    return x


def attention(x, wq, wk, wv, wo, w1, w2):
    h = F.layer_norm(x, [x.shape[-1]])
    q = h @ wq
    k = h @ wk
    v = h @ wv
    scores = torch.softmax(q @ k.t() * 0.0625, dim=-1)
    x = x + (scores @ v) @ wo
    h = F.layer_norm(x, [x.shape[-1]])
    return x + F.gelu(h @ w1) @ w2


def conv(x, w1, b1, w2, b2):
    h = F.silu(F.conv2d(x, w1, b1, padding=1))
    return F.gelu(F.conv2d(h, w2, b2, padding=1))


def blocks():
    g = torch.Generator().manual_seed(0)

    def rand(*shape, scale=1.0):
        return torch.randn(*shape, generator=g) * scale
    return {
        "mlp": (mlp, [rand(128, 512), rand(2048, 512, scale=0.04),
                      rand(2048, scale=0.1), rand(512, 2048, scale=0.02),
                      rand(512, scale=0.1)]),
        "gelu_ln": (gelu_ln, [rand(512, 1024), rand(1024), rand(1024)]),
        "attention": (attention, [rand(128, 256)] +
                      [rand(256, 256, scale=0.06) for _ in range(4)] +
                      [rand(256, 1024, scale=0.06),
                       rand(1024, 256, scale=0.03)]),
        "conv": (conv, [rand(8, 16, 32, 32), rand(16, 16, 3, 3, scale=0.08),
                        rand(16, scale=0.1), rand(16, 16, 3, 3, scale=0.08),
                        rand(16, scale=0.1)]),
    }


def gradient_error(ours, ref):
    """The largest error of `ours` relative to the largest magnitude of
    `ref` (float32 gradients of weights sum thousands of products: an
    elementwise tolerance would flag rounding)."""
    scale = max(float(np.abs(ref).max()), 1e-30)
    return float(np.abs(ours.astype(np.float64) - ref).max()) / scale


def eager(fn, args, upstream, runs):
    """Median microseconds of forward + backward in eager autograd, and the
    inputs' gradients."""
    leaves = [a.clone().requires_grad_(True) for a in args]

    def step():
        for leaf in leaves:
            leaf.grad = None
        fn(*leaves).backward(upstream)
    step()
    grads = [leaf.grad.clone() for leaf in leaves]
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        step()
        times.append((time.perf_counter_ns() - start) / 1e3)
    return (statistics.median(times) if times else None), grads


def tsmlir(tool, work, policy, runs, grads):
    """Median microseconds of tsmlir's compiled forward + backward, the
    forward's ts.autodiff summary, and why its gradients are wrong (None)."""
    out = os.path.join(work, policy)
    dump = os.path.join(work, policy + "-ir")
    cmd = [tool, os.path.join(work, "graph.txt")]
    cmd += ["--input=" + os.path.join(work, "in%d.npy" % i)
            for i in range(len(grads))]
    cmd += ["--grad-output=" + os.path.join(work, "grad_out0.npy"),
            "--ts-autodiff-policy=" + policy, "--threads", "1",
            "--benchmark", str(runs), "--output-dir", out, "--dump-ir", dump]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        errors = [l for l in result.stderr.splitlines() if "error:" in l]
        return None, None, (errors or ["exit status %d" % result.returncode])[0]
    median = float(BENCH_LINE.search(result.stdout).group(2))
    summary = {}
    with open(os.path.join(dump, "ts.mlir")) as f:
        match = AUTODIFF_ATTR.search(f.read())
    for key, value in ATTR_ENTRY.findall(match.group(1)):
        summary[key] = value.strip('"')
    for i, ref in enumerate(grads):
        error = gradient_error(
            np.load(os.path.join(out, "grad_in%d.npy" % i)), ref.numpy())
        if error > GRADIENT_TOLERANCE:
            return median, summary, "grad_in%d off by %.2e of its largest " \
                "element" % (i, error)
    return median, summary, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--blocks", default="mlp,gelu_ln,attention,conv")
    parser.add_argument("--tsmlir-run",
                        default=os.path.join(ROOT, "build", "bin",
                                             "tsmlir-run"))
    parser.add_argument("--out",
                        default=os.path.join(ROOT, "bench", "autodiff",
                                             "results"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    all_blocks = blocks()
    records, failed = [], False
    with tempfile.TemporaryDirectory(prefix="tsmlir-autodiff-bench-") as tmp:
        for name in args.blocks.split(","):
            fn, inputs = all_blocks[name]
            work = os.path.join(tmp, name)
            os.makedirs(work)
            scripted = torch.jit.script(fn)
            with open(os.path.join(work, "graph.txt"), "w") as f:
                f.write(str(scripted.inlined_graph))
            for i, t in enumerate(inputs):
                np.save(os.path.join(work, "in%d.npy" % i), t.numpy())
            with torch.no_grad():
                out = fn(*inputs)
            upstream = torch.randn(
                out.shape, generator=torch.Generator().manual_seed(1))
            np.save(os.path.join(work, "grad_out0.npy"), upstream.numpy())
            eager_us, _ = eager(fn, inputs, upstream, args.runs)
            _, grads = eager(fn, [t.double() for t in inputs],
                             upstream.double(), 0)
            record = {"block": name, "eager_us": eager_us}
            for policy in POLICIES:
                us, summary, why = tsmlir(args.tsmlir_run, work, policy,
                                          args.runs, grads)
                record[policy] = {"us": us, "summary": summary, "error": why}
                failed |= why is not None
            records.append(record)
            print("%s: eager %.0f us; %s" % (name, eager_us, "; ".join(
                "%s %s" % (p, "%.0f us, saves %s B" % (
                    record[p]["us"], record[p]["summary"]["saved_bytes"])
                    if not record[p]["error"] else record[p]["error"])
                for p in POLICIES)), flush=True)

    lines = ["| block | eager autograd | save-all | min-cut | "
             "eager / min-cut | min-cut / save-all time | "
             "saved bytes save-all | saved bytes min-cut | recomputed ops |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in records:
        s, m = r["save-all"], r["min-cut"]
        if s["error"] or m["error"]:
            lines.append("| %s | %.0f us | %s | %s | | | | | |" % (
                r["block"], r["eager_us"], s["error"] or "", m["error"] or ""))
            continue
        lines.append(
            "| %s | %.0f us | %.0f us | %.0f us | %.2fx | %.2f | %s | %s | "
            "%s |" % (r["block"], r["eager_us"], s["us"], m["us"],
                      r["eager_us"] / m["us"], m["us"] / s["us"],
                      s["summary"]["saved_bytes"], m["summary"]["saved_bytes"],
                      m["summary"]["recomputed_ops"]))
    table = "\n".join(lines)
    print()
    print(table)
    env = {"machine": platform.processor() or platform.machine(),
           "cpus": os.cpu_count(), "torch": torch.__version__,
           "runs": args.runs, "threads": 1}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"environment": env, "records": records}, f, indent=1)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("# Autodiff benchmark results\n\n`bench/autodiff/run.py "
                "--runs %d`, one thread, %s, torch %s.\n\n%s\n" % (
                    args.runs, env["machine"], env["torch"], table))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
