#!/usr/bin/env python3
"""LT against AT, per point of a sweep, as a markdown page.

Reads the results.csv of two `tlmgpu sweep` runs of the same spec, one with
"timing": "at" and one with "lt" (several CSVs each may be given, comma
separated), and prints: per config, how far LT's cycles are from AT's and
how far LT's result normalised to the baseline config is from AT's; then the
points outside the limits; then every point. Only points that passed in both
modes are compared (the others are listed).

usage: scripts/lt_at_table.py AT.csv[,AT2.csv] LT.csv[,LT2.csv] [--baseline Baseline]
"""
import argparse
import csv
import sys


def load(paths):
    """(config, workload, input) -> cycles. With several platforms or seeds in
    the sweep, the input is named with them ("apu64 grid-w128 s2"): one key
    per point, never two points folded into one."""
    rows = []
    for path in paths.split(","):
        with open(path, newline="") as f:
            rows += list(csv.DictReader(f))
    platforms = {r["platform"] for r in rows}
    seeds = {r["seed"] for r in rows}
    points, failed = {}, []
    for row in rows:
        inp = row["input"].rsplit("/", 1)[-1] or "-"
        if len(platforms) > 1:
            inp = f"{row['platform'].rsplit('/', 1)[-1].removesuffix('.json')} {inp}"
        if len(seeds) > 1:
            inp += f" s{row['seed']}"
        key = (row["config"], row["workload"], inp)
        if key in points or key in failed:
            sys.exit(f"lt_at_table: {paths}: two points named {'/'.join(key)}")
        if row["status"] != "passed":
            failed.append(key)
            continue
        points[key] = float(row["cycles"])
    return points, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("at")
    ap.add_argument("lt")
    ap.add_argument("--baseline", default="Baseline")
    ap.add_argument("--limit", type=float, default=0.15, help="|lt/at - 1| limit (0.15)")
    ap.add_argument("--norm-limit", type=float, default=0.05,
                    help="limit on normalised results (0.05)")
    args = ap.parse_args()
    at, at_failed = load(args.at)
    lt, lt_failed = load(args.lt)
    keys = sorted(set(at) & set(lt))
    if not keys:
        sys.exit("lt_at_table: no point passed in both sweeps")

    rows = []
    for key in keys:
        config, workload, inp = key
        base = (args.baseline, workload, inp)
        na = at[key] / at[base] if base in at else None
        nl = lt[key] / lt[base] if base in lt else None
        rows.append((key, at[key], lt[key], na, nl))

    def norm_err(r):
        return None if r[3] is None or r[4] is None or r[0][0] == args.baseline else r[4] / r[3] - 1

    print("| config | points | mean abs(lt/at - 1) | worst lt/at | normalised: mean abs error | worst |")
    print("|---|---|---|---|---|---|")
    for config in sorted({r[0][0] for r in rows}):
        mine = [r for r in rows if r[0][0] == config]
        errs = [r[2] / r[1] - 1 for r in mine]
        worst = max(errs, key=abs)
        nerrs = [e for e in map(norm_err, mine) if e is not None]
        ncell = (f"{sum(map(abs, nerrs)) / len(nerrs):.3f} | {max(nerrs, key=abs):+.3f}"
                 if nerrs else "- | -")
        print(f"| {config} | {len(mine)} | {sum(map(abs, errs)) / len(errs):.3f} | "
              f"{1 + worst:.3f} | {ncell} |")
    errs = [r[2] / r[1] - 1 for r in rows]
    nerrs = [e for e in map(norm_err, rows) if e is not None]
    norm = (f"normalised mean abs error {sum(map(abs, nerrs)) / len(nerrs):.4f}, "
            f"{sum(abs(e) > args.norm_limit for e in nerrs)} of {len(nerrs)} beyond "
            f"{args.norm_limit:.0%}" if nerrs else f"no point to normalise (no {args.baseline})")
    print(f"\n{len(rows)} points: mean abs(lt/at - 1) {sum(map(abs, errs)) / len(errs):.4f}, "
          f"{sum(abs(e) > args.limit for e in errs)} beyond {args.limit:.0%}; {norm}.")
    for name, failed in (("at", at_failed), ("lt", lt_failed)):
        if failed:
            print(f"\nNot passed in {name}: " + ", ".join("/".join(k) for k in failed))

    def table(selected):
        print("| config | workload | input | at | lt | lt/at | at / base | lt / base |")
        print("|---|---|---|---|---|---|---|---|")
        for (config, workload, inp), a, l, na, nl in selected:
            fmt = lambda v: "-" if v is None else f"{v:.3f}"
            print(f"| {config} | {workload} | {inp} | {a:,.0f} | {l:,.0f} | {l / a:.3f} | "
                  f"{fmt(na)} | {fmt(nl)} |")

    outside = [r for r in rows if abs(r[2] / r[1] - 1) > args.limit or
               (norm_err(r) is not None and abs(norm_err(r)) > args.norm_limit)]
    print(f"\n### Points beyond {args.limit:.0%} or {args.norm_limit:.0%} normalised\n")
    if outside:
        table(outside)
    else:
        print("None.")
    print("\n### Every point\n")
    table(rows)


if __name__ == "__main__":
    main()
