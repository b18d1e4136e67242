#!/usr/bin/env bash
# The runtime node's GPUs as the full GPU model (gpu_model.kind = full,
# models/node/node_gpu_module.*): STREAM's tasks run real kernels on tiny
# GPUs, on 1 and 2 GPUs in functional and lt (and at once), GUPS's too
# (LC and strict tiles, random placement), BFS's (LC and strict
# partitions, 1 and 2 GPUs, redundant LC expansions under random placement)
# and the LC scenarios' (lc-semantics), whose checks run after the
# runtime's LC merges of the GPUs' copies; the CPU check reads the blocks
# the kernels wrote in device memory, so a kernel that writes wrong values
# fails it; the GPU models' kernel cycles and
# instructions are non-zero and grow with the tile; bad input is one clear
# error (exit 2).
#
# usage: bash tests/cli/node_full_gpu.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
P="$(cd "$2" && pwd)/platforms"
FULL="--set gpu_model.kind=full --set gpu_model.platform=tiny.json"
S="-w stream-tasks --arg ntimes=2 --arg block=32"

# stats.json -> "kernels cycles instructions" summed over the GPU models
gpu_totals() {
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
node = d["total"]["node"]
k = c = i = 0
for name, dev in node.items():
    if not name.startswith("device_"):
        continue
    k += dev["task_kernels"]["value"]
    c += dev["gpu"]["kernel_cycles"]["value"]
    for sm, v in dev["gpu"].items():
        if sm.startswith("sm_"):
            i += v["warp_instructions"]["value"]
print(k, c, i)
PY
}

for g in 1 2; do
  for timing in functional lt; do
    run_passes "stream on $g full GPUs, $timing" -p "$P/dgx1-v100x$g.json" $S --arg n=4096 \
      --arg tile=1024 --timing $timing $FULL
    read -r k c i <<<"$(gpu_totals "$TMP/o/stats.json")"
    check "$g GPUs, $timing: 4 kernels x 4 tiles x 2 iterations on the GPU models (got $k)" \
      "$([[ $k -eq 32 ]]; echo $?)"
    check "$g GPUs, $timing: instructions counted ($i)" "$([[ $i -gt 0 ]]; echo $?)"
    [[ $timing == lt ]] && check "$g GPUs, lt: kernel cycles > 0 ($c)" "$([[ $c -gt 0 ]]; echo $?)"
    [[ $g == 2 && $timing == lt ]] && cp "$TMP/o/stats.json" "$TMP/small.json"
  done
done
python3 - "$TMP/o/stats.json" <<'PY'
import json, sys
n = json.load(open(sys.argv[1]))["total"]["node"]
sys.exit(0 if all(n["device_%d" % g]["task_kernels"]["value"] > 0 for g in (0, 1)) else 1)
PY
check "2 GPUs: both GPU models ran kernels" $?
run_passes "stream on 2 full GPUs, at" -p "$P/dgx1-v100x2.json" $S --arg n=2048 --arg tile=512 \
  --timing at $FULL

# Four times the tile: more instructions and more cycles per kernel.
run_passes "stream, tiles 4x larger" -p "$P/dgx1-v100x2.json" $S --arg n=16384 --arg tile=4096 \
  --timing lt $FULL
read -r _ c1 i1 <<<"$(gpu_totals "$TMP/small.json")"
read -r _ c4 i4 <<<"$(gpu_totals "$TMP/o/stats.json")"
check "4x tile: instructions $i1 -> $i4 (> 3x)" "$([[ $i4 -gt $((3 * i1)) ]]; echo $?)"
check "4x tile: kernel cycles $c1 -> $c4 (more)" "$([[ $c4 -gt $c1 ]]; echo $?)"

cp "$TMP/o/stats.json" "$TMP/4x.json"
run_passes "the 4x run again" -p "$P/dgx1-v100x2.json" $S --arg n=16384 --arg tile=4096 \
  --timing lt $FULL
cmp -s "$TMP/o/stats.json" "$TMP/4x.json"
check "same seed, same inputs: identical stats.json with full GPUs" $?

# The check sees what the GPU computed: wrong kernels fail it.
"$T" run -p "$P/dgx1-v100x2.json" $S --arg n=4096 --arg tile=1024 --arg fault=wrong $FULL \
  --quiet --out "$TMP/w" >"$TMP/log" 2>&1
rc=$?
check "a kernel writing value + 1 fails the check (exit $rc)" "$([[ $rc -eq 1 ]]; echo $?)"
# ... which the kernel-time model, computing on the CPU, cannot see.
run_passes "fault=wrong is inert on the kernel-time model" -p "$P/dgx1-v100x2.json" $S \
  --arg n=4096 --arg tile=1024 --arg fault=wrong

# GUPS: generator and update kernels (red.xor into the LC tiles), exact.
G="-w gups-tasks --arg threads=64 --arg per_thread=16 --arg table=4096 --arg updates=4096"
for g in 1 2; do
  for timing in functional lt; do
    run_passes "gups on $g full GPUs, $timing" -p "$P/dgx1-v100x$g.json" $G --timing $timing $FULL
  done
done
read -r k _ _ <<<"$(gpu_totals "$TMP/o/stats.json")"
check "gups on 2 GPUs: 4 steps x (1 + 8 updates) kernels on the GPU models (got $k)" \
  "$([[ $k -eq 36 ]]; echo $?)"
run_passes "gups, strict tiles" -p "$P/dgx1-v100x2.json" $G --arg type=write $FULL
run_passes "gups, index=mask (tiles 0, 1, 6, 7 reachable)" -p "$P/dgx1-v100x2.json" -w gups-tasks \
  --arg threads=64 --arg per_thread=16 --arg table=5120 --arg updates=4096 --arg index=mask $FULL
run_passes "gups, random placement, at" -p "$P/dgx1-v100x4.json" $G --set runtime.locality=random \
  --timing at $FULL

# BFS: the level kernels (label-correcting expansion, an atomic claims the
# output slots) on LC (min-synced every k levels) and strict partitions;
# the check compares the levels, after the LC syncs merged the GPUs'
# divergent copies, with a serial BFS.
B=(-w bfs-tasks --arg "input=gen:rmat?scale=9&ef=8&seed=3" --arg parts=4)
for v in partition lc; do
  for g in 1 2; do
    for timing in functional lt; do
      run_passes "bfs $v on $g full GPUs, $timing" -p "$P/dgx1-v100x$g.json" "${B[@]}" \
        --arg variant=$v --timing $timing $FULL
      read -r k c _ <<<"$(gpu_totals "$TMP/o/stats.json")"
      check "bfs $v, $g GPUs, $timing: level kernels ran on the GPU models ($k)" \
        "$([[ $k -gt 4 ]]; echo $?)"
      [[ $timing == lt ]] && check "bfs $v, $g GPUs, lt: kernel cycles > 0 ($c)" \
        "$([[ $c -gt 0 ]]; echo $?)"
    done
  done
done
run_passes "bfs lc, k=1, at" -p "$P/dgx1-v100x2.json" "${B[@]}" --arg variant=lc --arg k=1 \
  --timing at $FULL
# Random placement: stale LC copies expand vertices again (the k-level
# algorithm's redundant work), and the min merges still give the levels;
# the atomics' order is the simulation's, so a rerun is identical.
expansions() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["metrics"]["expansions"])' "$1"
}
run_passes "bfs partition on 4 full GPUs, at" -p "$P/dgx1-v100x4.json" "${B[@]}" \
  --arg variant=partition --timing at $FULL
e_part=$(expansions "$TMP/o/stats.json")
run_passes "bfs lc, random placement on 4 full GPUs, at" -p "$P/dgx1-v100x4.json" "${B[@]}" \
  --arg variant=lc --set runtime.locality=random --timing at $FULL
e_lc=$(expansions "$TMP/o/stats.json")
check "bfs lc random: redundant expansions on the full GPUs ($e_lc > $e_part)" \
  "$([[ $e_lc -gt $e_part ]]; echo $?)"
cp "$TMP/o/stats.json" "$TMP/bfs.json"
run_passes "the bfs lc random run again" -p "$P/dgx1-v100x4.json" "${B[@]}" --arg variant=lc \
  --set runtime.locality=random --timing at $FULL
cmp -s "$TMP/o/stats.json" "$TMP/bfs.json"
check "bfs on full GPUs: identical stats.json on a rerun" $?

# The LC scenarios with the GPUs' writes as real kernels (fill, load + 1 on
# the NO_COPY copies, a read into another block), checked after the merges.
for t in min latest copy add stale once; do
  for timing in functional lt; do
    run_passes "lc-semantics $t on 2 full GPUs, $timing" -p "$P/dgx1-v100x2.json" -w lc-semantics \
      --arg test=$t --timing $timing $FULL
  done
done
run_passes "lc-semantics min on 8 full GPUs (writers 3, 4, 7)" -p "$P/dgx1-v100x8.json" \
  -w lc-semantics --arg test=min $FULL
run_passes "lc-semantics stale, strict baseline" -p "$P/dgx1-v100x2.json" -w lc-semantics \
  --arg test=stale --arg type=write $FULL
run_passes "lc-semantics add, 4096 cells, tree sync, at" -p "$P/dgx1-v100x4.json" \
  -w lc-semantics --arg test=add --arg cells=4096 --set runtime.lc_sync=tree --timing at $FULL

# Bad input: one clear line each, exit 2.
expect_error "full with a program on timing-only data" 2 "gpu_model.kind = full" "data=none" -- \
  run -p "$P/dgx1-v100x2.json" $S --arg data=none $FULL --out "$TMP/e"
expect_error "full with STREAM's uvm version" 2 "version=uvm" -- \
  run -p "$P/dgx1-v100x2.json" $S --arg version=uvm $FULL --out "$TMP/e"
expect_error "unknown GPU platform" 2 "gpu_model.platform = tinyy" "no platform file" -- \
  run -p "$P/dgx1-v100x2.json" $S --set gpu_model.kind=full --set gpu_model.platform=tinyy \
  --out "$TMP/e"
expect_error "a GPU platform without full" 2 "read only with gpu_model.kind = full" -- \
  run -p "$P/dgx1-v100x2.json" $S --set gpu_model.platform=tiny.json --out "$TMP/e"
expect_error "bad gpu model" 2 "gpu_model.kind" -- \
  run -p "$P/dgx1-v100x2.json" $S --set gpu_model.kind=half --out "$TMP/e"
expect_error "a tile larger than the full GPU's memory" 2 "needs" "gpu_model.memory_mib" -- \
  run -p "$P/dgx1-v100x2.json" $S --arg n=262144 --arg tile=262144 $FULL \
  --set gpu_model.memory_mib=1 --out "$TMP/e"
expect_error "GPU memory beyond the memory budget" 2 "gpu_model.memory_mib" "--max-memory" -- \
  run -p "$P/dgx1-v100x2.json" $S $FULL --set gpu_model.memory_mib=4096 --max-memory 1G \
  --out "$TMP/e"
finish node_full_gpu
