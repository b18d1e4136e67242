#!/usr/bin/env python3
"""Issue 16 item 7: the SCU, IRU and ISCU on Titan V, alone and with a LAB-8.

usage: python3 scripts/titanv_units.py BINARY OUT [--modes lt at] [--jobs N]

Runs bfs-frontier, sssp and pagerank in every version that has a unit
(scu, scu-filter, iru, iscu; sssp also scu-filter-group) and the GPU-only
baselines (gpu-merrill, the thesis' baseline; edge-frontier, the thesis'
phases on the GPU) on examples/{scu,iru,iscu}/titanv-*.json, each also with
`--set lab.entries=8` (a LAB-8 in every SM's path), on as20graph and kron12
(weighted for sssp), and prints one markdown table per mode: cycles, the
speedup over gpu-merrill on the same LAB setting, the SCU's share of the cycles
and the LAB's accesses.
Runs are cached in OUT (a run whose stats.json exists is not repeated).
"""
import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
GRAPHS = {"as20graph": str(DATA / "as20graph.txt"), "kron12": "gen:rmat?scale=12&ef=16"}
WORKLOADS = {
    "bfs-frontier": ["gpu-merrill", "edge-frontier", "scu", "scu-filter", "iru", "iscu"],
    "sssp": ["gpu-merrill", "edge-frontier", "scu", "scu-filter", "scu-filter-group", "iru",
             "iscu"],
    "pagerank": ["gpu-merrill", "edge-frontier", "scu", "iru", "iscu"],
}
LABS = {"no LAB": [], "LAB-8": ["--set", "lab.entries=8"]}


def platform(version):
    if version == "iru":
        return ROOT / "examples/iru/titanv-iru.json"
    if version == "iscu":
        return ROOT / "examples/iscu/titanv-iscu.json"
    return ROOT / "examples/scu/titanv-scu.json"


def graph_input(workload, graph):
    g = GRAPHS[graph]
    return g + "&wmax=64" if workload == "sssp" and g.startswith("gen:") else g


def run(binary, out, workload, graph, version, lab, mode):
    d = out / workload / graph / f"{version}-{lab.replace(' ', '')}-{mode}"
    if not (d / "stats.json").exists():
        cmd = [binary, "run", "-p", str(platform(version)), "-w", workload, "--arg",
               f"version={version}", "--input", graph_input(workload, graph), "--timing", mode,
               "--quiet", "--out", str(d)] + LABS[lab]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr}")
    s = json.load(open(d / "stats.json"))
    g = s["total"]["gpu"]
    return {
        "cycles": s["simulated"]["cycles"],
        "scu": g["scu"]["cycles"]["value"] if "scu" in g else 0,
        "lab": sum(k["metrics"]["lab_accesses"] for k in s["kernels"]),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("out", type=Path)
    ap.add_argument("--modes", nargs="+", default=["lt", "at"])
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    points = [(w, g, v, lab, m) for m in a.modes for w, vs in WORKLOADS.items() for g in GRAPHS
              for lab in LABS for v in vs]
    with ThreadPoolExecutor(a.jobs) as pool:
        res = dict(zip(points, pool.map(lambda p: run(a.binary, a.out, *p), points)))
    for m in a.modes:
        print(f"\n### {m}\n")
        print("| workload | graph | version | cycles, no LAB | vs gpu-merrill | SCU share | "
              "cycles, LAB-8 | vs gpu-merrill (LAB-8) | LAB-8 / no LAB | LAB accesses |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for w, vs in WORKLOADS.items():
            for g in GRAPHS:
                base = {lab: res[(w, g, "gpu-merrill", lab, m)]["cycles"] for lab in LABS}
                for v in vs:
                    r0, r8 = res[(w, g, v, "no LAB", m)], res[(w, g, v, "LAB-8", m)]
                    print(f"| {w} | {g} | {v} | {r0['cycles']:,} | "
                          f"{base['no LAB'] / r0['cycles']:.2f}x | "
                          f"{100 * r0['scu'] / r0['cycles']:.0f} % | {r8['cycles']:,} | "
                          f"{base['LAB-8'] / r8['cycles']:.2f}x | "
                          f"{r8['cycles'] / r0['cycles']:.2f} | {r8['lab']:,.0f} |")


if __name__ == "__main__":
    main()
