#!/usr/bin/env python3
"""The GPU check kit's runner (run.sh calls it from the kit's folder).

1. Every corpus model of manifest.json (each graph form in each fusion
   setting, compiled ahead of time for the GPU) is loaded with the tsmlir
   package and called on the case's reference inputs: on CUDA tensors in
   place when PyTorch has CUDA here, else on numpy arrays that the runtime
   copies. Each output is compared with PyTorch's recorded output
   (harness.py's tolerances, the test suite's). The models run in a worker
   process that the runner restarts after a crash or a CUDA error (which
   leaves the context unusable), so one bad model costs only its own row.
2. The GPU benchmark (bench/gpu/run.py --aot) times the benchmark's models
   against eager PyTorch, torch.compile and the copy bandwidth on the same
   GPU, checking every output against eager PyTorch's.
3. report.md and report.json: failures first, then per case and the
   benchmark's tables.

With --fake-driver LIB (the runtime tests' fake CUDA driver: host memory,
kernels not executed) every model is loaded, called and its outputs copied
back, but not compared: how the kit is tested without a GPU.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "python"))
sys.path.insert(0, HERE)
os.environ.setdefault("TSMLIR_RUNTIME_DIR", os.path.join(HERE, "lib"))

WORKER_EXIT_DEVICE = 3  # the worker stopped after a CUDA error


def load_manifest():
    with open(os.path.join(HERE, "manifest.json")) as f:
        return json.load(f)


def torch_cuda():
    """torch when it has a CUDA device here, else None."""
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


# --- The models (worker process) ------------------------------------------


def call_arguments(entry, torch):
    import numpy as np
    case_dir = os.path.join(HERE, "corpus", entry["case"])
    args = []
    for arg in entry["arguments"]:
        if "file" in arg:
            array = np.load(os.path.join(case_dir, arg["file"]))
            args.append(torch.from_numpy(array).cuda() if torch else array)
        elif "number" in arg:
            args.append(arg["number"])
        else:
            args.append(arg["fixed"])  # fixed at compile time: not passed
    return args


def run_model(entry, fake):
    """None when the model's outputs match PyTorch's (or, with the fake
    driver, when it ran), else why not."""
    import numpy as np
    import harness
    import tsmlir
    torch = None if fake else torch_cuda()
    model = tsmlir.load(os.path.join(HERE, entry["model"]))
    fn = model.entry()
    if fn.device != "cuda":
        return "compiled for %s, not cuda" % fn.device
    outs = fn(*call_arguments(entry, torch))
    if not isinstance(outs, tuple):
        outs = (outs,)
    if fake:
        return None
    if len(outs) != len(entry["outputs"]):
        return "%d outputs, PyTorch gives %d" % (len(outs), len(entry["outputs"]))
    for i, (out, ref_file) in enumerate(zip(outs, entry["outputs"])):
        ref = np.load(os.path.join(HERE, "corpus", entry["case"], ref_file))
        if torch is not None and torch.is_tensor(out):
            out = out.cpu().numpy()
        elif not isinstance(out, np.ndarray):
            out = np.array(out, dtype=ref.dtype)
        why = harness.mismatch(out, ref, "out%d" % i)
        if why:
            return why
    return None


def worker(a):
    """Runs the corpus models from index a.start on, one JSON line each."""
    import tsmlir
    entries = load_manifest()["corpus"]
    only = set(filter(None, a.only.split(",")))
    with open(a.results, "a") as out:
        for i in range(a.start, len(entries)):
            if only and entries[i]["case"] not in only:
                continue
            out.write(json.dumps({"index": i, "started": True}) + "\n")
            out.flush()
            start = time.perf_counter()
            device_error = False
            try:
                why = run_model(entries[i], a.fake_driver)
            except tsmlir.RuntimeError as e:
                why = "error: " + str(e).strip()[:400]
                # A failed kernel or copy leaves the CUDA context unusable.
                device_error = "TSMLIR_ERROR_DEVICE" in why
            except Exception as e:  # noqa: BLE001 - one model's row
                why = "error: %s: %s" % (type(e).__name__, str(e).strip()[:400])
            out.write(json.dumps({"index": i, "why": why,
                                  "seconds": time.perf_counter() - start}) + "\n")
            out.flush()
            if device_error:
                return WORKER_EXIT_DEVICE
    return 0


def run_corpus(a, manifest):
    """Every corpus model, through workers restarted after crashes."""
    entries = manifest["corpus"]
    only = set(filter(None, a.only.split(",")))
    results_path = os.path.join(HERE, "corpus-results.jsonl")
    if os.path.exists(results_path):
        os.remove(results_path)
    results = {}
    start = 0
    while start < len(entries):
        cmd = [sys.executable, os.path.abspath(__file__), "--worker",
               "--start", str(start), "--results", results_path]
        if a.fake_driver:
            cmd += ["--fake-driver", a.fake_driver]
        if a.only:
            cmd += ["--only", a.only]
        try:
            code = subprocess.run(cmd, timeout=a.timeout).returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
        started = None
        with open(results_path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("started"):
                    started = r["index"]
                else:
                    results[r["index"]] = r
                    started = None
        if started is not None and started not in results:
            results[started] = {"index": started, "why": (
                "the worker died (exit status %s) in this model" % code
                if code != "timeout" else
                "timed out after %d s in this model" % a.timeout)}
        if code == 0:
            break
        done = max(results) + 1 if results else 0
        if done <= start:
            break
        start = done
        if start < len(entries):
            print("kit: worker restarted at model %d of %d" % (start, len(entries)),
                  flush=True)
    rows = []
    for i, e in enumerate(entries):
        if only and e["case"] not in only:
            continue
        r = results.get(i, {"why": "not run"})
        rows.append(dict(e, why=r.get("why"), seconds=r.get("seconds")))
    return rows


# --- The benchmark -------------------------------------------------------


def run_bench(a, manifest):
    """bench/gpu/run.py --aot on the kit's models; its results' JSON, or why
    it did not run."""
    if a.no_bench:
        return {"skipped": "--no-bench"}
    if a.fake_driver:
        return {"skipped": "the fake driver runs no kernels"}
    if torch_cuda() is None:
        return {"skipped": "PyTorch with CUDA is not available here"}
    prefix = os.path.join(HERE, "bench-results")
    sizes = a.bench_sizes or ",".join(sorted({m["size"] for m in manifest["bench"]},
                                             key=lambda s: int(s[:-1])))
    cmd = [sys.executable, os.path.join(HERE, "bench", "gpu", "run.py"),
           "--aot", os.path.join(HERE, "bench", "models"),
           "--workloads", ",".join(manifest["bench_workloads"]),
           "--variants", a.variants, "--sizes", sizes,
           "--runs", str(a.runs), "--warmup", str(a.warmup), "--results", prefix]
    print("kit: " + " ".join(cmd[1:]), flush=True)
    code = subprocess.run(cmd, timeout=a.bench_timeout).returncode
    if not os.path.exists(prefix + ".json"):
        return {"error": "bench/gpu/run.py exited with %s and wrote no results" % code}
    with open(prefix + ".json") as f:
        out = json.load(f)
    # The kit has no checkout: its models are the build the manifest names.
    if not out["environment"].get("tsmlir"):
        out["environment"]["tsmlir"] = manifest["tsmlir"]
    with open(prefix + ".md") as f:
        out["markdown"] = f.read()
    return out


# --- The report ----------------------------------------------------------


def environment(a):
    env = {"python": platform.python_version(), "host": platform.node(),
           "date": datetime.datetime.now().isoformat(timespec="seconds")}
    torch = torch_cuda()
    if torch is not None:
        env["gpu"] = torch.cuda.get_device_name(0)
        env["torch"] = torch.__version__
        env["cuda"] = torch.version.cuda
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=30)
        env["nvidia_smi"] = smi.stdout.strip() or smi.stderr.strip()
    except (OSError, subprocess.SubprocessError) as e:
        env["nvidia_smi"] = "not run (%s)" % e
    if a.fake_driver:
        env["driver"] = "fake: " + a.fake_driver
    return env


def write_report(a, manifest, env, corpus, bench, elapsed):
    failures = [r for r in corpus if r["why"]]
    lines = ["# GPU check kit report", "",
             "| | |", "|---|---|",
             "| GPU | %s |" % env.get("gpu", env.get("nvidia_smi", "?")),
             "| driver (nvidia-smi) | %s |" % env.get("nvidia_smi", "?"),
             "| PyTorch | %s (CUDA %s) |" % (env.get("torch", "not used"), env.get("cuda", "-")),
             "| kit | tsmlir %s, built %s, %s %s |" % (
                 manifest["tsmlir"], manifest["built"], manifest["chip"],
                 "PTX" if manifest["format"] == "isa" else "cubin"),
             "| run | %s, %.0f s |" % (env["date"], elapsed), ""]
    if a.fake_driver:
        lines += ["Fake driver (%s): kernels were not executed, outputs not "
                  "compared." % a.fake_driver, ""]
    lines += ["## Failures", ""]
    problems = ["compile: %s: %s" % (f["model"], f["error"])
                for f in manifest["compile_failures"]]
    problems += ["%s/%s [%s]: %s" % (r["case"], r["form"], r["variant"], r["why"])
                 for r in failures]
    for rec in bench.get("records", []):
        if "variant" in rec and rec.get("variant") == "tsmlir" and rec.get("check") != "ok":
            problems.append("bench %s %s tsmlir: %s" % (
                rec["workload"], rec["size"],
                rec.get("error") or rec.get("skipped") or rec.get("check")))
    for t in bench.get("targets", []):
        if t["status"] == "FAIL":
            problems.append("bench target: " + t["line"])
    if "error" in bench:
        problems.append("bench: " + bench["error"])
    lines += ["- " + p for p in problems] if problems else ["none"]
    matched = len(corpus) - len(failures)
    lines += ["", "## Corpus models", "",
              "%d models (%d cases: every graph form in every fusion setting), "
              "%d %s, %d failures; %d did not compile." % (
                  len(corpus), len({r["case"] for r in corpus}), matched,
                  "ran" if a.fake_driver else "match PyTorch", len(failures),
                  len(manifest["compile_failures"])), "",
              "| case | models | %s |" % ("ran" if a.fake_driver else "match"),
              "|---|---:|---:|"]
    per_case = {}
    for r in corpus:
        c = per_case.setdefault(r["case"], [0, 0])
        c[0] += 1
        c[1] += not r["why"]
    for case, (n, ok) in sorted(per_case.items()):
        lines.append("| %s | %d | %d |" % (case, n, ok))
    lines += ["", "## Benchmark", ""]
    if "markdown" in bench:
        lines.append(bench["markdown"].replace("\n# ", "\n### ").replace("\n## ", "\n### "))
    else:
        lines.append("Not run: %s" % (bench.get("skipped") or bench.get("error")))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(HERE, "report.md"), "w") as f:
        f.write(text)
    with open(os.path.join(HERE, "report.json"), "w") as f:
        json.dump({"environment": env, "kit": {k: manifest[k] for k in
                                               ("tsmlir", "built", "chip", "format")},
                   "compile_failures": manifest["compile_failures"],
                   "corpus": corpus,
                   "bench": {k: v for k, v in bench.items() if k != "markdown"}},
                  f, indent=1)
    return problems, matched


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fake-driver", metavar="LIB",
                   help="run against this fake CUDA driver (no GPU; outputs not compared)")
    p.add_argument("--only", default="", help="corpus cases, comma-separated")
    p.add_argument("--no-bench", action="store_true")
    p.add_argument("--bench-sizes", help="default: every size the kit has")
    p.add_argument("--variants", default="torch-eager,torch-compile,tsmlir")
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--timeout", type=int, default=600,
                   help="seconds a corpus worker may run")
    p.add_argument("--bench-timeout", type=int, default=1800)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--results", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.fake_driver:
        os.environ["TSMLIR_CUDA_DRIVER"] = os.path.abspath(a.fake_driver)
    if a.worker:
        return worker(a)
    start = time.time()
    manifest = load_manifest()
    env = environment(a)
    print("kit: %s; %d corpus models, %d benchmark models" % (
        env.get("gpu", env["nvidia_smi"]), len(manifest["corpus"]),
        len(manifest["bench"])), flush=True)
    corpus = run_corpus(a, manifest)
    for r in corpus:
        if r["why"]:
            print("FAIL: %s/%s [%s]: %s" % (r["case"], r["form"], r["variant"], r["why"]),
                  flush=True)
    print("kit: corpus: %d models, %d %s" % (
        len(corpus), sum(1 for r in corpus if not r["why"]),
        "ran" if a.fake_driver else "match PyTorch"), flush=True)
    bench = run_bench(a, manifest)
    problems, matched = write_report(a, manifest, env, corpus, bench, time.time() - start)
    print("kit: %d models of %d %s; %d problems; wrote %s and %s" % (
        matched, len(corpus), "ran" if a.fake_driver else "match PyTorch",
        len(problems), os.path.join(HERE, "report.md"),
        os.path.join(HERE, "report.json")), flush=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
