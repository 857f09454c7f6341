#!/usr/bin/env bash
# Brings back a data file that left the tip of the repository: the kept games and positions of
# tuning/games, the fastchess and SPSA state files, the weights of fits not adopted. Each is
# listed in tuning/manifest.tsv with the commit that holds it and its SHA-256; this writes it
# to its path from that commit and checks the checksum.
#
#   scripts/train/restore_data.sh PATH...     restore these (paths as the manifest lists them)
#   scripts/train/restore_data.sh --all       every file that is not in the tip
#   scripts/train/restore_data.sh --list      the manifest's files, and whether each is here
#
# Needs the history: a clone made with --depth 1 has none (git fetch --unshallow first); a
# partial clone (--filter=blob:limit=1m) fetches each file's blob when it is restored.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
manifest=$root/tuning/manifest.tsv
[ $# -gt 0 ] || { sed -n '8,10p' "$0" | sed 's/^# //'; exit 2; }

sha_of() { sha256sum "$1" | awk '{ print $1 }'; }
# path sha256 bytes commit in_tip what regenerate
rows() { tail -n +2 "$manifest"; }

if [ "$1" = --list ]; then
  rows | while IFS=$'\t' read -r path sha bytes commit in_tip what _; do
    state=missing
    if [ -f "$root/$path" ]; then
      [ "$(sha_of "$root/$path")" = "$sha" ] && state=here || state="here, changed"
    fi
    printf '%-78s %10s  %-13s %s\n' "$path" "$bytes" "$state" "${commit:0:10}"
  done
  exit 0
fi

wanted=()
if [ "$1" = --all ]; then
  while IFS=$'\t' read -r path _ _ _ in_tip _; do
    [ "$in_tip" = yes ] || wanted+=("$path")
  done < <(rows)
else
  wanted=("$@")
fi

failed=0
for want in "${wanted[@]}"; do
  want=${want#./}
  row=$(rows | awk -F'\t' -v p="$want" '$1 == p' | head -1)
  if [ -z "$row" ]; then
    echo "restore_data: $want: not in tuning/manifest.tsv" >&2
    failed=1
    continue
  fi
  IFS=$'\t' read -r path sha _ commit _ <<< "$row"
  if [ -f "$root/$path" ] && [ "$(sha_of "$root/$path")" = "$sha" ]; then
    echo "here: $path"
    continue
  fi
  if ! git -C "$root" cat-file -e "$commit:$path" 2> /dev/null; then
    echo "restore_data: $path: commit ${commit:0:10} is not in this clone's history" \
      "(git fetch --unshallow)" >&2
    failed=1
    continue
  fi
  mkdir -p "$(dirname "$root/$path")"
  git -C "$root" show "$commit:$path" > "$root/$path.part"
  if [ "$(sha_of "$root/$path.part")" = "$sha" ]; then
    mv "$root/$path.part" "$root/$path"
    echo "restored: $path (from ${commit:0:10})"
  else
    rm -f "$root/$path.part"
    echo "restore_data: $path: the copy in ${commit:0:10} has another SHA-256" >&2
    failed=1
  fi
done
exit $failed
