#!/usr/bin/env python3
"""Runs tsmlir-opt --ts-optimize (verifier on) on every corpus graph and
compares, per case, the aten nodes left with those in the graph PyTorch's
profiling executor optimised (optimized.txt).

  optimize-corpus.py CORPUS_DIR WORK_DIR [--markdown]

PyTorch's count is the aten nodes it runs on the fast path: the main graph
and its fusion and differentiable subgraphs, not the fallback graphs (a copy
of the unoptimised graph run when a type check fails). Ours is the aten ops of
graph.txt after --ts-optimize (inlined.txt where graph.txt calls methods or
functions whose bodies its text does not hold), once as it is and once
specialised first for the inputs the case was recorded with, as the profiling
executor does (--ts-specialize=inputs=inN.npy,..., the
reference inputs). Prints one line per case and a summary; exits non-zero
when a tool fails.
"""
import glob
import os
import re
import subprocess
import sys

corpus, work = sys.argv[1], sys.argv[2]
markdown = "--markdown" in sys.argv
os.makedirs(work, exist_ok=True)


def pytorch_fast_path_nodes(text):
    count, skipping = 0, False
    for line in text.splitlines():
        if line.startswith("with "):
            skipping = "FallbackGraph" in line
            continue
        if not skipping and re.search(r"= aten::", line):
            count += 1
    return count


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


failures = 0
graphs = 0
rows = []
for case in sorted(os.listdir(corpus)):
    folder = os.path.join(corpus, case)
    if not os.path.isdir(folder):
        continue
    # Every graph file must survive the pipeline with the verifier on.
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".txt"):
            continue
        graphs += 1
        path = os.path.join(folder, name)
        mlir = os.path.join(work, f"{case}.{name}.mlir")
        imp = run(["tsmlir-translate", "--import-torchscript", path, "-o", mlir])
        opt = imp.returncode == 0 and run(
            ["tsmlir-opt", "--ts-optimize", mlir, "-o", mlir + ".opt"])
        if imp.returncode != 0 or opt.returncode != 0:
            failures += 1
            err = imp.stderr if imp.returncode else opt.stderr
            print(f"FAIL {case}/{name}: {err.strip()}")
    optimized = os.path.join(folder, "optimized.txt")
    if not os.path.exists(optimized):
        continue
    source = "graph.txt"
    with open(os.path.join(folder, source)) as f:
        if re.search(r"prim::Call(Method|Function)", f.read()):
            source = "inlined.txt"
    before_file = os.path.join(work, f"{case}.{source}.mlir")
    after_file = before_file + ".opt"
    if not os.path.exists(after_file):
        continue
    with open(before_file) as f:
        before = len(re.findall(r"= ts\.aten\.", f.read()))
    with open(after_file) as f:
        ours = len(re.findall(r"= ts\.aten\.", f.read()))
    with open(optimized) as f:
        theirs = pytorch_fast_path_nodes(f.read())
    inputs = sorted(glob.glob(os.path.join(folder, "in*.npy")),
                    key=lambda p: int(re.search(r"in(\d+)", p).group(1)))
    spec = run(["tsmlir-opt", "--ts-specialize=inputs=" + ",".join(inputs),
                "--ts-optimize", before_file])
    if spec.returncode != 0:
        failures += 1
        print(f"FAIL {case}/{source} specialised: {spec.stderr.strip()}")
        continue
    specialised = len(re.findall(r"= ts\.aten\.", spec.stdout))
    rows.append((case, source, before, ours, specialised, theirs))

def is_more(row):
    return row[3] > row[5] or row[4] > row[5]


if markdown:
    print("| case | input | aten nodes in | after --ts-optimize | specialised | PyTorch optimized.txt |")
    print("|---|---|---:|---:|---:|---:|")
    for row in rows:
        case, source, before, ours, specialised, theirs = row
        mark = " (more)" if is_more(row) else ""
        print(f"| {case} | {source} | {before} | {ours} | {specialised}{mark} | {theirs} |")
else:
    for row in rows:
        case, source, before, ours, specialised, theirs = row
        verdict = "MORE" if is_more(row) else "ok"
        print(f"{case}: {source} {before} -> {ours} aten nodes, "
              f"{specialised} specialised; PyTorch {theirs} {verdict}")
total = [sum(r[i] for r in rows) for i in range(2, 6)]
more = sum(1 for r in rows if is_more(r))
print(f"optimize: {graphs} graphs, {failures} failures")
print(f"aten nodes over {len(rows)} cases: {total[0]} in, {total[1]} after "
      f"--ts-optimize, {total[2]} specialised, {total[3]} in PyTorch's "
      f"optimized graphs; {more} cases with more than PyTorch")
sys.exit(1 if failures else 0)
