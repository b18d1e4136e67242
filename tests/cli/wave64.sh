#!/usr/bin/env bash
# 64-wide wavefronts and 64 B lines (issue 15 item 3): workloads written for
# 32-lane warps compute the same results on a small apu platform (apu8 cut to
# two CUs) in every timing mode, each passing its CPU check; the mechanisms
# that need 32 lanes (DAB, the IRU) refuse a 64-wide platform with one clear
# error, and a warp width other than 32 or 64 is refused. LAB, phi and hLRC
# run on 64 B lines.
#
# usage: bash tests/cli/wave64.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$2/platforms/apu8.json"
SMALL=(--set sm.count=2)
G='input=gen:rmat?scale=7&ef=8&seed=1'

for mode in functional lt at; do
  run_passes "histogram $mode" -p "$P" "${SMALL[@]}" -w histogram --arg n=8192 --timing $mode
  run_passes "histogram-shared $mode" -p "$P" "${SMALL[@]}" -w histogram-shared --arg n=8192 \
    --timing $mode
  for w in pagerank bfs sssp clr; do
    run_passes "$w $mode" -p "$P" "${SMALL[@]}" -w $w --arg "$G" --timing $mode
  done
done
# The atomic mechanisms that take any lane count: LAB (its lines are the
# L1's 64 B lines), phi and hLRC.
for extra in lab.entries=64 l1.atomic_mode=phi l1.atomic_mode=hlrc; do
  run_passes "histogram, $extra, at" -p "$P" "${SMALL[@]}" --set $extra -w histogram \
    --arg n=8192 --timing at
done
# A block that is not a whole number of wavefronts leaves the last one partial.
run_passes "histogram, block of 96 threads" -p "$P" "${SMALL[@]}" -w histogram --arg n=5000 \
  --arg block=96 --timing lt
# The same kernel on 32-wide warps of the same platform gives the same answer.
run_passes "histogram, apu8 with 32-wide warps" -p "$P" "${SMALL[@]}" --set sm.warp_size=32 \
  -w histogram --arg n=8192 --timing lt

expect_error "warp size 48 is refused" 2 "sm.warp_size" "32 (warps) or 64 (wavefronts)" -- \
  run -p "$P" --set sm.warp_size=48 -w histogram --quiet --out "$TMP/e1"
expect_error "DAB refuses 64-wide wavefronts" 2 "dab.level" "sm.warp_size = 32" -- \
  run -p "$P" --set dab.level=warp --set sm.cta_placement=deterministic -w histogram --quiet \
  --out "$TMP/e2"
expect_error "the IRU refuses 64-wide wavefronts" 2 "version: iru" "32-lane warps" -- \
  run -p "$2/examples/iru/gtx980-iru.json" --set sm.warp_size=64 -w bfs-frontier \
  --arg version=iru --quiet --out "$TMP/e3"

finish wave64
