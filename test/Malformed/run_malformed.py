#!/usr/bin/env python3
"""Runs the malformed-input suite: every entry of manifest.txt names a
malformed file, the command that reads it and the diagnostic it must give.

    run_malformed.py [--bin-dir build/bin] [-j 2] [--timeout 30]
                     [--memory-mb 4096] [--filter SUBSTRING] [-v]

An entry passes when the command exits with a non-zero status of its own (not
a signal), within the timeout and the memory cap, its stderr holds the
expected text and the location the entry asks for, and nothing in its output
says it crashed (a stack dump, an assertion, an LLVM fatal error, a sanitizer
report). Each failing entry prints one `FAIL:` line; the last line sums up:

    malformed: 259 files, 308 runs, 308 clear diagnostics, 0 failures

Plain Python 3, no third-party modules. The manifest format is described at
the top of manifest.txt.
"""
import argparse
import os
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = ("tsmlir-translate", "tsmlir-opt", "tsmlir-run", "tsmlir-compile")
# Text that only a crash prints.
CRASH_MARKERS = ("Stack dump", "PLEASE submit a bug report", "Assertion",
                 "LLVM ERROR", "AddressSanitizer", "LeakSanitizer",
                 "UndefinedBehaviorSanitizer", "runtime error:",
                 "terminate called", "Segmentation fault", "core dumped")


class Entry:
    def __init__(self, lineno, path, where, expected, command):
        self.lineno = lineno
        self.path = path
        self.where = where
        self.expected = expected
        self.command = command


def parse_manifest(path):
    entries = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [field.strip() for field in line.split(" | ")]
            if len(fields) != 4 or not all(fields):
                sys.exit("%s:%d: expected 'FILE | WHERE | EXPECTED | COMMAND'"
                         % (path, lineno))
            entries.append(Entry(lineno, *fields))
    return entries


def find_tool(name, bin_dir):
    if bin_dir:
        candidate = os.path.join(bin_dir, name)
        if os.path.exists(candidate):
            # Absolute: the commands run in their scratch directories.
            return os.path.abspath(candidate)
    return shutil.which(name) or name


# A sanitised build (TSMLIR_SANITIZER, set by lit) reserves terabytes of
# address space for its shadow memory, so the memory limit is the
# sanitizer's own there: no allocation above it (it returns null, as a
# refused one does without a sanitizer), and a report if the resident memory
# ever exceeds it.
SANITIZER = os.environ.get("TSMLIR_SANITIZER", "")
SANITIZER_OPTIONS = "TSAN_OPTIONS" if SANITIZER == "TSan" else "ASAN_OPTIONS"


def child_environment(megabytes):
    env = dict(os.environ)
    if SANITIZER and megabytes:
        env[SANITIZER_OPTIONS] = ":".join(filter(None, [
            env.get(SANITIZER_OPTIONS, ""), "allocator_may_return_null=1",
            "max_allocation_size_mb=%d" % megabytes,
            "hard_rss_limit_mb=%d" % megabytes]))
    return env


def limit_memory(megabytes):
    def apply():
        if megabytes and not SANITIZER:
            limit = megabytes * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        # No core files from a crash.
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def check_member(entry, token, stderr):
    """An empty string, or why the diagnostic does not give the member
    location `token` asks for: `member:NAME` FILE(NAME):LINE:COL, the form
    of a diagnostic about a member of an archive (any line and column, 0:0
    included, for the member as a whole); `member:NAME:LINE:COL` that line
    and column."""
    spec = token.partition(":")[2]
    match = re.fullmatch(r"(.+?)(?::([0-9]+):([0-9]+))?", spec)
    if not match:
        return "manifest line %d: '%s' names no member" % (entry.lineno, token)
    member, line, column = match.groups()
    where = os.path.basename(entry.path) + "(" + member + ")"
    if line is None:
        if not re.search(re.escape(where) + r":[0-9]+:[0-9]+", stderr):
            return "the diagnostic has no location '%s:LINE:COL'" % where
    elif "%s:%s:%s:" % (where, line, column) not in stderr:
        return "the diagnostic is not at '%s:%s:%s'" % (where, line, column)
    return ""


def check_location(entry, stderr):
    """An empty string, or why the diagnostic has no location."""
    for token in entry.where.split():
        kind, _, name = token.partition(":")
        if kind == "member":
            failure = check_member(entry, token, stderr)
            if failure:
                return failure
            continue
        name = os.path.basename(name or entry.path)
        if kind == "file":
            if name not in stderr:
                return "the diagnostic does not name '%s'" % name
        elif kind == "pos":
            if not re.search(re.escape(name) + r":[1-9][0-9]*:[0-9]+", stderr):
                return "the diagnostic has no position '%s:LINE:COL'" % name
        else:
            return "manifest line %d: unknown location kind '%s'" % (
                entry.lineno, token)
    return ""


class Run:
    """One entry's command, started; `finish` judges what it did."""

    def __init__(self, entry, args, scratch):
        self.entry = entry
        self.proc = None
        self.failure = ""
        out_dir = os.path.join(scratch, "%d" % entry.lineno)
        os.makedirs(out_dir, exist_ok=True)
        substitutions = {
            "{file}": os.path.join(HERE, entry.path),
            "{in}": os.path.join(HERE, "Inputs"),
            "{out}": out_dir,
        }
        argv = []
        for word in shlex.split(entry.command):
            for key, value in substitutions.items():
                word = word.replace(key, value)
            argv.append(word)
        if argv[0] in TOOLS:
            argv[0] = find_tool(argv[0], args.bin_dir)
        # Output goes to files, so that no thread has to drain pipes (the
        # driver has none: preexec_fn is only safe without threads).
        self.output = open(os.path.join(out_dir, "output.txt"), "w+b")
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=self.output,
                stderr=subprocess.STDOUT, cwd=out_dir, start_new_session=True,
                env=child_environment(args.memory_mb),
                preexec_fn=limit_memory(args.memory_mb))
        except OSError as e:
            self.failure = "cannot run %s: %s" % (argv[0], e)
        self.deadline = time.monotonic() + args.timeout
        self.timeout = args.timeout

    def done(self):
        if self.proc is None or self.proc.poll() is not None:
            return True
        if time.monotonic() < self.deadline:
            return False
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.wait()
        self.failure = "timed out after %d s" % self.timeout
        return True

    def finish(self):
        """(entry, failure reason or '', output)."""
        self.output.seek(0)
        text = self.output.read().decode("utf-8", "replace")
        self.output.close()
        return self.entry, self.failure or judge(self.entry,
                                                 self.proc.returncode, text), text


def judge(entry, status, text):
    """Why a run that exited with `status` and printed `text` fails, or ''."""
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "signal %d" % -status
        return "died by %s" % name
    if status == 0:
        return "exit status 0"
    for marker in CRASH_MARKERS:
        if marker in text:
            return "crash report in the output ('%s')" % marker
    if status >= 128:
        return "exit status %d (a signal?)" % status
    if entry.expected not in text:
        return "missing '%s'" % entry.expected
    return check_location(entry, text)


def run_all(entries, args, scratch):
    """Runs the entries, `args.jobs` at a time; results in manifest order."""
    pending = list(entries)
    running, results = [], {}
    while pending or running:
        while pending and len(running) < max(args.jobs, 1):
            running.append(Run(pending.pop(0), args, scratch))
        still = []
        for run in running:
            if run.done():
                results[run.entry.lineno] = run.finish()
            else:
                still.append(run)
        if len(still) == len(running):
            time.sleep(0.01)
        running = still
    return [results[e.lineno] for e in entries]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--manifest", default=os.path.join(HERE, "manifest.txt"))
    parser.add_argument("--bin-dir", default="",
                        help="where the tsmlir tools are (default: PATH)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=30,
                        help="seconds per command")
    parser.add_argument("--memory-mb", type=int, default=4096,
                        help="address-space cap per command (0: none, for "
                             "sanitizer builds)")
    parser.add_argument("--filter", default="",
                        help="only entries whose file contains this")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print every entry's diagnostic")
    args = parser.parse_args()

    entries = [e for e in parse_manifest(args.manifest)
               if args.filter in e.path]
    missing = [e for e in entries
               if not e.path.startswith("missing/")
               and not os.path.exists(os.path.join(HERE, e.path))]
    for e in missing:
        print("FAIL: %s: manifest line %d names a file that does not exist"
              % (e.path, e.lineno))

    failures = len(missing)
    with tempfile.TemporaryDirectory(prefix="tsmlir-malformed-") as scratch:
        results = run_all([e for e in entries if e not in missing], args,
                          scratch)
    for entry, why, text in results:
        if why:
            failures += 1
            first = text.strip().splitlines()[:1]
            print("FAIL: %s: %s%s" % (entry.path, why,
                                      (" -- " + first[0][:200]) if first else ""))
        elif args.verbose:
            print("ok: %s: %s" % (entry.path, text.strip().splitlines()[0][:200]))
    # Runs per directory (ts/, mlir/, npy/, safetensors/, ...), so that the
    # test names the kind of input whose runs changed.
    by_dir = {}
    for entry, why, _ in results:
        counts = by_dir.setdefault(entry.path.split("/", 1)[0], [0, 0])
        counts[0] += 1
        counts[1] += 0 if why else 1
    for name in sorted(by_dir):
        print("  %s: %d runs, %d clear diagnostics" % ((name,) +
                                                       tuple(by_dir[name])))
    # Files: the malformed ones; the valid inputs under Inputs/ and the
    # missing/ names of tool-level runs count as runs only.
    files = len(set(e.path for e in entries
                    if not e.path.startswith(("Inputs/", "missing/"))))
    print("malformed: %d files, %d runs, %d clear diagnostics, %d failures"
          % (files, len(entries), len(entries) - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
