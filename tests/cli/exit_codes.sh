#!/usr/bin/env bash
# One exit-code table (docs/config.md, "Exit codes"): usage, configuration,
# input and output errors 2, a failed run 1. The same class of error gets
# the same code whichever workload reads the input: a malformed digits file
# was 1 for logreg and 2 for histogram; a graph input error is 2.
#
# usage: bash tests/cli/exit_codes.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"

printf 'a,b\n1,2\n' >"$TMP/bad.csv"
for w in logreg histogram; do
  expect_error "malformed digits input ($w)" 2 "workload argument input: $TMP/bad.csv:1" -- \
    run -p tiny -w "$w" --input "digits:$TMP/bad.csv" --out "$TMP/o"
  expect_error "missing digits input ($w)" 2 "workload argument input" "$TMP/none.csv" -- \
    run -p tiny -w "$w" --input "digits:$TMP/none.csv" --out "$TMP/o"
done
printf '%%%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 x\n' >"$TMP/bad.mtx"
expect_error "malformed graph input" 2 "workload argument input" "$TMP/bad.mtx" -- \
  run -p tiny -w bfs --input "$TMP/bad.mtx" --out "$TMP/o"
expect_error "usage error" 2 "'--bogus'" -- run --bogus
"$T" run -p tiny -w histogram --arg n=16384 --arg racy=1 --quiet --out "$TMP/racy" >/dev/null \
  2>&1
rc=$?
[[ $rc -eq 1 ]]
check "a failed check exits 1 (got $rc)" $?

finish exit_codes
