#!/usr/bin/env python3
"""gpu vs scu-filter vs iscu tables of bfs-frontier (docs/validation/iscu.md).

    python3 scripts/iscu_tables.py build/tlmgpu OUT [--modes lt at] [--workload sssp]

Runs bfs-frontier with version=gpu, scu-filter (scu.filter_unit=hash: the
in-memory table) and iscu (the IRU partitions filter) on one platform,
examples/iscu/gtx980-iscu.json, so all three have the same SCU, IRU
partitions and joins (idle where unused). One `tlmgpu run` each into
OUT/<graph>/<version>-<mode> (a run whose stats.json exists is not
repeated; every run passes its CPU check or the script stops), then one
markdown table per mode.

--workload sssp: sssp with version=gpu (Bellman-Ford), edge-frontier (the
thesis' phases on the GPU), scu, scu-filter (the best-cost filter's
table in memory) and iscu (that filter in the IRU partitions), kron12 with
weights 1..64 (notes §8.7).

--workload pagerank: pagerank (10 rounds) with version=gpu (pr_push),
gpu-merrill (the thesis' GPU baseline: a load-balanced expansion), edge-frontier (the thesis' expansion and contraction on the GPU), iru (the
contraction on the IRU), scu (the expansion on the SCU), scu-group (scu
with the arcs grouped by the line of their target) and iscu (the IRU
partitions merge equal heads, adding their shares), as20graph and kron12.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
PLATFORM = ROOT / "examples" / "iscu" / "gtx980-iscu.json"
GRAPHS = {"as20graph": str(DATA / "as20graph.txt"), "kron12": "gen:rmat?scale=12&ef=16"}
VERSIONS = {"gpu": [], "scu-filter": ["scu.filter_unit=hash"], "iscu": []}
WORKLOAD = "bfs-frontier"


def use_sssp():
    global GRAPHS, VERSIONS, WORKLOAD
    WORKLOAD = "sssp"
    GRAPHS = {"as20graph": GRAPHS["as20graph"], "kron12w": "gen:rmat?scale=12&ef=16&wmax=64"}
    hash_unit = ["scu.filter_unit=hash"]
    VERSIONS = {"gpu": [], "edge-frontier": [], "scu": [], "scu-filter": hash_unit, "iscu": []}


def use_pagerank():
    global VERSIONS, WORKLOAD
    WORKLOAD = "pagerank"
    VERSIONS = {"gpu": [], "gpu-merrill": [], "edge-frontier": [], "iru": [], "scu": [],
                "scu-group": [], "iscu": []}


def run(binary, out, graph, version, mode):
    d = out / graph / f"{version}-{mode}"
    if not (d / "stats.json").exists():
        cmd = [binary, "run", "-p", str(PLATFORM), "-w", WORKLOAD, "--arg",
               f"version={version}", "--input", GRAPHS[graph], "--timing", mode, "--quiet",
               "--out", str(d)]
        for s in VERSIONS[version]:
            cmd += ["--set", s]
        print("+", " ".join(cmd), file=sys.stderr)
        if subprocess.run(cmd).returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}")
    return json.load(open(d / "stats.json"))


def measures(s):
    g = s["total"]["gpu"]
    v = lambda block, name: g[block][name]["value"] if block in g else 0
    iru = [b for k, b in g.items() if k.startswith("iru_")]
    # Whole-run figures (kernels, SCU operations and the host's copies):
    # s["metrics"] covers the kernels only.
    dram = [b for k, b in g.items() if k.startswith("dram_")]
    return {
        "cycles": s["simulated"]["cycles"],  # kernels + SCU (they run serially)
        "kernels": g["kernel_cycles"]["value"],
        "scu": v("scu", "cycles"),
        "l2": sum(b["requests"]["value"] for k, b in g.items() if k.startswith("l2_")),
        "dram": sum(b["bytes_read"]["value"] + b["bytes_written"]["value"] for b in dram),
        "xbar": g["xbar"]["bytes"]["value"],
        "hash": v("scu", "hash_reads") + v("scu", "hash_writes"),
        "iru_lines": sum(b["lines_read"]["value"] for b in iru),
        "elements": v("scu", "iru_elements"),
        "filtered": v("scu", "filtered"),
    }


def table(out, binary, mode):
    print(f"\n### {mode}\n")
    merrill = "gpu-merrill" in VERSIONS
    print("| graph | version | total cycles | vs gpu |" + (" vs gpu-merrill |" if merrill else "") +
          " GPU kernel cycles | SCU cycles | L2 requests | DRAM bytes | xbar bytes | "
          "hash line accesses | IRU line reads | filtered (of elements) |")
    print("|---|---|---|---|" + ("---|" if merrill else "") + "---|---|---|---|---|---|---|---|")
    for graph in GRAPHS:
        ms = {version: measures(run(binary, out, graph, version, mode)) for version in VERSIONS}
        base = next(iter(ms.values()))["cycles"]
        thesis = ms.get("gpu-merrill")  # the thesis' GPU baseline, where the workload has it
        for version, m in ms.items():
            filt = f"{m['filtered']:,.0f}" + (f" of {m['elements']:,.0f}" if m["elements"] else "")
            vs_thesis = f" {thesis['cycles'] / m['cycles']:.2f}x |" if thesis else ""
            print(f"| {graph} | {version} | {m['cycles']:,.0f} | {base / m['cycles']:.2f}x |{vs_thesis} "
                  f"{m['kernels']:,.0f} | {m['scu']:,.0f} | {m['l2']:,.0f} | {m['dram']:,.0f} | {m['xbar']:,.0f} | "
                  f"{m['hash']:,.0f} | {m['iru_lines']:,.0f} | {filt} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("out", type=Path)
    ap.add_argument("--modes", nargs="+", default=["lt", "at"])
    ap.add_argument("--workload", choices=["bfs-frontier", "sssp", "pagerank"], default="bfs-frontier")
    a = ap.parse_args()
    if a.workload == "sssp":
        use_sssp()
    if a.workload == "pagerank":
        use_pagerank()
    for mode in a.modes:
        table(a.out, a.binary, mode)


if __name__ == "__main__":
    main()
