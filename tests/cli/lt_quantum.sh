#!/usr/bin/env bash
# LT cycles do not depend on the quantum (issue 11 item 7): with contention
# syncs (sim.lt_busy_quantum, 50 cycles, and sim.lt_busy_requests, 2, by
# default) histogram-shared, whose bins'
# reds saturate the L2 atomic units while other SMs still load pixels, takes
# the same cycles within 5 % for quanta 100 to 10,000 and stays within 5 % of
# AT. The same runs with the syncs off (0) must spread by more, or this test
# would not notice them break.
#
# usage: bash tests/cli/lt_quantum.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/cli/lib/checks.sh"
P="$SRC/platforms/titanv.json"
W=(-w histogram-shared --arg grid=640)

cycles() { # timing, extra arguments: the run's metrics.cycles
  local mode=$1
  shift
  "$T" run -p "$P" "${W[@]}" --timing "$mode" --quiet --out "$TMP/o" "$@" >"$TMP/log" 2>&1 ||
    { head -c 400 "$TMP/log"; echo 0; return; }
  python3 -c "import json; print(int(json.load(open('$TMP/o/stats.json'))['metrics']['cycles']))"
}

at=$(cycles at)
for busy in 50 0; do
  vals=()
  for q in 100 1000 10000; do
    vals+=("$(cycles lt --set sim.quantum_cycles=$q --set sim.lt_busy_quantum=$busy \
      --set sim.lt_busy_requests=$((busy ? 2 : 0)))")
  done
  s=$(spread_pct "${vals[@]}")
  echo "lt_busy_quantum=$busy: cycles ${vals[*]} for quanta 100 1000 10000 (spread $s %), at $at"
  if [[ $busy -gt 0 ]]; then
    [[ $s -lt 5 ]]
    check "syncs on: lt within 5 % across quanta (spread $s %)" $?
    worst=$(spread_pct "$at" "${vals[@]}")
    [[ $worst -lt 5 ]]
    check "syncs on: lt within 5 % of at ($worst %)" $?
  else
    [[ $s -ge 10 ]]
    check "syncs off: the quantum moves lt by 10 % or more ($s %): the test can see the syncs" $?
  fi
done

# A run that syncs reports it; one with the syncs off never does.
"$T" run -p "$P" "${W[@]}" --timing lt --quiet --out "$TMP/on" >/dev/null 2>&1
n=$(stat_sum "$TMP/on/stats.json" lt_contention_syncs)
[[ $n != none && $n -gt 0 ]]
check "syncs on: lt_contention_syncs counted ($n)" $?
"$T" run -p "$P" "${W[@]}" --timing lt --set sim.lt_busy_quantum=0 --set sim.lt_busy_requests=0 \
  --quiet --out "$TMP/off" \
  >/dev/null 2>&1
[[ $(stat_sum "$TMP/off/stats.json" lt_contention_syncs) == 0 ]]
check "syncs off: no lt_contention_syncs" $?

finish lt_quantum
