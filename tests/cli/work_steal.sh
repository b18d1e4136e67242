#!/usr/bin/env bash
# The work-stealing graph workloads (issue 15 item 4; workloads/work_steal):
# ws-pagerank and ws-sssp (then ws-clr, ws-mis) under the sRSP paper's scenarios on apu8 with the
# scoped L1, in functional, lt and at. Each run passes its CPU check and the
# queue check (every task ran exactly once per launch). Baseline and
# scope-only never steal, steal-only and rsp do; scope-only misses less in
# the L1 than baseline (its dequeues invalidate nothing); stealing balances
# the load (fewer cycles than baseline); rsp with bRSP sends Flush messages.
# Then the queues under stress (one queue that every CTA steals from, more
# queues than SMs hold), a 32-wide non-scoped platform, the corrupt hook,
# and the errors: rsp without l1.rsp, an unknown scenario.
#
# usage: bash tests/cli/work_steal.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$2/platforms/apu8.json"
G="$2/../shared/data/as20graph.txt"
B=(--set l1.atomic_mode=scoped --set l1.rsp=brsp)

declare -A c miss
cycles() { sed -n 's/^simulated \([0-9]*\) core cycles.*/\1/p' "$TMP/log"; }

for w in ws-pagerank ws-sssp; do
  for mode in functional lt at; do
    for sc in baseline steal-only scope-only rsp; do
      "$T" run -p "$P" -w $w --arg input="$G" --arg scenario=$sc --timing $mode "${B[@]}" \
        --out "$TMP/o" >"$TMP/log" 2>&1
      rc=$?
      [[ $rc -eq 0 ]] || head -c 400 "$TMP/log"
      check "$w $sc $mode passes (exit $rc)" "$([[ $rc -eq 0 ]]; echo $?)"
      steals=$(st steals)
      case $sc in
      baseline | scope-only)
        check "$w $sc $mode: no steals ($steals)" "$([[ $steals == 0 ]]; echo $?)" ;;
      *) check "$w $sc $mode: steals ($steals)" "$([[ $steals -gt 0 ]]; echo $?)" ;;
      esac
      c[$sc]=$(cycles)
      miss[$sc]=$(st sector_misses)
      [[ $sc == rsp ]] && flush=$(st rsp_flush_msgs)
    done
    [[ $mode == functional ]] && continue
    check "$w $mode: scope-only misses less in L1 than baseline (${miss[scope-only]} < ${miss[baseline]})" \
      "$([[ ${miss[scope-only]} -lt ${miss[baseline]} ]]; echo $?)"
    check "$w $mode: stealing beats baseline (${c[steal-only]} < ${c[baseline]} cycles)" \
      "$([[ ${c[steal-only]} -lt ${c[baseline]} ]]; echo $?)"
    check "$w $mode: bRSP flushes on steals ($flush messages)" "$([[ $flush -gt 0 ]]; echo $?)"
  done
done

# CLR and MIS: the two other applications, in lt and at (at: baseline and
# rsp only), each checked against its CPU replay; their corrupt hooks fail.
# A 2,048-vertex Barabasi-Albert graph in tasks of 64 vertices: CLR takes
# tens of rounds, so a larger graph would cost the suite seconds.
for w in ws-clr ws-mis; do
  for run in lt:baseline lt:steal-only lt:scope-only lt:rsp at:baseline at:rsp; do
    run_passes "$w ${run#*:} ${run%%:*}" -p "$P" -w $w --arg input='gen:ba?n=2048&k=4' \
      --arg block=64 --arg scenario=${run#*:} --timing ${run%%:*} "${B[@]}"
  done
  check "$w rsp at: steals ($(st steals))" "$([[ $(st steals) -gt 0 ]]; echo $?)"
  "$T" run -p "$P" -w $w --arg input="$G" --arg corrupt=1 --quiet --out "$TMP/c" >"$TMP/log" 2>&1
  rc=$?
  check "$w corrupt=1 fails its check (exit $rc)" "$([[ $rc -eq 1 ]]; echo $?)"
done

# Stress: one queue (every CTA but the first steals from it) and 64 queues
# on 8 SMs (CTAs that start late find their queues stolen), in lt and at.
for mode in lt at; do
  for q in 1 3 64; do
    run_passes "ws-pagerank rsp $mode queues=$q" -p "$P" -w ws-pagerank --arg input="$G" \
      --arg scenario=rsp --arg queues=$q --arg iterations=2 --timing $mode "${B[@]}"
  done
done
run_passes "ws-sssp steal-only at on titanv (32 wide, not scoped), task_lanes=3" \
  -p "$2/platforms/titanv.json" -w ws-sssp --arg input="$G" --arg scenario=steal-only \
  --arg task_lanes=3 --timing at
run_passes "ws-sssp karate (one task)" -p "$P" -w ws-sssp --arg input="$2/../shared/data/karate.mtx" \
  --arg scenario=rsp "${B[@]}"

# The checks can fail.
"$T" run -p "$P" -w ws-pagerank --arg input="$G" --arg corrupt=1 --quiet --out "$TMP/c" \
  >"$TMP/log" 2>&1
rc=$?
check "ws-pagerank corrupt=1 fails its check (exit $rc)" "$([[ $rc -eq 1 ]]; echo $?)"

# sRSP in at, 256 queues on apu64 with same-SM victims first: a thief's
# remote CAS runs on the blocking path and may miss in L2 while the line's
# last write-back is still on its way to DRAM; it must read those bytes
# (models/l2, InFlightWrites), or it CASes a stale word and takes a task
# another thief already took ("task 272 ran 3 times in 2 launches").
run_passes "ws-pagerank srsp at, apu64, 256 queues, victims=near" -p "$2/platforms/apu64.json" \
  -w ws-pagerank --arg iterations=2 --arg scenario=rsp --arg block=64 --arg queues=256 \
  --arg victims=near --arg 'input=gen:rmat?scale=15&ef=8&seed=1&permute=0' \
  --set l1.atomic_mode=scoped --set l1.rsp=srsp --timing at

# termination=counter: the CAS that empties a queue counts it; thieves stop
# once every queue is empty instead of probing each one (far fewer probes,
# the same result and every task once).
TC=(-p "$2/platforms/apu8.json" -w ws-pagerank --arg iterations=2 --arg scenario=rsp
  --arg block=64 --arg queues=32 --arg 'input=gen:ba?n=4096&k=4' --set l1.atomic_mode=scoped
  --set l1.rsp=srsp)
for mode in lt at; do
  run_passes "ws-pagerank termination=scan $mode" "${TC[@]}" --timing $mode
  scan=$(st probes)
  run_passes "ws-pagerank termination=counter $mode" "${TC[@]}" --arg termination=counter \
    --timing $mode
  cnt=$(st probes) reads=$(st count_reads)
  check "termination=counter $mode: fewer probes ($cnt < $scan / 2), the count read ($reads)" \
    "$([[ $cnt -lt $((scan / 2)) && $reads -gt 0 ]]; echo $?)"
done
expect_error "unknown termination" 2 "termination" "'count'" -- \
  run -p "$P" -w ws-clr --arg input="$G" --arg termination=count

expect_error "rsp without l1.rsp" 2 "scenario" "l1.rsp" -- \
  run -p "$P" -w ws-pagerank --arg input="$G" --arg scenario=rsp
expect_error "unknown scenario" 2 "scenario" "'rsq'" -- \
  run -p "$P" -w ws-sssp --arg input="$G" --arg scenario=rsq
expect_error "unknown victim order" 2 "victims" "'nearest'" -- \
  run -p "$P" -w ws-clr --arg input="$G" --arg victims=nearest

# The paper's scenarios as sweep configs: a config's "args" reach every point.
"$T" sweep "$2/examples/srsp-paper.json" --dry-run --out "$TMP/sw" >"$TMP/dry" 2>&1
check "srsp-paper spec: the Steal-only points run scenario=steal-only with the termination counter" \
  "$(grep -q -- '--set l1.atomic_mode=scoped -w ws-pagerank --arg iterations=2 --arg termination=counter --arg scenario=steal-only' "$TMP/dry"; echo $?)"

finish work_steal
