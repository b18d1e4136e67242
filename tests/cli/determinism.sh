#!/usr/bin/env bash
# Same platform, workload, inputs and seed => bit-identical stats.json, in
# every timing mode; a different seed => different stats (the seed is used).
# Usage: determinism.sh <tlmgpu> <source-dir>
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for mode in functional lt at; do
  for run in a b; do
    "$bin" run -p "$src/platforms/tiny.json" -w random-traffic --timing $mode --seed 11 \
      --out "$tmp/$mode-$run" --quiet || { echo "FAIL: $mode run $run exited non-zero"; fail=$((fail+1)); }
  done
  if cmp -s "$tmp/$mode-a/stats.json" "$tmp/$mode-b/stats.json"; then pass=$((pass+1))
  else echo "FAIL: $mode: stats.json differs between identical runs"; fail=$((fail+1)); fi
  "$bin" run -p "$src/platforms/tiny.json" -w random-traffic --timing $mode --seed 12 \
    --out "$tmp/$mode-c" --quiet
  if cmp -s "$tmp/$mode-a/stats.json" "$tmp/$mode-c/stats.json"; then
    echo "FAIL: $mode: a different seed gave identical stats"; fail=$((fail+1))
  else pass=$((pass+1)); fi
done
# A real program (SM, coroutines, schedulers, atomics) as well.
for mode in functional lt at; do
  for run in a b; do
    "$bin" run -p "$src/platforms/tiny.json" -w histogram-shared --timing $mode --arg n=20000 \
      --out "$tmp/h-$mode-$run" --quiet || { echo "FAIL: histogram $mode run $run"; fail=$((fail+1)); }
  done
  if cmp -s "$tmp/h-$mode-a/stats.json" "$tmp/h-$mode-b/stats.json"; then pass=$((pass+1))
  else echo "FAIL: histogram $mode: stats.json differs between identical runs"; fail=$((fail+1)); fi
done
echo "determinism: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
