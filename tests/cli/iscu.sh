#!/usr/bin/env bash
# The ISCU (models/scu README "ISCU": the SCU with scu.filter_unit = iru,
# its filtering done by the IRU partitions): bfs-frontier version=iscu
# matches the CPU reference in every timing mode on tiny-iscu and
# gtx980-iscu; the IRU did the filtering (elements merged in its hash, none
# through the in-memory table, the SCU's data never fetched back); and the
# versions and platforms that do not fit are one clear error each.
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
expect_error "zero IRU requests" 2 "scu.iru_requests" -- \
  run -p "$EX/tiny-iscu.json" -w bfs-frontier --arg version=iscu --set scu.iru_requests=0 \
  --arg "input=$D/karate.mtx" --out "$TMP/e"

finish iscu
