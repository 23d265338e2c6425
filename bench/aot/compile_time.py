#!/usr/bin/env python3
"""Measures how long tsmlir-compile takes from TorchScript text to an object
file, and how that grows with the size of the graph.

For each graph it runs, REPEAT times (the median is reported):

  tsmlir-compile GRAPH --input ... -o model.o            (nnc fusion, -O3)

and reads the phases that tsmlir-compile prints (import, prepare =
specialise + optimise + fuse, lower = to the LLVM dialect with the C ABI,
emit = LLVM's optimiser and code generator), with the peak resident memory
of the process. In the same run it measures a baseline on the same graph:
clang -O3 -c on the LLVM IR that tsmlir-compile emits for it (--emit
llvm-ir), i.e. what LLVM alone costs for the code tsmlir generates.

Graphs: the largest graphs of the corpus (by node count, in the forms the
corpus tests run) and synthetic graphs of N = 1,000, 3,000 and 10,000 nodes
(synthetic_graph.py: chains of pointwise ops with a reduction every 500
nodes), on f32[64, 128] inputs.

Usage: compile_time.py BUILD_DIR [--repeat K] [--sizes 1000,3000,10000]
Prints a Markdown table.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(ROOT, "test", "Corpus")
CLANG = "/usr/lib/llvm-22/bin/clang"

PHASES = re.compile(r"in ([0-9.]+) s \(import ([0-9.]+), prepare ([0-9.]+), "
                    r"lower ([0-9.]+), emit ([0-9.]+)\)")
GROUPS = re.compile(r"(\d+) fusion groups?")


def count_nodes(path):
    """Lines of the form `%x : T = kind(...)` or `%x = kind(...)`."""
    with open(path) as f:
        return sum(1 for line in f if re.match(r"\s+%.*=\s*[\w:]+", line))


def corpus_graphs(limit):
    """The `limit` largest corpus graphs in the forms the corpus tests run,
    with their --input arguments."""
    graphs = []
    for case in sorted(os.listdir(CORPUS)):
        case_dir = os.path.join(CORPUS, case)
        meta_path = os.path.join(case_dir, "meta.json")
        if not os.path.exists(meta_path):
            continue
        with open(meta_path) as f:
            meta = json.load(f)
        if meta.get("kind") == "module":
            continue  # modules take --params; their graphs are small
        for form in ("graph", "traced"):
            path = os.path.join(case_dir, form + ".txt")
            if not os.path.exists(path):
                continue
            args = []
            for spec in meta["inputs"]:
                if spec["kind"] == "tensor":
                    args.append(os.path.join(case_dir, spec["file"]))
                elif form == "graph":
                    value = meta["scalar_args"].get(spec["name"],
                                                    spec.get("value"))
                    args.append("none" if value is None else
                                str(value).lower() if isinstance(value, bool)
                                else repr(value))
            graphs.append((count_nodes(path), "%s/%s.txt" % (case, form),
                           path, args))
    graphs.sort(key=lambda g: -g[0])
    return graphs[:limit]


def run(cmd):
    """Wall seconds, peak RSS (MiB) and stdout of one command; raises on
    failure."""
    with tempfile.TemporaryFile("w+") as out, \
            tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise RuntimeError("%s: %s" % (" ".join(cmd), err.read()[-2000:]))
        return seconds, usage.ru_maxrss / 1024.0, out.read()


def measure(tool, path, args, tmp, repeat):
    inputs = ["--input=" + a for a in args]
    obj = os.path.join(tmp, "model.o")
    ll = os.path.join(tmp, "model.ll")
    walls, phases, rss, groups = [], [], 0.0, 0
    for _ in range(repeat):
        wall, peak, out = run([tool, path] + inputs + ["-o", obj])
        m = PHASES.search(out)
        if not m:
            raise RuntimeError("no phase times in: " + out)
        walls.append(wall)
        phases.append([float(x) for x in m.groups()[1:]])
        rss = max(rss, peak)
        g = GROUPS.search(out)
        groups = int(g.group(1)) if g else 0
    run([tool, path] + inputs + ["--emit", "llvm-ir", "-o", ll])
    llvm_lines = sum(1 for _ in open(ll))
    base = [run([CLANG, "-O3", "-c", "-w", ll, "-o", obj])[0]
            for _ in range(repeat)]
    med = statistics.median
    return {
        "wall": med(walls),
        "phases": [med(p[i] for p in phases) for i in range(4)],
        "rss": rss,
        "groups": groups,
        "llvm_lines": llvm_lines,
        "object_kib": os.path.getsize(obj) / 1024.0,
        "baseline": med(base),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="1000,3000,10000")
    parser.add_argument("--corpus", type=int, default=3,
                        help="how many of the largest corpus graphs")
    args = parser.parse_args()
    tool = os.path.join(args.build, "bin", "tsmlir-compile")

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for nodes, label, path, inputs in corpus_graphs(args.corpus):
            rows.append((label, nodes, measure(tool, path, inputs, tmp,
                                               args.repeat)))
        for n in [int(s) for s in args.sizes.split(",") if s]:
            path = os.path.join(tmp, "synthetic_%d.txt" % n)
            with open(path, "w") as f:
                subprocess.run([sys.executable,
                                os.path.join(HERE, "synthetic_graph.py"),
                                str(n)], stdout=f, check=True)
            rows.append(("synthetic %d" % n, count_nodes(path),
                         measure(tool, path, ["f32[64,128]", "f32[64,128]"],
                                 tmp, args.repeat)))

    print("| graph | nodes | groups | text → .o (s) | import | prepare | "
          "lower | emit | peak RSS (MiB) | LLVM IR lines | .o (KiB) | "
          "clang -O3 -c on its IR (s) | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, nodes, r in rows:
        p = r["phases"]
        print("| %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f | "
              "%d | %.1f | %.2f | %.2f |" % (
                  label, nodes, r["groups"], r["wall"], p[0], p[1], p[2],
                  p[3], r["rss"], r["llvm_lines"], r["object_kib"],
                  r["baseline"], r["wall"] / r["baseline"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
