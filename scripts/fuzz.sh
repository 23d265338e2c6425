#!/usr/bin/env bash
# Runs one of tsmlir's libFuzzer targets for a while (docs/reliability.md).
#
#   scripts/fuzz.sh TARGET [SECONDS] [libFuzzer args...]   # default 300 s
#   scripts/fuzz.sh all [SECONDS]        # each target in turn, SECONDS each
#   scripts/fuzz.sh [SECONDS] [args...]  # the importer, as before
#
# TARGET: import (torchscript-import-fuzzer), npy (npy-fuzzer), safetensors
# (safetensors-fuzzer), pickle (pickle-fuzzer), ts-source (ts-source-fuzzer)
# or pipeline (pipeline-fuzzer); the fuzzers' own names work too.
#
# Builds the fuzzer in $TSMLIR_BUILD_DIR (default ./build, configured by
# scripts/setup.sh with clang, so TSMLIR_ENABLE_FUZZER is on), under
# /tmp/tsmlir-ninja.lock like every build on a shared checkout. Each target
# keeps its state outside the source tree, in $BUILD/fuzz/<fuzzer>/:
#
#   corpus/    the corpus it grows, kept from run to run; seeded from
#              test/Corpus and test/Fuzz/seeds/<fuzzer> on every run
#   findings/  crash-*, timeout-*, oom-*, leak-* (the inputs to keep)
#   logs/      the libFuzzer log of the last run
#
# The regression inputs of past findings (test/Fuzz/regressions/<fuzzer>)
# are run first, every time. The run ends with a summary line (executions,
# time, coverage, corpus, findings), which is also appended to
# $BUILD/fuzz/history.tsv; the exit status is non-zero when there is a new
# finding.
#
# Environment: TSMLIR_FUZZ_JOBS=N runs N fuzzing processes in parallel
# (default 1); TSMLIR_FUZZ_MAX_LEN overrides the target's input size limit;
# TSMLIR_FUZZ_NO_BUILD=1 skips the build; the fuzzers read their own
# TSMLIR_FUZZ_* variables (see their sources).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"

usage() {
  echo "usage: $0 {import|npy|safetensors|pickle|ts-source|pipeline|all} [seconds] [libFuzzer args...]" >&2
  exit 2
}

# The importer was the only target once: a bare number still means it.
TARGET="${1:-import}"
case "$TARGET" in
  ''|*[!0-9]*) shift || true ;;
  *) TARGET=import ;;
esac
SECONDS_TO_RUN="${1:-300}"
shift || true
case "$SECONDS_TO_RUN" in
  ''|*[!0-9]*) usage ;;
esac

if [ "$TARGET" = all ]; then
  status=0
  for t in import npy safetensors pickle ts-source pipeline; do
    "$0" "$t" "$SECONDS_TO_RUN" "$@" || status=1
  done
  exit $status
fi

# Per target: the fuzzer, its input size limit, its per-input time and
# memory limits, its dictionary, and the seed files it takes from the shared corpus.
case "$TARGET" in
  import|torchscript-import|torchscript-import-fuzzer)
    FUZZER=torchscript-import-fuzzer; MAX_LEN=16384; TIMEOUT=10; RSS=2048
    DICT="$ROOT/test/Fuzz/dicts/torchscript-import.dict"
    SEED_GLOBS=("test/Corpus/*/*.txt")
    TARGET_ARGS=()
    # Older findings live beside the importer's own tests.
    EXTRA_REGRESSIONS="$ROOT/test/Target/TorchScript/Inputs/fuzz-regressions" ;;
  npy|npy-fuzzer)
    FUZZER=npy-fuzzer; MAX_LEN=8192; TIMEOUT=10; RSS=2048
    DICT="$ROOT/test/Fuzz/dicts/npy.dict"
    SEED_GLOBS=("test/Corpus/*/*.npy" "test/Dialect/TorchScript/Inputs/npy/*.npy")
    TARGET_ARGS=()
    EXTRA_REGRESSIONS= ;;
  safetensors|safetensors-fuzzer)
    FUZZER=safetensors-fuzzer; MAX_LEN=8192; TIMEOUT=10; RSS=2048
    DICT="$ROOT/test/Fuzz/dicts/safetensors.dict"
    SEED_GLOBS=("test/Corpus/*/*.safetensors" "test/e2e/Inputs/*/*/*.safetensors")
    TARGET_ARGS=()
    EXTRA_REGRESSIONS= ;;
  pickle|pickle-fuzzer)
    # The pickles of .pt archives (data.pkl, constants.pkl, *.debug_pkl);
    # its seeds are its own (test/Fuzz/seeds), written by torch.jit.save.
    FUZZER=pickle-fuzzer; MAX_LEN=8192; TIMEOUT=10; RSS=2048
    DICT="$ROOT/test/Fuzz/dicts/pickle.dict"
    SEED_GLOBS=()
    TARGET_ARGS=()
    EXTRA_REGRESSIONS= ;;
  ts-source|ts-source-fuzzer)
    # The TorchScript source of .pt archives (code/**/*.py); its seeds are
    # its own (test/Fuzz/seeds), written by torch.jit.save.
    FUZZER=ts-source-fuzzer; MAX_LEN=16384; TIMEOUT=10; RSS=2048
    DICT="$ROOT/test/Fuzz/dicts/ts-source.dict"
    SEED_GLOBS=()
    TARGET_ARGS=()
    EXTRA_REGRESSIONS= ;;
  pipeline|pipeline-fuzzer)
    # Inputs are choices for the graph generator, not text: no dictionary,
    # no corpus files to borrow; its seeds are its own (test/Fuzz/seeds).
    FUZZER=pipeline-fuzzer; MAX_LEN=1024; TIMEOUT=60; RSS=4096
    DICT=
    SEED_GLOBS=()
    # Longer inputs are more nodes: no slow growth of the length limit.
    TARGET_ARGS=(-len_control=0)
    EXTRA_REGRESSIONS= ;;
  *) usage ;;
esac
MAX_LEN="${TSMLIR_FUZZ_MAX_LEN:-$MAX_LEN}"
JOBS="${TSMLIR_FUZZ_JOBS:-1}"

if [ -z "${TSMLIR_FUZZ_NO_BUILD:-}" ]; then
  flock /tmp/tsmlir-ninja.lock ninja -C "$BUILD" "$FUZZER"
fi
BIN="$BUILD/bin/$FUZZER"
if [ ! -x "$BIN" ]; then
  echo "fuzz: $BIN is missing; configure with clang and" \
       "-DTSMLIR_ENABLE_FUZZER=ON" >&2
  exit 1
fi

STATE="$BUILD/fuzz/$FUZZER"
CORPUS="$STATE/corpus"
FINDINGS="$STATE/findings"
LOGS="$STATE/logs"
mkdir -p "$CORPUS" "$FINDINGS" "$LOGS"

# Seeds: files of the shared corpus (flat, unique names; kept if present)
# and the target's committed seeds.
for pattern in "${SEED_GLOBS[@]}"; do
  for f in $ROOT/$pattern; do
    [ -f "$f" ] || continue
    rel="${f#$ROOT/}"
    dest="$CORPUS/seed_${rel//\//_}"
    [ -e "$dest" ] || cp "$f" "$dest"
  done
done
SEEDS="$ROOT/test/Fuzz/seeds/$FUZZER"
REGRESSIONS="$ROOT/test/Fuzz/regressions/$FUZZER"
# Read-only inputs after the corpus: libFuzzer writes new inputs to the
# first directory only.
INPUT_DIRS=()
for d in "$SEEDS" "$REGRESSIONS" $EXTRA_REGRESSIONS; do
  [ -d "$d" ] && INPUT_DIRS+=("$d")
done
DICT_ARGS=()
[ -n "$DICT" ] && DICT_ARGS=(-dict="$DICT")

findings_before=$(find "$FINDINGS" -type f | wc -l)
rm -f "$LOGS"/fuzz-*.log
echo "fuzz: $FUZZER for ${SECONDS_TO_RUN}s, $JOBS job(s), corpus $CORPUS" \
     "($(find "$CORPUS" -type f | wc -l) inputs)"

started=$(date +%s)
pids=()
for ((i = 0; i < JOBS; i++)); do
  "$BIN" "$CORPUS" "${INPUT_DIRS[@]}" \
    -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" \
    -timeout="$TIMEOUT" -rss_limit_mb="$RSS" -print_final_stats=1 \
    "${DICT_ARGS[@]}" "${TARGET_ARGS[@]}" -artifact_prefix="$FINDINGS/" "$@" \
    > "$LOGS/fuzz-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=$?
done
elapsed=$(($(date +%s) - started))

# Executions: libFuzzer's final count, or the last status line ("#1234 ...")
# of a run that stopped at a finding. Coverage: the last status line's
# cov (edges) and ft (features).
execs=0 cov=0 ft=0
for log in "$LOGS"/fuzz-*.log; do
  n=$(awk '/stat::number_of_executed_units:/ { n = $2 }
           /^Done [0-9]+ runs/ && !n { n = $2 }
           END { print n + 0 }' "$log")
  if [ "$n" -eq 0 ]; then
    n=$(grep -o '^#[0-9]\+' "$log" | tail -1 | tr -d '#' || true)
    n=${n:-0}
  fi
  execs=$((execs + n))
  c=$(grep -o 'cov: [0-9]\+' "$log" | tail -1 | awk '{ print $2 }' || true)
  f=$(grep -o 'ft: [0-9]\+' "$log" | tail -1 | awk '{ print $2 }' || true)
  [ "${c:-0}" -gt "$cov" ] && cov=$c
  [ "${f:-0}" -gt "$ft" ] && ft=$f
done
findings_after=$(find "$FINDINGS" -type f | wc -l)
new=$((findings_after - findings_before))
corpus_size=$(find "$CORPUS" -type f | wc -l)

for log in "$LOGS"/fuzz-*.log; do
  if grep -q "ERROR:\|FINDING\|runtime error\|Test unit written\|deadly signal" "$log"; then
    echo "--- $log"
    # head may close the pipe before grep is done: not a failure.
    grep -A40 "ERROR:\|FINDING\|runtime error\|deadly signal" "$log" | head -80 || true
  fi
done
echo "fuzz: $FUZZER: $execs executions in ${elapsed}s" \
     "($((execs / (elapsed > 0 ? elapsed : 1)))/s), coverage: $cov edges," \
     "$ft features, corpus now $corpus_size inputs, $new new finding(s)" \
     "in $FINDINGS"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  "$FUZZER" "$elapsed" "$execs" "$cov" "$ft" "$corpus_size" "$new" \
  >> "$BUILD/fuzz/history.tsv"
if [ "$new" -ne 0 ] || [ "$status" -ne 0 ]; then
  exit 1
fi
