#!/usr/bin/env bash
# The scoped L1 (l1.atomic_mode = scoped) in the GPU model, issue 15 item 1:
# litmus-mp synchronised at device scope on both sides never reads a stale
# word, in functional, lt and at; under-synchronised (a CTA-scope release or
# acquire) it does, and says how many; each injected protocol fault (a
# release that does not drain the sFIFO, an acquire that does not
# invalidate) makes the device-scope run fail; existing workloads still pass
# their CPU checks with the policy.
#
# usage: bash tests/cli/scoped_gpu.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$2/platforms/titanv.json"
D="$2/../shared/data"
S=(--set l1.atomic_mode=scoped)

stale() { stat_sum "$TMP/o/stats.json" stale_reads; }

for mode in functional lt at; do
  run_passes "mp device/device $mode" -p "$P" -w litmus-mp --timing $mode "${S[@]}"
  check "mp device/device $mode: no stale word ($(stale))" "$([[ $(stale) == 0 ]]; echo $?)"
  drains=$(stat_sum "$TMP/o/stats.json" sfifo_lines_flushed)
  inval=$(stat_sum "$TMP/o/stats.json" scoped_lines_invalidated)
  check "mp $mode: releases flushed lines ($drains), acquires invalidated ($inval)" \
    "$([[ $drains -gt 0 && $inval -gt 0 ]]; echo $?)"
  for side in release acquire; do
    run_passes "mp $side=cta $mode (under-synchronised: reported, not failed)" \
      -p "$P" -w litmus-mp --timing $mode "${S[@]}" --arg $side=cta
    check "mp $side=cta $mode: stale words seen ($(stale))" "$([[ $(stale) -gt 0 ]]; echo $?)"
  done
done

# Warps of the reader's CTA missing on the data lines while it acquires.
run_passes "mp device/device at with 3 pollers" -p "$P" -w litmus-mp --timing at "${S[@]}" \
  --arg pollers=3 --arg rounds=32
check "mp at with pollers: no stale word ($(stale))" "$([[ $(stale) == 0 ]]; echo $?)"

# Mutations: the device-scope test must catch each.
for fault in skip_release_drain skip_acquire_invalidate; do
  for mode in lt at; do
    "$T" run -p "$P" -w litmus-mp --timing $mode "${S[@]}" --set l1.inject_fault=$fault \
      --quiet --out "$TMP/o" >"$TMP/log" 2>&1
    rc=$?
    check "mutation $fault is caught in $mode (exit $rc, $(stale) stale)" \
      "$([[ $rc -eq 1 && $(stale) -gt 0 ]]; echo $?)"
  done
done

# Every workload keeps its CPU check with the policy (lt; at for histogram).
run_passes "histogram lt" -p "$P" -w histogram --timing lt "${S[@]}"
run_passes "histogram at" -p "$P" -w histogram --timing at --arg n=65536 "${S[@]}"
run_passes "stream lt" -p "$P" -w stream --timing lt --arg n=65536 "${S[@]}"
if [[ -f "$D/karate.mtx" ]]; then
  for w in pagerank bfs sssp; do
    run_passes "$w karate lt" -p "$P" -w $w --input "$D/karate.mtx" --timing lt "${S[@]}"
  done
fi

expect_error "bad fault" 2 "l1.inject_fault" "skip_release_drain" -- \
  run -p "$P" -w litmus-mp --set l1.inject_fault=nope
expect_error "bad scope" 2 "release" "cta" -- run -p "$P" -w litmus-mp --arg release=sys

finish scoped_gpu
