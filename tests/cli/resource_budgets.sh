#!/usr/bin/env bash
# Resource budgets (issue 19 item 3): arguments and inputs that would take
# far more memory than the machine has are refused before anything is
# allocated, with one line naming the argument and the estimate; inputs are
# opened only if they are regular files; counts are checked against what
# they count; a repeated --set is an error like a repeated --arg.
#
# Each of these failed at 1fed1c1: stream n=2^32-1 allocated 12 GiB and
# gen:uniform m=10^9 6 GiB (under the ulimit below: exit 3 "out of memory"
# and exit 2 "std::bad_alloc"); sm.count=4096 took 2.3 GiB; a FIFO input blocked forever; bc
# sources=100 on a 34-vertex graph and generators=1000 on 4 SMs ran; the
# second --set won silently; determinism --jobs -1 meant 4294967295 jobs.
#
# usage: bash tests/cli/resource_budgets.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
karate="$2/../shared/data/karate.mtx"
# A regression must fail here, not take the machine's memory.
ulimit -v 6000000

expect_error "stream n=2^32-1 is refused by its estimate" 2 "workload stream (n=4294967295" \
  "--max-memory" "GiB" -- run -p tiny -w stream --arg n=4294967295 --out "$TMP/o"
expect_error "--max-memory lowers the budget" 2 "workload stream (n=16777216" \
  "more than --max-memory (64.0 MiB)" -- \
  run -p tiny -w stream --arg n=16777216 --max-memory 64M --out "$TMP/o"
expect_error "a generator's exact size" 2 "gen:uniform?n=1&m=1000000000" "1000000000 arcs" \
  "--max-memory" -- run -p tiny -w bfs --input 'gen:uniform?n=1&m=1000000000' --out "$TMP/o"
expect_error "a graph file above the budget's arcs" 2 "limit of" "--max-memory 4.0 KiB" -- \
  run -p tiny -w bfs --input "$karate" --max-memory 4K --out "$TMP/o"
expect_error "4096 SMs" 2 "sm.count=4096" "--max-memory" -- \
  run -p tiny -w stream --set sm.count=4096 --max-memory 1G --out "$TMP/o"
expect_error "a bad --max-memory" 2 "--max-memory: expected a size" -- \
  run -p tiny -w stream --max-memory 12x --out "$TMP/o"

# A 100 MB platform file: refused by its size before it is parsed.
{ printf '{"name": "big", "description": "'; head -c 100000000 /dev/zero | tr '\0' 'x'
  printf '", "l2": {"ways": "many"}}'; } >"$TMP/big.json"
expect_error "a 100 MB platform file" 2 "big.json" "larger than the 16.0 MiB" -- \
  config -p "$TMP/big.json"
rm -f "$TMP/big.json"

# FIFOs: never opened for reading (open(2) and read(2) would block forever).
mkfifo "$TMP/graph.mtx" "$TMP/p.json" "$TMP/digits.csv"
for args in "run -p tiny -w bfs --input $TMP/graph.mtx" "config -p $TMP/p.json" \
  "run -p tiny -w histogram --input digits:$TMP/digits.csv"; do
  # shellcheck disable=SC2086
  timeout 20 "$T" $args --out "$TMP/o" >/dev/null 2>"$TMP/err"
  rc=$?
  [[ $rc -eq 2 ]] && grep -q "not a regular file" "$TMP/err"
  check "FIFO refused: $args (exit $rc: $(head -c 200 "$TMP/err"))" $?
done

# Reasons from strerror: a path through a file (root ignores permissions,
# so ENOTDIR stands in for EACCES here).
touch "$TMP/file"
expect_error "open errors carry the reason" 2 "Not a directory" -- \
  run -p tiny -w bfs --input "$TMP/file/g.mtx" --out "$TMP/o"
expect_error "platform open errors carry the reason" 2 "Not a directory" -- \
  config -p "$TMP/file/p.json"

# Counts against what they count.
expect_error "bc sources above the vertex count" 2 "sources: 100 is more than the 34 vertices" -- \
  run -p tiny -w bc --input "$karate" --arg sources=100 --out "$TMP/o"
expect_error "generators above the SM count" 2 "generators: 1000 is more than the platform's" -- \
  run -p tiny -w random-traffic --arg generators=1000 --out "$TMP/o"
expect_error "a repeated --set" 2 "--set l2.ways is given twice" -- \
  config -p tiny --set l2.ways=4 --set l2.ways=8
expect_error "determinism --jobs -1" 2 "--jobs: expected 1 to 4096 runs at a time" -- \
  determinism -p tiny -w stream --seeds 2 --jobs -1
expect_error "determinism --seeds -1" 2 "--seeds: expected a whole number" -- \
  determinism -p tiny -w stream --seeds -1

finish resource_budgets
