#!/usr/bin/env bash
# DAB keyed by logical CTA groups (issue 14 item 8, beyond the paper): with
# dab.keying = group and sm.cta_groups fixed, the order of every red follows
# the program, not the GPU, so the order-sensitive float reduction gives one
# output hash on 80 and on 72 SMs, over jittered seeds, in lt and at. The
# negative control: the paper's keying (buffers per SM scheduler) gives other
# bits on 72 SMs than on 80. Integer reds match the CPU reference. Bad
# combinations name their key.
# Usage: dab_groups.sh <tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
grp=$2/examples/dab/titanv-dab-groups.json
dab=$2/examples/dab/titanv-dab.json
w=(-w float-reduce --arg n=65536 --arg addresses=64 --arg grid=288)

# `determinism` lists each distinct hash on a line "  <hash>  seeds ...".
all=""
for mode in lt at; do
  for sms in 80 72; do
    out=$("$T" determinism -p "$grp" "${w[@]}" --seeds 2 --jobs 2 --timing $mode \
      --set jitter.enable=true --set sm.count=$sms 2>&1)
    grep -q "^checks: 2 passed$" <<<"$out"
    check "groups, $mode, $sms SMs: every run passes its check" $?
    all+=$(sed -n 's/^  \([0-9a-f]\{16\}\)  seeds.*/\1/p' <<<"$out")$'\n'
  done
done
n=$(sort -u <<<"$all" | grep -c .)
[ "$n" = 1 ] || echo "$all"
check "groups: 1 hash over 72 and 80 SMs, lt and at, 2 jittered seeds each (got $n)" \
  "$([ "$n" = 1 ]; echo $?)"

hash() { grep -o '"output_hash": "[0-9a-f]*"' "$1/stats.json" 2>/dev/null; }
# Negative control: with the paper's keying the bits move with the SM count.
for sms in 80 72; do
  "$T" run -p "$dab" "${w[@]}" --set sm.count=$sms --quiet --out "$TMP/sm$sms" >/dev/null 2>&1
done
h80=$(hash "$TMP/sm80") h72=$(hash "$TMP/sm72")
check "keying sm: other bits on 72 SMs than on 80 ('$h80')" \
  "$([ -n "$h80" ] && [ -n "$h72" ] && [ "$h80" != "$h72" ]; echo $?)"

# Integer reds under group keying equal the CPU reference (histogram checks its bins).
for mode in functional lt at; do
  run_passes "histogram on group keying, $mode" -p "$grp" -w histogram --arg n=16384 \
    --timing $mode --set sm.count=72
done

# Bad values name their key.
expect_error "keying group without groups" 2 "sm.cta_groups" -- \
  run -p "$dab" -w float-reduce --set dab.keying=group
expect_error "cta groups with dynamic placement" 2 "sm.cta_groups" -- \
  run -p "$2/platforms/titanv.json" -w float-reduce --set sm.cta_groups=8
expect_error "keying group at warp level" 2 "dab.keying" -- \
  run -p "$grp" -w float-reduce --set dab.level=warp --set dab.entries=32
expect_error "groups whose batches do not fit an SM" 1 "dab.group_ctas" -- \
  run -p "$grp" -w float-reduce --arg grid=2880 --set dab.group_ctas=64 --quiet --out "$TMP/e"

finish dab_groups
