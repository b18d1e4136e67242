#!/usr/bin/env bash
# DAB (issue 14, notes seed-001 §10.5): with non-determinism injected
# (jitter.enable), the order-sensitive float reduction gives several output
# hashes on the baseline and exactly one with DAB (GWAT-64-AF, reorder
# units), in lt and at, while the cycle counts still differ across seeds.
# Negative controls: without the reorder units' order (dab.reorder=false,
# DAB-NR) or without a determinism-aware order into the shared buffers
# (dab.order=none) the hashes differ again. Integer reds match the CPU
# reference under DAB.
# Usage: dab_determinism.sh <tlmgpu> <source-dir>
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
tiny=$src/platforms/tiny.json
dab=$src/examples/dab/tiny-dab.json
w=(-w float-reduce --arg n=4096 --arg addresses=4 --set jitter.enable=true --jobs 2)

source "$src/tests/cli/lib/checks.sh" # distinct_hashes, cycle_spread

out=$("$bin" determinism -p "$tiny" "${w[@]}" --seeds 6 --timing lt)
n=$(distinct_hashes "$out")
[ "${n:-0}" -ge 2 ] && ok || { bad "baseline lt: $n distinct hashes (want >= 2)"; echo "$out"; }

for mode in lt at; do
  seeds=8
  [ $mode = at ] && seeds=4
  out=$("$bin" determinism -p "$dab" "${w[@]}" --seeds $seeds --timing $mode)
  n=$(distinct_hashes "$out")
  [ "$n" = 1 ] && ok || { bad "DAB $mode: $n distinct hashes (want 1)"; echo "$out"; }
  grep -q "^checks: $seeds passed$" <<<"$out" && ok || { bad "DAB $mode: checks"; echo "$out"; }
  s=$(cycle_spread "$out")
  [ "${s:-0.00}" != "0.00" ] && ok || bad "DAB $mode: cycles identical across seeds ($s %): is jitter on?"
done

# Negative controls, in at (lt injects the SMs' packets one SM after the
# other, so arrival order never varies there): fusion on, 64 words.
neg=(-w float-reduce --arg n=16384 --arg addresses=64 --set jitter.enable=true --jobs 2 --timing at)
out=$("$bin" determinism -p "$dab" "${neg[@]}" --seeds 4)
n=$(distinct_hashes "$out")
[ "$n" = 1 ] && ok || { bad "DAB at, 64 words: $n distinct hashes (want 1)"; echo "$out"; }
out=$("$bin" determinism -p "$dab" "${neg[@]}" --seeds 4 --set dab.reorder=false)
n=$(distinct_hashes "$out")
[ "${n:-0}" -ge 2 ] && ok || { bad "DAB-NR: $n distinct hashes (want >= 2)"; echo "$out"; }
out=$("$bin" determinism -p "$dab" "${neg[@]}" --seeds 4 --set dab.order=none)
n=$(distinct_hashes "$out")
[ "${n:-0}" -ge 2 ] && ok || { bad "DAB order none: $n distinct hashes (want >= 2)"; echo "$out"; }

# SRR (the token orders every instruction): deterministic too.
out=$("$bin" determinism -p "$dab" "${neg[@]}" --seeds 4 --set dab.order=srr)
n=$(distinct_hashes "$out")
[ "$n" = 1 ] && ok || { bad "DAB srr at: $n distinct hashes (want 1)"; echo "$out"; }

# GTRR (greedy, then SRR once a ring gathers at its first red): deterministic
# too, in lt and at.
for mode in lt at; do
  out=$("$bin" determinism -p "$dab" -w float-reduce --arg n=16384 --arg addresses=64 \
    --set jitter.enable=true --jobs 2 --seeds 4 --timing $mode --set dab.order=gtrr)
  n=$(distinct_hashes "$out")
  [ "$n" = 1 ] && ok || { bad "DAB gtrr $mode: $n distinct hashes (want 1)"; echo "$out"; }
  s=$(cycle_spread "$out")
  [ "${s:-0.00}" != "0.00" ] && ok || bad "DAB gtrr $mode: cycles identical across seeds"
done

# GTAR issues the same sequence as GWAT (other timing): the same bits.
for mode in lt at; do
  g=$("$bin" run -p "$dab" -w float-reduce --arg n=16384 --arg addresses=64 --timing $mode \
    --quiet --out "$tmp/gwat" >/dev/null 2>&1 && grep -o '"output_hash": "[0-9a-f]*"' "$tmp/gwat/stats.json")
  t=$("$bin" run -p "$dab" -w float-reduce --arg n=16384 --arg addresses=64 --timing $mode \
    --set dab.order=gtar --quiet --out "$tmp/gtar" >/dev/null 2>&1 &&
    grep -o '"output_hash": "[0-9a-f]*"' "$tmp/gtar/stats.json")
  [ -n "$g" ] && [ "$g" = "$t" ] && ok || bad "GTAR and GWAT differ in $mode ('$g' vs '$t')"
done

# BC (float reds into sigma and delta, max reds into a flag) on as20graph in
# at: GTAR must not sleep through the start of its round, and gives GWAT's bits.
as20=$src/../shared/data/as20graph.txt
if [ -f "$as20" ]; then
  for o in gwat gtar; do
    "$bin" run -p "$dab" -w bc --arg input="$as20" --arg sources=2 --timing at \
      --set dab.order=$o --quiet --out "$tmp/bc_$o" >"$tmp/bc_$o.log" 2>&1 &&
      ok || bad "bc $o at: $(tail -1 "$tmp/bc_$o.log")"
  done
  [ "$(grep -o '"output_hash": "[0-9a-f]*"' "$tmp/bc_gwat/stats.json" 2>/dev/null)" = \
    "$(grep -o '"output_hash": "[0-9a-f]*"' "$tmp/bc_gtar/stats.json" 2>/dev/null)" ] &&
    ok || bad "bc: GTAR and GWAT differ"
else
  bad "no $as20 (the shared data folder)"
fi

# Integer reds under DAB equal the CPU reference (histogram checks its bins).
for mode in functional lt at; do
  "$bin" run -p "$dab" -w histogram --arg n=8192 --timing $mode >/dev/null 2>&1 && ok ||
    bad "histogram on DAB ($mode) failed its check"
done

echo "dab_determinism: $pass passed, $fail failed"
[ $fail -eq 0 ]
