#!/usr/bin/env bash
# `tlmgpu litmus` (models/scoped): the suite passes on every protocol that
# must be correct and fails on the norsp negative control; each sabotage of
# seed-002 §6.7 D (and the unlocked bRSP release) makes a named litmus test
# observe a forbidden outcome; bad options are one clear error.
#
# usage: bash tests/cli/litmus.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"

"$T" litmus --seeds 60 >"$TMP/suite" 2>&1
rc=$?
check "suite passes on cmp, brsp, srsp, srsp_opt (exit $rc)" "$([[ $rc -eq 0 ]]; echo $?)"
grep -q '^mp_remote_acq .*ok *[0-9]*/60' "$TMP/suite"
check "norsp (no promotion) fails message passing to a thief" $?
[[ $(grep -c '^[a-z_]* *ok *[0-9/ok]* *ok *ok *ok *$' "$TMP/suite") -ge 12 ]]
check "cmp, brsp, srsp and srsp_opt columns all ok" $?
[[ $rc -eq 0 ]] || head -40 "$TMP/suite"

# mutation, variant, the test that must catch it
while read -r m v t; do
  "$T" litmus --seeds 200 -v "$v" -t "$t" --mutate "$m" >"$TMP/m" 2>&1
  rc=$?
  check "mutation $m is caught by $t on $v (exit $rc)" "$([[ $rc -eq 1 ]] && grep -q "^$t .*[1-9][0-9]*/200" "$TMP/m"; echo $?)"
done <<'LIST'
no_selflush srsp mp_remote_acq
no_drain_to_marker srsp mp_remote_acq
drop_dirty srsp owner_holds_lock
late_lock srsp lock_handoff
no_pa_insert srsp mp_remote_rel
no_selinv_acks srsp release_refetch
early_ack srsp owner_holds_lock
slot_pointers srsp sfifo_wrap
brsp_open_release brsp release_refetch
LIST

expect_error "unknown mutation" 2 "--mutate" "no_such" "late_lock" -- litmus --mutate no_such
expect_error "unknown key" 2 "scoped.nope" -- litmus --set scoped.nope=1
expect_error "out of range" 2 "scoped.pa_entries" "[1, 4096]" -- litmus --set scoped.pa_entries=0
expect_error "bad choice" 2 "scoped.protocol" "srsp_opt" -- litmus --set scoped.protocol=msi
expect_error "unknown test" 2 "--test nope" -- litmus -t nope
expect_error "unknown variant" 2 "unknown protocol 'x'" -- litmus -v x

finish litmus
