#!/usr/bin/env bash
# The ISCU (models/scu README "ISCU": the SCU with scu.filter_unit = iru,
# its filtering done by the IRU partitions): bfs-frontier version=iscu
# matches the CPU reference in every timing mode on tiny-iscu and
# gtx980-iscu; the IRU did the filtering (elements merged in its hash, none
# through the in-memory table, the SCU's data never fetched back); and the
# versions and platforms that do not fit are one clear error each; with
# contract=iru (BFS, PageRank) the contraction runs on the IRU as well.
#
# usage: bash tests/cli/iscu.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
D="$2/../shared/data"
EX="$2/examples/iscu"

for mode in functional lt at; do
  for g in karate.mtx as20graph.txt; do
    run_passes "bfs-frontier iscu $g $mode matches the CPU reference" \
      -p "$EX/tiny-iscu.json" -w bfs-frontier --arg version=iscu --arg "input=$D/$g" --timing $mode
  done
done
run_passes "gtx980-iscu: bfs-frontier iscu passes (at)" \
  -p "$EX/gtx980-iscu.json" -w bfs-frontier --arg version=iscu --arg "input=$D/as20graph.txt" \
  --timing at
# contract=iru (the thesis' ISCU, notes 4.4): the contraction's elements
# come from load_iru too; BFS writes each keep flag at the element's
# original position, PageRank's pairs are grouped by the line of next.
for mode in functional lt at; do
  for w in bfs-frontier pagerank; do
    for g in karate.mtx as20graph.txt; do
      run_passes "$w iscu contract=iru $g $mode matches the CPU reference" \
        -p "$EX/tiny-iscu.json" -w $w --arg version=iscu --arg contract=iru \
        --arg "input=$D/$g" --timing $mode
    done
  done
done
"$T" run -p "$EX/gtx980-iscu.json" -w bfs-frontier --arg version=iscu --arg contract=iru \
  --arg "input=$D/as20graph.txt" --timing lt --out "$TMP/ci" >"$TMP/ci.log" 2>&1
check "gtx980-iscu: bfs-frontier iscu contract=iru passes (lt)" $?
grep -q "version iscu (6 contractions on the IRU)" "$TMP/ci.log"
check "contract=iru: the summary counts the contractions on the IRU" $?
# The plain SCU version still runs on the ISCU platform (no filter involved).
run_passes "tiny-iscu: bfs-frontier scu passes (lt)" \
  -p "$EX/tiny-iscu.json" -w bfs-frontier --arg version=scu --arg "input=$D/karate.mtx" --timing lt

# Where the work went: on as20graph the IRU drops duplicates of the edge
# frontier; the SCU neither touches a hash table nor fetches the data back.
for mode in lt at; do
  "$T" run -p "$EX/tiny-iscu.json" -w bfs-frontier --arg version=iscu \
    --arg "input=$D/as20graph.txt" --timing $mode --quiet --out "$TMP/s" >/dev/null 2>&1
  merged=$(stat_sum "$TMP/s/stats.json" merged)
  python3 - "$TMP/s/stats.json" "$merged" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["total"]["gpu"]["scu"]
v = lambda k: s[k]["value"]
merged = float(sys.argv[2])
ok = (v("iru_elements") > 10000 and v("filtered") > 1000 and merged == v("filtered")
      and v("hash_reads") == 0 and v("hash_writes") == 0 and v("iru_replies") > 0)
if not ok:
    print({k: v(k) for k in ("iru_elements", "filtered", "hash_reads", "iru_replies")}, merged)
sys.exit(0 if ok else 1)
PY
  check "iscu $mode: the IRU filtered the expansion (merged = filtered > 1000, no hash access)" $?
done

# The persistent filter (iru.filter_residue, notes P20): the sets remember
# the IDs they replied, so vertices seen at earlier levels are dropped too;
# the BFS stays exact. Off (0) it filters within each operation only.
for r in 0 32; do
  "$T" run -p "$EX/gtx980-iscu.json" -w bfs-frontier --arg version=iscu \
    --arg "input=$D/as20graph.txt" --timing at --set iru.filter_residue=$r --quiet \
    --out "$TMP/r$r" >/dev/null 2>&1
  check "iscu with iru.filter_residue=$r passes (at)" $?
done
python3 - "$TMP/r0/stats.json" "$TMP/r32/stats.json" <<'PY'
import json, sys
def v(f, k):
    return json.load(open(f))["total"]["gpu"]["scu"][k]["value"]
ok = v(sys.argv[2], "filtered") > v(sys.argv[1], "filtered") + 3000
sys.exit(0 if ok else 1)
PY
check "iscu: remembered IDs filter at least 3,000 more elements (15,536 -> 19,752)" $?
r=$(stat_sum "$TMP/r32/stats.json" remembered)
r0=$(stat_sum "$TMP/r0/stats.json" remembered)
check "iscu: the residue's drops are counted (remembered $r0 -> $r)" \
  "$(python3 -c "import sys; sys.exit(0 if $r0 == 0 and $r > 3000 else 1)"; echo $?)"

expect_error "iscu without the IRU filter unit" 2 "version: iscu needs" "scu.filter_unit = iru" -- \
  run -p "$2/examples/scu/tiny-scu.json" -w bfs-frontier --arg version=iscu \
  --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "scu-filter on an ISCU platform" 2 "version: scu-filter" "use version=iscu" -- \
  run -p "$EX/tiny-iscu.json" -w bfs-frontier --arg version=scu-filter \
  --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "iscu with the IRU disabled" 2 "version: iscu needs" -- \
  run -p "$EX/tiny-iscu.json" -w bfs-frontier --arg version=iscu --set iru.enabled=false \
  --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "unknown filter unit" 2 "scu.filter_unit" -- \
  run -p "$EX/tiny-iscu.json" -w bfs-frontier --arg version=iscu --set scu.filter_unit=memory \
  --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "contract=iru without the ISCU" 2 "workload argument contract" "version=iscu" -- \
  run -p "$EX/tiny-iscu.json" -w bfs-frontier --arg version=scu --arg contract=iru \
  --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "an unknown contract" 2 "workload argument contract" "'gpu'" -- \
  run -p "$EX/tiny-iscu.json" -w pagerank --arg version=iscu --arg contract=gpu \
  --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "zero IRU requests" 2 "scu.iru_requests" -- \
  run -p "$EX/tiny-iscu.json" -w bfs-frontier --arg version=iscu --set scu.iru_requests=0 \
  --arg "input=$D/karate.mtx" --out "$TMP/e"

finish iscu
