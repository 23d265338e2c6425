#!/usr/bin/env python3
"""Builds the GPU check kit: one folder that runs on an NVIDIA machine with
Python, PyTorch and a CUDA driver, but no LLVM, no tsmlir build and no
network (scripts/gpu-kit.sh calls this; docs/gpu-codegen.md says how to run
the kit). Needs a tsmlir build (tsmlir-compile, libtsmlir_cuda_runtime.so)
and, for the benchmark's graphs, PyTorch here; no GPU.

The folder:

  run.sh, kit_run.py     the entry: runs the models, the benchmark, writes
                         report.md and report.json (scripts/gpu_kit/run.py)
  manifest.json          every model: its file, the graph arguments (input
                         files, numbers, arguments fixed at compile time),
                         the reference outputs, and what failed to compile
  lib/                   libtsmlir_cuda_runtime.so
  python/tsmlir/         the Python package's loader of shared models
  harness.py             the tolerances of the test suite (test/e2e/Inputs)
  corpus/CASE/           reference inputs and PyTorch's outputs of every
                         corpus case, and FORM-VARIANT.so: every graph form
                         in every fusion setting, compiled for the GPU
  bench/gpu/run.py, bench/cpu/workloads.py
                         the GPU benchmark and its workloads
  bench/models/W-SIZE.so the benchmark's workloads at each size

Usage: build.py --out DIR [--build BUILD] [--chip sm_90] [--format isa|bin]
                [--only CASE,...] [--sizes 1M,16M,...] [--jobs N]
                [--gpu-flags "--gpu-vector-width=8 ..."] [--archive KIT.tar.xz]
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import shutil
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INPUTS = os.path.join(ROOT, "test", "e2e", "Inputs")
sys.path.insert(0, INPUTS)
sys.path.insert(0, os.path.join(ROOT, "bench", "cpu"))
import harness  # noqa: E402
from run_corpus import VARIANTS, corpus_commands  # noqa: E402

# The kit must travel to a GPU machine that takes at most 64 MiB from us.
SIZE_LIMIT = 60 << 20
DEFAULT_SIZES = "1M,16M,64M,256M"


def graph_arguments(cmd):
    """The graph's arguments as a compile command gives them (--input=...),
    as manifest entries: {"file": NAME}, {"number": VALUE} or {"fixed": TEXT}
    (an int, bool or None fixed in the code)."""
    out = []
    for a in cmd:
        if not a.startswith("--input="):
            continue
        value = a[len("--input="):]
        if value.endswith(".npy"):
            out.append({"file": os.path.basename(value)})
            continue
        try:
            int(value)
            out.append({"fixed": value})
        except ValueError:
            if value in ("true", "false", "none"):
                out.append({"fixed": value})
            else:
                out.append({"number": float(value)})
    return out


def compile_model(job):
    cmd, path = job
    result = harness.run(cmd + ["--shared", "-o", path])
    if result.returncode != 0:
        return job, harness.first_error(result)
    return job, None


def corpus_jobs(a, tool):
    """(compile command, model path, manifest entry) of every corpus case in
    every form and fusion setting; copies the case's data into the kit."""
    jobs = []
    only = set(filter(None, a.only.split(",")))
    for case, form, cmd, case_dir, meta in corpus_commands(
            os.path.join(ROOT, "test", "Corpus"),
            os.path.join(ROOT, "test", "Dialect", "TorchScript", "Inputs", "callees"),
            only, tool):
        dest = os.path.join(a.out, "corpus", case)
        if not os.path.isdir(dest):
            os.makedirs(dest)
            for f in sorted(os.listdir(case_dir)):
                if f.endswith(".npy") or f == "meta.json":
                    shutil.copy(os.path.join(case_dir, f), dest)
        refs = ["out%d.npy" % i for i in range(meta["n_outputs"])]
        for variant, flags in VARIANTS:
            model = os.path.join(dest, "%s-%s.so" % (form, variant))
            entry = {"case": case, "form": form, "variant": variant,
                     "model": os.path.relpath(model, a.out),
                     "arguments": graph_arguments(cmd), "outputs": refs}
            full = cmd + flags + ["--target", "cuda", "--gpu-chip", a.chip,
                                  "--gpu-format", a.format]
            jobs.append((full, model, entry))
    return jobs


def bench_jobs(a, tool):
    """The benchmark's workloads at each size, compiled from the graphs
    PyTorch prints here for them, with their argument types."""
    import workloads
    jobs = []
    dest = os.path.join(a.out, "bench", "models")
    graphs = os.path.join(a.out, "bench", "graphs")
    os.makedirs(dest, exist_ok=True)
    os.makedirs(graphs, exist_ok=True)
    for name in a.workloads:
        graph = os.path.join(graphs, name + ".txt")
        with open(graph, "w") as f:
            f.write(workloads.graph_text(name))
        # arg_shapes must describe what make_inputs makes.
        small = [None if not hasattr(v, "shape") else tuple(v.shape)
                 for v in workloads.make_inputs(name, 4096)]
        assert small == workloads.arg_shapes(name, 4096), (name, small)
        for n in a.sizes:
            try:
                shapes = workloads.arg_shapes(name, n)
            except ValueError:
                continue
            types = ["float" if s is None else
                     "f32[%s]" % ",".join(str(d) for d in s) for s in shapes]
            model = os.path.join(dest, "%s-%s.so" % (name, workloads.size_label(n)))
            cmd = [tool, graph] + ["--input=" + t for t in types] + [
                "--target", "cuda", "--gpu-chip", a.chip, "--gpu-format", a.format]
            jobs.append((cmd, model, {"workload": name, "size": workloads.size_label(n),
                                      "n": n, "model": os.path.relpath(model, a.out)}))
    return jobs


def copy_sources(a):
    """The runner, the loader, the tolerances and the benchmark."""
    def put(src, dst):
        dst = os.path.join(a.out, dst)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(os.path.join(ROOT, src), dst)
    put("scripts/gpu_kit/run.py", "kit_run.py")
    put("scripts/gpu_kit/run.sh", "run.sh")
    put("test/e2e/Inputs/harness.py", "harness.py")
    put("bench/gpu/run.py", "bench/gpu/run.py")
    put("bench/cpu/workloads.py", "bench/cpu/workloads.py")
    pkg = os.path.join(ROOT, "python", "tsmlir")
    for f in sorted(os.listdir(pkg)):
        if f.endswith(".py"):
            put(os.path.join("python", "tsmlir", f), os.path.join("python", "tsmlir", f))
    put(os.path.join(a.build, "lib", "libtsmlir_cuda_runtime.so"),
        os.path.join("lib", "libtsmlir_cuda_runtime.so"))


def folder_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f))
               for d, _, files in os.walk(path) for f in files)


def write_archive(folder, path):
    """The kit as one xz-compressed tarball (its models compress about
    fifteen-fold), unpacked there with `tar xJf`."""
    with tarfile.open(path, "w:xz") as tar:
        tar.add(folder, arcname=os.path.basename(folder))
    return os.path.getsize(path)


def git_describe():
    try:
        return subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                              capture_output=True, text=True).stdout.strip()
    except OSError:
        return "unknown"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--format", default="isa", choices=["isa", "bin"],
                   help="PTX compiled by the driver at load (isa), or cubin "
                        "from ptxas here (bin)")
    p.add_argument("--only", default="", help="corpus cases, comma-separated")
    p.add_argument("--workloads", default="ratio_iou,lerp,gelu,bias_gelu,softmax,layer_norm")
    p.add_argument("--sizes", default=DEFAULT_SIZES)
    p.add_argument("--no-bench", action="store_true")
    p.add_argument("--archive", metavar="FILE.tar.xz",
                   help="also writes the kit as one compressed tarball")
    p.add_argument("--gpu-flags", default="",
                   help="tsmlir-compile's kernel options for every model, "
                        "space-separated (--gpu-vector-width=8 "
                        "--gpu-max-blocks=2112 ...)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = p.parse_args()
    a.build = os.path.abspath(a.build)
    a.out = os.path.abspath(a.out)
    tool = os.path.join(a.build, "bin", "tsmlir-compile")
    for need in (tool, os.path.join(a.build, "lib", "libtsmlir_cuda_runtime.so")):
        if not os.path.exists(need):
            sys.exit("gpu-kit: %s is missing: build tsmlir first" % need)
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    os.makedirs(a.out)
    a.workloads = [w for w in a.workloads.split(",") if w]
    if not a.no_bench:
        import workloads
        a.sizes = [workloads.parse_size(s) for s in a.sizes.split(",") if s]
    copy_sources(a)
    jobs = corpus_jobs(a, tool)
    bench = [] if a.no_bench else bench_jobs(a, tool)
    for cmd, _, _ in jobs + bench:
        cmd += a.gpu_flags.split()
    failures = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        done = list(pool.map(compile_model, [(cmd, path) for cmd, path, _ in jobs + bench]))
    corpus, models = [], []
    for (cmd, path, entry), (_, why) in zip(jobs + bench, done):
        if why:
            failures.append({"model": entry["model"], "error": why})
            continue
        (corpus if "case" in entry else models).append(entry)
    manifest = {
        "chip": a.chip, "format": a.format, "gpu_flags": a.gpu_flags,
        "tsmlir": git_describe(),
        "built": datetime.datetime.now().isoformat(timespec="seconds"),
        "corpus": corpus, "bench": models, "compile_failures": failures,
        "bench_workloads": a.workloads,
    }
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    size = folder_bytes(a.out)
    print("gpu-kit: %s: %d corpus models (%d cases), %d benchmark models, "
          "%d compile failures; %.1f MiB (limit %d MiB)" % (
              os.path.relpath(a.out), len(corpus), len({e["case"] for e in corpus}),
              len(models), len(failures), size / 2**20, SIZE_LIMIT >> 20))
    for f in failures:
        print("COMPILE FAIL: %s: %s" % (f["model"], f["error"]))
    if size > SIZE_LIMIT:
        print("gpu-kit: the kit is over its size limit", file=sys.stderr)
        return 1
    if a.archive:
        packed = write_archive(a.out, os.path.abspath(a.archive))
        print("gpu-kit: wrote %s (%.1f MiB)" % (a.archive, packed / 2**20))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
