#!/usr/bin/env python3
"""Counts a lit run's results from its xUnit file (lit --xunit-xml-output).

    lit_results.py RESULTS.xml [LABEL]
    lit_results.py --total LABEL RESULTS.xml...

The first form prints the skipped (UNSUPPORTED) tests by name, the slowest
tests with their times, then 'LABEL: P passed, F failed, S skipped' (LABEL:
'tsmlir tests'), or says that lit did not run. scripts/test.sh and
scripts/sanitize.sh end with it. The second adds up several runs (.ci/run's
last line); a file that cannot be read counts as a failure.
"""
import sys
import xml.etree.ElementTree as ET

SLOWEST = 8


def cases(path):
    """[(name, outcome, seconds)] with outcome 'passed', 'failed' or
    'skipped', or None when the file cannot be read."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    out = []
    for case in root.iter("testcase"):
        name = "%s/%s" % (case.get("classname", ""), case.get("name", ""))
        if case.find("failure") is not None or case.find("error") is not None:
            outcome = "failed"
        elif case.find("skipped") is not None:
            outcome = "skipped"
        else:
            outcome = "passed"
        out.append((name, outcome, float(case.get("time", 0) or 0)))
    return out


def count(path):
    """(passed, failed, skipped), or None when the file cannot be read."""
    found = cases(path)
    if found is None:
        return None
    return tuple(sum(1 for c in found if c[1] == o)
                 for o in ("passed", "failed", "skipped"))


def summary(path, label):
    counts = count(path)
    if counts is None:
        return "%s: no results (lit did not run)" % label
    return "%s: %d passed, %d failed, %d skipped" % ((label,) + counts)


def details(path):
    """Lines naming the skipped tests and the slowest ones."""
    found = cases(path) or []
    lines = ["skipped: %s" % name for name, o, _ in found if o == "skipped"]
    slowest = sorted(found, key=lambda c: -c[2])[:SLOWEST]
    if slowest:
        lines.append("slowest tests:")
        lines += ["  %7.1f s  %s" % (t, name) for name, _, t in slowest]
    return lines


def total(label, paths):
    passed = failed = skipped = 0
    for path in paths:
        counts = count(path)
        if counts is None:
            failed += 1
            continue
        passed, failed, skipped = (passed + counts[0], failed + counts[1],
                                   skipped + counts[2])
    return "%s: %d passed, %d failed, %d skipped" % (label, passed, failed,
                                                     skipped)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--total":
        print(total(sys.argv[2], sys.argv[3:]))
    elif len(sys.argv) in (2, 3):
        for line in details(sys.argv[1]):
            print(line)
        print(summary(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else
                      "tsmlir tests"))
    else:
        sys.exit("usage: lit_results.py RESULTS.xml [LABEL] | "
                 "--total LABEL RESULTS.xml...")
