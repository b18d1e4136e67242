#!/usr/bin/env bash
# The main job: build, then run the LAB paper's histogram (Listing 1, 1 Mi
# pixels, 256 bins) on the Titan V platform in approximately-timed mode. It
# prints per-kernel cycles, IPC, atomics and traffic and whether the result
# matched the CPU reference; stats.json and histogram.txt land in out/histogram.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/tlmgpu run -p platforms/titanv.json -w histogram --timing at --out out/histogram
