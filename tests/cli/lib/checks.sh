# Helpers sourced by tests/cli/*.sh (not a test itself: CMake registers
# tests/cli/*.sh only, not this folder). The caller sets T (the binary) and
# TMP (a scratch directory).
pass=0
fail=0

check() { # name, condition result (0 = ok)
  if [[ $2 -eq 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}

# run_passes NAME ARGS...: `tlmgpu run ARGS --quiet --out $TMP/o` exits 0
# (the run's own check passed); the start of its log is shown otherwise.
run_passes() {
  local name=$1
  shift
  "$T" run "$@" --quiet --out "$TMP/o" >"$TMP/log" 2>&1
  local rc=$?
  [[ $rc -eq 0 ]] || head -c 400 "$TMP/log"
  check "$name (exit $rc)" "$([[ $rc -eq 0 ]]; echo $?)"
}

# expect_error NAME CODE NEEDLE... -- ARGS...: tlmgpu exits CODE with exactly
# one stderr line "tlmgpu: error: ..." containing every NEEDLE.
expect_error() {
  local name=$1 code=$2 why="" needle
  shift 2
  local needles=()
  while [[ $1 != -- ]]; do needles+=("$1"); shift; done
  shift
  "$T" "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  [[ $rc -eq $code ]] || why+=" exit $rc (expected $code);"
  [[ $(wc -l <"$TMP/err") -eq 1 ]] || why+=" stderr is not one line;"
  grep -q '^tlmgpu: error: ' "$TMP/err" || why+=" no 'tlmgpu: error:';"
  for needle in "${needles[@]}"; do
    grep -qF -- "$needle" "$TMP/err" || why+=" stderr lacks '$needle';"
  done
  [[ -z $why ]] || sed 's/^/    stderr: /' "$TMP/err" | head -c 600
  check "$name${why:+:$why}" "$([[ -z $why ]]; echo $?)"
}

# FNV-1a 64 of a file, 16 hex digits, computed here independently of tlmgpu
# (bash arithmetic wraps at 64 bits like the C++ uint64_t).
fnv() {
  local h=-3750763034362895579 b # the offset basis 0xcbf29ce484222325
  for b in $(od -An -v -tu1 "$1"); do
    h=$(((h ^ b) * 1099511628211))
  done
  printf '%016x' "$h"
}

# A manifest.json in DIR listing FILE... (names relative to DIR), as tlmgpu
# writes one: for hand-made inputs that must pass the manifest check.
write_manifest() {
  local dir=$1 sep="" f
  shift
  {
    printf '{"format": "tlmgpu-manifest-1", "hash": "fnv1a64", "files": {'
    for f in "$@"; do
      printf '%s"%s": {"bytes": %d, "fnv1a64": "%s"}' "$sep" "$f" "$(wc -c <"$dir/$f")" \
        "$(fnv "$dir/$f")"
      sep=", "
    done
    printf '}}\n'
  } >"$dir/manifest.json"
}

# JSON nested N levels: OPEN x N, INNER, CLOSE x N.
nested() {
  local n=$1 open=$2 inner=$3 close=$4
  printf "%${n}s" "" | sed "s/ /$open/g"
  printf '%s' "$inner"
  printf "%${n}s" "" | sed "s/ /$close/g"
}

# From `tlmgpu determinism`'s report (OUTPUT in $1): the number of distinct
# output hashes, and the cycles' spread in % of the mean.
distinct_hashes() { sed -n 's/^distinct output hashes: \([0-9]*\) over.*/\1/p' <<<"$1"; }
cycle_spread() { sed -n 's/.*(spread \([0-9.]*\) % of the mean).*/\1/p' <<<"$1"; }

finish() { # name
  echo "$1: $pass passed, $fail failed"
  [[ $fail -eq 0 ]]
}

# stat_sum FILE KEY [PREFIX]: the sum of one stat over FILE's whole stats
# tree (every SM's), or over the stats whose dotted path starts with PREFIX
# (e.g. gpu.l2_: the L2 slices only); "none" if absent.
stat_sum() { # stats.json key [path prefix]
  python3 - "$1" "$2" "${3:-}" <<'EOF'
import json, sys
def walk(n, key, prefix, path):
    t, seen = 0, False
    for k, v in n.items():
        p = path + k
        if isinstance(v, dict) and "type" in v:
            if k == key and p.startswith(prefix):
                t, seen = t + v["value"], True
        elif isinstance(v, dict):
            a, b = walk(v, key, prefix, p + ".")
            t, seen = t + a, seen or b
    return t, seen
t, seen = walk(json.load(open(sys.argv[1]))["total"], sys.argv[2], sys.argv[3], "")
print(int(t) if seen else "none")
EOF
}

# st NAME: stat_sum of NAME in the stats of the last run into $TMP/o
# (run_passes' output).
st() { stat_sum "$TMP/o/stats.json" "$1"; }

# spread_pct VALUES...: (max - min) / min in %, rounded down.
spread_pct() {
  python3 -c "import sys; v=[int(x) for x in sys.argv[1:]]; print(int(100*(max(v)-min(v))/max(1,min(v))))" "$@"
}

# make_tmp: a scratch directory in $TMP, removed when the script exits.
make_tmp() {
  TMP=$(mktemp -d)
  trap 'rm -rf "$TMP"' EXIT
}
