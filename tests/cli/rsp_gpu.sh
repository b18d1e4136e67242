#!/usr/bin/env bash
# Remote scope promotion in the GPU model (issue 15 item 2, l1.rsp = brsp on
# the scoped L1): litmus-rsp passes messages both ways between an owner CTA
# that synchronises at cta scope and a thief CTA on another SM that uses
# remote acquire/release atomics. With bRSP no word is stale in functional,
# lt and at, and the Flush/Invalidate messages are counted; with l1.rsp = none
# (remote atomics as plain device-scope ones: the negative control) both
# directions read stale words; each injected fault (no flush of the other
# L1s, no invalidation of them) makes the bRSP run fail. litmus-lock (the
# asymmetric lock counter) likewise loses no increment with bRSP, loses some
# with none, and catches both faults.
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


for mode in functional lt at; do
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

# AT: warps of the owner's CTA missing on B's data lines while remote
# releases invalidate its L1; 32 rounds overflow the owner's sFIFO too.
for mode in lt at; do
  run_passes "rsp brsp $mode with 3 pollers" -p "$P" -w litmus-rsp --timing $mode "${B[@]}" \
    --arg pollers=3 --arg rounds=32
  check "rsp brsp $mode with pollers: no stale word ($(st stale_acquire) + $(st stale_release))" \
    "$([[ $(st stale_acquire) == 0 && $(st stale_release) == 0 ]]; echo $?)"
done
check "rsp brsp at: the lock held other L1s back ($(st rsp_stall_lock) cycles)" \
  "$([[ $(st rsp_stall_lock) -gt 0 ]]; echo $?)"

# Mutations: each must make the bRSP run fail, on the side it breaks.
for mode in functional lt at; do
  for fault in skip_remote_flush:stale_acquire skip_remote_invalidate:stale_release; do
    "$T" run -p "$P" -w litmus-rsp --timing $mode "${B[@]}" --set l1.inject_fault=${fault%%:*} \
      --quiet --out "$TMP/o" >"$TMP/log" 2>&1
    rc=$?
    check "mutation ${fault%%:*} is caught in $mode (exit $rc, $(st ${fault#*:}) ${fault#*:})" \
      "$([[ $rc -eq 1 && $(st ${fault#*:}) -gt 0 ]]; echo $?)"
  done
done

# The asymmetric lock counter: an owner at cta scope, 3 thieves with remote
# CAS/exchange, 32 counters incremented under the lock.
L=(-w litmus-lock --arg thieves=3 --arg iters=6)
for mode in functional lt at; do
  run_passes "lock brsp $mode" -p "$P" "${L[@]}" --timing $mode "${B[@]}"
  check "lock brsp $mode: no increment lost ($(st lost_increments))" \
    "$([[ $(st lost_increments) == 0 ]]; echo $?)"
  run_passes "lock none $mode (negative control)" -p "$P" "${L[@]}" --timing $mode "${S[@]}"
  check "lock none $mode: increments lost ($(st lost_increments))" \
    "$([[ $(st lost_increments) -gt 0 ]]; echo $?)"
  for fault in skip_remote_flush skip_remote_invalidate; do
    # Functional runs the owner's critical sections before the thieves'
    # (no time passes), so it never reads after a remote release: only
    # litmus-rsp catches a missing invalidation there.
    [[ $mode == functional && $fault == skip_remote_invalidate ]] && continue
    "$T" run -p "$P" "${L[@]}" --timing $mode "${B[@]}" --set l1.inject_fault=$fault \
      --quiet --out "$TMP/o" >"$TMP/log" 2>&1
    rc=$?
    check "lock: mutation $fault is caught in $mode (exit $rc, $(st lost_increments) lost)" \
      "$([[ $rc -eq 1 && $(st lost_increments) -gt 0 ]]; echo $?)"
  done
done

# Same seed, same inputs: the same stats.
for mode in lt at; do
  run_passes "rsp brsp $mode again" -p "$P" -w litmus-rsp --timing $mode "${B[@]}" --arg pollers=2
  cp "$TMP/o/stats.json" "$TMP/a.json"
  run_passes "rsp brsp $mode once more" -p "$P" -w litmus-rsp --timing $mode "${B[@]}" --arg pollers=2
  check "rsp brsp $mode: identical stats" "$(cmp -s "$TMP/a.json" "$TMP/o/stats.json"; echo $?)"
done

# A workload with no remote atomic passes with l1.rsp = brsp.
for mode in lt at; do
  run_passes "litmus-mp with brsp $mode" -p "$P" -w litmus-mp --timing $mode "${B[@]}"
done

expect_error "rsp needs scoped" 2 "l1.rsp" "scoped" -- \
  run -p "$P" -w litmus-rsp --set l1.rsp=brsp

finish rsp_gpu
