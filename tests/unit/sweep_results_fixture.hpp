// A small merged-results document for the report's tests
// (sweep_report_test.cpp, sweep_report_layout_test.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <utility>

namespace tlmgpu::sweep::test {

using ojson = nlohmann::ordered_json;

// A results document with configs B (baseline) and L, workloads W1 (inputs
// a, b) and W2, seed 1, on platform p; `v(config, workload, input)` gives
// cycles (NaN = the point failed).
// `configs` replaces B and L (B stays the baseline label).
template <class F>
ojson results(F v, bool with_energy = false, ojson configs = nullptr) {
  ojson r;
  r["name"] = "t";
  r["timing"] = "lt";
  r["baseline"] = "B";
  r["platforms"] = {"p"};
  if (configs.is_null())
    configs = ojson::array({{{"label", "B"}, {"set", ojson::object()}, {"timing", ""}},
                            {{"label", "L"}, {"set", {{"lab.entries", "8"}}}, {"timing", ""}}});
  r["configs"] = configs;
  r["workloads"] = ojson::array(
      {{{"label", "W1"}, {"inputs", {"a", "b"}}}, {{"label", "W2"}, {"inputs", {""}}}});
  r["seeds"] = {1};
  r["metrics"] = with_energy ? ojson{"cycles", "energy_pj_l1", "energy_pj_total"} : ojson{"cycles"};
  ojson pts = ojson::array();
  for (const ojson& config : r["configs"])
    for (auto [w, in] : {std::pair<std::string, std::string>{"W1", "a"}, {"W1", "b"}, {"W2", ""}}) {
      const std::string c = config["label"];
      const double x = v(c, w, in);
      ojson row = {{"platform", "p"},
                   {"config", c},
                   {"workload", w},
                   {"input", in},
                   {"seed", 1},
                   {"point", c + "/" + w + "/" + in},
                   {"status", std::isnan(x) ? "failed" : "passed"},
                   {"check", "passed"},
                   {"exit_code", 0}};
      row["metrics"] = ojson::object();
      if (!std::isnan(x)) row["metrics"]["cycles"] = x;
      if (with_energy && !std::isnan(x)) {
        row["metrics"]["energy_pj_l1"] = x / 4;
        row["metrics"]["energy_pj_total"] = x;
      }
      pts.push_back(row);
    }
  r["points"] = pts;
  return r;
}

} // namespace tlmgpu::sweep::test
