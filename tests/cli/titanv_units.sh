#!/usr/bin/env bash
# Issue 16 item 7: the SCU, IRU and ISCU on Titan V (examples/scu/titanv-scu,
# iru/titanv-iru, iscu/titanv-iscu: the thesis' units on 80 SMs and 24
# memory partitions) and each with a LAB-8 in every SM's path: BFS, SSSP and
# PageRank in every unit version match the CPU reference, the units do the
# work (SCU operations, IRU elements, the LAB taking the contraction's
# atomics), the 24-partition IRU ring hands out every element, and lt
# books the ring's links (PageRank within 20 % of at).
#
# usage: bash tests/cli/titanv_units.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
D="$2/../shared/data"
SCU="$2/examples/scu/titanv-scu.json"
IRU="$2/examples/iru/titanv-iru.json"
ISCU="$2/examples/iscu/titanv-iscu.json"
RMAT='gen:rmat?scale=9&ef=8&seed=1'

for lab in 0 8; do
  set_lab=()
  [[ $lab -gt 0 ]] && set_lab=(--set "lab.entries=$lab")
  for w in bfs-frontier sssp pagerank; do
    for pv in "$SCU:scu" "$IRU:iru" "$ISCU:iscu"; do
      run_passes "titanv LAB-$lab: $w ${pv##*:} (lt) matches the CPU reference" \
        -p "${pv%:*}" -w "$w" --arg "version=${pv##*:}" --arg "input=$D/as20graph.txt" \
        --timing lt "${set_lab[@]}"
    done
  done
  run_passes "titanv LAB-$lab: sssp scu-filter-group (at) matches the CPU reference" \
    -p "$SCU" -w sssp --arg version=scu-filter-group --arg "input=$RMAT&wmax=64" --timing at \
    "${set_lab[@]}"
  run_passes "titanv LAB-$lab: bfs-frontier scu-filter (at) matches the CPU reference" \
    -p "$SCU" -w bfs-frontier --arg version=scu-filter --arg "input=$RMAT" --timing at \
    "${set_lab[@]}"
  run_passes "titanv LAB-$lab: pagerank iscu (at) matches the CPU reference" \
    -p "$ISCU" -w pagerank --arg version=iscu --arg "input=$RMAT" --timing at "${set_lab[@]}"
done

# The units did the work: PageRank on the ISCU ran SCU operations whose
# arcs the 24 IRU partitions merged, and with a LAB-8 its contraction's
# float reds went through the LABs (none without).
for lab in 0 8; do
  "$T" run -p "$ISCU" -w pagerank --arg version=iscu --arg "input=$D/as20graph.txt" \
    --timing lt --set "lab.entries=$lab" --quiet --out "$TMP/l$lab" >/dev/null 2>&1
done
python3 - "$TMP/l0/stats.json" "$TMP/l8/stats.json" <<'PY'
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:3]]
def total(s, prefix, key):
    g = s["total"]["gpu"]
    return sum(b[key]["value"] for k, b in g.items() if k.startswith(prefix) and key in b)
lab = [sum(k["metrics"]["lab_accesses"] for k in r["kernels"]) for r in runs]
scu = runs[0]["total"]["gpu"]["scu"]
iru_parts = [k for k in runs[0]["total"]["gpu"] if k.startswith("iru_")]
ok = (scu["ops"]["value"] == 10 and scu["filtered"]["value"] > 100000
      and len(iru_parts) == 24 and total(runs[0], "iru_", "lines_read") > 0
      and lab[0] == 0 and lab[1] > 1000)
print("ops", scu["ops"]["value"], "filtered", scu["filtered"]["value"], "partitions",
      len(iru_parts), "lab accesses", lab)
sys.exit(0 if ok else 1)
PY
check "titanv-iscu: 10 SCU ops, 24 IRU partitions merging, the LAB-8 takes the reds" $?

# lt books the IRU ring's links as at occupies them: on 24 partitions the
# ring is what bounds PageRank's contraction, and lt without the booking
# ran it 4x faster than at (13,311 against 54,035 cycles; now 53,757).
for mode in lt at; do
  "$T" run -p "$IRU" -w pagerank --arg version=iru --arg 'input=gen:rmat?scale=10&ef=16' \
    --arg iterations=3 --timing $mode --quiet --out "$TMP/r$mode" >/dev/null 2>&1
done
python3 - "$TMP/rlt/stats.json" "$TMP/rat/stats.json" <<'PY'
import json, sys
lt, at = (json.load(open(f))["simulated"]["cycles"] for f in sys.argv[1:3])
print("iru pagerank lt", lt, "at", at)
sys.exit(0 if 0.8 * at <= lt <= 1.2 * at else 1)
PY
check "titanv-iru: lt's PageRank cycles within 20 % of at's (the ring's links booked)" $?

finish titanv_units
