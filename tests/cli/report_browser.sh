#!/usr/bin/env bash
# The report in a browser (issue 18 item 5): headless Chromium renders a
# report of the LAB paper's matrix shape (12 workloads + Average, 15
# configs, an 18x outlier, a failed input) at 1280 and 900 px; no figure may
# run past the window, every workload group of every figure must be drawn
# inside it, and the screenshot's right margin must be blank. Skips (77)
# without Chromium (Debian `chromium`, about 410 MB, so not in
# scripts/install-deps.sh by default: TLMGPU_EXTRA_PKGS=chromium adds it);
# tests/unit/sweep_report_layout_test.cpp checks the same geometry without it.
#
# usage: bash tests/cli/report_browser.sh <path-to-tlmgpu> <source-dir>
set -u
T=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$2/tests/cli/lib/checks.sh"
PY=$2/tests/cli/lib/report_layout.py
browser=""
for b in chromium chromium-browser google-chrome; do
  command -v "$b" >/dev/null && browser=$b && break
done
[[ -n $browser ]] || { echo "SKIP: no Chromium (TLMGPU_EXTRA_PKGS=chromium bash scripts/install-deps.sh)"; exit 77; }

D=$TMP/sweep
mkdir -p "$D"
python3 "$PY" results "$D" && write_manifest "$D" results.json
"$T" report "$D" >/dev/null 2>"$TMP/err"
check "report exits 0" $?
grep -q 'input <code>as20graph</code>: none of its 15 points passed' "$D/report.html"
check "the failed input is named on the page" $?
grep -q 'input <code>digits</code>: its 15 passed points report no cycles' "$D/report.html"
check "the input without cycles is named on the page" $?

# The page has no scripts; a copy gets one that measures where things went.
{
  sed 's|</body>||; s|</html>||' "$D/report.html"
  python3 "$PY" script
  echo '</body></html>'
} >"$TMP/measure.html"

chrome() { # window width, then chromium's own arguments
  local w=$1
  shift
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$TMP/profile" --window-size="$w,2000" "$@" 2>>"$TMP/chrome.log"
}
groups=(H HS BFS BFS-F SSSP PR CCA CLR MIS BC BWC LR Average)
for w in 1280 900; do
  chrome "$w" --dump-dom "file://$TMP/measure.html" >"$TMP/dom-$w.html"
  python3 "$PY" dom "$TMP/dom-$w.html" "${groups[@]}"
  check "$w px window: every figure inside it, all ${#groups[@]} groups drawn in each" $?
done

chrome 1280 --screenshot="$TMP/shot.png" "file://$D/report.html" >/dev/null
python3 "$PY" png "$TMP/shot.png" 1280
check "the 1280 px screenshot is 1280 px wide and its right margin is blank" $?

finish report_browser
