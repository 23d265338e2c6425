#!/usr/bin/env python3
"""Matrix products and convolutions: tsmlir's compiled graphs against the
libraries called directly, in the same run.

    bench/kernels/run.sh [--cases gemm,conv] [--threads 1,2] [--only NAME,..]
        [--target-seconds 1.0] [--results PREFIX]

Each case is one op run by `tsmlir-run --benchmark` (with library kernels,
the default where the build has them) and by `baseline` (baseline.cpp):
a TorchScript graph of aten::mm, both matrices its inputs; a frozen
torch.nn.Conv2d saved by torch.jit.save, its weight a constant as in a
deployed model, the image its input:

  gemm   a [M, K] x b [K, N], square sizes 64 to 4096: oneDNN's matmul on
         row-major buffers, and OpenBLAS's cblas_sgemm
  conv   the convolutions of torchvision models (1x1, 3x3, 7x7 stem,
         strided, grouped, depthwise, dilated), NCHW in and out: oneDNN with
         its own (blocked) layouts, input and output reordered in the timed
         run and the weights once before it, as PyTorch calls it; and oneDNN
         on the NCHW buffers themselves

Every variant runs once to warm up, then N times (N from a first timing, for
about --target-seconds, 3 to 200), and this --repeats times (3), the
variants of a case taking turns; its time is the lowest of its medians
(other processes on the machine only ever slow a run down), with GFLOP/s
(2 * multiply-adds / time). Every output is compared with the product in
float64 (PyTorch): the largest difference, relative to the largest
magnitude of the result, must stay below 1e-4, else the row says MISMATCH.

The ratio columns are baseline time / tsmlir time: above 1, tsmlir is
faster. For convolutions the baseline is the faster of the two oneDNN
calls. Writes PREFIX.md and PREFIX.json (default
bench/kernels/results/results).
"""
import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(1, os.path.dirname(HERE))
import benchtool  # noqa: E402 (bench/benchtool.py)
import report_models  # noqa: E402 (bench/report_models.py)

TOLERANCE = 1e-4

GEMM_SIZES = [64, 128, 256, 512, 1024, 2048, 4096]

# name: (batch, in channels, size, out channels, kernel, stride, padding,
#        dilation, groups), from torchvision's classification models.
CONVS = {
    "stem7x7_s2": (1, 3, 224, 64, 7, 2, 3, 1, 1),         # resnet
    "3x3_64": (1, 64, 56, 64, 3, 1, 1, 1, 1),             # resnet18 layer1
    "3x3_64_b8": (8, 64, 56, 64, 3, 1, 1, 1, 1),
    "3x3_s2_128": (1, 64, 56, 128, 3, 2, 1, 1, 1),        # resnet18 layer2
    "3x3_256_14": (1, 256, 14, 256, 3, 1, 1, 1, 1),       # resnet18 layer3
    "1x1_256_64": (1, 256, 56, 64, 1, 1, 0, 1, 1),        # resnet50
    "1x1_64_256": (1, 64, 56, 256, 1, 1, 0, 1, 1),
    "1x1_512_2048_7": (1, 512, 7, 2048, 1, 1, 0, 1, 1),    # resnet50 layer4
    "dw3x3_96": (1, 96, 56, 96, 3, 1, 1, 1, 96),          # mobilenet_v2
    "dw3x3_s2_144": (1, 144, 56, 144, 3, 2, 1, 1, 144),
    "grouped3x3_g8": (1, 128, 28, 128, 3, 1, 1, 1, 8),    # regnet, resnext
    "dilated3x3_d2": (1, 64, 28, 64, 3, 1, 2, 2, 1),      # segmentation
}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default="gemm,conv")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--only", default="", help="case names, comma-separated")
    p.add_argument("--target-seconds", type=float, default=0.5,
                   help="time of one repetition of a variant")
    p.add_argument("--repeats", type=int, default=3,
                   help="repetitions of each variant, taking turns")
    p.add_argument("--results", default=os.path.join(ROOT, "bench", "kernels",
                                                     "results", "results"))
    p.add_argument("--tsmlir-run", default=os.path.join(ROOT, "build", "bin",
                                                        "tsmlir-run"))
    p.add_argument("--baseline", required=True)
    p.add_argument("--openblas", required=True)
    p.add_argument("--work-dir", default=None)
    p.add_argument("--timeout", type=float, default=600)
    return p.parse_args()


# --- Cases ----------------------------------------------------------------


def gemm_case(n):
    graph = ("graph(%a : Tensor, %b : Tensor):\n"
             "  %y : Tensor = aten::mm(%a, %b)\n"
             "  return (%y)\n")
    g = torch.Generator().manual_seed(n)
    a = torch.randn(n, n, generator=g)
    b = torch.randn(n, n, generator=g)
    return {"name": f"gemm_{n}", "kind": "gemm", "graph": graph,
            "inputs": [a, b], "tsmlir_inputs": 2, "flops": 2.0 * n ** 3,
            "reference": lambda: a.double() @ b.double(),
            "shape": f"[{n}, {n}] x [{n}, {n}]", "conv": None}


def conv_case(name, spec):
    batch, c, size, k, r, stride, pad, dil, groups = spec
    g = torch.Generator().manual_seed(size * k + r)
    x = torch.randn(batch, c, size, size, generator=g)
    w = torch.randn(k, c // groups, r, r, generator=g)
    conv = torch.nn.Conv2d(c, k, r, stride, pad, dil, groups, bias=False)
    with torch.no_grad():
        conv.weight.copy_(w)
    module = torch.jit.freeze(torch.jit.script(conv.eval()))

    def reference():
        return torch.conv2d(x.double(), w.double(), None, stride, pad, dil,
                            groups)
    out = (size + 2 * pad - dil * (r - 1) - 1) // stride + 1
    flops = 2.0 * batch * k * out * out * (c // groups) * r * r
    return {"name": f"conv_{name}", "kind": "conv", "module": module,
            "inputs": [x, w], "tsmlir_inputs": 1, "flops": flops,
            "reference": reference,
            "shape": (f"{batch}x{c}x{size}x{size}, {k}x{c // groups}x{r}x{r}, "
                      f"s{stride} p{pad} d{dil} g{groups}"),
            "conv": f"{stride},{pad},{dil},{groups}"}


def cases(a):
    kinds = a.cases.split(",")
    only = set(filter(None, a.only.split(",")))
    out = []
    if "gemm" in kinds:
        out += [gemm_case(n) for n in GEMM_SIZES]
    if "conv" in kinds:
        out += [conv_case(name, spec) for name, spec in CONVS.items()]
    return [c for c in out if not only or c["name"] in only]


# --- Running --------------------------------------------------------------


def variant_command(variant, a, case, case_dir):
    count = case["tsmlir_inputs"] if variant == "tsmlir" else len(case["inputs"])
    inputs = []
    for i in range(count):
        inputs += ["--input", os.path.join(case_dir, f"in{i}.npy")]
    if variant == "tsmlir":
        program = "model.pt" if "module" in case else "graph.txt"
        return [a.tsmlir_run, os.path.join(case_dir, program)] + inputs
    cmd = [a.baseline, variant] + inputs
    if variant == "openblas-sgemm":
        cmd += ["--openblas", a.openblas]
    if case["conv"]:
        cmd += ["--conv", case["conv"]]
    return cmd


def check(path, reference):
    """'ok', or what differs from the float64 reference."""
    if not os.path.exists(path):
        return "UNCHECKED: no out0.npy"
    out = np.load(path)
    ref = reference.numpy()
    if out.shape != ref.shape:
        return f"MISMATCH: shape {list(out.shape)}, expected {list(ref.shape)}"
    scale = max(float(np.abs(ref).max()), 1e-30)
    error = float(np.abs(out.astype(np.float64) - ref).max()) / scale
    return "ok" if error <= TOLERANCE else f"MISMATCH: relative error {error:.2g}"


def prepare_variant(variant, a, case, case_dir, threads, reference):
    """The variant's command with its number of runs (from a first timing),
    checked once: {command, runs, check} or {error}."""
    base = variant_command(variant, a, case, case_dir)
    base += ["--threads", str(threads)]
    first = benchtool.run_benchmark(base + ["--benchmark", "1"], a.timeout,
                                    cwd=case_dir)
    if "error" in first:
        return first
    runs = int(min(200, max(3, a.target_seconds * 1e6 / max(first["median_us"], 1))))
    out_dir = tempfile.mkdtemp(prefix=f"out-{variant}-", dir=case_dir)
    try:
        r = benchtool.run_benchmark(
            base + ["--benchmark", "1", "--output-dir", out_dir], a.timeout)
        if "error" in r:
            return r
        return {"command": base + ["--benchmark", str(runs)], "runs": runs,
                "check": check(os.path.join(out_dir, "out0.npy"), reference)}
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


def measure_row(variants, a, case, case_dir, threads, reference):
    """Each variant --repeats times, the variants taking turns (so that a
    busy moment of the machine hits them alike); its time is the lowest of
    its medians (other processes only ever slow a run down)."""
    prepared = {v: prepare_variant(v, a, case, case_dir, threads, reference)
                for v in variants}
    medians = {v: [] for v in variants}
    for _ in range(a.repeats):
        for v in variants:
            p = prepared[v]
            if "error" in p:
                continue
            r = benchtool.run_benchmark(p["command"], a.timeout, cwd=case_dir)
            if "error" in r:
                prepared[v] = r
            else:
                medians[v].append(r["median_us"])
    out = {}
    for v in variants:
        p = prepared[v]
        if "error" in p:
            out[v] = {"error": p["error"]}
            continue
        best = min(medians[v])
        out[v] = {"median_us": best, "medians_us": medians[v],
                  "runs": p["runs"], "check": p["check"],
                  "gflops": case["flops"] / best / 1e3,
                  "command": " ".join(p["command"]).replace(ROOT + os.sep, "")}
    return out


def baselines(kind):
    return (["onednn-matmul", "openblas-sgemm"] if kind == "gemm"
            else ["onednn-conv", "onednn-conv-plain"])


def run_case(case, a, work_dir, threads_list):
    case_dir = os.path.join(work_dir, case["name"])
    os.makedirs(case_dir, exist_ok=True)
    if "module" in case:
        torch.jit.save(case["module"], os.path.join(case_dir, "model.pt"))
    else:
        with open(os.path.join(case_dir, "graph.txt"), "w") as f:
            f.write(case["graph"])
    for i, t in enumerate(case["inputs"]):
        np.save(os.path.join(case_dir, f"in{i}.npy"), t.numpy())
    reference = case["reference"]()
    rows = []
    for threads in threads_list:
        row = {"case": case["name"], "kind": case["kind"],
               "shape": case["shape"], "threads": threads, "variants": {}}
        row["variants"] = measure_row(["tsmlir"] + baselines(case["kind"]),
                                      a, case, case_dir, threads, reference)
        rows.append(row)
        print(format_line(row), flush=True)
    return rows


# --- Reporting ------------------------------------------------------------
# The table and ratios are report_models' (what docs/performance.md shows).


def format_line(row):
    parts = [f"{row['case']:<22} t{row['threads']}"]
    for variant, r in row["variants"].items():
        parts.append(f"{variant} " + ("FAILED: " + r["error"] if "error" in r else
                                      f"{r['median_us']:.0f} us ({r['gflops']:.0f} "
                                      f"GFLOP/s)" + ("" if r["check"] == "ok"
                                                     else " " + r["check"])))
    names = ["onednn", "openblas"] if row["kind"] == "gemm" else ["onednn"]
    for name in names:
        v = report_models.kernel_ratio(row, name)
        parts.append(f"{name}/tsmlir {v:.2f}" if v else f"{name}/tsmlir -")
    return "  ".join(parts)


def write_results(rows, prefix):
    os.makedirs(os.path.dirname(prefix), exist_ok=True)
    meta = {"machine": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(), "torch": torch.__version__}
    data = {"meta": meta, "rows": rows}
    with open(prefix + ".json", "w") as f:
        json.dump(data, f, indent=1)
    text = ("# Matrix products and convolutions: tsmlir against the libraries\n\n"
            "Written by bench/kernels/run.py.\n\n" +
            report_models.kernels_section(data) + "\n")
    with open(prefix + ".md", "w") as f:
        f.write(text)
    print(text)


def main():
    a = parse_args()
    threads_list = [int(t) for t in a.threads.split(",")]
    work_dir = a.work_dir or tempfile.mkdtemp(prefix="tsmlir-bench-kernels-")
    rows = []
    for case in cases(a):
        rows += run_case(case, a, work_dir, threads_list)
    write_results(rows, a.results)
    return 0 if all(r["variants"]["tsmlir"].get("check") == "ok"
                    for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
