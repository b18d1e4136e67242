#!/usr/bin/env bash
# `tlmgpu sweep` and `tlmgpu report` end to end on the tiny platform:
# results.csv rows and columns, resume (a rerun skips finished points, a
# deleted marker reruns exactly that point), failed points retried, a clean
# stop on SIGINT, keep_stats false, spec errors (exit 2, one line, naming the key) before
# anything runs, and a deterministic self-contained HTML report.
#
# usage: bash tests/cli/sweep.sh <path-to-tlmgpu> <source-dir>
set -u
if [[ $# -ne 2 ]]; then
  echo "usage: $0 <path-to-tlmgpu> <source-dir>" >&2
  exit 2
fi
T=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # the test changes directory
SRC=$(cd "$2" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0
check() { # name, condition result (0 = ok)
  if [[ $2 -eq 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}

# The graph input is copied next to the spec and named relatively: inputs
# resolve against the spec's directory, not the working directory.
mkdir -p "$TMP/spec/data"
cp "$SRC/../shared/data/karate.mtx" "$TMP/spec/data/" 2>/dev/null ||
  cp "$SRC/tests/data/graphs/karate.mtx" "$TMP/spec/data/" 2>/dev/null ||
  { echo "FAIL: karate.mtx not found under $SRC/../shared/data"; exit 1; }
cat >"$TMP/spec/tiny.json" <<'EOF'
{ "name": "tiny-lab", "timing": "lt", "baseline": "Baseline",
  "platforms": ["tiny"],
  "configs": { "Baseline": {}, "LAB-8": {"lab.entries": 8} },
  "workloads": [ {"label": "H", "workload": "histogram", "args": {"n": 16384}},
                 {"label": "PR", "workload": "pagerank", "inputs": ["data/karate.mtx"]} ],
  "seeds": [1] }
EOF
SPEC=$TMP/spec/tiny.json
OUT=$TMP/out
cd /

# --- dry run: lists the points, runs nothing ---
"$T" sweep "$SPEC" --out "$OUT" --dry-run >"$TMP/dry" 2>&1
check "dry run exits 0" $?
grep -q "4 points, 0 done, 4 to run" "$TMP/dry"
check "dry run counts the points" $?
[[ ! -e $OUT/points ]]
check "dry run runs nothing" $?

# --- first run ---
"$T" sweep "$SPEC" -j 2 --out "$OUT" >"$TMP/o1" 2>"$TMP/e1"
check "sweep exits 0 when every point passes" $?
CSV=$OUT/results.csv
[[ $(wc -l <"$CSV") -eq 5 ]]
check "results.csv has a header and 4 rows" $?
head -n 1 "$CSV" | grep -q '^platform,config,workload,input,seed,point,status,check,exit_code,.*cycles'
check "results.csv header: coordinates, status, check, then metrics incl. cycles" $?
cut -d, -f2,3,7,8 "$CSV" | tail -n 4 | tr '\n' ' ' >"$TMP/rows"
[[ $(cat "$TMP/rows") == "Baseline,H,passed,passed Baseline,PR,passed,passed LAB-8,H,passed,passed LAB-8,PR,passed,passed " ]]
check "rows in matrix order, all passed (got: $(cat "$TMP/rows"))" $?
[[ $(awk -F, '{print NF}' "$CSV" | sort -u | wc -l) -eq 1 ]]
check "every CSV row has the same number of columns" $?
grep -q 'tiny/LAB-8/PR/karate/s1' "$CSV"
check "readable point directory names" $?
[[ -f $OUT/points/tiny/LAB-8/PR/karate/s1/stats.json && -f $OUT/points/tiny/LAB-8/PR/karate/s1/stderr.txt ]]
check "each point has its run's files and captured output" $?
[[ $(grep -c '^\[[0-9]/4\] tiny/.* passed' "$TMP/e1") -eq 4 ]]
check "one progress line per point" $?
cp "$OUT/results.json" "$TMP/results1.json"

# --- rerun: every point is skipped ---
touch -d '2001-01-01' "$OUT"/points/tiny/*/*/s1/point.json "$OUT"/points/tiny/*/*/*/s1/point.json
"$T" sweep "$SPEC" -j 2 --out "$OUT" >/dev/null 2>"$TMP/e2"
check "rerun exits 0" $?
grep -q "4 done earlier, 0 to run" "$TMP/e2" && ! grep -q '^\[' "$TMP/e2"
check "rerun skips every point" $?
[[ -z $(find "$OUT/points" -name point.json -newer "$SPEC") ]]
check "rerun rewrote no marker" $?

# --- one marker deleted: exactly that point runs ---
rm "$OUT/points/tiny/LAB-8/H/s1/point.json"
"$T" sweep "$SPEC" -j 2 --out "$OUT" >/dev/null 2>"$TMP/e3"
check "resume exits 0" $?
[[ $(grep -c '^\[' "$TMP/e3") -eq 1 ]] && grep -q '^\[1/1\] tiny/LAB-8/H/s1 passed' "$TMP/e3"
check "exactly the unfinished point runs" $?
cmp -s "$OUT/results.json" "$TMP/results1.json"
check "same runs give byte-identical results.json" $?

# --- report ---
"$T" report "$OUT" >/dev/null 2>"$TMP/re"
check "report exits 0" $?
H=$OUT/report.html
grep -q '<svg' "$H" && grep -q '>H<' "$H" && grep -q '>PR<' "$H" && grep -q '>Average<' "$H"
check "report has SVG plots with every workload label and Average" $?
grep -q 'normalised execution time' "$H"
check "report has the execution-time figure" $?
grep -q '<summary>Topology' "$H" && grep -q 'digraph' "$H" && grep -q 'xbar' "$H"
check "report embeds the platform's topology (DOT)" $?
! grep -qiE '<script|https?://[^"]*"[^>]*(src|href)=' "$H"
check "report has no scripts or external resources" $?
"$T" report "$OUT" --out "$TMP/again.html" >/dev/null 2>&1 && cmp -s "$H" "$TMP/again.html"
check "same results give byte-identical HTML" $?

# --- a failing point: exit 1, recorded, retried on the next run ---
sed 's/"n": 16384/"n": 16384, "racy": 1/; s/"LAB-8": {"lab.entries": 8} //; s/, *}/}/' "$SPEC" \
  >"$TMP/spec/racy.json"
"$T" sweep "$TMP/spec/racy.json" --out "$TMP/racy" >/dev/null 2>"$TMP/e4"
check "a failed check makes the sweep exit 1" $(( $? == 1 ? 0 : 1 ))
grep -q 'tiny,Baseline,H,,1,tiny/Baseline/H/s1,failed,failed,1' "$TMP/racy/results.csv"
check "the failed point is recorded with status, check and exit code" $?
grep -q '"status": "failed"' "$TMP/racy/points/tiny/Baseline/H/s1/point.json"
check "the failed point's marker says failed" $?
"$T" sweep "$TMP/spec/racy.json" --out "$TMP/racy" >/dev/null 2>"$TMP/e5"
grep -q '1 done earlier, 1 to run' "$TMP/e5"
check "a failed point is retried, a passed one is not" $?

# --- keep_stats false: passed points drop stats.json, the marker suffices ---
sed 's/"name": "tiny-lab",/"name": "tiny-lab", "keep_stats": false,/' "$TMP/spec/racy.json" \
  >"$TMP/spec/lean.json"
"$T" sweep "$TMP/spec/lean.json" --out "$TMP/lean" >/dev/null 2>&1
P=$TMP/lean/points/tiny/Baseline
[[ ! -e $P/PR/karate/s1/stats.json && -f $P/PR/karate/s1/point.json && -f $P/H/s1/stats.json ]]
check "keep_stats false: a passed point's stats.json is gone, a failed one's kept" $?
grep -q '^tiny,Baseline,PR,.*,passed,passed,0,[0-9]' "$TMP/lean/results.csv"
check "keep_stats false: the passed point's metrics are still in results.csv" $?
"$T" sweep "$TMP/spec/lean.json" --out "$TMP/lean" >/dev/null 2>"$TMP/e8"
grep -q '1 done earlier, 1 to run' "$TMP/e8"
check "keep_stats false: the passed point is not run again" $?

# --- spec errors: exit 2, one line, naming the key, before anything runs ---
expect_error() { # name needle... -- spec-edit (sed script)
  local name=$1 why=""
  shift
  local needles=()
  while [[ $1 != -- ]]; do needles+=("$1"); shift; done
  sed "$2" "$SPEC" >"$TMP/spec/bad.json"
  rm -rf "$TMP/bad"
  "$T" sweep "$TMP/spec/bad.json" --out "$TMP/bad" >/dev/null 2>"$TMP/eb"
  local rc=$?
  [[ $rc -eq 2 ]] || why+=" exit $rc;"
  [[ $(wc -l <"$TMP/eb") -eq 1 ]] || why+=" not one stderr line;"
  for n in "${needles[@]}"; do grep -qF -- "$n" "$TMP/eb" || why+=" lacks '$n';"; done
  [[ ! -e $TMP/bad ]] || why+=" something ran;"
  [[ -z $why ]] || { echo "    $(cat "$TMP/eb")"; why="$name:$why"; }
  check "${why:-$name}" $([[ -z $why ]]; echo $?)
}
expect_error "unknown spec key" "bad.json: seedz: unknown key" "did you mean 'seeds'" -- 's/"seeds"/"seedz"/'
expect_error "unknown config parameter" "configs.LAB-8" "'lab.entriez'" "did you mean 'lab.entries'" -- \
  's/"lab.entries"/"lab.entriez"/'
expect_error "unknown workload" "workloads[1]" "unknown workload 'pagerang'" -- 's/"pagerank"/"pagerang"/'
expect_error "unknown workload argument" "workloads[0]" "has no argument 'pixels'" -- 's/"n": 16384/"pixels": 16384/'
expect_error "a config's argument unknown to a workload" "configs.LAB-8.args with workloads[0] ('H')" \
  "has no argument 'pixels'" -- 's/"lab.entries": 8}/"lab.entries": 8, "args": {"pixels": 3}}/'
expect_error "a config's argument the workload sets too" "configs.LAB-8.args.n: also set by workloads[0] ('H').args" \
  -- 's/"lab.entries": 8}/"lab.entries": 8, "args": {"n": 3}}/'
expect_error "an input in a config's arguments" "configs.LAB-8.args.input" "inputs belong to a workload" \
  -- 's/"lab.entries": 8}/"lab.entries": 8, "args": {"input": "x"}}/'
expect_error "missing input file" "workloads[1].inputs[0]" "no such input file" -- 's#data/karate#data/nope#'
expect_error "duplicate workload label" "duplicate workload label 'H'" -- 's/"label": "PR"/"label": "H"/'
expect_error "wrong type" "platforms: expected a list" -- 's/\["tiny"\]/"tiny"/'

# --- SIGINT half-way: runs stop, the rerun runs only what did not finish ---
cat >"$TMP/spec/slow.json" <<'EOF'
{"platforms": ["tiny"], "configs": {"B": {}}, "seeds": [1, 2, 3],
 "workloads": [{"label": "H", "workload": "histogram", "args": {"n": 1500000}}]}
EOF
"$T" sweep "$TMP/spec/slow.json" --out "$TMP/slow" >/dev/null 2>"$TMP/e6" &
pid=$!
for _ in $(seq 200); do grep -q '^\[1/3\]' "$TMP/e6" && break; sleep 0.05; done
# The second point's run must have started: a signal between the first
# point's line and the next spawn would find no point to interrupt.
for _ in $(seq 500); do pgrep -f "tlmgpu run .*$TMP/slow/.*s2" >/dev/null && break; sleep 0.01; done
kill -INT $pid
wait $pid
check "an interrupted sweep exits 1" $(( $? == 1 ? 0 : 1 ))
grep -q 'run the same command again to resume' "$TMP/e6"
check "an interrupted sweep says how to resume" $?
grep -q '^\[2/3\] tiny/B/H/s2 interrupted' "$TMP/e6" && ! grep -q '^\[3/3\]' "$TMP/e6"
check "the running point is stopped and no new one starts" $?
sleep 0.2
! pgrep -f "tlmgpu run .*$TMP/slow" >/dev/null
check "no run is left behind" $?
done_before=$(grep -l '"status": "passed"' "$TMP"/slow/points/tiny/B/H/s*/point.json | wc -l)
"$T" sweep "$TMP/spec/slow.json" --out "$TMP/slow" >/dev/null 2>"$TMP/e7"
check "the resumed sweep exits 0" $?
ran=$(grep -c '^\[' "$TMP/e7")
[[ $done_before -ge 1 && $done_before -lt 3 && $((done_before + ran)) -eq 3 ]]
check "the resumed sweep runs only unfinished points ($done_before done, $ran ran)" $?

echo "sweep: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
