#!/usr/bin/env python3
"""Compiles every corpus case for the GPU (tsmlir-run --device cuda
--compile-only, no GPU needed) and checks the PTX with FileCheck: one kernel
per fusion group.

For each case and graph form, with the nnc strategy:

  * the fusion groups are counted in the specialised ts module tsmlir-run
    dumps (ts.mlir);
  * a FileCheck file is written that expects, in the PTX of the function's
    kernel module, exactly one `.entry <fn>_group<N>` for each group N, no
    second kernel for any group (`<fn>_group<N>_1`), and as many `.entry`
    as the host code launches kernels (tsmlir-run's summary);
  * FileCheck checks the PTX against it.

With --ptxas PATH, every PTX is also compiled for sm_80 and sm_90 (tsmlir-run
--gpu-chip) and assembled by ptxas for that chip.

Groups that fusion could not make one loop nest are listed in
MULTI_KERNEL_GROUPS with the reason; a listed group that becomes one kernel
fails the run too, so the table stays true.

Usage: check_ptx.py CORPUS CALLEES TMPDIR [--ptxas PATH] [--jobs N]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from run_corpus import corpus_commands  # noqa: E402

# (case, form) -> why a group of it takes several kernels.
MULTI_KERNEL_GROUPS = {
    ("conv_block", "graph"):
        "the group holds a convolution: a contraction is a kernel of its own "
        "(no epilogue fusion yet)",
    ("mlp_module", "graph"):
        "the group holds linear layers: each matrix product is a kernel of "
        "its own (no matmul epilogue fusion yet)",
    ("sdpa_manual", "graph"):
        "the group holds two batched matmuls around a softmax: each "
        "product is a kernel of its own (no matmul epilogue fusion yet)",
}


def compile_case(cmd, out_dir, chip):
    """Runs tsmlir-run --compile-only; (kernel count, error)."""
    os.makedirs(out_dir, exist_ok=True)
    for f in glob.glob(os.path.join(out_dir, "*")):
        os.remove(f)
    result = harness.run(
        cmd + ["--strategy", "nnc", "--device", "cuda", "--compile-only",
               "--gpu-chip", chip, "--dump-ir", out_dir])
    if result.returncode != 0:
        lines = [l for l in result.stderr.splitlines() if "error:" in l]
        return None, (lines or result.stderr.splitlines() or ["?"])[0]
    m = re.search(r"(\d+) kernels?", result.stdout)
    return int(m.group(1)), None


def check(job):
    case, form, cmd, tmp, filecheck, ptxas = job
    out_dir = os.path.join(tmp, case, form)
    kernels, error = compile_case(cmd, out_dir, "sm_90")
    if error:
        return job, "error: " + error.split("error: ", 1)[-1], 0, 0
    ts = open(os.path.join(out_dir, "ts.mlir")).read()
    groups = len(re.findall(r'fusion\.group [a-z]+ \(', ts))
    ptx_files = glob.glob(os.path.join(out_dir, "*.ptx"))
    if kernels and len(ptx_files) != 1:
        return job, "%d PTX files for %d kernels" % (len(ptx_files),
                                                     kernels), groups, kernels
    if not kernels:
        return job, None, groups, 0
    ptx = ptx_files[0]
    fn = os.path.basename(ptx)[:-len("_kernels.ptx")]
    checks = []
    for g in range(groups):
        checks.append("CHECK-DAG: .entry %s_group%d(" % (fn, g))
    checks.append("CHECK-NOT: .entry %s_group{{[0-9]+}}_" % fn)
    check_file = os.path.join(out_dir, "kernels.check")
    with open(check_file, "w") as f:
        f.write("\n".join(checks) + "\n")
    count_file = os.path.join(out_dir, "count.check")
    with open(count_file, "w") as f:
        f.write("CHECK-COUNT-%d: .entry\nCHECK-NOT: .entry\n" % kernels)
    multi = (case, form) in MULTI_KERNEL_GROUPS
    for check_path in [check_file, count_file]:
        result = harness.run([filecheck, check_path, "--input-file", ptx])
        if result.returncode != 0 and not (multi and check_path == check_file):
            return job, "FileCheck %s: %s" % (
                os.path.basename(check_path),
                (result.stderr.strip().splitlines() or ["?"])[0]), groups, kernels
        if result.returncode == 0 and multi and check_path == check_file:
            return job, "listed in MULTI_KERNEL_GROUPS but every group is " \
                        "one kernel", groups, kernels
    if ptxas:
        for chip in ["sm_80", "sm_90"]:
            chip_dir = os.path.join(out_dir, chip)
            _, error = compile_case(cmd, chip_dir, chip)
            if error:
                return job, "%s: %s" % (chip, error), groups, kernels
            for p in glob.glob(os.path.join(chip_dir, "*.ptx")):
                result = harness.run(
                    [ptxas, "-arch=" + chip, p, "-o", p + ".cubin"])
                if result.returncode != 0:
                    return job, "ptxas %s: %s" % (
                        chip, (result.stderr.strip().splitlines() or
                               ["?"])[0]), groups, kernels
    return job, None, groups, kernels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("callees")
    parser.add_argument("tmp")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--filecheck", default="FileCheck")
    parser.add_argument("--ptxas", default="")
    parser.add_argument("--forms", default="graph")
    args = parser.parse_args()
    forms = set(args.forms.split(","))
    jobs = [(case, form, cmd, args.tmp, args.filecheck, args.ptxas)
            for case, form, cmd, _, _ in corpus_commands(args.corpus,
                                                          args.callees)
            if form in forms]
    failures, total_groups, total_kernels = [], 0, 0
    per_case = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job, why, groups, kernels in pool.map(check, jobs):
            total_groups += groups
            total_kernels += kernels
            per_case.append("  %s/%s.txt: %d groups, %d kernels%s" % (
                job[0], job[1], groups, kernels, ", failed" if why else ""))
            if why:
                failures.append("%s/%s.txt: %s" % (job[0], job[1], why))
    for f in failures:
        print("FAIL: " + f)
    for (case, form), reason in sorted(MULTI_KERNEL_GROUPS.items()):
        print("several kernels for a group: %s/%s.txt: %s" % (case, form,
                                                              reason))
    # One line per graph, so that the test names a graph whose kernels
    # changed.
    print("per case: %d cases" % len(per_case))
    for line in sorted(per_case):
        print(line)
    print("ptx: %d graphs, %d fusion groups, %d kernels, %d failures%s" % (
        len(jobs), total_groups, total_kernels, len(failures),
        "; every PTX assembled by ptxas for sm_80 and sm_90"
        if args.ptxas and not failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
