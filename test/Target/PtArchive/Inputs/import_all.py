"""Imports every archive that save_torchvision.py wrote.

    python3 import_all.py DIR [--timeout S]

Runs `tsmlir-translate --import-pt DIR/<model>/<form>.pt` on each archive
(sorted), with a timeout of S seconds an archive (60; TSMLIR_CASE_TIMEOUT
overrides the default), and prints one line per archive:

  resnet18/scripted.pt: imported, 0.21 s
  vit_b_16/scripted.pt: FAILED: error: ...        (its first error line)

(a run that exits with 0 but writes to stderr fails too, as `FAILED:
stderr: <its first line>`), then the forms PyTorch itself could not make
(from DIR/pytorch.json: not archives, not counted), the time of all the
imports and the slowest, and the total

  torchvision: N archives, M imported, F failures

A failure listed in XFAIL below with the same first error line is an
expected failure: it counts among the F failures and its line reads as any
other. Anything else makes the driver say so and exit with status 1: a
failure not in XFAIL or with another error (`UNEXPECTED FAILURE: ...`), an
archive in XFAIL that imports (`UNEXPECTED PASS: ...`), an XFAIL entry whose
archive is missing.

The time is the wall-clock time of the whole tsmlir-translate process,
output to /dev/null: reading the archive (zip, pickles, code), parsing the
code, emitting and inlining the method, and printing the module, weights
included (MLIR hex-encodes them: most of the time and memory for large
models goes there; --mlir-elide-resource-strings-if-larger is no faster,
as MLIR encodes the blob before eliding it).
"""
import argparse
import json
import os
import subprocess
import sys
import time

# archive -> its first error line, for importer bugs not fixed yet, each
# with its reproducer in a comment. Empty: every archive imports (tsmlir
# at the time of writing, PyTorch 1.13, torchvision 0.14).
XFAIL = {
}


def first_error(stderr, returncode):
    lines = [l for l in stderr.splitlines() if "error:" in l]
    why = (lines or stderr.strip().splitlines() or
           ["exit status %s" % returncode])[0]
    return "error: " + why.split("error: ", 1)[-1].strip()


def import_archive(path, timeout):
    """(None or the first error line, seconds)."""
    cmd = ["tsmlir-translate", "--import-pt", path, "-o", os.devnull]
    start = time.time()
    try:
        result = subprocess.run(cmd, capture_output=True, text=True,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        return "error: timed out after %d s" % timeout, time.time() - start
    seconds = time.time() - start
    if result.returncode != 0:
        return first_error(result.stderr, result.returncode), seconds
    if result.stderr.strip():  # warnings count as failures too
        return "stderr: " + result.stderr.strip().splitlines()[0], seconds
    return None, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--timeout", type=int,
                        default=int(os.environ.get("TSMLIR_CASE_TIMEOUT",
                                                   "60")))
    args = parser.parse_args()

    archives = sorted(
        "%s/%s" % (model, f)
        for model in os.listdir(args.dir)
        if os.path.isdir(os.path.join(args.dir, model))
        for f in os.listdir(os.path.join(args.dir, model))
        if f.endswith(".pt"))
    print("per archive:")
    imported = failures = 0
    problems = []
    total_seconds = 0.0
    slowest = (0.0, "")
    for name in archives:
        path = os.path.join(args.dir, name)
        why, seconds = import_archive(path, args.timeout)
        total_seconds += seconds
        slowest = max(slowest, (seconds, name))
        if why is None:
            imported += 1
            print("%s: imported, %.2f s" % (name, seconds), flush=True)
            if name in XFAIL:
                problems.append("UNEXPECTED PASS: %s (listed in XFAIL)"
                                % name)
            continue
        failures += 1
        print("%s: FAILED: %s" % (name, why), flush=True)
        if XFAIL.get(name) != why:
            problems.append("UNEXPECTED FAILURE: %s: %s%s" % (
                name, why, "" if name not in XFAIL else
                " (XFAIL expects: %s)" % XFAIL[name]))
    for name in sorted(set(XFAIL) - set(archives)):
        problems.append("XFAIL entry without an archive: %s" % name)

    report_path = os.path.join(args.dir, "pytorch.json")
    if os.path.exists(report_path):
        with open(report_path) as f:
            report = json.load(f)
        for key, why in sorted(report.get("pytorch_cannot", {}).items()):
            print("%s: not saved: PyTorch cannot make it: %s" % (key, why))

    for p in problems:
        print(p)
    print("import time: %.1f s in all, slowest %s (%.2f s)"
          % (total_seconds, slowest[1], slowest[0]))
    print("torchvision: %d archives, %d imported, %d failures%s"
          % (len(archives), imported, failures,
             ", %d unexpected" % len(problems) if problems else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
