#!/usr/bin/env bash
# `tlmgpu run --out DIR` is all or nothing (docs/config.md, "Output
# directories"): a write that fails (a full disk, simulated with a file-size
# limit: write(2) then fails with EFBIG) is one line naming the file and the
# reason, exit 2, and leaves DIR as it was with no staging directory behind;
# an unusable DIR is found before the simulation; a complete run has a
# manifest.json whose hashes match its files.
#
# usage: bash tests/cli/run_outputs.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
RUN=(run -p tiny -w histogram --arg n=1024 --quiet)

# A run under a file-size limit of $1 KiB; SIGXFSZ ignored so that the
# write fails with EFBIG instead of killing the process.
limited() {
  local kib=$1
  shift
  (trap '' XFSZ; ulimit -f "$kib"; "$T" "$@") >"$TMP/out" 2>"$TMP/err"
}
no_leftovers() { # dir: neither DIR nor a staging directory beside or inside it
  [[ -z $(find "$(dirname "$1")" -maxdepth 2 -name '*.tmp-*' 2>/dev/null) ]]
}

# --- a successful run: files, and a manifest that matches them ---
"$T" "${RUN[@]}" --out "$TMP/ok" >/dev/null 2>&1
check "a run exits 0" $?
[[ -f $TMP/ok/manifest.json && -f $TMP/ok/stats.json ]] && no_leftovers "$TMP/ok"
check "a run leaves its files, a manifest.json and no staging directory" $?
for f in stats.json config.json topology.dot host.json histogram.txt; do
  tr -d '\n ' <"$TMP/ok/manifest.json" |
    grep -qF "\"$f\":{\"bytes\":$(wc -c <"$TMP/ok/$f"),\"fnv1a64\":\"$(fnv "$TMP/ok/$f")\"}"
  check "manifest.json lists $f with its size and FNV-1a 64 hash" $?
done

# --- the disk fills up while stats.json is written ---
limited 8 "${RUN[@]}" --out "$TMP/full"
rc=$?
[[ $rc -eq 2 ]]
check "a failed write exits 2 (got $rc)" $?
[[ $(cat "$TMP/err") == "tlmgpu: error: cannot write '$TMP/full/stats.json': File too large" ]]
check "one line naming the file and the reason (got: $(cat "$TMP/err"))" $?
[[ ! -e $TMP/full ]] && no_leftovers "$TMP/full"
check "no half-written result directory is left behind" $?

# --- the workload's own result file fails ---
limited 1 "${RUN[@]}" --out "$TMP/full2"
[[ $? -eq 2 ]] && grep -qF "cannot write '$TMP/full2/histogram.txt': File too large" "$TMP/err" &&
  [[ ! -e $TMP/full2 ]]
check "a failed write of the workload's result file is an error too" $?

# --- a rerun that fails leaves the earlier result whole ---
cp -r "$TMP/ok" "$TMP/before"
limited 1 "${RUN[@]}" --seed 2 --out "$TMP/ok"
[[ $? -eq 2 ]] && diff -r "$TMP/before" "$TMP/ok" >/dev/null && no_leftovers "$TMP/ok"
check "a failed rerun leaves the earlier result in DIR untouched" $?
"$T" "${RUN[@]}" --seed 2 --out "$TMP/ok" >/dev/null 2>&1 &&
  grep -q '"seed": 2' "$TMP/ok/config.json" && no_leftovers "$TMP/ok"
check "a rerun that succeeds replaces it" $?

# --- --out checked before anything is built ---
touch "$TMP/file"
expect_error "--out an existing file" 2 "--out '$TMP/file': exists and is not a directory" -- \
  "${RUN[@]}" --out "$TMP/file"
expect_error "--out below a file" 2 "--out '$TMP/file/x'" "Not a directory" -- \
  "${RUN[@]}" --out "$TMP/file/x"
# Not writable (as root a read-only directory is still writable; /sys is not).
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
RO=$TMP/ro
if mkdir "$RO/probe" 2>/dev/null; then RO=/sys; fi
if [[ -d $RO ]] && ! mkdir "$RO/.probe" 2>/dev/null; then
  start=$(date +%s%N)
  # 16 Mi pixels take far longer than the limit to simulate: only a check
  # before the simulation can end in time.
  timeout 20 "$T" run -p tiny -w histogram --arg n=16777216 --quiet --out "$RO" >/dev/null \
    2>"$TMP/err"
  rc=$? ms=$((($(date +%s%N) - start) / 1000000))
  [[ $rc -eq 2 && $ms -lt 5000 ]] && grep -qF -- "--out '$RO': cannot write into" "$TMP/err"
  check "an unwritable --out is an error before the simulation (exit $rc after $ms ms)" $?
fi

finish run_outputs
