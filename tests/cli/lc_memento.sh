#!/usr/bin/env bash
# The LC-MEMENTO node (platforms/dgx1-v100x*.json; models/fabric,
# models/runtime, models/node, workloads/node_apps): the location-consistency
# scenarios of seed-004 §7.6 (T-LC-1..5) under both sync engines, GUPS exact
# against its serial reference on 1-8 GPUs with owner and random placement,
# forced evictions, strict tiles and the reference's index mask, STREAM's
# transfer counts equal to the closed forms of §6.1 (T-XFER-1) with the
# cache on and off, determinism, and bad input as one clear error.
#
# usage: bash tests/cli/lc_memento.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$(cd "$2" && pwd)/platforms"

# T-LC-1..5: each scenario checks its own expectation.
for t in min latest copy add stale once; do
  for sync in tree host_serial; do
    run_passes "lc-semantics $t, $sync" -p "$P/dgx1-v100x8.json" -w lc-semantics --arg test=$t \
      --set runtime.lc_sync=$sync
  done
done
run_passes "stale read impossible under strict" -p "$P/dgx1-v100x8.json" -w lc-semantics \
  --arg test=stale --arg type=write
run_passes "add exact with forced evictions" -p "$P/dgx1-v100x4.json" -w lc-semantics --arg test=add \
  --arg rounds=5 --arg cells=100000 --set runtime.max_memory_mib=1
python3 - "$TMP/o/stats.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["total"]["node"]["runtime"]
sys.exit(0 if r["lc_eviction_merges"]["value"] > 0 else 1)
PY
check "the forced-eviction run evicted and merged LC copies" $?
run_passes "exactly once: a sweep after the sync merges nothing again" -p "$P/dgx1-v100x8.json" \
  -w lc-semantics --arg test=once --set runtime.gc=pre_edt

# The timeline: a span per stream operation, one track per GPU; a span per
# worker activity (launches, CPU tasks, LC syncs), one track per worker.
"$T" run -p "$P/dgx1-v100x4.json" -w lc-semantics --arg test=add --trace "$TMP/t/trace.json" \
  --quiet --out "$TMP/t" >/dev/null 2>&1
python3 - "$TMP/t/trace.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
track = {e["tid"]: e["args"]["name"] for e in ev
         if e.get("ph") == "M" and e.get("name") == "thread_name"}
spans = [e for e in ev if e.get("ph") == "X"]
stream = [e for e in spans if track.get(e["tid"], "").endswith(" stream")]
host = [e for e in spans if track.get(e["tid"], "").startswith("host worker ")]
names = {e["name"] for e in stream}
hnames = {e["name"].split(" ")[0] for e in host}
ok = (len({e["tid"] for e in stream}) == 4 and "kernel task" in names and "p2p sync" in names
      and {"launch", "lc"} <= hnames and all(e["dur"] >= 0 for e in host))
sys.exit(0 if ok else 1)
PY
check "trace: stream operations on one track per GPU, host workers' work on theirs" $?

# GUPS: exact on 1..8 GPUs, several steps per GPU.
G="--arg threads=64 --arg per_thread=16 --arg table=16384 --arg updates=50000"
for g in 1 2 4 8; do
  run_passes "gups exact on $g GPUs" -p "$P/dgx1-v100x$g.json" -w gups-tasks $G
done
run_passes "gups exact, random placement" -p "$P/dgx1-v100x8.json" -w gups-tasks $G \
  --set runtime.locality=random
run_passes "gups exact, random placement, 1 MiB per GPU (evictions)" -p "$P/dgx1-v100x4.json" \
  -w gups-tasks $G --set runtime.locality=random --set runtime.max_memory_mib=1
run_passes "gups exact, strict tiles" -p "$P/dgx1-v100x4.json" -w gups-tasks $G --arg type=write
# index=mask (the reference's value & (table - 1), pitfall 2) on a table of
# the paper's shape (5 x 2^12 entries in 8 tiles): only tiles 0, 1, 6, 7 are
# reachable, so they alone get update tasks and copies to merge.
M="--arg threads=64 --arg per_thread=16 --arg table=20480 --arg updates=50000 --arg index=mask"
for g in 1 2 4 8; do
  run_passes "gups exact, index=mask, on $g GPUs" -p "$P/dgx1-v100x$g.json" -w gups-tasks $M
done
python3 - "$TMP/o/stats.json" <<'PY2'
import json, sys
r = json.load(open(sys.argv[1]))["total"]["node"]["runtime"]
# 8 GPUs x 7 steps (6,250 updates, 1,024 a step): a generator and 4 update
# tasks each; 4 tiles merged
ok = r["gpu_tasks"]["value"] == 56 * 5 and r["lc_copies_merged"]["value"] == 4
sys.exit(0 if ok else 1)
PY2
check "index=mask: update tasks and merged copies for the 4 reachable tiles only" $?
run_passes "gups exact, index=mask, random placement, 1 MiB per GPU" -p "$P/dgx1-v100x4.json" \
  -w gups-tasks $M --set runtime.locality=random --set runtime.max_memory_mib=1
run_passes "gups exact, at" -p "$P/dgx1-v100x8.json" -w gups-tasks $G --timing at
cp "$TMP/o/stats.json" "$TMP/g1.json"
run_passes "gups again" -p "$P/dgx1-v100x8.json" -w gups-tasks $G --timing at
cmp -s "$TMP/g1.json" "$TMP/o/stats.json"
check "same seed, same inputs: identical stats.json" $?

# BFS: the levels equal a serial BFS for both variants, with stale LC copies
# (random placement) and several sync periods; LC re-expands vertices.
B="--arg input=gen:rmat?scale=10&ef=16&seed=3"
run_passes "bfs partition" -p "$P/dgx1-v100x8.json" -w bfs-tasks $B --arg variant=partition
python3 -c "import json,sys; sys.exit(0 if json.load(open('$TMP/o/stats.json'))['metrics']['expansions'] > 0 else 1)"
check "bfs partition expanded vertices" $?
for k in 1 2 3; do
  run_passes "bfs lc k=$k, random placement" -p "$P/dgx1-v100x8.json" -w bfs-tasks $B --arg k=$k \
    --set runtime.locality=random
done
run_passes "bfs lc on karate, 2 GPUs" -p "$P/dgx1-v100x2.json" -w bfs-tasks --arg parts=4 \
  --arg "input=$2/../shared/data/karate.mtx" --set runtime.locality=random

# T-XFER-1: STREAM's counts, N = 2,000,000, T = 2^18 (nt = 8), NTIMES = 10.
for g in 1 2 4 8; do
  for cache in true false; do
    run_passes "stream-tasks on $g GPUs, cache $cache" -p "$P/dgx1-v100x$g.json" -w stream-tasks \
      --arg tile=262144 --arg data=none --set runtime.cache=$cache
    python3 - "$TMP/o/stats.json" "$cache" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["total"]["node"]["runtime"]
cache = sys.argv[2] == "true"
gpus = [v for k, v in r.items() if k.startswith("gpu_") and k[4:].isdigit()]
s = lambda k: sum(g[k]["value"] for g in gpus)
N, nt, h = 2000000, 8, 64
want = {
    "misses": 3 * nt if cache else 100 * nt,
    "hits": 97 * nt if cache else 0,
    "writebacks": 100 * nt,
    "writeback_bytes": 10 * 10 * 8 * N,
    "closures": 40 * nt,
    "tasks": 40 * nt,
}
got = {k: s(k) for k in want}
fill = s("h2d_bytes") - sum(8 * (p + 1) + 24 * d for d, p in [(2, 1), (2, 2), (3, 1), (3, 2)]) * 10 * nt
want_fill = (3 if cache else 100) * 8 * N + (3 if cache else 100) * nt * h
bad = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
if fill != want_fill: bad["fill bytes"] = (fill, want_fill)
print(bad if bad else "", end="")
sys.exit(1 if bad else 0)
PY
    check "stream counts on $g GPUs, cache $cache equal the closed forms" $?
  done
done

# Bad input: one clear line each.
expect_error "unknown runtime key in --set" 2 "runtime.localty" "did you mean" -- \
  run -p "$P/dgx1-v100x8.json" -w stream-tasks --set runtime.localty=random --out "$TMP/e"
expect_error "bad locality value" 2 "runtime.locality" -- \
  run -p "$P/dgx1-v100x8.json" -w stream-tasks --set runtime.locality=near --out "$TMP/e"
expect_error "a GPU workload on a runtime node" 2 "runtime node runs task programs" -- \
  run -p "$P/dgx1-v100x8.json" -w histogram --out "$TMP/e"
expect_error "bad app argument" 2 "test=maybe" -- \
  run -p "$P/dgx1-v100x8.json" -w lc-semantics --arg test=maybe --out "$TMP/e"
sed -e 's/"a": "mem0"/"a": "mem9"/' -e "s|\"titanv.json\"|\"$P/titanv.json\"|" \
  "$P/dgx1-v100x8.json" >"$TMP/bad-node.json"
expect_error "a link to an undeclared point" 2 "bad-node.json" "unknown point 'mem9'" -- \
  run -p "$TMP/bad-node.json" -w stream-tasks --out "$TMP/e"
printf '{"extends": "%s", "node": {"fabric": {"links": "x"}}}\n' "$P/dgx1-v100x8.json" \
  >"$TMP/bad-links.json"
expect_error "links not a list" 2 "node.fabric.links" -- \
  run -p "$TMP/bad-links.json" -w stream-tasks --out "$TMP/e"
printf '{"extends": "%s", "node": {"host": {"workers": 0}}}\n' "$P/dgx1-v100x8.json" \
  >"$TMP/bad-workers.json"
expect_error "zero workers" 2 "host.workers" "out of range" -- \
  run -p "$TMP/bad-workers.json" -w stream-tasks --out "$TMP/e"
expect_error "a task larger than a GPU's budget" 2 "needs" "runtime.max_memory_mib" -- \
  run -p "$P/dgx1-v100x2.json" -w stream-tasks --arg tile=1048576 --set runtime.max_memory_mib=4 \
  --out "$TMP/e"
finish lc_memento
