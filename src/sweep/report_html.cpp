// The report page. Figures follow the LAB paper (seed-000 notes, section
// 5.8): Fig. 4 execution time, Fig. 5 interconnect traffic, Fig. 6 LAB miss
// rate, Fig. 7 energy breakdown and Fig. 9 serialization vs coalescing, all
// per workload with an Average group and normalised to the baseline config. A figure whose metric
// no point has is left out rather than drawn empty.
#include "src/sweep/report_html.hpp"

#include "src/sweep/report_data.hpp"

#include <sstream>

namespace tlmgpu::sweep {
namespace {

using ojson = nlohmann::ordered_json;

const char* const kStyle = R"(body{font-family:sans-serif;margin:2em;color:#222;max-width:1400px}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
figure{margin:1em 0}figcaption{font-size:.9em;color:#444;max-width:60em}
figure svg{display:block;max-width:100%;height:auto}
table{border-collapse:collapse;font-size:.8em}td,th{border:1px solid #ccc;padding:2px 6px}
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f4f4f4}
.scroll{overflow-x:auto}.failed{color:#b00}.passed{color:#070}pre{font-size:.8em;margin:0}
.missing{color:#b00}
)";

std::string esc(const std::string& s) {
  return xml_escape(s);
}

std::string str(const ojson& v) {
  if (v.is_null()) return "";
  return v.is_string() ? v.get<std::string>() : v.dump();
}

struct Figure {
  const char* metric; // metric the figure needs
  const char* caption;
  const char* y_label;
  bool normalise;
};

const Figure kFigures[] = {
    {"cycles", "(a) Execution time normalised to the baseline (cf. LAB paper Fig. 4).",
     "normalised execution time", true},
    {"interconnect_bytes",
     "(b) Interconnect traffic (bytes) normalised to the baseline (cf. Fig. 5).",
     "normalised interconnect traffic", true},
    {"atomic_miss_rate",
     "(c) LAB miss rate: the fraction of atomics that still go to the L2; the baseline, "
     "which sends every atomic to the L2, is 1 by definition (cf. Fig. 6). Plotted as is, "
     "not divided by the baseline.",
     "atomic miss rate", false},
};

const char* const kEnergyParts[] = {"alu", "smem", "l1", "l2", "noc", "lab", "dram"};
// Shown only when some point has them (SCU/IRU platforms, static power set),
// so a LAB sweep's figure keeps the paper's seven categories.
const char* const kUnitEnergyParts[] = {"scu", "iru", "static"};

void energy_figure(std::ostringstream& os, const ojson& r, const std::string& platform);
void serialization_figure(std::ostringstream& os, const ojson& r, const std::string& platform);
void spec_figures(std::ostringstream& os, const ojson& r, const std::string& platform);

// Inputs no bar counts are named, not silently left out of the means.
void missing_list(std::ostringstream& os, const ojson& r, const std::string& platform) {
  const std::vector<MissingInput> missing = missing_inputs(r, platform);
  if (missing.empty()) return;
  os << "<p class=\"missing\"><b>Not in the figures</b> (no bar counts these inputs; a "
        "workload's bar is the mean over its other inputs, '-' if none is left):</p>\n"
        "<ul class=\"missing\">\n";
  for (const MissingInput& m : missing)
    os << "<li><b>" << esc(m.workload) << "</b>"
       << (m.input.empty() ? "" : ", input <code>" + esc(m.input) + "</code>") << ": " << esc(m.why)
       << "</li>\n";
  os << "</ul>\n";
}

void figures(std::ostringstream& os, const ojson& r, const std::string& platform) {
  missing_list(os, r, platform);
  for (const Figure& f : kFigures) {
    if (!has_metric(r, f.metric)) continue;
    BarChart ch = metric_chart(r, platform, f.metric, f.normalise);
    ch.title = std::string(f.y_label) + " (" + platform + ")";
    ch.y_label = f.y_label;
    ch.reference = 1.0;
    os << "<figure>\n"
       << render_svg(ch) << "<figcaption>" << esc(f.caption) << "</figcaption>\n</figure>\n";
  }
  energy_figure(os, r, platform);
  serialization_figure(os, r, platform);
  spec_figures(os, r, platform);
}

// The spec's own figures: the baseline's bar, then the listed configs'.
void spec_figures(std::ostringstream& os, const ojson& r, const std::string& platform) {
  if (!r.contains("figures")) return;
  for (const ojson& f : r["figures"]) {
    const std::string metric = str(f["metric"]), title = str(f["title"]);
    if (!has_metric(r, metric)) {
      os << "<p class=\"missing\"><b>" << esc(title) << "</b>: no point has the metric <code>"
         << esc(metric) << "</code>.</p>\n";
      continue;
    }
    std::vector<std::string> keep{str(r["baseline"])};
    for (const ojson& c : f["configs"])
      if (str(c) != keep[0]) keep.push_back(str(c));
    BarChart ch = only_series(metric_chart(r, platform, metric, true), keep);
    ch.title = title + " (" + platform + ")";
    ch.y_label = "normalised " + metric;
    ch.reference = 1.0;
    os << "<figure>\n"
       << render_svg(ch) << "<figcaption>" << esc(title)
       << (str(f["caption"]).empty() ? "" : ": " + esc(str(f["caption"])))
       << ". Normalised to the baseline " << esc(keep[0]) << "; lower is better for time."
       << "</figcaption>\n</figure>\n";
  }
}

void serialization_figure(std::ostringstream& os, const ojson& r, const std::string& platform) {
  if (!has_metric(r, "cycles")) return;
  BarChart ch = serialization_chart(r, platform);
  if (ch.series.empty()) return;
  ch.title = "serialization and coalescing (" + platform + ")";
  ch.y_label = "normalised execution time";
  ch.reference = 1.0;
  os << "<figure>\n"
     << render_svg(ch)
     << "<figcaption>(e) Isolating the serialization and coalescing benefits (cf. Fig. 9): "
        "<i>min</i> is the serialization-only LAB (atomics complete locally, nothing is "
        "buffered), a lower bound on the gain from removing serialization; <i>avg</i> and "
        "<i>max</i> are the mean and the best of the finite LAB sizes, whose extra gain over "
        "<i>min</i> is coalescing; ANBF is the LAB without the kernel-end flush cost, beside "
        "the plain LAB of the same size, so the gap between them is the flush's burstiness. "
        "Execution time normalised to the baseline, lower is better.</figcaption>\n</figure>\n";
}

void energy_figure(std::ostringstream& os, const ojson& r, const std::string& platform) {
  std::vector<std::string> parts, names;
  for (const char* p : kEnergyParts)
    if (has_metric(r, std::string("energy_pj_") + p)) {
      parts.push_back(std::string("energy_pj_") + p);
      names.push_back(p);
    }
  for (const char* p : kUnitEnergyParts)
    if (nonzero_metric(r, std::string("energy_pj_") + p)) {
      parts.push_back(std::string("energy_pj_") + p);
      names.push_back(p);
    }
  if (parts.empty()) return;
  BarChart ch = stacked_chart(r, platform, parts, "energy_pj_total");
  ch.stack = names;
  ch.title = "energy breakdown (" + platform + ")";
  ch.y_label = "normalised energy";
  ch.reference = 1.0;
  ch.label_bars = true;
  os << "<figure>\n"
     << render_svg(ch)
     << "<figcaption>(d) Energy by component (ALU, shared memory, L1, L2, interconnect, LAB, "
        "DRAM), each divided by the baseline's total energy at the same input and seed "
        "(cf. Fig. 7).</figcaption>\n</figure>\n";
}

void configs_table(std::ostringstream& os, const ojson& r) {
  os << "<table><tr><th>config</th><th>overrides (--set, --arg)</th><th>timing</th></tr>\n";
  for (const ojson& c : r["configs"]) {
    std::string sets;
    for (const auto& [k, v] : c["set"].items())
      sets += (sets.empty() ? "" : ", ") + k + "=" + str(v);
    if (c.contains("args"))
      for (const auto& [k, v] : c["args"].items())
        sets += (sets.empty() ? "" : ", ") + std::string("--arg ") + k + "=" + str(v);
    const std::string label = c["label"];
    const std::string timing = str(c["timing"]);
    os << "<tr><td>" << esc(label) << (label == str(r["baseline"]) ? " (baseline)" : "")
       << "</td><td>" << esc(sets.empty() ? "-" : sets) << "</td><td>"
       << esc(timing.empty() ? str(r["timing"]) : timing) << "</td></tr>\n";
  }
  os << "</table>\n";
}

void points_table(std::ostringstream& os, const ojson& r) {
  static const char* const kCoords[] = {"platform", "config", "workload", "input",
                                        "seed",     "status", "check"};
  os << "<div class=\"scroll\"><table><tr>";
  for (const char* c : kCoords)
    os << "<th>" << c << "</th>";
  for (const ojson& m : r["metrics"])
    os << "<th>" << esc(m) << "</th>";
  os << "</tr>\n";
  for (const ojson& row : r["points"]) {
    os << "<tr>";
    for (const char* c : kCoords) {
      const std::string v = str(row[c]);
      const bool mark = std::string(c) == "status" || std::string(c) == "check";
      os << "<td"
         << (mark && !v.empty()
                 ? " class=\"" + std::string(v == "passed" ? "passed" : "failed") + "\""
                 : "")
         << ">" << esc(v) << "</td>";
    }
    for (const ojson& m : r["metrics"]) {
      const ojson& ms = row["metrics"];
      const std::string name = m;
      os << "<td class=\"n\">"
         << (ms.contains(name) ? esc(format_number(ms[name].get<double>(), 6)) : "") << "</td>";
    }
    os << "</tr>\n";
  }
  os << "</table></div>\n";
}

void failed_list(std::ostringstream& os, const ojson& r) {
  std::ostringstream items;
  for (const ojson& row : r["points"]) {
    const std::string status = row["status"];
    if (status == "passed") continue;
    items << "<li><code>" << esc(str(row["point"])) << "</code>: " << esc(status);
    if (!row["exit_code"].is_null()) items << " (exit " << str(row["exit_code"]) << ")";
    if (row.contains("error")) items << "<pre>" << esc(str(row["error"])) << "</pre>";
    items << "</li>\n";
  }
  const std::string s = items.str();
  os << (s.empty() ? "<p>None: every point passed.</p>\n" : "<ul>\n" + s + "</ul>\n");
}

} // namespace

std::string render_report(const ojson& r) {
  std::size_t passed = 0, total = 0;
  for (const ojson& row : r["points"]) {
    ++total;
    passed += row.value("status", "") == "passed";
  }
  const std::string name = r.value("name", "sweep");
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
     << esc("tlmgpu sweep: " + name) << "</title>\n<style>\n"
     << kStyle << "</style>\n</head>\n<body>\n<h1>" << esc("tlmgpu sweep: " + name) << "</h1>\n";
  os << "<p>" << total << " points, " << passed << " passed, " << total - passed
     << " not passed. Timing " << esc(str(r["timing"])) << "; baseline config <b>"
     << esc(str(r["baseline"])) << "</b> = 1.0 (dashed line).</p>\n";
  os << "<p>How the bars are computed: for every input and seed of a workload, the config's "
        "value is divided by the baseline's at the same platform, input and seed; a "
        "workload's bar is the mean of those ratios; <i>Average</i> is the arithmetic mean "
        "of the workloads' bars. Only points that passed count; a missing bar is drawn as "
        "'-'.</p>\n";
  configs_table(os, r);
  for (const ojson& p : r["platforms"]) {
    os << "<h2>Platform " << esc(str(p)) << "</h2>\n";
    const std::string platform = str(p);
    if (r.contains("topologies") && r["topologies"].is_object() &&
        r["topologies"].contains(platform) && r["topologies"][platform].is_string())
      os << "<details><summary>Topology (the baseline's blocks and bindings as Graphviz DOT; "
            "<code>dot -Tsvg</code> draws it)</summary><pre>"
         << esc(r["topologies"][platform].get<std::string>()) << "</pre></details>\n";
    figures(os, r, p);
  }
  os << "<h2>All points</h2>\n";
  points_table(os, r);
  os << "<h2>Failed or unfinished points</h2>\n";
  failed_list(os, r);
  os << "</body>\n</html>\n";
  return os.str();
}

} // namespace tlmgpu::sweep
