#!/usr/bin/env bash
# Runs a Windows program under Wine, quietly, in a Wine prefix of its own under build/
# (made on first use; that first start takes a while):
#
#   scripts/wine.sh dist/horizon-<version>-windows-x86-64-v2.exe bench
#
# WINEPREFIX and WINEDEBUG may be set to override the defaults. Standard input and output pass
# through unchanged (Horizon's UCI lines end in LF, as on Linux), so a match runner can use this
# script as the engine command.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export WINEPREFIX=${WINEPREFIX:-$root/build/wine}
export WINEDEBUG=${WINEDEBUG:--all}
# No window system here: keep Wine from asking for one, and from offering to install Mono/Gecko.
export DISPLAY=
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
wine=$(command -v wine || command -v wine64 || echo /usr/lib/wine/wine64)
[ -x "$wine" ] || { echo "wine.sh: Wine not found (scripts/deps.sh installs it)" >&2; exit 127; }
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  mkdir -p "$WINEPREFIX"
  "$wine" wineboot --init > /dev/null 2>&1 || true
  wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
  "$wineserver" -w 2>/dev/null || true
fi
exec "$wine" "$@"
