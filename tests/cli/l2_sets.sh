#!/usr/bin/env bash
# An L2 slice indexes its sets by the line's number inside the slice
# (l2.set_index = partition, models/l2/README.md "Sets"). Before 2026-11-29
# it indexed them by the line address, and on platforms whose slice count is
# a power of two with the xor hash (gtx980, tx1, the apu platforms) every
# slice used only half of its sets. PageRank on an R-MAT scale-13 graph on
# apu8 (512 KB of L2; the graph and ranks take about 380 KB) then missed on
# 43,820 of its L2 loads, against 5,121 (the first touches) with every set.
# The default must miss on fewer than half the loads the address index
# misses on, evict nothing, and both runs must pass PageRank's check.
#
# usage: bash tests/cli/l2_sets.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/cli/lib/checks.sh"
P="$SRC/platforms/apu8.json"
G='gen:rmat?scale=13&ef=8&seed=1'

run_passes "apu8 PageRank lt, sets by partition" -p "$P" -w pagerank --input "$G" --timing lt
part=$(stat_sum "$TMP/o/stats.json" load_misses gpu.l2_)
evict=$(stat_sum "$TMP/o/stats.json" evictions gpu.l2_)
run_passes "apu8 PageRank lt, sets by address" -p "$P" -w pagerank --input "$G" --timing lt \
  --set l2.set_index=address
addr=$(stat_sum "$TMP/o/stats.json" load_misses gpu.l2_)
echo "L2 load misses: by partition $part, by address $addr; evictions by partition $evict"
check "sets by partition miss less than half as often ($part vs $addr)" \
  "$(python3 -c "import sys; sys.exit(0 if 0 < $part * 2 < $addr else 1)"; echo $?)"
check "sets by partition evict nothing ($evict)" "$([ "${evict%.*}" = 0 ]; echo $?)"
finish l2_sets
