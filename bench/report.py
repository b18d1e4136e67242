#!/usr/bin/env python3
"""One benchmark row from a run directory (stats.json + host.json).

usage: report.py traffic|kernel <run-dir> <mode>
"""
import json
import sys


def total(node, key):
    """Sum of stat `key` over the whole stats tree (e.g. every SM's issued)."""
    t = 0
    for k, v in node.items():
        if isinstance(v, dict) and "type" in v:
            t += v["value"] if k == key else 0
        elif isinstance(v, dict):
            t += total(v, key)
    return t


kind, d, mode = sys.argv[1:4]
h = json.load(open(d + "/host.json"))
s = json.load(open(d + "/stats.json"))
hs = h["host_seconds"]
if kind == "traffic":
    req = total(s["total"], "issued")
    print(f"{mode:<11s} {int(req):10d} {hs:9.3f} {req / hs:14,.0f} {h['peak_rss_mib']:9.0f}")
else:
    wi = total(s["total"], "warp_instructions")
    cyc = s["simulated"]["cycles"]
    print(f"{mode:<11s} {hs:9.3f} {int(wi):12d} {cyc:12d} {wi / hs:14,.0f} {cyc / hs:14,.0f} "
          f"{h['peak_rss_mib']:8.0f}")
