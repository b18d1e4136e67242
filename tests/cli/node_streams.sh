#!/usr/bin/env bash
# Several streams per GPU (runtime.streams) and stream buffering
# (runtime.stream_buffering, ARTS gpuBuffOn) on the LC-MEMENTO node
# (models/node, models/runtime; seed-004 §4.8, pitfalls 11 and 13):
# T-STREAM-SER (one stream: a GPU's operations never overlap; two streams:
# they do, and a copy-bound STREAM takes less time), the buffered issue order
# (all H2D and memsets, then kernels, then D2H, then callbacks), flushes on
# syncs, the programs' checks with both mechanisms in lt and at and on full
# GPUs, and determinism.
#
# usage: bash tests/cli/node_streams.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$(cd "$2" && pwd)/platforms"
mkdir -p "$TMP/s1" "$TMP/s2" "$TMP/b"

# Copy-bound on one GPU: no cache (every task fills its tiles and writes one
# back over PCIe), 32-thread blocks (kernels at eff_full), 8 tiles a kernel.
S="-w stream-tasks --arg n=262144 --arg tile=32768 --arg ntimes=3 --arg block=32 --arg data=real
   --set runtime.cache=false"

# trace.json -> per stream track (not the host workers'), its spans as
# [start, end, name]
spans_py='
import json, sys
def tracks(path):
    d = json.load(open(path))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    name = {e["tid"]: e["args"]["name"] for e in ev
            if e.get("ph") == "M" and e.get("name") == "thread_name"}
    t = {}
    for e in ev:
        if e.get("ph") == "X" and " stream" in name.get(e["tid"], ""):
            t.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    return {k: sorted(v) for k, v in t.items()}
'

run_passes "stream, 1 stream, traced" -p "$P/dgx1-v100x1.json" $S --trace "$TMP/s1/trace.json"
cp "$TMP/o/stats.json" "$TMP/s1.json"
python3 - "$TMP/s1/trace.json" <<PY
$spans_py
t = tracks(sys.argv[1])
ops = t[next(iter(t))]
bad = sum(1 for a, b in zip(ops, ops[1:]) if b[0] < a[1] - 1e-6)
sys.exit(0 if len(t) == 1 and len(ops) > 100 and bad == 0 else 1)
PY
check "T-STREAM-SER: one stream, no two operations of the GPU overlap" $?

run_passes "stream, 2 streams, traced" -p "$P/dgx1-v100x1.json" $S --set runtime.streams=2 \
  --trace "$TMP/s2/trace.json"
cp "$TMP/o/stats.json" "$TMP/s2.json"
python3 - "$TMP/s2/trace.json" <<PY
$spans_py
t = tracks(sys.argv[1])
a, b = list(t.values())
def overlaps(x, y):
    i = j = n = 0
    while i < len(x) and j < len(y):
        if x[i][0] < y[j][1] - 1e-6 and y[j][0] < x[i][1] - 1e-6:
            n += 1
        if x[i][1] < y[j][1]: i += 1
        else: j += 1
    return n
kernels = [(s, e) for x in (a, b) for s, e, n in x if n.startswith("kernel")]
kernels.sort()
two_kernels = sum(1 for p, q in zip(kernels, kernels[1:]) if q[0] < p[1] - 1e-6)
print("" if overlaps(a, b) > 0 and two_kernels == 0 else (overlaps(a, b), two_kernels), end="")
sys.exit(0 if len(t) == 2 and overlaps(a, b) > 0 and two_kernels == 0 else 1)
PY
check "T-STREAM-SER: two streams, operations of different streams overlap, kernels never" $?
python3 - "$TMP/s1.json" "$TMP/s2.json" <<'PY'
import json, sys
one, two = (json.load(open(f)) for f in sys.argv[1:])
s = two["total"]["node"]["stream_0"]
t1, t2 = one["simulated"]["seconds"], two["simulated"]["seconds"]
ok = (s["overlap_ps"]["value"] > 0 and s["copy_kernel_overlap_ps"]["value"] > 0
      and s["s0"]["ops"]["value"] > 0 and s["s1"]["ops"]["value"] > 0
      and "overlap_ps" not in one["total"]["node"]["stream_0"] and t2 < 0.95 * t1)
print("" if ok else (t1, t2), end="")
sys.exit(0 if ok else 1)
PY
check "two streams: overlap counted, both streams used, copy-bound STREAM at least 5% faster" $?

# Concurrent kernels (gpu_time.concurrent_kernels, models/node/kernel_sharing.hpp):
# kernel-time kernels of different streams run at once; one-thread blocks use
# 2 % of the HBM each, so two of them run at their own speed side by side.
K="-w stream-tasks --arg n=262144 --arg tile=32768 --arg ntimes=3 --arg block=1 --arg data=real"
mkdir -p "$TMP/k1" "$TMP/k2"
run_passes "stream, 2 streams, kernels one at a time, traced" -p "$P/dgx1-v100x1.json" $K \
  --set runtime.streams=2 --trace "$TMP/k1/trace.json"
run_passes "stream, 2 streams, 2 concurrent kernels, traced" -p "$P/dgx1-v100x1.json" $K \
  --set runtime.streams=2 --set gpu_time.concurrent_kernels=2 --trace "$TMP/k2/trace.json"
python3 - "$TMP/k1/trace.json" "$TMP/k2/trace.json" "$TMP/o/stats.json" <<PY
$spans_py
def kernels(path):
    return sorted((s, e) for x in tracks(path).values() for s, e, n in x if n.startswith("kernel"))
one, two = kernels(sys.argv[1]), kernels(sys.argv[2])
together = sum(1 for p, q in zip(two, two[1:]) if q[0] < p[1] - 1e-6)
length = lambda k: sorted(round(e - s, 3) for s, e in k)
s = json.load(open(sys.argv[3]))["total"]["node"]["stream_0"]
ok = together > 0 and length(one) == length(two) and s["kernels_overlap_ps"]["value"] > 0
print("" if ok else (together, length(one)[:3], length(two)[:3]), end="")
sys.exit(0 if ok else 1)
PY
check "concurrent kernels: two streams' kernels run at once, each as long as alone" $?
run_passes "stream on a full GPU, 2 streams, concurrent kernels (full-model kernels alone)" \
  -p "$P/dgx1-v100x1.json" -w stream-tasks --arg n=4096 --arg tile=1024 --arg ntimes=2 \
  --arg block=32 --set gpu_model.kind=full --set gpu_model.platform=tiny.json \
  --set runtime.streams=2 --set gpu_time.concurrent_kernels=2 --trace "$TMP/k2/full.json"
python3 - "$TMP/k2/full.json" <<PY
$spans_py
k = sorted((s, e) for x in tracks(sys.argv[1]).values() for s, e, n in x if n == "kernel task")
sys.exit(0 if len(k) > 1 and all(q[0] >= p[1] - 1e-6 for p, q in zip(k, k[1:])) else 1)
PY
check "concurrent kernels: a full GPU model's task kernels still run one at a time" $?

# Buffered, one stream: the operations of a flush regrouped by array.
run_passes "stream, buffered, traced" -p "$P/dgx1-v100x1.json" $S \
  --set runtime.stream_buffering=true --trace "$TMP/b/trace.json"
python3 - "$TMP/b/trace.json" "$TMP/o/stats.json" <<PY
$spans_py
t = tracks(sys.argv[1])
ops = t[next(iter(t))]
cls = {"h2d": 0, "memset": 0, "kernel": 1, "d2h": 2, "callback": 3}
runs = []
for s, e, n in ops:
    c = cls[n.split()[0]]
    if runs and runs[-1][0] == c: runs[-1][1] += 1
    else: runs.append([c, 1])
cyclic = all(b[0] == (a[0] + 1) % 4 for a, b in zip(runs, runs[1:]))
kernel_runs = max(n for c, n in runs if c == 1)
b = json.load(open(sys.argv[2]))["total"]["node"]["stream_buffer"]["gpu_0"]
flushes = sum(b[k]["value"] for k in ("flushes_full", "flushes_idle", "flushes_sync"))
print("" if cyclic and kernel_runs > 1 else (cyclic, kernel_runs), end="")
sys.exit(0 if cyclic and kernel_runs > 1 and runs[0][0] == 0 and flushes > 0 else 1)
PY
check "buffering: each flush issues its H2D, then its kernels, then D2H, then callbacks" $?
run_passes "stream, buffered, 4 entries (flushes when full)" -p "$P/dgx1-v100x1.json" $S \
  --set runtime.stream_buffering=true --set runtime.buffer_entries=4
python3 -c "import json,sys; b=json.load(open('$TMP/o/stats.json'))['total']['node']['stream_buffer']['gpu_0']; sys.exit(0 if b['flushes_full']['value'] > 0 else 1)"
check "buffering: an array reaching buffer_entries flushes" $?

# The LC scenarios, buffered on two streams; eviction merges (a sweep before
# every GPU task) wait for their GPU, which flushes it first.
for t in min add once; do
  run_passes "lc-semantics $t, buffered, 2 streams" -p "$P/dgx1-v100x8.json" -w lc-semantics \
    --arg test=$t --set runtime.stream_buffering=true --set runtime.streams=2
done
run_passes "gups exact, sweeps before every task, buffered" -p "$P/dgx1-v100x4.json" \
  -w gups-tasks --arg threads=64 --arg per_thread=16 --arg table=16384 --arg updates=50000 \
  --set runtime.locality=random --set runtime.gc=pre_edt --set runtime.stream_buffering=true
python3 - "$TMP/o/stats.json" <<'PY'
import json, sys
n = json.load(open(sys.argv[1]))["total"]["node"]
b = n["stream_buffer"]
sync = sum(g["flushes_sync"]["value"] for k, g in b.items() if k.startswith("gpu_"))
sys.exit(0 if sync > 0 and n["runtime"]["lc_eviction_merges"]["value"] > 0 else 1)
PY
check "buffering: waits for a GPU (eviction merges) flushed it first" $?

# The programs' own checks, every combination, lt and at.
G="-w gups-tasks --arg threads=64 --arg per_thread=16 --arg table=16384 --arg updates=50000"
B="-w bfs-tasks --arg input=gen:rmat?scale=10&ef=16&seed=3"
for timing in lt at; do
  for mode in "runtime.streams=2" "runtime.stream_buffering=true" \
    "runtime.streams=3 --set runtime.stream_buffering=true"; do
    run_passes "stream exact, $mode, $timing" -p "$P/dgx1-v100x2.json" -w stream-tasks \
      --arg n=65536 --arg tile=8192 --arg ntimes=2 --set $mode --timing $timing
    run_passes "gups exact, random placement, $mode, $timing" -p "$P/dgx1-v100x4.json" $G \
      --set runtime.locality=random --set $mode --timing $timing
    run_passes "bfs lc, random placement, $mode, $timing" -p "$P/dgx1-v100x8.json" $B \
      --set runtime.locality=random --set $mode --timing $timing
  done
done
run_passes "bfs partition, 2 streams, buffered" -p "$P/dgx1-v100x8.json" $B --arg variant=partition \
  --set runtime.streams=2 --set runtime.stream_buffering=true
run_passes "gups exact, 1 MiB per GPU (evictions), 2 streams, buffered" -p "$P/dgx1-v100x4.json" \
  $G --set runtime.locality=random --set runtime.max_memory_mib=1 --set runtime.streams=2 \
  --set runtime.stream_buffering=true
FULL="--set gpu_model.kind=full --set gpu_model.platform=tiny.json"
run_passes "stream on 2 full GPUs, 2 streams (kernels serialized)" -p "$P/dgx1-v100x2.json" \
  -w stream-tasks --arg n=4096 --arg tile=1024 --arg ntimes=2 --arg block=32 $FULL \
  --set runtime.streams=2
run_passes "gups on a full GPU, 2 streams, buffered" -p "$P/dgx1-v100x1.json" \
  -w gups-tasks --arg threads=64 --arg per_thread=16 --arg table=4096 --arg updates=4096 $FULL \
  --set runtime.streams=2 --set runtime.stream_buffering=true

# Determinism: the same seed gives the same stats.
M="--set runtime.streams=2 --set runtime.stream_buffering=true --timing at"
run_passes "gups, 2 streams, buffered, at" -p "$P/dgx1-v100x8.json" $G $M
cp "$TMP/o/stats.json" "$TMP/d1.json"
run_passes "again" -p "$P/dgx1-v100x8.json" $G $M
cmp -s "$TMP/d1.json" "$TMP/o/stats.json"
check "same seed: identical stats.json with 2 streams and buffering" $?

expect_error "zero streams" 2 "runtime.streams" "out of range" -- \
  run -p "$P/dgx1-v100x1.json" -w stream-tasks --set runtime.streams=0 --out "$TMP/e"

finish node_streams
