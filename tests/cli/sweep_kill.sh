#!/usr/bin/env bash
# A sweep killed at random moments (seeded; SIGKILL mostly, also TERM, INT,
# HUP), resumed each time, ends with results byte-identical to an
# uninterrupted run's: a kill loses at most the points in flight, a run
# orphaned by kill -9 is waited for (its point's lock), and nothing half
# written is ever trusted. A passed point's stats.json damaged in between is
# found by its manifest and run again.
#
# usage: bash tests/cli/sweep_kill.sh <path-to-tlmgpu> <source-dir> [kills] [seed]
set -u
T=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
TMP=$(mktemp -d)
source "$2/tests/cli/lib/checks.sh"
# Runs orphaned by kill -9 end on their own within a second; wait for them
# rather than remove the directory under them.
cleanup() {
  for _ in $(seq 100); do pgrep -f -- "--out $TMP/" >/dev/null || break; sleep 0.1; done
  rm -rf "$TMP"
}
trap cleanup EXIT
KILLS=${3:-30}
RANDOM=${4:-19}

# The points run in lt on 256 Ki pixels (the sweep takes about 1.4 s) so
# that most kills, at a random moment within 0.35 s of the start, land on a
# running sweep: a functional 4 Ki-pixel sweep ends in 0.25 s on an idle
# machine and too few kills landed.
cat >"$TMP/spec.json" <<'JSON'
{"name": "kill", "timing": "lt", "platforms": ["tiny"], "keep_stats": true,
 "configs": {"B": {}, "L": {"lab.entries": 8}}, "seeds": [1, 2, 3],
 "workloads": [{"label": "H", "workload": "histogram", "args": {"n": 262144}},
               {"label": "R", "workload": "histogram", "args": {"n": 262144, "racy": 1}}]}
JSON
"$T" sweep "$TMP/spec.json" --out "$TMP/ref" -j 2 >/dev/null 2>&1
[[ -f $TMP/ref/results.json ]] || { echo "FAIL: the reference sweep wrote no results"; exit 1; }

OUT=$TMP/out
signals=(KILL KILL KILL TERM INT HUP)
kills=0 fresh=0 died=""
for ((i = 0; i < KILLS; ++i)); do
  if "$T" sweep --status "$OUT" 2>/dev/null | grep -q ' 0 running, 0 pending'; then # finished: start over
    rm -rf "$OUT"
    fresh=$((fresh + 1))
  fi
  "$T" sweep "$TMP/spec.json" --out "$OUT" -j 2 >"$TMP/last" 2>>"$TMP/log" &
  pid=$!
  # A signal can be handled from the moment tlmgpu installed its handlers
  # (SigCgt has SIGTERM), not while the shell still execs it; then a random
  # moment: checking the spec, starting runs, merging, ending.
  for _ in $(seq 200); do
    caught=$(awk '/^SigCgt/ {print $2}' "/proc/$pid/status" 2>/dev/null) || break
    [[ -n $caught ]] && (((16#$caught >> 14) & 1)) && break
    sleep 0.005
  done
  sleep "0.$(printf '%03d' $((RANDOM % 350)))"
  sig=${signals[RANDOM % ${#signals[@]}]}
  kill -"$sig" $pid 2>/dev/null && kills=$((kills + 1))
  wait $pid 2>/dev/null
  rc=$?
  # Any other signal, at any moment, is a clean stop (exit 1), never death.
  [[ $sig == KILL || $rc -lt 128 ]] || died+=" $sig:$rc"
  # Now and then a passed point's stats are damaged while nobody runs.
  if ((RANDOM % 4 == 0)); then
    f=$(find "$OUT/points" -name stats.json -not -path "*/.tmp-*" 2>/dev/null | head -n 1)
    [[ -n $f ]] && printf 'x' >>"$f"
  fi
done
"$T" sweep "$TMP/spec.json" --out "$OUT" -j 2 >"$TMP/last" 2>>"$TMP/log"
echo "    $kills kills, $fresh fresh starts, $(grep -c 'runs in another process; waiting' "$TMP/log") waits for a run orphaned by kill -9"
[[ $kills -ge 20 ]]
check "at least 20 kills landed ($kills)" $?
[[ -z $died ]]
check "TERM, INT and HUP always stop the sweep cleanly (killed instead:$died)" $?
cmp -s "$TMP/ref/results.json" "$OUT/results.json" && cmp -s "$TMP/ref/results.csv" "$OUT/results.csv"
check "the resumed sweep's results equal the uninterrupted run's" $?
"$T" sweep --status "$OUT" >"$TMP/st" 2>&1
grep -q '12 points: 6 done, 6 failed, 0 running, 0 pending' "$TMP/st"
check "every point is accounted for ($(head -n 1 "$TMP/st"))" $?
[[ -z $(find "$OUT" -name '*.tmp*') ]]
check "no temporary file is trusted or left in the results" $?

finish sweep_kill
