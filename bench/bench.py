#!/usr/bin/env python3
"""Benchmarks that measure the model (issue 13): CPU seconds (user + system
of the simulator process, not wall time), median of N runs, simulated warp
instructions and core cycles per CPU second, peak RSS. Not a test: the
numbers go to docs/performance.md.

usage:
  bench/bench.py [--bin B] [--repeat N] [--cases C,...] [--modes M,...]
  bench/bench.py --compare A B [--repeat N] [--cases ...] [--modes ...]

--compare runs the two binaries interleaved (A, B, A, B, ...) so that the
machine's drift hits both alike, prints each one's median and the ratio
B/A, and whether their stats.json are byte-identical.

Cases (--cases, default: hist,pr-as20,pr-rmat16,traffic):
  hist       histogram, 1 Mi pixels, titanv
  hist16     histogram, 16 Mi pixels, titanv
  pr-as20    PageRank on as20graph (../shared/data), titanv
  pr-rmat16  PageRank on R-MAT scale 16 (edge factor 8), titanv
  pr-rmat18  PageRank on R-MAT scale 18, titanv
  traffic    random traffic, 5000 requests per generator, titanv

The traffic case also prints a row `generator`: the same 80 generators
against a perfect memory (bench/traffic_generator.cpp, the program
traffic_generator_bench next to the binary), so the generators' own
CPU time is reported apart from the model's.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data")

CASES = {
    "hist": ["-w", "histogram", "--arg", "n=1048576"],
    "hist16": ["-w", "histogram", "--arg", "n=16777216"],
    "pr-as20": ["-w", "pagerank", "--input", os.path.join(DATA, "as20graph.txt")],
    "pr-rmat16": ["-w", "pagerank", "--input", "gen:rmat?scale=16&ef=8&seed=1"],
    "pr-rmat18": ["-w", "pagerank", "--input", "gen:rmat?scale=18&ef=8&seed=1"],
    "traffic": ["-w", "random-traffic", "--arg", "requests=5000"],
}


def total(node, key):
    """Sum of stat `key` over the whole stats tree (e.g. every SM's)."""
    t = 0
    for k, v in node.items():
        if isinstance(v, dict) and "type" in v:
            t += v["value"] if k == key else 0
        elif isinstance(v, dict):
            t += total(v, key)
    return t


def run_once(binary, case, mode, out):
    """One run; returns (cpu seconds, peak RSS MiB, stats.json bytes)."""
    cmd = [binary, "run", "-p", os.path.join(ROOT, "platforms", "titanv.json"), *CASES[case],
           "--timing", mode, "--out", out, "--quiet"]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    err = p.stderr.read().decode()
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{err}")
    with open(os.path.join(out, "stats.json"), "rb") as f:
        stats = f.read()
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, stats


def comparable(stats_bytes):
    """stats.json without what may differ between builds of one model: the
    version, and the per-kernel stats trees that older builds kept inline
    (newer ones write them to kernels.jsonl on request)."""
    s = json.loads(stats_bytes)
    s.pop("tlmgpu_version", None)
    for k in s.get("kernels", []):
        k.pop("stats", None)
    return s


def work_of(stats_bytes, case):
    s = json.loads(stats_bytes)
    if case == "traffic":
        return total(s["total"], "issued"), s["simulated"]["cycles"]
    return total(s["total"], "warp_instructions"), s["simulated"]["cycles"]


def generator_seconds(binary, repeat):
    """Median CPU seconds of the traffic case's generators alone, or None
    when traffic_generator_bench was not built next to `binary`."""
    gen = os.path.join(os.path.dirname(os.path.abspath(binary)), "traffic_generator_bench")
    if not os.access(gen, os.X_OK):
        return None
    times = []
    for _ in range(repeat):
        out = subprocess.run([gen], check=True, capture_output=True, text=True).stdout
        times.append(float(dict(l.split() for l in out.splitlines())["cpu_s"]))
    return statistics.median(times)


def measure(binaries, case, mode, repeat, tmp):
    """Interleaved runs of each binary; per binary: cpu times, rss, stats."""
    res = [{"cpu": [], "rss": [], "stats": None} for _ in binaries]
    for _ in range(repeat):
        for i, b in enumerate(binaries):
            cpu, rss, stats = run_once(b, case, mode, os.path.join(tmp, f"{case}-{mode}-{i}"))
            res[i]["cpu"].append(cpu)
            res[i]["rss"].append(rss)
            res[i]["stats"] = stats
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "tlmgpu"))
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cases", default="hist,pr-as20,pr-rmat16,traffic")
    ap.add_argument("--modes", default="functional,lt,at")
    a = ap.parse_args()
    cases, modes = a.cases.split(","), a.modes.split(",")
    for c in cases:
        if c not in CASES:
            sys.exit(f"bench: unknown case '{c}'; cases: {', '.join(CASES)}")
    binaries = a.compare if a.compare else [a.bin]
    for b in binaries:
        if not os.access(b, os.X_OK):
            sys.exit(f"bench: {b} is not an executable (build first: scripts/build.sh)")
    with tempfile.TemporaryDirectory(prefix="tlmgpu-bench-") as tmp:
        if a.compare:
            print(f"A = {binaries[0]}\nB = {binaries[1]}\n"
                  f"CPU seconds, median of {a.repeat}, interleaved\n")
            print(f"{'case':<10} {'mode':<10} {'A cpu_s':>8} {'B cpu_s':>8} {'B/A':>6} "
                  f"{'A rss':>7} {'B rss':>7}  stats")
        else:
            print(f"{binaries[0]}: CPU seconds, median of {a.repeat}\n")
            print(f"{'case':<10} {'mode':<10} {'cpu_s':>8} {'work':>11} {'cycles':>10} "
                  f"{'work/cpu_s':>12} {'cycles/cpu_s':>13} {'rss_MiB':>8}")
        for case in cases:
            for mode in modes:
                r = measure(binaries, case, mode, a.repeat, tmp)
                med = [statistics.median(x["cpu"]) for x in r]
                rss = [max(x["rss"]) for x in r]
                if a.compare:
                    same = comparable(r[0]["stats"]) == comparable(r[1]["stats"])
                    print(f"{case:<10} {mode:<10} {med[0]:8.3f} {med[1]:8.3f} "
                          f"{med[1] / med[0]:6.2f} {rss[0]:7.0f} {rss[1]:7.0f}  "
                          f"{'identical' if same else 'DIFFER'}", flush=True)
                else:
                    work, cyc = work_of(r[0]["stats"], case)
                    print(f"{case:<10} {mode:<10} {med[0]:8.3f} {int(work):11d} {cyc:10d} "
                          f"{work / med[0]:12,.0f} {cyc / med[0]:13,.0f} {rss[0]:8.0f}",
                          flush=True)
            if case == "traffic" and not a.compare:
                gen = generator_seconds(binaries[0], a.repeat)
                if gen is None:
                    print(f"{case:<10} {'generator':<10} (traffic_generator_bench not built)")
                else:
                    work, _ = work_of(r[0]["stats"], case)
                    print(f"{case:<10} {'generator':<10} {gen:8.3f} {int(work):11d} {'':>10} "
                          f"{work / gen:12,.0f} {'':>13} {'':>8}", flush=True)
        if not a.compare:
            print("\nwork: warp instructions (traffic: generator requests); traffic's "
                  "generator row: the generators alone (the model's cost is cpu_s minus it)")


if __name__ == "__main__":
    main()
