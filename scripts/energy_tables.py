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
markdown table per platform and mode; energies from stats.json `metrics`
(whole run: kernels, SCU operations, static power over the simulated time).
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


def table(binary, out, platform, graph, mode):
    print(f"\n### {platform}, {graph}, {mode}\n")
    print("| workload | version | total cycles | speedup | energy uJ | saving | dynamic uJ | "
          "dyn. saving | of it SCU | of it IRU | static uJ | static share |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for wl in ENHANCED:
        base = None
        for version, pfile in versions(platform, wl):
            s = run(binary, out, platform, wl, version, pfile, graph, mode)
            m = s["metrics"]
            row = (s["simulated"]["cycles"], m["energy_pj_total"] * 1e-6,
                   m["energy_pj_dynamic"] * 1e-6)
            base = base or row
            print(f"| {wl} | {version} | {row[0]:,.0f} | {base[0] / row[0]:.2f}x | "
                  f"{row[1]:,.2f} | {100 * (1 - row[1] / base[1]):.1f} % | {row[2]:,.2f} | "
                  f"{100 * (1 - row[2] / base[2]):.1f} % | {m['energy_pj_scu'] * 1e-6:.3f} | "
                  f"{m['energy_pj_iru'] * 1e-6:.3f} | {m['energy_pj_static'] * 1e-6:,.2f} | "
                  f"{100 * m['energy_pj_static'] / m['energy_pj_total']:.0f} % |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("out", type=Path)
    ap.add_argument("--modes", nargs="+", default=["lt", "at"])
    ap.add_argument("--platforms", nargs="+", default=["gtx980", "tx1"])
    ap.add_argument("--graph", choices=list(GRAPHS), default="as20graph")
    a = ap.parse_args()
    for platform in a.platforms:
        for mode in a.modes:
            table(a.binary, a.out, platform, a.graph, mode)


if __name__ == "__main__":
    main()
