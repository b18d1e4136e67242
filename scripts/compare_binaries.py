#!/usr/bin/env python3
"""Runs the same points with two tlmgpu binaries and compares stats.json.

A refactoring that must not change results (issue 12: "functional and lt
stats stay bit-identical") is checked with it:

  scripts/compare_binaries.py OLD_BINARY NEW_BINARY [--timing functional,lt,at] [--jobs 2]

Each point is a platform, a workload and its arguments (POINTS below, or
--spec with one "platform workload [--arg k=v ...] [--set k=v ...]" per
line). Host-side fields (host.json) are not compared; stats.json must be
byte-identical except for "tlmgpu_version". Exit 1 on any difference.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import tempfile

POINTS = [
    "tiny histogram --arg n=4096",
    "tiny histogram-shared --arg n=4096",
    "tiny stream",
    "tiny latency",
    "tiny histogram --arg n=4096 --set lab.entries=64",
    "tiny histogram --arg n=4096 --set l1.atomic_mode=phi",
    "tiny histogram --arg n=4096 --set l1.atomic_mode=hlrc",
    "tiny random-traffic",
    "tiny pagerank --arg input=gen:rmat?scale=8&ef=8&seed=1",
    "tiny bfs --arg input=gen:rmat?scale=8&ef=8&seed=1",
    "tiny sssp --arg input=gen:rmat?scale=8&ef=8&seed=1 --set lab.entries=32",
    "tiny bc --arg input=gen:rmat?scale=7&ef=8&seed=1",
    "tiny mis --arg input=gen:rmat?scale=8&ef=8&seed=1",
    "tiny clr --arg input=gen:rmat?scale=8&ef=8&seed=1",
    "tiny cca --arg input=gen:rmat?scale=8&ef=8&seed=1",
    "tiny bwc --arg N=1 --arg H=8 --arg W=8",
    "tiny logreg",
    "titanv histogram --arg n=65536",
    "titanv-paper pagerank --arg input=gen:rmat?scale=9&ef=8&seed=1 --set lab.entries=64",
    "gtx980 histogram --arg n=16384",
    "tx1 histogram --arg n=16384 --set l1.atomic_mode=phi",
]


_streams_kernels = {}


def streams_kernels(binary):
    """True when the binary writes per-kernel trees to kernels.jsonl
    (--kernel-stats full, issue 13); older ones keep them in stats.json."""
    if binary not in _streams_kernels:
        h = subprocess.run([binary, "run", "--help"], capture_output=True, text=True)
        _streams_kernels[binary] = "--kernel-stats" in h.stdout + h.stderr
    return _streams_kernels[binary]


NEW_ARGS = []


def run(binary, point, timing, out, extra=()):
    words = shlex.split(point)
    cmd = [binary, "run", "-p", words[0], "-w", words[1], *words[2:], "--timing", timing,
           "--out", out, "--quiet", *extra]
    if streams_kernels(binary):
        cmd += ["--kernel-stats", "full"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1:] or ["exit %d" % r.returncode]
    with open(os.path.join(out, "stats.json")) as f:
        stats = json.load(f)
    stats.pop("tlmgpu_version", None)
    if streams_kernels(binary):  # put each kernel's tree back where older binaries kept it
        with open(os.path.join(out, "kernels.jsonl")) as f:
            for k, line in zip(stats["kernels"], f):
                k["stats"] = json.loads(line)["stats"]
    return stats, None


def drop(node, path):
    """Removes the subtree `path` (dotted, e.g. gpu.atomics) wherever it
    occurs in `node`: for comparing across a change that removes stats on
    purpose (say which in the commit)."""
    if isinstance(node, list):
        for x in node:
            drop(x, path)
        return
    if not isinstance(node, dict):
        return
    head, _, rest = path.partition(".")
    if not rest:  # a single key (e.g. output_hash, new in issue 14) goes wherever it is
        node.pop(head, None)
    elif head in node and isinstance(node[head], dict):
        sub = node[head]
        if "." not in rest:
            sub.pop(rest, None)
        else:
            drop(sub, rest)
    for v in node.values():
        drop(v, path)


DROPS = []


def compare(old, new, point, timing, tmp):
    tag = "%s [%s]" % (point, timing)
    base = os.path.join(tmp, str(abs(hash(tag))))
    a, ea = run(old, point, timing, base + "-old")
    b, eb = run(new, point, timing, base + "-new", NEW_ARGS)
    if ea or eb:
        return tag, "error: old %s / new %s" % (ea, eb)
    for d in DROPS:
        drop(a, d)
        drop(b, d)
    if a == b:
        return tag, "identical"
    # The simulated cycles say at once how far a deliberate order change moved a point.
    ca, cb = (s.get("metrics", {}).get("cycles") for s in (a, b))
    if ca and cb:
        return tag, "DIFFERENT (cycles %d -> %d, %+.2f %%)" % (ca, cb, 100.0 * (cb - ca) / ca)
    return tag, "DIFFERENT"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--timing", default="functional,lt,at")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--spec", help="file with one point per line")
    ap.add_argument("--new-args", default="",
                    help="arguments only the new binary gets (e.g. --set k=v for a new key)")
    ap.add_argument("--drop", action="append", default=[],
                    help="stats subtree to ignore on both sides (dotted, e.g. gpu.atomics; "
                         "a plain key such as output_hash is dropped at every level)")
    args = ap.parse_args()
    DROPS.extend(args.drop)
    NEW_ARGS.extend(shlex.split(args.new_args))
    points = POINTS
    if args.spec:
        with open(args.spec) as f:
            points = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(compare, os.path.abspath(args.old), os.path.abspath(args.new), p, t, tmp)
                for p in points for t in args.timing.split(",")]
        for j in jobs:
            tag, verdict = j.result()
            bad += verdict != "identical"
            print("%-90s %s" % (tag, verdict), flush=True)
    print("%d of %d differ" % (bad, len(jobs)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
