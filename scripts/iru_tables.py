#!/usr/bin/env python3
"""Baseline vs IRU tables of the graph workloads (docs/validation/iru.md).

    python3 scripts/iru_tables.py build/tlmgpu OUT [--modes lt at] [--set k=v ...]

Runs bfs-frontier, sssp and pagerank with version=edge-frontier (the
thesis' GPU baseline: the same expansion and contraction kernels, the
contraction reading the frontier arrays) and version=iru on
examples/iru/gtx980-iru.json for each graph below and timing mode, one
`tlmgpu run` each into OUT/<workload>/<graph>/<version>-<mode> (a run whose
stats.json exists is not repeated), then prints one markdown table per mode,
with each workload's arithmetic means over the graphs.
--set goes to the IRU runs only (a sensitivity: --set iru.timeout_cycles=4096).
"""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
PLATFORM = ROOT / "examples" / "iru" / "gtx980-iru.json"
GRAPHS = {  # label -> input; stand-ins per seed-003 §8.7
    "as20graph": str(DATA / "as20graph.txt"),
    "kron12": "gen:rmat?scale=12&ef=16&wmax=64",
    "ba4k": "gen:ba?n=4096&k=8&wmax=64",
    "grid64": "gen:grid?w=64&h=64&wmax=64",
}
# The kernel each workload's IRU version instruments (thesis Figs. 5.8-5.10).
WORKLOADS = {"bfs-frontier": "bfs_contract", "sssp": "sssp_contract", "pagerank": "pr_contract"}


def run(binary, out, workload, graph, version, mode, sets):
    d = out / workload / graph / f"{version}-{mode}"
    if not (d / "stats.json").exists():
        cmd = [binary, "run", "-p", str(PLATFORM), "-w", workload, "--arg", f"version={version}",
               "--input", GRAPHS[graph], "--timing", mode, "--quiet", "--out", str(d)]
        for s in sets if version == "iru" else []:
            cmd += ["--set", s]
        print("+", " ".join(cmd), file=sys.stderr)
        if subprocess.run(cmd).returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}")
    return json.load(open(d / "stats.json"))


def measures(s, kernel):
    g = s["total"]["gpu"]
    m = {"cycles": s["metrics"]["cycles"], "xbar": s["metrics"]["interconnect_bytes"],
         "dram": s["metrics"]["dram_bytes"],
         "l2": sum(v["requests"]["value"] for k, v in g.items() if k.startswith("l2_"))}
    ks = [k["metrics"] for k in s["kernels"] if k["name"] == kernel]
    m["contract"] = sum(k["cycles"] for k in ks)
    m["atomics"] = sum(k["atomic_requests"] for k in ks)
    iru = [v for k, v in g.items() if k.startswith("iru_")]
    c = lambda name: sum(v[name]["value"] for v in iru)
    m["elements"], m["merged"] = c("elements"), c("merged")
    replies = [v["replies_full"]["value"] + v["replies_timeout"]["value"] +
               v["replies_drain"]["value"] for v in iru]
    m["replies"], m["timeouts"] = sum(replies), c("replies_timeout")
    m["blocks"] = (sum(r * v["reply_blocks"]["value"] for r, v in zip(replies, iru)) /
                   max(1, sum(replies)))
    return m


def table(out, binary, mode, sets):
    print(f"\n#### {mode}\n")
    print("| workload | graph | cycles base | cycles IRU | speedup | contraction speedup | "
          "contraction atomics IRU/base | L2 req. IRU/base | xbar bytes IRU/base | "
          "DRAM bytes IRU/base | IRU elements | merged | blocks/reply | timeout replies |")
    print("|" + "---|" * 14)
    for w, kernel in WORKLOADS.items():
        ratios = []  # per graph: the columns the mean row averages
        for gname in GRAPHS:
            b = measures(run(binary, out, w, gname, "edge-frontier", mode, sets), kernel)
            i = measures(run(binary, out, w, gname, "iru", mode, sets), kernel)
            r = lambda k: f"{i[k] / b[k]:.2f}" if b[k] else "-"
            merged = 100 * i["merged"] / max(1, i["elements"])
            ratios.append([b["cycles"] / i["cycles"], b["contract"] / i["contract"],
                           i["atomics"] / b["atomics"], i["l2"] / b["l2"], i["xbar"] / b["xbar"],
                           i["dram"] / b["dram"], merged])
            print(f"| {w} | {gname} | {b['cycles']:,.0f} | {i['cycles']:,.0f} | "
                  f"{b['cycles'] / i['cycles']:.2f} | {b['contract'] / i['contract']:.2f} | "
                  f"{r('atomics')} | {r('l2')} | {r('xbar')} | {r('dram')} | "
                  f"{i['elements']:,.0f} | {merged:.1f} % | "
                  f"{i['blocks']:.1f} | {100 * i['timeouts'] / max(1, i['replies']):.0f} % |")
        # Arithmetic means over the graphs, as the thesis averages.
        m = [sum(col) / len(col) for col in zip(*ratios)]
        print(f"| {w} | **mean** | | | **{m[0]:.2f}** | {m[1]:.2f} | {m[2]:.2f} | {m[3]:.2f} | "
              f"{m[4]:.2f} | {m[5]:.2f} | | {m[6]:.1f} % | | |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("out", type=Path)
    ap.add_argument("--modes", nargs="+", default=["lt", "at"])
    ap.add_argument("--set", dest="sets", action="append", default=[])
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for mode in a.modes:
        table(a.out, a.binary, mode, a.sets)


if __name__ == "__main__":
    main()
