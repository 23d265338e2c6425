"""Running a tool that prints tsmlir-run's benchmark line, for the run.py
scripts of bench/ (cpu, kernels):

    benchmark: 20 runs, median 123.456 us, min 120.001 us
"""
import os
import re
import subprocess

BENCHMARK_LINE = re.compile(
    r"benchmark: (\d+) runs, median ([0-9.eE+-]+) us, min ([0-9.eE+-]+) us")


def run_benchmark(cmd, timeout, preexec_fn=None, cwd=None):
    """Runs `cmd` (which has --benchmark N) in `cwd` (tsmlir-run writes its
    outputs there unless --output-dir says where). Returns a dict with
    median_us, min_us and runs, or with error (the first line of stderr, or
    what went wrong)."""
    if not os.path.exists(cmd[0]):
        return {"error": f"{os.path.basename(cmd[0])} not found at {cmd[0]}"}
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           preexec_fn=preexec_fn, cwd=cwd)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if p.returncode != 0:
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        return {"error": (lines[0] if lines else f"exit status {p.returncode}")[:200]}
    m = BENCHMARK_LINE.search(p.stdout)
    if not m:
        return {"error": "no 'benchmark: ...' line on stdout"}
    return {"runs": int(m.group(1)), "median_us": float(m.group(2)),
            "min_us": float(m.group(3))}
