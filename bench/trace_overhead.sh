#!/usr/bin/env bash
# What tracing costs (issue 12 item 6): the 1 Mi-pixel histogram on titanv in
# lt and at, median user seconds of 3 runs, without --trace, with --trace,
# and (optional) with another binary built before the probes existed.
# Not a test: numbers go to docs/performance.md.
#   usage: bench/trace_overhead.sh [OLD_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${TLMGPU_BIN:-build/tlmgpu}
old=${1:-}
[ -x "$bin" ] || bash scripts/build.sh >/dev/null
out=bench/out
mkdir -p $out
median() { # command... -> median user seconds of 3 runs
  for _ in 1 2 3; do
    /usr/bin/time -f "%U" "$@" 2>&1 >/dev/null | tail -1
  done | sort -n | sed -n 2p
}
printf "%-5s %-22s %8s %12s\n" mode variant user_s trace_events
for mode in lt at; do
  run=(run -p platforms/titanv.json -w histogram --timing $mode --quiet --out $out/trace-$mode)
  if [ -n "$old" ]; then
    printf "%-5s %-22s %8s %12s\n" $mode "before probes" "$(median "$old" "${run[@]}")" -
  fi
  printf "%-5s %-22s %8s %12s\n" $mode "no trace" "$(median "$bin" "${run[@]}")" -
  t=$(median "$bin" "${run[@]}" --trace $out/trace-$mode.json)
  events=$(grep -c '"ph"' $out/trace-$mode.json || true)
  printf "%-5s %-22s %8s %12s\n" $mode "--trace (1000-cycle)" "$t" "$events"
done
