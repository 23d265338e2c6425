#!/usr/bin/env bash
# Long differential-testing runs of tsmlir-run against eager PyTorch
# (test/e2e/Inputs/difftest.py): random graphs of pointwise, reduction and
# shape ops, run with every fusion setting, in batches of seeds until the
# count is reached. Mismatches are printed, minimized, and written as
# regression cases to $TSMLIR_DIFFTEST_SAVE (default $BUILD/difftest-found);
# copy the ones worth keeping to test/e2e/Inputs/difftest-regressions/
# (run by test/e2e/difftest-regressions.test).
#
#   scripts/difftest-long.sh [count] [first seed]     # default 2000 graphs from seed 1
#
# Environment: TSMLIR_DIFFTEST_JOBS=N parallel tsmlir-run processes (default
# 2), TSMLIR_DIFFTEST_BATCH graphs per batch (default 200). Ends with one
# summary line per batch and a total; the exit status is non-zero when any
# graph mismatched.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TSMLIR_BUILD_DIR:-$ROOT/build}"
COUNT="${1:-2000}"
SEED="${2:-1}"
JOBS="${TSMLIR_DIFFTEST_JOBS:-2}"
BATCH="${TSMLIR_DIFFTEST_BATCH:-200}"
SAVE="${TSMLIR_DIFFTEST_SAVE:-$BUILD/difftest-found}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

case "$COUNT$SEED" in
  *[!0-9]*) echo "usage: $0 [count] [first seed]" >&2; exit 2 ;;
esac
export PATH="$BUILD/bin:$PATH"

status=0
graphs=0 runs=0 matched=0 mismatched=0 unsupported=0
end=$((SEED + COUNT))
for ((first = SEED; first < end; first += BATCH)); do
  n=$((end - first < BATCH ? end - first : BATCH))
  out="$TMP/batch.log"
  /usr/bin/python3 "$ROOT/test/e2e/Inputs/difftest.py" "$TMP/run" \
    --seed "$first" --count "$n" --jobs "$JOBS" --minimize --save "$SAVE" \
    > "$out" || status=1
  grep -v '^difftest:' "$out" || true
  line="$(grep '^difftest:' "$out" || true)"
  if [ -z "$line" ]; then
    echo "difftest: the batch from seed $first stopped early"
    status=1
    continue
  fi
  echo "$line"
  read -r g r m x u <<<"$(echo "$line" | sed -E \
    's/.* ([0-9]+) graphs, ([0-9]+) runs, ([0-9]+) match PyTorch, ([0-9]+) mismatches, ([0-9]+) unsupported/\1 \2 \3 \4 \5/')"
  graphs=$((graphs + g)) runs=$((runs + r)) matched=$((matched + m))
  mismatched=$((mismatched + x)) unsupported=$((unsupported + u))
  rm -rf "$TMP/run"
done
echo "difftest total: seeds $SEED..$((end - 1)), $graphs graphs, $runs runs," \
  "$matched match PyTorch, $mismatched mismatches, $unsupported unsupported"
exit $status
