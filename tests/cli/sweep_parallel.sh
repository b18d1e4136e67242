#!/usr/bin/env bash
# `tlmgpu sweep --backend parallel` hands the points to GNU parallel (also
# through --sshloginfile, here with the local host ":"); its merged results
# must equal the local backend's byte for byte. Skips (77) without GNU
# parallel.
#
# usage: bash tests/cli/sweep_parallel.sh <path-to-tlmgpu> <source-dir>
set -u
T=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
source "$2/tests/cli/lib/sweep_spec.sh"
command -v parallel >/dev/null || { echo "SKIP: GNU parallel is not installed (scripts/install-deps.sh)"; exit 77; }

"$T" sweep "$TMP/spec.json" --out "$TMP/local" >/dev/null 2>&1
check "the local sweep exits 1 (the racy points fail)" $(($? == 1 ? 0 : 1))

"$T" sweep "$TMP/spec.json" --out "$TMP/par" --backend parallel -j 2 >/dev/null 2>"$TMP/e1"
check "the parallel sweep exits 1 like the local one" $(($? == 1 ? 0 : 1))
cmp -s "$TMP/local/results.json" "$TMP/par/results.json" &&
  cmp -s "$TMP/local/results.csv" "$TMP/par/results.csv"
check "merged results equal the local backend's" $?
[[ $(wc -l <"$TMP/par/parallel.joblog") -eq 5 ]]
check "GNU parallel ran the 4 points (its joblog)" $?

echo "2/:" >"$TMP/hosts"
"$T" sweep "$TMP/spec.json" --out "$TMP/ssh" --backend parallel --sshloginfile "$TMP/hosts" \
  >/dev/null 2>"$TMP/e2"
check "the parallel sweep through --sshloginfile exits 1" $(($? == 1 ? 0 : 1))
cmp -s "$TMP/local/results.json" "$TMP/ssh/results.json"
check "--sshloginfile: the same results" $?

"$T" sweep "$TMP/spec.json" --out "$TMP/par" --backend parallel -j 2 >/dev/null 2>"$TMP/e3"
grep -q '2 done earlier, 2 to run' "$TMP/e3"
check "a rerun hands GNU parallel only the points that did not pass" $?

"$T" sweep --status "$TMP/par" >"$TMP/st" 2>&1
grep -q '4 points: 2 done, 2 failed, 0 running, 0 pending' "$TMP/st"
check "--status counts the parallel sweep's points ($(head -n 1 "$TMP/st"))" $?

finish sweep_parallel
