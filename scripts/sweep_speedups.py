#!/usr/bin/env python3
"""Speedup and energy of every config over a sweep's baseline, per platform
and workload (geometric means over the inputs), from `tlmgpu sweep` results.

usage: python3 scripts/sweep_speedups.py RUNS_DIR [RUNS_DIR ...]

Reads RUNS_DIR/results.csv and the baseline named in RUNS_DIR/sweep.json
(the spec's "baseline", else its first config). Speedup = baseline cycles /
config cycles (metrics.cycles: kernels plus the SCU's operations), energy =
config energy_pj_total / baseline's - 1. Failed points are reported, not
averaged. Used for the thesis-trend sweeps (examples/scu-paper.json,
scu-enhanced-paper.json, iscu-paper.json, iru-paper.json).
"""
import csv
import json
import math
import sys
from pathlib import Path


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def summarize(d: Path):
    # sweep.json keeps the spec's text as it was run
    spec = json.loads(json.load(open(d / "sweep.json"))["spec"])
    configs = list(spec["configs"])
    rows = list(csv.DictReader(open(d / "results.csv")))
    base = spec.get("baseline") or configs[0]
    failed = [r["point"] for r in rows if r["status"] != "passed"]
    at = {(r["platform"], r["config"], r["workload"], r["input"], r["seed"]): r for r in rows
          if r["status"] == "passed"}
    print(f"\n{d}: baseline {base}" + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    print("| platform | config | workload | speedup (per input) | energy |")
    print("|---|---|---|---|---|")
    platforms = list(dict.fromkeys(r["platform"] for r in rows))
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    for p in platforms:
        for c in configs:
            if c == base:
                continue
            every_s, every_e = [], []
            for w in workloads:
                s, e = [], []
                for (pp, cc, ww, i, seed), r in at.items():
                    if (pp, cc, ww) != (p, c, w) or (p, base, w, i, seed) not in at:
                        continue
                    b = at[(p, base, w, i, seed)]
                    s.append(float(b["cycles"]) / float(r["cycles"]))
                    e.append(float(r["energy_pj_total"]) / float(b["energy_pj_total"]))
                if not s:
                    continue
                every_s += s
                every_e += e
                print(f"| {Path(p).stem} | {c} | {w} | {geomean(s):.2f}x "
                      f"({', '.join(f'{x:.2f}' for x in s)}) | {100 * (geomean(e) - 1):+.0f} % |")
            if every_s:
                print(f"| {Path(p).stem} | {c} | **all** | **{geomean(every_s):.2f}x** | "
                      f"**{100 * (geomean(every_e) - 1):+.0f} %** |")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for d in sys.argv[1:]:
        summarize(Path(d))


if __name__ == "__main__":
    main()
