#!/usr/bin/env bash
# litmus-chain (seed-002 §6.7 C, the three-party chain) on the GPU: owner
# warp 0 releases X at cta scope, a thief CTA acquires and releases
# remotely (reading X, writing Z), owner warp 1 acquires at cta scope and
# reads Z and X. With bRSP and sRSP nothing is stale in functional, lt and
# at; with l1.rsp = none both the thief's X and the owner's Z are stale (the
# negative control); every injected fault of either protocol makes the run
# fail; --check-races finds no race (the program is correct under RSP).
#
# usage: bash tests/cli/litmus_chain.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$2/platforms/titanv.json"
S=(--set l1.atomic_mode=scoped)


for mode in functional lt at; do
  for rsp in brsp srsp; do
    run_passes "chain $rsp $mode" -p "$P" -w litmus-chain --timing $mode "${S[@]}" --set l1.rsp=$rsp
    check "chain $rsp $mode: nothing stale ($(st stale_thief_x) $(st stale_owner_z) $(st stale_owner_x))" \
      "$([[ $(st stale_thief_x) == 0 && $(st stale_owner_z) == 0 && $(st stale_owner_x) == 0 ]]; echo $?)"
  done
  run_passes "chain none $mode (negative control)" -p "$P" -w litmus-chain --timing $mode "${S[@]}"
  check "chain none $mode: the thief's X and the owner's Z are stale ($(st stale_thief_x), $(st stale_owner_z))" \
    "$([[ $(st stale_thief_x) -gt 0 && $(st stale_owner_z) -gt 0 ]]; echo $?)"
  for fault in brsp:skip_remote_flush brsp:skip_remote_invalidate srsp:skip_remote_flush \
    srsp:skip_remote_invalidate srsp:skip_lr_marker srsp:skip_pa_insert; do
    "$T" run -p "$P" -w litmus-chain --timing $mode "${S[@]}" --set l1.rsp=${fault%%:*} \
      --set l1.inject_fault=${fault#*:} --quiet --out "$TMP/f" >/dev/null 2>&1
    rc=$?
    check "chain ${fault%%:*} $mode with ${fault#*:}: caught (exit $rc)" "$([[ $rc == 1 ]]; echo $?)"
  done
done
run_passes "chain srsp --check-races" -p "$P" -w litmus-chain --timing lt "${S[@]}" --set l1.rsp=srsp \
  --check-races

finish litmus_chain
