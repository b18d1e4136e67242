#!/usr/bin/env python3
"""Per-workload tables of a LAB-paper sweep (docs/validation/lab.md).

    python3 scripts/lab_tables.py RESULTS.csv [--before lab.md]

Prints, for cycles, interconnect bytes, total energy and the atomic miss
rate, each config's metric divided by Baseline's on the same platform and
input, averaged over a workload's inputs (as `tlmgpu report` does), one row
per config and an `avg` column. With --before, a second table per metric
gives after - before against the tables already in that markdown file (the
same format), so a re-run can be compared with the last published one.
"""
import argparse
import csv
import statistics
from collections import defaultdict

METRICS = ["cycles", "interconnect_bytes", "energy_pj_total", "atomic_miss_rate"]
WORKLOADS = ["H", "HS", "BWC", "BC", "CCA", "CLR", "MIS", "PR", "SSSP", "BFS"]


def normalised(rows, metric):
    base = {}
    for r in rows:
        if r["config"] == "Baseline" and r["status"] == "passed":
            base[(r["platform"], r["workload"], r["input"])] = float(r[metric])
    cells = defaultdict(list)  # (config, workload) -> ratios
    configs = []
    for r in rows:
        if r["status"] != "passed":
            continue
        if r["config"] not in configs:
            configs.append(r["config"])
        b = base.get((r["platform"], r["workload"], r["input"]))
        if not b:
            continue
        cells[(r["config"], r["workload"])].append(float(r[metric]) / b)
    table = {}
    for c in configs:
        row = {}
        for w in WORKLOADS:
            v = cells.get((c, w))
            if v:
                row[w] = statistics.mean(v)
        table[c] = row
    return table


def print_table(title, table, fmt):
    cols = [w for w in WORKLOADS if any(w in r for r in table.values())]
    print(title)
    print("| config | " + " | ".join(cols) + " | avg |")
    print("|---" * (len(cols) + 2) + "|")
    for c, row in table.items():
        vals = [row.get(w) for w in cols]
        present = [v for v in vals if v is not None]
        avg = statistics.mean(present) if present else None
        cells = [fmt(v) if v is not None else "-" for v in vals + [avg]]
        print(f"| {c} | " + " | ".join(cells) + " |")
    print()


def parse_before(path):
    """Tables of the form printed above, keyed by the metric in their title."""
    out = {}
    cur = None
    cols = []
    for line in open(path):
        line = line.rstrip("\n")
        if line.endswith("normalised to Baseline (mean over inputs)"):
            cur = out.setdefault(line.split()[0], {})
            cols = []
        elif cur is not None and line.startswith("| config |"):
            cols = [c.strip() for c in line.strip("|").split("|")][1:]
        elif cur is not None and line.startswith("| ") and not line.startswith("|---"):
            parts = [p.strip() for p in line.strip("|").split("|")]
            cur[parts[0]] = {
                c: float(v) for c, v in zip(cols, parts[1:]) if v not in ("-", "")
            }
        elif cur is not None and not line.startswith("|") and cols:
            cur = None
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--before")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.results)))
    before = parse_before(a.before) if a.before else {}
    for m in METRICS:
        t = normalised(rows, m)
        print_table(f"{m} normalised to Baseline (mean over inputs)", t, lambda v: f"{v:.2f}")
        if m in before:
            diff = {}
            for c, row in t.items():
                b = before[m].get(c, {})
                diff[c] = {w: row[w] - b[w] for w in row if w in b}
            print_table(f"{m}: after - before", diff, lambda v: f"{v:+.2f}")


if __name__ == "__main__":
    main()
