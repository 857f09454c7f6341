#!/usr/bin/env bash
# Runs Horizon's libFuzzer targets (fuzz/): builds the `fuzz` preset (clang 15, ASan + UBSan),
# then runs each target from its seed corpus (fuzz/corpus/<target>, copied: the inputs
# libFuzzer keeps stay in the work folder) for a time or a number of runs, and prints per
# target the runs, the runs per second, the corpus size and the findings.
#
#   scripts/ci/fuzz.sh [-t SECONDS | -r RUNS] [-j JOBS] [-w WORKDIR] [TARGET...]
#
# Defaults: 60 seconds each, every target, one job, WORKDIR build/fuzz/work. A finding (crash,
# sanitizer report, leak, timeout, out of memory, failed property) is kept in
# WORKDIR/<target>/findings; add it to fuzz/corpus/<target> once fixed, so that ctest replays
# it. Exit status: 0 without findings, 1 with.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=60
runs=""
jobs=1
work=build/fuzz/work
while getopts "t:r:j:w:" opt; do
  case $opt in
    t) seconds=$OPTARG ;; r) runs=$OPTARG ;; j) jobs=$OPTARG ;; w) work=$OPTARG ;;
    *) sed -n '2,12p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(uci fen san pgn epd weights data_line args)

cmake --preset fuzz > /dev/null
cmake --build --preset fuzz > /dev/null
mkdir -p "$work"
limit=(-max_total_time="$seconds")
[ -z "$runs" ] || limit=(-runs="$runs")

total_runs=0
total_findings=0
printf "%-10s %12s %10s %10s %8s %9s\n" target runs seconds "runs/s" corpus findings
for t in "${targets[@]}"; do
  bin=$PWD/build/fuzz/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "no fuzz target '$t'" >&2; exit 2; }
  dir=$(realpath "$work")/$t
  mkdir -p "$dir/corpus" "$dir/findings"
  cp -rn "fuzz/corpus/$t"/. "$dir/corpus/"
  dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="$PWD/fuzz/dict/$t.dict")
  start=$(date +%s.%N)
  set +e
  if [ "$jobs" -gt 1 ]; then
    # Parallel jobs share the corpus; each writes its own log (fuzz-N.log).
    (cd "$dir" && "$bin" "${limit[@]}" -jobs="$jobs" -workers="$jobs" -timeout=30 \
       -rss_limit_mb=2560 -close_fd_mask=1 -print_final_stats=1 \
       -artifact_prefix="$dir/findings/" "${dict[@]}" corpus > run.log 2>&1)
    cat "$dir"/fuzz-*.log > "$dir/all.log" 2>/dev/null
  else
    "$bin" "${limit[@]}" -timeout=30 -rss_limit_mb=2560 -close_fd_mask=1 -print_final_stats=1 \
      -artifact_prefix="$dir/findings/" "${dict[@]}" "$dir/corpus" > "$dir/all.log" 2>&1
  fi
  set -e
  end=$(date +%s.%N)
  n=$(awk '/stat::number_of_executed_units:/ { s += $2 } END { print s + 0 }' "$dir/all.log")
  found=$(find "$dir/findings" -type f | wc -l)
  size=$(find "$dir/corpus" -type f | wc -l)
  awk -v t="$t" -v n="$n" -v s="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" \
    -v size="$size" -v found="$found" \
    'BEGIN { printf "%-10s %12d %10.0f %10.0f %8d %9d\n", t, n, s, n / (s > 0 ? s : 1), size,
             found }'
  total_runs=$((total_runs + n))
  total_findings=$((total_findings + found))
  [ "$found" -eq 0 ] || find "$dir/findings" -type f -printf "  finding: %p\n"
done
echo "total: $total_runs runs, $total_findings findings (work folder $work)"
[ "$total_findings" -eq 0 ]
