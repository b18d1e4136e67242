#!/usr/bin/env bash
# PageRank on the stream compaction unit (workloads/graph_apps/pagerank.cpp):
# pagerank version=scu (the expansion's edge and weight frontiers compacted
# by the SCU, thesis Fig. 4.7) and scu-group (a generate-group operation
# first: the grouping table in device memory puts arcs with targets in one
# line together, and both expansions apply that gather list) match the CPU
# reference in every timing mode; grouping goes through its table and makes
# the contraction touch fewer lines; a platform without an SCU is one clear
# error. iscu (filtering as a reduction, notes P16: one SCU operation
# whose arcs the IRU partitions merge by head with add_f32) likewise, and
# gpu-merrill, the thesis' GPU baseline they are compared with.
#
# usage: bash tests/cli/scu_pagerank.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
D="$2/../shared/data"
EX="$2/examples/scu"
RMAT='gen:rmat?scale=9&ef=8&seed=1'

# Each version x graph x timing mode against the CPU reference.
for g in "$D/karate.mtx" "$D/as20graph.txt" "$RMAT"; do
  for run in scu:functional scu:lt scu:at scu-group:functional scu-group:lt scu-group:at; do
    run_passes "pagerank ${run%:*} ${g##*/} ${run#*:} matches the CPU reference" \
      -p "$EX/tiny-scu.json" -w pagerank --arg version=${run%:*} --arg "input=$g" \
      --timing ${run#*:}
  done
done
for p in gtx980-scu tx1-scu; do
  run_passes "$p: pagerank scu-group passes (at)" \
    -p "$EX/$p.json" -w pagerank --arg version=scu-group --arg "input=$RMAT" --timing at
done
# iscu: the IRU partitions merge equal heads, adding their shares (notes
# P16); the sums must still give the reference ranks.
for g in "$D/karate.mtx" "$D/as20graph.txt" "$RMAT"; do
  for mode in functional lt at; do
    run_passes "pagerank iscu ${g##*/} $mode matches the CPU reference" \
      -p "$2/examples/iscu/tiny-iscu.json" -w pagerank --arg version=iscu --arg "input=$g" \
      --timing $mode
  done
done
run_passes "gtx980-iscu: pagerank iscu passes (at)" \
  -p "$2/examples/iscu/gtx980-iscu.json" -w pagerank --arg version=iscu --arg "input=$RMAT" \
  --timing at
# gpu-merrill (the thesis' GPU baseline: merrill.hpp's load-balanced
# expansion writes the edge frontier and each arc's share, then
# pr_contract), any platform, also with a partial last warp per CTA.
for g in "$D/karate.mtx" "$D/as20graph.txt" "$RMAT"; do
  for mode in functional lt at; do
    run_passes "pagerank gpu-merrill ${g##*/} $mode matches the CPU reference" \
      -p "$EX/tiny-scu.json" -w pagerank --arg version=gpu-merrill --arg "input=$g" \
      --timing $mode
  done
done
run_passes "pagerank gpu-merrill with block 100 matches the CPU reference" \
  -p tiny -w pagerank --arg version=gpu-merrill --arg block=100 \
  --arg "input=$D/as20graph.txt" --timing lt
# Its mechanisms on GTX 980 (as20graph: 6,474 vertices in 26 CTAs of 256,
# the hub has 1,459 arcs): one reservation per CTA and round, and every
# expansion gathers the hub cooperatively (one lane would take ~600K cycles).
"$T" run -p "$EX/gtx980-scu.json" -w pagerank --arg version=gpu-merrill \
  --arg "input=$D/as20graph.txt" --timing lt --quiet --out "$TMP/m" >/dev/null 2>&1
check "gpu-merrill on gtx980-scu passes (lt)" $?
python3 - "$TMP/m/stats.json" <<'PY'
import json, sys
ks = json.load(open(sys.argv[1]))["kernels"]
ex = [k for k in ks if k["name"] == "pr_merrill_expand"]
con = [k for k in ks if k["name"] == "pr_contract"]
ok = (len(ex) == 10 and len(con) == 10
      and all(k["metrics"]["atomic_instructions"] == 26 for k in ex)
      and max(k["cycles"] for k in ex) < 40000)
print([k["cycles"] for k in ex])
sys.exit(0 if ok else 1)
PY
check "gpu-merrill: cooperative expansions, one reservation per CTA and round" $?

# A grouping table of 1 set: evictions all the time, still every arc once.
run_passes "pagerank scu-group with a 1-set table passes (lt)" \
  -p "$EX/tiny-scu.json" -w pagerank --arg version=scu-group --arg group_sets=1 \
  --arg "input=$RMAT" --timing lt

# Where the work went: scu-group read and wrote its table through L2 and ran
# three SCU operations per round (scu: two, no table); the contraction's
# atomics, grouped by target line, touch fewer lines per warp instruction:
# atomic requests (kernel metric) fall by 10 % or more (18 % when written).
for v in scu scu-group; do
  "$T" run -p "$EX/tiny-scu.json" -w pagerank --arg version=$v --arg "input=$RMAT" --timing lt \
    --quiet --out "$TMP/$v" >/dev/null 2>&1
done
python3 - "$TMP/scu/stats.json" "$TMP/scu-group/stats.json" <<'PY'
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:3]]
plain, grp = (r["total"]["gpu"] for r in runs)
v = lambda s, k: s["scu"][k]["value"]
atomics = [r["metrics"]["atomic_requests"] for r in runs]
ok = (v(plain, "hash_reads") == 0 and v(plain, "ops") == 20 and v(grp, "ops") == 30
      and v(grp, "hash_reads") > 0 and v(grp, "hash_writes") > 0
      and v(grp, "elements_out") == 1.5 * v(plain, "elements_out")
      and atomics[1] < 0.9 * atomics[0])
print({k: (v(plain, k), v(grp, k)) for k in ("ops", "hash_reads", "hash_writes", "elements_out")},
      "atomic requests", atomics)
sys.exit(0 if ok else 1)
PY
check "scu-group: the table is used, and the contraction's atomic requests fall by 10 %" $?

expect_error "no SCU on the platform" 2 "version: scu needs a platform with an SCU" -- \
  run -p tiny -w pagerank --arg version=scu --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "no SCU on the platform (scu-group)" 2 "version: scu-group needs a platform" -- \
  run -p tiny -w pagerank --arg version=scu-group --arg "input=$D/karate.mtx" --out "$TMP/e"
for mode in lt at; do
  "$T" run -p "$2/examples/iscu/tiny-iscu.json" -w pagerank --arg version=iscu \
    --arg "input=$RMAT" --timing $mode --quiet --out "$TMP/i" >/dev/null 2>&1
  merged=$(stat_sum "$TMP/i/stats.json" merged)
  python3 - "$TMP/i/stats.json" "$merged" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["total"]["gpu"]["scu"]
v = lambda k: s[k]["value"]
ok = (v("ops") == 10 and v("filtered") > 0.5 * v("iru_elements")
      and v("filtered") == float(sys.argv[2]) and v("hash_reads") == 0
      and v("elements_out") + v("filtered") == v("iru_elements"))
if not ok:
    print({k: v(k) for k in ("ops", "filtered", "iru_elements", "elements_out")}, sys.argv[2])
sys.exit(0 if ok else 1)
PY
  check "iscu $mode: one SCU op per round; the IRU merged over half the arcs (merged = filtered)" $?
done

expect_error "iscu without the IRU filter unit" 2 "version: iscu needs" -- \
  run -p "$EX/tiny-scu.json" -w pagerank --arg version=iscu --arg "input=$D/karate.mtx" \
  --out "$TMP/e"
expect_error "unknown version" 2 "version" "'cpu'" "scu-group" -- \
  run -p tiny -w pagerank --arg version=cpu --arg "input=$D/karate.mtx" --out "$TMP/e"

finish scu_pagerank
