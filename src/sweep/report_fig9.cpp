// The LAB paper's Fig. 9 ("isolating serialization and coalescing
// benefits"): per workload, the normalised execution time of
//   min   the serialization-only LAB (completes atomics locally, buffers
//         nothing): the lower bound on what removing serialization gives;
//   avg   the mean over the finite LAB sizes (8..256, as the paper averages);
//   max   the best finite LAB size;
//   ANBF  the LAB without the kernel-end flush cost, beside the plain LAB of
//         the same size, so their gap is the flush's burstiness.
// The roles are read from each config's overrides, so any spec that has
// such configs gets the figure; see report_data.hpp.
#include "src/sweep/report_data.hpp"

#include <algorithm>
#include <cmath>

namespace tlmgpu::sweep {
namespace {

using ojson = nlohmann::ordered_json;

std::string set_value(const ojson& config, const std::string& key) {
  const ojson& s = config["set"];
  if (!s.contains(key)) return "";
  return s[key].is_string() ? s[key].get<std::string>() : s[key].dump();
}

// A plain finite LAB: lab.entries > 0 is its only override.
bool plain_lab(const ojson& config) {
  const std::string e = set_value(config, "lab.entries");
  return config["set"].size() == 1 && !e.empty() && e != "0";
}

double mean_of(const std::vector<double>& v) {
  double sum = 0;
  int n = 0;
  for (double x : v)
    if (!std::isnan(x)) sum += x, ++n;
  return n ? sum / n : kMissing;
}

} // namespace

BarChart serialization_chart(const ojson& results, const std::string& platform) {
  const BarChart t = metric_chart(results, platform, "cycles", true);
  std::vector<std::size_t> sizes;
  std::size_t ser = SIZE_MAX, anbf = SIZE_MAX, anbf_plain = SIZE_MAX;
  std::string anbf_entries;
  for (std::size_t s = 0; s < results["configs"].size(); ++s) {
    const ojson& c = results["configs"][s];
    const std::string variant = set_value(c, "lab.variant");
    if (variant == "serialization_only" && ser == SIZE_MAX) ser = s;
    if (variant == "no_flush_cost" && anbf == SIZE_MAX)
      anbf = s, anbf_entries = set_value(c, "lab.entries");
    if (plain_lab(c)) sizes.push_back(s);
  }
  BarChart ch;
  if (sizes.empty() || ser == SIZE_MAX) return ch; // nothing to isolate
  for (std::size_t s : sizes)
    if (anbf != SIZE_MAX && set_value(results["configs"][s], "lab.entries") == anbf_entries)
      anbf_plain = s;
  auto label = [&](std::size_t s) { return results["configs"][s]["label"].get<std::string>(); };
  ch.series = {"min: " + label(ser), "avg: finite LAB sizes", "max: best finite LAB size"};
  if (anbf_plain != SIZE_MAX) {
    ch.series.push_back(label(anbf_plain));
    ch.series.push_back("ANBF: " + label(anbf));
  }
  ch.groups = t.groups;
  if (!ch.groups.empty() && ch.groups.back() == "Average") ch.groups.pop_back();
  for (std::size_t g = 0; g < ch.groups.size(); ++g) {
    const auto& v = t.values[g];
    std::vector<double> lab;
    for (std::size_t s : sizes)
      lab.push_back(v[s][0]);
    double best = kMissing;
    for (double x : lab)
      if (!std::isnan(x) && (std::isnan(best) || x < best)) best = x;
    std::vector<std::vector<double>> row = {{v[ser][0]}, {mean_of(lab)}, {best}};
    if (anbf_plain != SIZE_MAX) {
      row.push_back({v[anbf_plain][0]});
      row.push_back({v[anbf][0]});
    }
    ch.values.push_back(std::move(row));
  }
  if (ch.groups.size() >= 2) { // the paper's "Average": mean of the workloads' bars
    std::vector<std::vector<double>> avg;
    for (std::size_t s = 0; s < ch.series.size(); ++s) {
      std::vector<double> col;
      for (const auto& row : ch.values)
        col.push_back(row[s][0]);
      avg.push_back({mean_of(col)});
    }
    ch.groups.push_back("Average");
    ch.values.push_back(std::move(avg));
  }
  return ch;
}

} // namespace tlmgpu::sweep
