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

# Other L2 slice counts (tiny: 2 SMs, other slices than Titan V's 48): with
# dab.release_order = source_major each reorder unit applies a word's
# updates in (group, buffer order), which does not depend on how addresses
# fall into slices, so tiny and Titan V give the same bits; the paper's
# round-robin order numbers packets per slice and gives other bits.
tiny=$2/examples/dab/tiny-dab.json
# PageRank: each group's reds go to other words (float-reduce's groups all
# touch the same words in the same order, so any release order agrees).
small=(-w pagerank --arg "input=gen:rmat?scale=10&ef=8" --arg block=64 --arg iterations=2)
gset=(--set dab.keying=group --set sm.cta_groups=4 --set dab.group_ctas=2)
for order in source_major round_robin; do
  for mode in lt at; do
    "$T" run -p "$tiny" "${small[@]}" "${gset[@]}" --set dab.release_order=$order \
      --timing $mode --quiet --out "$TMP/tiny-$order-$mode" >/dev/null 2>&1
    "$T" run -p "$grp" "${small[@]}" "${gset[@]}" --set dab.release_order=$order \
      --timing $mode --quiet --out "$TMP/titanv-$order-$mode" >/dev/null 2>&1
  done
done
ht=$(hash "$TMP/tiny-source_major-lt")
same=0
for f in tiny-source_major-at titanv-source_major-lt titanv-source_major-at; do
  [ "$(hash "$TMP/$f")" = "$ht" ] || same=1
done
check "source_major: one hash on tiny and Titan V, lt and at ('$ht')" \
  "$([ -n "$ht" ] && [ $same = 0 ]; echo $?)"
hr=$(hash "$TMP/tiny-round_robin-lt") hv=$(hash "$TMP/titanv-round_robin-lt")
check "round_robin: other bits on tiny than on Titan V (negative control)" \
  "$([ -n "$hr" ] && [ -n "$hv" ] && [ "$hr" != "$hv" ]; echo $?)"
expect_error "source_major without reordering" 2 "dab.release_order" -- \
  run -p "$tiny" -w float-reduce --set dab.release_order=source_major --set dab.reorder=false

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
