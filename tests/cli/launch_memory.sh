#!/usr/bin/env bash
# Memory does not grow with kernel launches (issue 13): per-kernel sections
# keep flat metrics, whole stats trees are streamed (--kernel-stats full).
# PageRank on karate with 1,000 rounds (2,000 launches) must peak below twice
# the RSS of 5 rounds (10 launches), in both stats levels, and kernels.jsonl
# must hold one line per launch.
#
# usage: bash tests/cli/launch_memory.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
SRC=$2
G=$SRC/../shared/data/karate.mtx
[[ -f $G ]] || { echo "FAIL: $G not found"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

rss() { # rounds, kernel-stats level -> peak RSS in MiB (host.json)
  local out=$TMP/$1-$2
  "$T" run -p "$SRC/platforms/tiny.json" -w pagerank --input "$G" --arg iterations="$1" \
    --arg max_iters="$1" --timing functional --kernel-stats "$2" --out "$out" --quiet ||
    { echo "FAIL: pagerank with $1 rounds ($2) did not pass" >&2; echo 0; return; }
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['peak_rss_mib'])" "$out/host.json"
}

for level in metrics full; do
  small=$(rss 5 $level)
  big=$(rss 1000 $level)
  echo "$level: 10 launches $small MiB, 2000 launches $big MiB"
  if ! python3 -c "import sys; s, b = map(float, sys.argv[1:]); sys.exit(0 if 0 < b < 2 * s else 1)" \
    "$small" "$big"; then
    echo "FAIL: $level: 2000 launches peak at $big MiB, not below twice $small MiB"
    fail=1
  fi
done
lines=$(wc -l <"$TMP/1000-full/kernels.jsonl")
if [[ $lines -ne 2000 ]]; then
  echo "FAIL: kernels.jsonl has $lines lines, expected 2000"
  fail=1
fi
exit $fail
