#!/usr/bin/env bash
# Non-determinism injection (docs/timing.md; seed-001 §10.5 item 2), measured
# with `tlmgpu determinism` on the tiny platform:
# - float-reduce in lt with jitter.enable: at least 2 distinct output hashes
#   over 10 seeds (the injection reaches the order of the float atomics) and
#   differing kernel cycles; without it exactly 1 hash (its inputs do not
#   depend on --seed, so only injection can change them);
# - integer histogram with jitter.enable: every seed matches the CPU reference
#   (integer atomics commute, so reordering must never change the result).
# Usage: nondet_injection.sh <tlmgpu> <source-dir>
set -u
bin=$1 src=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
field() { sed -n "s/^$1 *\([0-9]*\).*/\1/p" <<<"$2"; }
reduce=(-p "$src/platforms/tiny.json" -w float-reduce --arg n=2048 --seeds 10 --timing lt)

on=$("$bin" determinism "${reduce[@]}" --set jitter.enable=true) || bad "float-reduce, jitter on: exit $?"
hashes=$(field "distinct output hashes:" "$on")
if [ "${hashes:-0}" -ge 2 ]; then ok; else bad "float-reduce, jitter on: ${hashes:-no} distinct hashes over 10 seeds (want >= 2)"; echo "$on"; fi
lo=$(sed -n 's/^kernel cycles: min \([0-9]*\), max.*/\1/p' <<<"$on")
hi=$(sed -n 's/^kernel cycles: min [0-9]*, max \([0-9]*\),.*/\1/p' <<<"$on")
if [ -n "$lo" ] && [ "$lo" != "$hi" ]; then ok; else bad "float-reduce, jitter on: kernel cycles min ${lo:-?} = max ${hi:-?}"; fi
grep -q "^checks: 10 passed" <<<"$on" && ok || bad "float-reduce, jitter on: a run failed its CPU check"

off=$("$bin" determinism "${reduce[@]}") || bad "float-reduce, jitter off: exit $?"
hashes=$(field "distinct output hashes:" "$off")
if [ "${hashes:-0}" -eq 1 ]; then ok; else bad "float-reduce, jitter off: ${hashes:-no} distinct hashes (want 1)"; echo "$off"; fi

hist=$("$bin" determinism -p "$src/platforms/tiny.json" -w histogram --arg n=4096 --seeds 10 \
  --timing lt --set jitter.enable=true) || bad "histogram, jitter on: exit $?"
if grep -q "^checks: 10 passed$" <<<"$hist"; then ok; else bad "histogram, jitter on: not every seed matched the CPU reference"; echo "$hist"; fi

echo "nondet_injection: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
