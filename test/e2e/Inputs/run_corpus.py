#!/usr/bin/env python3
"""Runs every corpus case on the CPU with tsmlir-run and compares its outputs
with PyTorch's (the case's outN.npy, recorded from eager PyTorch).

Each case runs from every graph form it has (graph.txt, inlined.txt,
traced.txt, traced_inlined.txt, frozen.txt), with the module's parameters
where it has them, and with each fusion setting: no fusion groups, and the
pointwise, nnc, nvfuser and aggressive strategies. An output must have the
dtype and shape of PyTorch's and be close to it (harness.py: the
tolerances by dtype, and why; integers and booleans equal).

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

With --jit each form runs once through tsmlir-run --jit (the nnc strategy)
with three calls on the case's inputs: the first profiles (the fallback
runs), the second compiles the specialisation, the third hits it; the
outputs of all three must match PyTorch's. With --jit-dynamic the
strategy is STATIC:0,DYNAMIC:1: the second call compiles the graph for
dynamic sizes (or, when one of its ops has no lowering for them, runs the
fallback), the third runs that code; a summary counts the forms compiled
for dynamic sizes and names the ops that kept the others static.

Usage: run_corpus.py CORPUS CALLEES TMPDIR [--jobs N] [--only CASE,...]
                     [--device cpu|cuda] [--jit] [--jit-dynamic]
"""
import argparse
import concurrent.futures
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

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
    """None when every output matches PyTorch's, else why not."""
    return harness.compare_dir(out_dir, [
        os.path.join(case_dir, "out%d.npy" % i)
        for i in range(meta["n_outputs"])])


JIT_CALLS = 3


def run_one(job):
    case, form, variant, flags, cmd, case_dir, meta, out_dir = job
    why = harness.run_tool(cmd + flags, out_dir)
    if not variant.startswith("jit"):
        return job, why or compare(out_dir, case_dir, meta)
    for k in range(JIT_CALLS):
        why = why or compare(os.path.join(out_dir, "call%d" % k), case_dir,
                             meta)
    return job, why


def jit_command(cmd):
    """The tsmlir-run command `cmd` as JIT_CALLS calls of tsmlir-run --jit,
    each on the same inputs."""
    inputs = [a[len("--input="):] for a in cmd if a.startswith("--input=")]
    rest = [a for a in cmd if not a.startswith("--input=")]
    return rest + ["--jit"] + ["--call=" + ",".join(inputs)] * JIT_CALLS


def print_dynamic_summary(jobs):
    """How many forms compiled for dynamic sizes, and, by op, why the others
    did not (the JIT's log, in each form's stdout.txt)."""
    dynamic, blockers = 0, {}
    for job in jobs:
        path = os.path.join(job[-1], "stdout.txt")
        log = open(path).read() if os.path.exists(path) else ""
        if "call 1: compiled dynamic" in log:
            dynamic += 1
            continue
        m = re.search(r"no dynamic specialisation for \[.*\]: (.*)", log)
        why = m.group(1) if m else "no log"
        op = re.search(r"'([a-z_]+::[A-Za-z0-9_.]+)' has no lowering for "
                       r"tensors of dynamic sizes", why)
        key = op.group(1) if op else re.sub(r"^\S+:\d+:\d+: ", "", why)
        blockers[key] = blockers.get(key, 0) + 1
    print("dynamic sizes: %d of %d forms compiled for them" %
          (dynamic, len(jobs)))
    for key, n in sorted(blockers.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  static only: %s (%d forms)" % (key, n))


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
    parser.add_argument("--jit", action="store_true",
                        help="three calls of tsmlir-run --jit per form")
    parser.add_argument("--jit-dynamic", action="store_true",
                        help="the same with STATIC:0,DYNAMIC:1")
    args = parser.parse_args()
    args.jit = args.jit or args.jit_dynamic

    jobs = []
    only = set(filter(None, args.only.split(",")))
    for case, form, cmd, case_dir, meta in corpus_commands(
            args.corpus, args.callees, only, args.tool):
        if args.device != "cpu":
            cmd = cmd + ["--device", args.device]
        if args.jit:
            variant = "jit-dynamic" if args.jit_dynamic else "jit"
            flags = (["--jit-log", "--jit-strategy", "STATIC:0,DYNAMIC:1"]
                     if args.jit_dynamic else [])
            out_dir = os.path.join(args.tmp, case, form, variant)
            jobs.append((case, form, variant, flags, jit_command(cmd),
                         case_dir, meta, out_dir))
            continue
        for variant, flags in VARIANTS:
            out_dir = os.path.join(args.tmp, case, form, variant)
            jobs.append((case, form, variant, flags, cmd, case_dir, meta,
                         out_dir))

    tally = harness.Tally()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job, why in pool.map(run_one, jobs):
            case, form, variant = job[:3]
            tally.record(case, "%s/%s.txt [%s]" % (case, form, variant), why,
                         EXPECTED_FAILURES.get((case, form)))
    tally.print_problems()
    for (case, form), reason in sorted(EXPECTED_FAILURES.items()):
        print("expected failure: %s/%s.txt: %s" % (case, form, reason))
    tally.print("per case")
    if args.jit_dynamic:
        print_dynamic_summary(jobs)
    cases = len({j[0] for j in jobs})
    print("%s%s: %d cases, %d runs, %d match PyTorch, %d failures, "
          "%d expected failures, %d unexpected passes" %
          (args.device, " jit" if args.jit else "", cases, len(jobs), tally.total("match"),
           tally.total("fail"), tally.total("xfail"), tally.total("xpass")))
    return 1 if tally.failures or tally.unexpected_passes else 0


if __name__ == "__main__":
    sys.exit(main())
