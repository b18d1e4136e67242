#!/usr/bin/env bash
# The SCU, IRU and static energy categories and the units' area in a run's
# stats.json metrics (models/energy/README.md), recomputed here from the
# run's own counters (stats.json total) and parameters (config.json): the
# SCU and IRU categories equal counts x per-event energies, static energy
# is power x simulated time for the GPU and each unit placed, a run without
# a unit has none of its energy or area, a platform with neither units
# nor static power keeps the LAB paper's seven-category total exactly, and
# the IRU's ring element hops (its route lengths) agree in lt and at.
#
# usage: bash tests/cli/energy.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
G="$2/../shared/data/karate.mtx"

go() { # dir, args...: one run, quiet; its summary in dir.log
  local d=$1
  shift
  "$T" run "$@" --out "$TMP/$d" >"$TMP/$d.log" 2>&1
  check "run $d (exit $?)" $?
}
go scu -p "$2/examples/scu/gtx980-scu.json" -w bfs-frontier --arg version=scu-filter \
  --input "$G" --timing lt
go iru -p "$2/examples/iru/gtx980-iru.json" -w bfs-frontier --arg version=iru --input "$G" \
  --timing at
go iru-lt -p "$2/examples/iru/gtx980-iru.json" -w bfs-frontier --arg version=iru --input "$G" \
  --timing lt
go iscu -p "$2/examples/iscu/gtx980-iscu.json" -w bfs-frontier --arg version=iscu --input "$G" \
  --timing lt
go gpu -p "$2/platforms/gtx980.json" -w bfs-frontier --arg version=gpu --input "$G" --timing lt
go lab -p "$2/platforms/tiny.json" -w histogram --arg n=4096 --timing lt

python3 - "$TMP" <<'PY'
import json, sys
tmp = sys.argv[1]
fails = []
def near(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
def case(name, ok):
    if not ok:
        fails.append(name)
def load(d):
    s = json.load(open(f"{tmp}/{d}/stats.json"))
    c = json.load(open(f"{tmp}/{d}/config.json"))["platform"]
    return s, c["energy"], c["area"]
def total(g, prefix, stat):
    return sum(b[stat]["value"] for k, b in g.items() if k.startswith(prefix) and stat in b)
def expected(s, e):
    g = s["total"]["gpu"]
    scu = ((total(g, "scu", "elements_in") + total(g, "scu", "data_elements")
            + total(g, "scu", "elements_out")) * e["scu_element_stage"]
           + (total(g, "scu", "data_reads") + total(g, "scu", "merged_groups"))
           * e["scu_coalescer_access"]
           + (total(g, "scu", "hash_reads") + total(g, "scu", "hash_writes"))
           * e["scu_hash_access"])
    iru = (total(g, "iru", "elements") * e["iru_element"]
           + (total(g, "iru", "inserted") + total(g, "iru", "merged")) * e["iru_hash_access"]
           + total(g, "iru", "ring_element_hops") * e["iru_ring_hop"])
    t = s["simulated"]["seconds"] * 1e12
    parts = sum(1 for k in g if k.startswith("iru_"))
    static = {"gpu": e["gpu_static_w"] * t, "scu": ("scu" in g) * e["scu_static_w"] * t,
              "iru": parts * e["iru_static_w"] * t}
    return scu, iru, static
for d in ["scu", "iru", "iscu", "gpu", "lab"]:
    s, e, a = load(d)
    m = s["metrics"]
    scu, iru, static = expected(s, e)
    case(f"{d}: energy_pj_scu = counts x energy.scu_*", near(m["energy_pj_scu"], scu))
    case(f"{d}: energy_pj_iru = counts x energy.iru_*", near(m["energy_pj_iru"], iru))
    for u in static:
        case(f"{d}: static {u} = power x simulated time", near(m[f"energy_pj_static_{u}"], static[u]))
    lab = sum(m[f"energy_pj_{k}"] for k in ["alu", "smem", "l1", "l2", "noc", "lab", "dram"])
    case(f"{d}: dynamic = the seven categories + SCU + IRU",
         near(m["energy_pj_dynamic"], lab + scu + iru))
    case(f"{d}: total = dynamic + static",
         near(m["energy_pj_total"], m["energy_pj_dynamic"] + m["energy_pj_static"]))
    case(f"{d}: area of the units placed",
         near(m["area_mm2_scu"], ("scu" in s["total"]["gpu"]) * a["scu_mm2"]))
g = {d: load(d)[0] for d in ["scu", "iru", "iscu", "gpu", "lab"]}
M = {d: g[d]["metrics"] for d in g}
case("scu run: SCU energy and static > 0", M["scu"]["energy_pj_scu"] > 0
     and M["scu"]["energy_pj_static_scu"] > 0 and M["scu"]["energy_pj_iru"] == 0)
case("iru run: IRU energy > 0, ring hops counted", M["iru"]["energy_pj_iru"] > 0
     and total(g["iru"]["total"]["gpu"], "iru", "ring_element_hops") > 0)
# An element's hops are its route's, however the packets were packed and timed.
case("iru: the same ring element hops in lt and at", total(g["iru"]["total"]["gpu"], "iru",
     "ring_element_hops") == total(load("iru-lt")[0]["total"]["gpu"], "iru", "ring_element_hops"))
case("iscu run: both units' energy and area", M["iscu"]["energy_pj_scu"] > 0
     and M["iscu"]["energy_pj_iru"] > 0 and near(M["iscu"]["area_mm2_iru"], 4 * 5.98))
case("gpu run: no unit energy, static or area", M["gpu"]["energy_pj_scu"] == 0
     and M["gpu"]["energy_pj_iru"] == 0 and M["gpu"]["energy_pj_static_scu"] == 0
     and M["gpu"]["area_mm2_scu"] == 0 and M["gpu"]["energy_pj_static_gpu"] > 0)
lab = sum(M["lab"][f"energy_pj_{k}"] for k in ["alu", "smem", "l1", "l2", "noc", "lab", "dram"])
case("tiny (no units, no static power): total is exactly the seven categories",
     M["lab"]["energy_pj_total"] == lab and M["lab"]["energy_pj_static"] == 0)
# A kernel's static energy covers its own cycles only.
k = g["gpu"]["kernels"][0]
e = load("gpu")[1]
case("kernel static = power x kernel time", near(
    k["metrics"]["energy_pj_static_gpu"], e["gpu_static_w"] * k["cycles"] / 1270e6 * 1e12))
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
check "energy categories recomputed from the counters and parameters" $?

grep -q "run energy .*area: SCU 13.27 mm^2 (3.2 %)" "$TMP/scu.log"
check "summary: the run's energy and the SCU's area" $?
grep -q "run energy" "$TMP/lab.log"
check "summary: no unit line on a platform without units or static power" "$((1 - $?))"

echo "energy: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
