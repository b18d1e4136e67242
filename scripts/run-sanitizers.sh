#!/usr/bin/env bash
# The sanitizer gate (issue 19 item 6): builds the `sanitize` preset
# (ASan + UBSan, -O1 -g, build-sanitize) and runs the tests labelled
# `sanitize` (every unit test; the fast system and CLI tests). Any report
# fails the run: UBSan halts on the first error, ASan always does.
#
# LeakSanitizer: on for the unit tests (kernel-free, no SystemC); off for
# the system and CLI tests, whose processes end with SystemC's simulation
# context alive: its coroutine stacks are heap blocks with a PROT_NONE guard
# page, and LSan's scan of the heap at exit faults on them (docs/status.md).
#   usage: scripts/run-sanitizers.sh [ctest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset sanitize >/dev/null
cmake --build build-sanitize -j"$(nproc)" --target tlmgpu unit_tests system_tests
supp="$PWD/scripts/sanitizers/lsan.supp"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cd build-sanitize
# Leaks are checked where LSan can run (see above).
ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" LSAN_OPTIONS="suppressions=$supp" \
  ctest -j"$(nproc)" -L sanitize -R "^unit:" --output-on-failure "$@"
ASAN_OPTIONS="detect_leaks=0" ctest -j"$(nproc)" -L sanitize -E "^unit:" \
  --output-on-failure "$@"
