#!/usr/bin/env bash
# What a sweep and its report trust is what the manifests vouch for
# (docs/sweeps.md, "Resuming"): a passed point whose stats.json was damaged
# after the run is run again, not reused; `report` refuses a results.json
# changed since the sweep wrote it, naming the file; `report --out FILE`
# that cannot be written leaves no FILE.tmp behind; `sweep --out` a file is
# refused before anything runs.
#
# usage: bash tests/cli/sweep_manifest.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"

cat >"$TMP/spec.json" <<'JSON'
{"name": "m", "platforms": ["tiny"], "configs": {"B": {}}, "seeds": [1],
 "workloads": [{"label": "H", "workload": "histogram", "args": {"n": 1024}}]}
JSON
OUT=$TMP/sweep
P=$OUT/points/tiny/B/H/s1
"$T" sweep "$TMP/spec.json" --out "$OUT" >/dev/null 2>&1
check "the sweep exits 0" $?
[[ -f $OUT/manifest.json && -f $P/manifest.json ]] && grep -q '"point.json"' "$P/manifest.json"
check "the sweep directory and the point have manifests; the point's lists point.json" $?

# --- a passed point's stats.json cut short after the sweep: run again ---
head -c 1000 "$P/stats.json" >"$TMP/cut" && cp "$TMP/cut" "$P/stats.json"
"$T" sweep "$TMP/spec.json" --out "$OUT" >/dev/null 2>"$TMP/e2"
check "the resumed sweep exits 0" $?
grep -qF "sweep: not trusting a passed point: $P/stats.json: 1000 bytes" "$TMP/e2" &&
  grep -q '0 done earlier, 1 to run' "$TMP/e2"
check "the damaged point is named and run again" $?
"$T" sweep "$TMP/spec.json" --out "$OUT" >/dev/null 2>"$TMP/e3"
grep -q '1 done earlier, 0 to run' "$TMP/e3"
check "once rerun, it is trusted again" $?

# --- report: results.json changed since the sweep wrote it ---
"$T" report "$OUT" >/dev/null 2>&1
check "report exits 0 on the sweep's own results" $?
cp "$OUT/results.json" "$TMP/results.json"
sed -i 's/"passed"/"failed"/' "$OUT/results.json"
expect_error "report refuses a changed results.json" 2 "$OUT/results.json" \
  "changed or damaged since it was written" -- report "$OUT"
rm "$OUT/manifest.json"
cp "$TMP/results.json" "$OUT/results.json"
expect_error "report refuses results.json without a manifest" 2 "$OUT/manifest.json" -- \
  report "$OUT"
"$T" sweep "$TMP/spec.json" --out "$OUT" >/dev/null 2>&1 && "$T" report "$OUT" >/dev/null 2>&1
check "rerunning the sweep rewrites the manifest" $?

# --- report --out FILE that cannot be written: no FILE.tmp left ---
(trap '' XFSZ; ulimit -f 4; "$T" report "$OUT" --out "$TMP/r.html") >/dev/null 2>"$TMP/err"
rc=$?
[[ $rc -eq 2 ]] && [[ $(cat "$TMP/err") == "tlmgpu: error: cannot write '$TMP/r.html': File too large" ]]
check "a report that cannot be written: exit 2, the file and the reason (exit $rc: $(cat "$TMP/err"))" $?
[[ ! -e $TMP/r.html && ! -e $TMP/r.html.tmp ]]
check "no FILE.tmp is left behind" $?

# --- sweep --out an existing file: refused before anything runs ---
touch "$TMP/file"
expect_error "sweep --out an existing file" 2 "--out '$TMP/file': exists and is not a directory" \
  -- sweep "$TMP/spec.json" --out "$TMP/file"

finish sweep_manifest
