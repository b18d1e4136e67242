#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, clang + ASan + UBSan) into
# build-fuzz and runs each for SECONDS (default 600) on a seed corpus made
# from ../shared/data, tests/data and examples. Crashes are saved as
# fuzz/out/<harness>/crash-*; copy each into tests/data/fuzz/<harness>/ so
# that the normal suite replays it (tests/cli/fuzz_regressions.sh).
#   usage: scripts/fuzz.sh [seconds-per-harness] [harness...]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
[ $# -gt 0 ] && shift
harnesses=(mtx edge_list metis dimacs tntp gml platform sweep_spec results)
[ $# -gt 0 ] && harnesses=("$@")

# libFuzzer ships in Debian's libclang-rt-14-dev (clang's runtime libraries).
TLMGPU_EXTRA_PKGS="clang-14 libclang-rt-14-dev" bash scripts/install-deps.sh
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DTLMGPU_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${harnesses[@]/#/fuzz_}"

data=../shared/data
out=fuzz/out
seed() { # seed <harness> <files...>: the first 4 KiB of each file
  local h=$1 f
  shift
  mkdir -p "$out/$h/corpus"
  for f in "$@"; do
    [ -f "$f" ] && head -c 4096 "$f" >"$out/$h/corpus/seed-$(basename "$f")"
  done
  return 0
}
seed mtx "$data/karate.mtx" fuzz/seeds/*.mtx
seed edge_list "$data/as20graph.txt" fuzz/seeds/*.txt
seed metis "$data/adjnoun.graph"
seed dimacs fuzz/seeds/*.gr
seed tntp "$data/Anaheim_net.tntp"
seed gml "$data/lesmis.gml"
seed platform platforms/*.json examples/dab/*.json examples/topology/*.json tests/data/config/*.json
seed sweep_spec examples/*.json tests/cli/config-matrix.json
seed results fuzz/seeds/results*.json

for h in "${harnesses[@]}"; do
  mkdir -p "$out/$h/corpus"
  echo "== fuzz_$h: ${secs}s"
  # Crashes land in $out/$h; the log's last "#N DONE cov: C ft: F" line is
  # the run's executions and coverage (edges, features).
  (cd "$out/$h" && "../../../build-fuzz/fuzz/fuzz_$h" corpus -max_total_time="$secs" \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 -max_len=65536 \
    -print_final_stats=1 2>log.txt) || echo "fuzz_$h: stopped on a finding (see $out/$h)"
  grep -E "^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units" "$out/$h/log.txt" | tail -2 || true
done
