"""The sections of docs/performance.md on convolutions, matrix products and
whole models (bench/report_docs.py renders the doc; these render two of its
generated sections):

  kernels   from bench/kernels/results/results.json (bench/kernels/run.py)
  models    from bench/models/results/results.json (bench/models/run.py)

By arithmetic only: ratios, geometric means, ranges. Standard library only.
"""
import math

# The targets of these benchmarks.
GEMM_VS_OPENBLAS = 0.9   # GEMM at >= 90% of OpenBLAS's sgemm
CONV_VS_ONEDNN = 1.0     # convolutions at least as fast as oneDNN
MODELS_VS_FROZEN = 1.0   # every model at least PyTorch's frozen speed
MODELS_GEOMEAN = 1.3     # and a geometric mean of 1.3x
THREAD_SCALING = 1.7     # two threads at batch 8
COMPILE_SECONDS = 3.0    # every torchvision model compiles in under 3 s


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fmt_ratio(x):
    return f"{x:.2f}"


def fmt_us(x):
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}"


# --- bench/kernels ------------------------------------------------------------


def _time(row, variant):
    r = row["variants"].get(variant, {})
    if "error" in r or r.get("check") != "ok":
        return None
    return r["median_us"]


def kernel_ratio(row, baseline):
    """baseline time / tsmlir time, or None."""
    ours = _time(row, "tsmlir")
    if baseline == "onednn" and row["kind"] == "conv":
        times = [t for t in (_time(row, "onednn-conv"),
                             _time(row, "onednn-conv-plain")) if t]
        theirs = min(times) if times else None
    else:
        theirs = _time(row, {"onednn": "onednn-matmul",
                             "openblas": "openblas-sgemm"}[baseline])
    return theirs / ours if theirs and ours else None


def _cell(row, variant):
    r = row["variants"].get(variant, {})
    if "error" in r:
        return "failed"
    if r.get("check") != "ok":
        return r.get("check", "?").split(":")[0]
    return f"{fmt_us(r['median_us'])} ({r['gflops']:.0f})"


def kernels_section(data):
    rows = data["rows"]
    lines = []
    for kind, title, variants, baselines in (
            ("gemm", "GEMM, square [n, n] x [n, n]",
             ["tsmlir", "onednn-matmul", "openblas-sgemm"],
             ["openblas", "onednn"]),
            ("conv", "Convolutions of torchvision models (NCHW, frozen weights)",
             ["tsmlir", "onednn-conv", "onednn-conv-plain"], ["onednn"])):
        kind_rows = [r for r in rows if r["kind"] == kind]
        if not kind_rows:
            continue
        lines += [f"**{title}**", "",
                  "Median µs (GFLOP/s); the ratios are the baseline's time "
                  "over tsmlir's (above 1: tsmlir faster).", ""]
        lines.append("| case | shape | threads | " + " | ".join(variants) +
                     " | " + " | ".join(f"{b} / tsmlir" for b in baselines) +
                     " |")
        lines.append("|" + "---|" * (3 + len(variants) + len(baselines)))
        for r in kind_rows:
            ratios = [kernel_ratio(r, b) for b in baselines]
            lines.append(
                f"| {r['case']} | {r['shape']} | {r['threads']} | " +
                " | ".join(_cell(r, v) for v in variants) + " | " +
                " | ".join(fmt_ratio(x) if x else "-" for x in ratios) + " |")
        lines.append("")
        target_name, target = (("openblas", GEMM_VS_OPENBLAS) if kind == "gemm"
                               else ("onednn", CONV_VS_ONEDNN))
        for threads in sorted({r["threads"] for r in kind_rows}):
            values = [kernel_ratio(r, target_name) for r in kind_rows
                      if r["threads"] == threads]
            known = [v for v in values if v]
            if not known:
                continue
            low = min(known)
            below = [r["case"] for r, v in zip(
                [r for r in kind_rows if r["threads"] == threads], values)
                if v and v < target]
            verdict = ("meets the target" if not below and len(known) == len(values)
                       else "below the target for " + ", ".join(below) if below
                       else "some cases unmeasured")
            lines.append(f"- {kind}, {threads} thread{'s' if threads > 1 else ''}: "
                         f"{target_name} / tsmlir "
                         f"geomean {fmt_ratio(geomean(known))}, from "
                         f"{fmt_ratio(low)} to {fmt_ratio(max(known))} "
                         f"(target {target:.1f}): {verdict}.")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


# --- bench/models -------------------------------------------------------------


def _frozen_ratio(row):
    lib = row["library"]
    if lib.get("error") or not row.get("torch_frozen_us"):
        return None
    return row["torch_frozen_us"] / lib["us"]


def models_section(data):
    rows = data["rows"]
    size = rows[0]["size"] if rows else 0
    lines = [f"torchvision models, random weights, {size}x{size} images, "
             f"measured {data.get('date', '?')}; median µs of "
             "`tsmlir-run --benchmark` (library kernels) and of PyTorch's "
             "eager model and frozen TorchScript in the same run; the ratio is "
             "frozen over tsmlir (above 1: tsmlir faster).", "",
             "| model | batch | threads | eager | frozen | tsmlir | frozen / "
             "tsmlir | compile (s) | max rel. diff |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lib = r["library"]
        ok = not lib.get("error")
        x = _frozen_ratio(r)
        lines.append(
            f"| {r['model']} | {r['batch']} | {r['threads']} | "
            f"{fmt_us(r['torch_eager_us']) if r.get('torch_eager_us') else 'failed'} | "
            f"{fmt_us(r['torch_frozen_us']) if r.get('torch_frozen_us') else 'failed'} | "
            + (f"{fmt_us(lib['us'])}" if ok else "failed") + " | "
            + (fmt_ratio(x) if x else "-") + " | "
            + (f"{lib['compile_s']:.2f}" if ok else "-") + " | "
            + (f"{lib['rel_diff']:.1e}" if ok else "-") + " |")
    lines.append("")
    ratios = [x for x in map(_frozen_ratio, rows) if x]
    if ratios:
        slow = sorted({f"{r['model']} (batch {r['batch']}, {r['threads']} "
                       f"thread{'s' if r['threads'] > 1 else ''})"
                       for r in rows
                       if _frozen_ratio(r) and _frozen_ratio(r) < MODELS_VS_FROZEN})
        lines.append(
            f"- Frozen / tsmlir: geomean {fmt_ratio(geomean(ratios))} over "
            f"{len(ratios)} cases (target {MODELS_GEOMEAN}), lowest "
            f"{fmt_ratio(min(ratios))}; " +
            ("every case at least PyTorch's frozen speed." if not slow else
             "below PyTorch's frozen speed: " + ", ".join(slow) + "."))
    scaling = []
    for r in rows:
        if r["threads"] != 2 or r["batch"] != 8 or r["library"].get("error"):
            continue
        one = next((o for o in rows if o["model"] == r["model"] and
                    o["batch"] == 8 and o["threads"] == 1 and
                    not o["library"].get("error")), None)
        if one:
            scaling.append((r["model"], one["library"]["us"] / r["library"]["us"]))
    if scaling:
        below = [f"{m} {fmt_ratio(s)}" for m, s in scaling if s < THREAD_SCALING]
        lines.append(
            f"- Two threads at batch 8 (tsmlir, one thread's time over two's): "
            f"{', '.join(f'{m} {fmt_ratio(s)}' for m, s in scaling)} (target "
            f"{THREAD_SCALING}); " +
            ("every model meets it." if not below else
             f"{len(below)} of {len(scaling)} below it."))
    compile_s = [(r["model"], r["library"]["compile_s"]) for r in rows
                 if not r["library"].get("error")]
    if compile_s:
        over = {}
        for model, t in compile_s:
            if t >= COMPILE_SECONDS:
                over.setdefault(model, []).append(t)
        within = sorted({m for m, _ in compile_s} - set(over))
        lines.append(
            f"- Compile time (`tsmlir-run`'s \"compiled in\", archive to "
            f"runnable code), target under {COMPILE_SECONDS:.0f} s: " +
            (f"{len(within)} of {len(within) + len(over)} models within it"
             if within else "no model within it") +
            ("" if not over else "; over it: " + ", ".join(
                f"{m} {min(ts):.1f}–{max(ts):.1f} s" for m, ts in over.items()))
            + ".")
    return "\n".join(lines)
