#!/usr/bin/env bash
# The CMake package (issue 18 item 6): `cmake --install` of this build into a
# temporary prefix, then examples/custom-block (an out-of-tree project that
# find_package(tlmgpu)s and adds a memory-path stage of its own) configured,
# built and run against it; its stage's stats must count requests and the
# workload's check must pass. Rebuilds only the example (two source files).
#
# usage: bash tests/cli/custom_block.sh <path-to-tlmgpu> <source-dir>
set -u
T=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
BUILD=$(dirname "$T")
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/cli/lib/checks.sh"
[[ -f $BUILD/cmake_install.cmake ]] ||
  { echo "SKIP: $BUILD is not a CMake build tree (no cmake_install.cmake)"; exit 77; }
P=$TMP/prefix
EX=$TMP/example

cmake --install "$BUILD" --prefix "$P" >"$TMP/install.log" 2>&1
check "cmake --install into a temporary prefix" $?
config=$(find "$P" -name tlmgpuConfig.cmake)
[[ -n $config && -f $(dirname "$config")/tlmgpuConfigVersion.cmake &&
  -f $(dirname "$config")/tlmgpuTargets.cmake ]]
check "the prefix has tlmgpuConfig.cmake, its version file and the exported targets" $?
[[ -f $P/include/tlmgpu/sim/path_stage.hpp && -f $P/include/models/l2/l2_spec.hpp &&
  -f $P/include/tlmgpu/app/cli.hpp && ! -e $P/include/models/l2/tests ]]
check "headers keep their source-root paths (tests excluded)" $?
# Every quoted #include of an installed header is installed too.
unresolved=0
while IFS= read -r h; do
  while IFS= read -r inc; do
    [[ -f $P/include/$inc || -f $(dirname "$h")/$inc ]] ||
      { echo "    $h includes \"$inc\", not installed"; unresolved=$((unresolved + 1)); }
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$h")
done < <(find "$P/include" -name '*.hpp')
check "every installed header's includes are installed" $unresolved
"$P/bin/tlmgpu" list >"$TMP/list" 2>&1 && grep -qF "platforms ($P/share/tlmgpu/platforms)" "$TMP/list"
check "the installed binary finds the installed platforms" $?

# The example must not see the build tree: only the prefix is on the path.
cmake -S "$SRC/examples/custom-block" -B "$EX" -DCMAKE_PREFIX_PATH="$P" >"$TMP/configure.log" 2>&1
check "examples/custom-block configures against the package" $?
flags=$(cat "$EX"/CMakeFiles/tlmgpu-custom.dir/flags.make 2>/dev/null)
[[ $flags == *"$P/include"* && $flags != *"$SRC/include"* && $flags != *TLMGPU_SOURCE_DIR* &&
  $flags == *SC_CPLUSPLUS=201703L* && $flags == *std=*20* ]]
check "its compile flags come from the package (include, C++20, SystemC's define), none from the tree" $?
cmake --build "$EX" -j2 >"$TMP/build.log" 2>&1
check "examples/custom-block builds" $?
grep -i 'warning' "$TMP/build.log" | head -5
check "it builds without warnings" "$(grep -qi 'warning' "$TMP/build.log"; echo $((1 - $?)))"
[[ $fail -eq 0 ]] || { tail -n 30 "$TMP"/*.log; finish custom_block; exit 1; }
X=$EX/tlmgpu-custom

ctest --test-dir "$EX" -V >"$TMP/ctest.log" 2>&1
check "the example's own tests pass (lt, at, its stats check)" $?
grep -q 'gpu.sm_1.request_counter: [1-9]' "$TMP/ctest.log"
check "its stats check printed the counter of every SM" $?

# The same, checked here independently of the example's CMake script.
"$X" run -p "$SRC/examples/custom-block/counter-mini.json" -w histogram --arg n=16384 \
  --out "$TMP/run" >"$TMP/run.log" 2>&1
check "tlmgpu-custom runs the example's platform" $?
python3 - "$TMP/run/stats.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
sms = [v for k, v in s["total"]["gpu"].items() if k.startswith("sm_")]
req = sum(v["request_counter"]["requests"]["value"] for v in sms)
l1 = sum(v["l1"]["requests"]["value"] for v in sms)
print(f"    check {s['check']}, request_counter.requests {req}, l1.requests {l1}")
sys.exit(0 if s["check"] == "passed" and req > 0 and req == l1 else 1)
PY
check "the workload's check passed and request_counter.requests is non-zero (= the L1's)" $?

"$X" list >"$TMP/xlist" 2>&1 && grep -q 'request_counter' "$TMP/xlist"
check "tlmgpu-custom list shows the stage" $?
expect_error "the plain binary does not know the stage" 2 "unknown stage type 'request_counter'" \
  -- run -p "$SRC/examples/custom-block/counter-mini.json" -w histogram

# A sweep runs its points with the binary that runs it, so they have the stage.
cat >"$TMP/spec.json" <<JSON
{"platforms": ["$SRC/examples/custom-block/counter-mini.json"],
 "configs": {"base": {}, "lt": {"timing": "lt"}},
 "workloads": [{"workload": "histogram", "args": {"n": 4096}}], "timing": "functional"}
JSON
"$X" sweep "$TMP/spec.json" --out "$TMP/sweep" >/dev/null 2>"$TMP/sweep.log"
check "tlmgpu-custom sweep runs points on the example's platform" $?

finish custom_block
