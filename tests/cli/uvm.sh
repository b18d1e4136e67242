#!/usr/bin/env bash
# The UVM-like baseline of the LC-MEMENTO node (models/uvm; the programs'
# version=uvm): STREAM's page faults and migrated bytes equal the closed
# form (every page of a, b, c migrates once from the host when tiles are
# page-aligned, whatever the GPU count), pages shared by tiles on different
# GPUs thrash, GUPS and STREAM values equal their CPU references (with
# evictions too, and with thrashing mitigation in every timing mode), runs
# are deterministic, and bad input is one clear error.
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

# Thrashing mitigation (uvm.thrash_threshold, off by default): GUPS pages
# that keep moving are pinned and mapped remotely; the table still equals
# the serial reference, in every timing mode. On 2 GPUs (an NVLink pair)
# pages stay pinned on a GPU and migrate less than without mitigation; on
# 8 no GPU is an NVLink peer of all others, so pinned pages go to host
# memory.
M="--set uvm.thrash_threshold=3 --set uvm.thrash_lapse_us=0"
run_passes "gups uvm on 2 GPUs without mitigation" -p "$P/dgx1-v100x2.json" -w gups-tasks $G
plain=$(uvm_sum from_peer)
run_passes "gups uvm exact on 2 GPUs with mitigation" -p "$P/dgx1-v100x2.json" -w gups-tasks $G $M
[[ $(uvm_sum pinned) -gt 0 && $(uvm_sum remote_accesses) -gt 0 && $(uvm_sum pinned_to_host) -eq 0 &&
  $(uvm_sum from_peer) -lt $plain ]]
check "gups uvm mitigation on 2 GPUs: pinned on a GPU, remote accesses, fewer migrations" $?
# the remote accesses cross the fabric: NVLink 0-1 carries the migrated
# pages and every remote byte
python3 - "$TMP/o/stats.json" <<'PY'
import json, sys
n = json.load(open(sys.argv[1]))["total"]["node"]
u, link = n["uvm"], n["fabric"]["nvlink01"]
remote = sum(v["remote_bytes"]["value"] for k, v in u.items() if k.startswith("gpu_"))
peer = sum(v["from_peer"]["value"] for k, v in u.items() if k.startswith("gpu_")) * 4096
moved = link["fwd_bytes"]["value"] + link["rev_bytes"]["value"]
sys.exit(0 if remote > 0 and moved == remote + peer else 1)
PY
check "gups uvm mitigation on 2 GPUs: NVLink carries the remote bytes" $?
for t in functional lt at; do
  run_passes "gups uvm exact on 8 GPUs with mitigation, $t" -p "$P/dgx1-v100x8.json" \
    -w gups-tasks $G $M --timing $t
  [[ $(uvm_sum pinned_to_host) -gt 0 && $(uvm_sum remote_bytes) -gt 0 ]]
  check "gups uvm mitigation on 8 GPUs, $t: pinned pages go to host memory" $?
done
run_passes "gups uvm exact on 5 GPUs, mitigation, pin_at=hub" -p "$P/dgx1-v100x8.json" \
  -w gups-tasks $G $M --set runtime.gpus=5 --set uvm.pin_at=hub
[[ $(uvm_sum pinned_to_hub) -gt 0 ]]
check "gups uvm pin_at=hub on 5 GPUs: pages move to GPU 0, the hub" $?
run_passes "gups uvm exact, sampled, mitigation with the driver's lapse" -p "$P/dgx1-v100x4.json" \
  -w gups-tasks $G --arg sample=4 --set uvm.thrash_threshold=3 --timing at
run_passes "stream uvm, unaligned tiles, 2 GPUs, mitigation (values checked)" \
  -p "$P/dgx1-v100x2.json" -w stream-tasks $S --set uvm.thrash_threshold=1 \
  --set uvm.thrash_lapse_us=0
[[ $(uvm_sum pinned) -gt 0 && $(uvm_sum remote_bytes) -gt 0 ]]
check "stream uvm mitigation: the shared pages are pinned and read remotely" $?
# The driver's throttling phase (uvm.thrash_pin_threshold): on 5 GPUs a
# thrashing page is fought over in throttling periods, and pinned on GPU 0
# (the one NVLink peer of GPUs 1-4) whenever it is there at a fault, so
# fewer pages end in host memory than when pinned at once; on 6 no GPU is
# a peer of all, every page naps 10 times and then goes to host memory.
run_passes "gups uvm exact on 5 GPUs, mitigation" -p "$P/dgx1-v100x8.json" -w gups-tasks $G $M \
  --set runtime.gpus=5
at_once=$(uvm_sum pinned_to_host)
for t in functional lt at; do
  run_passes "gups uvm exact on 5 GPUs, throttling phase, $t" -p "$P/dgx1-v100x8.json" \
    -w gups-tasks $G $M --set runtime.gpus=5 --set uvm.thrash_pin_threshold=10 --timing $t
  [[ $(uvm_sum throttled) -gt 0 && $(uvm_sum pinned_to_host) -lt $at_once ]]
  check "gups uvm throttling on 5 GPUs, $t: GPUs nap, fewer pages pinned in host memory" $?
done
run_passes "gups uvm exact on 4 GPUs, unpinned after 0.1 ms" -p "$P/dgx1-v100x4.json" \
  -w gups-tasks $G $M --set uvm.thrash_pin_ms=0.1 --timing at
[[ $(uvm_sum unpinned) -gt 0 ]]
check "gups uvm thrash_pin_ms: pinned pages are unpinned and migrate again" $?
run_passes "gups uvm, mitigation off by default" -p "$P/dgx1-v100x2.json" -w gups-tasks $G
! grep -q '"pinned"' "$TMP/o/stats.json"
check "without mitigation its statistics are not declared" $?

"$T" describe node >"$TMP/describe"
grep -q "^uvm.page_bytes .*4096 .*bytes" "$TMP/describe" && grep -q "^uvm.fault_us" "$TMP/describe" &&
  grep -q "^uvm.thrash_threshold  *uint  *0 " "$TMP/describe"
check "describe node lists the uvm parameters (mitigation off by default)" $?

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
expect_error "negative thrash threshold" 2 "uvm.thrash_threshold" "unsigned integer" -- \
  run -p "$P/dgx1-v100x8.json" -w gups-tasks --arg version=uvm --set uvm.thrash_threshold=-1 \
  --out "$TMP/e"
expect_error "negative thrash lapse" 2 "uvm.thrash_lapse_us" "out of range" -- \
  run -p "$P/dgx1-v100x8.json" -w gups-tasks --arg version=uvm --set uvm.thrash_lapse_us=-5 \
  --out "$TMP/e"
printf '{"extends": "%s", "node": {"uvm": {"remote_bytes": 0}}}\n' "$P/dgx1-v100x8.json" \
  >"$TMP/bad-remote.json"
expect_error "zero remote bytes in a node file" 2 "uvm.remote_bytes" "out of range" -- \
  run -p "$TMP/bad-remote.json" -w gups-tasks --arg version=uvm --out "$TMP/e"
printf '{"extends": "%s", "node": {"uvm": {"batch_pages": 0}}}\n' "$P/dgx1-v100x8.json" \
  >"$TMP/bad-uvm.json"
expect_error "zero pages per batch in a node file" 2 "uvm.batch_pages" "out of range" -- \
  run -p "$TMP/bad-uvm.json" -w stream-tasks --arg version=uvm --out "$TMP/e"
finish uvm
