#!/usr/bin/env bash
# Histogram (LAB Listing 1, 1 Mi pixels) on titanv in each timing mode:
# simulated warp instructions and core cycles per host second, peak RSS.
# Not a test: numbers go to docs/performance.md. Usage: bench/histogram.sh [n]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1048576}
[ -x build/tlmgpu ] || bash scripts/build.sh >/dev/null
out=bench/out
mkdir -p $out
printf "%-11s %9s %12s %12s %14s %14s %8s\n" mode host_s warp_instr cycles "winst/host_s" "cycles/host_s" rss_MiB
for mode in functional lt at; do
  build/tlmgpu run -p platforms/titanv.json -w histogram --timing $mode --arg n=$n \
    --out $out/hist-$mode --quiet
  python3 - "$out/hist-$mode" "$mode" <<'PY'
import json, sys
d, mode = sys.argv[1], sys.argv[2]
h = json.load(open(d + "/host.json")); s = json.load(open(d + "/stats.json"))
def total(n, key):
    t = 0
    for k, v in n.items():
        if isinstance(v, dict) and "type" in v:
            t += v["value"] if k == key else 0
        elif isinstance(v, dict):
            t += total(v, key)
    return t
wi = total(s["total"], "warp_instructions"); cyc = s["simulated"]["cycles"]; hs = h["host_seconds"]
print(f"{mode:<11s} {hs:9.3f} {int(wi):12d} {cyc:12d} {wi / hs:14,.0f} {cyc / hs:14,.0f} {h['peak_rss_mib']:8.0f}")
PY
done
