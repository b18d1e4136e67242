#!/usr/bin/env python3
"""Energy of the GPU-only, SCU, IRU and ISCU versions (docs/validation/scu-iru.md).

    python3 scripts/energy_tables.py build/tlmgpu OUT [--modes lt at] [--graph as20graph]

Runs bfs-frontier, sssp and pagerank on as20graph, each version on the
platform that has (only) its unit, so a unit's static power and area are
charged where it exists: the GPU-only versions (gpu, edge-frontier) on
platforms/gtx980.json and tx1.json, the SCU versions on examples/scu/, iru
on examples/iru/gtx980-iru.json, iscu on examples/iscu/gtx980-iscu.json (the
thesis evaluates the IRU and ISCU on GTX 980 only). One `tlmgpu run` each
into OUT/<platform>/<workload>/<version>-<mode> (a run whose stats.json
exists is not repeated; a failed CPU check stops the script). Prints one
markdown table per platform with the modes side by side (savings and
speedups against edge-frontier, the thesis' phases on the GPU, beside the
thesis' own), then the energy by category in the last mode; energies from
stats.json `metrics` (whole run: kernels, SCU operations, static power over
the simulated time).
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
GRAPHS = {"as20graph": str(DATA / "as20graph.txt")}
GPU = {"gtx980": ROOT / "platforms" / "gtx980.json", "tx1": ROOT / "platforms" / "tx1.json"}
SCU = {"gtx980": ROOT / "examples" / "scu" / "gtx980-scu.json",
       "tx1": ROOT / "examples" / "scu" / "tx1-scu.json"}
IRU = ROOT / "examples" / "iru" / "gtx980-iru.json"
ISCU = ROOT / "examples" / "iscu" / "gtx980-iscu.json"
# The enhanced SCU of the thesis' 84.7 % / 69 %: filtering (BFS, SSSP),
# grouping (PageRank, which the thesis does not filter on the SCU).
ENHANCED = {"bfs-frontier": "scu-filter", "sssp": "scu-filter", "pagerank": "scu-group"}


def versions(platform, workload):
    """(version, platform file) in table order; the first is the baseline."""
    v = [("edge-frontier", GPU[platform]), ("gpu", GPU[platform]),
         ("scu", SCU[platform]), (ENHANCED[workload], SCU[platform])]
    if platform == "gtx980":
        v += [("iru", IRU), ("iscu", ISCU)]
    return v


def run(binary, out, platform, workload, version, pfile, graph, mode):
    d = out / platform / workload / graph / f"{version}-{mode}"
    if not (d / "stats.json").exists():
        cmd = [binary, "run", "-p", str(pfile), "-w", workload, "--arg", f"version={version}",
               "--input", GRAPHS[graph], "--timing", mode, "--quiet", "--out", str(d)]
        print("+", " ".join(cmd), file=sys.stderr)
        if subprocess.run(cmd).returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}")
    s = json.load(open(d / "stats.json"))
    if s["check"] != "passed":
        sys.exit(f"{d}: check {s['check']}")
    return s


# The thesis' energy savings and speedups against its GPU baseline (seed-003
# §2.9, §3.7, §4.5; "basic" SCU: "about 2x energy, about 1.5x speedup").
THESIS = {
    ("gtx980", "bfs-frontier"): {"scu": "-50 % / 1.5x", "scu-filter": "-91.9 % / 1.41x",
                                 "iru": "-17 % / 1.16x", "iscu": "-92 % / 2.8x"},
    ("gtx980", "sssp"): {"scu": "-50 % / 1.5x", "scu-filter": "-90.9 % / 1.65x",
                         "iru": "-5 % / 1.14x", "iscu": "-91 % / 2.56x"},
    ("gtx980", "pagerank"): {"scu-group": "-78.5 % / <1x", "iru": "-15 % / 1.40x",
                             "iscu": "-85 % / 1.44x"},
    ("tx1", "bfs-frontier"): {"scu": "-50 % / 1.5x", "scu-filter": "-81.3 % / 3.83x"},
    ("tx1", "sssp"): {"scu": "-50 % / 1.5x", "scu-filter": "-78.0 % / 3.24x"},
    ("tx1", "pagerank"): {"scu-group": "-33.3 % / 1.05x"},
}


def table(binary, out, platform, graph, modes):
    """One row per workload and version, the modes side by side."""
    cols = ["cycles", "speedup", "energy uJ", "saving", "dynamic saving", "static share"]
    print(f"\n### {platform}, {graph} ({' | '.join(modes)} in each cell)\n")
    print("| workload | version | " + " | ".join(cols) + " | SCU + IRU dynamic uJ | thesis saving / speedup |")
    print("|---|---|" + "---|" * (len(cols) + 2))
    for wl in ENHANCED:
        base = {}
        for version, pfile in versions(platform, wl):
            cells = {c: [] for c in cols}
            units = []
            for mode in modes:
                s = run(binary, out, platform, wl, version, pfile, graph, mode)
                m = s["metrics"]
                row = (s["simulated"]["cycles"], m["energy_pj_total"], m["energy_pj_dynamic"])
                b = base.setdefault(mode, row)
                cells["cycles"].append(f"{row[0]:,.0f}")
                cells["speedup"].append(f"{b[0] / row[0]:.2f}x")
                cells["energy uJ"].append(f"{row[1] * 1e-6:,.1f}")
                cells["saving"].append(f"{100 * (row[1] / b[1] - 1):+.0f} %")
                cells["dynamic saving"].append(f"{100 * (row[2] / b[2] - 1):+.0f} %")
                cells["static share"].append(f"{100 * m['energy_pj_static'] / row[1]:.0f} %")
                units.append(f"{(m['energy_pj_scu'] + m['energy_pj_iru']) * 1e-6:.2f}")
            thesis = THESIS.get((platform, wl), {}).get(version, "")
            print(f"| {wl} | {version} | " + " | ".join(" / ".join(cells[c]) for c in cols) +
                  f" | {' / '.join(units)} | {thesis} |")


def breakdown(binary, out, platform, graph, mode):
    """Where the energy goes, per category (uJ)."""
    cats = ["alu", "l1", "l2", "noc", "dram", "scu", "iru", "static"]
    print(f"\n### {platform}, {graph}, {mode}: energy by category (uJ)\n")
    print("| workload | version | " + " | ".join(cats) + " | total |")
    print("|---|---|" + "---|" * (len(cats) + 1))
    for wl in ENHANCED:
        for version, pfile in versions(platform, wl):
            m = run(binary, out, platform, wl, version, pfile, graph, mode)["metrics"]
            print(f"| {wl} | {version} | " +
                  " | ".join(f"{m['energy_pj_' + c] * 1e-6:,.1f}" for c in cats) +
                  f" | {m['energy_pj_total'] * 1e-6:,.1f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("out", type=Path)
    ap.add_argument("--modes", nargs="+", default=["lt", "at"])
    ap.add_argument("--platforms", nargs="+", default=["gtx980", "tx1"])
    ap.add_argument("--graph", choices=list(GRAPHS), default="as20graph")
    a = ap.parse_args()
    for platform in a.platforms:
        table(a.binary, a.out, platform, a.graph, a.modes)
    for platform in a.platforms:
        breakdown(a.binary, a.out, platform, a.graph, a.modes[-1])


if __name__ == "__main__":
    main()
