#!/usr/bin/env bash
# The graph workloads on the irregular-access reorder unit (models/iru):
# bfs-frontier, sssp and pagerank with version=iru (the contraction takes
# its elements from load_iru) and version=edge-frontier (the same kernels
# reading the frontier arrays) match the CPU reference in every timing mode;
# the IRU really delivered, reordered and merged the elements (its stats,
# fewer atomic requests than the baseline's contraction); iru.enabled=false
# falls back to the frontier arrays; a platform without an IRU, a bad
# version or a partial warp is one clear error.
#
# usage: bash tests/cli/iru.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
D="$2/../shared/data"
EX="$2/examples/iru"
RMAT='gen:rmat?scale=9&ef=8&seed=1&wmax=16'

run() { # out-dir, tlmgpu run arguments...: the exit code
  local o=$1
  shift
  "$T" run "$@" --quiet --out "$TMP/$o" >"$TMP/$o.log" 2>&1
}

for mode in functional lt at; do
  for w in bfs-frontier sssp pagerank; do
    for v in edge-frontier iru; do
      for g in "$D/karate.mtx" "$RMAT"; do
        run o -p "$EX/tiny-iru.json" -w $w --arg version=$v --arg "input=$g" --timing $mode
        rc=$?
        check "$w $v ${g##*/} $mode matches the CPU reference (exit $rc)" \
          "$([[ $rc -eq 0 ]]; echo $?)"
      done
    done
  done
done

# stats.json DIR WORKLOAD: the IRU's counters summed over its partitions and
# the atomic requests of the contraction kernels, as "name value" lines.
iru_stats() {
  python3 - "$TMP/$1/stats.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
kernel = {"bfs-frontier": "bfs_contract", "sssp": "sssp_contract", "pagerank": "pr_contract"}[sys.argv[2]]
sums = {}
for k, v in s["total"]["gpu"].items():
    if k.startswith("iru_"):
        for c in ("elements", "merged", "replied", "requests", "replies_inactive"):
            sums[c] = sums.get(c, 0) + v[c]["value"]
sums["contract_atomics"] = sum(k["metrics"]["atomic_requests"] for k in s["kernels"]
                               if k["name"] == kernel)
for c, v in sums.items():
    print(c, int(v))
PY
}
get() { awk -v k="$2" '$1 == k { print $2 }' "$TMP/$1.stats"; }

# The IRU at work, per workload, in lt and at on the GTX 980 IRU (4
# partitions): every element classified; PageRank and SSSP merge equal
# destinations (add_f32, min_u32) and so send fewer atomic requests than
# the same contraction reading the frontier arrays.
for mode in lt at; do
  for w in bfs-frontier sssp pagerank; do
    extra=()
    [[ $w == pagerank ]] && extra=(--arg iterations=2)
    run b -p "$EX/gtx980-iru.json" -w $w --arg version=edge-frontier --arg "input=$RMAT" \
      --timing $mode "${extra[@]}"
    check "$w edge-frontier on gtx980-iru $mode passes" $?
    run i -p "$EX/gtx980-iru.json" -w $w --arg version=iru --arg "input=$RMAT" \
      --timing $mode "${extra[@]}"
    check "$w iru on gtx980-iru $mode passes" $?
    iru_stats b $w >"$TMP/b.stats"
    iru_stats i $w >"$TMP/i.stats"
    elements=$(get i elements) merged=$(get i merged)
    check "$w $mode: the IRU classified elements ($elements) and replied ($(get i replied))" \
      "$([[ $elements -gt 1000 && $(get i replied) -gt 0 && $(get b elements) -eq 0 ]]; echo $?)"
    if [[ $w != bfs-frontier ]]; then
      base=$(get b contract_atomics) iru=$(get i contract_atomics)
      check "$w $mode: merged $merged of $elements; contraction atomics $iru < $base" \
        "$([[ $merged -gt 0 && $iru -lt $base ]]; echo $?)"
    fi
  done
done

# iru.enabled=false: placed but idle; the host runs the frontier kernels.
"$T" run -p "$EX/tiny-iru.json" -w sssp --arg version=iru --arg "input=$RMAT" \
  --set iru.enabled=false --out "$TMP/o" >"$TMP/o.log" 2>&1
check "iru.enabled=false: sssp version=iru passes without the IRU" $?
iru_stats o sssp >"$TMP/o.stats"
check "iru.enabled=false: the IRU classified nothing" "$([[ $(get o elements) -eq 0 ]]; echo $?)"
grep -q "iru.enabled = false" "$TMP/o.log"
check "iru.enabled=false: the summary says the contractions read the frontier arrays" $?

# The checks can fail: corrupt=1 changes one result after an IRU run.
for w in bfs-frontier sssp pagerank; do
  run o -p "$EX/tiny-iru.json" -w $w --arg version=iru --arg "input=$D/karate.mtx" --arg corrupt=1
  check "$w iru corrupt=1 fails its check" "$([[ $? -eq 1 ]]; echo $?)"
done

for w in bfs-frontier sssp pagerank; do
  expect_error "$w: no IRU on the platform" 2 "version: iru needs a platform with an IRU" -- \
    run -p tiny -w $w --arg version=iru --arg "input=$D/karate.mtx" --out "$TMP/e"
done
expect_error "unknown version" 2 "version" "'iru2'" "edge-frontier or iru" -- \
  run -p tiny -w sssp --arg version=iru2 --arg "input=$D/karate.mtx" --out "$TMP/e"
expect_error "partial warps" 2 "block" "32-lane" -- \
  run -p "$EX/tiny-iru.json" -w pagerank --arg version=iru --arg block=48 \
  --arg "input=$D/karate.mtx" --out "$TMP/e"

finish iru
