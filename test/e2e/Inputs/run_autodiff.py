#!/usr/bin/env python3
"""Runs every corpus case forward and backward with tsmlir-run --grad-output
and compares the gradients of its inputs with eager autograd's.

    run_autodiff.py CORPUS CALLEES TMP [--jobs N] [--only a,b]

Each graph form of each case (run_corpus.py's forms and command lines) runs
with the case's upstream gradients (grad_outK.npy, one per output that
requires grad) without fusion and with the nnc strategy, each with the
save-all and the min-cut policy (--ts-autodiff-policy); the outputs must
match out*.npy and each grad_inI.npy the case has must match tsmlir's
(harness.py's tolerances), and a module's grad_params.safetensors, each
parameter's gradient by its dotted name, must match the case's. Prints one line per problem,
the tally per case and a summary line.
"""

import argparse
import concurrent.futures
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import run_corpus  # noqa: E402

# Fusion off and on, each with both save policies (what the forward saves
# for the backward, which tsmlir-run compiles as two functions).
VARIANTS = [
    ("no-fusion save-all", ["--no-fusion", "--ts-autodiff-policy=save-all"]),
    ("no-fusion min-cut", ["--no-fusion", "--ts-autodiff-policy=min-cut"]),
    ("nnc save-all", ["--ts-autodiff-policy=save-all"]),
    ("nnc min-cut", ["--ts-autodiff-policy=min-cut"]),
]

# (case, form) -> why it is expected to fail; a form not listed must pass.
EXPECTED_FAILURES = {}


def grad_files(case_dir, meta):
    grads = meta.get("gradients") or {}
    outs = [os.path.join(case_dir, f) for f in grads.get("grad_outputs", [])]
    ins = [os.path.join(case_dir, f) for f in grads.get("grad_inputs", [])]
    return outs, ins


def run_one(job):
    case, form, variant, cmd, case_dir, meta, out_dir = job
    grad_outs, grad_ins = grad_files(case_dir, meta)
    cmd = cmd + ["--grad-output=" + g for g in grad_outs]
    why = harness.run_tool(cmd, out_dir)
    why = why or run_corpus.compare(out_dir, case_dir, meta)
    for ref in grad_ins:
        if why:
            break
        name = os.path.basename(ref)
        path = os.path.join(out_dir, name)
        if not os.path.exists(path):
            why = "%s missing" % name
            break
        why = harness.mismatch(np.load(path), np.load(ref), name[:-4])
    # A module's parameters' gradients, by dotted name (the frozen form's
    # attributes are folded into constants of other names: not compared).
    ref_params = os.path.join(case_dir, "grad_params.safetensors")
    if not why and os.path.exists(ref_params) and form != "frozen":
        path = os.path.join(out_dir, "grad_params.safetensors")
        if not os.path.exists(path):
            return job, "grad_params.safetensors missing"
        ours = harness.read_safetensors(path)
        for name, ref in sorted(harness.read_safetensors(ref_params).items()):
            if name not in ours:
                why = "no gradient for parameter %s" % name
                break
            why = harness.mismatch(ours[name], ref, "grad of " + name)
            if why:
                break
    return job, why


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("callees")
    parser.add_argument("tmp")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="")
    args = parser.parse_args()

    jobs = []
    only = set(filter(None, args.only.split(",")))
    for case, form, cmd, case_dir, meta in run_corpus.corpus_commands(
            args.corpus, args.callees, only):
        if not meta.get("differentiable") or not grad_files(case_dir,
                                                            meta)[0]:
            continue
        for variant, flags in VARIANTS:
            out_dir = os.path.join(args.tmp, case, form,
                                   variant.replace(" ", "-"))
            jobs.append((case, form, variant, cmd + flags, case_dir, meta,
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
    cases = len({j[0] for j in jobs})
    print("autodiff: %d cases, %d runs, %d match eager autograd, %d failures, "
          "%d expected failures, %d unexpected passes" %
          (cases, len(jobs), tally.total("match"), tally.total("fail"),
           tally.total("xfail"), tally.total("xpass")))
    return 1 if tally.failures or tally.unexpected_passes else 0


if __name__ == "__main__":
    sys.exit(main())
