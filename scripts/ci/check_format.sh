#!/usr/bin/env bash
# The house style, checked: every C++ file under src/, tests/ and fuzz/ as .clang-format wants
# it (Debian's clang-format), and every line of the scripts and build files within the
# project's width of 100 columns.
#   scripts/ci/check_format.sh          check; lists what is off and exits 1
#   scripts/ci/check_format.sh --fix    rewrite the C++ files in place (the width of the other
#                                    files is left to the hand)
set -euo pipefail
cd "$(dirname "$0")/../.."
WIDTH=100
fix=0
[ "${1:-}" = "--fix" ] && fix=1
command -v clang-format > /dev/null || { echo "check_format: clang-format is missing" >&2; exit 2; }

mapfile -t cpp < <(git ls-files -co --exclude-standard -- 'src/*.cpp' 'src/*.hpp' 'src/*.def' \
    'tests/*.cpp' 'tests/*.hpp' 'fuzz/*.cpp' 'fuzz/*.hpp' | grep -v '^tests/data/' || true)
mapfile -t other < <(git ls-files -co --exclude-standard -- 'scripts/*' 'cmake/*' \
    'tests/scripts/*' CMakeLists.txt Makefile .ci/run || true)

if [ "$fix" -eq 1 ]; then
    clang-format -i "${cpp[@]}"
    echo "check_format: ${#cpp[@]} C++ files formatted"
    exit 0
fi

bad=0
for f in "${cpp[@]}"; do
    [ -f "$f" ] || continue
    if ! clang-format --dry-run --Werror "$f" > /dev/null 2>&1; then
        echo "check_format: $f is not as .clang-format wants it (scripts/ci/check_format.sh --fix)"
        bad=1
    fi
done
for f in "${other[@]}"; do
    [ -f "$f" ] || continue
    awk -v w="$WIDTH" -v f="$f" '
        length > w { printf "check_format: %s:%d is %d columns (at most %d)\n", f, FNR, length, w
                     found = 1 }
        END { exit found }' "$f" || bad=1
done
if [ "$bad" -eq 0 ]; then
    echo "check_format: ${#cpp[@]} C++ files and ${#other[@]} other files in the house style"
fi
exit "$bad"
