#!/usr/bin/env python3
"""Times the workloads of bench/cpu in PyTorch: eager and TorchScript.

Same methodology as tsmlir-run --benchmark and the hand-written reference:
one warm-up call, then N timed calls, median and minimum, printed as

    torch-eager: benchmark: 20 runs, median 123.456 us, min 120.001 us

Variants:

  torch-eager              the Python function, called directly
  torchscript              torch.jit.script, profiling executor, called
                           enough times to optimise first; NNC's CPU fuser on
                           where this PyTorch build can run it (it needs
                           LLVM); says whether a prim::TensorExprGroup formed
  torchscript-nnc-interp   the same with the CPU fuser forced on without LLVM
                           (te_must_use_llvm_cpu off): NNC's fused kernels run
                           in its IR interpreter, which is very slow; not run
                           by default

    /usr/bin/python3 bench/cpu/pytorch_bench.py gelu 1M --threads 2

Needs PyTorch and numpy (Debian: python3-torch, python3-numpy).
"""

import os

# One OpenMP thread per core, as run.py does (read when torch is imported).
os.environ.setdefault("OMP_PROC_BIND", "true")
os.environ.setdefault("OMP_PLACES", "cores")

import argparse  # noqa: E402 (after the environment above)
import statistics
import time

import torch

import workloads

VARIANTS = ("torch-eager", "torchscript", "torchscript-nnc-interp")
# Calls of a scripted function before timing it: the profiling executor
# profiles the first call(s), then optimises (and fuses) the graph.
PROFILING_CALLS = 5
# Why the CPU fuser stays off in a PyTorch without LLVM (Debian's 1.13 is one).
NO_LLVM = ("no LLVM in this PyTorch build (torch._C._llvm_enabled() is False): "
           "NNC cannot compile CPU fusion groups, and forcing the CPU fuser on "
           "fails with 'LLVM Backend not found'")


def time_calls(fn, args, runs):
    """One warm-up call, then `runs` timed calls. Returns (median us, min us,
    the warm-up call's result)."""
    result = fn(*args)
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        fn(*args)
        times.append((time.perf_counter_ns() - start) / 1e3)
    return statistics.median(times), min(times), result


def cpu_fuser_native():
    """Whether NNC can compile fused CPU kernels in this PyTorch build."""
    return torch._C._llvm_enabled()


def configure_fuser(variant):
    """Sets the global TorchScript fuser flags for `variant`. Returns a note
    on what was set (empty when the CPU fuser runs as requested)."""
    torch._C._jit_set_texpr_fuser_enabled(True)
    if variant == "torchscript-nnc-interp":
        torch._C._jit_override_can_fuse_on_cpu(True)
        torch._C._jit_set_te_must_use_llvm_cpu(False)
        return "NNC IR interpreter"
    native = cpu_fuser_native()
    torch._C._jit_set_te_must_use_llvm_cpu(True)
    torch._C._jit_override_can_fuse_on_cpu(native)
    return "" if native else "CPU fuser off: no LLVM in this PyTorch build"


def fusion_groups(block):
    """Number of prim::TensorExprGroup nodes in an optimised graph, nested
    blocks included (the profiling executor puts them in a prim::If behind
    a prim::TypeCheck)."""
    return sum((node.kind() == "prim::TensorExprGroup")
               + sum(fusion_groups(b) for b in node.blocks())
               for node in block.nodes())


def bench(name, args, variant, threads, runs):
    """Times one variant of workload `name` on `args` with `threads` threads.
    Returns a dict: median_us, min_us, runs, output (a tensor) and, for the
    TorchScript variants, fusion_groups and note."""
    torch.set_num_threads(threads)
    with torch.no_grad():
        if variant == "torch-eager":
            median, minimum, out = time_calls(workloads.WORKLOADS[name][0], args, runs)
            return {"median_us": median, "min_us": minimum, "runs": runs, "output": out}
        note = configure_fuser(variant)
        fn = workloads.script(name)
        for _ in range(PROFILING_CALLS):
            fn(*args)
        groups = fusion_groups(torch.jit.last_executed_optimized_graph())
        median, minimum, out = time_calls(fn, args, runs)
    return {"median_us": median, "min_us": minimum, "runs": runs, "output": out,
            "fusion_groups": groups, "note": note}


def format_line(variant, r):
    """The `benchmark: ...` line of tsmlir-run, prefixed with the variant."""
    line = (f"{variant}: benchmark: {r['runs']} runs, median {r['median_us']:.3f} us, "
            f"min {r['min_us']:.3f} us")
    if "fusion_groups" in r:
        line += f"  [fusion groups: {r['fusion_groups']}"
        line += f"; {r['note']}]" if r["note"] else "]"
    return line


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("workload", choices=sorted(workloads.WORKLOADS))
    p.add_argument("size", help="elements: 4K, 64K, 1M, 16M or a number")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--benchmark", type=int, default=20, metavar="N", help="timed runs")
    p.add_argument("--variants", default="torch-eager,torchscript",
                   help=f"comma-separated, of {', '.join(VARIANTS)}")
    p.add_argument("--seed", type=int, default=workloads.DEFAULT_SEED)
    a = p.parse_args()
    args = workloads.make_inputs(a.workload, workloads.parse_size(a.size), a.seed)
    for variant in a.variants.split(","):
        if variant not in VARIANTS:
            p.error(f"unknown variant {variant}")
        print(format_line(variant, bench(a.workload, args, variant, a.threads, a.benchmark)))


if __name__ == "__main__":
    main()
