#!/usr/bin/env bash
# GPUDet (issue 14 item 5, notes seed-001 §4, §10.5): with non-determinism
# injected (jitter.enable, dynamic CTA placement with jitter.cta_order), the
# order-sensitive float reduction gives several output hashes on the
# baseline and exactly one under GPUDet, in lt and at (PageRank's f32 reds
# too, in at), while the cycle counts
# still differ across seeds. The preset runs serial mode overlapped
# (gpudet.serial_overlap: the next warp granted at issue, a gpudet_sequencer
# in front of each L2 slice); the one-round-trip-per-warp mode is checked
# too. Negative controls: serial mode in arrival order
# (gpudet.inject_fault = serial_arrival), or sequencers that pass serial
# requests on in arrival order (sequencer_arrival), give several again. Integer
# workloads (histogram's atomic bins, sssp's atomicMin, bfs's racing stores)
# match their CPU references in functional, lt and at. Impossible
# parameters are one clear error.
# Usage: gpudet.sh <tlmgpu> <source-dir>
set -u
bin=$1 src=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
tiny=$src/platforms/tiny.json
det=$src/examples/dab/tiny-gpudet.json
w=(-w float-reduce --arg n=4096 --arg addresses=4 --set jitter.enable=true --jobs 2)

source "$src/tests/cli/lib/checks.sh" # distinct_hashes, cycle_spread

for mode in lt at; do
  out=$("$bin" determinism -p "$tiny" "${w[@]}" --seeds 4 --timing $mode)
  n=$(distinct_hashes "$out")
  [ "${n:-0}" -ge 2 ] && ok || { bad "baseline $mode: $n distinct hashes (want >= 2)"; echo "$out"; }
  out=$("$bin" determinism -p "$det" "${w[@]}" --seeds 4 --timing $mode)
  n=$(distinct_hashes "$out")
  [ "$n" = 1 ] && ok || { bad "GPUDet $mode: $n distinct hashes (want 1)"; echo "$out"; }
  grep -q "^checks: 4 passed$" <<<"$out" && ok || { bad "GPUDet $mode: checks"; echo "$out"; }
  s=$(cycle_spread "$out")
  [ "${s:-0.00}" != "0.00" ] && ok || bad "GPUDet $mode: cycles identical across seeds ($s %): is jitter on?"
done

# PageRank (f32 reds) on a small R-MAT graph: several hashes on the
# baseline, one under GPUDet.
pr=(-w pagerank --arg 'input=gen:rmat?scale=8&ef=4&seed=3' --set jitter.enable=true --jobs 2 --seeds 3 --timing at)
out=$("$bin" determinism -p "$tiny" "${pr[@]}")
n=$(distinct_hashes "$out")
[ "${n:-0}" -ge 2 ] && ok || { bad "baseline pagerank: $n distinct hashes (want >= 2)"; echo "$out"; }
out=$("$bin" determinism -p "$det" "${pr[@]}")
n=$(distinct_hashes "$out")
[ "$n" = 1 ] && ok || { bad "GPUDet pagerank: $n distinct hashes (want 1)"; echo "$out"; }

# Negative control: serial mode grants atomics in the order warps reached
# them (timing), not by global warp id.
out=$("$bin" determinism -p "$det" "${w[@]}" --seeds 4 --timing at --set gpudet.inject_fault=serial_arrival)
n=$(distinct_hashes "$out")
[ "${n:-0}" -ge 2 ] && ok || { bad "GPUDet serial_arrival: $n distinct hashes (want >= 2)"; echo "$out"; }

# The serial mode without overlap (a round trip per warp atomic) is
# deterministic too.
for mode in lt at; do
  out=$("$bin" determinism -p "$det" "${w[@]}" --seeds 4 --timing $mode --set gpudet.serial_overlap=false)
  n=$(distinct_hashes "$out")
  [ "$n" = 1 ] && ok || { bad "GPUDet without overlap $mode: $n distinct hashes (want 1)"; echo "$out"; }
done

# Negative control of the overlap: sequencers that pass serial requests on
# in arrival order. And with them working, serial requests did arrive ahead
# of their turn (at: jittered paths; lt: SMs issue their grants whenever
# their threads run), so one hash above is the sequencers' doing.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for mode in lt at; do
  out=$("$bin" determinism -p "$det" "${w[@]}" --seeds 4 --timing $mode --set gpudet.inject_fault=sequencer_arrival)
  n=$(distinct_hashes "$out")
  [ "${n:-0}" -ge 2 ] && ok || { bad "GPUDet sequencer_arrival $mode: $n distinct hashes (want >= 2)"; echo "$out"; }
  "$bin" run -p "$det" -w float-reduce --arg n=4096 --arg addresses=4 --set jitter.enable=true \
    --seed 2 --timing $mode --quiet --out "$tmp/$mode" >/dev/null 2>&1
  parked=$(stat_sum "$tmp/$mode/stats.json" parked_requests)
  [ "$parked" != none ] && [ "$parked" -gt 0 ] && ok || bad "GPUDet $mode: no serial request parked at a sequencer ($parked)"
done

# Integer workloads equal their CPU references under GPUDet.
g='gen:rmat?scale=8&ef=4&seed=3'
for mode in functional lt at; do
  "$bin" run -p "$det" -w histogram --arg n=4096 --timing $mode >/dev/null 2>&1 && ok ||
    bad "histogram on GPUDet ($mode) failed its check"
  for app in sssp bfs; do
    "$bin" run -p "$det" -w $app --input "$g" --timing $mode >/dev/null 2>&1 && ok ||
      bad "$app on GPUDet ($mode) failed its check"
  done
done

# Impossible parameters: one clear error, non-zero exit.
expect_error() { # <what the message names> <tlmgpu args...>
  local want=$1
  shift
  local msg
  msg=$("$bin" run "$@" 2>&1 >/dev/null) && { bad "accepted: $*"; return; }
  grep -q -- "$want" <<<"$msg" && ok || bad "error for '$*' does not name $want: $msg"
}
expect_error gpudet.quantum -p "$det" -w histogram --set gpudet.quantum=0
expect_error gpudet.store_buffer -p "$det" -w histogram --set gpudet.store_buffer=8
expect_error dab.level -p "$src/examples/dab/tiny-dab.json" -w histogram --set gpudet.enable=true
expect_error l1.write_policy -p "$det" -w histogram --set l1.write_policy=write_back
# Overlap without the sequencers' topology: the run says what is missing.
expect_error gpudet_sequencer -p "$tiny" -w histogram --arg n=4096 --set gpudet.enable=true \
  --set gpudet.serial_overlap=true

echo "gpudet: $pass passed, $fail failed"
[ $fail -eq 0 ]
