#!/usr/bin/env bash
# The functional floor (issue 13, sim.functional_memory): in functional mode a
# plain device performs global accesses straight on the memory image. It must
# give the same bytes as the whole hierarchy, float atomics included (same
# lane and issue order), send no line request, and step aside, or refuse
# when asked for explicitly, where a block or stage would answer differently.
#
# usage: bash tests/cli/functional_memory.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/cli/lib/checks.sh"
fail=0
G="gen:rmat?scale=8&ef=8&seed=1"

run() { # name workload memory [args...]
  local name=$1 w=$2 mem=$3
  shift 3
  "$T" run -p "$SRC/platforms/tiny.json" -w "$w" --timing functional \
    --set sim.functional_memory="$mem" --out "$TMP/$name" --quiet "$@"
}

for case in "histogram:histogram.txt:--arg n=4096" "pagerank:pagerank.txt:--arg input=$G" \
  "bc:bc.txt:--arg input=gen:rmat?scale=7&ef=8&seed=1" "cca:cca.txt:--arg input=$G" \
  "bwc:bwc.txt:--arg N=1 --arg H=8 --arg W=8"; do
  IFS=: read -r w file args <<<"$case"
  # shellcheck disable=SC2086
  if ! run "$w-direct" "$w" direct $args || ! run "$w-hier" "$w" hierarchy $args; then
    echo "FAIL: $w did not pass its check with both functional memories"
    fail=1
    continue
  fi
  if ! cmp -s "$TMP/$w-direct/$file" "$TMP/$w-hier/$file"; then
    echo "FAIL: $w: direct and hierarchy results differ ($file)"
    fail=1
  fi
  d=$(stat_sum "$TMP/$w-direct/stats.json" direct_instructions)
  r=$(stat_sum "$TMP/$w-direct/stats.json" global_requests)
  wi_d=$(stat_sum "$TMP/$w-direct/stats.json" warp_instructions)
  wi_h=$(stat_sum "$TMP/$w-hier/stats.json" warp_instructions)
  h=$(stat_sum "$TMP/$w-hier/stats.json" direct_instructions)
  if [[ $d == none || $d -eq 0 || $r -ne 0 || $h != none || $wi_d -ne $wi_h ]]; then
    echo "FAIL: $w: direct_instructions $d (hierarchy: $h), requests $r, warp instructions $wi_d vs $wi_h"
    fail=1
  else
    echo "ok: $w direct = hierarchy ($d direct instructions, $wi_d warp instructions)"
  fi
done

# auto takes the hierarchy when the SM's path has a stage that changes answers.
if run auto-lab histogram auto --arg n=4096 --set lab.entries=64; then
  d=$(stat_sum "$TMP/auto-lab/stats.json" direct_instructions)
  r=$(stat_sum "$TMP/auto-lab/stats.json" global_requests)
  if [[ $d != none || $r -eq 0 ]]; then
    echo "FAIL: auto with a LAB stage went direct ($d direct instructions, $r requests)"
    fail=1
  else echo "ok: auto with a LAB stage takes the hierarchy"; fi
else
  echo "FAIL: histogram with a LAB (auto) did not pass"
  fail=1
fi

# Asked for explicitly where it cannot hold: one clear error naming the key.
for extra in "--set lab.entries=64" "--set l1.atomic_mode=phi"; do
  # shellcheck disable=SC2086
  msg=$(run refused histogram direct --arg n=4096 $extra 2>&1)
  rc=$?
  if [[ $rc -eq 0 || $msg != *"sim.functional_memory = direct"* ]]; then
    echo "FAIL: direct with $extra: rc $rc, message: $msg"
    fail=1
  else echo "ok: direct with $extra refused: $(echo "$msg" | tail -1)"; fi
done
exit $fail
