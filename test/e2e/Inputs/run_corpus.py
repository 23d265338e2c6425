#!/usr/bin/env python3
"""Runs every corpus case on the CPU with tsmlir-run and compares its outputs
with PyTorch's (the case's outN.npy, recorded from eager PyTorch).

Each case runs from every graph form it has (graph.txt, inlined.txt,
traced.txt, traced_inlined.txt, frozen.txt), with the module's parameters
where it has them, and with each fusion setting: no fusion groups, and the
pointwise, nnc, nvfuser and aggressive strategies. An output must have the
dtype and shape of PyTorch's and be close to it (float: rtol 1e-4, atol
1e-5, NaNs equal; others: equal).

A run that fails or mismatches fails the test unless the expected-failure
table below lists it with its reason (docs/cpu-codegen.md repeats the
table); a listed run that passes fails the test too, so the table stays
true.

The module cases' frozen.txt holds tensors torch.jit.freeze computed
(a batch norm folded into a convolution) that PyTorch prints without their
values, and their traced.txt calls the submodules' traced graphs, which it
does not print: Inputs/modules holds both, written by
scripts/dump_module_forms.py from the case's source and parameters.

With --device cuda the same runs go to the GPU (tsmlir-run --device cuda).

Usage: run_corpus.py CORPUS CALLEES TMPDIR [--jobs N] [--only CASE,...]
                     [--device cpu|cuda]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

import numpy as np

FORMS = ["graph", "inlined", "traced", "traced_inlined", "frozen"]
VARIANTS = [("no-fusion", ["--no-fusion"]),
            ("pointwise", ["--strategy", "pointwise"]),
            ("nnc", ["--strategy", "nnc"]),
            ("nvfuser", ["--strategy", "nvfuser"]),
            ("aggressive", ["--strategy", "aggressive"])]

# (case, form) -> why the run is expected to fail, for every variant (none
# today).
EXPECTED_FAILURES = {}

MODULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "modules")


def inputs_for(case_dir, meta, form, graph_text):
    """The --input values of a form: tensors and scalars in argument order;
    a traced graph takes only the tensors (the rest were baked in)."""
    args = []
    for spec in meta["inputs"]:
        if spec["kind"] == "tensor":
            args.append(os.path.join(case_dir, spec["file"]))
        elif not form.startswith("traced"):
            value = meta["scalar_args"].get(spec["name"], spec.get("value"))
            args.append("none" if value is None else
                        str(value).lower() if isinstance(value, bool) else
                        repr(value))
    return args


def compare(out_dir, case_dir, meta):
    """None when every output matches, else why not."""
    n = meta["n_outputs"]
    produced = sorted(f for f in os.listdir(out_dir) if f.startswith("out"))
    if len(produced) != n:
        return "%d outputs, PyTorch gives %d" % (len(produced), n)
    for i in range(n):
        ours = np.load(os.path.join(out_dir, "out%d.npy" % i))
        ref = np.load(os.path.join(case_dir, "out%d.npy" % i))
        if ours.dtype != ref.dtype or ours.shape != ref.shape:
            return "out%d: %s%s, PyTorch gives %s%s" % (
                i, ours.dtype, list(ours.shape), ref.dtype, list(ref.shape))
        if ref.dtype.kind == "f":
            if not np.allclose(ours, ref, rtol=1e-4, atol=1e-5, equal_nan=True):
                diff = np.abs(ours.astype(np.float64) - ref)
                return "out%d: max abs error %.3g" % (i, np.nanmax(diff))
        elif not np.array_equal(ours, ref):
            return "out%d: %d elements differ" % (i, int((ours != ref).sum()))
    return None


def run_one(job):
    case, form, variant, flags, cmd, case_dir, meta, out_dir = job
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, f))
    result = subprocess.run(cmd + flags + ["--output-dir", out_dir],
                            capture_output=True, text=True)
    if result.returncode != 0:
        lines = [l for l in result.stderr.splitlines() if "error:" in l]
        why = (lines or result.stderr.strip().splitlines() or ["no message"])[0]
        return job, "error: " + why.split("error: ", 1)[-1]
    return job, compare(out_dir, case_dir, meta)


def corpus_commands(corpus, callees, only=(), tool="tsmlir-run"):
    """(case, form, tsmlir-run command line without fusion flags, case dir,
    meta) for every graph form of every case in `corpus`."""
    for case in sorted(os.listdir(corpus)):
        case_dir = os.path.join(corpus, case)
        meta_path = os.path.join(case_dir, "meta.json")
        if not os.path.exists(meta_path) or (only and case not in only):
            continue
        meta = json.load(open(meta_path))
        for form in FORMS:
            path = os.path.join(case_dir, form + ".txt")
            if not os.path.exists(path):
                continue
            cmd = [tool, path]
            cmd += ["--input=" + a for a in
                    inputs_for(case_dir, meta, form, open(path).read())]
            params = os.path.join(case_dir, "params.safetensors")
            frozen = os.path.join(MODULES, "frozen", case + ".safetensors")
            if form == "frozen" and os.path.exists(frozen):
                params = frozen
            if os.path.exists(params):
                cmd += ["--params", params]
            callee_dir = os.path.join(callees, case)
            if form == "traced":
                callee_dir = os.path.join(MODULES, "traced", case)
            if form in ("graph", "traced") and os.path.isdir(callee_dir):
                for f in sorted(os.listdir(callee_dir)):
                    cmd.append("--import-function=%s=%s" % (
                        f[:-len(".txt")], os.path.join(callee_dir, f)))
            yield case, form, cmd, case_dir, meta


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("callees")
    parser.add_argument("tmp")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="")
    parser.add_argument("--tool", default="tsmlir-run")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    args = parser.parse_args()

    jobs = []
    only = set(filter(None, args.only.split(",")))
    for case, form, cmd, case_dir, meta in corpus_commands(
            args.corpus, args.callees, only, args.tool):
        if args.device != "cpu":
            cmd = cmd + ["--device", args.device]
        for variant, flags in VARIANTS:
            out_dir = os.path.join(args.tmp, case, form, variant)
            jobs.append((case, form, variant, flags, cmd, case_dir, meta,
                         out_dir))

    passed, failed, xfailed, xpassed = 0, [], [], []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job, why in pool.map(run_one, jobs):
            case, form, variant = job[:3]
            name = "%s/%s.txt [%s]" % (case, form, variant)
            expected = EXPECTED_FAILURES.get((case, form))
            if why is None and expected is None:
                passed += 1
            elif why is None:
                xpassed.append(name)
            elif expected is not None:
                xfailed.append((name, why))
            else:
                failed.append((name, why))
    for name, why in failed:
        print("FAIL: %s: %s" % (name, why))
    for name in xpassed:
        print("UNEXPECTED PASS: %s (listed as an expected failure)" % name)
    for (case, form), reason in sorted(EXPECTED_FAILURES.items()):
        print("expected failure: %s/%s.txt: %s" % (case, form, reason))
    cases = len({j[0] for j in jobs})
    print("%s: %d cases, %d runs, %d match PyTorch, %d failures, "
          "%d expected failures, %d unexpected passes" %
          (args.device, cases, len(jobs), passed, len(failed), len(xfailed), len(xpassed)))
    return 1 if failed or xpassed else 0


if __name__ == "__main__":
    sys.exit(main())
