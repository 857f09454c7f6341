#!/usr/bin/env bash
# Runs a Windows program under Wine, quietly, in a Wine prefix of its own under build/
# (made on first use; that first start takes a while):
#
#   scripts/ci/wine.sh dist/horizon-<version>-windows-x86-64-v2.exe bench
#
# WINEPREFIX and WINEDEBUG may be set to override the defaults. Standard input and output pass
# through unchanged (Horizon's UCI lines end in LF, as on Linux), so a match runner can use this
# script as the engine command.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
own_prefix=${WINEPREFIX:+no}
export WINEPREFIX=${WINEPREFIX:-$root/build/wine}
export WINEDEBUG=${WINEDEBUG:--all}
# No window system here: keep Wine from asking for one, and from offering to install Mono/Gecko.
export DISPLAY=
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
wine=$(command -v wine || command -v wine64 || echo /usr/lib/wine/wine64)
[ -x "$wine" ] || { echo "wine.sh: Wine not found (scripts/deps.sh installs it)" >&2; exit 127; }
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
# A prefix is ready once its system DLLs are in place. A first start that stopped half-way
# leaves the registry without them (Wine then cannot load kernel32.dll): such a prefix is
# made again, up to three times (only the prefix of our own under build/ is ever removed).
ready() { [ -f "$WINEPREFIX/drive_c/windows/system32/kernel32.dll" ]; }
for attempt in 1 2 3; do
  ready && break
  if [ "$attempt" != 1 ]; then
    [ "$own_prefix" != no ] || break
    "$wineserver" -k 2>/dev/null || true
    rm -rf "$WINEPREFIX"
  fi
  mkdir -p "$WINEPREFIX"
  "$wine" wineboot --init > /dev/null 2>&1 || true
  "$wineserver" -w 2>/dev/null || true
done
ready || { echo "wine.sh: could not make a Wine prefix in $WINEPREFIX" >&2; exit 1; }
exec "$wine" "$@"
