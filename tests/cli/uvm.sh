#!/usr/bin/env bash
# The UVM-like baseline of the LC-MEMENTO node (models/uvm; the programs'
# version=uvm): STREAM's page faults and migrated bytes equal the closed
# form (every page of a, b, c migrates once from the host when tiles are
# page-aligned, whatever the GPU count), pages shared by tiles on different
# GPUs thrash, GUPS and STREAM values equal their CPU references (with
# evictions too), runs are deterministic, and bad input is one clear error.
#
# usage: bash tests/cli/uvm.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$(cd "$2" && pwd)/platforms"

# sums a counter of node.uvm.gpu_* in the last run's stats.json
uvm_sum() {
  python3 - "$TMP/o/stats.json" "$1" <<'PY'
import json, sys
u = json.load(open(sys.argv[1]))["total"]["node"]["uvm"]
print(sum(v[sys.argv[2]]["value"] for k, v in u.items() if k.startswith("gpu_")))
PY
}

# STREAM, N = 2,000,000, tile 2^18 doubles (2 MiB, page-aligned): 3907
# pages per array, each migrates once from the host in iteration 0; per
# tile the copy kernel faults on a and c, scale on b.
for g in 1 2 4 8; do
  run_passes "stream uvm on $g GPUs" -p "$P/dgx1-v100x$g.json" -w stream-tasks --arg version=uvm \
    --arg tile=262144 --arg data=none
  python3 - "$TMP/o/stats.json" <<'PY'
import json, math, sys
u = json.load(open(sys.argv[1]))["total"]["node"]["uvm"]
s = lambda k: sum(v[k]["value"] for n, v in u.items() if n.startswith("gpu_"))
N, T, page = 2000000, 262144, 4096
pages = math.ceil(8 * N / page)
batches = 0
for lo in range(0, N, T):
    p = (8 * min(lo + T, N) - 1) // page - 8 * lo // page + 1
    batches += math.ceil(2 * p / 256) + math.ceil(p / 256)
want = {"faults": 3 * pages, "from_host": 3 * pages, "from_peer": 0, "evicted": 0,
        "migrated_bytes": 3 * pages * page, "batches": batches}
bad = {k: (s(k), w) for k, w in want.items() if s(k) != w}
print(bad if bad else "", end="")
sys.exit(1 if bad else 0)
PY
  check "stream uvm on $g GPUs: faults, batches and bytes equal the closed form" $?
done

# Tiles of 1000 doubles share pages with their neighbours: on one GPU
# nothing moves after the first touch, on two the shared pages thrash.
S="--arg version=uvm --arg n=100000 --arg tile=1000 --arg ntimes=3 --arg data=real"
run_passes "stream uvm, unaligned tiles, 1 GPU (values checked)" -p "$P/dgx1-v100x1.json" \
  -w stream-tasks $S
[[ $(uvm_sum from_peer) -eq 0 ]]
check "one GPU: no page moves between GPUs" $?
run_passes "stream uvm, unaligned tiles, 2 GPUs (values checked)" -p "$P/dgx1-v100x2.json" \
  -w stream-tasks $S
[[ $(uvm_sum from_peer) -gt 0 ]]
check "two GPUs: pages shared by their tiles thrash" $?
run_passes "stream uvm, paper size on 8 GPUs (values checked)" -p "$P/dgx1-v100x8.json" \
  -w stream-tasks --arg version=uvm --arg ntimes=3

# GUPS: the table equals the serial reference; a 128 KiB table (32 pages)
# is all touched by 50,000 updates, so one GPU faults each page once.
G="--arg version=uvm --arg threads=64 --arg table=16384 --arg updates=50000"
run_passes "gups uvm exact on 1 GPU" -p "$P/dgx1-v100x1.json" -w gups-tasks $G
[[ $(uvm_sum faults) -eq 32 && $(uvm_sum from_peer) -eq 0 ]]
check "gups uvm on 1 GPU: each of the 32 pages faults once" $?
for g in 2 8; do
  run_passes "gups uvm exact on $g GPUs" -p "$P/dgx1-v100x$g.json" -w gups-tasks $G
  [[ $(uvm_sum from_peer) -gt 0 ]]
  check "gups uvm on $g GPUs: the table's pages thrash between GPUs" $?
done
run_passes "gups uvm exact, sampled 1 in 4" -p "$P/dgx1-v100x1.json" -w gups-tasks $G --arg sample=4
[[ $(uvm_sum faults) -eq 32 ]]
check "gups uvm sampled: an entry's fault counts its 4 pages" $?
run_passes "gups uvm exact, 8 MiB table in 1 MiB per GPU (evictions)" -p "$P/dgx1-v100x2.json" \
  -w gups-tasks --arg version=uvm --arg threads=64 --arg table=1048576 --arg updates=20000 \
  --set gpu_time.capacity_mib=1
[[ $(uvm_sum evicted) -gt 0 ]]
check "gups uvm with 1 MiB per GPU evicted pages" $?
run_passes "gups uvm, shared fault service, at" -p "$P/dgx1-v100x4.json" -w gups-tasks $G \
  --set uvm.service=shared --timing at
cp "$TMP/o/stats.json" "$TMP/g1.json"
run_passes "gups uvm again" -p "$P/dgx1-v100x4.json" -w gups-tasks $G --set uvm.service=shared \
  --timing at
cmp -s "$TMP/g1.json" "$TMP/o/stats.json"
check "same seed, same inputs: identical stats.json" $?

"$T" describe node >"$TMP/describe"
grep -q "^uvm.page_bytes .*4096 .*bytes" "$TMP/describe" && grep -q "^uvm.fault_us" "$TMP/describe"
check "describe node lists the uvm parameters" $?

# Bad input: one clear line each.
expect_error "unknown version" 2 "version=cuda" "expected tasks or uvm" -- \
  run -p "$P/dgx1-v100x8.json" -w stream-tasks --arg version=cuda --out "$TMP/e"
expect_error "unknown uvm key" 2 "uvm.pagebytes" "did you mean 'uvm.page_bytes'" -- \
  run -p "$P/dgx1-v100x8.json" -w gups-tasks --arg version=uvm --set uvm.pagebytes=4096 \
  --out "$TMP/e"
expect_error "page size out of range" 2 "uvm.page_bytes" "out of range" -- \
  run -p "$P/dgx1-v100x8.json" -w gups-tasks --arg version=uvm --set uvm.page_bytes=100 \
  --out "$TMP/e"
expect_error "unknown fault service" 2 "uvm.service" -- \
  run -p "$P/dgx1-v100x8.json" -w gups-tasks --arg version=uvm --set uvm.service=global \
  --out "$TMP/e"
printf '{"extends": "%s", "node": {"uvm": {"batch_pages": 0}}}\n' "$P/dgx1-v100x8.json" \
  >"$TMP/bad-uvm.json"
expect_error "zero pages per batch in a node file" 2 "uvm.batch_pages" "out of range" -- \
  run -p "$TMP/bad-uvm.json" -w stream-tasks --arg version=uvm --out "$TMP/e"
finish uvm
