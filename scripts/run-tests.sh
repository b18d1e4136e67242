#!/usr/bin/env bash
# Builds and runs every test (unit, system, CLI) through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest -j"$(nproc)" --output-on-failure
