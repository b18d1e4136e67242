#!/usr/bin/env bash
# The main job: build, then run the default workload on the Titan V platform
# in approximately-timed mode and print the checked result. Outputs go to ./out.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/tlmgpu run -p platforms/titanv.json -w latency --timing at --out out/latency
./build/tlmgpu run -p platforms/titanv.json -w random-traffic --timing at --out out/random-traffic
