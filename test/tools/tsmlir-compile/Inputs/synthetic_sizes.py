#!/usr/bin/env python3
"""Compiles bench/aot/synthetic_graph.py's graph at many sizes.

For each size N in range(FIRST, LAST + 1, STEP) it writes the graph of N
nodes and lowers it with

  tsmlir-compile GRAPH --input f32[16,32] --input f32[16,32] --emit mlir

which runs the whole pipeline (import, specialisation, fusion groups, group
fusion, lowering to the LLVM dialect with the C ABI) but not LLVM's
optimiser and code generator. Each compile has a time limit, so that one
that hangs fails with its size named.

Prints one line per size, in order:
  size N: compiled, G fusion groups
  FAIL: size N: <first error line, or the time limit>
and a summary:
  synthetic sizes: S sizes, C compiled, F failures
The exit status is 1 when there is a failure.

Usage: synthetic_sizes.py GENERATOR WORKDIR [--first 50] [--last 2000]
           [--step 50] [--jobs 2] [--timeout 120] [--tool tsmlir-compile]
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

GROUPS = re.compile(r"(\d+) fusion groups?")


def compile_size(size, args):
    """(size, None, groups) when the graph of `size` nodes compiled, else
    (size, why, None)."""
    graph = os.path.join(args.workdir, "g%d.txt" % size)
    out = os.path.join(args.workdir, "g%d.mlir" % size)
    with open(graph, "w") as f:
        subprocess.run([sys.executable, args.generator, str(size)], stdout=f,
                       check=True)
    cmd = [args.tool, graph, "--input", "f32[16,32]", "--input", "f32[16,32]",
           "--emit", "mlir", "-o", out]
    try:
        result = subprocess.run(cmd, capture_output=True, text=True,
                                timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return size, "no result after %d s" % args.timeout, None
    if result.returncode != 0:
        lines = [l for l in result.stderr.splitlines() if "error" in l]
        why = (lines or result.stderr.strip().splitlines() or
               ["exit status %d" % result.returncode])[0]
        return size, why.strip(), None
    match = GROUPS.search(result.stderr + result.stdout)
    os.remove(out)
    os.remove(graph)
    return size, None, match.group(1) if match else "?"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("generator")
    parser.add_argument("workdir")
    parser.add_argument("--first", type=int, default=50)
    parser.add_argument("--last", type=int, default=2000)
    parser.add_argument("--step", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--tool", default="tsmlir-compile")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)

    sizes = list(range(args.first, args.last + 1, args.step))
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for size, why, groups in pool.map(lambda n: compile_size(n, args),
                                          sizes):
            if why is None:
                print("size %d: compiled, %s fusion groups" % (size, groups))
            else:
                failures += 1
                print("FAIL: size %d: %s" % (size, why))
            sys.stdout.flush()
    print("synthetic sizes: %d sizes, %d compiled, %d failures" %
          (len(sizes), len(sizes) - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
