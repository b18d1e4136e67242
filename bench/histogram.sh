#!/usr/bin/env bash
# Histogram (LAB Listing 1, 1 Mi pixels) on titanv in each timing mode: CPU
# seconds, warp instructions and core cycles per CPU second, peak RSS.
# Not a test: numbers go to docs/performance.md. A thin front of bench/bench.py.
# usage: bench/histogram.sh [--repeat N] (TLMGPU_BIN: another build's binary)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${TLMGPU_BIN:-build/tlmgpu}
[ -x "$bin" ] || bash scripts/build.sh >/dev/null
exec python3 bench/bench.py --bin "$bin" --cases hist "$@"
