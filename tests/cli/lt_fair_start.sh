#!/usr/bin/env bash
# LT shares a kernel's opening burst fairly (issue 11 item 7, docs/timing.md
# "Contention syncs"). At a kernel's start every SM issues its first loads at
# cycle 0; SystemC runs SM 79 first, and with only the 50-cycle contention
# sync it booked some 50 line requests on the saturated DRAM before SM 78
# booked one, and so on down: on histogram-shared (n = 1 Mi, titanv-paper)
# SMs 64-79 ended about 14 % earlier than SMs 0-15, where AT has them level.
# sim.lt_busy_requests (2 by default) makes an SM that waited sync after that
# many requests, so the burst is taken in turns. Checked here:
# - the SMs' active cycles do not fall with their index (0-15 against 64-79
#   within 5 %), and do with sim.lt_busy_requests=0 (10 % or more): the test
#   sees the rule break;
# - ANBF (the LAB whose kernel-end flush is free) runs exactly as LAB-64 until
#   its kernel end, as in AT: its flush packets leave at the SM's own time,
#   not at the quantum's start where they took slots of SMs still running
#   (with lt_busy_requests 2 and 8 ANBF's slowest SM took 8,576 and 8,649
#   cycles against LAB-64's 8,309 and 8,330 before);
# - ANBF's cycles normalised to Baseline are within 5 % of AT's.
#
# usage: bash tests/cli/lt_fair_start.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
SRC=$2
source "$SRC/tests/cli/lib/checks.sh"
make_tmp
W=(-p titanv-paper -w histogram-shared --arg n=1048576)
LAB=(--set lab.entries=64)
ANBF=(--set lab.entries=64 --set lab.variant=no_flush_cost)

run() { # out-name timing args...: runs, or shows the log's start
  local out=$1 mode=$2
  shift 2
  "$T" run "${W[@]}" --timing "$mode" --quiet --out "$TMP/$out" "$@" >"$TMP/log" 2>&1 ||
    head -c 400 "$TMP/log"
}

# Prints: cycles, mean active cycles of SMs 0-15, of SMs 64-79, and the
# active cycles of every SM (space-separated) of run directory $1.
summary() {
  python3 - "$TMP/$1/stats.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
g = d["total"]["gpu"]
a = [int(g[f"sm_{i}"]["active_cycles"]["value"]) for i in range(80)]
print(int(d["metrics"]["cycles"]), sum(a[:16]) // 16, sum(a[64:]) // 16, *a)
PY
}

gap_pct() { # |a - b| / max(a, b) in whole percent
  python3 -c "import sys; a, b = map(float, sys.argv[1:]); print(round(abs(a - b) / max(a, b) * 100))" "$1" "$2"
}

run base lt
read -r base_lt first last _ <<<"$(summary base)"
g=$(gap_pct "$first" "$last")
echo "lt Baseline: $base_lt cycles; SMs 0-15 active $first, SMs 64-79 $last ($g %)"
[[ $g -lt 5 ]]
check "SMs 0-15 and 64-79 end level in lt ($g %)" $?

run off lt --set sim.lt_busy_requests=0
read -r _ first last _ <<<"$(summary off)"
g=$(gap_pct "$first" "$last")
echo "lt Baseline, lt_busy_requests=0: SMs 0-15 active $first, SMs 64-79 $last ($g %)"
[[ $g -ge 10 ]]
check "without the request budget SM 79's head start shows ($g %): the test sees the rule" $?

for r in 2 4 8; do
  run lab$r lt "${LAB[@]}" --set sim.lt_busy_requests=$r
  run anbf$r lt "${ANBF[@]}" --set sim.lt_busy_requests=$r
  read -r _ _ _ lab_sms <<<"$(summary lab$r)"
  read -r anbf_cycles _ _ anbf_sms <<<"$(summary anbf$r)"
  [[ $r -eq 2 ]] && anbf_lt=$anbf_cycles # the default
  [[ "$lab_sms" == "$anbf_sms" ]]
  check "lt_busy_requests=$r: ANBF's SMs run as LAB-64's until the kernel end" $?
done

run base_at at
run anbf_at at "${ANBF[@]}"
read -r base_at _ <<<"$(summary base_at)"
read -r anbf_at _ <<<"$(summary anbf_at)"
e=$(python3 -c "print(round(abs(($anbf_lt / $base_lt) / ($anbf_at / $base_at) - 1) * 100, 1))")
echo "ANBF / Baseline: lt $anbf_lt / $base_lt, at $anbf_at / $base_at: $e % apart"
python3 -c "import sys; sys.exit(0 if $e < 5 else 1)"
check "ANBF normalised to Baseline within 5 % of at ($e %)" $?

finish lt_fair_start
