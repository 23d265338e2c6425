#!/usr/bin/env python3
"""Runs the regression cases difftest.py found (Inputs/difftest-regressions:
each a minimized random graph that once mismatched eager PyTorch, with its
inputs, PyTorch's outputs and, in meta.json, the seed and run that found
it) on the CPU with tsmlir-run, with every fusion setting, and compares the
outputs with PyTorch's as run_corpus.py does (whose helpers it uses).

A run that fails or mismatches fails the test unless the table below lists
its case with the reason; a listed case that passes fails the test too.

Usage: run_difftest_regressions.py CASES TMPDIR
"""
import concurrent.futures
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
    cases = 0
    jobs = []
    for case in sorted(os.listdir(cases_dir)):
        case_dir = os.path.join(cases_dir, case)
        meta_path = os.path.join(case_dir, "meta.json")
        if not os.path.exists(meta_path):
            continue
        cases += 1
        meta = json.load(open(meta_path))
        cmd = ["tsmlir-run", os.path.join(case_dir, "graph.txt")] + [
            "--input=" + a for a in
            run_corpus.inputs_for(case_dir, meta, "graph", "")]
        for variant, flags in run_corpus.VARIANTS:
            out_dir = os.path.join(tmp, case, variant)
            jobs.append((case, "graph", variant, flags, cmd, case_dir, meta,
                         out_dir))
    tally = harness.Tally()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for job, why in pool.map(run_corpus.run_one, jobs):
            case, variant = job[0], job[2]
            tally.record(case, "%s [%s]" % (case, variant), why,
                         EXPECTED_FAILURES.get(case))
    tally.print_problems()
    for case, reason in sorted(EXPECTED_FAILURES.items()):
        print("expected failure: %s: %s" % (case, reason))
    tally.print("per case")
    print("difftest regressions: %d cases, %d runs match PyTorch, %d failures, "
          "%d expected failures, %d unexpected passes" %
          (cases, tally.total("match"), tally.total("fail"),
           tally.total("xfail"), tally.total("xpass")))
    return 1 if tally.failures or tally.unexpected_passes else 0


if __name__ == "__main__":
    sys.exit(main())
