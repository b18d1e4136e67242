#!/usr/bin/env bash
# sRSPOpt in the GPU model (issue 15 item 2, l1.rsp = srsp_opt; models/l1
# README "sRSPOpt"): sRSP plus the same-CU shortcut and the owner predictor.
# - litmus-rsp and litmus-lock read nothing stale and lose no increment in
#   functional, lt and at;
# - litmus-rsp with one flag line per direction (one_flag=1): the thief's
#   SelFlush goes to the owner it learned in the previous round, a
#   predictor hit each round after the first, so fewer SelFlush messages
#   than sRSP's broadcasts;
# - owner and thief CTAs on one SM (sm.cta_groups = 1): the thief's remote
#   operations that find the owner's marker in their own L1 run at cta
#   scope (fence halves included), with fewer messages than sRSP;
# - work stealing with victims=near (ws-pagerank, four queues per SM, as
#   the paper's Fig. 9 benchmarks): thieves find the queues of CTAs on their
#   own SM through %smid and steal there first, so the shortcut fires; with
#   the ring order no steal aims at the own SM and the shortcut is rare (it
#   can still fire by timing: once in lt on apu8, against 21 with near,
#   since lt enforces the L2's 16 MSHR entries);
# - the injected fault blind_shortcut (the shortcut without an LR-TBL hit)
#   reads stale data in every mode.
#
# usage: bash tests/cli/srsp_opt_gpu.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$2/platforms/titanv.json"
S=(--set l1.atomic_mode=scoped)
O=("${S[@]}" --set l1.rsp=srsp_opt)
R=("${S[@]}" --set l1.rsp=srsp)

no_stale() {
  check "$1: no stale word ($(st stale_acquire) + $(st stale_release))" \
    "$([[ $(st stale_acquire) == 0 && $(st stale_release) == 0 ]]; echo $?)"
}

for mode in functional lt at; do
  run_passes "rsp srsp_opt $mode" -p "$P" -w litmus-rsp --timing $mode "${O[@]}"
  no_stale "rsp srsp_opt $mode"
  run_passes "lock srsp_opt $mode" -p "$P" -w litmus-lock --arg thieves=3 --arg iters=6 \
    --timing $mode "${O[@]}"
  check "lock srsp_opt $mode: no increment lost ($(st lost_increments))" \
    "$([[ $(st lost_increments) == 0 ]]; echo $?)"

  # The owner predictor: 8 rounds on one flag line, 7 of them predicted.
  run_passes "one flag srsp $mode" -p "$P" -w litmus-rsp --arg one_flag=1 --timing $mode "${R[@]}"
  f=$(st rsp_flush_msgs)
  run_passes "one flag srsp_opt $mode" -p "$P" -w litmus-rsp --arg one_flag=1 --timing $mode \
    "${O[@]}"
  no_stale "one flag srsp_opt $mode"
  fo=$(st rsp_flush_msgs) hits=$(st srsp_predictor_hits)
  echo "one flag $mode: SelFlush srsp $f, srsp_opt $fo ($hits predicted, $(st srsp_predictor_misfires) misfired)"
  check "one flag srsp_opt $mode: 7 predictor hits ($hits), fewer SelFlush ($fo < $f)" \
    "$([[ $hits == 7 && $fo -lt $f ]]; echo $?)"
  check "one flag srsp_opt $mode: each hit drained the owner ($(st rsp_flush_hits) >= $hits)" \
    "$([[ $(st rsp_flush_hits) -ge $hits ]]; echo $?)"
done

# Same CU: every CTA on SM 0 of the 80, pollers keeping the L1 busy.
C=(-w litmus-rsp --arg pollers=3 --set sm.cta_placement=deterministic --set sm.cta_groups=1)
for mode in lt at; do
  run_passes "same CU srsp $mode" -p "$P" "${C[@]}" --timing $mode "${R[@]}"
  f=$(st rsp_flush_msgs) ops=$(st rsp_remote_ops)
  run_passes "same CU srsp_opt $mode" -p "$P" "${C[@]}" --timing $mode "${O[@]}"
  no_stale "same CU srsp_opt $mode"
  echo "same CU $mode: srsp $ops remote ops, $f SelFlush; srsp_opt $(st rsp_remote_ops) remote ops, $(st rsp_flush_msgs) SelFlush, $(st srsp_shortcuts) shortcuts ($(st srsp_shortcut_fences) fences)"
  check "same CU srsp_opt $mode: shortcuts taken ($(st srsp_shortcuts), fences $(st srsp_shortcut_fences))" \
    "$([[ $(st srsp_shortcuts) -gt 0 && $(st srsp_shortcut_fences) -gt 0 ]]; echo $?)"
  check "same CU srsp_opt $mode: fewer remote ops and SelFlush ($(st rsp_flush_msgs) < $f)" \
    "$([[ $(st rsp_remote_ops) -lt $ops && $(st rsp_flush_msgs) -lt $f ]]; echo $?)"
done

# Functional mode, same CU: the owner's warp spins on a flag the thief's
# warp (same SM, same warp scheduler) sets; functional mode never stalls a
# warp, so GTO's greedy run is bounded there (models/sm/scheduler.hpp).
# Without the bound this run never ended.
for rsp in srsp srsp_opt; do
  run_passes "same CU $rsp functional (a bounded greedy run)" -p "$P" "${C[@]}" \
    --timing functional "${S[@]}" --set l1.rsp=$rsp
  no_stale "same CU $rsp functional"
done

# Work stealing with the same-SM victims first: four 64-wide CTAs (queues)
# per CU on apu8. In functional mode a CTA may run dry before the others
# registered, so only lt and at are counted.
W=(-p "$2/platforms/apu8.json" -w ws-pagerank --arg iterations=2 --arg 'input=gen:ba?n=4096&k=4'
  --arg scenario=rsp --arg block=64 --arg queues=32 "${O[@]}")
for mode in functional lt at; do
  run_passes "ws-pagerank ring $mode" "${W[@]}" --arg victims=ring --timing $mode
  ring_sc=$(st srsp_shortcuts) ring_near=$(st near_steals)
  run_passes "ws-pagerank near $mode" "${W[@]}" --arg victims=near --timing $mode
  echo "ws-pagerank $mode: near $(st steals) steals ($(st near_steals) same SM), $(st srsp_shortcuts) shortcuts; ring $ring_sc shortcuts"
  [[ $mode == functional ]] && continue
  check "ws-pagerank near $mode: same-SM steals take the shortcut ($(st near_steals) steals, $(st srsp_shortcuts) shortcuts)" \
    "$([[ $(st near_steals) -gt 0 && $(st srsp_shortcuts) -gt 0 ]]; echo $?)"
  check "ws-pagerank ring $mode: no same-SM steals, few shortcuts ($ring_near, $ring_sc vs $(st srsp_shortcuts))" \
    "$([[ $ring_near == 0 && $((ring_sc * 4)) -lt $(st srsp_shortcuts) ]]; echo $?)"
done

# The shortcut without an LR-TBL hit: the thief's remote acquire becomes a
# cta-scope one on its own L1 and reads stale data.
for mode in functional lt at; do
  "$T" run -p "$P" -w litmus-rsp --timing $mode "${O[@]}" --set l1.inject_fault=blind_shortcut \
    --quiet --out "$TMP/o" >"$TMP/log" 2>&1
  rc=$?
  check "blind_shortcut is caught in $mode (exit $rc, $(st stale_acquire) stale)" \
    "$([[ $rc -eq 1 && $(st stale_acquire) -gt 0 ]]; echo $?)"
done

# Same seed, same inputs: the same stats.
run_passes "srsp_opt at" -p "$P" -w litmus-rsp --arg one_flag=1 --arg pollers=2 --timing at "${O[@]}"
cp "$TMP/o/stats.json" "$TMP/a.json"
run_passes "srsp_opt at again" -p "$P" -w litmus-rsp --arg one_flag=1 --arg pollers=2 --timing at \
  "${O[@]}"
check "srsp_opt at: identical stats" "$(cmp -s "$TMP/a.json" "$TMP/o/stats.json"; echo $?)"

finish srsp_opt_gpu
