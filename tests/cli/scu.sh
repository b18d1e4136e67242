#!/usr/bin/env bash
# The stream compaction unit (models/scu) in a platform: bfs-frontier with
# version=scu (expansion and contraction on the SCU), scu-filter (with the
# unique filter's hash table in memory), version=gpu and gpu-merrill (the
# thesis' GPU baseline: cooperative gathering, CTA-scan compaction) match
# the CPU reference in every timing mode, on the tiny, GTX 980 and TX1
# variants; a platform without an SCU or a wrong version is one clear error.
#
# usage: bash tests/cli/scu.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
D="$2/../shared/data"
EX="$2/examples/scu"

for mode in functional lt at; do
  for v in gpu gpu-merrill scu scu-filter; do
    for g in karate.mtx as20graph.txt; do
      "$T" run -p "$EX/tiny-scu.json" -w bfs-frontier --arg version=$v --arg "input=$D/$g" \
        --timing $mode --quiet --out "$TMP/o" >"$TMP/log" 2>&1
      rc=$?
      check "bfs-frontier $v $g $mode matches the CPU reference (exit $rc)" \
        "$([[ $rc -eq 0 ]]; echo $?)"
    done
  done
done
# The SCU did the compactions: 2 operations per level, elements moved.
"$T" run -p "$EX/tiny-scu.json" -w bfs-frontier --arg version=scu --arg "input=$D/as20graph.txt" \
  --timing at --quiet --out "$TMP/s" >/dev/null 2>&1
python3 - "$TMP/s/stats.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["total"]["gpu"]["scu"]
ok = s["ops"]["value"] >= 2 and s["elements_out"]["value"] > 6000 and s["cycles"]["value"] > 0
sys.exit(0 if ok else 1)
PY
check "scu stats: operations, elements and SCU cycles are counted" $?
# The filter drops duplicates on an as20graph expansion and the result stays exact.
"$T" run -p "$EX/tiny-scu.json" -w bfs-frontier --arg version=scu-filter \
  --arg "input=$D/as20graph.txt" --timing lt --quiet --out "$TMP/f" >/dev/null 2>&1
python3 - "$TMP/f/stats.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["total"]["gpu"]["scu"]
sys.exit(0 if s["filtered"]["value"] > 1000 and s["hash_reads"]["value"] > 0 else 1)
PY
check "scu-filter drops duplicate edge-frontier elements" $?
# gpu-merrill with a partial last warp per CTA (block 100 of 32-lane warps,
# 96 of 64-lane warps): the warp gather strides by the lanes that exist.
for set in "--arg block=100" "--arg block=96 --set sm.warp_size=64"; do
  # shellcheck disable=SC2086 # $set is two or four words on purpose
  "$T" run -p "$EX/tiny-scu.json" -w bfs-frontier --arg version=gpu-merrill $set \
    --arg "input=$D/as20graph.txt" --timing lt --quiet --out "$TMP/q" >/dev/null 2>&1
  check "gpu-merrill $set matches the CPU reference" $?
done
# gpu-merrill's mechanisms on GTX 980 from the hub (1,459 arcs): the first
# expansion spreads the hub over the CTA (the gpu version's one lane takes
# about 620K cycles), and expansions reserve their output with one atomic
# per CTA (at most 26 CTAs over all levels of 6,474 vertices, + 1 per level).
"$T" run -p "$EX/gtx980-scu.json" -w bfs-frontier --arg version=gpu-merrill \
  --arg "input=$D/as20graph.txt" --timing lt --quiet --out "$TMP/m" >/dev/null 2>&1
check "gpu-merrill on gtx980-scu passes (lt)" $?
python3 - "$TMP/m/stats.json" <<'PY'
import json, sys
ks = json.load(open(sys.argv[1]))["kernels"]
ex = [k for k in ks if k["name"] == "bfs_merrill_expand"]
atomics = sum(k["metrics"]["atomic_instructions"] for k in ex)
ok = ex and ex[0]["cycles"] < 20000 and ex[0]["metrics"]["atomic_instructions"] == 1
sys.exit(0 if ok and atomics <= 26 + len(ex) else 1)
PY
check "gpu-merrill: the hub's expansion is cooperative, one reservation per CTA" $?
for p in gtx980-scu tx1-scu; do
  "$T" run -p "$EX/$p.json" -w bfs-frontier --arg version=scu --arg "input=$D/as20graph.txt" \
    --timing at --quiet --out "$TMP/p" >"$TMP/log" 2>&1
  rc=$?
  check "$p: bfs-frontier scu passes (at; exit $rc)" "$([[ $rc -eq 0 ]]; echo $?)"
done

# A run's metrics.cycles (what a sweep compares) counts the SCU's
# operations as well as the kernels: here the whole simulated time.
"$T" run -p "$EX/gtx980-scu.json" -w bfs-frontier --arg version=scu --arg "input=$D/as20graph.txt" \
  --timing lt --quiet --out "$TMP/c" >/dev/null 2>&1
python3 - "$TMP/c/stats.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
g = s["total"]["gpu"]
k, u, m = g["kernel_cycles"]["value"], g["scu"]["cycles"]["value"], s["metrics"]["cycles"]
print("kernels", k, "scu", u, "metrics.cycles", m, "simulated", s["simulated"]["cycles"])
sys.exit(0 if u > 0 and m == k + u and abs(m - s["simulated"]["cycles"]) <= 2 else 1)
PY
check "metrics.cycles = kernel cycles + SCU cycles (the run's time)" $?

expect_error "no SCU on the platform" 2 "version: scu needs a platform with an SCU" -- \
  run -p tiny -w bfs-frontier --arg version=scu --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "unknown version" 2 "version" "'cpu'" "scu-filter" -- \
  run -p tiny -w bfs-frontier --arg version=cpu --arg "input=$D/karate.mtx" --out "$TMP/e"

finish scu
