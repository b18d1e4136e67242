#!/usr/bin/env python3
"""Tables for docs/validation/posted-writes.md from two sweep results.csv
files of the same matrix (platforms titanv = posted reds, titanv-paper =
waiting reds), one run in lt and one in at:

  python3 scripts/posted_writes_tables.py LT_RESULTS.csv AT_RESULTS.csv

Prints markdown: (1) cycles per workload/input, posted vs waiting, lt vs at;
(2) normalised time of LAB-64 and serialization-only vs Baseline and the
share of LAB-64's gain serialization-only captures, per platform and mode.
"""
import csv
import sys


def load(path):
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["status"] != "passed":
                continue
            rows[(r["platform"], r["config"], r["workload"], r["input"])] = float(r["cycles"])
    return rows


def pct(a, b):
    return f"{100.0 * (a - b) / b:+.1f} %" if b else "-"


def main():
    lt, at = load(sys.argv[1]), load(sys.argv[2])
    keys = sorted({(w, i) for (_, _, w, i) in at})
    print("| workload | input | at posted | lt posted | lt-at | at waiting | lt waiting | lt-at | at waiting/posted |")
    print("|---|---|---|---|---|---|---|---|---|")
    for w, i in keys:
        c = [at.get(("titanv", "Baseline", w, i)), lt.get(("titanv", "Baseline", w, i)),
             at.get(("titanv-paper", "Baseline", w, i)), lt.get(("titanv-paper", "Baseline", w, i))]
        if None in c:
            continue
        print(f"| {w} | {i or '-'} | {c[0]:,.0f} | {c[1]:,.0f} | {pct(c[1], c[0])} | {c[2]:,.0f} | "
              f"{c[3]:,.0f} | {pct(c[3], c[2])} | {c[2] / c[0]:.2f} |")
    print()
    print("| workload | input | platform | mode | LAB-64 | serialization-only | share of LAB-64's gain |")
    print("|---|---|---|---|---|---|---|")
    for w, i in keys:
        for plat in ("titanv", "titanv-paper"):
            for mode, rows in (("at", at), ("lt", lt)):
                b = rows.get((plat, "Baseline", w, i))
                l = rows.get((plat, "LAB-64", w, i))
                s = rows.get((plat, "LAB-64-serialization", w, i))
                if None in (b, l, s):
                    continue
                gain = b - l
                share = f"{(b - s) / gain:.2f}" if gain > 0.02 * b else "(no gain)"
                print(f"| {w} | {i or '-'} | {plat} | {mode} | {l / b:.2f} | {s / b:.2f} | {share} |")


if __name__ == "__main__":
    main()
