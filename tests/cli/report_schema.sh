#!/usr/bin/env bash
# `report` checks the shape of results.json before it touches it: a missing
# key or a wrong type is one line naming the file and the JSON path, exit 2,
# never an abort from a library assertion or a raw type_error; nesting
# 100,000 levels deep (a stack overflow) is refused while parsing.
#
# usage: bash tests/cli/report_schema.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"

GOOD='{"name": "t", "timing": "lt", "baseline": "B", "platforms": ["tiny"],
 "configs": [{"label": "B", "set": {}, "timing": ""}],
 "workloads": [{"label": "H", "workload": "histogram", "args": {}, "inputs": [""]}],
 "seeds": [1], "topologies": {}, "metrics": ["cycles"],
 "points": [{"platform": "tiny", "config": "B", "workload": "H", "input": "", "seed": 1,
   "point": "tiny/B/H/s1", "status": "passed", "exit_code": 0, "check": "passed",
   "metrics": {"cycles": 10}}]}'

# results DIR SED-SCRIPT: GOOD edited, with a manifest that matches.
results() {
  mkdir -p "$TMP/$1"
  sed "$2" <<<"$GOOD" >"$TMP/$1/results.json"
  write_manifest "$TMP/$1" results.json
}

results good ''
"$T" report "$TMP/good" >/dev/null 2>"$TMP/err"
check "a well-formed results.json gives a report (exit $?: $(cat "$TMP/err"))" $?

results keys 's/"timing": "lt", //'
expect_error "a missing top-level key" 2 "$TMP/keys/results.json: missing key 'timing'" -- \
  report "$TMP/keys"
results point 's/"status": "passed", //'
expect_error "a missing key in a point" 2 "results.json: points[0]: missing key 'status'" -- \
  report "$TMP/point"
results seed 's/"seed": 1,/"seed": "x",/'
expect_error "a wrong type" 2 'results.json: points[0].seed: expected an unsigned integer, got "x"' \
  -- report "$TMP/seed"
results metric 's/"cycles": 10/"cycles": "10"/'
expect_error "a metric that is not a number" 2 "points[0].metrics.cycles: expected a number" -- \
  report "$TMP/metric"
results shape 's/"configs": \[/"configs": {"x": [/; s/"timing": ""}\],/"timing": ""}]},/'
expect_error "an object for an array" 2 "results.json: configs: expected an array" -- \
  report "$TMP/shape"
results top '1!d; s/.*/[1]/' # the first line only, replaced
expect_error "not an object" 2 "results.json: expected an object" -- report "$TMP/top"

# Deep: with a manifest that matches, so that the parser is reached.
mkdir "$TMP/deep"
{ printf '{"points": [], "configs": [], "timing": '; nested 100000 '[' '' ']'; printf '}'; } \
  >"$TMP/deep/results.json"
write_manifest "$TMP/deep" results.json
expect_error "results.json nested 100,000 levels deep" 2 \
  "$TMP/deep/results.json: JSON nested deeper than 256 levels" -- report "$TMP/deep"

finish report_schema
