#!/usr/bin/env bash
# Runs the TorchScript importer's libFuzzer target for a while (docs/fuzzing.md).
#
#   scripts/fuzz.sh [seconds] [libFuzzer args...]     # default 300 seconds
#
# Builds torchscript-import-fuzzer in $TSMLIR_BUILD_DIR (default ./build,
# configured by scripts/setup.sh with clang, so TSMLIR_ENABLE_FUZZER is on).
# The corpus it grows persists in $BUILD/fuzz-corpus, seeded from test/Corpus
# and test/Target/TorchScript/Inputs/fuzz-regressions; findings (crash-*,
# timeout-*, oom-*, leak-*) land in $BUILD/fuzz-findings. Ends with the
# number of executions and of findings; the exit status is non-zero when there
# is a finding.
#
# Environment: TSMLIR_FUZZ_JOBS=N runs N fuzzing processes in parallel
# (default 1); TSMLIR_FUZZ_MAX_LEN (default 16384); TSMLIR_FUZZ_ROUNDTRIP,
# TSMLIR_FUZZ_CONTEXT_RESET (see the fuzzer's source).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
SECONDS_TO_RUN="${1:-300}"
shift || true
JOBS="${TSMLIR_FUZZ_JOBS:-1}"
MAX_LEN="${TSMLIR_FUZZ_MAX_LEN:-16384}"

case "$SECONDS_TO_RUN" in
  ''|*[!0-9]*) echo "usage: $0 [seconds] [libFuzzer args...]" >&2; exit 2 ;;
esac

if [ -z "${TSMLIR_FUZZ_NO_BUILD:-}" ]; then
  ninja -C "$BUILD" torchscript-import-fuzzer
fi
FUZZER="$BUILD/bin/torchscript-import-fuzzer"
if [ ! -x "$FUZZER" ]; then
  echo "fuzz: $FUZZER is missing; configure with clang and" \
       "-DTSMLIR_ENABLE_FUZZER=ON" >&2
  exit 1
fi

CORPUS="$BUILD/fuzz-corpus"
FINDINGS="$BUILD/fuzz-findings"
LOGS="$BUILD/fuzz-logs"
mkdir -p "$CORPUS" "$FINDINGS" "$LOGS"
# Seed the persistent corpus (flat, unique names; existing files are kept).
for f in "$ROOT"/test/Corpus/*/*.txt; do
  case_name="$(basename "$(dirname "$f")")"
  dest="$CORPUS/seed_${case_name}_$(basename "$f")"
  [ -e "$dest" ] || cp "$f" "$dest"
done
REGRESSIONS="$ROOT/test/Target/TorchScript/Inputs/fuzz-regressions"

# A libFuzzer dictionary of TorchScript IR tokens, so mutations splice in
# whole keywords, types and node kinds.
DICT="$BUILD/fuzz-torchscript.dict"
{
  for tok in graph block0 block1 return with '->' '=' ':' '::' ',' '(' ')' \
      '[' ']' '{' '}' '<' '>' '?' '*' '#' '%' '%1' '%x.1' '%self' \
      '%self.fc1.weight' '//' '"' '\n' '\\' '\303' \
      Tensor Float Double Half BFloat16 Long Int Bool Byte Char Short \
      ComplexFloat int float bool str NoneType Device Function Generator \
      Layout ScalarType Scalar number complex Any Storage 'Tensor[]' \
      'int[]' 'List[' 'Dict(' 'Tuple[' 'Optional[' 'Union(' 'Future(' \
      'strides=' 'requires_grad=0' 'requires_grad=1' 'device=cpu' \
      'device=cuda:0' 'value=' 'name=' 'fallback=1' 'types=' 'seen_none=' \
      'profiled_type=' 'dim=' 'chunks=' '<Tensor>' '<Graph>' \
      'CPUFloatType{2}' 'prim::Constant' 'prim::If' 'prim::Loop' \
      'prim::GetAttr' 'prim::CallFunction' 'prim::CallMethod' \
      'prim::TupleConstruct' 'prim::TupleUnpack' 'prim::ListConstruct' \
      'prim::ListUnpack' 'prim::TypeCheck' 'prim::RequiresGradCheck' \
      'prim::TensorExprGroup_0' 'prim::TensorExprGroup' 'prim::FusionGroup_0' \
      'prim::CudaFusionGroup_0' 'prim::DifferentiableGraph_0' \
      'prim::DifferentiableGraph' 'prim::profile' 'prim::BroadcastSizes' \
      'prim::RaiseException' 'prim::AutogradZero' 'prim::Uninitialized' \
      'aten::add' 'aten::mul' 'aten::matmul' 'aten::size' 'aten::slice' \
      'aten::select' 'aten::__getitem__' 'aten::_set_item' 'aten::view' \
      'aten::linear' 'aten::Float' 'aten::Bool' 'aten::add_' inf nan -inf \
      1e308 9223372036854775807 -9223372036854775808 \
      18446744073709551616 0.5 -1 2; do
    esc=${tok//\\/\\\\}
    esc=${esc//\"/\\\"}
    printf '"%s"\n' "$esc"
  done
} > "$DICT"

findings_before=$(find "$FINDINGS" -type f | wc -l)
rm -f "$LOGS"/fuzz-*.log
echo "fuzz: $FUZZER for ${SECONDS_TO_RUN}s, $JOBS job(s), corpus $CORPUS" \
     "($(find "$CORPUS" -type f | wc -l) inputs)"

started=$(date +%s)
pids=()
for ((i = 0; i < JOBS; i++)); do
  "$FUZZER" "$CORPUS" "$REGRESSIONS" \
    -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -dict="$DICT" \
    -artifact_prefix="$FINDINGS/" "$@" > "$LOGS/fuzz-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=$?
done
elapsed=$(($(date +%s) - started))

execs=0
for log in "$LOGS"/fuzz-*.log; do
  n=$(awk '/stat::number_of_executed_units:/ { n = $2 }
           /^Done [0-9]+ runs/ && !n { n = $2 }
           END { print n + 0 }' "$log")
  # A run that stopped at a finding prints no final stats: count its last
  # status line ("#1234 ...").
  if [ "$n" -eq 0 ]; then
    n=$(grep -o '^#[0-9]\+' "$log" | tail -1 | tr -d '#')
    n=${n:-0}
  fi
  execs=$((execs + n))
done
findings_after=$(find "$FINDINGS" -type f | wc -l)
new=$((findings_after - findings_before))

for log in "$LOGS"/fuzz-*.log; do
  if grep -q "==ERROR\|FINDING\|Test unit written\|deadly signal" "$log"; then
    echo "--- $log"
    grep -A40 "==ERROR\|FINDING\|deadly signal" "$log" | head -80
  fi
done
echo "fuzz: $execs executions in ${elapsed}s, $new new finding(s)" \
     "in $FINDINGS, corpus now $(find "$CORPUS" -type f | wc -l) inputs"
if [ "$new" -ne 0 ] || [ "$status" -ne 0 ]; then
  exit 1
fi
