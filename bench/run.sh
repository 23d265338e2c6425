#!/usr/bin/env bash
# Builds tsmlir-bench and prints, per graph size, the TorchScript import time
# against MLIR's own parser reading the same module (the baseline, measured in
# the same run), their ratio, the cost per node, and Google Benchmark's O(N)
# fit; then the same for --ts-create-fusion-groups (nnc and aggressive) on
# fully typed graphs; then .pt archive import against reading the archive.
# See bench/README.md.
#
#   bench/run.sh                       # build in ./build-bench, run (~1-2 min)
#   TSMLIR_BENCH_BUILD_DIR=dir bench/run.sh
#   bench/run.sh --benchmark_min_time=1 --benchmark_repetitions=5
#                                      # extra arguments go to tsmlir-bench
#   bench/run.sh --benchmark_filter=Fusion   # the fusion table only
#
# Environment:
#   TSMLIR_BENCH_BUILD_DIR  build directory (default: <repo>/build-bench);
#                           configured as scripts/setup.sh does if it is new
#   TSMLIR_BENCH_JOBS       ninja -j (default 1: the machine is shared)
#   TSMLIR_BENCH_JSON       also keep Google Benchmark's JSON here
#   TSMLIR_BENCH_TIME       cpu_time (default) or real_time
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BENCH_BUILD_DIR:-$ROOT/build-bench}"
JOBS="${TSMLIR_BENCH_JOBS:-1}"
TIME_FIELD="${TSMLIR_BENCH_TIME:-cpu_time}"

if [ ! -f "$BUILD/build.ninja" ]; then
  TSMLIR_BUILD_DIR="$BUILD" TSMLIR_CMAKE_ARGS="-DTSMLIR_BUILD_BENCHMARKS=ON" \
    "$ROOT/scripts/setup.sh" >&2
fi
ninja -C "$BUILD" -j "$JOBS" tsmlir-bench >&2

JSON="${TSMLIR_BENCH_JSON:-$(mktemp --suffix=.json)}"
[ -n "${TSMLIR_BENCH_JSON:-}" ] || trap 'rm -f "$JSON"' EXIT

# Three repetitions, medians reported: the machine is shared, and the median
# of three is steadier than one long run. (display_ rather than
# report_aggregates_only: Google Benchmark 1.7.1 drops runs from the report
# with the latter when there is a single repetition.)
"$BUILD/bin/tsmlir-bench" \
  --benchmark_min_time=0.5 \
  --benchmark_repetitions=3 \
  --benchmark_display_aggregates_only=true \
  --benchmark_out="$JSON" --benchmark_out_format=json \
  "$@" >&2

python3 - "$JSON" "$TIME_FIELD" <<'EOF'
import json
import math
import sys

path, field = sys.argv[1], sys.argv[2]
with open(path) as f:
    data = json.load(f)

scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}  # -> milliseconds
runs = {}    # (benchmark, N) -> {"ms": ..., "nodes": ...}
fits = {}    # benchmark -> {"coef": ns per N, "rms": fraction}
def family_of(name):
    """BM_X/1000 -> BM_X; BM_X/nnc/1000 -> BM_X/nnc; BM_X/nnc_BigO -> BM_X/nnc."""
    for suffix in ("_BigO", "_RMS"):
        if name.endswith(suffix):
            return name[:-len(suffix)]
    parts = name.split("/")
    return "/".join(parts[:-1]) if parts[-1].isdigit() else name


for b in data["benchmarks"]:
    name = b["name"]
    family = family_of(b.get("run_name", name)) if b.get("aggregate_name") not in (
        "BigO", "RMS") else family_of(name)
    if b.get("aggregate_name") == "BigO":
        coef = b["cpu_coefficient" if field == "cpu_time" else "real_coefficient"]
        fits.setdefault(family, {})["coef"] = coef * scale[b["time_unit"]] * 1e6
        continue
    if b.get("aggregate_name") == "RMS":
        fits.setdefault(family, {})["rms"] = b["rms"]
        continue
    if b.get("error_occurred"):
        print(f"ERROR: {name}: {b.get('error_message')}")
        continue
    # Medians when repeated, the single run otherwise.
    median = b.get("aggregate_name") == "median"
    if b.get("run_type") == "aggregate" and not median:
        continue
    n = int(b["run_name"].split("/")[-1])
    if (family, n) in runs and not median:
        continue
    runs[(family, n)] = {"ms": b[field] * scale[b["time_unit"]],
                         "nodes": b.get("nodes", n),
                         "identical": b.get("identical"),
                         "groups": b.get("groups", float("nan"))}

IMP, BASE, EXP = "BM_ImportTorchScript", "BM_ParseMLIRBaseline", "BM_ExportTorchScript"
OPT = "BM_OptimizeTorchScript"
sizes = sorted({n for (f, n) in runs if f in (
    "BM_ImportTorchScript", "BM_ParseMLIRBaseline", "BM_ExportTorchScript",
    "BM_OptimizeTorchScript")})
if sizes:
    print(f"\nTorchScript import vs MLIR's parser on the same module ({field}, "
          "median of the repetitions)\n")
    header = (f"{'N':>7} {'nodes':>7} {'import ms':>10} {'baseline ms':>12} "
              f"{'import/base':>12} {'import ns/node':>15} {'base ns/node':>13} "
              f"{'export ms':>10} {'export ns/node':>15}")
    print(header)
    print("-" * len(header))

def cell(family, n, key="ms"):
    r = runs.get((family, n))
    return r[key] if r else float("nan")

for n in sizes:
    nodes = runs.get((IMP, n), runs.get((BASE, n), {"nodes": n}))["nodes"]
    imp, base, exp = cell(IMP, n), cell(BASE, n), cell(EXP, n)
    print(f"{n:>7} {int(nodes):>7} {imp:>10.2f} {base:>12.2f} {imp / base:>12.2f} "
          f"{imp * 1e6 / nodes:>15.0f} {base * 1e6 / nodes:>13.0f} "
          f"{exp:>10.2f} {exp * 1e6 / nodes:>15.0f}")

def loglog_slope(family):
    pts = [(math.log(runs[(family, n)]["nodes"]), math.log(runs[(family, n)]["ms"]))
           for n in sizes if (family, n) in runs]
    if len(pts) < 2:
        return float("nan")
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    return (sum((x - mx) * (y - my) for x, y in pts) /
            sum((x - mx) ** 2 for x, _ in pts))

if sizes:
    print("\nGrowth (Google Benchmark's O(N) fit; exponent k of a least-squares "
          "fit time ~ N^k, 1.0 = linear)\n")
for family in (IMP, BASE, EXP, OPT) if sizes else ():
    fit = fits.get(family, {})
    growth = (cell(family, sizes[-1]) / cell(family, sizes[0])) if sizes else float("nan")
    print(f"  {family:<22} {fit.get('coef', float('nan')):8.0f} ns * N   "
          f"RMS {100 * fit.get('rms', float('nan')):5.1f}%   k = {loglog_slope(family):.2f}   "
          f"time x{growth:.0f} for x{sizes[-1] // sizes[0]} nodes")

if 10000 in sizes and (IMP, 10000) in runs:
    print(f"\nImport of a 10,000-node graph: {cell(IMP, 10000):.1f} ms "
          f"({cell(IMP, 10000) / cell(BASE, 10000):.2f}x MLIR's parser on the same module)")
if (OPT, 10000) in runs:
    print(f"--ts-optimize on a 10,000-node graph: {cell(OPT, 10000):.1f} ms "
          f"({cell(OPT, 10000) / cell(BASE, 10000):.2f}x MLIR's parser reading it)")
    print(f"\n{'N':>7} {'nodes':>7} {'optimize ms':>12} {'ns/node':>8} {'optimize/parse':>15}")
    for n in sizes:
        if (OPT, n) in runs:
            nodes = runs[(OPT, n)]["nodes"]
            print(f"{n:>7} {int(nodes):>7} {cell(OPT, n):>12.2f} "
                  f"{cell(OPT, n) * 1e6 / nodes:>8.0f} {cell(OPT, n) / cell(BASE, n):>15.2f}")
identical = [runs[(EXP, n)]["identical"] for n in sizes if (EXP, n) in runs]
if identical:
    print("Export reproduces the generated text byte for byte: "
          + ("yes" if all(i == 1 for i in identical) else "NO"))

PT, PTBASE = "BM_ImportPt", "BM_ReadArchiveBaseline"
psizes = sorted({n for (f, n) in runs if f in (PT, PTBASE)})
if psizes:
    print(f"\n.pt archive import (importPtArchive) vs reading every member of "
          f"the same archive into memory ({field}, median)\n")
    header = (f"{'MB':>5} {'import ms':>10} {'read ms':>8} {'import/read':>12} "
              f"{'import ms/MB':>13}")
    print(header)
    print("-" * len(header))
    for n in psizes:
        imp, base = cell(PT, n), cell(PTBASE, n)
        print(f"{n:>5} {imp:>10.2f} {base:>8.2f} {imp / base:>12.2f} "
              f"{imp / n:>13.3f}")
    for family in (PT, PTBASE):
        growth = cell(family, psizes[-1]) / cell(family, psizes[0])
        print(f"  {family:<24} time x{growth:.0f} for x{psizes[-1] // psizes[0]} MB")

FBASE = "BM_ParseFusionBaseline"
FUSION = ["BM_CreateFusionGroups/nnc", "BM_CreateFusionGroups/aggressive"]
fsizes = sorted({n for (f, n) in runs if f == FBASE or f in FUSION})
if fsizes:
    print(f"\n--ts-create-fusion-groups (planning + forming the groups) on "
          f"fully typed graphs vs MLIR's parser reading them ({field}, median)\n")
    header = f"{'N':>7} {'ops':>7} {'parse ms':>9} {'ns/op':>6}"
    for family in FUSION:
        s = family.split("/")[1]
        header += f" {s + ' ms':>14} {'ns/op':>6} {'/parse':>7} {'groups':>7}"
    print(header)
    print("-" * len(header))
    for n in fsizes:
        ops = runs.get((FBASE, n), {"nodes": n})["nodes"]
        base = cell(FBASE, n)
        line = f"{n:>7} {int(ops):>7} {base:>9.2f} {base * 1e6 / ops:>6.0f}"
        for family in FUSION:
            ms = cell(family, n)
            r = runs.get((family, n), {})
            groups = r.get("groups", float("nan"))
            line += (f" {ms:>14.2f} {ms * 1e6 / ops:>6.0f} {ms / base:>7.2f} "
                     f"{groups:>7.0f}")
        print(line)
    print()
    for family in [FBASE] + FUSION:
        fit = fits.get(family, {})
        pts = [(math.log(runs[(family, n)]["nodes"]),
                math.log(runs[(family, n)]["ms"]))
               for n in fsizes if (family, n) in runs]
        k = float("nan")
        if len(pts) >= 2:
            mx = sum(x for x, _ in pts) / len(pts)
            my = sum(y for _, y in pts) / len(pts)
            k = (sum((x - mx) * (y - my) for x, y in pts) /
                 sum((x - mx) ** 2 for x, _ in pts))
        growth = cell(family, fsizes[-1]) / cell(family, fsizes[0])
        print(f"  {family:<34} {fit.get('coef', float('nan')):8.0f} ns * N   "
              f"RMS {100 * fit.get('rms', float('nan')):5.1f}%   k = {k:.2f}   "
              f"time x{growth:.0f} for x{fsizes[-1] // fsizes[0]} ops")
EOF
