#!/usr/bin/env bash
# The shipped sweep specs (examples/*.json) stay valid: every platform x
# config loads, every workload and argument name exists, every input file is
# found (`tlmgpu sweep --dry-run` checks all of that before running anything).
#
# usage: bash tests/cli/example_specs.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
status=0
for spec in "$SRC"/examples/*.json; do
  if "$T" sweep "$spec" --dry-run --out "$TMP/out" >"$TMP/log" 2>&1; then
    echo "ok: $(basename "$spec"): $(tail -1 "$TMP/log")"
  else
    echo "FAIL: $(basename "$spec")"
    cat "$TMP/log"
    status=1
  fi
done
exit $status
