"""What the drivers that compare tsmlir with PyTorch share: the tolerances
(one place, each with its reason), a tool run with a timeout, and the
per-case tally every driver prints before its summary line.

Tolerances. A float output must have PyTorch's dtype and shape, NaNs in the
same places, and every element within `atol + rtol * |reference|`:

  float64  rtol 1e-10, atol 1e-12. Epsilon is 2.2e-16; a sum of n terms in
           another order moves the result by up to about n * eps relative,
           1e-11 for the 10^5-element reductions the tests run. An error
           of float32 size (1e-7) fails.
  float32  rtol 1e-4, atol 1e-5. Epsilon is 1.2e-7; the approximations of
           exp, tanh, erf and log that compiled code uses are within a few
           ulp, and sums of up to 10^5 terms in another order move results
           by up to about 1e-5 relative (the accumulation is in float32, as
           PyTorch's).
  float16  rtol 2e-3, atol 1e-3: two ulp (epsilon 9.8e-4). PyTorch computes
           half-precision ops in float32 and rounds once; compiled code may
           round intermediate results too.

Outputs in [0, 1] (probabilities: softmax, sigmoid, normalised weights),
that is float outputs whose finite reference values all lie in [0, 1] and
not all in {0, 1}, keep the relative tolerance but their absolute one drops
to 1e-7 (float32; 1e-4 for float16; float64 keeps its own): most of their
elements are far below 1e-5, where the general absolute tolerance would
accept any relative error. With it an error of 1% in the elements of 1e-5
and above fails (test/e2e/tolerance.test shows it).

Integers and booleans must be equal.
"""
import json
import os
import struct
import subprocess

import numpy as np

# Seconds one tool invocation (compile and run of a case) may take before it
# fails with the case's name; lit's per-test timeout (test/lit.cfg.py) bounds
# the whole driver. TSMLIR_CASE_TIMEOUT overrides it (sanitised builds are
# several times slower).
CASE_TIMEOUT = int(os.environ.get("TSMLIR_CASE_TIMEOUT", "300"))

# dtype -> (rtol, atol, atol for outputs in [0, 1]); reasons above.
TOLERANCES = {
    np.dtype(np.float64): (1e-10, 1e-12, 1e-12),
    np.dtype(np.float32): (1e-4, 1e-5, 1e-7),
    np.dtype(np.float16): (2e-3, 1e-3, 1e-4),
}


def is_probability_like(ref):
    """Whether every finite element of `ref` lies in [0, 1], not all in
    {0, 1}."""
    finite = ref[np.isfinite(ref)]
    if finite.size == 0 or finite.min() < 0 or finite.max() > 1:
        return False
    return bool(((finite != 0) & (finite != 1)).any())


def tolerance(ref):
    """(rtol, atol) for comparing a float output with PyTorch's `ref`."""
    rtol, atol, unit_atol = TOLERANCES.get(ref.dtype,
                                           TOLERANCES[np.dtype(np.float32)])
    if is_probability_like(ref):
        atol = unit_atol
    return rtol, atol


def mismatch(ours, ref, what):
    """None when `ours` matches PyTorch's `ref` (numpy arrays), else why
    not, naming `what` (e.g. "out0")."""
    if ours.dtype != ref.dtype or ours.shape != ref.shape:
        return "%s: %s%s, PyTorch gives %s%s" % (
            what, ours.dtype, list(ours.shape), ref.dtype, list(ref.shape))
    if ref.dtype.kind in "fc":
        rtol, atol = tolerance(ref)
        if np.allclose(ours, ref, rtol=rtol, atol=atol, equal_nan=True):
            return None
        if not np.array_equal(np.isnan(ours), np.isnan(ref)):
            return "%s: NaNs in other places (%d, PyTorch %d)" % (
                what, int(np.isnan(ours).sum()), int(np.isnan(ref).sum()))
        with np.errstate(invalid="ignore"):
            diff = np.abs(ours.astype(np.float64) - ref.astype(np.float64))
            bad = ~np.isclose(ours, ref, rtol=rtol, atol=atol,
                              equal_nan=True)
        return "%s: %d of %d elements off, max abs error %.3g (rtol %g, " \
            "atol %g)" % (what, int(bad.sum()), ref.size,
                          np.nanmax(np.where(bad, diff, 0)), rtol, atol)
    if not np.array_equal(ours, ref):
        return "%s: %d elements differ" % (what, int((ours != ref).sum()))
    return None


def compare_dir(out_dir, refs):
    """None when `out_dir` holds exactly out0.npy... matching `refs` (numpy
    arrays, or paths of .npy files), else why not."""
    produced = sorted(f for f in os.listdir(out_dir)
                      if f.startswith("out") and f.endswith(".npy"))
    if len(produced) != len(refs):
        return "%d outputs, PyTorch gives %d" % (len(produced), len(refs))
    for i, ref in enumerate(refs):
        if isinstance(ref, str):
            ref = np.load(ref)
        path = os.path.join(out_dir, "out%d.npy" % i)
        if not os.path.exists(path):
            return "out%d missing" % i
        why = mismatch(np.load(path), ref, "out%d" % i)
        if why:
            return why
    return None


class TimedOut:
    """What `run` returns for a command past its timeout."""

    def __init__(self, cmd, timeout):
        self.args = cmd
        self.returncode = None
        self.stdout = ""
        self.stderr = "error: timed out after %d s: %s" % (
            timeout, " ".join(cmd[:2]))


SAFETENSORS_DTYPES = {"F32": np.float32, "F64": np.float64,
                      "F16": np.float16, "I64": np.int64, "I32": np.int32,
                      "U8": np.uint8, "BOOL": np.bool_}


def read_safetensors(path):
    """{name: numpy array} of a safetensors file."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        array = np.frombuffer(data[8 + n + begin:8 + n + end],
                              dtype=SAFETENSORS_DTYPES[info["dtype"]])
        tensors[name] = array.reshape(info["shape"])
    return tensors


def run(cmd, timeout=None, **kwargs):
    """subprocess.run(cmd) capturing text output, or TimedOut (returncode
    None, stderr saying so) when it runs past `timeout` seconds
    (CASE_TIMEOUT by default)."""
    timeout = timeout or CASE_TIMEOUT
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired:
        return TimedOut(cmd, timeout)


def first_error(result):
    """The first `error:` line of a failed run's stderr (or its first line,
    or its exit status), without the tool's prefix."""
    lines = [l for l in result.stderr.splitlines() if "error:" in l]
    why = (lines or result.stderr.strip().splitlines() or
           ["exit status %s" % result.returncode])[0]
    return "error: " + why.split("error: ", 1)[-1]


def run_tool(cmd, out_dir):
    """Runs `cmd` (a tsmlir-run command line) writing its outputs to a
    fresh `out_dir`, and what it printed to `out_dir`/stdout.txt; None when
    it succeeded, else its first error."""
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        path = os.path.join(out_dir, f)
        if os.path.isfile(path):
            os.remove(path)
    result = run(cmd + ["--output-dir", out_dir])
    with open(os.path.join(out_dir, "stdout.txt"), "w") as f:
        f.write(result.stdout or "")
    return None if result.returncode == 0 else first_error(result)


class Tally:
    """Runs per case, by outcome. `lines()` gives one line per case, sorted:
    `  CASE: R runs, M match[, X expected failures]` (and failures and
    unexpected passes when there are any), which the tests check line by
    line, so that a case that disappears or changes is named."""

    def __init__(self):
        self.cases = {}
        self.failures = []  # (run name, why)
        self.unexpected_passes = []  # run names

    def record(self, case, name, why, expected=None):
        """Counts one run of `case` named `name`: `why` is None when it
        matched PyTorch, else why not; `expected` is the reason the run is
        listed as an expected failure, or None. Returns the outcome."""
        if why is None:
            outcome = "xpass" if expected else "match"
        else:
            outcome = "xfail" if expected else "fail"
        self.add(case, outcome)
        if outcome == "fail":
            self.failures.append((name, why))
        elif outcome == "xpass":
            self.unexpected_passes.append(name)
        return outcome

    def print_problems(self):
        """FAIL: and UNEXPECTED PASS: lines, one per run."""
        for name, why in self.failures:
            print("FAIL: %s: %s" % (name, why))
        for name in self.unexpected_passes:
            print("UNEXPECTED PASS: %s (listed as an expected failure)"
                  % name)

    def add(self, case, outcome):
        """outcome: 'match', 'fail', 'xfail' (expected failure) or 'xpass'
        (a listed expected failure that passed)."""
        counts = self.cases.setdefault(case, {})
        counts[outcome] = counts.get(outcome, 0) + 1

    def total(self, outcome=None):
        return sum(n for counts in self.cases.values()
                   for o, n in counts.items() if outcome in (None, o))

    def lines(self):
        out = []
        for case in sorted(self.cases):
            counts = self.cases[case]
            text = "  %s: %d runs, %d match" % (
                case, sum(counts.values()), counts.get("match", 0))
            for outcome, label in (("xfail", "expected failures"),
                                   ("fail", "failures"),
                                   ("xpass", "unexpected passes")):
                if counts.get(outcome):
                    text += ", %d %s" % (counts[outcome], label)
            out.append(text)
        return out

    def print(self, title):
        print("%s: %d cases" % (title, len(self.cases)))
        for line in self.lines():
            print(line)
