#!/usr/bin/env python3
"""Checks that every op convert-ts-to-linalg has a pattern for is lowered by
at least one test.

OPS is the list the pass prints with `list-patterns=true`, one op name a
line. The inputs that tests lower are:

  * the MLIR of test/Conversion/TorchScriptToLinalg and test/Pipelines:
    each `// -----` chunk of a file whose RUN lines run the conversion
    (`--convert-ts-to-linalg` or a `--ts-lower-to-*` pipeline), except
    chunks that expect a diagnostic (their ops need not lower);
  * the TorchScript graphs the end-to-end tests compile and run with
    tsmlir-run: every graph form of the corpus (test/Corpus, the forms
    test/e2e/Inputs/run_corpus.py runs) and the cases of
    test/e2e/Inputs/data-movement and test/e2e/Inputs/difftest-regressions,
    each imported with `tsmlir-translate --import-torchscript`.

An op of OPS that none of them holds is printed as `UNCOVERED: <op>`, and
the script fails; a lowering test for it belongs in
test/Conversion/TorchScriptToLinalg.

Usage: check_pattern_coverage.py OPS SRC_ROOT [--translate TOOL] [--verbose]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

# An op name as the custom (`ts.aten.add.Tensor %a`) or generic
# (`"ts.aten.add.Tensor"(%a)`) form prints it; not a type or attribute
# (`!ts.tensor`, `#ts...`).
OP_NAME = re.compile(r'(?<![\w!#.])"?((?:ts|fusion|kernel)\.[A-Za-z0-9_.]+)')
LOWERING_RUN = re.compile(r"RUN:.*--(convert-ts-to-linalg|ts-lower-to-)")
CORPUS_FORMS = ["graph", "inlined", "traced", "traced_inlined", "frozen"]


def ops_in(text):
    return {m.group(1).rstrip(".") for m in OP_NAME.finditer(text)}


def mlir_sources(root):
    """(name, ops) for each lowered chunk of the MLIR lowering tests."""
    files = sorted(glob.glob(os.path.join(
        root, "test/Conversion/TorchScriptToLinalg/*.mlir")))
    files += sorted(glob.glob(os.path.join(root, "test/Pipelines/*.mlir")))
    for path in files:
        text = open(path).read()
        if not LOWERING_RUN.search(text):
            continue
        chunks = re.split(r"^// -----\s*$", text, flags=re.M)
        for i, chunk in enumerate(chunks):
            if "expected-error" in chunk or "expected-warning" in chunk:
                continue
            # RUN and CHECK lines name ops too; only the IR counts.
            ir = "\n".join(line for line in chunk.splitlines()
                           if not line.lstrip().startswith("//"))
            yield "%s (chunk %d)" % (os.path.relpath(path, root), i), ops_in(ir)


def graph_sources(root, translate):
    """(name, ops) for each TorchScript graph an end-to-end test runs."""
    graphs = []
    for case in sorted(glob.glob(os.path.join(root, "test/Corpus/*/"))):
        for form in CORPUS_FORMS:
            graphs.append(os.path.join(case, form + ".txt"))
    for cases in ["test/e2e/Inputs/data-movement",
                  "test/e2e/Inputs/difftest-regressions"]:
        graphs += sorted(glob.glob(os.path.join(root, cases, "*/graph.txt")))
    graphs = [path for path in graphs if os.path.exists(path)]

    def load(path):
        return subprocess.run([translate, "--import-torchscript", path],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for path, result in zip(graphs, pool.map(load, graphs)):
            if result.returncode != 0:
                sys.exit("%s does not import:\n%s" % (path, result.stderr))
            yield os.path.relpath(path, root), ops_in(result.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ops")
    parser.add_argument("root")
    parser.add_argument("--translate", default="tsmlir-translate")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    wanted = [line.strip() for line in open(args.ops) if line.strip()]
    if not wanted:
        sys.exit("no op names in %s" % args.ops)
    first = {}
    for source, ops in list(mlir_sources(args.root)) + list(
            graph_sources(args.root, args.translate)):
        for op in ops:
            first.setdefault(op, source)

    uncovered = [op for op in wanted if op not in first]
    for op in uncovered:
        print("UNCOVERED: %s" % op)
    if args.verbose:
        for op in wanted:
            if op in first:
                print("%s: %s" % (op, first[op]))
    print("%d ops with a pattern, %d lowered by a test, %d by none" %
          (len(wanted), len(wanted) - len(uncovered), len(uncovered)))
    return 1 if uncovered else 0


if __name__ == "__main__":
    sys.exit(main())
