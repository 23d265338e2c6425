#!/usr/bin/env python3
"""Counts a lit run's results from its xUnit file (lit --xunit-xml-output).

    lit_results.py RESULTS.xml [LABEL]

prints 'LABEL: P passed, F failed, S skipped' (LABEL: 'tsmlir tests'), or says
that lit did not run. scripts/test.sh and scripts/sanitize.sh end with it.
"""
import sys
import xml.etree.ElementTree as ET


def count(path):
    """(passed, failed, skipped), or None when the file cannot be read."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    passed = failed = skipped = 0
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def summary(path, label):
    counts = count(path)
    if counts is None:
        return "%s: no results (lit did not run)" % label
    return "%s: %d passed, %d failed, %d skipped" % ((label,) + counts)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: lit_results.py RESULTS.xml [LABEL]")
    print(summary(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else
                  "tsmlir tests"))
