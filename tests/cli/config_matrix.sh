#!/usr/bin/env bash
# Issue 5: "every workload gives the CPU-reference answer under every
# configuration". Runs the LAB paper's 16 configs (Baseline, cache sizes,
# LAB-8..Inf, serialization-only, ANBF, paper-compatible, hLRC, PHI) x the
# ten LAB-paper workloads on tiny inputs as a sweep: lt on tiny and titanv,
# then at on tiny. Every point must pass its CPU check (the sweep exits 1
# otherwise). The configs must stay those of examples/lab-paper.json; this
# script checks that too.
#
# usage: bash tests/cli/config_matrix.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
SRC=$2
DATA=$(cd "$SRC/../shared/data" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
spec=$SRC/tests/cli/config-matrix.json

# Same configs as the shipped paper matrix (the "configs" object, verbatim).
configs_of() { sed -n '/"configs": {/,/^  },/p' "$1"; }
if ! diff <(configs_of "$spec") <(configs_of "$SRC/examples/lab-paper.json") >"$TMP/diff"; then
  echo "FAIL: tests/cli/config-matrix.json configs differ from examples/lab-paper.json:"
  cat "$TMP/diff"
  exit 1
fi

status=0
run() { # name, spec text filter
  sed "s|@DATA@|$DATA|g; $2" "$spec" >"$TMP/$1.json"
  if "$T" sweep "$TMP/$1.json" -j 2 --timeout-s 300 --out "$TMP/$1" >"$TMP/$1.log" 2>&1; then
    echo "ok: $1: $(tail -1 "$TMP/$1.log")"
  else
    echo "FAIL: $1"
    grep -v " passed " "$TMP/$1.log"
    status=1
  fi
}
run lt ''
run at 's|"timing": "lt"|"timing": "at"|; s|"platforms": \["tiny", "titanv"\]|"platforms": ["tiny"]|'
exit $status
