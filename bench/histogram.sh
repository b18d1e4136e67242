#!/usr/bin/env bash
# Histogram (LAB Listing 1, 1 Mi pixels) on titanv in each timing mode:
# simulated warp instructions and core cycles per host second, peak RSS.
# Not a test: numbers go to docs/performance.md. Usage: bench/histogram.sh [n]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1048576}
bin=${TLMGPU_BIN:-build/tlmgpu} # TLMGPU_BIN: another build dir's binary
[ -x "$bin" ] || bash scripts/build.sh >/dev/null
out=bench/out
mkdir -p $out
printf "%-11s %9s %12s %12s %14s %14s %8s\n" mode host_s warp_instr cycles "winst/host_s" "cycles/host_s" rss_MiB
for mode in functional lt at; do
  "$bin" run -p platforms/titanv.json -w histogram --timing $mode --arg n=$n \
    --out $out/hist-$mode --quiet
  python3 bench/report.py kernel "$out/hist-$mode" "$mode"
done
