// From merged sweep results to the numbers the LAB paper plots: per workload
// and config, a metric normalised to the baseline config, averaged over the
// workload's inputs and seeds, plus an "Average" group. Kernel-free.
#pragma once

#include "src/sweep/svg_plot.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tlmgpu::sweep {

// Fills groups (workload labels in spec order, then "Average" when there are
// two or more), series (configs in spec order) and values of a one-component
// chart for `metric` on `platform`.
//  normalise = true: for each (input, seed) the config's value divided by the
//    baseline's at the same coordinates (skipped when the baseline did not
//    pass or its value is 0), then the mean of those ratios.
//  normalise = false: the mean of the raw values (a metric already relative
//    to the baseline, e.g. atomic_miss_rate, where the baseline is 1).
// Only points with status "passed" count. "Average" is the arithmetic mean of
// the groups' values (those that have one), as the paper does.
BarChart metric_chart(const nlohmann::ordered_json& results, const std::string& platform,
                      const std::string& metric, bool normalise);

// The chart with only the series named in `keep`, in that order (names it
// does not have are skipped).
BarChart only_series(const BarChart& chart, const std::vector<std::string>& keep);

// Stacked chart of `components` (metric names) per config, each divided by
// the baseline's `total` at the same coordinates (the sum of the baseline's
// components when `total` is absent), averaged like metric_chart. A point
// without a component counts it as 0.
BarChart stacked_chart(const nlohmann::ordered_json& results, const std::string& platform,
                       const std::vector<std::string>& components, const std::string& total);

// The LAB paper's Fig. 9 (report_fig9.cpp): normalised execution time per
// workload for the serialization-only config ("min"), the mean and the best
// of the plain finite LAB configs (those whose only override is lab.entries >
// 0), and, when a no_flush_cost (ANBF) config exists, it beside the plain LAB
// with the same lab.entries. Roles come from the configs' overrides; no
// series when there is no serialization-only config or no plain LAB.
BarChart serialization_chart(const nlohmann::ordered_json& results, const std::string& platform);

// A workload input that no bar of `platform` counts, and why: every point
// of it failed or never ran, its passed points have no `cycles`, or the
// baseline's points at it did not pass (nothing to divide by). Named on the
// page so that a workload's bar is never silently the mean of fewer inputs
// than the spec has. Workloads and inputs in spec order.
struct MissingInput {
  std::string workload, input, why;
};
std::vector<MissingInput> missing_inputs(const nlohmann::ordered_json& results,
                                         const std::string& platform);

// True when at least one point has `metric`.
bool has_metric(const nlohmann::ordered_json& results, const std::string& metric);
// True when at least one passed point has `metric` and it is not 0.
bool nonzero_metric(const nlohmann::ordered_json& results, const std::string& metric);

} // namespace tlmgpu::sweep
