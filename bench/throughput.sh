#!/usr/bin/env bash
# Random traffic on titanv (80 generators x 5000 checked requests) in each
# timing mode: CPU seconds, requests per CPU second, peak RSS. Not a test:
# numbers go to docs/performance.md. A thin front of bench/bench.py.
# usage: bench/throughput.sh [--repeat N] (TLMGPU_BIN: another build's binary)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${TLMGPU_BIN:-build/tlmgpu}
[ -x "$bin" ] || bash scripts/build.sh >/dev/null
exec python3 bench/bench.py --bin "$bin" --cases traffic "$@"
