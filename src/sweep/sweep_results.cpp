// Point markers and merging a sweep's results. Everything merged is a
// function of the runs' stats.json files and the spec (never wall time), so
// the same runs give byte-identical results.json and results.csv. A passed
// point's marker carries its stats.json summary (check and metrics), so the
// merge reads a few hundred bytes per point instead of megabytes, and a
// sweep may drop the stats.json files (spec key keep_stats).
#include "src/sweep/sweep_results.hpp"

#include "tlmgpu/file_io.hpp"
#include "tlmgpu/json_limits.hpp"
#include "tlmgpu/manifest.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace tlmgpu::sweep {
namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
namespace {

// A file that is missing, not valid JSON or nested too deep reads as null: a
// damaged file must not stop the sweep or the merge.
nlohmann::json read_json(const fs::path& p) {
  std::string text;
  if (!read_text_file(p.string(), text)) return nullptr;
  nlohmann::json j = try_parse_json(text);
  return j.is_discarded() ? nlohmann::json(nullptr) : j;
}

// j[key] when it is a string, else `def` (never a type_error on a file that
// was edited or damaged).
std::string text_at(const nlohmann::json& j, const char* key, const std::string& def) {
  if (!j.is_object()) return def;
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : def;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Stats store counts as doubles; "13190" reads better than "13190.0".
std::string cell(const ojson& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  }
  return v.dump();
}

// What the merge takes from a stats.json: its check and every finite number
// of "metrics" (or "simulated.cycles" as cycles when there are no metrics).
ojson summary_of(const nlohmann::json& stats) {
  ojson s;
  s["check"] = text_at(stats, "check", "");
  ojson metrics = ojson::object();
  if (stats.contains("metrics") && stats["metrics"].is_object()) {
    for (const auto& [k, v] : stats["metrics"].items())
      if (v.is_number() && std::isfinite(v.get<double>())) metrics[k] = v;
  } else if (stats.contains("simulated") && stats["simulated"].is_object() &&
             stats["simulated"].contains("cycles") && stats["simulated"]["cycles"].is_number()) {
    metrics["cycles"] = stats["simulated"]["cycles"];
  }
  s["metrics"] = metrics;
  return s;
}

bool has_summary(const nlohmann::json& marker) {
  return marker.is_object() && marker.contains("check") && marker.contains("metrics") &&
         marker["metrics"].is_object();
}

} // namespace

std::string write_marker(const fs::path& point_dir, const std::vector<std::string>& args,
                         const Outcome& outcome, bool keep_stats) {
  Outcome o = outcome;
  ojson summary;
  if (o.status == "passed") { // trusted only as far as the run's manifest vouches for it
    std::string bad = verify_manifest(point_dir, {"stats.json"});
    const nlohmann::json stats = read_json(point_dir / "stats.json");
    if (bad.empty() && !stats.is_object()) bad = (point_dir / "stats.json").string() + ": not JSON";
    if (bad.empty())
      summary = summary_of(stats);
    else
      o.status = "corrupt", o.error_tail = bad;
  }
  ojson j;
  j["status"] = o.status;
  j["exit_code"] = o.signal ? ojson(nullptr) : ojson(o.exit_code);
  if (o.signal) j["signal"] = o.signal;
  j["seconds"] = o.seconds;
  j["args"] = args;
  if (!o.error_tail.empty()) j["error"] = o.error_tail;
  if (o.status == "passed") {
    j["check"] = summary["check"];
    j["metrics"] = summary["metrics"];
  }
  write_file_atomic(point_dir / "point.json", j.dump(2) + "\n");
  // The marker joins the run's manifest; until then the point is not done.
  Manifest m;
  std::string problem;
  if (read_manifest(point_dir, m, problem)) {
    if (!keep_stats && o.status == "passed") {
      fs::remove(point_dir / "stats.json");
      m.erase("stats.json");
    }
    m["point.json"] = hash_file(point_dir / "point.json");
    write_manifest(point_dir, m);
  }
  return o.status;
}

bool point_done(const fs::path& point_dir, const std::vector<std::string>& args, std::string* why) {
  const nlohmann::json m = read_json(point_dir / "point.json");
  std::error_code ec;
  if (!(text_at(m, "status", "") == "passed" && m.contains("args") &&
        m["args"] == nlohmann::json(args) &&
        (has_summary(m) || fs::is_regular_file(point_dir / "stats.json", ec))))
    return false;
  const std::string bad = verify_manifest(point_dir, {"point.json"});
  if (why) *why = bad;
  return bad.empty();
}

ojson result_row(const SweepSpec& spec, const Point& p, const fs::path& points_root) {
  const fs::path dir = points_root / p.dir;
  const nlohmann::json marker = read_json(dir / "point.json");
  ojson row;
  row["platform"] = spec.platforms[p.platform];
  row["config"] = spec.configs[p.config].label;
  row["workload"] = spec.workloads[p.workload].label;
  row["input"] = spec.workloads[p.workload].inputs[p.input];
  row["seed"] = p.seed;
  row["point"] = p.dir;
  // A marker from other arguments belongs to an older spec: not this point's.
  const bool current =
      marker.is_object() && marker.contains("args") && marker["args"] == nlohmann::json(p.args);
  row["status"] = current ? text_at(marker, "status", "pending") : "pending";
  row["exit_code"] =
      current && marker.contains("exit_code") ? ojson(marker["exit_code"]) : ojson(nullptr);
  // The marker's copy of the summary; markers older than that: stats.json.
  ojson summary = ojson{{"check", ""}, {"metrics", ojson::object()}};
  if (current && has_summary(marker)) {
    summary = {{"check", marker["check"]}, {"metrics", marker["metrics"]}};
  } else if (current) {
    const nlohmann::json stats = read_json(dir / "stats.json");
    if (stats.is_object()) summary = summary_of(stats);
  }
  row["check"] = summary["check"];
  row["metrics"] = summary["metrics"];
  if (current && marker.contains("error")) row["error"] = marker["error"];
  return row;
}

ojson assemble_results(const SweepSpec& spec, const std::vector<ojson>& rows,
                       const fs::path& points_root) {
  ojson r;
  r["name"] = spec.name;
  r["timing"] = spec.timing;
  r["baseline"] = spec.baseline;
  r["platforms"] = spec.platforms;
  r["configs"] = ojson::array();
  for (const SweepConfig& c : spec.configs) {
    ojson set = ojson::object();
    for (const auto& [k, v] : c.sets)
      set[k] = v;
    ojson cfg = {{"label", c.label}, {"set", set}, {"timing", c.timing}};
    if (!c.args.empty()) {
      cfg["args"] = ojson::object();
      for (const auto& [k, v] : c.args)
        cfg["args"][k] = v;
    }
    r["configs"].push_back(std::move(cfg));
  }
  r["workloads"] = ojson::array();
  for (const SweepWorkload& w : spec.workloads) {
    ojson args = ojson::object();
    for (const auto& [k, v] : w.args)
      args[k] = v;
    r["workloads"].push_back(
        {{"label", w.label}, {"workload", w.workload}, {"args", args}, {"inputs", w.inputs}});
  }
  r["seeds"] = spec.seeds;
  if (!spec.figures.empty()) {
    r["figures"] = ojson::array();
    for (const SweepFigure& f : spec.figures)
      r["figures"].push_back({{"title", f.title},
                              {"caption", f.caption},
                              {"metric", f.metric},
                              {"configs", f.configs}});
  }

  std::set<std::string> metric_names;
  r["topologies"] = ojson::object();
  ojson points = ojson::array();
  for (const ojson& row : rows) {
    // nlohmann::json iterates sorted; keep the row's metrics sorted too.
    for (const auto& [k, v] : row["metrics"].items())
      metric_names.insert(k);
    // Each platform's instantiated graph, from its first baseline point that
    // ran (a config may add stages, not blocks; the report says which).
    const std::string platform = row["platform"].get<std::string>();
    if (row["status"] != "pending" && row["config"] == spec.baseline &&
        !r["topologies"].contains(platform)) {
      std::ifstream f(points_root / row["point"].get<std::string>() / "topology.dot");
      std::ostringstream dot;
      if (f && dot << f.rdbuf()) r["topologies"][platform] = dot.str();
    }
    points.push_back(row);
  }
  r["metrics"] = metric_names;
  r["points"] = std::move(points);
  return r;
}

ojson merge_results(const SweepSpec& spec, const std::vector<Point>& points,
                    const fs::path& points_root) {
  std::vector<ojson> rows;
  for (const Point& p : points)
    rows.push_back(result_row(spec, p, points_root));
  return assemble_results(spec, rows, points_root);
}

std::string results_csv(const ojson& results) {
  static const char* const kCoords[] = {"platform", "config", "workload", "input",    "seed",
                                        "point",    "status", "check",    "exit_code"};
  std::ostringstream os;
  std::string sep;
  for (const char* c : kCoords)
    os << sep << c, sep = ",";
  for (const auto& m : results["metrics"])
    os << "," << csv_field(m.get<std::string>());
  os << "\n";
  for (const auto& row : results["points"]) {
    sep.clear();
    for (const char* c : kCoords)
      os << sep << csv_field(cell(row[c])), sep = ",";
    for (const auto& m : results["metrics"]) {
      const std::string name = m.get<std::string>();
      os << "," << (row["metrics"].contains(name) ? cell(row["metrics"][name]) : "");
    }
    os << "\n";
  }
  return os.str();
}

std::string tail_of_file(const fs::path& p, std::size_t max_lines) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return "";
  std::ostringstream ss;
  ss << f.rdbuf();
  std::string s = ss.str();
  if (s.size() > 2048) s = s.substr(s.size() - 2048);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
    s.pop_back();
  std::size_t pos = s.size(), lines = 0;
  while (pos > 0 && lines < max_lines)
    if (s[--pos] == '\n') ++lines;
  return lines == max_lines ? s.substr(pos + 1) : s;
}

} // namespace tlmgpu::sweep
