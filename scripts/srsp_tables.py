#!/usr/bin/env python3
"""The sRSP paper's Fig. 6-8 tables from `tlmgpu sweep` runs of
examples/srsp-paper.json (docs/validation/srsp.md), lt and at side by side.

usage: python3 scripts/srsp_tables.py LT_DIR [AT_DIR]

Reads DIR/results.csv (cycles, interconnect_bytes, status, check) and every
passed point's DIR/points/<point>/stats.json (the workload's steals, probes
and count_reads, the L1s' rsp_* and scoped_* counters, the L2s' requests,
summed over the SMs and L2 slices). Speedup = Baseline cycles / config
cycles; "L2 accesses" = requests the L2 slices received. A cell is
"lt / at"; "-" where a run is missing. Failed points are listed, never
averaged; pending points are left out. Prints markdown.
"""
import csv
import json
import math
import re
import sys
from pathlib import Path

CONFIGS = ["Steal-only", "Scope-only", "bRSP", "sRSP"]
ALL = ["Baseline"] + CONFIGS
PAPER = {"Steal-only": "+11 %", "Scope-only": "+14 %", "bRSP": "+3 %", "sRSP": "+25 %"}


def geomean(xs):
    xs = [x for x in xs if x is not None]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def flatten(node, path, out):
    """Sums every counter over block instances: sm_3/l1/x and sm_5/l1/x -> sm/l1/x."""
    if isinstance(node, dict):
        if "value" in node and not any(isinstance(v, dict) for v in node.values()):
            if isinstance(node["value"], (int, float)):
                key = re.sub(r"_\d+(?=/|$)", "", path)
                out[key] = out.get(key, 0) + node["value"]
            return
        for k, v in node.items():
            flatten(v, f"{path}/{k}" if path else k, out)


def load(d):
    d = Path(d)
    runs, failed = {}, []
    for r in csv.DictReader(open(d / "results.csv")):
        cus = int(re.search(r"apu(\d+)", r["platform"]).group(1))
        if r["status"] == "pending":
            continue
        if r["status"] != "passed" or r["check"] != "passed":
            failed.append(f'{r["point"]} (status {r["status"]}, check {r["check"]})')
            continue
        s = {}
        st = json.load(open(d / "points" / r["point"] / "stats.json"))
        flatten(st["total"], "", s)
        ws = {k.split("/", 1)[1]: v for k, v in s.items() if k.startswith("ws_")}
        runs[(cus, r["config"], r["workload"])] = {
            "cycles": float(r["cycles"]),
            "bytes": float(r["interconnect_bytes"]),
            "l2": s.get("gpu/l2/requests", 0),
            "l1_loads": s.get("gpu/sm/l1/loads", 0),
            "l1_hits": s.get("gpu/sm/l1/load_hits", 0),
            "acquires": s.get("gpu/sm/l1/scoped_acquires", 0),
            "lines_inv": s.get("gpu/sm/l1/scoped_lines_invalidated", 0),
            "ops": s.get("gpu/sm/l1/rsp_remote_ops", 0),
            "rsp_cycles": s.get("gpu/sm/l1/rsp_cycles", 0),
            "flush_msgs": s.get("gpu/sm/l1/rsp_flush_msgs", 0),
            "inv_msgs": s.get("gpu/sm/l1/rsp_inv_msgs", 0),
            "flush_hits": s.get("gpu/sm/l1/rsp_flush_hits", 0),
            "promoted": s.get("gpu/sm/l1/srsp_promoted_acquires", 0),
            "stall_lock": s.get("gpu/sm/l1/rsp_stall_lock", 0),
            "stall_line": s.get("gpu/sm/l1/rsp_stall_line", 0),
            "steals": ws.get("steals", 0),
            "takes": ws.get("owner_takes", 0),
            "probes": ws.get("probes", 0),
            "count_reads": ws.get("count_reads", 0),
            "kernels": s.get("gpu/kernels", 0),
            # the work-stealing kernels (the others are per-vertex helpers)
            "launches": sum(1 for k in st["kernels"] if k["name"].endswith("_pull")),
        }
    return runs, failed


def f2(x):
    return "-" if x is None else f"{x:.2f}"


def pct(x):
    return "-" if x is None else f"{100 * (x - 1):+.0f} %"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    lt, lt_failed = load(sys.argv[1])
    at, at_failed = load(sys.argv[2]) if len(sys.argv) == 3 else ({}, [])
    modes = [("lt", lt)] + ([("at", at)] if at else [])
    for name, failed in (("lt", lt_failed), ("at", at_failed)):
        if failed:
            print(f"**FAILED ({name})**: " + "; ".join(failed) + "\n")
    cus_all = sorted({k[0] for k in lt})
    workloads = list(dict.fromkeys(k[2] for k in sorted(lt, key=lambda k: k[2])))
    top = max(cus_all)

    def ratio(runs, cus, cfg, wl, key, inverse=True):
        b, c = runs.get((cus, "Baseline", wl)), runs.get((cus, cfg, wl))
        if not b or not c or not c[key] or not b[key]:
            return None
        return b[key] / c[key] if inverse else c[key] / b[key]

    def cell(cus, cfg, wl, key="cycles", inverse=True, fmt=f2):
        return " / ".join(fmt(ratio(r, cus, cfg, wl, key, inverse)) for _, r in modes)

    def agg_cell(cus, cfg, key="cycles", inverse=True, fn=geomean, fmt=f2, wls=None):
        return " / ".join(
            fmt(fn([ratio(r, cus, cfg, w, key, inverse) for w in (wls or workloads)]))
            for _, r in modes)

    mode_names = " / ".join(m for m, _ in modes)
    # 1. Fig. 6 at the largest CU count
    print(f"### Speedup over Baseline on {top} CUs ({mode_names})\n")
    print("| workload | " + " | ".join(CONFIGS) + " |")
    print("|---|" + "---|" * len(CONFIGS))
    for w in workloads:
        print(f"| {w} | " + " | ".join(cell(top, c, w) for c in CONFIGS) + " |")
    print("| geomean | " + " | ".join(agg_cell(top, c) for c in CONFIGS) + " |")
    print("| mean | " + " | ".join(agg_cell(top, c, fn=mean) for c in CONFIGS) + " |")
    print("| paper (average) | " + " | ".join(PAPER[c] for c in CONFIGS) + " |\n")
    # 2. scaling
    print(f"### Speedup over Baseline, 8..{top} CUs ({mode_names})\n")
    print("| workload | CUs | " + " | ".join(CONFIGS) + " |")
    print("|---|---|" + "---|" * len(CONFIGS))
    for w in workloads + ["geomean"]:
        for cus in cus_all:
            cells = [agg_cell(cus, c) if w == "geomean" else cell(cus, c, w) for c in CONFIGS]
            print(f"| {w} | {cus} | " + " | ".join(cells) + " |")
    print()
    # 3. Fig. 7: traffic
    print(f"### L2 accesses and interconnect bytes relative to Baseline ({mode_names})\n")
    print(f"L2 accesses (requests at the L2 slices), {top} CUs:\n")
    print("| workload | " + " | ".join(CONFIGS) + " |")
    print("|---|" + "---|" * len(CONFIGS))
    for w in workloads:
        print(f"| {w} | " + " | ".join(cell(top, c, w, "l2", False) for c in CONFIGS) + " |")
    print("| geomean | " + " | ".join(agg_cell(top, c, "l2", False) for c in CONFIGS) + " |\n")
    print("Geomean over the workloads per CU count, L2 accesses | interconnect bytes:\n")
    print("| CUs | " + " | ".join(CONFIGS) + " |")
    print("|---|" + "---|" * len(CONFIGS))
    for cus in cus_all:
        print(f"| {cus} | " + " | ".join(
            agg_cell(cus, c, "l2", False) + " \\| " + agg_cell(cus, c, "bytes", False)
            for c in CONFIGS) + " |")
    print()
    # 4. lt against at
    if at:
        print(f"### Cycles lt / at and lt's error on {top} CUs; last rows: the largest error "
              "over the inputs per CU count\n")
        print("| CUs | workload | " + " | ".join(ALL) + " |")
        print("|---|---|" + "---|" * len(ALL))
        worst = {c: 0.0 for c in ALL}
        per_cus = {}
        for cus in cus_all:
            per_cus[cus] = {c: 0.0 for c in ALL}
            for w in workloads:
                cells = []
                for c in ALL:
                    a, b = lt.get((cus, c, w)), at.get((cus, c, w))
                    if not a or not b:
                        cells.append("-")
                        continue
                    e = a["cycles"] / b["cycles"] - 1
                    worst[c] = max(worst[c], e, key=abs)
                    per_cus[cus][c] = max(per_cus[cus][c], e, key=abs)
                    cells.append(f'{a["cycles"] / 1e3:.0f}K / {b["cycles"] / 1e3:.0f}K ({100 * e:+.0f} %)')
                if cus == top:
                    print(f"| {cus} | {w} | " + " | ".join(cells) + " |")
        for cus in cus_all:
            print(f"| {cus} | largest error | "
                  + " | ".join(f"{100 * per_cus[cus][c]:+.0f} %" for c in ALL) + " |")
        print()
    # 5. what the stealing configs do on the largest CU count
    print("### Tasks per queue and launch (one queue per CU; a task is 256 vertices)\n")
    print("| workload | launches | tasks per launch | " + " | ".join(f"{c} CUs" for c in cus_all) + " |")
    print("|---|---|---|" + "---|" * len(cus_all))
    for w in workloads:
        b = lt.get((top, "Baseline", w))
        if not b or not b["launches"]:
            continue
        t = (b["takes"] + b["steals"]) / b["launches"]
        print(f'| {w} | {b["launches"]} | {t:.0f} | ' + " | ".join(f"{t / c:.2f}" for c in cus_all) + " |")
    print()

    print(f"### Stealing and remote operations on {top} CUs ({mode_names})\n")
    print("| workload | config | tasks (steals) | probes | count reads | remote ops | "
          "Flush/SelFlush per op | SelFlush that drained | cycles in remote ops | per op |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for w in workloads:
        for c in ["Steal-only", "bRSP", "sRSP"]:
            def j(f):
                return " / ".join(f(r.get((top, c, w))) if r.get((top, c, w)) else "-"
                                  for _, r in modes)
            print(f"| {w} | {c} | "
                  + j(lambda x: f'{x["takes"] + x["steals"]:.0f} ({x["steals"]:.0f})') + " | "
                  + j(lambda x: f'{x["probes"]:.0f}') + " | "
                  + j(lambda x: f'{x["count_reads"]:.0f}') + " | "
                  + j(lambda x: f'{x["ops"]:.0f}') + " | "
                  + j(lambda x: f'{x["flush_msgs"] / x["ops"]:.1f}' if x["ops"] else "-") + " | "
                  + j(lambda x: f'{x["flush_hits"]:.0f}') + " | "
                  + j(lambda x: f'{x["rsp_cycles"] / 1e3:.0f}K') + " | "
                  + j(lambda x: f'{x["rsp_cycles"] / x["ops"]:.0f}' if x["ops"] else "-") + " |")
    print()
    print(f"Remote synchronisation overhead, sRSP / bRSP on {top} CUs ({mode_names}): "
          "cycles in remote operations (`rsp_cycles`), and in at with the cycles L1 "
          "head requests stalled on bRSP's lock of every L1 or sRSP's line lock "
          "(`rsp_stall_lock` + `rsp_stall_line`):\n")
    print("| workload | rsp_cycles sRSP / bRSP | rsp_cycles + lock stalls sRSP / bRSP | "
          "bRSP lock stall cycles | sRSP line stall cycles |")
    print("|---|---|---|---|---|")
    rc, rt = {m: [] for m, _ in modes}, {m: [] for m, _ in modes}
    for w in workloads:
        c1, c2, c3, c4 = [], [], [], []
        for m, r in modes:
            b, s = r.get((top, "bRSP", w)), r.get((top, "sRSP", w))
            if not b or not s or not b["rsp_cycles"]:
                c1.append("-"), c2.append("-"), c3.append("-"), c4.append("-")
                continue
            x = s["rsp_cycles"] / b["rsp_cycles"]
            y = (s["rsp_cycles"] + s["stall_lock"] + s["stall_line"]) / (
                b["rsp_cycles"] + b["stall_lock"] + b["stall_line"])
            rc[m].append(x), rt[m].append(y)
            c1.append(f"{x:.2f}"), c2.append(f"{y:.2f}")
            c3.append(f'{b["stall_lock"] / 1e6:.1f}M'), c4.append(f'{s["stall_line"] / 1e6:.2f}M')
        print(f"| {w} | " + " | ".join(" / ".join(c) for c in (c1, c2, c3, c4)) + " |")
    print("| geomean | " + " / ".join(f2(geomean(rc[m])) for m, _ in modes) + " | "
          + " / ".join(f2(geomean(rt[m])) for m, _ in modes) + " | | |\n")
    # 6. Scope-only against Baseline
    print(f"### Scope-only against Baseline on {top} CUs ({mode_names})\n")
    print("| workload | kernels | tasks | L1 flash invalidations B / S | lines invalidated B / S "
          "| L1 load hit rate B / S | L2 accesses S / B |")
    print("|---|---|---|---|---|---|---|")
    for w in workloads:
        b, s = lt.get((top, "Baseline", w)), lt.get((top, "Scope-only", w))
        if not b or not s:
            continue
        hr = lambda x: x["l1_hits"] / x["l1_loads"] if x["l1_loads"] else 0
        print(f'| {w} | {b["kernels"]:.0f} | {b["takes"]:.0f} | {b["acquires"]:.0f} / '
              f'{s["acquires"]:.0f} | {b["lines_inv"]:.0f} / {s["lines_inv"]:.0f} | '
              f"{hr(b):.3f} / {hr(s):.3f} | {cell(top, 'Scope-only', w, 'l2', False)} |")
    print()


if __name__ == "__main__":
    main()
