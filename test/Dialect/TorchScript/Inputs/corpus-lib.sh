# Shared by the corpus scripts of the TorchScript passes (sourced).

# import_case CORPUS CALLEES CASE FILE OUT [tsmlir-translate options...]:
# imports CORPUS/CASE/FILE, with the graphs of CALLEES/CASE/*.txt as the
# functions they are named after (see scripts/dump_callee_graphs.py).
import_case() {
  _corpus=$1 _callees=$2 _case=$3 _file=$4 _out=$5
  shift 5
  set -- "$@" -mlir-print-debuginfo
  for _f in "$_callees/$_case"/*.txt; do
    [ -e "$_f" ] || continue
    set -- "$@" "--import-function=$(basename "$_f" .txt)=$_f"
  done
  tsmlir-translate --import-torchscript "$_corpus/$_case/$_file" -o "$_out" "$@"
}

# op_stats FILE [tsmlir-opt options...]: "count op" lines of the ts and func
# ops in FILE (after the options' passes), sorted by op name.
op_stats() {
  _in=$1
  shift
  tsmlir-opt "$_in" "$@" --print-op-stats -o /dev/null 2>&1 |
    awk -F, '/^ +(ts|func)\./ { gsub(/ /, "", $1); gsub(/ /, "", $2); print $2, $1 }' |
    sort -k2
}

# count_ops FILE REGEX: how many ops whose name matches REGEX the MLIR file
# FILE holds (read from the text, which is quicker than --print-op-stats).
count_ops() {
  grep -oE '(^|[^!A-Za-z0-9_.])(ts|func)\.[A-Za-z0-9_.]+' "$1" |
    sed 's/^[^tf]*//' | awk -v re="$2" '$0 ~ re { n++ } END { print n + 0 }'
}
