#!/usr/bin/env bash
# scripts/lt_at_table.py keeps one row per point: a sweep over two
# platforms (or two seeds) of one config, workload and input gives two
# rows, not the last platform's twice; two rows with one name stop it; a
# sweep without the baseline config still prints its table.
#
# usage: bash tests/cli/lt_at_table.sh <path-to-tlmgpu> <source-dir>
set -u
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
S="$2/scripts/lt_at_table.py"

# csv FILE CYCLES-A8 CYCLES-A64 [SEED-OF-SECOND]
csv() {
  {
    echo "platform,config,workload,input,seed,status,cycles"
    echo "/p/apu8.json,B,W,gen:x,1,passed,$2"
    echo "/p/apu64.json,B,W,gen:x,${4:-1},passed,$3"
  } >"$1"
}
csv "$TMP/at.csv" 100 200
csv "$TMP/lt.csv" 110 180
python3 "$S" "$TMP/at.csv" "$TMP/lt.csv" --baseline B >"$TMP/out" 2>&1
check "two platforms: exit 0" $?
grep -q '^| B | 2 | 0.100 | 1.100 |' "$TMP/out"
check "two platforms: two points, mean 10 %, worst +10 %" $?
grep -q '| B | W | apu64 gen:x | 200 | 180 | 0.900 |' "$TMP/out"
check "two platforms: the apu64 row is its own" $?

python3 "$S" "$TMP/at.csv" "$TMP/lt.csv" >"$TMP/out" 2>&1
check "no baseline config: exit 0" $?
grep -q 'no point to normalise' "$TMP/out"
check "no baseline config: said" $?

{
  echo "platform,config,workload,input,seed,status,cycles"
  echo "/p/apu8.json,B,W,gen:x,1,passed,100"
  echo "/p/apu8.json,B,W,gen:x,1,passed,120"
} >"$TMP/dup.csv"
python3 "$S" "$TMP/dup.csv" "$TMP/lt.csv" --baseline B >"$TMP/out" 2>&1
[[ $? -ne 0 ]] && grep -q 'two points named B/W/gen:x' "$TMP/out"
check "two rows with one name: refused" $?

finish lt_at_table
