#!/usr/bin/env python3
"""GPU benchmark of compiled TorchScript graphs: tsmlir-run --device cuda
against eager PyTorch, TorchScript's GPU fuser and torch.compile.

All in one run, so that the ratios compare like with like:

  copy            dst.copy_(src) on float32 tensors, per size and at the
                  reference size (the largest size, at least 64M): the
                  device's achievable bandwidth, measured first
  torch-eager     the workload's Python function on CUDA tensors
  torchscript     torch.jit.script, profiling executor (warmed up past its
                  profiling calls), with the GPU fuser this PyTorch has on
  torch-compile   torch.compile, default mode, static shapes (no CUDA graphs:
                  only mode="reduce-overhead" uses them)
  tsmlir          tsmlir-run CASE/graph.txt --device cuda --input ...
                  --benchmark N --output-dir DIR, which prints
                  `benchmark: N runs, median X us, min Y us (cuda events, K
                  kernels per call)` and writes DIR/out0.npy; or, with
                  --aot DIR, the model that `tsmlir-compile --target cuda
                  --shared` wrote for the case (DIR/WORKLOAD-SIZE.so), called
                  in this process through the tsmlir Python package on the
                  same CUDA tensors as the PyTorch variants and timed as
                  they are (what scripts/gpu-kit.sh ships: no LLVM needed)

The workloads and their inputs are bench/cpu/workloads.py's (cached in
--work-dir). The PyTorch variants run in this process: warm-up calls, then
N calls each between two CUDA events, median and minimum; once all variants
of a case are timed, one more call of each under torch.profiler counts the
kernels it launches. Every output (tsmlir's out0.npy included) is compared
with eager PyTorch's on the GPU, with a tolerance per workload (TOLERANCES);
a mismatch is a WRONG row, left out of the summaries like a FAILED one.

Per row: median time, GB/s of the minimum traffic (input bytes + output
bytes) / median time, that as a fraction of the copy bandwidth, kernels per
call, time relative to tsmlir. Summary: per variant the geometric mean over
(workload, size) of its time relative to tsmlir, and PASS/FAIL lines for
the targets (TARGETS). Writes RESULTS.md and RESULTS.json (default
bench/gpu/results/<gpu-name>), the command and versions at the top.

    python3 bench/gpu/run.py --quick          # 1M and 16M, 20 runs
    python3 bench/gpu/run.py --dry-run        # the plan; needs no GPU

bench/gpu/run.sh fills in tsmlir-run's path from $TSMLIR_BUILD_DIR.
"""

import os

# Kineto keeps CUPTI attached after a torch.profiler session unless this is
# 1, which slows every later kernel launch of the process; the kernel counts
# would then tax the timings of the cases after them. (The teardown is unsafe
# only with CUDA graphs, which no variant uses.)
os.environ.setdefault("TEARDOWN_CUPTI", "1")

import argparse  # noqa: E402 (after the environment above)
import datetime
import json
import math
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "cpu"))
sys.path.insert(0, os.path.join(ROOT, "python"))
import workloads  # noqa: E402 (bench/cpu on the path first)

VARIANTS = ("torch-eager", "torchscript", "torch-compile", "tsmlir")
DEFAULT_WORKLOADS = ("ratio_iou", "lerp", "gelu", "bias_gelu", "softmax", "layer_norm")
DEFAULT_SIZES, QUICK_SIZES = "1M,16M,64M,256M", "1M,16M"
M = 1 << 20
COPY_REFERENCE_MIN = 64 * M  # smallest copy that is well past any GPU's L2
# Device bytes a case needs, per byte of its minimum traffic: this process
# holds the inputs, the eager output, a variant's output and the comparison's
# temporaries; tsmlir-run holds its own inputs and outputs.
MEMORY_FACTOR = 4
# Calls of a TorchScript function before it runs its optimised (fused) graph.
PROFILING_CALLS = 3

# (rtol, atol) against eager PyTorch's output on the same GPU.
DEFAULT_TOLERANCE = (1e-4, 1e-5)
TOLERANCES = {
    # erf has no single float32 implementation (libdevice's erff in eager and
    # Triton, a polynomial in generated code); their absolute errors, up to
    # ~1e-6, are scaled by 0.5*|x| (|x| up to ~12 for 2*randn at 256M), and
    # where 1 + erf(x) cancels (x << 0) the result is tiny, so rtol cannot
    # absorb them: atol is widened, still far below what a wrong kernel gives.
    "gelu": (1e-4, 5e-5),
    "bias_gelu": (1e-4, 5e-5),
    # Outputs are about 1/1024: atol 1e-5 would let 1% errors through.
    "softmax": (1e-4, 1e-6),
    # 256-term dot products: the summation order differs between kernels.
    "mlp": (1e-3, 1e-4),
}

# (label, workloads, minimum fraction of the copy bandwidth) for tsmlir at
# TARGET_MIN_SIZE elements and above.
TARGETS = (
    ("pointwise", ("ratio_iou", "lerp", "gelu", "bias_gelu"), 0.90),
    ("row-wise", ("softmax", "layer_norm"), 0.80),
)
TARGET_MIN_SIZE = 16 * M

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
BENCHMARK_LINE = re.compile(
    rf"benchmark:\s*(\d+)\s*runs?\s*,\s*median\s*({NUMBER})\s*[uµ]s\s*,"
    rf"\s*min\s*({NUMBER})\s*[uµ]s(?:\s*\(([^)]*)\))?", re.IGNORECASE)
KERNELS = re.compile(r"(\d+)\s*kernels?", re.IGNORECASE)
EXPECTED_LINE = ("benchmark: N runs, median X us, min Y us "
                 "(cuda events, K kernels per call)")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workloads", default=",".join(DEFAULT_WORKLOADS),
                   help="comma-separated (default: %(default)s)")
    p.add_argument("--sizes", help=f"elements, comma-separated (default: {DEFAULT_SIZES})")
    p.add_argument("--variants", default=",".join(VARIANTS),
                   help="comma-separated, of %(default)s")
    p.add_argument("--quick", action="store_true",
                   help=f"sizes {QUICK_SIZES} (unless --sizes), 20 runs, 3 warm-up calls")
    p.add_argument("--runs", type=int, help="timed calls per variant (default 100)")
    p.add_argument("--warmup", type=int, help="warm-up calls per variant (default 10)")
    p.add_argument("--timeout", type=float, default=600,
                   help="seconds per tsmlir-run invocation (default %(default)s)")
    p.add_argument("--tsmlir-run", default=os.path.join(ROOT, "build", "bin", "tsmlir-run"))
    p.add_argument("--aot", metavar="DIR",
                   help="time the shared models DIR/WORKLOAD-SIZE.so (tsmlir-compile "
                        "--target cuda --shared) in this process instead of tsmlir-run")
    p.add_argument("--work-dir", default=os.path.join(ROOT, "build", "bench-gpu", "cases"),
                   help="where the graphs and inputs are written (cached)")
    p.add_argument("--results", help="writes RESULTS.md and RESULTS.json "
                   "(default: bench/gpu/results/<gpu-name>)")
    p.add_argument("--no-kernel-count", dest="kernel_count", action="store_false",
                   help="do not run torch.profiler (kernels per call of the "
                        "PyTorch variants)")
    p.add_argument("--dry-run", action="store_true",
                   help="measure nothing: prepare the smallest size's cases and "
                        "print the plan and the tsmlir-run command lines")
    a = p.parse_args()
    a.sizes = a.sizes or (QUICK_SIZES if a.quick else DEFAULT_SIZES)
    a.runs = a.runs or (20 if a.quick else 100)
    a.warmup = a.warmup if a.warmup is not None else (3 if a.quick else 10)
    a.sizes = sorted({workloads.parse_size(s) for s in a.sizes.split(",")})
    a.workloads = a.workloads.split(",")
    for name in a.workloads:
        if name not in workloads.WORKLOADS:
            p.error(f"unknown workload {name} (of {', '.join(workloads.WORKLOADS)})")
    for v in a.variants.split(","):
        if v not in VARIANTS:
            p.error(f"unknown variant {v} (of {', '.join(VARIANTS)})")
    a.variants = [v for v in VARIANTS if v in a.variants.split(",")]  # in run order
    return a


def shown(path_or_cmd):
    """A path or a command line with the repository's root left out."""
    text = path_or_cmd if isinstance(path_or_cmd, str) else " ".join(path_or_cmd)
    return text.replace(ROOT + os.sep, "")


# --- Timing ---------------------------------------------------------------


def time_cuda(fn, runs, warmup):
    """Calls fn() `warmup` times, then `runs` times each between two CUDA
    events on the current stream (no synchronisation between calls). Returns
    (median us, min us)."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(runs)]
    for start, end in events:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    times = [start.elapsed_time(end) * 1e3 for start, end in events]  # ms -> us
    return statistics.median(times), min(times)


def count_kernels(fn):
    """Kernels (and memcpy/memset operations) one call of fn() puts on the
    GPU, from torch.profiler's CUDA activity."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    gpu = [e.name for e in prof.events() if e.device_type == DeviceType.CUDA]
    memops = sum(1 for name in gpu if name.startswith(("Memcpy", "Memset")))
    return len(gpu) - memops, memops


def gbps(nbytes, us):
    return nbytes / (us * 1e-6) / 1e9


# --- Copy bandwidth -------------------------------------------------------


def free_device_bytes():
    torch.cuda.empty_cache()
    return torch.cuda.mem_get_info()[0]


def measure_copy(n, a):
    """dst.copy_(src) on n float32 elements: median us and GB/s of 2*n*4
    bytes. None when the two tensors do not fit."""
    if 2 * n * 4 > 0.9 * free_device_bytes():
        return None
    src = torch.randn(n, device="cuda")
    dst = torch.empty_like(src)
    median, minimum = time_cuda(lambda: dst.copy_(src), a.runs, a.warmup)
    return {"n": n, "size": workloads.size_label(n), "bytes": 2 * n * 4,
            "median_us": median, "min_us": minimum, "gbps": gbps(2 * n * 4, median)}


def measure_copies(a):
    """The copy at every size and at the reference size (the largest, at
    least COPY_REFERENCE_MIN, halved until it fits). Returns (records, the
    reference record)."""
    records = {}
    for n in a.sizes:
        r = measure_copy(n, a)
        if r:
            records[n] = r
        print(f"copy {workloads.size_label(n)}: " + (
            f"{r['median_us']:.1f} us, {r['gbps']:.1f} GB/s" if r else
            "skipped (does not fit in free GPU memory)"), flush=True)
    n = max(max(a.sizes), COPY_REFERENCE_MIN)
    while n not in records and n >= M:
        r = measure_copy(n, a)
        if r:
            records[n] = r
            print(f"copy {r['size']} (reference): {r['median_us']:.1f} us, "
                  f"{r['gbps']:.1f} GB/s", flush=True)
        else:
            n //= 2
    if n not in records:
        raise SystemExit("not even a 1M-element copy fits in free GPU memory")
    ref = dict(records[n], reference=True)
    records[n] = ref
    return [records[k] for k in sorted(records)], ref


# --- The variants ---------------------------------------------------------


def torchscript_fuser():
    """Which TorchScript fuser is on for CUDA tensors in this PyTorch."""
    def flag(name):
        try:
            return getattr(torch._C, name)()
        except (AttributeError, RuntimeError):  # not in this PyTorch
            return None
    state = {"texpr_fuser_enabled": flag("_jit_texpr_fuser_enabled"),
             "can_fuse_on_gpu": flag("_jit_can_fuse_on_gpu"),
             "nvfuser_enabled": flag("_jit_nvfuser_enabled")}
    if state["nvfuser_enabled"]:
        state["active"] = "nvfuser"
    elif state["texpr_fuser_enabled"] and state["can_fuse_on_gpu"] is not False:
        state["active"] = "NNC (TensorExpr)"
    else:
        state["active"] = "none"
    return state


FUSION_GROUP_KINDS = ("prim::TensorExprGroup", "prim::CudaFusionGroup", "prim::FusionGroup")


def fusion_groups(block):
    """Fusion groups in an optimised graph, nested blocks included."""
    return sum((node.kind() in FUSION_GROUP_KINDS)
               + sum(fusion_groups(b) for b in node.blocks())
               for node in block.nodes())


def torch_callable(variant, name):
    fn = workloads.WORKLOADS[name][0]
    if variant == "torch-eager":
        return fn
    if variant == "torchscript":
        return workloads.script(name)
    import torch._dynamo  # PyTorch 2: torch.compile
    torch._dynamo.reset()  # a fresh, static-shape compilation for this case
    return torch.compile(fn, dynamic=False)


def run_torch(variant, name, args, ref, a):
    """A PyTorch variant in this process: time and output check. Returns the
    record and the warmed-up callable (for count_kernels, later)."""
    r = {}
    with torch.no_grad():
        fn = torch_callable(variant, name)
        start = time.perf_counter()
        for _ in range(PROFILING_CALLS if variant != "torch-eager" else 1):
            fn(*args)  # torch.compile compiles, TorchScript profiles
        torch.cuda.synchronize()
        r["first_calls_s"] = time.perf_counter() - start
        r["median_us"], r["min_us"] = time_cuda(lambda: fn(*args), a.runs, a.warmup)
        r["runs"] = a.runs
        out = fn(*args)
        if variant == "torchscript":
            r["fusion_groups"] = fusion_groups(torch.jit.last_executed_optimized_graph())
        r["check"] = compare(out, ref, tolerance(name))
    return r, fn


def tsmlir_command(a, case_dir, meta, out_dir):
    """tsmlir-run's command line for a case, inputs in argument order
    (scalars in place), as bench/cpu/run.py builds it."""
    return ([a.tsmlir_run, os.path.join(case_dir, "graph.txt"), "--device", "cuda"]
            + workloads.cli_inputs(meta, case_dir)
            + ["--benchmark", str(a.runs), "--output-dir", out_dir])


def parse_benchmark_line(stdout):
    """median_us, min_us, runs, kernels and timing (the parenthesis) from
    tsmlir-run's `benchmark:` line; None when there is none."""
    m = BENCHMARK_LINE.search(stdout)
    if not m:
        return None
    r = {"runs": int(m.group(1)), "median_us": float(m.group(2)),
         "min_us": float(m.group(3)), "timing": (m.group(4) or "").strip()}
    k = KERNELS.search(r["timing"])
    if k:
        r["kernels"] = int(k.group(1))
    return r


def aot_model_path(a, name, n):
    return os.path.join(a.aot, f"{name}-{workloads.size_label(n)}.so")


def run_tsmlir_aot(a, name, n, args, ref):
    """The case's ahead-of-time model, called through the tsmlir package on
    the CUDA tensors `args` (no copies: the model reads them in place and
    writes an output it was given), timed like the PyTorch variants. Each
    call queues its kernels on PyTorch's current stream and returns without
    waiting, as PyTorch's ops do. Returns the record and the bound call."""
    import tsmlir
    path = aot_model_path(a, name, n)
    if not os.path.exists(path):
        return {"error": f"no model {shown(path)} (scripts/gpu-kit.sh builds them)"}, None
    start = time.perf_counter()
    call = tsmlir.load(path).entry().bind(*args)
    out = call()
    torch.cuda.synchronize()
    r = {"first_calls_s": time.perf_counter() - start, "command": shown(path),
         "timing": "cuda events, in process"}
    r["median_us"], r["min_us"] = time_cuda(call, a.runs, a.warmup)
    r["runs"] = a.runs
    r["check"] = compare(out, ref, tolerance(name))
    return r, lambda *_: call()


def run_tsmlir(a, case_dir, meta, ref):
    """tsmlir-run --device cuda --benchmark N on a case; checks its out0.npy."""
    out_dir = tempfile.mkdtemp(prefix="out-tsmlir-", dir=case_dir)
    cmd = tsmlir_command(a, case_dir, meta, out_dir)
    try:
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {a.timeout:.0f} s", "command": shown(cmd)}
        if p.returncode != 0:
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            return {"error": (lines[0] if lines else f"exit status {p.returncode}")[:200],
                    "command": shown(cmd)}
        r = parse_benchmark_line(p.stdout)
        if r is None:
            return {"error": f"no '{EXPECTED_LINE}' line on tsmlir-run's stdout",
                    "command": shown(cmd)}
        r["command"] = shown(cmd)
        path = os.path.join(out_dir, "out0.npy")
        if os.path.exists(path):
            out = torch.from_numpy(np.load(path)).to(ref.device)
            r["check"] = compare(out, ref, tolerance(meta["workload"]))
        else:
            r["check"] = "WRONG: no out0.npy written"
        return r
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


# --- Checking -------------------------------------------------------------


def tolerance(name):
    return TOLERANCES.get(name, DEFAULT_TOLERANCE)


def compare(out, ref, tol):
    """'ok' when out matches eager's ref (both tensors on the GPU) within
    tol = (rtol, atol), else 'WRONG: ' and what differs."""
    if not torch.is_tensor(out):
        return f"WRONG: a {type(out).__name__}, eager a tensor"
    if tuple(out.shape) != tuple(ref.shape):
        return f"WRONG: shape {list(out.shape)}, eager {list(ref.shape)}"
    if out.dtype != ref.dtype:
        return f"WRONG: dtype {out.dtype}, eager {ref.dtype}"
    close = torch.isclose(out, ref, rtol=tol[0], atol=tol[1], equal_nan=True)
    bad = int((~close).sum())
    if bad == 0:
        return "ok"
    diff = float((out - ref).abs().max())
    return f"WRONG: {bad} of {ref.numel()} differ, max abs diff {diff:.3g}"


def first_line(e):
    text = str(e).strip()
    return (text.splitlines()[0] if text else type(e).__name__)[:200]


# --- The run --------------------------------------------------------------


def measure_case(name, n, a, copy_ref):
    """Every variant on one (workload, size). Returns its records, or one
    record with `skipped` when it does not fit in GPU memory."""
    label = workloads.size_label(n)
    base = {"workload": name, "size": label, "n": n}
    case_dir = os.path.join(a.work_dir, name, label)
    try:
        # Ahead-of-time models need no files: their inputs come from here.
        args, meta = ((workloads.make_inputs(name, n), None) if a.aot
                      else workloads.prepare(name, n, case_dir))
    except ValueError as e:
        return [dict(base, skipped=str(e))]
    tensors = [v for v in args if torch.is_tensor(v)]
    need = MEMORY_FACTOR * (workloads.nbytes(args) + max(workloads.nbytes([t]) for t in tensors))
    free = free_device_bytes()
    if need > free:
        return [dict(base, skipped=f"needs about {need / 2**30:.1f} GiB of GPU memory, "
                     f"{free / 2**30:.1f} GiB free")]
    args = [v.cuda() if torch.is_tensor(v) else v for v in args]
    with torch.no_grad():
        ref = workloads.WORKLOADS[name][0](*args)
    base["bytes"] = workloads.nbytes(args) + ref.numel() * ref.element_size()
    records, callables = [], {}
    for variant in a.variants:
        try:
            if variant == "tsmlir" and a.aot:
                r, callables[variant] = run_tsmlir_aot(a, name, n, args, ref)
                if callables[variant] is None:
                    del callables[variant]
            elif variant == "tsmlir":
                r = run_tsmlir(a, case_dir, meta, ref)
            else:
                r, callables[variant] = run_torch(variant, name, args, ref, a)
        except Exception as e:  # noqa: BLE001 - a failed variant is a table row
            r = {"error": first_line(e)}
        r.update(base, variant=variant)
        if "median_us" in r:
            r["gbps"] = gbps(r["bytes"], r["median_us"])
            r["copy_fraction"] = r["gbps"] / copy_ref["gbps"]
        records.append(r)
        torch.cuda.empty_cache()  # room for tsmlir-run's own allocations
    # Profiled last, so that no timed call of the case runs under or after it.
    for r in records:
        if r["variant"] in callables and a.kernel_count:
            try:
                with torch.no_grad():
                    r["kernels"], r["memops"] = count_kernels(
                        lambda: callables[r["variant"]](*args))
            except Exception as e:  # noqa: BLE001 - the time stands without the count
                r["kernels_error"] = first_line(e)
    tsmlir = next((r for r in records if r["variant"] == "tsmlir" and ok(r)), None)
    for r in records:
        if tsmlir and "median_us" in r:
            r["vs_tsmlir"] = r["median_us"] / tsmlir["median_us"]
        print(progress_line(r), flush=True)
    return records


def measure(a, copy_ref):
    records = []
    for name in a.workloads:
        for n in a.sizes:
            case = measure_case(name, n, a, copy_ref)
            if "skipped" in case[0]:
                print(f"{name} {case[0]['size']}: {status(case[0])}", flush=True)
            records += case
            torch.cuda.empty_cache()
    return records


def ok(r):
    return r.get("check") == "ok"


def status(r):
    if "skipped" in r:
        return "SKIPPED: " + r["skipped"]
    if "error" in r:
        return "FAILED: " + r["error"]
    if "timing" in r and "cuda" not in r["timing"].lower():
        return r["check"] + f"; timing not stated as CUDA events ({r['timing'] or 'no parenthesis'})"
    if "fusion_groups" in r:
        return r["check"] + f"; {r['fusion_groups']} fusion groups"
    return r["check"]


def progress_line(r):
    head = f"{r['workload']} {r['size']} {r['variant']}: "
    if "median_us" not in r:
        return head + status(r)
    kernels = r.get("kernels")
    return (head + f"{r['median_us']:.1f} us, {r['gbps']:.1f} GB/s "
            f"({100 * r['copy_fraction']:.0f}% of copy), "
            f"{kernels if kernels is not None else '?'} kernels, {status(r)}")


# --- Summary --------------------------------------------------------------


def geomeans(records):
    """Per variant: the geometric mean over (workload, size) of its median
    time / tsmlir's, over the cases where both are verified."""
    times = {(r["workload"], r["n"], r["variant"]): r["median_us"]
             for r in records if ok(r)}
    out = {}
    for v in dict.fromkeys(r["variant"] for r in records if "variant" in r):
        ratios = [t / times[(w, n, "tsmlir")] for (w, n, var), t in times.items()
                  if var == v and (w, n, "tsmlir") in times]
        if ratios:
            out[v] = {"geomean": math.exp(statistics.fmean(math.log(x) for x in ratios)),
                      "cases": len(ratios)}
    return out


def check_targets(records, means):
    """PASS/FAIL/SKIP of each target, as dicts with a `line`."""
    results = []
    tsmlir = {(r["workload"], r["n"]): r for r in records if r.get("variant") == "tsmlir"}
    for label, names, fraction in TARGETS:
        what = (f"{label} ({', '.join(names)}): tsmlir >= {fraction:.0%} of copy "
                f"bandwidth at >= {workloads.size_label(TARGET_MIN_SIZE)} elements")
        cases = [(w, n) for (w, n) in tsmlir if w in names and n >= TARGET_MIN_SIZE]
        misses = []
        for w, n in cases:
            r = tsmlir[(w, n)]
            if not ok(r):
                misses.append(f"{w} {r['size']} {status(r).split(':')[0]}")
            elif r["copy_fraction"] < fraction:
                # Rounded down, so that a miss never reads as the target.
                misses.append(f"{w} {r['size']} {math.floor(1000 * r['copy_fraction']) / 10:.1f}%")
        verdict = "SKIP" if not cases else "FAIL" if misses else "PASS"
        detail = (f"{len(cases) - len(misses)} of {len(cases)} cases"
                  + (f"; below: {', '.join(misses)}" if misses else "")
                  if cases else "no such case measured")
        results.append({"target": what, "status": verdict, "detail": detail})
    what = "tsmlir at least as fast as torch-compile (geometric mean of time ratios)"
    m = means.get("torch-compile")
    if m and "tsmlir" in means:
        results.append({"target": what, "status": "PASS" if m["geomean"] >= 1 else "FAIL",
                        "detail": f"torch-compile time / tsmlir time = {m['geomean']:.3f} "
                                  f"over {m['cases']} cases"})
    else:
        results.append({"target": what, "status": "SKIP", "detail": "no verified pair"})
    for t in results:
        t["line"] = f"{t['status']}  {t['target']}: {t['detail']}"
    return results


# --- Reporting ------------------------------------------------------------


def command_output(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return p.stdout.strip() if p.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def environment():
    """The GPU, the driver and every version that shapes the numbers."""
    props = torch.cuda.get_device_properties(0)
    env = {"gpu": torch.cuda.get_device_name(0),
           "gpu_memory_gib": round(props.total_memory / 2**30, 1),
           "sms": props.multi_processor_count,
           "torch": torch.__version__, "cuda": torch.version.cuda,
           "python": platform.python_version(),
           "date": datetime.datetime.now().isoformat(timespec="seconds")}
    smi = command_output(["nvidia-smi", "--query-gpu=driver_version",
                          "--format=csv,noheader", "-i", "0"])
    env["driver"] = smi.splitlines()[0] if smi else "unknown (no nvidia-smi)"
    try:
        import triton
        env["triton"] = triton.__version__
    except ImportError:
        env["triton"] = "not installed"
    nvcc = shutil.which("nvcc") or os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                                                "bin", "nvcc")
    release = command_output([nvcc, "--version"])
    env["nvcc"] = (next((l for l in release.splitlines() if "release" in l), release)
                   if release else "not found")
    env["tsmlir"] = command_output(["git", "-C", ROOT, "describe", "--always", "--dirty"])
    env["torchscript_fuser"] = torchscript_fuser()
    try:
        import torch._inductor.config as inductor
        env["inductor_cudagraphs"] = bool(inductor.triton.cudagraphs)
    except (ImportError, AttributeError):
        env["inductor_cudagraphs"] = None
    return env


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "gpu"


def fmt(v, spec):
    return "—" if v is None else format(v, spec)


def header(env, a):
    fuser = env["torchscript_fuser"]
    return "\n".join([
        f"# GPU benchmark: {env['gpu']}", "",
        f"`{env['command']}`", "",
        "| | |", "|---|---|",
        f"| GPU | {env['gpu']} ({env['sms']} SMs, {env['gpu_memory_gib']} GiB) |",
        f"| driver | {env['driver']} |",
        f"| CUDA (PyTorch's) | {env['cuda']} |",
        f"| nvcc | {env['nvcc']} |",
        f"| PyTorch | {env['torch']} |",
        f"| Triton | {env['triton']} |",
        f"| Python | {env['python']} |",
        f"| tsmlir | checkout {env['tsmlir'] or 'unknown'}; `{env['tsmlir_run']}` |",
        f"| TorchScript GPU fuser | {fuser['active']} (texpr {fuser['texpr_fuser_enabled']}, "
        f"can fuse on GPU {fuser['can_fuse_on_gpu']}, nvfuser {fuser['nvfuser_enabled']}) |",
        f"| torch.compile | default mode, dynamic=False; CUDA graphs "
        f"{'on' if env['inductor_cudagraphs'] else 'off'} |",
        f"| timing | CUDA events, {a.warmup} warm-up calls, median of {a.runs} |",
        f"| date | {env['date']}, {env['elapsed_s']:.0f} s in all |", ""])


def copy_table(copies):
    lines = ["## Copy bandwidth", "",
             "`dst.copy_(src)`, float32; bytes = 2 × 4 × elements. The "
             "reference (*) is the denominator of every `% copy`.", "",
             "| elements | median us | GB/s |", "|---|---:|---:|"]
    for c in copies:
        lines.append(f"| {c['size']}{' *' if c.get('reference') else ''} | "
                     f"{c['median_us']:.1f} | {c['gbps']:.1f} |")
    return "\n".join(lines) + "\n"


def summary(means, targets):
    lines = ["## Summary", "",
             "Geometric mean over (workload, size) of median time / tsmlir's "
             "(above 1: slower than tsmlir); verified cases only.", "",
             "| variant | time / tsmlir | cases |", "|---|---:|---:|"]
    for v, m in means.items():
        lines.append(f"| {v} | {m['geomean']:.3f} | {m['cases']} |")
    lines += ["", "Targets:", "", "```"] + [t["line"] for t in targets] + ["```", ""]
    return "\n".join(lines)


def results_table(records):
    lines = ["## All measurements", "",
             "GB/s: (input bytes + output bytes) / median time. % copy: of the "
             "reference copy bandwidth. kernels: per call (torch.profiler; "
             "tsmlir-run's own count).", "",
             "| workload | size | variant | median us | min us | GB/s | % copy | kernels "
             "| time / tsmlir | check |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in records:
        frac = r.get("copy_fraction")
        lines.append(
            f"| {r['workload']} | {r['size']} | {r.get('variant', '—')} | "
            f"{fmt(r.get('median_us'), '.1f')} | {fmt(r.get('min_us'), '.1f')} | "
            f"{fmt(r.get('gbps'), '.1f')} | {fmt(None if frac is None else 100 * frac, '.0f')} | "
            f"{fmt(r.get('kernels'), 'd')} | {fmt(r.get('vs_tsmlir'), '.2f')} | "
            f"{status(r).replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def write_results(prefix, env, a, copies, records, means, targets):
    text = "\n".join([header(env, a), copy_table(copies), summary(means, targets),
                      results_table(records)])
    print("\n" + text)
    os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
    with open(prefix + ".md", "w") as f:
        f.write(text)
    with open(prefix + ".json", "w") as f:
        json.dump({"environment": env, "tolerances": {n: tolerance(n) for n in a.workloads},
                   "copy": copies, "records": records, "geomeans": means,
                   "targets": targets}, f, indent=1)
    print(f"wrote {shown(prefix)}.md and {shown(prefix)}.json")


# --- Main -----------------------------------------------------------------


def dry_run(a):
    """The plan, and tsmlir-run's command lines for the smallest size (whose
    cases are prepared); needs no GPU."""
    device = (torch.cuda.get_device_name(0) if torch.cuda.is_available()
              else "none here (torch.cuda.is_available() is False)")
    sizes = ", ".join(workloads.size_label(n) for n in a.sizes)
    print(f"# dry run: nothing is measured\n# GPU: {device}\n"
          f"# variants: {', '.join(a.variants)}\n# workloads: {', '.join(a.workloads)}\n"
          f"# sizes: {sizes} (cases in {shown(a.work_dir)})\n"
          f"# timing: {a.warmup} warm-up calls, median of {a.runs} (CUDA events)\n"
          f"# copy reference: {workloads.size_label(max(max(a.sizes), COPY_REFERENCE_MIN))}"
          " elements, or the largest that fits")
    for label, names, fraction in TARGETS:
        print(f"# target: {label} ({', '.join(names)}) >= {fraction:.0%} of copy at "
              f">= {workloads.size_label(TARGET_MIN_SIZE)}")
    print("# target: tsmlir at least as fast as torch-compile (geometric mean)")
    smallest = a.sizes[0]
    for name in a.workloads:
        case_dir = os.path.join(a.work_dir, name, workloads.size_label(smallest))
        _, meta = workloads.prepare(name, smallest, case_dir)
        rtol, atol = tolerance(name)
        print(f"\n{name} {workloads.size_label(smallest)}: rtol {rtol:g}, atol {atol:g}")
        print("  " + shown(tsmlir_command(a, case_dir, meta, "OUT_DIR")))
    if not os.path.exists(a.tsmlir_run):
        print(f"\n# note: {shown(a.tsmlir_run)} does not exist here")
    return 0


def main():
    a = parse_args()
    if a.dry_run:
        return dry_run(a)
    if not torch.cuda.is_available():
        cuda = torch.version.cuda or "none: a CPU-only build"
        print(f"no CUDA device: torch.cuda.is_available() is False (PyTorch "
              f"{torch.__version__}, CUDA {cuda}); bench/gpu/run.py needs a GPU "
              "(--dry-run prints the plan without one)", file=sys.stderr)
        return 2
    if "tsmlir" in a.variants and not a.aot and not os.path.exists(a.tsmlir_run):
        print(f"tsmlir-run not found at {a.tsmlir_run}: build tsmlir (with CUDA) and "
              "set TSMLIR_BUILD_DIR or --tsmlir-run, or leave tsmlir out of --variants",
              file=sys.stderr)
        return 1
    start = time.time()
    env = environment()
    env["command"] = shown(shlex.join(["bench/gpu/run.py"] + sys.argv[1:]))
    env["tsmlir_run"] = shown(a.aot + "/*.so" if a.aot else a.tsmlir_run)
    prefix = a.results or os.path.join(HERE, "results", slug(env["gpu"]))
    print(f"# {env['gpu']}, PyTorch {env['torch']}, CUDA {env['cuda']}, "
          f"Triton {env['triton']}, driver {env['driver']}", flush=True)
    copies, copy_ref = measure_copies(a)
    records = measure(a, copy_ref)
    means = geomeans(records)
    targets = check_targets(records, means)
    env["elapsed_s"] = time.time() - start
    write_results(prefix, env, a, copies, records, means, targets)
    for t in targets:
        print(t["line"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
