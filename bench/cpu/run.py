#!/usr/bin/env python3
"""CPU benchmark of compiled TorchScript graphs: tsmlir-run's fusion
strategies against a hand-written loop, eager PyTorch and TorchScript.

For each workload (workloads.py) x size x thread count, in the same run:

  unfused, pointwise,      tsmlir-run graph.txt --no-fusion, or
  nnc, nvfuser, aggressive   --strategy pointwise|nnc|nvfuser|aggressive
  handwritten              the hand-written reference loop (handwritten.cpp)
  torch-eager              PyTorch eager
  torchscript              torch.jit.script, CPU fuser on where this
                           PyTorch build can run it

and, when asked for with --variants: handwritten-alloc (the reference
allocating its output in every run) and torchscript-nnc-interp (NNC's
fused kernels in its interpreter; slow).

Every variant runs once to warm up, then N times; N is picked per case from
a quick eager timing (enough runs for about --target-seconds, at least
--min-runs). Reported: median time, GB/s = minimum traffic (input bytes +
output bytes) / median time, and the time relative to handwritten and to
torch-eager. Every output (out0.npy of the tools, the tensor of the
TorchScript run) is compared with eager PyTorch's (rtol 1e-4, atol 1e-5);
mismatches and failures are marked in the table, never dropped. The
machine may be shared: the CPU time other processes take during each
measurement is read from /proc/stat; above --noise-cores the variant is
measured again (--retries), and marked NOISY if it never was quiet.

Writes PREFIX.md and PREFIX.json (--results) and, with matplotlib, one PNG
per thread count (GB/s against size, a panel per workload) to --plot-dir.
When PREFIX is the default (bench/cpu/results/results), it then renders the
figures of docs/performance.md from the new results (bench/report_docs.py;
--doc '' for none). bench/cpu/run.sh builds handwritten and calls this with
the paths filled in.
"""

import os

# OpenMP threads are bound one per core (OMP_PROC_BIND, OMP_PLACES), for
# PyTorch (libgomp reads these when torch is imported, below) and for the
# tools run from here (handwritten's libomp): unbound, the two threads of a
# process sometimes share one core of this VM for a whole run. libgomp then
# pins this thread to the first core; the tools are started with the CPUs
# this process had at first (CPUS).
CPUS = os.sched_getaffinity(0)
os.environ.setdefault("OMP_PROC_BIND", "true")
os.environ.setdefault("OMP_PLACES", "cores")

import argparse  # noqa: E402 (after the environment above)
import datetime
import importlib.util
import json
import math
import platform
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

import pytorch_bench
import workloads

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(1, os.path.dirname(HERE))
import benchtool  # noqa: E402 (bench/benchtool.py)
import report_docs  # noqa: E402 (bench/report_docs.py)

DEFAULT_RESULTS = os.path.join(HERE, "results", "results")

TSMLIR_VARIANTS = {
    "unfused": ["--no-fusion"],
    "pointwise": ["--strategy", "pointwise"],
    "nnc": ["--strategy", "nnc"],
    "nvfuser": ["--strategy", "nvfuser"],
    "aggressive": ["--strategy", "aggressive"],
}
TORCH_VARIANTS = ("torch-eager", "torchscript", "torchscript-nnc-interp")
ALL_VARIANTS = (list(TSMLIR_VARIANTS) + ["handwritten", "handwritten-alloc"]
                + list(TORCH_VARIANTS))
DEFAULT_VARIANTS = list(TSMLIR_VARIANTS) + ["handwritten", "torch-eager", "torchscript"]
RTOL, ATOL = 1e-4, 1e-5


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workloads", default=",".join(workloads.WORKLOADS),
                   help="comma-separated (default: all)")
    p.add_argument("--sizes", default="4K,64K,1M,16M",
                   help="elements, comma-separated (default: 4K,64K,1M,16M)")
    p.add_argument("--quick", action="store_true", help="sizes 4K and 1M only")
    p.add_argument("--threads", default="1,2", help="thread counts (default: 1,2)")
    p.add_argument("--variants", default=",".join(DEFAULT_VARIANTS),
                   help=f"comma-separated, of {', '.join(ALL_VARIANTS)}")
    p.add_argument("--mlp-max-size", default="1M",
                   help="largest mlp size (compute-bound, and slow in PyTorch "
                        "without a tuned BLAS; default 1M)")
    p.add_argument("--target-seconds", type=float, default=0.2,
                   help="timed seconds per variant that N aims at (default 0.2)")
    p.add_argument("--min-runs", type=int, default=10)
    p.add_argument("--max-runs", type=int, default=2000)
    p.add_argument("--retries", type=int, default=2,
                   help="measure a variant again (at most this many times) when "
                        "other processes took more than --noise-cores meanwhile")
    p.add_argument("--noise-cores", type=float, default=0.25,
                   help="CPU (in cores) other processes may use during a "
                        "measurement before it counts as noisy (default 0.25)")
    p.add_argument("--timeout", type=float, default=300,
                   help="seconds per tool invocation before it counts as failed")
    p.add_argument("--tsmlir-run", default=os.path.join(ROOT, "build", "bin", "tsmlir-run"))
    p.add_argument("--handwritten", default=os.path.join(ROOT, "build", "bench-cpu", "handwritten"))
    p.add_argument("--work-dir", default=os.path.join(ROOT, "build", "bench-cpu", "cases"),
                   help="where the graphs and inputs are written (cached)")
    p.add_argument("--results", default=DEFAULT_RESULTS,
                   help="writes RESULTS.md and RESULTS.json (default: "
                        "bench/cpu/results/results)")
    p.add_argument("--plot-dir", default=os.path.join(ROOT, "docs", "images"),
                   help="where cpu-bandwidth-<T>t.png go ('' for none)")
    p.add_argument("--doc", default=report_docs.DOC,
                   help="the page whose figures a run with the default --results "
                        "updates (bench/report_docs.py; '' for none)")
    p.add_argument("--doc-tables", metavar="JSON",
                   help="measure nothing: print the tables of "
                        "docs/performance.md from a results .json")
    a = p.parse_args()
    a.sizes = ["4K", "1M"] if a.quick else a.sizes.split(",")
    a.sizes = [workloads.parse_size(s) for s in a.sizes]
    a.threads = [int(t) for t in a.threads.split(",")]
    a.workloads = a.workloads.split(",")
    a.variants = a.variants.split(",")
    for name in a.workloads:
        if name not in workloads.WORKLOADS:
            p.error(f"unknown workload {name}")
    for v in a.variants:
        if v not in ALL_VARIANTS:
            p.error(f"unknown variant {v}")
    return a


# --- Running the variants -------------------------------------------------


def run_tool(cmd, timeout):
    """benchtool.run_benchmark, the tool on the CPUs this process had at
    first."""
    return benchtool.run_benchmark(
        cmd, timeout, preexec_fn=lambda: os.sched_setaffinity(0, CPUS))


def compare(out, ref):
    """'ok' when out matches the eager output ref, else what differs."""
    if out.shape != ref.shape:
        return f"MISMATCH: shape {list(out.shape)}, eager {list(ref.shape)}"
    if out.dtype != ref.dtype:
        return f"MISMATCH: dtype {out.dtype}, eager {ref.dtype}"
    if np.allclose(out, ref, rtol=RTOL, atol=ATOL, equal_nan=True):
        return "ok"
    bad = ~np.isclose(out, ref, rtol=RTOL, atol=ATOL, equal_nan=True)
    diff = np.abs(out.astype(np.float64) - ref)
    return (f"MISMATCH: {int(bad.sum())} of {ref.size} differ, "
            f"max abs diff {np.nanmax(diff):.3g}")


def run_subprocess_variant(variant, a, case_dir, meta, threads, runs, ref):
    """A tsmlir-run strategy or handwritten(-alloc): runs it, checks its
    out0.npy."""
    out_dir = tempfile.mkdtemp(prefix=f"out-{variant}-", dir=case_dir)
    try:
        if variant.startswith("handwritten"):
            cmd = [a.handwritten, meta["workload"]]
        else:
            cmd = [a.tsmlir_run, os.path.join(case_dir, "graph.txt")]
        cmd += workloads.cli_inputs(meta, case_dir)
        cmd += TSMLIR_VARIANTS.get(variant, [])
        cmd += ["--alloc-per-run"] if variant == "handwritten-alloc" else []
        cmd += ["--threads", str(threads), "--benchmark", str(runs), "--output-dir", out_dir]
        r = run_tool(cmd, a.timeout)
        if "error" not in r:
            path = os.path.join(out_dir, "out0.npy")
            r["check"] = (compare(np.load(path), ref) if os.path.exists(path)
                          else "UNCHECKED: no out0.npy written")
        r["command"] = " ".join(cmd).replace(ROOT + os.sep, "")  # paths from the repository
        return r
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


def run_torch_variant(variant, name, args, threads, runs, ref):
    """torch-eager or a TorchScript variant, in this process."""
    try:
        r = pytorch_bench.bench(name, args, variant, threads, runs)
    except Exception as e:  # noqa: BLE001 - a failed variant is a table entry
        return {"error": str(e).splitlines()[0][:200] if str(e) else type(e).__name__}
    r["check"] = compare(r.pop("output").numpy(), ref)
    return r


def busy_seconds():
    """CPU seconds the whole machine has been busy (steal included)."""
    with open("/proc/stat") as f:
        user, nice, system, _idle, _iowait, irq, softirq, steal = (
            int(x) for x in f.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_seconds():
    """CPU seconds of this process, its threads and its finished children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def measure_quietly(run, a):
    """Calls run() (one variant's measurement) and measures how many cores
    other processes used meanwhile (`other_cores`). Noisy: more than
    a.noise_cores, and more than 3 clock ticks (what /proc/stat can tell
    apart). Measures again, up to a.retries times, while noisy; keeps the
    quietest attempt."""
    tick = 1 / os.sysconf("SC_CLK_TCK")
    best = None
    for attempt in range(a.retries + 1):
        if attempt:
            time.sleep(1)
        wall, busy, own = time.time(), busy_seconds(), own_seconds()
        r = run()
        wall = max(time.time() - wall, 1e-3)
        other = max(0.0, (busy_seconds() - busy) - (own_seconds() - own))
        r["other_cores"] = other / wall
        r["noisy"] = other > max(a.noise_cores * wall, 3 * tick)
        if best is None or r["other_cores"] < best["other_cores"]:
            best = r
        if "error" in r or not r["noisy"]:
            break
    best["attempts"] = attempt + 1
    return best


def pick_runs(name, args, threads, a):
    """N for one case: enough runs of eager PyTorch for a.target_seconds
    (from the fastest of three calls, which other processes disturb least)."""
    probe = pytorch_bench.bench(name, args, "torch-eager", threads, 3)
    runs = math.ceil(a.target_seconds / (probe["min_us"] * 1e-6))
    return max(a.min_runs, min(a.max_runs, runs))


def measure(a):
    """Runs every case. Returns the list of result records."""
    records = []
    mlp_max = workloads.parse_size(a.mlp_max_size)
    for name in a.workloads:
        for n in a.sizes:
            label = workloads.size_label(n)
            if name == "mlp" and n > mlp_max:
                print(f"# mlp {label}: skipped (above --mlp-max-size {a.mlp_max_size})",
                      flush=True)
                continue
            case_dir = os.path.join(a.work_dir, name, label)
            args, meta = workloads.prepare(name, n, case_dir)
            torch.set_num_threads(1)
            with torch.no_grad():
                ref = workloads.WORKLOADS[name][0](*args).numpy()
            traffic = workloads.nbytes(args) + ref.nbytes
            for threads in a.threads:
                runs = pick_runs(name, args, threads, a)
                for variant in a.variants:
                    if variant in TORCH_VARIANTS:
                        r = measure_quietly(lambda: run_torch_variant(
                            variant, name, args, threads, runs, ref), a)
                    else:
                        r = measure_quietly(lambda: run_subprocess_variant(
                            variant, a, case_dir, meta, threads, runs, ref), a)
                    r.update(workload=name, size=label, n=n, threads=threads,
                             variant=variant, bytes=traffic)
                    if "median_us" in r:
                        r["gbps"] = traffic / (r["median_us"] * 1e-6) / 1e9
                    records.append(r)
                    print(progress_line(r), flush=True)
                add_ratios([r for r in records if (r["workload"], r["n"], r["threads"])
                            == (name, n, threads)])
    return records


def add_ratios(case):
    """Median time relative to handwritten and to torch-eager, same case."""
    ref = {r["variant"]: r.get("median_us") for r in case}
    for r in case:
        for key, base in (("vs_handwritten", "handwritten"), ("vs_eager", "torch-eager")):
            if "median_us" in r and ref.get(base):
                r[key] = r["median_us"] / ref[base]


def progress_line(r):
    if "error" in r:
        return f"{r['workload']} {r['size']} t{r['threads']} {r['variant']}: FAILED: {r['error']}"
    return (f"{r['workload']} {r['size']} t{r['threads']} {r['variant']}: "
            f"{r['median_us']:.1f} us ({r['runs']} runs), {r['gbps']:.2f} GB/s, {status(r)}"
            f" [others: {r['other_cores']:.2f} cores, attempt {r['attempts']}]")


# --- Reporting ------------------------------------------------------------


def status(r):
    """The table's check column."""
    if "error" in r:
        return "FAILED: " + r["error"].replace("|", "\\|")
    s = r["check"]
    if r.get("noisy"):
        s += f"; NOISY: other processes used {r['other_cores']:.2f} cores"
    if "fusion_groups" in r:
        s += f"; {r['fusion_groups']} fusion groups"
        if r.get("note"):
            s += f" ({r['note']})"
    return s


def markdown_table(records):
    """workload, size, threads, variant, median us, GB/s, ratios, check."""
    def fmt(v, spec):
        return format(v, spec) if v is not None else "—"
    lines = ["| workload | size | threads | variant | median us | GB/s | "
             "time / handwritten | time / torch-eager | check |",
             "|---|---|---:|---|---:|---:|---:|---:|---|"]
    for r in records:
        lines.append(
            f"| {r['workload']} | {r['size']} | {r['threads']} | {r['variant']} | "
            f"{fmt(r.get('median_us'), '.1f')} | {fmt(r.get('gbps'), '.2f')} | "
            f"{fmt(r.get('vs_handwritten'), '.2f')} | {fmt(r.get('vs_eager'), '.2f')} | "
            f"{status(r)} |")
    return "\n".join(lines)


summary_cell = report_docs.summary_cell  # 'median us (GB/s)', as the doc prints it


def summary_table(records):
    """One row per workload, size and thread count, one column per variant:
    'median us (GB/s)'; FAILED, MISMATCH or UNCHECKED instead when it is
    not a verified time; * marks a NOISY measurement."""
    variants = list(dict.fromkeys(r["variant"] for r in records))
    cases = list(dict.fromkeys((r["workload"], r["size"], r["threads"]) for r in records))
    by_key = {(r["workload"], r["size"], r["threads"], r["variant"]): r for r in records}

    def cell(r):
        return "" if r is None else "FAILED" if "error" in r else summary_cell(r)
    lines = ["| workload | size | threads | " + " | ".join(variants) + " |",
             "|---|---|---:|" + "---:|" * len(variants)]
    for case in cases:
        lines.append(f"| {case[0]} | {case[1]} | {case[2]} | " + " | ".join(
            cell(by_key.get(case + (v,))) for v in variants) + " |")
    return "\n".join(lines)


doc_tables = report_docs.doc_tables  # the tables of docs/performance.md


def environment():
    """What the numbers were measured on."""
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "torch": torch.__version__,
            "torch_cpu_fuser": ("native" if pytorch_bench.cpu_fuser_native()
                                else pytorch_bench.NO_LLVM),
            "python": platform.python_version(),
            "date": datetime.datetime.now().isoformat(timespec="seconds"),
            "load_average_at_start": os.getloadavg()[0]}


def write_results(records, env, prefix):
    os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
    with open(prefix + ".json", "w") as f:  # a record per line
        f.write(json.dumps({"environment": env})[:-1] + ', "records": [\n')
        f.write(",\n".join(json.dumps(r) for r in records) + "\n]}\n")
    with open(prefix + ".md", "w") as f:
        f.write("# CPU benchmark results\n\n")
        f.write(f"`{env['command']}` on {env['cpu']} ({env['cores']} cores), "
                f"PyTorch {env['torch']}, {env['date']}; load average "
                f"{env['load_average_at_start']:.2f} at the start, "
                f"{env['load_average_at_end']:.2f} at the end; "
                f"{env['elapsed_s']:.0f} s in all.\n\n")
        f.write(f"TorchScript CPU fuser: {env['torch_cpu_fuser']}.\n\n")
        noisy = sum(1 for r in records if r.get("noisy"))
        f.write(f"{noisy} of {len(records)} measurements NOISY (other processes "
                "took CPU during all their attempts).\n\n")
        f.write("## Summary\n\nmedian us (GB/s of minimum traffic); * NOISY.\n\n")
        f.write(summary_table(records) + "\n\n## All measurements\n\n")
        f.write("Time ratios: median time / median time of handwritten or "
                "torch-eager in the same case (above 1 is slower). GB/s: "
                "(input bytes + output bytes) / median time.\n\n")
        f.write(markdown_table(records) + "\n")


def plot(records, threads, path):
    """GB/s against size, one panel per workload, one line per variant;
    handwritten dashed (the ceiling). Only verified results measured
    while the machine was quiet are drawn."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator

    names = list(dict.fromkeys(r["workload"] for r in records))
    variants = list(dict.fromkeys(r["variant"] for r in records))
    cols = 4
    rows = math.ceil((len(names) + 1) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    colors = dict(zip(ALL_VARIANTS, plt.cm.tab10.colors))  # the same in every plot
    for ax, name in zip(axes.flat, names):
        for v in variants:
            pts = sorted((r["n"], r["gbps"]) for r in records
                         if (r["workload"], r["variant"], r["threads"]) == (name, v, threads)
                         and r.get("check") == "ok" and not r.get("noisy"))
            if not pts:
                continue
            style = dict(color="black", linestyle="--", linewidth=2) if v == "handwritten" \
                else dict(color=colors[v], marker="o", markersize=3)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=v, **style)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(name + (" (compute-bound)" if name == "mlp" else ""), fontsize=10)
        ax.set_xlabel("elements")
        ax.set_ylabel("GB/s")
        sizes = sorted({r["n"] for r in records if r["workload"] == name})
        ax.set_xticks(sizes, [workloads.size_label(s) for s in sizes])
        ax.minorticks_off()
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.grid(True, which="major", alpha=0.3)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    handles = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    list(axes.flat)[-1].legend(handles.values(), handles.keys(), loc="center",
                               title="variant")
    fig.suptitle(f"CPU, {threads} thread{'s' if threads > 1 else ''}: GB/s of minimum "
                 "traffic (verified, quiet results only; handwritten dashed)")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def update_doc(doc, results_json):
    """Renders the figures of docs/performance.md from the new results; a
    partial run (fewer workloads, sizes or variants than the page quotes)
    leaves the page as it was."""
    try:
        changed = report_docs.write(os.path.abspath(doc), os.path.abspath(results_json))
    except (report_docs.MissingData, ValueError, OSError) as e:
        print(f"{doc} not updated: {e}")
        return
    print(f"{doc}: " + (f"rewrote {', '.join(changed)}" if changed
                        else "generated sections already up to date"))


def main():
    a = parse_args()
    if a.doc_tables:
        with open(a.doc_tables) as f:
            print(doc_tables(json.load(f)["records"]))
        return
    env = environment()
    env["command"] = " ".join(["bench/cpu/run.py"] + sys.argv[1:]).replace(ROOT + os.sep, "")
    if env["load_average_at_start"] > 0.5:
        print(f"# warning: load average {env['load_average_at_start']:.2f}: "
              "other processes are running, timings will be noisy", flush=True)
    start = time.time()
    records = measure(a)
    env["elapsed_s"] = time.time() - start
    env["load_average_at_end"] = os.getloadavg()[0]
    print()
    print(markdown_table(records))
    write_results(records, env, a.results)
    print(f"\nwrote {a.results}.md and {a.results}.json ({env['elapsed_s']:.0f} s)")
    if a.doc and os.path.abspath(a.results) == DEFAULT_RESULTS:
        update_doc(a.doc, a.results + ".json")
    if a.plot_dir:
        if importlib.util.find_spec("matplotlib") is None:
            print("no plots: matplotlib is not installed (Debian: python3-matplotlib)")
            return
        for t in a.threads:
            path = os.path.join(a.plot_dir, f"cpu-bandwidth-{t}t.png")
            plot(records, t, path)
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
