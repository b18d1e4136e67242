#!/usr/bin/env bash
# docs/config-reference.md must be what scripts/gen-config-reference.sh makes
# from the binary under test: a parameter declaration changed without
# regenerating the reference fails here.
# Usage: config_reference.sh <tlmgpu> <source-dir>
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

if bash "$src/scripts/gen-config-reference.sh" "$bin" "$tmp/config-reference.md"; then
  pass=$((pass+1))
else
  echo "FAIL: scripts/gen-config-reference.sh exited non-zero"; fail=$((fail+1))
fi

if [ ! -f "$src/docs/config-reference.md" ]; then
  echo "FAIL: docs/config-reference.md is missing: run scripts/gen-config-reference.sh"; fail=$((fail+1))
elif [ -f "$tmp/config-reference.md" ] && cmp -s "$tmp/config-reference.md" "$src/docs/config-reference.md"; then
  pass=$((pass+1))
else
  echo "FAIL: docs/config-reference.md is stale: run scripts/gen-config-reference.sh"
  [ -f "$tmp/config-reference.md" ] && diff -u "$src/docs/config-reference.md" "$tmp/config-reference.md" | head -40
  fail=$((fail+1))
fi

echo "config_reference: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
