#!/usr/bin/env bash
# A bounded LD/ST queue (sm.lsu_queue, issue 13 item 4): at 0 (the default)
# the SM is the model before it, stats byte-identical to a run without the
# key; bounded, a global memory instruction waits while the queue is full
# (stall_lsu_queue counts it), results stay right, and lt ignores it.
#
# usage: bash tests/cli/lsu_queue.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/cli/lib/checks.sh"
P="$SRC/platforms/tiny.json"

same() { # two stats.json files equal but for the version
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for s in (a, b):
    s.pop("tlmgpu_version", None)
sys.exit(0 if a == b else 1)
PY
}
run() { # out-dir, extra arguments
  local o=$1
  shift
  "$T" run -p "$P" -w histogram --arg n=8192 --quiet --out "$TMP/$o" "$@" >"$TMP/$o.log" 2>&1
}

run plain --timing at
run zero --timing at --set sm.lsu_queue=0
same "$TMP/plain/stats.json" "$TMP/zero/stats.json"
check "at, lsu_queue=0: stats identical to no key" $?
[ "$(stat_sum "$TMP/zero/stats.json" stall_lsu_queue)" = none ]
check "at, lsu_queue=0: no stall_lsu_queue counter" $?

run one --timing at --set sm.lsu_queue=1
check "at, lsu_queue=1: run and check pass" $?
n=$(stat_sum "$TMP/one/stats.json" stall_lsu_queue)
[ "$n" != none ] && [ "$n" -gt 0 ]
check "at, lsu_queue=1: stall_lsu_queue counts ($n cycles)" $?
ra=$(stat_sum "$TMP/plain/stats.json" global_requests)
rb=$(stat_sum "$TMP/one/stats.json" global_requests)
[ "$ra" = "$rb" ]
check "at, lsu_queue=1: same line requests ($ra, $rb)" $?

run lt0 --timing lt
run lt1 --timing lt --set sm.lsu_queue=1
a=$(python3 -c "import json,sys;print(json.load(open(sys.argv[1]))['metrics']['cycles'])" "$TMP/lt0/stats.json")
b=$(python3 -c "import json,sys;print(json.load(open(sys.argv[1]))['metrics']['cycles'])" "$TMP/lt1/stats.json")
[ "$a" = "$b" ]
check "lt ignores sm.lsu_queue (cycles $a, $b)" $?

finish lsu_queue
