"""torchvision models: tsmlir against PyTorch's eager and frozen TorchScript.

    /usr/bin/python3 bench/models/run.py [--models a,b] [--batches 1,8]
        [--threads 1,2] [--size 64] [--runs 20] [--results DIR]

For each model (random weights, torch.manual_seed(0), eval mode) and batch:
saves torch.jit.freeze(torch.jit.script(model)) as an archive, runs it with
`tsmlir-run --benchmark` with library kernels (the default) and without
(`--library-kernels=false`, every loop compiled), and times PyTorch's eager
model and the frozen module in a subprocess with the same number of
threads (OMP_NUM_THREADS and OPENBLAS_NUM_THREADS), all in the same run.
PyTorch gets OpenBLAS as its BLAS (its small-batch convolutions are BLAS
matrix products; Debian's default, the reference BLAS, is far slower): the
installed libopenblas0-pthread, or the one bench/kernels/run.sh unpacks.
--no-loops skips tsmlir without library kernels.
Each tsmlir output is checked against PyTorch's (largest absolute
difference, relative to the output's largest magnitude). Prints one line
per case and writes RESULTS/results.json and RESULTS/results.md (default
bench/models/results). tsmlir-run comes from $TSMLIR_BUILD_DIR/bin (build/).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("TSMLIR_BUILD_DIR", os.path.join(ROOT, "build"))
TSMLIR_RUN = os.path.join(BUILD, "bin", "tsmlir-run")
DEFAULT_MODELS = ["resnet18", "squeezenet1_1", "mobilenet_v2",
                  "mobilenet_v3_small", "densenet121", "convnext_tiny",
                  "efficientnet_b0", "regnet_x_400mf", "shufflenet_v2_x0_5"]

TORCH_TIMER = r"""
import sys, time, statistics, torch, torchvision
torch.manual_seed(0)
name, batch, size, runs, threads, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
torch.set_num_threads(threads)
model = getattr(torchvision.models, name)(weights=None).eval()
frozen = torch.jit.load(path)
x = torch.load(path + ".input")
def median_us(f):
    f(); f()
    times = []
    for _ in range(runs):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6
with torch.no_grad():
    print(median_us(lambda: model(x)), median_us(lambda: frozen(x)))
"""


def us(value):
    """A time in microseconds, or FAILED when PyTorch could not be timed."""
    return "FAILED" if value is None else f"{value:.0f}"


def save_case(name, batch, size, directory):
    import numpy as np
    import torch
    import torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    frozen = torch.jit.freeze(torch.jit.script(model))
    path = os.path.join(directory, f"{name}-{batch}.pt")
    frozen.save(path)
    x = torch.randn(batch, 3, size, size)
    torch.save(x, path + ".input")
    np.save(path + ".npy", x.numpy())
    with torch.no_grad():
        np.save(path + ".ref.npy", frozen(x).numpy())
    return path


def run_tsmlir(path, threads, runs, library, out):
    command = [TSMLIR_RUN, path, "--input", path + ".npy",
               "--threads", str(threads), "--benchmark", str(runs),
               "--output-dir", out, f"--library-kernels={'true' if library else 'false'}"]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[0]}
    bench = re.search(r"benchmark: \d+ runs, median ([\d.]+) us", proc.stdout)
    compiled = re.search(r"compiled in ([\d.]+) s", proc.stdout)
    import numpy as np
    got = np.load(os.path.join(out, "out0.npy"))
    ref = np.load(path + ".ref.npy")
    scale = float(np.abs(ref).max()) or 1.0
    return {"us": float(bench.group(1)), "compile_s": float(compiled.group(1)),
            "error": None, "rel_diff": float(np.abs(got - ref).max()) / scale}


# Where OpenBLAS's libblas.so.3 is: installed (libopenblas0-pthread), or
# unpacked into the build directory by bench/kernels/run.sh.
OPENBLAS_DIRS = ["/usr/lib/x86_64-linux-gnu/openblas-pthread",
                 os.path.join(BUILD, "bench-kernels", "openblas", "usr", "lib",
                              "x86_64-linux-gnu", "openblas-pthread")]


def find_openblas():
    """The directory of OpenBLAS's libblas.so.3, or None."""
    return next((d for d in OPENBLAS_DIRS
                 if os.path.exists(os.path.join(d, "libblas.so.3"))), None)


def run_torch(name, batch, size, runs, threads, path, blas_dir):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads))
    if blas_dir:
        # PyTorch's convolutions that are not oneDNN's (small batches) are
        # matrix products in the system's BLAS; Debian's reference BLAS
        # would make PyTorch look slow, so it gets OpenBLAS.
        env["LD_LIBRARY_PATH"] = ":".join(
            filter(None, [blas_dir, os.environ.get("LD_LIBRARY_PATH")]))
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", TORCH_TIMER,
                           name, str(batch), str(size), str(runs),
                           str(threads), path],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        return None, None
    eager, frozen = map(float, proc.stdout.split())
    return eager, frozen


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS))
    parser.add_argument("--batches", default="1,8")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-loops", action="store_true",
                        help="skip tsmlir without library kernels")
    parser.add_argument("--results", default=os.path.join(ROOT, "bench", "models", "results"))
    args = parser.parse_args()
    blas_dir = find_openblas()
    if not blas_dir:
        print("bench/models: no OpenBLAS found (run bench/kernels/run.sh once "
              "to unpack it): PyTorch runs on the system's BLAS", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models.split(","):
            for batch in map(int, args.batches.split(",")):
                path = save_case(name, batch, args.size, tmp)
                for threads in map(int, args.threads.split(",")):
                    eager, frozen = run_torch(name, batch, args.size, args.runs, threads, path,
                                              blas_dir)
                    lib = run_tsmlir(path, threads, args.runs, True, os.path.join(tmp, "lib"))
                    loops = ({"error": "not run (--no-loops)"} if args.no_loops else
                             run_tsmlir(path, threads, args.runs, False, os.path.join(tmp, "loops")))
                    row = {"model": name, "batch": batch, "threads": threads,
                           "size": args.size, "torch_eager_us": eager,
                           "torch_frozen_us": frozen, "library": lib, "loops": loops}
                    rows.append(row)
                    def fmt(r):
                        if r.get("error"):
                            return "FAILED(" + r["error"] + ")"
                        return f"{r['us']:.0f} us (compile {r['compile_s']:.2f} s, diff {r['rel_diff']:.1e})"
                    speedup = (frozen / lib["us"]) if frozen and not lib.get("error") else None
                    print(f"{name} batch {batch} threads {threads}: torch eager {us(eager)} us, "
                          f"frozen {us(frozen)} us; tsmlir library {fmt(lib)}; loops {fmt(loops)}; "
                          f"frozen/library " + (f"{speedup:.2f}x" if speedup else "-"), flush=True)
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, "results.json"), "w") as f:
        json.dump({"date": time.strftime("%Y-%m-%d"),
                   "torch_blas": "OpenBLAS (" + blas_dir + ")" if blas_dir
                   else "the system's libblas.so.3", "rows": rows}, f, indent=1)
    lines = ["| model | batch | threads | PyTorch eager (us) | PyTorch frozen (us) | tsmlir, library kernels (us) | tsmlir, loops (us) | frozen / library | compile (s) | max rel. diff |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    ratios = []
    for r in rows:
        lib, loops = r["library"], r["loops"]
        ok = not lib.get("error")
        ratio = r["torch_frozen_us"] / lib["us"] if ok and r["torch_frozen_us"] else None
        if ratio:
            ratios.append(ratio)
        lines.append(f"| {r['model']} | {r['batch']} | {r['threads']} | {us(r['torch_eager_us'])} | {us(r['torch_frozen_us'])} | "
                     + (f"{lib['us']:.0f}" if ok else "FAILED") + " | "
                     + (f"{loops['us']:.0f}" if not loops.get("error") else
                        "-" if loops["error"].startswith("not run") else "FAILED") + " | "
                     + (f"{ratio:.2f}" if ratio else "-") + " | "
                     + (f"{lib['compile_s']:.2f}" if ok else "-") + " | "
                     + (f"{lib['rel_diff']:.1e}" if ok else "-") + " |")
    if ratios:
        geomean = statistics.geometric_mean(ratios)
        lines.append("")
        lines.append(f"Geometric mean of frozen / library: {geomean:.2f} over {len(ratios)} cases.")
        print(f"geomean frozen/library: {geomean:.2f} over {len(ratios)} cases")
    with open(os.path.join(args.results, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
