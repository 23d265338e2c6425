#!/usr/bin/env python3
"""Compares the tsmlir variant of several runs of bench/gpu/run.py on one
GPU (one kit's models built with different kernel settings, say:
scripts/gpu-kit.sh --gpu-flags): a markdown table of each (workload, size)'s
median time in every run, with its ratio to the first run's.

  bench/gpu/compare.py default=A.json vw8=B.json ...  > table.md

Each run's copy bandwidth is shown too, so that runs on a drifting GPU can
be told apart from a change of the kernels.
"""
import json
import sys


def load(arg):
    name, sep, path = arg.partition("=")
    if not sep:
        sys.exit("compare.py: expected NAME=RESULTS.json, got '%s'" % arg)
    with open(path) as f:
        data = json.load(f)
    times = {(r["workload"], r["size"]): r for r in data["records"]
             if r.get("variant") == "tsmlir" and "median_us" in r}
    copy = {c["size"]: c["median_us"] for c in data["copy"]}
    return name, data["environment"], times, copy


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    runs = [load(a) for a in argv[1:]]
    base_name, env, base, _ = runs[0]
    names = [r[0] for r in runs]
    print("tsmlir's median time (us) on %s, and its ratio to `%s`'s "
          "(below 1: faster); `check` is every run's output check against "
          "eager PyTorch.\n" % (env.get("gpu", "the GPU"), base_name))
    print("| workload | size | " + " | ".join(names) + " | check |")
    print("|---|---|" + "---:|" * len(names) + "---|")
    for key in base:
        cells, checks = [], set()
        for _, _, times, _ in runs:
            r = times.get(key)
            if r is None:
                cells.append("—")
                continue
            checks.add(r.get("check", "?"))
            ratio = r["median_us"] / base[key]["median_us"]
            cells.append("%.1f" % r["median_us"] if r is base[key] else
                         "%.1f (%.2f)" % (r["median_us"], ratio))
        print("| %s | %s | %s | %s |" % (key[0], key[1], " | ".join(cells),
                                         ", ".join(sorted(checks))))
    sizes = list(runs[0][3])
    print("\nCopy (`dst.copy_(src)`) median us in each run:\n")
    print("| size | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for size in sizes:
        print("| %s | %s |" % (size, " | ".join(
            "%.1f" % copy[size] if size in copy else "—" for _, _, _, copy in runs)))


if __name__ == "__main__":
    main(sys.argv)
