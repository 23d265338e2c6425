#!/usr/bin/env python3
"""Compiles every corpus case ahead of time and runs the compiled model.

For each graph form of each case (as run_corpus.py finds them):

  1. tsmlir-compile FORM.txt --input ... --shared -o model.so
     --emit-header model.h   (fusion strategy nnc; --target cuda with
     --device cuda)
  2. the header is compiled as C99 and as C++17 with -Wall -Werror
     -pedantic, including it twice (its include guard) and beside
     tsmlir/Runtime/Abi.h (the ABI's include guard);
  3. tsmlir-run model.so --input ...: the shared object is opened and called
     through the C ABI with the reference inputs, and its outputs compared
     with PyTorch's as run_corpus.py does.

Usage: run_corpus_aot.py CORPUS CALLEES TMPDIR --cc CLANG --abi-include DIR
                         [--jobs N] [--only CASE,...] [--device cpu|cuda]
"""
import argparse
import concurrent.futures
import os
import sys

import harness
from run_corpus import compare, corpus_commands


def header_check(cc, abi_include, header, tmp):
    """None when the header compiles as C and as C++, else why not."""
    for lang, std, ext in (("c", "-std=c99", "c"), ("c++", "-std=c++17", "cpp")):
        source = os.path.join(tmp, "header_check." + ext)
        with open(source, "w") as f:
            f.write('#include "%s"\n#include "%s"\n'
                    '#include "tsmlir/Runtime/Abi.h"\n'
                    'int main(void) { return 0; }\n' % (header, header))
        result = harness.run(
            [cc, "-x", lang, std, "-Wall", "-Wextra", "-Werror", "-pedantic",
             "-fsyntax-only", "-I", abi_include, source])
        if result.returncode != 0:
            return "header as %s: %s" % (lang, result.stderr.strip()[:300])
    return None


def run_one(job):
    case, form, compile_cmd, run_cmd, case_dir, meta, tmp, args = job
    os.makedirs(tmp, exist_ok=True)
    out_dir = os.path.join(tmp, "out")
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, f))
    model = os.path.join(tmp, "model.so")
    header = os.path.join(tmp, "model.h")
    result = harness.run(
        compile_cmd + ["--shared", "-o", model, "--emit-header", header])
    if result.returncode != 0:
        return job, "compile: " + harness.first_error(result)
    why = header_check(args.cc, args.abi_include, header, tmp)
    if why:
        return job, why
    result = harness.run(run_cmd[:1] + [model] + run_cmd[2:] +
                         ["--output-dir", out_dir])
    if result.returncode != 0:
        return job, "run: " + harness.first_error(result)
    return job, compare(out_dir, case_dir, meta)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("callees")
    parser.add_argument("tmp")
    parser.add_argument("--cc", required=True)
    parser.add_argument("--abi-include", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    args = parser.parse_args()

    only = set(filter(None, args.only.split(",")))
    jobs = []
    for case, form, cmd, case_dir, meta in corpus_commands(
            args.corpus, args.callees, only, "tsmlir-compile"):
        compile_cmd = cmd + ["--strategy", "nnc"]
        if args.device == "cuda":
            compile_cmd += ["--target", "cuda"]
        # tsmlir-run takes the same inputs (all of the graph's arguments).
        run_cmd = ["tsmlir-run", cmd[1]] + [
            a for a in cmd[2:] if a.startswith("--input=")]
        jobs.append((case, form, compile_cmd, run_cmd, case_dir, meta,
                     os.path.join(args.tmp, case, form), args))

    passed, failed = 0, []
    tally = harness.Tally()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job, why in pool.map(run_one, jobs):
            if why is None:
                passed += 1
            else:
                failed.append(("%s/%s.txt" % (job[0], job[1]), why))
            tally.add(job[0], "fail" if why else "match")
    for name, why in failed:
        print("FAIL: %s: %s" % (name, why))
    tally.print("per case")
    cases = len({j[0] for j in jobs})
    print("aot %s: %d cases, %d graphs compiled, linked and run, %d match "
          "PyTorch, %d failures" % (args.device, cases, len(jobs), passed,
                                    len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
