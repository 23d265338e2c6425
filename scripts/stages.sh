# Sourced by scripts/test.sh and scripts/sanitize.sh: `stage NAME CMD...` runs
# CMD and, when TSMLIR_STAGE_TIMES names a file (.ci/run sets it), appends
# "NAME SECONDS STATUS" to it, so that CI prints each stage's wall time.
stage() {
  local name="$1"
  shift
  local start=$SECONDS rc=0
  "$@" || rc=$?
  if [ -n "${TSMLIR_STAGE_TIMES:-}" ]; then
    echo "$name $((SECONDS - start)) $rc" >> "$TSMLIR_STAGE_TIMES"
  fi
  return $rc
}

# Prints the stages recorded in TSMLIR_STAGE_TIMES, one line each, with a
# total of the seconds since START (a $SECONDS value) when one is given.
print_stage_times() {
  local start="${1:-}"
  awk '{ status = $NF; secs = $(NF - 1); $NF = ""; $(NF - 1) = "";
         printf "  %-20s %6d s  %3d min%s\n", $0, secs, (secs + 30) / 60,
                status == 0 ? "" : "  (failed)" }' "$TSMLIR_STAGE_TIMES"
  if [ -n "$start" ]; then
    local total=$((SECONDS - start))
    printf "  %-20s %6d s  %3d min\n" "total" "$total" $(((total + 30) / 60))
  fi
}
