#!/usr/bin/env bash
# Random traffic on Titan V in each timing mode: transactions (generator
# requests) per host second and peak RSS. Not a test: numbers go to
# docs/performance.md. Usage: bench/throughput.sh [requests-per-generator]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000}
bin=${TLMGPU_BIN:-build/tlmgpu} # TLMGPU_BIN: another build dir's binary
[ -x "$bin" ] || bash scripts/build.sh >/dev/null
out=bench/out
mkdir -p $out
printf "%-11s %10s %9s %14s %9s\n" mode requests host_s "txn/host_s" rss_MiB
for mode in functional lt at; do
  "$bin" run -p platforms/titanv.json -w random-traffic --timing $mode \
    --arg requests=$n --out $out/$mode --quiet
  python3 bench/report.py traffic "$out/$mode" "$mode"
done
