#!/usr/bin/env bash
# Input nested 100,000 levels deep crashed every JSON reader (a stack
# overflow in the recursive copy, merge and print) and the GML graph reader
# (recursive skipping of unknown keys); now each rejects it while parsing,
# past 256 levels (docs/config.md, "JSON inputs"), with one line naming the
# file, exit 2. (results.json for `report`: tests/cli/report_schema.sh.)
#
# usage: bash tests/cli/deep_input.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
N=100000
LIMIT="JSON nested deeper than 256 levels"

{ printf '{"sm": '; nested $N '[' '' ']'; printf '}'; } >"$TMP/arrays.json"
nested $N '{"a": ' '1' '}' >"$TMP/objects.json"
expect_error "platform file, nested arrays" 2 "$TMP/arrays.json: $LIMIT" -- \
  config -p "$TMP/arrays.json"
expect_error "platform file, nested objects" 2 "$TMP/objects.json: $LIMIT" -- \
  run -p "$TMP/objects.json" -w histogram --out "$TMP/o"
{ printf '{"node": {"gpus": '; nested $N '[' '' ']'; printf '}}'; } >"$TMP/node.json"
expect_error "node file" 2 "$TMP/node.json: $LIMIT" -- config -p "$TMP/node.json"
# 60,000 levels: one argument is at most 128 KiB.
expect_error "--set value (taken as a string)" 2 "l2.ways: expected an unsigned integer" -- \
  config -p tiny --set "l2.ways=$(nested 60000 '[' '' ']')"

{ printf '{"platforms": ["tiny"], "configs": {"B": {}}, "seeds": '; nested $N '[' '1' ']'
  printf ', "workloads": [{"label": "H", "workload": "histogram"}]}'; } >"$TMP/spec.json"
expect_error "sweep spec" 2 "$TMP/spec.json: $LIMIT" -- \
  sweep "$TMP/spec.json" --out "$TMP/s" --dry-run

# At the limit a document is still read (the error is then about the key).
{ printf '{"sm": '; nested 255 '[' '' ']'; printf '}'; } >"$TMP/ok.json"
expect_error "256 levels are read" 2 "sm: expected an object" -- config -p "$TMP/ok.json"

{ printf 'graph [\n'; nested $N 'x [ ' '' ' ]'; printf '\nnode [ id 1 ]\n]\n'; } >"$TMP/deep.gml"
expect_error "GML graph input" 2 "$TMP/deep.gml:2: lists nested deeper than 256 levels" -- \
  run -p tiny -w bfs --input "$TMP/deep.gml" --out "$TMP/o"

finish deep_input
