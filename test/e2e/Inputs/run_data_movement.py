#!/usr/bin/env python3
"""Runs the data-movement and control-flow cases (Inputs/data-movement,
written by its generate.py) on the CPU with tsmlir-run, with each fusion
setting, and compares their outputs with eager PyTorch's as run_corpus.py
does (whose helpers it uses). raise_negative also runs with a negative n,
where PyTorch raises: the compiled code must abort.

A run that fails or mismatches fails the test unless the table below lists
its case with the reason; a listed case that passes fails the test too.

Usage: run_data_movement.py CASES TMPDIR
"""
import json
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_corpus  # noqa: E402

# case -> why its runs are expected to fail, for every fusion setting (none
# today).
EXPECTED_FAILURES = {}


def main():
    cases_dir, tmp = sys.argv[1], sys.argv[2]
    passed, failed, xfailed, xpassed = 0, [], [], []
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
            name = "%s [%s]" % (case, variant)
            expected = EXPECTED_FAILURES.get(case)
            if why is None and expected is None:
                passed += 1
            elif why is None:
                xpassed.append(name)
            elif expected is not None:
                xfailed.append(name)
            else:
                failed.append((name, why))
    # PyTorch raises for a negative n: the compiled code aborts.
    case_dir = os.path.join(cases_dir, "raise_negative")
    result = subprocess.run(
        ["tsmlir-run", os.path.join(case_dir, "graph.txt"),
         "--input=" + os.path.join(case_dir, "in0.npy"), "--input=-1",
         "--output-dir", os.path.join(tmp, "raise_negative", "raises")],
        capture_output=True, text=True)
    if result.returncode != -signal.SIGABRT:
        failed.append(("raise_negative [n = -1]",
                       "exit status %d, not an abort" % result.returncode))
    else:
        passed += 1
    for name, why in failed:
        print("FAIL: %s: %s" % (name, why))
    for name in xpassed:
        print("UNEXPECTED PASS: %s (listed as an expected failure)" % name)
    for case, reason in sorted(EXPECTED_FAILURES.items()):
        print("expected failure: %s: %s" % (case, reason))
    print("data movement: %d runs match PyTorch, %d failures, %d expected "
          "failures, %d unexpected passes" %
          (passed, len(failed), len(xfailed), len(xpassed)))
    return 1 if failed or xpassed else 0


if __name__ == "__main__":
    sys.exit(main())
