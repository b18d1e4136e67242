#!/usr/bin/env bash
# `tlmgpu sweep --backend slurm` against a real Slurm: a private munged,
# slurmctld and slurmd for this host (tests/cli/lib/slurm.sh). The sweep is
# job arrays (split at MaxArraySize) plus a dependent merge job; its merged
# results must equal the local backend's byte for byte; a resubmission (-j 1:
# one task at a time) submits only the points that did not pass, and failed
# points keep their logs. Skips (77) with the reason when the daemons cannot
# run here.
#
# usage: bash tests/cli/sweep_slurm.sh <path-to-tlmgpu> <source-dir>
set -u
T=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
TMP=$(mktemp -d)
source "$2/tests/cli/lib/checks.sh"
source "$2/tests/cli/lib/slurm.sh"
source "$2/tests/cli/lib/sweep_spec.sh"
trap 'stop_slurm; rm -rf "$TMP"' EXIT

"$T" sweep "$TMP/spec.json" --out "$TMP/local" >/dev/null 2>&1
check "the local sweep exits 1 (the racy points fail)" $(($? == 1 ? 0 : 1))

start_slurm >"$TMP/why"
rc=$?
if [[ $rc -ne 0 ]]; then
  cat "$TMP/why"
  [[ $rc -eq 77 ]] && exit 77
  exit 1
fi

OUT=$TMP/slurm-out
"$T" sweep "$TMP/spec.json" --out "$OUT" --backend slurm --time 5 --mem 100M --wait \
  >"$TMP/o1" 2>"$TMP/e1"
check "the slurm sweep exits 1 like the local one (exit $?)" $(($? == 1 ? 0 : 1))
grep -q '4 submitted to Slurm as job arrays [0-9]*, [0-9]*;' "$TMP/e1"
check "4 points above MaxArraySize 3: two job arrays" $?
cmp -s "$TMP/local/results.json" "$OUT/results.json" && cmp -s "$TMP/local/results.csv" "$OUT/results.csv"
check "merged results equal the local backend's" $?
ls "$OUT"/slurm/merge-*.out >/dev/null 2>&1 && [[ $(ls "$OUT"/slurm/*_*.out | wc -l) -eq 4 ]]
check "every array task and the merge job left a log" $?

"$T" sweep --status "$OUT" >"$TMP/st" 2>&1
grep -q '4 points: 2 done, 2 failed, 0 running, 0 pending' "$TMP/st" &&
  grep -q '^failed: tiny/B/R/s1 (failed, exit 1)' "$TMP/st"
check "--status: done, failed, with the failed points' error ($(head -n 1 "$TMP/st"))" $?

touch -d '2001-01-01' "$OUT"/points/tiny/*/*/s1/point.json
"$T" sweep "$TMP/spec.json" --out "$OUT" --backend slurm -j 1 --wait >/dev/null 2>"$TMP/e2"
grep -q '2 done earlier, 2 submitted to Slurm as job array [0-9]*;' "$TMP/e2"
check "a resubmission submits only the points that did not pass, as one array" $?
[[ $(find "$OUT/points" -name point.json -newer "$TMP/spec.json" | wc -l) -eq 2 ]]
check "the passed points were not run again" $?
[[ -f $OUT/points/tiny/B/R/s1/stderr.txt && -f $OUT/points/tiny/B/R/s1/stats.json && $(ls "$OUT"/slurm/*_*.out | wc -l) -eq 6 ]]
check "a failed point keeps its stderr and stats" $?
cmp -s "$TMP/local/results.json" "$OUT/results.json"
check "the resubmission's results still equal the local ones" $?
[[ -z $(squeue -h 2>/dev/null) ]]
check "no job is left in the queue" $?

finish sweep_slurm
