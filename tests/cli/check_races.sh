#!/usr/bin/env bash
# `tlmgpu run --check-races` (models/race; issue 15 item 5): heterogeneous
# races in the HRF sense. litmus-mp without its deliberate priming race is
# clean when release and acquire are at device scope and reported (exit 1,
# races.txt naming the kernel, the word and both sides) when either is at
# CTA scope; the remote-scope-promoted litmus kernels and the work-stealing
# workloads under every scenario are clean; at is refused; without the flag
# nothing changes.
#
# usage: bash tests/cli/check_races.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$2/platforms/titanv.json"
S=(--set l1.atomic_mode=scoped)

races() { python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('races'))" "$TMP/o/stats.json"; }

for mode in functional lt; do
  run_passes "litmus-mp device/device $mode" -p "$P" -w litmus-mp --arg prime=0 --timing $mode \
    "${S[@]}" --check-races
  check "litmus-mp device/device $mode: no race ($(races))" "$([[ $(races) == 0 ]]; echo $?)"
  check "litmus-mp device/device $mode: races.txt empty" "$([[ ! -s $TMP/o/races.txt ]]; echo $?)"
  for side in release acquire; do
    "$T" run -p "$P" -w litmus-mp --arg prime=0 --arg $side=cta --timing $mode "${S[@]}" \
      --check-races --out "$TMP/o" >"$TMP/log" 2>&1
    rc=$?
    check "litmus-mp $side=cta $mode: the check fails (exit $rc)" "$([[ $rc == 1 ]]; echo $?)"
    # 8 rounds of 32 data words and 8 flags.
    check "litmus-mp $side=cta $mode: 264 racing words ($(races))" "$([[ $(races) == 264 ]]; echo $?)"
    grep -q "kernel 'litmus_mp', word 0x[0-9a-f]*: store by warp 0 (CTA 0) lane 0, then load by warp 1 (CTA 1) lane 0" \
      "$TMP/o/races.txt"
    check "litmus-mp $side=cta $mode: races.txt names both sides of a data word" $?
    grep -q "FAILED: 264 racing words (--check-races)" "$TMP/log"
    check "litmus-mp $side=cta $mode: the summary says why" $?
  done
done
# The priming loads race with the writer by design.
"$T" run -p "$P" -w litmus-mp --timing lt "${S[@]}" --check-races --quiet --out "$TMP/o" >/dev/null 2>&1
check "litmus-mp with its priming loads: reported ($(races))" "$([[ $(races) -gt 0 ]]; echo $?)"

for w in litmus-rsp litmus-lock; do
  run_passes "$w brsp lt" -p "$P" -w $w --timing lt "${S[@]}" --set l1.rsp=brsp --check-races
  check "$w brsp: no race ($(races))" "$([[ $(races) == 0 ]]; echo $?)"
done

A="$2/platforms/apu8.json"
for w in ws-pagerank ws-sssp; do
  for sc in baseline steal-only scope-only rsp; do
    run_passes "$w $sc" -p "$A" -w $w --input 'gen:ba?n=2048&k=4' --arg block=64 --arg scenario=$sc \
      "${S[@]}" --set l1.rsp=brsp --check-races
    check "$w $sc: no race ($(races))" "$([[ $(races) == 0 ]]; echo $?)"
  done
done

run_passes "no --check-races: no report" -p "$P" -w litmus-mp --arg release=cta "${S[@]}"
check "no --check-races: no races key, no races.txt" \
  "$([[ $(races) == None && ! -e $TMP/o/races.txt ]]; echo $?)"
expect_error "--check-races in at" 2 "--check-races" "functional or lt" -- \
  run -p "$P" -w litmus-mp --timing at --check-races

finish check_races
