"""Helpers of tests/cli/report_browser.sh (not a test itself).

  report_layout.py results DIR        write DIR/results.json: the LAB paper's
      matrix shape (12 workloads x 15 configs), hLRC an 18x outlier on PR,
      PR's input as20graph failed everywhere, LR's passed points without cycles
  report_layout.py dom FILE W...      FILE: Chromium's --dump-dom of the report
      with the measuring script (below); W: the group names each figure must
      draw. Checks nothing runs past the window and every group is drawn.
  report_layout.py png FILE WIDTH     FILE: a screenshot; checks its width and
      that the page's right margin (the last 24 pixel columns) is blank, as
      it is when no figure runs past the page.
  report_layout.py script             the measuring script, for the page
"""
import html
import json
import re
import struct
import sys
import zlib

CONFIGS = ["Baseline", "LAB-8", "LAB-16", "LAB-32", "LAB-64", "LAB-128", "LAB-256", "LAB-Inf",
           "PHI", "hLRC", "LAB-8-ser", "LAB-ANBF", "CAS", "DAB", "DAB-GTO"]
WORKLOADS = [("H", [""]), ("HS", [""]), ("BFS", ["karate"]), ("BFS-F", ["karate"]),
             ("SSSP", ["karate"]), ("PR", ["karate", "as20graph"]), ("CCA", ["karate"]),
             ("CLR", ["karate"]), ("MIS", ["karate"]), ("BC", ["karate"]), ("BWC", [""]),
             ("LR", ["digits"])]

# Runs in the page after load: where every figure and group label ended up.
SCRIPT = """<script>
const out = {inner: window.innerWidth, scroll: document.documentElement.scrollWidth, figures: []};
for (const svg of document.querySelectorAll('figure svg')) {
  const r = svg.getBoundingClientRect();
  const groups = [...svg.querySelectorAll('text.group')].map(t => {
    const b = t.getBoundingClientRect();
    return {name: t.textContent, left: b.left, right: b.right, width: b.width};
  });
  out.figures.push({left: r.left, right: r.right, groups});
}
const pre = document.createElement('pre');
pre.id = 'layout';
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>"""


def results(out_dir):
    pts = []
    for ci, c in enumerate(CONFIGS):
        for wi, (w, inputs) in enumerate(WORKLOADS):
            for inp in inputs:
                cycles = 1000.0 * (1 + wi) * (1 - 0.03 * ci)
                if c == "hLRC" and w == "PR":
                    cycles *= 18.2
                failed = w == "PR" and inp == "as20graph"
                metrics = {} if failed else {"cycles": cycles, "interconnect_bytes": 64 * cycles}
                if w == "LR":
                    metrics = {"interconnect_bytes": 100.0}
                pts.append({"platform": "titanv", "config": c, "workload": w, "input": inp,
                            "seed": 1, "point": f"titanv/{c}/{w}/{inp}/s1",
                            "status": "failed" if failed else "passed",
                            "check": "" if failed else "passed", "exit_code": 1 if failed else 0,
                            "metrics": metrics})
    r = {"name": "layout", "timing": "lt", "baseline": "Baseline", "platforms": ["titanv"],
         "configs": [{"label": c, "set": {} if i == 0 else {"lab.entries": 8 << i}, "timing": ""}
                     for i, c in enumerate(CONFIGS)],
         "workloads": [{"label": w, "inputs": i} for w, i in WORKLOADS], "seeds": [1],
         "metrics": ["cycles", "interconnect_bytes"], "points": pts}
    with open(f"{out_dir}/results.json", "w") as f:
        json.dump(r, f, indent=1)


def dom(path, groups):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<pre id="layout">(.*?)</pre>', text, re.S)
    if not m:
        print("    no layout measured (did the script run?)")
        return 1
    lay = json.loads(html.unescape(m.group(1)))
    bad = []
    if lay["scroll"] > lay["inner"]:
        bad.append(f"the page is {lay['scroll']} px wide in a {lay['inner']} px window")
    if not lay["figures"]:
        bad.append("no figures")
    for i, fig in enumerate(lay["figures"]):
        if fig["right"] > lay["inner"] or fig["left"] < 0:
            bad.append(f"figure {i} spans {fig['left']:.0f}..{fig['right']:.0f} px")
        names = [g["name"] for g in fig["groups"]]
        if names != groups:
            bad.append(f"figure {i} draws groups {names}, expected {groups}")
        for g in fig["groups"]:
            if g["width"] <= 0 or g["left"] < fig["left"] or g["right"] > min(fig["right"], lay["inner"]):
                bad.append(f"figure {i}: group {g['name']} at {g['left']:.0f}..{g['right']:.0f} px")
    for b in bad:
        print("    " + b)
    print(f"    {len(lay['figures'])} figures, window {lay['inner']} px, page {lay['scroll']} px")
    return 1 if bad else 0


def png_rows(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit non-interlaced PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG format"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def png(path, width):
    w, h, bpp, rows = png_rows(path)
    if w != width:
        print(f"    the screenshot is {w} px wide, expected {width}")
        return 1
    margin = 24
    dark = sum(1 for row in rows for x in range(w - margin, w)
               if min(row[x * bpp:x * bpp + 3]) < 200)
    print(f"    screenshot {w} x {h}, {dark} non-blank pixels in the right {margin} columns")
    return 1 if dark else 0


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "results":
        results(sys.argv[2])
    elif cmd == "script":
        print(SCRIPT)
    elif cmd == "dom":
        sys.exit(dom(sys.argv[2], sys.argv[3:]))
    elif cmd == "png":
        sys.exit(png(sys.argv[2], int(sys.argv[3])))
