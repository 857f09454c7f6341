#!/usr/bin/env bash
# Builds the six release binaries into dist/, with SHA256SUMS and WHICH-FILE.txt, then measures
# each one this machine can run (the Windows ones under Wine) side by side with the native build
# (preset `release`, -march=native), in rounds so that all see the same load:
#
#   scripts/ci/dist.sh [-r RUNS] [-j JOBS] [-n] [-s SYSTEMS] [-l LEVELS]
#
#   -r RUNS     measurement rounds; the figures are medians (default 5)
#   -j JOBS     parallel compile jobs (default 2)
#   -n          build only, measure nothing
#   -s SYSTEMS  only these of "linux windows"
#   -l LEVELS   only these of "x86-64 x86-64-v2 x86-64-v3"
#
# Files: dist/horizon-<version>-<linux|windows>-<x86-64|x86-64-v2|x86-64-v3>[.exe], the version
# from engine.json. Figures: the `bench` node count (the same for every binary, or the script
# fails), `bench` nodes per second and `perft --depth 6` nodes per second, each also as a
# percentage of the native build's.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
runs=5
jobs=2
measure=1
systems=(linux windows)
levels=(x86-64 x86-64-v2 x86-64-v3)
while getopts "r:j:ns:l:" opt; do
  case $opt in
    r) runs=$OPTARG ;; j) jobs=$OPTARG ;; n) measure=0 ;;
    s) read -r -a systems <<< "$OPTARG" ;; l) read -r -a levels <<< "$OPTARG" ;;
    *) sed -n '2,18p' "$0"; exit 2 ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "dist.sh: -r needs a positive number" >&2; exit 2; }

# The version's one owner is engine.json ("engine": {..., "version": "X.Y.Z", ...}).
version=$(sed -n 's/^ *"engine":.*"version": *"\([0-9][0-9.]*\)".*/\1/p' engine.json)
[ -n "$version" ] || { echo "dist.sh: no \"engine\" version in engine.json" >&2; exit 2; }
mkdir -p dist
rm -f dist/horizon-* dist/SHA256SUMS dist/WHICH-FILE.txt

build() { # preset -> builds its engine
  echo "=== $1" >&2
  cmake --preset "$1" > /dev/null
  cmake --build "build/$1" --target horizon -j "$jobs" > /dev/null
}

files=()
for os in "${systems[@]}"; do
  ext=""
  [ "$os" = windows ] && ext=.exe
  for level in "${levels[@]}"; do
    build "$os-$level"
    file="horizon-$version-$os-$level$ext"
    cp "build/$os-$level/horizon$ext" "dist/$file"
    files+=("$file")
  done
done
(cd dist && sha256sum "${files[@]}" > SHA256SUMS)

cat > dist/WHICH-FILE.txt <<EOF
Horizon $version: which file to use

Every file is the whole engine (no DLL or library to add); they differ in the processor
instructions they use. Pick the highest level your processor has; the faster, the better.

  x86-64-v3  Intel Haswell (4th generation Core, 2013) and later, AMD Excavator (2015) and
             later: AVX2 and BMI2. On AMD before Zen 3 (Ryzen 1000-3000 and older) it runs,
             but the x86-64-v2 file is faster there (their BMI2 PEXT instruction is slow).
  x86-64-v2  Intel Nehalem (first Core i3/i5/i7, 2008) and later, AMD Bulldozer (2011) and
             later: SSE4.2 and POPCNT.
  x86-64     any 64-bit processor with POPCNT (AMD K10/Phenom, 2007, and later).

Windows: horizon-$version-windows-<level>.exe. Linux: horizon-$version-linux-<level> (static,
runs on any distribution; chmod +x it).

Which level has my processor?
  Linux:   grep -o -w 'avx2\\|bmi2\\|sse4_2\\|popcnt' /proc/cpuinfo | sort -u
           avx2 and bmi2 listed: x86-64-v3; sse4_2 and popcnt: x86-64-v2; popcnt: x86-64.
  Windows: CPU-Z (the "Instructions" field) or Sysinternals Coreinfo (coreinfo -f) lists the
           same names.
Not sure? Just try the v3 file: on a processor without its instructions it prints one line
naming what is missing and the file to use instead, and exits; it never crashes.

Check a download: sha256sum -c SHA256SUMS (Linux), or certutil -hashfile FILE SHA256 (Windows).
EOF
echo "dist/: ${files[*]} SHA256SUMS WHICH-FILE.txt" >&2
[ "$measure" = 1 ] || exit 0

# --- Measurement --------------------------------------------------------------------------
build release
# run BINARY ARGS...: the Windows ones under Wine
run() {
  local binary=$1
  shift
  if [[ $binary == *.exe ]]; then "$root/scripts/ci/wine.sh" "$binary" "$@"; else "$binary" "$@"; fi
}
names=(native)
binaries=("$root/build/release/horizon")
for file in "${files[@]}"; do
  # A binary for a level this processor lacks refuses with one line: report it and skip it.
  if ! out=$(run "$root/dist/$file" bench 1 2>&1 | tr -d '\r'); then
    echo "$file: cannot run here: $(echo "$out" | tail -1)" >&2
    continue
  fi
  names+=("$file")
  binaries+=("$root/dist/$file")
done

# figure FILE KEY: the number after "KEY: " in FILE's output
figure() { tr -d '\r' < "$1" | awk -v key="$2" 'index($0, key ": ") == 1 && !n++ { print $NF }'; }
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", 100 * a / b }'; }
median() {
  sort -n | awk '{ v[NR] = $1 }
    END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 1; r <= runs; ++r)); do
  echo "=== round $r of $runs" >&2
  for i in "${!names[@]}"; do
    run "${binaries[$i]}" bench > "$tmp/bench" 2> /dev/null
    run "${binaries[$i]}" perft --depth 6 > "$tmp/perft" 2> /dev/null
    figure "$tmp/bench" "Nodes searched" >> "$tmp/$i.nodes"
    figure "$tmp/bench" "Nodes/second" >> "$tmp/$i.bench_nps"
    figure "$tmp/perft" "Nodes/second" >> "$tmp/$i.perft_nps"
    figure "$tmp/perft" "Nodes searched" >> "$tmp/$i.perft_nodes"
  done
done

native_bench=$(median < "$tmp/0.bench_nps")
native_perft=$(median < "$tmp/0.perft_nps")
signature=$(head -1 "$tmp/0.nodes")
status=0
printf '\nHorizon %s, %s, median of %d rounds (bench: depth default, 1 thread; perft --depth 6)\n' \
  "$version" "$(uname -m)" "$runs"
printf '%-36s %10s %12s %7s %14s %7s\n' binary "bench nodes" "bench nps" "%" "perft 6 nps" "%"
for i in "${!names[@]}"; do
  nodes=$(sort -u "$tmp/$i.nodes" | tr '\n' ' ' | sed 's/ $//')
  bench_nps=$(median < "$tmp/$i.bench_nps")
  perft_nps=$(median < "$tmp/$i.perft_nps")
  printf '%-36s %10s %12s %6s%% %14s %6s%%\n' "${names[$i]}" "$nodes" "$bench_nps" \
    "$(percent "$bench_nps" "$native_bench")" "$perft_nps" "$(percent "$perft_nps" "$native_perft")"
  if [ "$nodes" != "$signature" ]; then
    echo "  ^ bench node count differs from the native build's $signature" >&2
    status=1
  fi
  if [ "$(sort -u "$tmp/$i.perft_nodes")" != 119060324 ]; then
    echo "  ^ perft 6 miscounted: $(sort -u "$tmp/$i.perft_nodes" | tr '\n' ' ')" >&2
    status=1
  fi
done
[ "$status" = 0 ] && echo "Bench: $signature from every binary measured"
exit "$status"
