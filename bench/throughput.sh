#!/usr/bin/env bash
# Random traffic on Titan V in each timing mode: transactions (generator
# requests) per host second and peak RSS. Not a test: numbers go to
# docs/performance.md. Usage: bench/throughput.sh [requests-per-generator]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000}
[ -x build/tlmgpu ] || bash scripts/build.sh >/dev/null
out=bench/out
mkdir -p $out
printf "%-11s %10s %9s %14s %9s\n" mode requests host_s "txn/host_s" rss_MiB
for mode in functional lt at; do
  build/tlmgpu run -p platforms/titanv.json -w random-traffic --timing $mode \
    --arg requests=$n --out $out/$mode --quiet
  python3 - "$out/$mode" "$mode" <<'PY'
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
req = total(s["total"], "issued")
print(f"{mode:<11s} {int(req):10d} {h['host_seconds']:9.3f} {req / h['host_seconds']:14,.0f} {h['peak_rss_mib']:9.0f}")
PY
done
