#!/usr/bin/env bash
# LT honours the L1's MSHR capacity (issue 11, "LT that can be trusted"): a
# miss that finds every l1.mshr_entries entry holding a fill in flight waits
# for the first to come back, as AT's head request stalls. Swept down to one
# entry, `stream` is MSHR-bound; before this LT ignored the bound (4,968
# cycles at any size against AT's 44,480 with one entry). LT must stay within
# 10 % of AT at 1 and 8 entries, count stall_mshr cycles, and give exactly
# the default run's cycles when the bound is never reached.
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

for e in 1 8; do
  lt=$(cycles lt --set l1.mshr_entries=$e)
  stalls=$(stat_sum "$TMP/o/stats.json" stall_mshr)
  at=$(cycles at --set l1.mshr_entries=$e)
  echo "l1.mshr_entries=$e: lt $lt, at $at cycles; lt stall_mshr $stalls"
  within_pct "$lt" "$at" 10
  check "$e MSHR entries: lt ($lt) within 10 % of at ($at)" $?
  check "$e MSHR entries: lt counts stall_mshr cycles ($stalls)" "$([ "${stalls%.*}" -gt 0 ]; echo $?)"
done
# The default (256 entries) is never full on stream: the bound changes nothing.
big=$(cycles lt --set l1.mshr_entries=65536)
def=$(cycles lt)
check "an unreachable bound gives the default's cycles ($big = $def)" "$([ "$big" = "$def" ]; echo $?)"
finish lt_mshr
