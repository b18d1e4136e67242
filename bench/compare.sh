#!/usr/bin/env bash
# Two builds in one run, interleaved: CPU-time medians and ratios B/A per
# case and mode, and whether their stats are byte-identical (bench/bench.py).
# usage: bench/compare.sh A-binary B-binary [--repeat N] [--cases ...] [--modes ...]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/compare.sh A-binary B-binary [bench.py options]" >&2; exit 2; }
a=$1 b=$2
shift 2
exec python3 "$(dirname "$0")/bench.py" --compare "$a" "$b" "$@"
