#!/usr/bin/env bash
# LT honours the L1's MSHR capacity (issue 11, "LT that can be trusted"): a
# miss that finds every l1.mshr_entries entry holding a fill in flight waits
# for the first to come back, as AT's head request stalls. Swept down to one
# entry, `stream` is MSHR-bound; before this LT ignored the bound (4,968
# cycles at any size against AT's 44,480 with one entry). LT must stay within
# 10 % of AT at 1 and 8 entries, count stall_mshr cycles, and give exactly
# the default run's cycles when the bound is never reached.
#
# The same for the L2's l2.mshr_entries: a slice is called by every SM out of
# time order, so each fill books an entry over [issue, ready) in time and a
# miss that finds every entry booked at its time waits for the first to end.
# Before this LT ignored it too (stream: 4,968 cycles against AT's 31,369
# with one entry per slice).
#
# usage: bash tests/cli/lt_mshr.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/cli/lib/checks.sh"
P="$SRC/platforms/titanv.json"

cycles() { # timing, extra arguments: the run's metrics.cycles
  local mode=$1
  shift
  "$T" run -p "$P" -w stream --timing "$mode" --quiet --out "$TMP/o" "$@" >"$TMP/log" 2>&1 ||
    { head -c 400 "$TMP/log" >&2; echo 0; return; }
  python3 -c "import json; print(int(json.load(open('$TMP/o/stats.json'))['metrics']['cycles']))"
}
within_pct() { # a b pct: |a - b| <= pct % of b
  python3 -c "import sys; a,b,p=map(float,sys.argv[1:]); sys.exit(0 if b>0 and abs(a-b)<=p*b/100 else 1)" "$@"
}

# level stall entries...: sweep <level>.mshr_entries; lt must stay within 10 %
# of at and count its stall cycles.
sweep() {
  local level=$1 stall=$2 e lt at stalls
  shift 2
  for e in "$@"; do
    lt=$(cycles lt --set "$level.mshr_entries=$e")
    stalls=$(stat_sum "$TMP/o/stats.json" "$stall")
    at=$(cycles at --set "$level.mshr_entries=$e")
    echo "$level.mshr_entries=$e: lt $lt, at $at cycles; lt $stall $stalls"
    within_pct "$lt" "$at" 10
    check "$level, $e MSHR entries: lt ($lt) within 10 % of at ($at)" $?
    check "$level, $e MSHR entries: lt counts $stall cycles ($stalls)" \
      "$([ "${stalls%.*}" -gt 0 ]; echo $?)"
  done
}
sweep l1 stall_mshr 1 8
sweep l2 stall_mshr_full 1 4
# The defaults (256 L1, 192 L2 entries) are never full on stream: the bounds
# change nothing.
def=$(cycles lt)
for level in l1 l2; do
  big=$(cycles lt --set "$level.mshr_entries=65536")
  check "an unreachable $level bound gives the default's cycles ($big = $def)" \
    "$([ "$big" = "$def" ]; echo $?)"
done
finish lt_mshr
