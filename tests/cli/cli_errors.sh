#!/usr/bin/env bash
# The command-line contract: every error is exactly one stderr line
# "tlmgpu: error: ..." naming the key or file, with exit code 2 for usage and
# configuration errors; list/describe/config succeed without starting SystemC.
#
# usage: bash tests/cli/cli_errors.sh <path-to-tlmgpu> <source-dir>
set -u

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <path-to-tlmgpu> <source-dir>" >&2
  exit 2
fi
TLMGPU=$1
DATA=$2/tests/data/config
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
T=$TLMGPU
source "$2/tests/cli/lib/checks.sh" # pass, fail, expect_error

result() { # name, reasons ("" = pass)
  if [[ -z $2 ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $1:$2"
    sed 's/^/    stderr: /' "$TMP/err"
  fi
}

# expect_ok NAME NEEDLE -- ARGS...
expect_ok() {
  local name=$1 needle=$2 why=""
  shift 3
  "$TLMGPU" "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  [[ $rc -eq 0 ]] || why+=" exit $rc (expected 0);"
  [[ -s $TMP/err ]] && why+=" stderr is not empty;"
  grep -qF -- "$needle" "$TMP/out" || why+=" stdout lacks '$needle';"
  # The SystemC banner would mean the kernel was started.
  grep -q 'Copyright (c) 1996' "$TMP/out" && why+=" stdout has the SystemC banner;"
  result "$name" "$why"
}

MIN=$DATA/minimal.json

expect_error "no command" 2 "missing command" --
expect_error "unknown subcommand" 2 "unknown command 'rnu'" "did you mean 'run'" -- rnu
expect_error "unknown top-level option" 2 "'--bogus'" -- --bogus
expect_error "unknown run option" 2 "'--bogus'" -- run -p "$MIN" -w x --bogus
expect_error "missing -p" 2 "--platform" -- run -w x
expect_error "missing platform file" 2 "$TMP/nope.json" -- run -p "$TMP/nope.json" -w x
printf '{"extends": "%s", "sm": {"stages": "prob"}}' "$(realpath "$MIN")" >"$TMP/stage.json"
expect_error "unknown stage type" 2 "$TMP/stage.json" "sm.stages" "did you mean 'probe'" -- \
  run -p "$TMP/stage.json" -w histogram --out "$TMP/o"
expect_error "unknown stage type in --set" 2 "sm.stages" "'prob'" -- \
  run -p "$MIN" -w histogram --set sm.stages=probe,prob --out "$TMP/o"
printf '{"extends": "%s", "sm": {"stages": "probe,lab"}}' "$(realpath "$MIN")" >"$TMP/nolab.json"
expect_error "a LAB stage without a LAB" 2 "$TMP/nolab.json" "sm.stages lists 'lab'" "lab.entries" -- \
  run -p "$TMP/nolab.json" -w histogram --out "$TMP/o"
expect_error "the LAB listed twice" 2 "sm.stages lists 'lab' twice" -- \
  run -p "$MIN" -w histogram --set lab.entries=8 --set sm.stages=lab,lab --out "$TMP/o"
expect_error "unknown key via --set" 2 "'l2.wayz'" "did you mean 'l2.ways'" -- \
  run -p "$MIN" -w x --set l2.wayz=4
expect_error "out of range via --set" 2 "l2.ways: 0 is out of range [1, 1024]" -- \
  run -p "$MIN" -w x --set l2.ways=0
expect_error "wrong type via --set" 2 "l2.ways: expected an unsigned integer" -- \
  config -p "$MIN" --set l2.ways=abc
expect_error "malformed JSON" 2 "malformed.json:5:3: malformed JSON" -- \
  run -p "$DATA/malformed.json" -w x
expect_error "unknown key in file" 2 "'l2.wayz'" "typo.json" "did you mean 'l2.ways'" -- \
  config -p "$DATA/typo.json"
expect_error "missing extends parent" 2 "missing_parent.json" "does_not_exist.json" -- \
  config -p "$DATA/missing_parent.json"
expect_error "cross-block constraint" 2 "l1.bytes + shared_mem.bytes" "sm.unified_sram_bytes" -- \
  config -p "$MIN" --set l1.bytes=65536
expect_error "bad --timing" 2 "--timing" -- run -p "$MIN" -w x --timing fast
expect_error "bad --seed" 2 "--seed" -- run -p "$MIN" -w x --seed -3
expect_error "describe unknown block" 2 "unknown block 'nosuch'" -- describe nosuch

# Topology mistakes (issue 12): one line naming the file and JSON path.
PLAT=$2/platforms
expect_error "topology: unknown block type" 2 "topology.blocks.l2.type: unknown block type 'l3'" \
  "did you mean 'l2'" -- topology -p "$PLAT/tiny.json" --set topology.blocks.l2.type=l3
expect_error "topology: port bound twice" 2 "port xbar.in[0] is bound twice" -- \
  run -p "$PLAT/tiny.json" -w histogram --set 'topology.bind.sm[i].mem=xbar.in[0]'
expect_error "topology: unbound port" 2 "port xbar.in[2]" "is not bound" -- \
  run -p "$PLAT/tiny.json" -w histogram --set topology.blocks.xbar.ports.in=3
expect_error "topology: crossbar outputs vs address map" 2 \
  "topology.blocks.xbar: ports.out = 3 but the address map interleaves over 2 L2 slices" -- \
  run -p "$PLAT/tiny.json" -w histogram --set topology.blocks.xbar.ports.out=3 \
  --set topology.blocks.l2.count=3 --set topology.blocks.dram.ports.in=3 \
  --set 'topology.bind.l2[i].mem=dram[0].in[i]'
# Nodes and traces.
expect_error "node: workload count" 2 "give one workload, or one per GPU (2" -- \
  run -p "$PLAT/node-tiny-x2.json" -w histogram,stream,bfs
expect_error "node: --arg for a GPU it lacks" 2 "--arg gpu5.n: the node has GPUs 0..1" -- \
  run -p "$PLAT/node-tiny-x2.json" -w histogram --arg gpu5.n=64
printf '{"node": {"gpus": [{"platform": "%s", "cuont": 2}]}}' "$PLAT/tiny.json" >"$TMP/node.json"
expect_error "node: unknown key" 2 "unknown key 'node.gpus[0].cuont'" "did you mean 'node.gpus[0].count'" -- \
  run -p "$TMP/node.json" -w histogram
expect_error "trace: unwritable file" 2 "--trace: cannot write" -- \
  run -p "$PLAT/tiny.json" -w histogram --arg n=64 --out "$TMP/o" --trace /nonexistent/dir/t.json
expect_error "trace: window without trace" 2 "--trace-window needs --trace" -- \
  run -p "$PLAT/tiny.json" -w histogram --trace-window 1:2
expect_error "kernel stats: unknown level" 2 "--kernel-stats: expected metrics or full" -- \
  run -p "$PLAT/tiny.json" -w histogram --kernel-stats all
expect_error "trace: bad window" 2 "END must be greater than START" -- \
  run -p "$PLAT/tiny.json" -w histogram --trace "$TMP/t.json" --trace-window 5:2
expect_error "topology: stages on a block without a path" 2 \
  "topology.blocks.xbar.stages: type xbar has no memory path" -- \
  run -p "$PLAT/tiny.json" -w histogram --set topology.blocks.xbar.stages=probe
expect_error "topology: unknown stage type" 2 "topology stages: unknown stage type 'prob'" -- \
  run -p "$PLAT/tiny.json" -w histogram --set topology.blocks.sm.stages=prob
expect_error "device windows without dev ports" 2 \
  "topology.blocks.xbar: ports.dev = 0 but the address map has 1 device windows" -- \
  run -p "$PLAT/tiny.json" -w histogram --set address_map.device_windows=1
expect_error "device windows inside device memory" 2 "inside device memory" -- \
  config -p "$PLAT/tiny.json" --set address_map.device_windows=64 \
  --set address_map.device_window_bytes=8388608
expect_ok "topology text" "xbar.out[1] -> l2_1.up" -- topology -p "$PLAT/tiny.json"
expect_ok "topology dot" "digraph" -- topology -p "$PLAT/tiny.json" --dot
expect_ok "describe a block type shows its ports" "initiator  yes" -- describe xbar

expect_ok "version" "tlmgpu " -- --version
expect_ok "help" "usage: tlmgpu" -- --help
expect_ok "run --help" "--platform" -- run --help
expect_ok "list" "blocks" -- list
expect_ok "describe l2" "l2.ways" -- describe l2
expect_ok "config" '"ways": 24' -- config -p "$MIN"

# The effective config is itself a valid platform that loads to the same thing.
"$TLMGPU" config -p "$MIN" --set l2.ways=16 >"$TMP/eff.json" 2>/dev/null
expect_ok "config round trip" '"ways": 16' -- config -p "$TMP/eff.json"
if [[ -s $TMP/eff.json ]] && cmp -s "$TMP/eff.json" "$TMP/out"; then
  result "config round trip is identical" ""
else
  result "config round trip is identical" " outputs differ or are empty;"
fi

# topology lists the channels blocks open beside their ports (the hLRC
# recall channel exists only with l1.atomic_mode = hlrc).
"$TLMGPU" topology -p "$PLAT/tiny.json" --set l1.atomic_mode=hlrc >"$TMP/topo" 2>&1
grep -q "^  xbar.hlrc_channel: " "$TMP/topo"
check "topology: hlrc lists the crossbar's recall channel" $?
"$TLMGPU" topology -p "$PLAT/tiny.json" >"$TMP/topo" 2>&1
! grep -q "side channels" "$TMP/topo"
check "topology: no side channels without hlrc" $?

echo "cli_errors: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
