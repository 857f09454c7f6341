#!/usr/bin/env bash
# The PGN reader against pgn-extract: every PGN file that pgn-extract reads without an error
# must come back from Horizon with the same number of games and the same main lines.
#
#   scripts/ci/pgn_agreement.sh [-b HORIZON] [-a] FILE...
#   (default HORIZON: build/release/horizon; pgn-extract from PATH or /usr/games)
#   -a: Horizon's games are those `horizon analyze --nodes 1 FILE` writes (annotated, every
#   game searched) instead of `horizon pgn --moves-only FILE`'s.
#
# For each file:
#   - pgn-extract -r checks the file; a file it reports an error for (an illegal move, a bad
#     FEN, a missing result, an unknown character, ...) is skipped and said so, since
#     pgn-extract's games are then not a reference. Its warnings ("Warning: Result of * is
#     inconsistent with checkmate") are no errors: such a file is checked, the first warning
#     shown.
#   - pgn-extract's games: its main lines in UCI notation (-Wuci, no comments, variations,
#     NAGs, tags, move numbers or results), one line a game.
#   - Horizon's games: `horizon pgn --moves-only FILE` (Horizon's one PGN reader) writes the
#     games it read whole in SAN; pgn-extract turns them into UCI lines in the same way, so
#     the moves Horizon read are compared move for move. Games Horizon refuses are counted
#     and shown.
# Prints per file: games by pgn-extract, games by Horizon (read whole, and refused), main
# lines that differ; then the totals. Exit status 0 when every file checked agrees, 1 when
# one does not, 2 on a usage error.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
horizon=$root/build/release/horizon
if [ "${1:-}" = "-b" ]; then
    [ $# -ge 2 ] || { echo "pgn_agreement: -b needs a Horizon binary" >&2; exit 2; }
    horizon=$2
    shift 2
fi
reader=pgn
if [ "${1:-}" = "-a" ]; then
    reader=analyze
    shift
fi
[ $# -ge 1 ] || { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2
    exit 2; }
[ -x "$horizon" ] || { echo "pgn_agreement: no Horizon binary at $horizon" >&2; exit 2; }
extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$extract" ] || { echo "pgn_agreement: pgn-extract is not installed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# The errors in a pgn-extract log: what is left without its warnings (a warning runs from
# "Warning:" to the "File ...: Line number: N" that places it) and blank lines.
log_errors() {
    awk '/^Warning:/ { warning = 1 }
         warning { if ($0 ~ /^File .*: Line number: [0-9]+$/) warning = 0; next }
         /^[[:space:]]*$/ { next }
         { print }' "$1"
}

# Whether a pgn-extract log (which it may not have written) holds an error; its first one.
has_errors() { [ -f "$1" ] && [ -n "$(log_errors "$1")" ]; }
first_error() { log_errors "$1" | grep -v '^File ' | head -n 1 | cut -c1-60; }

# The main lines of a PGN file as UCI moves, one line a game (an empty line for a game of
# no moves). Each game pgn-extract writes is a paragraph ending in its result, which goes.
main_lines() {
    rm -f "$work/lines.log"
    "$extract" -s -Wuci -C -V -N --notags --nomovenumbers --allownullmoves -w 1000000 \
        -l "$work/lines.log" "$1" 2>/dev/null |
        awk 'BEGIN { RS = ""; FS = "[ \n]+" }
             { line = ""
               for (i = 1; i <= NF; ++i) {
                   if ($i == "") continue
                   if (i == NF && ($i == "1-0" || $i == "0-1" || $i == "1/2-1/2" || $i == "*"))
                       continue
                   line = line (line == "" ? "" : " ") $i
               }
               print line }'
}

files=0 checked=0 skipped=0 disagreeing=0
total_extract=0 total_horizon=0 total_refused=0 total_differ=0
printf '%-60s %9s %9s %8s %8s\n' "file" "pgn-ext" "horizon" "refused" "differ"
for file in "$@"; do
    files=$((files + 1))
    name=$file
    [ ${#name} -le 60 ] || name="...${name: -57}"
    if [ ! -r "$file" ]; then
        printf '%-60s skipped: cannot be read\n' "$name"
        skipped=$((skipped + 1))
        continue
    fi
    # One snapshot read by both (a match may still be writing to the file).
    cp "$file" "$work/input.pgn"
    file=$work/input.pgn
    rm -f "$work/check.log"
    "$extract" -s -r --allownullmoves -l "$work/check.log" "$file" >/dev/null 2>&1 || true
    if has_errors "$work/check.log"; then
        printf '%-60s skipped: pgn-extract reports: %s\n' "$name" "$(first_error "$work/check.log")"
        skipped=$((skipped + 1))
        continue
    fi
    main_lines "$file" >"$work/extract.txt"
    status=0
    if [ "$reader" = pgn ]; then
        "$horizon" pgn --moves-only "$file" -o "$work/horizon.pgn" 2>"$work/horizon.err" ||
            status=$?
    else
        "$horizon" analyze --nodes 1 "$file" -o "$work/horizon.pgn" >/dev/null \
            2>"$work/horizon.err" || status=$?
    fi
    if [ "$status" -ge 2 ]; then
        printf '%-60s horizon %s failed: %s\n' "$name" "$reader" "$(tail -n 1 "$work/horizon.err")"
        disagreeing=$((disagreeing + 1))
        continue
    fi
    main_lines "$work/horizon.pgn" >"$work/horizon.txt"
    if has_errors "$work/lines.log"; then
        printf '%-60s pgn-extract cannot read what Horizon wrote: %s\n' "$name" \
            "$(first_error "$work/lines.log")"
        disagreeing=$((disagreeing + 1))
        continue
    fi
    n_extract=$(wc -l <"$work/extract.txt")
    n_whole=$(wc -l <"$work/horizon.txt")
    # "horizon pgn: 12 games, 1 with errors" or "horizon analyze: 11 games analysed, 1 left out"
    counts=$(sed -n -e 's/^horizon pgn: \([0-9]*\) games, \([0-9]*\) with.*/\1 \2/p' \
        -e 's/^horizon analyze: \([0-9]*\) games\{0,1\} analysed, \([0-9]*\) left out.*/\1 \2/p' \
        "$work/horizon.err" | tail -n 1)
    if [ "$reader" = analyze ] && [ -n "$counts" ]; then
        counts="$((${counts% *} + ${counts#* })) ${counts#* }"
    fi
    n_read=${counts% *} n_refused=${counts#* }
    n_read=${n_read:-0} n_refused=${n_refused:-0}
    differ=$(diff "$work/extract.txt" "$work/horizon.txt" | grep -c '^[<>]' || true)
    printf '%-60s %9d %9d %8d %8d\n' "$name" "$n_extract" "$n_read" "$n_refused" "$differ"
    warnings=$(grep -c '^Warning:' "$work/check.log" || true)
    if [ "$warnings" -gt 0 ]; then
        echo "    pgn-extract warns $warnings times (no error), first: $(grep -m 1 '^Warning:' \
            "$work/check.log" | cut -c1-70)"
    fi
    if [ "$n_extract" -ne "$n_read" ] || [ "$n_refused" -ne 0 ] || [ "$differ" -ne 0 ] ||
        [ "$n_whole" -ne $((n_read - n_refused)) ]; then
        disagreeing=$((disagreeing + 1))
        { grep -v '^horizon \(pgn\|analyze\): [0-9]* games' "$work/horizon.err" || true; } |
            head -n 3 |
            sed 's/^/    /'
        diff "$work/extract.txt" "$work/horizon.txt" | grep '^[<>]' | head -n 4 | cut -c1-96 |
            sed -e 's/^\([<>]\) *$/\1 (a game of no moves)/' -e 's/^/    /' || true
    fi
    checked=$((checked + 1))
    total_extract=$((total_extract + n_extract))
    total_horizon=$((total_horizon + n_read))
    total_refused=$((total_refused + n_refused))
    total_differ=$((total_differ + differ))
done
echo "total: $files files, $checked checked, $skipped skipped (pgn-extract reports errors or" \
    "unreadable); games: $total_extract by pgn-extract, $total_horizon by Horizon" \
    "($total_refused refused); main lines that differ: $total_differ; files that disagree:" \
    "$disagreeing"
[ "$disagreeing" -eq 0 ]
