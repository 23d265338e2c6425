#!/usr/bin/env python3
"""Runs the data-movement and control-flow cases (Inputs/data-movement,
written by its generate.py) on the CPU with tsmlir-run, with each fusion
setting, and compares their outputs with eager PyTorch's as run_corpus.py
does (whose helpers it uses). raise_negative also runs with a negative n,
where PyTorch raises: tsmlir-run must stop with exit status 1 and
PyTorch's message, writing no output.

A run that fails or mismatches fails the test unless the table below lists
its case with the reason; a listed case that passes fails the test too.

Usage: run_data_movement.py CASES TMPDIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import run_corpus  # noqa: E402

# case -> why its runs are expected to fail, for every fusion setting (none
# today).
EXPECTED_FAILURES = {}


def main():
    cases_dir, tmp = sys.argv[1], sys.argv[2]
    tally = harness.Tally()
    for case in sorted(os.listdir(cases_dir)):
        case_dir = os.path.join(cases_dir, case)
        meta_path = os.path.join(case_dir, "meta.json")
        if not os.path.exists(meta_path):
            continue
        meta = json.load(open(meta_path))
        path = os.path.join(case_dir, "graph.txt")
        cmd = ["tsmlir-run", path] + [
            "--input=" + a for a in
            run_corpus.inputs_for(case_dir, meta, "graph", "")]
        for variant, flags in run_corpus.VARIANTS:
            out_dir = os.path.join(tmp, case, variant)
            job = (case, "graph", variant, flags, cmd, case_dir, meta, out_dir)
            why = run_corpus.run_one(job)[1]
            tally.record(case, "%s [%s]" % (case, variant), why,
                         EXPECTED_FAILURES.get(case))
    # PyTorch raises for a negative n: so does the compiled code, back to
    # tsmlir-run, which reports it.
    case_dir = os.path.join(cases_dir, "raise_negative")
    out_dir = os.path.join(tmp, "raise_negative", "raises")
    result = harness.run(
        ["tsmlir-run", os.path.join(case_dir, "graph.txt"),
         "--input=" + os.path.join(case_dir, "in0.npy"), "--input=-1",
         "--output-dir", out_dir])
    expected = ("tsmlir-run: graph.txt: the graph raised an exception: "
                "n must not be negative")
    why = None
    if result.returncode != 1:
        why = "exit status %s, not 1" % result.returncode
    elif expected not in result.stderr:
        why = "stderr lacks %r: %r" % (expected, result.stderr[-300:])
    elif os.path.exists(os.path.join(out_dir, "out0.npy")):
        why = "out0.npy written"
    tally.record("raise_negative (n = -1 raises)", "raise_negative [n = -1]",
                 why)
    tally.print_problems()
    for case, reason in sorted(EXPECTED_FAILURES.items()):
        print("expected failure: %s: %s" % (case, reason))
    tally.print("per case")
    print("data movement: %d runs match PyTorch, %d failures, %d expected "
          "failures, %d unexpected passes" %
          (tally.total("match"), tally.total("fail"), tally.total("xfail"),
           tally.total("xpass")))
    return 1 if tally.failures or tally.unexpected_passes else 0


if __name__ == "__main__":
    sys.exit(main())
