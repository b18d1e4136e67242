# A small sweep for the backend tests (sourced): 2 configs x 2 workloads on
# the tiny platform in functional timing, one workload failing its check
# (racy), so passed and failed points, markers and logs are all exercised
# in a few seconds. Writes $TMP/spec.json.
cat >"$TMP/spec.json" <<'JSON'
{"name": "backends", "timing": "functional", "platforms": ["tiny"],
 "configs": {"B": {}, "L": {"lab.entries": 8}}, "seeds": [1],
 "workloads": [{"label": "H", "workload": "histogram", "args": {"n": 4096}},
               {"label": "R", "workload": "histogram", "args": {"n": 4096, "racy": 1}}]}
JSON
