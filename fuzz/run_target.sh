#!/usr/bin/env bash
# Runs one fuzz target over its corpus, then on RUNS mutated inputs; fails on any finding.
#   fuzz/run_target.sh TARGET CORPUS WORKDIR RUNS [libFuzzer flags...]
set -euo pipefail
target=$1 corpus=$2 work=$3 runs=$4
shift 4
rm -rf "$work"
mkdir -p "$work/corpus" "$work/findings"
cp -r "$corpus"/. "$work/corpus/"
"$target" -runs="$runs" -timeout=30 -rss_limit_mb=2560 -close_fd_mask=1 -print_final_stats=1 \
  -artifact_prefix="$work/findings/" "$@" "$work/corpus" 2>&1 | tail -n 25
findings=$(find "$work/findings" -type f | wc -l)
echo "findings: $findings"
[ "$findings" -eq 0 ]
