#!/usr/bin/env python3
"""Runs every corpus case from the archives torch.jit.save wrote of it
(make_pt_archives.py: scripted.pt, frozen.pt for modules, traced.pt) with
tsmlir-run, and compares its outputs with PyTorch's (the case's outN.npy;
harness.py's tolerances).

scripted.pt and frozen.pt take the case's arguments as run_corpus.py passes
them to graph.txt (tensor files and scalars in argument order); traced.pt
takes the tensors its traced.json names (the trace bound the rest).

A run that fails or mismatches fails the test unless EXPECTED_FAILURES lists
it with the same reason (the first error tsmlir prints, harness.first_error,
or the mismatch harness.py reports); a listed run that passes, or fails for
another reason, fails the test too, so the table stays true.

Prints one line per archive, sorted, then the total:

  per case:
    CASE/FORM.pt: N outputs, match|expected failure|FAIL|UNEXPECTED PASS
  pt archives: N archives, M match, F failures, X expected failures

Usage: run_pt_archives.py CORPUS ARCHIVES TMPDIR [--jobs N] [--only CASE,...]
"""
import argparse
import concurrent.futures
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from run_corpus import inputs_for  # noqa: E402

# (case, archive) -> the reason the run fails, exactly as the driver sees
# it: tsmlir-run's first error (harness.first_error) or the mismatch. Every
# archive of the corpus runs and matches today.
EXPECTED_FAILURES = {}


def inputs(case_dir, archive_dir, meta, archive):
    """The --input values of `archive`: every argument for scripted.pt and
    frozen.pt, the tensors traced.json names for traced.pt."""
    if archive != "traced.pt":
        return inputs_for(case_dir, meta, "scripted", None)
    with open(os.path.join(archive_dir, "traced.json")) as f:
        names = json.load(f)["inputs"]
    files = {spec["name"]: spec.get("file") for spec in meta["inputs"]
             if spec["kind"] == "tensor"}
    return [os.path.join(case_dir, files[name]) for name in names]


def run_one(job):
    case, archive, cmd, refs, out_dir = job
    why = harness.run_tool(cmd, out_dir)
    return job, why or harness.compare_dir(out_dir, refs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("archives")
    parser.add_argument("tmp")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="")
    parser.add_argument("--tool", default="tsmlir-run")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))

    with open(os.path.join(args.archives, "manifest.json")) as f:
        manifest = json.load(f)
    jobs, skipped = [], []
    for case in sorted(manifest):
        if only and case not in only:
            continue
        case_dir = os.path.join(args.corpus, case)
        archive_dir = os.path.join(args.archives, case)
        with open(os.path.join(case_dir, "meta.json")) as f:
            meta = json.load(f)
        refs = [os.path.join(case_dir, "out%d.npy" % i)
                for i in range(meta["n_outputs"])]
        for archive in manifest[case]["archives"]:
            cmd = [args.tool, os.path.join(archive_dir, archive)]
            cmd += ["--input=" + a for a in
                    inputs(case_dir, archive_dir, meta, archive)]
            jobs.append((case, archive, cmd, refs,
                         os.path.join(args.tmp, case, archive[:-3])))
        skipped += [("%s/%s" % (case, form), why) for form, why in
                    sorted(manifest[case]["skipped"].items())]

    tally = harness.Tally()
    lines = []
    labels = {"match": "match", "xfail": "expected failure",
              "fail": "FAIL", "xpass": "UNEXPECTED PASS"}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job, why in pool.map(run_one, jobs):
            case, archive, _, refs = job[:4]
            name = "%s/%s" % (case, archive)
            expected = EXPECTED_FAILURES.get((case, archive))
            if why and expected and why != expected:
                # Listed, but failing for another reason: a failure.
                why = "%s (listed as an expected failure with: %s)" % (
                    why, expected)
                expected = None
            outcome = tally.record(name, name, why, expected)
            lines.append("  %s: %d outputs, %s" % (name, len(refs),
                                                   labels[outcome]))
    tally.print_problems()
    for name, why in skipped:
        print("skipped: %s: %s" % (name, why))
    for (case, archive), reason in sorted(EXPECTED_FAILURES.items()):
        if only and case not in only:
            continue
        print("expected failure: %s/%s: %s" % (case, archive, reason))
    print("per case:")
    for line in sorted(lines):
        print(line)
    failures = tally.total("fail") + tally.total("xpass")
    print("pt archives: %d archives, %d match, %d failures, "
          "%d expected failures" % (len(jobs), tally.total("match"),
                                    failures, tally.total("xfail")))
    if failures:
        # lit shows stderr of a failing RUN line; stdout goes to a file.
        for name, why in tally.failures:
            print("FAIL: %s: %s" % (name, why), file=sys.stderr)
        for name in tally.unexpected_passes:
            print("UNEXPECTED PASS: %s" % name, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
