#!/usr/bin/env bash
# Fathom, the Syzygy tablebase probing library (MIT), as source: Debian's source package
# `fathom`, unpacked into .deps/fathom/ (not committed). The build compiles it as a static
# library (cmake/fathom.cmake), the same for the native, sanitizer, portable and Windows builds.
# Adds a deb-src entry for Debian's main archive when apt has none. Runs apt-get as root, or
# through sudo when not root. Does nothing when the source is already there.
set -euo pipefail
cd "$(dirname "$0")/../.."
dest=.deps/fathom
[ -f "$dest/src/tbprobe.c" ] && [ -f "$dest/src/tbprobe.h" ] && exit 0
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
if ! apt-get source --download-only --print-uris fathom > /dev/null 2>&1; then
    echo "fathom_source: adding a deb-src entry for Debian's main archive"
    suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" "Suites: $suite" \
        "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
        "${as_root[@]}" tee /etc/apt/sources.list.d/horizon-deb-src.sources > /dev/null
    "${as_root[@]}" apt-get update -qq
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# apt checks the package's signed checksums; the unpacking is a plain tar of its .orig.
(cd "$work" && apt-get source --download-only -qq fathom > /dev/null 2>&1) ||
    { echo "fathom_source: apt-get source fathom failed" >&2; exit 1; }
orig=$(ls "$work"/fathom_*.orig.tar.* 2>/dev/null | head -1)
[ -n "$orig" ] || { echo "fathom_source: no .orig tarball in the source package" >&2; exit 1; }
mkdir -p "$work/x"
tar -xf "$orig" -C "$work/x"
top=$(find "$work/x" -mindepth 1 -maxdepth 1 -type d | head -1)
[ -f "$top/src/tbprobe.c" ] || { echo "fathom_source: no src/tbprobe.c in $orig" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
cp -r "$top" "$dest"
echo "fathom_source: $(basename "$orig") unpacked into $dest"
