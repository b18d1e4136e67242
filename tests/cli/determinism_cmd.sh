#!/usr/bin/env bash
# `tlmgpu determinism`: prints the distinct output hashes with their seeds,
# the kernel-cycle spread and the checks; keeps the runs with --out; exits 0
# whatever the count (a failed check included); one clear error line (exit 2)
# for bad arguments.
# Usage: determinism_cmd.sh <tlmgpu> <source-dir>
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
tiny=$src/platforms/tiny.json

"$bin" determinism --help >"$tmp/help" && grep -q -- "--seeds" "$tmp/help" &&
  grep -q "distinct output" "$tmp/help" && ok || bad "--help"

out=$("$bin" determinism -p "$tiny" -w float-reduce --arg n=1024 --seeds 3 --jobs 2 --out "$tmp/runs")
rc=$?
[ $rc -eq 0 ] && ok || bad "3 seeds: exit $rc"
grep -q "^determinism: float-reduce on .*tiny.json (lt), seeds 1..3, injection off$" <<<"$out" &&
  ok || bad "header line"
grep -q "^distinct output hashes: 1 over 3 runs$" <<<"$out" && ok || bad "count line"
hash=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['output_hash'])" \
  "$tmp/runs/seed_2/stats.json")
grep -q "^  $hash  seeds 1 2 3$" <<<"$out" && ok || bad "hash line (want '$hash  seeds 1 2 3')"
grep -Eq "^kernel cycles: min [0-9]+, max [0-9]+, mean [0-9.]+ \(spread 0.00 % of the mean\)$" \
  <<<"$out" && ok || bad "cycles line"
grep -q "^checks: 3 passed$" <<<"$out" && ok || bad "checks line"
[ -f "$tmp/runs/seed_3/config.json" ] && ok || bad "--out keeps each run"
[ $fail -eq 0 ] || echo "$out"

# A failed check is a measurement, not an error: exit 0, the seeds named.
out=$("$bin" determinism -p "$tiny" -w histogram --arg n=2048 --arg racy=1 --seeds 2)
rc=$?
[ $rc -eq 0 ] && ok || bad "racy histogram: exit $rc"
grep -q "^checks: 0 passed, 2 failed (seeds 1 2)$" <<<"$out" && ok || { bad "racy checks line"; echo "$out"; }

# Bad arguments: exit 2, one line naming the problem, nothing run.
expect_error() { # <pattern> <args...>
  local pattern=$1
  shift
  "$bin" determinism "$@" >"$tmp/o" 2>"$tmp/e"
  local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q -- "$pattern" "$tmp/e"; then ok
  else bad "determinism $*: exit $rc, stderr '$(cat "$tmp/e")' (want exit 2 and '$pattern')"; fi
}
expect_error "seeds" -p "$tiny" -w float-reduce
expect_error "--seeds: expected a whole number in .1, 100000., got '0'" -p "$tiny" -w float-reduce --seeds 0
expect_error "--jobs: expected 1 to 4096 runs at a time, got 0" -p "$tiny" -w float-reduce --seeds 2 --jobs 0
expect_error "--jobs: expected 1 to 4096 runs at a time, got -1" -p "$tiny" -w float-reduce --seeds 2 --jobs -1
expect_error "--timing: expected one of" -p "$tiny" -w float-reduce --seeds 2 --timing fast
expect_error "unknown workload 'float-reduse'" -p "$tiny" -w float-reduse --seeds 2
expect_error "has no argument 'm'" -p "$tiny" -w float-reduce --arg m=3 --seeds 2
expect_error "jitter.enabled" -p "$tiny" -w float-reduce --seeds 2 --set jitter.enabled=true

echo "determinism_cmd: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
