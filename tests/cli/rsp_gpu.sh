#!/usr/bin/env bash
# Remote scope promotion in the GPU model (issue 15 item 2, l1.rsp = brsp on
# the scoped L1): litmus-rsp passes messages both ways between an owner CTA
# that synchronises at cta scope and a thief CTA on another SM that uses
# remote acquire/release atomics. With bRSP no word is stale in functional
# and lt, and the Flush/Invalidate messages are counted; with l1.rsp = none
# (remote atomics as plain device-scope ones: the negative control) both
# directions read stale words; each injected fault (no flush of the other
# L1s, no invalidation of them) makes the bRSP run fail.
#
# usage: bash tests/cli/rsp_gpu.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$2/platforms/titanv.json"
S=(--set l1.atomic_mode=scoped)
B=("${S[@]}" --set l1.rsp=brsp)

st() { stat_sum "$TMP/o/stats.json" "$1"; }

for mode in functional lt; do
  run_passes "rsp brsp $mode" -p "$P" -w litmus-rsp --timing $mode "${B[@]}"
  check "rsp brsp $mode: no stale word ($(st stale_acquire) + $(st stale_release))" \
    "$([[ $(st stale_acquire) == 0 && $(st stale_release) == 0 ]]; echo $?)"
  # Two L1s take part: every message goes to the one other L1 and is acked.
  f=$(st rsp_flush_msgs) i=$(st rsp_inv_msgs) fa=$(st rsp_flush_acks) ia=$(st rsp_inv_acks)
  check "rsp brsp $mode: messages counted (flush $f/$fa acked, inval $i/$ia acked)" \
    "$([[ $f -gt 0 && $i -gt 0 && $f == "$fa" && $i == "$ia" ]]; echo $?)"
  check "rsp brsp $mode: the owner's lines flushed ($(st rsp_lines_flushed))" \
    "$([[ $(st rsp_lines_flushed) -gt 0 ]]; echo $?)"

  run_passes "rsp none $mode (negative control: reported, not failed)" \
    -p "$P" -w litmus-rsp --timing $mode "${S[@]}"
  check "rsp none $mode: stale after remote acquires ($(st stale_acquire))" \
    "$([[ $(st stale_acquire) -gt 0 ]]; echo $?)"
  check "rsp none $mode: stale after remote releases ($(st stale_release))" \
    "$([[ $(st stale_release) -gt 0 ]]; echo $?)"
  check "rsp none $mode: no rsp stats ($(st rsp_flush_msgs))" \
    "$([[ $(st rsp_flush_msgs) == none ]]; echo $?)"
done

# Mutations: each must make the bRSP run fail, on the side it breaks.
for mode in functional lt; do
  for fault in skip_remote_flush:stale_acquire skip_remote_invalidate:stale_release; do
    "$T" run -p "$P" -w litmus-rsp --timing $mode "${B[@]}" --set l1.inject_fault=${fault%%:*} \
      --quiet --out "$TMP/o" >"$TMP/log" 2>&1
    rc=$?
    check "mutation ${fault%%:*} is caught in $mode (exit $rc, $(st ${fault#*:}) ${fault#*:})" \
      "$([[ $rc -eq 1 && $(st ${fault#*:}) -gt 0 ]]; echo $?)"
  done
done

# Same seed, same inputs: the same stats.
run_passes "rsp brsp lt again" -p "$P" -w litmus-rsp --timing lt "${B[@]}"
cp "$TMP/o/stats.json" "$TMP/a.json"
run_passes "rsp brsp lt once more" -p "$P" -w litmus-rsp --timing lt "${B[@]}"
check "rsp brsp lt: identical stats" "$(cmp -s "$TMP/a.json" "$TMP/o/stats.json"; echo $?)"

# A workload with no remote atomic is unchanged by l1.rsp = brsp.
run_passes "litmus-mp with brsp lt" -p "$P" -w litmus-mp --timing lt "${B[@]}"

expect_error "rsp needs scoped" 2 "l1.rsp" "scoped" -- \
  run -p "$P" -w litmus-rsp --set l1.rsp=brsp
expect_error "rsp not in at" 2 "l1.rsp" "lt" -- \
  run -p "$P" -w litmus-rsp --timing at "${B[@]}"

finish rsp_gpu
