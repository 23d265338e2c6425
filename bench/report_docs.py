#!/usr/bin/env python3
"""Renders the measured figures of docs/performance.md from the results.

Every figure in docs/performance.md that comes from a measurement lives in a
generated section,

    <!-- BEGIN generated: NAME (bench/report_docs.py) -->
    ...
    <!-- END generated -->

rendered here, by arithmetic only (ratios, ranges, rates), from

  bench/cpu/results/results.json   what bench/cpu/run.py measured (the cpu-*
                                   sections); run.py calls this after a run
  the compile-time table           what bench/aot/compile_time.py printed,
                                   pasted into the doc's "Ahead-of-time
                                   compile time" section (aot-summary)
  bench/gpu/results/*-kit.json     what the GPU check kit's benchmark
                                   measured on a GPU (gpu-h200, gpu-h100)
  bench/kernels/results/results.json, bench/models/results/results.json
                                   convolutions and matrix products against
                                   the libraries, and whole models against
                                   PyTorch (kernels, models; report_models.py)

    bench/report_docs.py --check        # exit 1, with a diff, when the doc's
                                        # generated sections differ
    bench/report_docs.py --write        # rewrite them
    bench/report_docs.py --print NAME   # one section, rendered

--check also fails when the hand-written text outside the generated
sections quotes a measurement (a time, a rate, a ratio): such figures belong
in a generated section. Standard library only.
"""

import argparse
import datetime
import difflib
import json
import math
import os
import re
import sys
import textwrap

import report_models

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DOC = os.path.join(ROOT, "docs", "performance.md")
CPU_RESULTS = os.path.join(ROOT, "bench", "cpu", "results", "results.json")
GPU_RESULTS = {"gpu-h200": os.path.join(ROOT, "bench", "gpu", "results",
                                        "nvidia-h200-kit.json"),
               "gpu-h100": os.path.join(ROOT, "bench", "gpu", "results",
                                        "nvidia-h100-kit.json")}
OTHER_RESULTS = {
    "kernels": os.path.join(ROOT, "bench", "kernels", "results", "results.json"),
    "models": os.path.join(ROOT, "bench", "models", "results", "results.json"),
}
TOOL = "bench/report_docs.py"

BEGIN = re.compile(r"^<!-- BEGIN generated: ([\w-]+) \(([^)]*)\) -->$")
END = "<!-- END generated -->"

# The workloads with a fused kernel to compare (mlp is a matmul benchmark),
# and how they are bound on this machine (see docs/performance.md).
FUSED = ("ratio_iou", "lerp", "gelu", "bias_gelu", "softmax", "layer_norm")
MEMORY_BOUND = ("ratio_iou", "lerp", "layer_norm")
COMPUTE_BOUND = ("gelu", "bias_gelu")
STRATEGIES = ("pointwise", "nnc", "nvfuser", "aggressive")
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five"}
TARGET_VS_LOOP = 1.25  # the target: fused kernels within 1.25x of the loop
MLP_WIDTH = 256        # bench/cpu/workloads.py
# Results measured before this time predate bdf301c (the softmax output
# multiplies by the row's reciprocal sum instead of dividing).
SOFTMAX_RECIPROCAL_SINCE = "2026-11-22T03:22:37"
# The first run in which softmax computed exp once per element.
SOFTMAX_EXP_ONCE_SINCE = "2026-11-29T10:00:00"


class MissingData(Exception):
    """The results lack a measurement a section quotes."""


# --- Formatting -------------------------------------------------------------


def us(x):
    """A median in µs, as the tables print it."""
    digits = 2 if x < 10 else 1 if x < 100 else 0
    return f"{x:.{digits}f}"


def ms(x_us):
    return f"{x_us / 1000:.1f}"


def rate(x):
    """GB/s (or GFLOP/s), as the tables print it."""
    return f"{x:.1f}" if x >= 1 else f"{x:.2f}" if x >= 0.1 else f"{x:.2g}"


def ratio(x):
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:.0f}"


def span(values, fmt):
    lo, hi = fmt(min(values)), fmt(max(values))
    return lo if lo == hi else f"{lo}–{hi}"


def code_list(names):
    names = [f"`{n}`" for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def threads_text(t):
    return "one thread" if t == 1 else "two threads" if t == 2 else f"{t} threads"


def summary_cell(r):
    """'median us (GB/s)' of a measurement, * when NOISY; MISMATCH or
    UNCHECKED instead when its output was not verified."""
    if r["check"] != "ok":
        return r["check"].split(":")[0]
    return f"{us(r['median_us'])} ({rate(r['gbps'])})" + ("*" if r.get("noisy") else "")


# --- The CPU results --------------------------------------------------------


class Cpu:
    """bench/cpu/results/results.json: verified medians by case."""

    def __init__(self, data):
        self.env = data["environment"]
        self.records = data["records"]
        self.by_key = {(r["workload"], r["size"], r["threads"], r["variant"]): r
                       for r in self.records}

    def rec(self, workload, size, threads, variant):
        r = self.by_key.get((workload, size, threads, variant))
        if r is None or "error" in r or r.get("check") != "ok":
            what = "no" if r is None else "no verified"
            raise MissingData(f"{what} {variant} result for {workload} {size}, "
                              f"{threads} thread(s)")
        return r

    def t(self, workload, size, threads, variant):
        """Median µs."""
        return self.rec(workload, size, threads, variant)["median_us"]

    def gbps(self, workload, size, threads, variant):
        return self.rec(workload, size, threads, variant)["gbps"]

    def n(self, size):
        return next(r["n"] for r in self.records if r["size"] == size)


def doc_tables(records, sizes=("1M", "16M")):
    """The tables of docs/performance.md: one per thread count and size, a
    row per variant (the references first), a column per workload,
    'median us (GB/s)'."""
    out = []
    names = list(dict.fromkeys(r["workload"] for r in records))
    first = ["handwritten", "torch-eager", "torchscript"]
    variants = [v for v in first if any(r["variant"] == v for r in records)]
    variants += [v for v in dict.fromkeys(r["variant"] for r in records) if v not in first]
    by_key = {(r["workload"], r["size"], r["threads"], r["variant"]): r for r in records}
    for threads in sorted({r["threads"] for r in records}):
        for size in sizes:
            if not any(r["size"] == size for r in records):
                continue
            out.append(f"**{threads} thread{'s' if threads > 1 else ''}, {size} "
                       "elements**: median µs (GB/s)\n")
            out.append("| variant | " + " | ".join(names) + " |")
            out.append("|---|" + "---:|" * len(names))
            for v in variants:
                cells = []
                for name in names:
                    r = by_key.get((name, size, threads, v))
                    if r is None:
                        cells.append("—")
                    elif "error" in r:
                        cells.append("not measured yet" if "not found" in r["error"]
                                     else "FAILED")
                    else:
                        cells.append(summary_cell(r))
                out.append(f"| {v} | " + " | ".join(cells) + " |")
            out.append("")
    return "\n".join(out)


def cpu_run(c):
    """The CPU section's introduction: how long the run took."""
    cases = {(r["workload"], r["size"]) for r in c.records}
    variants = list(dict.fromkeys(r["variant"] for r in c.records))
    return (f"The run in [Results](#results) took {c.env['elapsed_s']:.0f} s on "
            f"the machine described there: {len(cases)} cases (workload and "
            f"size) per thread count, {len(variants)} variants each.")


def cpu_mlp_size(c):
    n = c.n("1M")
    gflop = 4 * MLP_WIDTH * n / 1e9
    eager = c.t("mlp", "1M", 1, "torch-eager")
    return (f"`mlp` is compute-bound (4 × {MLP_WIDTH} × N flops: {gflop:.2f} GFLOP "
            f"at 1M), so its GB/s says little; it runs up to 1M by default "
            f"(`--mlp-max-size`), because eager PyTorch here takes "
            f"{eager / 1e6:.2f} s per call at 1M on one thread (see below), and "
            f"16M is 16 times the work.")


def run_arguments(command):
    """What a run.py command line adds to what run.sh passes."""
    words = command.split()[1:]
    extra, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w in ("--handwritten", "--tsmlir-run", "--work-dir"):
            skip = True
        else:
            extra.append(w)
    return " ".join(extra)


def cpu_results_header(c):
    env, recs = c.env, c.records
    date = datetime.datetime.fromisoformat(env["date"]).date().isoformat()
    args = run_arguments(env["command"])
    noisy = sum(1 for r in recs if r.get("noisy"))
    ok = sum(1 for r in recs if r.get("check") == "ok")
    variants = list(dict.fromkeys(r["variant"] for r in recs))
    bad = "" if ok == len(recs) else (
        f"; the other {len(recs) - ok} are marked `FAILED`, `MISMATCH` or "
        "`UNCHECKED` in the tables")
    return (f"Measured on {date} ({env['cpu']}, {env['cores']} cores, PyTorch "
            f"{env['torch']}): `bench/cpu/run.sh{' ' + args if args else ''}`, "
            f"{len(variants)} variants ({', '.join(f'`{v}`' for v in variants)}), "
            f"{env['elapsed_s']:.0f} s in all; {noisy} of the {len(recs)} "
            f"measurements `NOISY`. Every size and both ratios are in "
            f"[bench/cpu/results/results.md](../bench/cpu/results/results.md) and "
            f"`results.json`, from which `{TOOL} --write` renders the tables "
            f"and figures of this page. Outputs checked against eager PyTorch: "
            f"{ok} of {len(recs)} `ok`{bad}.")


def cpu_tables(c):
    text = doc_tables(c.records).rstrip("\n")
    workloads = list(dict.fromkeys(r["workload"] for r in c.records))
    for size in ("1M", "16M"):
        missing = [w for w in workloads
                   if not any((w, size, t, v) in c.by_key
                              for t in (1, 2) for v in ("handwritten", "nnc"))]
        for w in missing:
            text += (f"\n\n`{w}` at {size} was not run"
                     + (" (`--mlp-max-size`)." if w == "mlp" else "."))
    return text


def cpu_references(c):
    """What the references show: the loop, eager PyTorch, TorchScript."""
    out = []

    # Eager against the loop.
    def vs_loop(size, t):
        return {w: c.t(w, size, t, "torch-eager") / c.t(w, size, t, "handwritten")
                for w in FUSED}
    e1, e16, e16_2 = vs_loop("1M", 1), vs_loop("16M", 1), vs_loop("16M", 2)
    listed = ", ".join(f"`{w}` {ratio(x)}×" for w, x in sorted(e1.items(), key=lambda i: i[1]))
    scale = [c.t(w, "16M", 1, "torch-eager") / c.t(w, "16M", 2, "torch-eager") for w in FUSED]
    out.append(
        f"- **Eager PyTorch is {span(e1.values(), ratio)}× slower than the loop at "
        f"1M** on one thread ({listed}), where everything fits in L3, and "
        f"**{span(e16.values(), ratio)}× slower at 16M** "
        f"({span(e16_2.values(), ratio)}× on two threads), where every "
        f"intermediate is 64 MB of fresh pages (see \"This PyTorch\"). A second "
        f"thread speeds eager up {span(scale, ratio)}× at 16M.")

    # TorchScript.
    ts = [r for r in c.records if r["variant"] == "torchscript"]
    groups = sum(1 for r in ts if r.get("fusion_groups") == 0)
    if groups == len(ts):
        lead = (f"- **TorchScript is eager** here: it forms no fusion group (0 in "
                f"all {len(ts)} of its rows), so it runs the same kernels;")
    else:
        lead = (f"- **TorchScript** formed fusion groups in {len(ts) - groups} of "
                f"its {len(ts)} rows;")
    out.append(
        f"{lead} it saves Python's per-op overhead where there are many small "
        f"ops (`ratio_iou` at 4K: {us(c.t('ratio_iou', '4K', 1, 'torchscript'))} "
        f"µs against {us(c.t('ratio_iou', '4K', 1, 'torch-eager'))} µs on one "
        f"thread, {us(c.t('ratio_iou', '4K', 2, 'torchscript'))} against "
        f"{us(c.t('ratio_iou', '4K', 2, 'torch-eager'))} on two).")

    # The loop's GB/s.
    def hw(ws, sizes, t):
        return [c.gbps(w, s, t, "handwritten") for w in ws for s in sizes]
    n1 = c.n("1M")
    elements = ", ".join(
        f"`{w}` {n1 / c.t(w, '1M', 1, 'handwritten') / 1e3:.2f}" for w in COMPUTE_BOUND)
    out.append(
        f"- **The loop's GB/s**: at 16M one core moved "
        f"{span(hw(MEMORY_BOUND, ['16M'], 1), rate)} GB/s on the memory-bound "
        f"workloads ({code_list(MEMORY_BOUND)}) and two threads "
        f"{span(hw(MEMORY_BOUND, ['16M'], 2), rate)} GB/s in this run. This VM's "
        f"memory bandwidth is shared with the host's other VMs and varies over "
        f"time: compare variants within one run, never across runs, and at 16M "
        f"run twice before trusting a difference. Up to 1M the data stay in the "
        f"caches, which are steady: at 64K and 1M the loop moves "
        f"{span(hw(MEMORY_BOUND, ['64K', '1M'], 1), rate)} GB/s on those "
        f"workloads on one thread and {span(hw(MEMORY_BOUND, ['64K', '1M'], 2), rate)} "
        f"on two. {code_list(COMPUTE_BOUND)} are compute-bound "
        f"({span(hw(COMPUTE_BOUND, ['64K', '1M', '16M'], 1), rate)} GB/s on one "
        f"thread from 64K to 16M, {span(hw(COMPUTE_BOUND, ['64K', '1M', '16M'], 2), rate)} "
        f"on two; G elements/s at 1M on one thread: {elements}); `softmax` nearly "
        f"so ({rate(c.gbps('softmax', '1M', 1, 'handwritten'))} GB/s on one thread "
        f"at 1M: an `exp` per element and three passes over each row).")

    # mlp.
    flops = 4 * MLP_WIDTH * n1

    def gflops(t, v):
        return flops / (c.t("mlp", "1M", t, v) * 1e-6) / 1e9
    out.append(
        f"- **`mlp`**: the loop runs {rate(gflops(1, 'handwritten'))} GFLOP/s on "
        f"one core ({flops / 1e9:.2f} GFLOP in {ms(c.t('mlp', '1M', 1, 'handwritten'))} "
        f"ms at 1M) and {rate(gflops(2, 'handwritten'))} GFLOP/s on two threads; "
        f"eager PyTorch's generic GEMM {rate(gflops(1, 'torch-eager'))} GFLOP/s on "
        f"one thread and {rate(gflops(2, 'torch-eager'))} on two.")
    return "\n".join(out)


def cpu_noise(c):
    soft = [c.t("softmax", "16M", 2, v) for v in STRATEGIES]
    return (f"At 1M elements the data stay in the caches and the figures are "
            f"steady; at 16M memory bandwidth on this shared VM varies (the "
            f"{NUMBERS.get(len(STRATEGIES), len(STRATEGIES))} tsmlir strategies "
            f"run *the same code* for `softmax`, a single op, yet took from {ms(min(soft))} to "
            f"{ms(max(soft))} ms at 16M on two threads in this one run), so the "
            f"16M ratios are indicative only.")


def cpu_targets_table(c):
    lines = ["| workload (1 thread) | `nnc` / handwritten, 1M | `nnc` / handwritten, 16M "
             "| eager / `nnc`, 1M | eager / `nnc`, 16M |",
             "|---|---:|---:|---:|---:|"]
    for w in FUSED:
        vs_hw = [c.t(w, s, 1, "nnc") / c.t(w, s, 1, "handwritten") for s in ("1M", "16M")]
        vs_eager = [c.t(w, s, 1, "torch-eager") / c.t(w, s, 1, "nnc") for s in ("1M", "16M")]
        lines.append(f"| {w} | {vs_hw[0]:.2f} | {vs_hw[1]:.2f} | "
                     f"{ratio(vs_eager[0])}× | {ratio(vs_eager[1])}× |")
    return "\n".join(lines)


# Why a workload misses the 1.25x target; said when it does.
MISS_REASONS = {
    "bias_gelu": ("`bias_gelu` is compute-bound: MLIR's polynomial `erf` costs "
                  "more per element than the loop's."),
    "softmax": ("`softmax` makes four passes over a row where the loop makes "
                "three: its exponentials go to a row buffer of their own, "
                "which its sum and its output read back (the loop sums them as "
                "it stores them into the output, then scales them there)."),
}
# What softmax's miss was due to in runs before SOFTMAX_EXP_ONCE_SINCE.
SOFTMAX_EXP_TWICE = (
    "`softmax` evaluated `exp` twice per element in this run (once in the row "
    "sum, once in the output, where the loop stores the exponentials and "
    "scales them in place) and propagates NaN through its max.")


def cpu_targets(c):
    out = []
    sizes, threads = ("1M", "16M"), (1, 2)

    # Faster than eager.
    margins = {(w, s, t): c.t(w, s, t, "torch-eager") / c.t(w, s, t, "nnc")
               for w in FUSED for s in sizes for t in threads}
    low = min(margins, key=margins.get)
    slower = [k for k, x in margins.items() if x <= 1]
    if not slower:
        out.append(
            f"- **Faster than eager PyTorch: reached on every pointwise and "
            f"reduction workload at 1M and 16M, on one and two threads** (`nnc`: "
            f"{span(margins.values(), ratio)}×; the smallest margin is `{low[0]}` "
            f"at {low[1]} on {threads_text(low[2])}).")
    else:
        out.append(
            "- **Faster than eager PyTorch: not reached** for " + ", ".join(
                f"`{w}` at {s} on {threads_text(t)} ({ratio(margins[(w, s, t)])}×)"
                for w, s, t in slower) + ".")

    # Within 1.25x of the loop.
    parts, missed = [], []
    for t in threads:
        vs = {w: c.t(w, "1M", t, "nnc") / c.t(w, "1M", t, "handwritten") for w in FUSED}
        yes = [w for w in FUSED if vs[w] <= TARGET_VS_LOOP]
        no = [w for w in FUSED if vs[w] > TARGET_VS_LOOP]
        missed += [w for w in no if w not in missed]
        text = f"on {threads_text(t)} "
        if yes:
            text += (f"reached for {code_list(yes)} "
                     f"({span([vs[w] for w in yes], lambda x: f'{x:.2f}')})")
        if no:
            text += (", " if yes else "") + "not for " + " nor ".join(
                f"`{w}` ({vs[w]:.2f})" for w in no)
        parts.append(text)
    old_softmax = c.env["date"] < SOFTMAX_EXP_ONCE_SINCE
    reasons = " ".join(
        SOFTMAX_EXP_TWICE if w == "softmax" and old_softmax else MISS_REASONS[w]
        for w in missed if w in MISS_REASONS)
    if "softmax" in missed and c.env["date"] < SOFTMAX_RECIPROCAL_SINCE:
        reasons += (" Since this run, the `softmax` output multiplies by the "
                    "row's reciprocal sum instead of dividing (as PyTorch's "
                    "kernel does); the results above predate that change.")
    if "softmax" in missed and old_softmax:
        reasons += (" Since this run, `softmax` computes `exp` once per element "
                    "(the row's exponentials kept in a row buffer on the "
                    "stack, summed, then scaled); the results above predate "
                    "that change too.")
    at16 = {t: [c.t(w, "16M", t, "nnc") / c.t(w, "16M", t, "handwritten") for w in FUSED]
            for t in threads}
    out.append(
        f"- **Within {TARGET_VS_LOOP}× of the hand-written loop at 1M** (`nnc`): "
        + "; ".join(parts) + "." + (" " + reasons if reasons else "")
        + f" At 16M the ratios range from "
        f"{span(at16[1], lambda x: f'{x:.2f}').replace('–', ' to ')} on one thread "
        f"and {span(at16[2], lambda x: f'{x:.2f}').replace('–', ' to ')} on two, "
        f"with the bandwidth noise above.")

    # Fusion against unfused.
    def unfused(w, s):
        return ratio(c.t(w, s, 1, "unfused") / c.t(w, s, 1, "nnc"))
    out.append(
        f"- **Fusion against the unfused baseline** (one thread): every op of "
        f"`ratio_iou` in its own loop nest costs {unfused('ratio_iou', '1M')}× the "
        f"fused nest (`nnc`) at 1M and {unfused('ratio_iou', '16M')}× at 16M (every "
        f"intermediate tensor written and read back instead of none); `gelu` "
        f"{unfused('gelu', '1M')}×, `lerp` {unfused('lerp', '1M')}×, `bias_gelu` "
        f"{unfused('bias_gelu', '1M')}× at 1M. `softmax` and `layer_norm` are one "
        f"op each, fused within themselves in every variant, so all variants run "
        f"the same code there.")

    # Threads.
    def speedup(w, s):
        return c.t(w, s, 1, "nnc") / c.t(w, s, 2, "nnc")
    examples = ", ".join(
        f"`{w}` {us(c.t(w, '1M', 1, 'nnc'))} → {us(c.t(w, '1M', 2, 'nnc'))} µs"
        for w in ("ratio_iou", "lerp", "gelu"))
    out.append(
        f"- **Threads**: a second thread speeds the fused kernels (`nnc`) up "
        f"{span([speedup(w, '1M') for w in FUSED], ratio)}× at 1M ({examples}); "
        f"at 16M both threads share one memory bus "
        f"({span([speedup(w, '16M') for w in FUSED], ratio)}×).")

    # mlp.
    out.append(
        f"- **`mlp`** is a matmul benchmark: tsmlir's `linalg.matmul` lowered to "
        f"plain loops (`nnc`) takes {ms(c.t('mlp', '1M', 1, 'nnc'))} ms at 1M on "
        f"one thread, against {ms(c.t('mlp', '1M', 1, 'handwritten'))} ms for the "
        f"hand-written blocked loop ({ms(c.t('mlp', '1M', 2, 'nnc'))} against "
        f"{ms(c.t('mlp', '1M', 2, 'handwritten'))} ms on two threads); this "
        f"PyTorch build's BLAS-less `F.linear` takes "
        f"{ratio(c.t('mlp', '1M', 1, 'torch-eager') / c.t('mlp', '1M', 1, 'nnc'))}× "
        f"as long on one thread. It is not tiled for the caches yet.")

    # Cost with size.
    other = [w for w in FUSED if w not in MEMORY_BOUND]
    growth = {w: c.t(w, "16M", 1, "nnc") / c.t(w, "1M", 1, "nnc") for w in FUSED}
    out.append(
        f"- **Cost with size**: at 4K elements a call of `nnc` takes "
        f"{span([c.t(w, '4K', 1, 'nnc') for w in FUSED], us)} µs on one thread, "
        f"much of it fixed cost: argument packing and, with threads, the OpenMP "
        f"fork, which `ts-outer-parallel-loops` skips below 32768 iterations. From "
        f"1M to 16M (16× the elements, one thread) {code_list(other)} take "
        f"{span([growth[w] for w in other], ratio)}× the time, "
        f"{code_list(MEMORY_BOUND)} {span([growth[w] for w in MEMORY_BOUND], ratio)}×, "
        f"as their data leave the 32 MiB L3 cache and come from memory.")
    return "\n".join(out)


# --- The ahead-of-time compile-time table -----------------------------------


def aot_table(doc):
    """The rows of the table compile_time.py printed, as pasted under
    '## Ahead-of-time compile time'."""
    section = doc.split("## Ahead-of-time compile time", 1)
    if len(section) < 2:
        raise MissingData("no '## Ahead-of-time compile time' section")
    lines = section[1].split("\n## ", 1)[0].splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("| graph |")), None)
    if start is None:
        raise MissingData("no compile-time table ('| graph | ...')")
    header = [h.strip() for h in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [x.strip() for x in line.strip("|").split("|")]
        row = dict(zip(header, cells))
        for key, value in row.items():
            if key != "graph":
                row[key] = float(value)
        rows.append(row)
    return rows


def aot_summary(rows):
    synth = [r for r in rows if r["graph"].startswith("synthetic")]
    corpus = [r for r in rows if not r["graph"].startswith("synthetic")]
    if not synth or not corpus:
        raise MissingData("the compile-time table needs corpus and synthetic rows")
    big = max(synth, key=lambda r: r["nodes"])
    total = "text → .o (s)"
    emit = [100 * r["emit"] / r[total] for r in synth]
    sizes = [f"{int(r['nodes']):,}" for r in synth]
    return "\n".join([
        f"- **Import, prepare and lower stay small**: {big['import']:.2f} s to "
        f"import {int(big['nodes']):,} nodes; specialisation, optimisation and "
        f"fusion {big['prepare']:.2f} s; lowering to the LLVM dialect "
        + ", ".join(f"{r['lower']:.2f} s" for r in synth[:-1])
        + f" and {synth[-1]['lower']:.2f} s for " + ", ".join(sizes[:-1])
        + f" and {sizes[-1]} nodes.",
        f"- **LLVM's optimiser and code generator dominate** (`emit`: "
        f"{min(emit):.0f}% to {max(emit):.0f}% of the total on the synthetic "
        f"graphs): each fusion group is one loop nest whose body holds hundreds "
        f"of fused ops, and LLVM's -O3 pipeline (vectorisation of those bodies "
        f"included) grows faster than linearly with the body's size. clang on the "
        f"same IR, already optimised once, takes less time, hence ratios of "
        f"{min(r['ratio'] for r in synth):.2f} to {max(r['ratio'] for r in synth):.2f}.",
        f"- The corpus's largest graphs (at most {int(max(r['nodes'] for r in corpus))} "
        f"nodes) compile in {min(r[total] for r in corpus):.2f} to "
        f"{max(r[total] for r in corpus):.2f} s.",
    ])


# --- GPU (the check kit's benchmark) ---------------------------------------


def gpu_section(data):
    """The kit's benchmark on one GPU: versions, copy bandwidth, a table at
    the smallest and largest sizes, the geometric means, and what they say
    about the targets (90% of copy for pointwise, 80% for row-wise, at
    >= 16M; at least torch.compile's speed)."""
    env = data["environment"]
    recs = [r for r in data["records"] if "median_us" in r and r.get("check") == "ok"]
    by = {(r["workload"], r["size"], r["variant"]): r for r in recs}
    sizes = sorted({r["size"] for r in recs}, key=lambda s: int(s[:-1]))
    big, small = sizes[-1], sizes[0]
    ref = next(c for c in data["copy"] if c.get("reference"))
    copy16 = next((c for c in data["copy"] if c["size"] == "16M"), None)
    workloads = list(dict.fromkeys(r["workload"] for r in recs))
    means = data["geomeans"]
    n_cases = means["tsmlir"]["cases"]
    lines = [
        f"`kit/run.sh` ran `{env['command']}` on an {env['gpu']} (driver "
        f"{env['driver']}), PyTorch {env['torch']}, Triton {env['triton']}, tsmlir "
        f"{env['tsmlir'].replace('-dirty', '')} (PTX for sm_90). Copy bandwidth: "
        f"{ref['gbps']:.0f} GB/s at {ref['size']} elements"
        + (f" ({copy16['gbps']:.0f} at 16M)." if copy16 else ".")
        + " Every output of every variant matched eager PyTorch's.",
        "",
        "| workload | size | eager us | torch.compile us | tsmlir us | tsmlir % of copy |",
        "|---|---|---:|---:|---:|---:|"]
    for w in workloads:
        for size in (small, "16M", big):
            t = by.get((w, size, "tsmlir"))
            e, c = by.get((w, size, "torch-eager")), by.get((w, size, "torch-compile"))
            if not t or not e or not c:
                continue
            lines.append(f"| {w} | {size} | {e['median_us']:.1f} | {c['median_us']:.1f} | "
                         f"{t['median_us']:.1f} | {100 * t['copy_fraction']:.0f} |")
    tc = means["torch-compile"]["geomean"]
    lines += ["",
              f"Geometric mean over the {n_cases} (workload, size) cases of time / "
              f"tsmlir's: eager {means['torch-eager']['geomean']:.3f}, torch.compile "
              f"{tc:.3f} (torch.compile is {'faster' if tc < 1 else 'slower'} by "
              f"{abs(1 - tc) * 100:.0f}%). What it says:", ""]
    pct = lambda x: f"{x:.0f}"  # noqa: E731
    one = lambda x: f"{x:.1f}"  # noqa: E731
    frac = lambda w, size: by[(w, size, "tsmlir")]["copy_fraction"]  # noqa: E731
    pointwise = [w for w in ("lerp", "gelu", "bias_gelu") if (w, big, "tsmlir") in by]
    rowwise = [w for w in ("softmax", "layer_norm") if (w, big, "tsmlir") in by]
    small_times = [by[(w, small, "tsmlir")]["median_us"] for w in workloads
                   if (w, small, "tsmlir") in by]
    at_least_16m = [size for size in sizes if int(size[:-1]) >= 16]

    def target(names, goal):
        cases = [(w, size) for w in names for size in at_least_16m
                 if (w, size, "tsmlir") in by]
        below = [f"{w} {size} {math.floor(1000 * frac(w, size)) / 10:.1f}%" for w, size in cases
                 if frac(w, size) < goal]
        return len(cases) - len(below), len(cases), below

    if pointwise:
        met, total, below = target(pointwise + (["ratio_iou"] if ("ratio_iou", big, "tsmlir") in by else []), 0.9)
        lines.append(
            f"- Pointwise kernels reach {span([100 * frac(w, big) for w in pointwise], pct)}% "
            f"of the copy bandwidth at {big} elements ({', '.join(pointwise)}) and "
            f"{span([100 * frac(w, '16M') for w in pointwise], pct)}% at 16M; "
            f"{met} of {total} pointwise cases at 16M or more reach the 90% target"
            + (f" (below: {', '.join(below)}). At 16M the copy itself reaches "
               f"{100 * copy16['gbps'] / ref['gbps']:.0f}% of the reference, and a "
               f"call's fixed cost ({span(small_times, one)} us for a whole call at "
               f"{small}) is close to a kernel's time." if below and copy16 else
               f" (below: {', '.join(below)})." if below else "."))
    if ("ratio_iou", big, "tsmlir") in by:
        r = by[("ratio_iou", big, "tsmlir")]
        c = by[("ratio_iou", big, "torch-compile")]
        lines.append(
            f"- ratio_iou reads the columns of [N/4, 4] boxes as whole rows (one "
            f"128-bit load a box, a point a thread): "
            f"{100 * frac('ratio_iou', big):.0f}% of the copy bandwidth at {big}, "
            f"{c['median_us'] / r['median_us']:.2f} times torch.compile's speed.")
    if rowwise:
        met, total, below = target(rowwise, 0.8)
        lines.append(
            f"- softmax and layer_norm (a row in registers, read from memory once) "
            f"reach {span([100 * frac(w, big) for w in rowwise], pct)}% at {big}, against "
            f"{span([100 * by[(w, big, v)]['copy_fraction'] for w in rowwise for v in ('torch-eager', 'torch-compile')], pct)}% "
            f"for eager PyTorch and torch.compile; {met} of {total} cases at 16M or "
            f"more reach the 80% target"
            + (f" (below: {', '.join(below)})." if below else "."))
    fastest = [w for w in workloads if (w, small, "tsmlir") in by and all(
        by[(w, small, "tsmlir")]["median_us"] <= by[(w, small, v)]["median_us"]
        for v in ("torch-eager", "torch-compile") if (w, small, v) in by)]
    if fastest:
        lines.append(f"- At {small} elements tsmlir is the fastest variant on "
                     f"{', '.join(fastest)}.")
    return "\n".join(lines)


# --- The document -----------------------------------------------------------

CPU_SECTIONS = {
    "cpu-run": cpu_run,
    "cpu-mlp-size": cpu_mlp_size,
    "cpu-results-header": cpu_results_header,
    "cpu-tables": cpu_tables,
    "cpu-references": cpu_references,
    "cpu-noise": cpu_noise,
    "cpu-targets-table": cpu_targets_table,
    "cpu-targets": cpu_targets,
}
OTHER_SECTIONS = {
    "kernels": report_models.kernels_section,
    "models": report_models.models_section,
}
SECTIONS = (list(CPU_SECTIONS) + ["aot-summary"] + list(GPU_RESULTS) +
            list(OTHER_SECTIONS))


def source(name, results_path):
    """Where a section's figures come from, for messages."""
    if name == "aot-summary":
        return "the compile-time table above it"
    if name in GPU_RESULTS:
        return os.path.relpath(GPU_RESULTS[name], ROOT)
    if name in OTHER_RESULTS:
        return os.path.relpath(OTHER_RESULTS[name], ROOT)
    return os.path.relpath(results_path, ROOT) if results_path.startswith(ROOT) \
        else results_path


def render_all(doc, results_path):
    """{section name: rendered text} from the results and the doc's AOT table."""
    with open(results_path) as f:
        cpu = Cpu(json.load(f))
    out = {name: fn(cpu) for name, fn in CPU_SECTIONS.items()}
    out["aot-summary"] = aot_summary(aot_table(doc))
    for name, path in GPU_RESULTS.items():
        with open(path) as f:
            out[name] = gpu_section(json.load(f))
    for name, fn in OTHER_SECTIONS.items():
        with open(OTHER_RESULTS[name]) as f:
            out[name] = fn(json.load(f))
    return out


def parse(doc):
    """The generated sections: a list of (name, start line, end line, body),
    the body being the lines between the markers. Raises ValueError on
    malformed markers."""
    lines = doc.split("\n")
    found, i = [], 0
    while i < len(lines):
        if lines[i].startswith("<!-- BEGIN generated"):
            m = BEGIN.match(lines[i])
            if not m:
                raise ValueError(f"line {i + 1}: malformed marker: {lines[i]}")
            j = next((k for k in range(i + 1, len(lines))
                      if lines[k] == END or lines[k].startswith("<!-- BEGIN")), None)
            if j is None or lines[j] != END:
                raise ValueError(f"line {i + 1}: section '{m.group(1)}' has no "
                                 f"'{END}' before the next section or the end")
            found.append((m.group(1), i, j, "\n".join(lines[i + 1:j])))
            i = j
        elif lines[i] == END:
            raise ValueError(f"line {i + 1}: '{END}' without a BEGIN marker")
        i += 1
    return found


WIDTH = 76


def wrap(text):
    """Fills paragraphs and list items to WIDTH columns, as the rest of the
    doc is; tables and headings stay as they are."""
    out = []
    for line in text.split("\n"):
        if not line or line.startswith(("|", "**", "#")):
            out.append(line)
        elif line.startswith("- "):
            out.append(textwrap.fill(line[2:], WIDTH, initial_indent="- ",
                                     subsequent_indent="  ", break_long_words=False,
                                     break_on_hyphens=False))
        else:
            out.append(textwrap.fill(line, WIDTH, break_long_words=False,
                                     break_on_hyphens=False))
    return "\n".join(out)


def body(text):
    return "\n" + wrap(text) + "\n"


def begin_marker(name):
    return f"<!-- BEGIN generated: {name} ({TOOL}) -->"


# Figures the hand-written text may quote: settings and targets, not
# measurements.
ALLOWED_FIGURES = {
    "1.25×",   # the target
    "0.2 s",   # --target-seconds
}
FIGURE = re.compile(r"\b\d[\d,.]*\s?(?:µs|us|ms|s|GB/s|GFLOP/s|×|%)(?![\w/])")


def stray_figures(doc, sections):
    """Measurement-like figures in the hand-written prose (outside generated
    sections, tables and code blocks): a list of (line number, figure)."""
    inside = set()
    for _, start, end, _ in sections:
        inside.update(range(start, end + 1))
    found, fence = [], False
    for i, line in enumerate(doc.split("\n")):
        if line.startswith("```"):
            fence = not fence
        if fence or i in inside or line.lstrip().startswith("|"):
            continue
        for m in FIGURE.finditer(line):
            if m.group(0) not in ALLOWED_FIGURES:
                found.append((i + 1, m.group(0)))
    return found


def check(doc_path, results_path):
    with open(doc_path) as f:
        doc = f.read()
    rel = os.path.relpath(doc_path, ROOT) if doc_path.startswith(ROOT) else doc_path
    try:
        sections = parse(doc)
    except ValueError as e:
        print(f"{rel}: {e}")
        return 1
    rendered = render_all(doc, results_path)
    errors = 0
    names = [s[0] for s in sections]
    for name in SECTIONS:
        if names.count(name) != 1:
            print(f"{rel}: generated section '{name}' appears {names.count(name)} "
                  f"times (expected once)")
            errors += 1
    for name, start, _, text in sections:
        if name not in rendered:
            print(f"{rel}:{start + 1}: unknown generated section '{name}'")
            errors += 1
            continue
        want = body(rendered[name])
        if text != want:
            print(f"{rel}:{start + 1}: generated section '{name}' differs from what "
                  f"{source(name, results_path)} gives (update it with {TOOL} --write):")
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(True), want.splitlines(True),
                f"{rel} ({name})", f"rendered ({name})"))
            print()
            errors += 1
    for line, figure in stray_figures(doc, sections):
        print(f"{rel}:{line}: '{figure}' outside a generated section: a measured "
              f"figure belongs in one ({TOOL})")
        errors += 1
    if errors:
        print(f"{rel}: {errors} problem(s)")
        return 1
    print(f"{rel}: {len(sections)} generated sections match "
          f"{os.path.relpath(results_path, ROOT)}, the compile-time table and "
          f"{', '.join(os.path.relpath(p, ROOT) for p in [*GPU_RESULTS.values(), *OTHER_RESULTS.values()])}")
    return 0


def write(doc_path, results_path):
    """Rewrites the generated sections of doc_path. Returns the names of the
    sections that changed."""
    with open(doc_path) as f:
        doc = f.read()
    sections = parse(doc)
    rendered = render_all(doc, results_path)
    lines = doc.split("\n")
    changed = []
    for name, start, end, text in reversed(sections):
        if name not in rendered:
            raise ValueError(f"unknown generated section '{name}'")
        want = body(rendered[name])
        if text != want:
            changed.append(name)
        lines[start:end + 1] = [begin_marker(name)] + want.split("\n") + [END]
    missing = [n for n in SECTIONS if n not in {s[0] for s in sections}]
    if missing:
        raise ValueError("no marker for: " + ", ".join(missing))
    new = "\n".join(lines)
    if new != doc:
        with open(doc_path, "w") as f:
            f.write(new)
    return list(reversed(changed))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true",
                      help="exit 1, printing a diff, when the doc's generated "
                           "sections differ from the results")
    mode.add_argument("--write", action="store_true",
                      help="rewrite the doc's generated sections")
    mode.add_argument("--print", metavar="SECTION", choices=SECTIONS,
                      help="print one rendered section")
    p.add_argument("--doc", default=DOC, help="default: docs/performance.md")
    p.add_argument("--results", default=CPU_RESULTS,
                   help="the CPU results (default: bench/cpu/results/results.json)")
    a = p.parse_args()
    doc_path, results_path = os.path.abspath(a.doc), os.path.abspath(a.results)
    try:
        if a.check:
            return check(doc_path, results_path)
        if a.write:
            changed = write(doc_path, results_path)
            print(f"{a.doc}: " + (f"rewrote {', '.join(changed)}" if changed
                                  else "generated sections already up to date"))
            return 0
        with open(doc_path) as f:
            print(wrap(render_all(f.read(), results_path)[a.print]))
        return 0
    except (MissingData, ValueError, OSError) as e:
        print(f"{TOOL}: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
