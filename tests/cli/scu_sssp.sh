#!/usr/bin/env bash
# SSSP on the stream compaction unit (workloads/graph_apps/sssp_scu.hpp):
# sssp version=scu (expansion, weight frontier, source costs and the next
# frontier compacted by the SCU), scu-filter (with the unique-best-cost
# filter's table in device memory), scu-filter-group (and grouping by the
# line of dist, Fig. 4.10: gather lists applied with the filter vector) and
# iscu (that filter in the IRU
# partitions) match the CPU Dijkstra in every timing mode on unweighted and
# weighted graphs; the filters drop arcs (through the table, in the IRU);
# the platforms that do not fit are one clear error each. gpu-merrill (the
# thesis' GPU baseline, merrill.hpp) runs on the same platforms and must
# match too.
#
# usage: bash tests/cli/scu_sssp.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
D="$2/../shared/data"
EX="$2/examples/scu"
RMAT='gen:rmat?scale=9&ef=8&seed=1&wmax=64'

for mode in functional lt at; do
  for v in scu scu-filter scu-filter-group gpu-merrill; do
    for g in "$D/karate.mtx" "$D/as20graph.txt" "$RMAT"; do
      run_passes "sssp $v ${g##*/} $mode matches the CPU reference" \
        -p "$EX/tiny-scu.json" -w sssp --arg version=$v --arg "input=$g" --timing $mode
    done
  done
done
for mode in functional lt at; do
  for g in "$D/karate.mtx" "$D/as20graph.txt" "$RMAT"; do
    run_passes "sssp iscu ${g##*/} $mode matches the CPU reference" \
      -p "$2/examples/iscu/tiny-iscu.json" -w sssp --arg version=iscu --arg "input=$g" \
      --timing $mode
  done
done
run_passes "gtx980-iscu: sssp iscu passes (at)" \
  -p "$2/examples/iscu/gtx980-iscu.json" -w sssp --arg version=iscu --arg "input=$RMAT" --timing at
for p in gtx980-scu tx1-scu; do
  run_passes "$p: sssp scu-filter passes (at)" \
    -p "$EX/$p.json" -w sssp --arg version=scu-filter --arg "input=$RMAT" --timing at
done
# A table of 1 set (16 entries for 512 vertices): evictions all the time,
# still exact (false negatives only).
run_passes "sssp scu-filter with a 1-set table passes (lt)" \
  -p "$EX/tiny-scu.json" -w sssp --arg version=scu-filter --arg hash_sets=1 \
  --arg "input=$RMAT" --timing lt
# The ISCU platform runs the unfiltered version (its SCU filters in the IRU).
run_passes "tiny-iscu: sssp scu passes (lt)" \
  -p "$2/examples/iscu/tiny-iscu.json" -w sssp --arg version=scu --arg "input=$D/karate.mtx" \
  --timing lt

# Where the work went: scu-filter's table dropped arcs (and was read and
# written through L2); scu filtered nothing; both ran four SCU operations or
# more per round.
for v in scu scu-filter; do
  "$T" run -p "$EX/tiny-scu.json" -w sssp --arg version=$v --arg "input=$RMAT" --timing lt \
    --quiet --out "$TMP/$v" >/dev/null 2>&1
done
python3 - "$TMP/scu/stats.json" "$TMP/scu-filter/stats.json" <<'PY'
import json, sys
plain, filt = (json.load(open(f))["total"]["gpu"]["scu"] for f in sys.argv[1:3])
v = lambda s, k: s[k]["value"]
ok = (v(plain, "filtered") == 0 and v(plain, "hash_reads") == 0 and v(plain, "ops") >= 8
      and v(filt, "filtered") > 500 and v(filt, "hash_reads") > 0 and v(filt, "hash_writes") > 0
      and v(filt, "elements_out") < v(plain, "elements_out"))
if not ok:
    print({k: (v(plain, k), v(filt, k)) for k in ("filtered", "hash_reads", "ops", "elements_out")})
sys.exit(0 if ok else 1)
PY
check "scu-filter: the best-cost table drops arcs (filtered > 500, hash read and written)" $?
# scu-filter-group: about the same filtering, two generate-group operations more
# per round (expansion and next frontier), the table read and written, and
# the GPU's accesses grouped: sssp_prepare's line requests fall by a third
# or more (on tx1-scu, RMAT 12: -68 % when written) and so do
# sssp_contract's atomic requests (-15 %).
for v in scu-filter scu-filter-group; do
  "$T" run -p "$EX/tx1-scu.json" -w sssp --arg version=$v \
    --arg 'input=gen:rmat?scale=12&ef=16&wmax=64' --timing lt --quiet --out "$TMP/g-$v" \
    >/dev/null 2>&1
  check "tx1-scu: sssp $v on RMAT 12 passes (lt)" $?
done
python3 - "$TMP/g-scu-filter/stats.json" "$TMP/g-scu-filter-group/stats.json" <<'PY'
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:3]]
scu = [r["total"]["gpu"]["scu"] for r in runs]
v = lambda s, k: s[k]["value"]
def kernel(r, name, metric):
    return sum(k["metrics"][metric] for k in r["kernels"] if k["name"] == name)
rounds = sum(1 for k in runs[0]["kernels"] if k["name"] == "sssp_prepare")
prep = [kernel(r, "sssp_prepare", "global_requests") for r in runs]
atom = [kernel(r, "sssp_contract", "atomic_requests") for r in runs]
# The filter sees the frontier in another order, so it keeps other copies.
ok = (abs(v(scu[1], "filtered") - v(scu[0], "filtered")) < 0.05 * v(scu[0], "filtered")
      and v(scu[1], "ops") >= v(scu[0], "ops") + 2 * rounds - 1
      and v(scu[1], "hash_reads") > v(scu[0], "hash_reads")
      and prep[1] < 0.67 * prep[0] and atom[1] < atom[0])
print("ops", [v(s, "ops") for s in scu], "prepare requests", prep, "contract atomics", atom)
sys.exit(0 if ok else 1)
PY
check "scu-filter-group: grouped by line of dist, the GPU's requests fall" $?
for mode in lt at; do
  "$T" run -p "$2/examples/iscu/tiny-iscu.json" -w sssp --arg version=iscu --arg "input=$RMAT" \
    --timing $mode --quiet --out "$TMP/i" >/dev/null 2>&1
  merged=$(stat_sum "$TMP/i/stats.json" merged)
  python3 - "$TMP/i/stats.json" "$merged" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["total"]["gpu"]["scu"]
v = lambda k: s[k]["value"]
ok = (v("filtered") > 500 and v("filtered") == float(sys.argv[2]) and v("hash_reads") == 0
      and v("iru_replies") > 0)
if not ok:
    print({k: v(k) for k in ("filtered", "hash_reads", "iru_replies")}, sys.argv[2])
sys.exit(0 if ok else 1)
PY
  check "iscu $mode: the IRU merged arcs (merged = filtered > 500, no hash access)" $?
done

expect_error "no SCU on the platform" 2 "version: scu needs a platform with an SCU" -- \
  run -p tiny -w sssp --arg version=scu --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "scu-filter on an ISCU platform" 2 "version: scu-filter" "use version=iscu" -- \
  run -p "$2/examples/iscu/tiny-iscu.json" -w sssp --arg version=scu-filter \
  --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "scu-filter-group on an ISCU platform" 2 "version: scu-filter-group" -- \
  run -p "$2/examples/iscu/tiny-iscu.json" -w sssp --arg version=scu-filter-group \
  --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "iscu without the IRU filter unit" 2 "version: iscu needs" -- \
  run -p "$EX/tiny-scu.json" -w sssp --arg version=iscu --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "unknown version" 2 "version" "'cpu'" "scu-filter" -- \
  run -p tiny -w sssp --arg version=cpu --arg "input=$D/karate.mtx" --out "$TMP/e"

finish scu_sssp
