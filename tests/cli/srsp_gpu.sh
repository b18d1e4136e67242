#!/usr/bin/env bash
# sRSP in the GPU model (issue 15 item 2, l1.rsp = srsp on the scoped L1):
# litmus-rsp (message passing both ways between an owner CTA at cta scope
# and a thief CTA using remote acquire/release atomics) and litmus-lock (the
# asymmetric lock counter) read no stale word and lose no increment in
# functional, lt and at; the owner's cta-scope releases leave LR-TBL markers
# that the thief's remote acquires find (SelFlush is a broadcast; only that
# L1 acks positively and drains), its remote releases fill the PA-TBLs, and
# the owner's next cta-scope acquire is promoted. sRSP makes fewer L1s drain
# than bRSP's Flush and sends fewer invalidations on the same kernel; the
# script prints the counts (docs/validation/srsp.md has them).
# Each injected fault (no LR-TBL marker, no PA-TBL
# insert, no SelFlush, no SelInv) makes a run fail in every mode. In at the
# lock is the line's (models/l1 README "The lock in AT"): same-line requests
# are parked, other lines go on, no GPU-wide stall; a line lock that runs
# with a request to L in flight trips the P3 invariant (20 checks failed
# with that mutation), one that parks nothing fails the parking checks.
#
# usage: bash tests/cli/srsp_gpu.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$2/platforms/titanv.json"
S=(--set l1.atomic_mode=scoped)
R=("${S[@]}" --set l1.rsp=srsp)
B=("${S[@]}" --set l1.rsp=brsp)
L=(-w litmus-lock --arg thieves=3 --arg iters=6)


for mode in functional lt at; do
  run_passes "rsp srsp $mode" -p "$P" -w litmus-rsp --timing $mode "${R[@]}"
  check "rsp srsp $mode: no stale word ($(st stale_acquire) + $(st stale_release))" \
    "$([[ $(st stale_acquire) == 0 && $(st stale_release) == 0 ]]; echo $?)"
  f=$(st rsp_flush_msgs) i=$(st rsp_inv_msgs) fa=$(st rsp_flush_acks) ia=$(st rsp_inv_acks)
  check "rsp srsp $mode: messages counted (SelFlush $f/$fa acked, SelInv $i/$ia acked)" \
    "$([[ $f -gt 0 && $i -gt 0 && $f == "$fa" && $i == "$ia" ]]; echo $?)"
  h=$(st rsp_flush_hits)
  check "rsp srsp $mode: markers pushed ($(st srsp_markers)), owner's lines flushed to them" \
    "$([[ $(st srsp_markers) -gt 0 && $(st srsp_marker_drain_lines) -gt 0 ]]; echo $?)"
  check "rsp srsp $mode: owner's acquires promoted ($(st srsp_promoted_acquires))" \
    "$([[ $(st srsp_promoted_acquires) -gt 0 ]]; echo $?)"
  run_passes "rsp brsp $mode (same kernel)" -p "$P" -w litmus-rsp --timing $mode "${B[@]}"
  bf=$(st rsp_flush_msgs) bi=$(st rsp_inv_msgs)
  echo "litmus-rsp $mode: flush messages srsp $f ($h drained) brsp $bf; invalidate messages srsp $i brsp $bi"
  check "rsp $mode: srsp drains fewer L1s ($h < $bf) and sends fewer invalidations ($i < $bi)" \
    "$([[ $h -gt 0 && $h -lt $bf && $i -lt $bi ]]; echo $?)"

  run_passes "lock srsp $mode" -p "$P" "${L[@]}" --timing $mode "${R[@]}"
  check "lock srsp $mode: no increment lost ($(st lost_increments))" \
    "$([[ $(st lost_increments) == 0 ]]; echo $?)"
  f=$(st rsp_flush_msgs) i=$(st rsp_inv_msgs) h=$(st rsp_flush_hits)
  run_passes "lock brsp $mode (same kernel)" -p "$P" "${L[@]}" --timing $mode "${B[@]}"
  bf=$(st rsp_flush_msgs) bi=$(st rsp_inv_msgs)
  echo "litmus-lock $mode: flush messages srsp $f ($h drained) brsp $bf; invalidate messages srsp $i brsp $bi"
  check "lock $mode: srsp drains fewer L1s ($h < $bf) and sends fewer invalidations ($i < $bi)" \
    "$([[ $h -lt $bf && $i -lt $bi ]]; echo $?)"
done

# Mutations: each must make the sRSP run fail, on the side it breaks.
for mode in functional lt at; do
  for fault in skip_lr_marker:stale_acquire skip_remote_flush:stale_acquire \
    skip_pa_insert:stale_release skip_remote_invalidate:stale_release; do
    "$T" run -p "$P" -w litmus-rsp --timing $mode "${R[@]}" --set l1.inject_fault=${fault%%:*} \
      --quiet --out "$TMP/o" >"$TMP/log" 2>&1
    rc=$?
    check "mutation ${fault%%:*} is caught in $mode (exit $rc, $(st ${fault#*:}) ${fault#*:})" \
      "$([[ $rc -eq 1 && $(st ${fault#*:}) -gt 0 ]]; echo $?)"
  done
  for fault in skip_lr_marker skip_pa_insert; do
    # Functional runs the owner's critical sections before the thieves'
    # (no time passes): it never acquires after a remote release.
    [[ $mode == functional && $fault == skip_pa_insert ]] && continue
    "$T" run -p "$P" "${L[@]}" --timing $mode "${R[@]}" --set l1.inject_fault=$fault \
      --quiet --out "$TMP/o" >"$TMP/log" 2>&1
    rc=$?
    check "lock: mutation $fault is caught in $mode (exit $rc, $(st lost_increments) lost)" \
      "$([[ $rc -eq 1 && $(st lost_increments) -gt 0 ]]; echo $?)"
  done
done

# 3 pollers, 32 rounds: fills in flight at remote releases, 32 flag lines >
# 16 PA-TBL entries in every other L1 (overflows: eager and lazy fallbacks).
for mode in lt at; do
  for pa in eager lazy; do
    run_passes "rsp srsp $mode with 3 pollers, pa_full $pa" -p "$P" -w litmus-rsp \
      --timing $mode "${R[@]}" --set l1.pa_full=$pa --arg pollers=3 --arg rounds=32
    check "rsp srsp $mode pollers $pa: no stale word ($(st stale_acquire) + $(st stale_release))" \
      "$([[ $(st stale_acquire) == 0 && $(st stale_release) == 0 ]]; echo $?)"
    check "rsp srsp $mode pollers $pa: PA-TBL overflows ($(st srsp_pa_overflows))" \
      "$([[ $(st srsp_pa_overflows) -gt 0 ]]; echo $?)"
  done
done

# A 1-entry sFIFO: each marker pushes the owner's data line out (overflow
# write-back) before the thief's SelFlush finds nothing left to drain; the
# data must be at L2 all the same (a marker's own eviction by the sFIFO is
# covered by unit_tests "[srsp]": the thief's SelFlush always comes first here).
for mode in functional lt at; do
  run_passes "rsp srsp $mode, 1-entry sFIFO" -p "$P" -w litmus-rsp --timing $mode "${R[@]}" \
    --set l1.sfifo_entries=1 --arg pollers=3 --arg rounds=32
  check "rsp srsp $mode 1-entry sFIFO: no stale word, $(st sfifo_overflows) overflows" \
    "$([[ $(st stale_acquire) == 0 && $(st stale_release) == 0 && $(st sfifo_overflows) -gt 0 ]]; echo $?)"
done

# AT: sRSP locks the line only (models/l1 README "The lock in AT"). The 3
# thieves of litmus-lock contend for the same lock lines, so requests to a
# locked line are parked; requests to other lines go on meanwhile (bRSP:
# none, every L1 waits); no head waits for a GPU-wide lock; no wake-up is
# missed. With pollers and many rounds, fills of the flag lines are in
# flight when remote operations come: 0 stale, and the line lock's P3/P4
# invariants (l1_srsp_module.cpp) hold.
run_passes "lock srsp at, line lock" -p "$P" "${L[@]}" --timing at "${R[@]}"
check "lock srsp at: same-line requests parked ($(st rsp_lock_parked), $(st rsp_stall_line) cycles)" \
  "$([[ $(st rsp_lock_parked) -gt 0 && $(st rsp_stall_line) -gt 0 ]]; echo $?)"
check "lock srsp at: other lines served under a lock ($(st rsp_served_under_lock))" \
  "$([[ $(st rsp_served_under_lock) -gt 0 ]]; echo $?)"
check "lock srsp at: no GPU-wide stall ($(st rsp_stall_lock) cycles), no missed wake-up" \
  "$([[ $(st rsp_stall_lock) == 0 && $(st stall_net_wakeups) == 0 ]]; echo $?)"
run_passes "lock brsp at, lock of every L1" -p "$P" "${L[@]}" --timing at "${B[@]}"
check "lock brsp at: every L1 waits ($(st rsp_stall_lock) cycles, $(st rsp_served_under_lock) served)" \
  "$([[ $(st rsp_stall_lock) -gt 0 && $(st rsp_served_under_lock) == 0 ]]; echo $?)"
for args in "--arg pollers=3 --arg rounds=64" "--arg pollers=8 --arg rounds=32"; do
  # shellcheck disable=SC2086
  run_passes "rsp srsp at $args" -p "$P" -w litmus-rsp --timing at "${R[@]}" $args
  check "rsp srsp at $args: no stale word ($(st stale_acquire) + $(st stale_release))" \
    "$([[ $(st stale_acquire) == 0 && $(st stale_release) == 0 ]]; echo $?)"
  check "rsp srsp at $args: no GPU-wide stall, $(st rsp_served_under_lock) served under a lock" \
    "$([[ $(st rsp_stall_lock) == 0 && $(st rsp_served_under_lock) -gt 0 && $(st stall_net_wakeups) == 0 ]]; echo $?)"
done
# shellcheck disable=SC2086
run_passes "lock srsp at, 8 thieves" -p "$P" -w litmus-lock --arg thieves=8 --arg iters=8 \
  --timing at "${R[@]}"
check "lock srsp at 8 thieves: no increment lost ($(st lost_increments)), $(st rsp_lock_parked) parked" \
  "$([[ $(st lost_increments) == 0 && $(st rsp_lock_parked) -gt 0 ]]; echo $?)"

# Same seed, same inputs: the same stats.
for mode in lt at; do
  run_passes "rsp srsp $mode again" -p "$P" -w litmus-rsp --timing $mode "${R[@]}" --arg pollers=2
  cp "$TMP/o/stats.json" "$TMP/a.json"
  run_passes "rsp srsp $mode once more" -p "$P" -w litmus-rsp --timing $mode "${R[@]}" \
    --arg pollers=2
  check "rsp srsp $mode: identical stats" "$(cmp -s "$TMP/a.json" "$TMP/o/stats.json"; echo $?)"
done

# Same CU (seed-002 §6.7 C): owner and thief CTAs on one SM of the 80
# (sm.cta_groups = 1 puts every CTA on SM 0), pollers keeping the L1 busy.
# The owner's marker is in the requester's own L1, so no L1 drains for a
# SelFlush (its dirty bytes are already visible there), but sRSP still
# broadcasts SelFlush and SelInv to the 79 other L1s (sRSPOpt's same-CU
# shortcut spares some: tests/cli/srsp_opt_gpu.sh); bRSP flushes every
# other L1. No word may be stale either way.
C=(-w litmus-rsp --arg pollers=3 --set sm.cta_placement=deterministic --set sm.cta_groups=1)
for mode in lt at; do
  for rsp in srsp brsp; do
    run_passes "same CU $rsp $mode" -p "$P" "${C[@]}" --timing $mode "${S[@]}" --set l1.rsp=$rsp
    check "same CU $rsp $mode: no stale word ($(st stale_acquire) + $(st stale_release))" \
      "$([[ $(st stale_acquire) == 0 && $(st stale_release) == 0 ]]; echo $?)"
    [[ $rsp == srsp ]] || continue
    check "same CU srsp $mode: no L1 drains ($(st rsp_flush_hits)), SelInv sent ($(st rsp_inv_msgs))" \
      "$([[ $(st rsp_flush_hits) == 0 && $(st rsp_inv_msgs) -gt 0 ]]; echo $?)"
  done
done

# A workload with no remote atomic passes with l1.rsp = srsp.
for mode in lt at; do
  run_passes "litmus-mp with srsp $mode" -p "$P" -w litmus-mp --timing $mode "${R[@]}"
done

expect_error "srsp needs scoped" 2 "l1.rsp" "scoped" -- \
  run -p "$P" -w litmus-rsp --set l1.rsp=srsp

finish srsp_gpu
