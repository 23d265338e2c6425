#!/usr/bin/env python3
"""Shape inference on the corpus (test/Corpus).

1. Every graph file imports and goes through --ts-infer-shapes with the
   verifier on.
2. Each case's graph.txt is specialised for its reference inputs
   (--ts-specialize=inputs=inN.npy,...: the inputs the
   corpus was recorded with), and the types of what @main returns are
   compared with the reference outputs (outN.npy). A fully typed
   output must have the dtype and shape of its reference; one that is not
   fully typed is counted as such (a call that is not inlined, a module
   attribute).
3. The same for the inlined and frozen forms (with the module's parameters
   when the case has them).

Usage: infer-shapes-corpus.py CORPUS TMPDIR
"""
import glob
import os
import re
import struct
import subprocess
import sys

NPY_DTYPES = {"<f4": "f32", "<f8": "f64", "<f2": "f16", "<i8": "si64",
              "<i4": "si32", "<i2": "si16", "|i1": "si8", "|u1": "ui8",
              "|b1": "i1"}


def npy_type(path):
    """(dtype, shape) from a .npy header."""
    with open(path, "rb") as f:
        data = f.read()
    if data[6] == 1:
        (length,), start = struct.unpack("<H", data[8:10]), 10
    else:
        (length,), start = struct.unpack("<I", data[8:12]), 12
    header = data[start:start + length].decode("latin1")
    descr = re.search(r"'descr':\s*'([^']*)'", header).group(1)
    shape = re.search(r"'shape':\s*\(([^)]*)\)", header).group(1)
    dims = [int(d) for d in shape.replace(" ", "").split(",") if d]
    return NPY_DTYPES.get(descr, descr), dims


def split_top(text):
    """Splits at the commas outside <> and []."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<[(":
            depth += 1
        elif c in ">])":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def tensor_type(text):
    """(dtype, sizes) of a fully typed !ts.tensor, else None."""
    m = re.fullmatch(r"!ts\.tensor<(\w+), \[([0-9, ]*)\](, .*)?>", text)
    if not m:
        return None
    return m.group(1), [int(d) for d in m.group(2).split(",") if d.strip()]


def main_results(mlir):
    m = re.search(r"func\.func @main\(.*\) -> (.*) \{\n", mlir)
    if not m:
        return []
    result = m.group(1)
    if result.startswith("(") and result.endswith(")"):
        result = result[1:-1]
    results = split_top(result)
    if len(results) == 1 and results[0].startswith("!ts.tuple<"):
        results = split_top(results[0][len("!ts.tuple<"):-1])
    return results


def run(args, tmp):
    with open(os.path.join(tmp, "err"), "w") as err:
        done = subprocess.run(args, stdout=subprocess.PIPE, stderr=err,
                              text=True)
    if done.returncode:
        with open(os.path.join(tmp, "err")) as err:
            return None, err.read().splitlines()[:1]
    return done.stdout, None


def import_graph(path, tmp):
    args = ["tsmlir-translate", "--import-torchscript", path,
            "-o", os.path.join(tmp, "in.mlir")]
    params = os.path.join(os.path.dirname(path), "params.safetensors")
    if os.path.exists(params):
        args.append("--params=" + params)
    return run(args, tmp)


def check_outputs(corpus, tmp, names, label):
    graphs = typed = outputs = failures = 0
    for case in sorted(os.listdir(corpus)):
        inputs = sorted(glob.glob(os.path.join(corpus, case, "in*.npy")))
        expected = [npy_type(p) for p in sorted(
            glob.glob(os.path.join(corpus, case, "out*.npy")))]
        for name in names:
            path = os.path.join(corpus, case, name)
            if not os.path.exists(path) or not inputs:
                continue
            graphs += 1
            out, err = import_graph(path, tmp)
            if err is None:
                out, err = run(["tsmlir-opt", os.path.join(tmp, "in.mlir"),
                                "--ts-specialize=inputs=" + ",".join(inputs)],
                               tmp)
            if err is not None:
                print(f"FAIL: {case}/{name}: {err}")
                failures += 1
                continue
            results = main_results(out)
            outputs += len(expected)
            if len(results) != len(expected):
                print(f"MISMATCH: {case}/{name}: {len(results)} results for "
                      f"{len(expected)} reference outputs")
                continue
            for i, (got, want) in enumerate(zip(results, expected)):
                t = tensor_type(got)
                if t is None:
                    print(f"not fully typed: {case}/{name} output {i}: {got}")
                elif t != want:
                    print(f"MISMATCH: {case}/{name} output {i}: {got}, "
                          f"reference {want[0]} {want[1]}")
                else:
                    typed += 1
    print(f"infer-shapes{label}: {graphs} graphs, {typed} fully typed outputs "
          f"of {outputs}, {failures} failures")


def main():
    corpus, tmp = sys.argv[1], sys.argv[2]
    os.makedirs(tmp, exist_ok=True)
    files = failures = 0
    for path in sorted(glob.glob(os.path.join(corpus, "*", "*.txt"))):
        files += 1
        _, err = run(["tsmlir-translate", "--import-torchscript", path,
                      "-o", os.path.join(tmp, "in.mlir")], tmp)
        if err is None:
            _, err = run(["tsmlir-opt", os.path.join(tmp, "in.mlir"),
                          "--ts-infer-shapes", "-o", os.devnull], tmp)
        if err is not None:
            print(f"FAIL: {os.path.relpath(path, corpus)}: {err}")
            failures += 1
    print(f"infer-shapes on every file: {files} files, {failures} failures")
    check_outputs(corpus, tmp, ["graph.txt"], "")
    check_outputs(corpus, tmp, ["inlined.txt", "frozen.txt"], " (inlined, frozen)")


if __name__ == "__main__":
    main()
