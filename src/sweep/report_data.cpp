// Normalisation and averaging for the report (see report_data.hpp for the
// rules; docs/sweeps.md explains them to users).
#include "src/sweep/report_data.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace tlmgpu::sweep {
namespace {

using ojson = nlohmann::ordered_json;
using Row = const ojson*;
using Key = std::tuple<std::string, std::string, std::string, std::string, uint64_t>;

// Passed points by their matrix coordinates.
std::map<Key, Row> index_rows(const ojson& r) {
  std::map<Key, Row> idx;
  for (const ojson& row : r["points"])
    if (row.value("status", "") == "passed")
      idx[{row["platform"], row["config"], row["workload"], row["input"], row["seed"]}] = &row;
  return idx;
}

double metric(Row row, const std::string& name) {
  if (!row || !row->contains("metrics")) return kMissing;
  const ojson& m = (*row)["metrics"];
  return m.contains(name) && m[name].is_number() ? m[name].get<double>() : kMissing;
}

// `f(config_row, baseline_row)` gives one point's components, or an empty
// vector when that point does not count.
using PointFn = std::function<std::vector<double>(Row, Row)>;

BarChart build(const ojson& r, const std::string& platform, std::size_t ncomp, const PointFn& f) {
  const auto idx = index_rows(r);
  auto find = [&](const std::string& c, const std::string& w, const std::string& in,
                  uint64_t seed) -> Row {
    auto it = idx.find({platform, c, w, in, seed});
    return it == idx.end() ? nullptr : it->second;
  };
  const std::string base = r["baseline"];
  BarChart ch;
  for (const ojson& c : r["configs"])
    ch.series.push_back(c["label"]);
  for (const ojson& w : r["workloads"]) {
    const std::string wl = w["label"];
    ch.groups.push_back(wl);
    std::vector<std::vector<double>> group;
    for (const std::string& c : ch.series) {
      std::vector<double> sum(ncomp, 0.0);
      int n = 0;
      for (const ojson& in : w["inputs"])
        for (const ojson& seed : r["seeds"]) {
          const std::vector<double> v = f(find(c, wl, in, seed), find(base, wl, in, seed));
          if (v.size() != ncomp) continue;
          for (std::size_t k = 0; k < ncomp; ++k)
            sum[k] += v[k];
          ++n;
        }
      for (double& s : sum)
        s = n ? s / n : kMissing;
      group.push_back(sum);
    }
    ch.values.push_back(std::move(group));
  }
  if (ch.groups.size() >= 2) {
    std::vector<std::vector<double>> avg;
    for (std::size_t s = 0; s < ch.series.size(); ++s) {
      std::vector<double> sum(ncomp, 0.0);
      int n = 0;
      for (const auto& group : ch.values) {
        if (std::isnan(group[s][0])) continue;
        for (std::size_t k = 0; k < ncomp; ++k)
          sum[k] += group[s][k];
        ++n;
      }
      for (double& x : sum)
        x = n ? x / n : kMissing;
      avg.push_back(sum);
    }
    ch.groups.push_back("Average");
    ch.values.push_back(std::move(avg));
  }
  return ch;
}

} // namespace

std::vector<MissingInput> missing_inputs(const ojson& r, const std::string& platform) {
  const std::string base = r["baseline"];
  std::vector<MissingInput> out;
  for (const ojson& w : r["workloads"]) {
    const std::string wl = w["label"];
    for (const ojson& in : w["inputs"]) {
      std::map<std::string, int> statuses;
      int points = 0, passed = 0, with_cycles = 0;
      std::set<uint64_t> base_seeds; // seeds whose baseline point can be divided by
      for (const ojson& row : r["points"]) {
        if (row["platform"] != platform || row["workload"] != wl || row["input"] != in) continue;
        ++points;
        const std::string status = row["status"];
        if (status != "passed") {
          ++statuses[status];
          continue;
        }
        ++passed;
        const double cycles = metric(&row, "cycles");
        if (std::isnan(cycles)) continue;
        ++with_cycles;
        if (row["config"] == base && cycles != 0) base_seeds.insert(row["seed"].get<uint64_t>());
      }
      std::string why;
      if (points == 0 || (with_cycles > 0 && !base_seeds.empty())) continue;
      if (passed == 0) {
        why = "none of its " + std::to_string(points) + " points passed (";
        const char* sep = "";
        for (const auto& [status, n] : statuses)
          why += sep + std::to_string(n) + " " + status, sep = ", ";
        why += ")";
      } else if (with_cycles == 0) {
        why = "its " + std::to_string(passed) + " passed point" + (passed == 1 ? "" : "s") +
              " report no cycles";
        if (passed < points) why += " (" + std::to_string(points - passed) + " did not pass)";
      } else {
        why = "the baseline config " + base +
              " has no passed point with cycles here, so nothing is normalised";
      }
      out.push_back({wl, in, why});
    }
  }
  return out;
}

bool has_metric(const ojson& results, const std::string& name) {
  for (const ojson& m : results["metrics"])
    if (m == name) return true;
  return false;
}

bool nonzero_metric(const ojson& results, const std::string& name) {
  for (const ojson& row : results["points"])
    if (row.value("status", "") == "passed") {
      const double v = metric(&row, name);
      if (v != 0 && !std::isnan(v)) return true;
    }
  return false;
}

BarChart metric_chart(const ojson& results, const std::string& platform, const std::string& name,
                      bool normalise) {
  return build(results, platform, 1, [&](Row row, Row base) -> std::vector<double> {
    const double v = metric(row, name);
    if (std::isnan(v)) return {};
    if (!normalise) return {v};
    const double b = metric(base, name);
    if (std::isnan(b) || b == 0) return {};
    return {v / b};
  });
}

BarChart stacked_chart(const ojson& results, const std::string& platform,
                       const std::vector<std::string>& components, const std::string& total) {
  if (components.empty()) return {};
  BarChart ch =
      build(results, platform, components.size(), [&](Row row, Row base) -> std::vector<double> {
        if (!row || !base) return {};
        double denom = metric(base, total);
        if (std::isnan(denom)) {
          denom = 0;
          for (const std::string& c : components)
            if (double b = metric(base, c); !std::isnan(b)) denom += b;
        }
        if (!(denom > 0)) return {};
        std::vector<double> v;
        for (const std::string& c : components) {
          const double x = metric(row, c);
          v.push_back(std::isnan(x) ? 0.0 : x / denom);
        }
        return v;
      });
  ch.stack = components;
  return ch;
}

BarChart only_series(const BarChart& chart, const std::vector<std::string>& keep) {
  BarChart out = chart;
  out.series.clear();
  std::vector<std::size_t> from;
  for (const std::string& name : keep)
    for (std::size_t i = 0; i < chart.series.size(); ++i)
      if (chart.series[i] == name) {
        out.series.push_back(name);
        from.push_back(i);
      }
  for (std::size_t g = 0; g < chart.values.size(); ++g) {
    out.values[g].clear();
    for (std::size_t i : from)
      out.values[g].push_back(chart.values[g][i]);
  }
  return out;
}

} // namespace tlmgpu::sweep
