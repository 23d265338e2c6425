#!/usr/bin/env python3
"""The cost of one call of a tiny function, four ways, in one run:

  tsmlir JIT hit    JitFunction::call that hits its specialisation
                    (tsmlir-bench BM_JitCallHit); and one that hits a
                    specialisation for dynamic sizes (BM_JitDynamicHit)
  tsmlir direct     the same compiled code called directly, the baseline
                    (tsmlir-bench BM_DirectCallBaseline)
  PyTorch eager     f(x, y) in Python, with torch's dispatcher
  TorchScript       torch.jit.script(f)(x, y), after its profiling runs

Then the parts of the JIT's cost: the guard key, a guard miss that runs
the fallback, a new function's first calls, and a cache hit in a new
function (tsmlir-bench BM_JitSignature, BM_JitGuardMiss, BM_JitFirstCalls,
BM_JitCacheHitNewFunction).

f is `x * y + 1` on two f32 tensors of N elements (N = 4 and 4096). Each
figure is the median of 5 repetitions (CPU time for tsmlir-bench,
timeit's per-call time for PyTorch, one thread each). Prints a markdown
table with each time and its ratio to the direct call.

    /usr/bin/python3 bench/jit/overhead.py [--bench build/bin/tsmlir-bench]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import timeit

SIZES = (4, 4096)
REPETITIONS = 5


def tsmlir_times(bench):
    """{(name, n): microseconds} from tsmlir-bench's JSON."""
    out = subprocess.run(
        [bench, "--benchmark_filter=BM_JitCallHit|BM_JitDynamicHit|"
         "BM_DirectCallBaseline|"
         "BM_JitSignature|BM_JitFirstCalls|BM_JitGuardMiss|"
         "BM_JitCacheHitNewFunction",
         "--benchmark_min_time=0.2",
         "--benchmark_repetitions=%d" % REPETITIONS,
         "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json"],
        check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name, n = b["run_name"].split("/")
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
        times[(name, int(n))] = b["cpu_time"] * scale
    return times


def torch_times():
    import torch
    torch.set_num_threads(1)

    def f(x, y):
        return x * y + 1

    scripted = torch.jit.script(f)
    times = {}
    for n in SIZES:
        x, y = torch.rand(n), torch.rand(n)
        for _ in range(5):  # the profiling executor's runs, then optimised
            scripted(x, y)
        for name, fn in (("eager", f), ("torchscript", scripted)):
            number = 20000 if n == 4 else 5000
            runs = timeit.repeat(lambda: fn(x, y), number=number,
                                 repeat=REPETITIONS)
            times[(name, n)] = statistics.median(runs) / number * 1e6
    return times


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench",
                        default=os.path.join(root, "build", "bin",
                                             "tsmlir-bench"))
    args = parser.parse_args()
    if not os.path.exists(args.bench):
        sys.exit("no %s: build it (ninja tsmlir-bench)" % args.bench)
    times = tsmlir_times(args.bench)
    times.update(torch_times())
    rows = [("tsmlir JIT, cache hit", "BM_JitCallHit"),
            ("tsmlir JIT, hit of the code for dynamic sizes",
             "BM_JitDynamicHit"),
            ("tsmlir, direct call (baseline)", "BM_DirectCallBaseline"),
            ("PyTorch eager", "eager"),
            ("TorchScript (profiled, optimised)", "torchscript")]
    print("| Call of x * y + 1 | " +
          " | ".join("N = %d" % n for n in SIZES) + " |")
    print("|---|" + "---|" * len(SIZES))
    for label, key in rows:
        cells = []
        for n in SIZES:
            t = times[(key, n)]
            base = times[("BM_DirectCallBaseline", n)]
            cells.append("%.3g us (%.2fx)" % (t, t / base))
        print("| %s | %s |" % (label, " | ".join(cells)))
    print("| JIT overhead (hit - direct) | " + " | ".join(
        "%.3g us" % (times[("BM_JitCallHit", n)] -
                     times[("BM_DirectCallBaseline", n)]) for n in SIZES) +
        " |")
    print()
    print("| Part of the JIT's cost | N = 4 |")
    print("|---|---|")
    print("| the guard key (BM_JitSignature) | %.3g us |" %
          times[("BM_JitSignature", 4)])
    print("| a call that misses the guard once the budget is spent, running "
          "the fallback (BM_JitGuardMiss) | %.3g us |" %
          times[("BM_JitGuardMiss", 4)])
    print("| a new function's first two calls: profile and specialise, both "
          "compiled (BM_JitFirstCalls) | %.3g ms |" %
          (times[("BM_JitFirstCalls", 4)] / 1e3))
    print("| a new function's first call of a signature the persistent cache "
          "holds, as another process makes it (BM_JitCacheHitNewFunction) "
          "| %.3g ms |" % (times[("BM_JitCacheHitNewFunction", 4)] / 1e3))


if __name__ == "__main__":
    main()
