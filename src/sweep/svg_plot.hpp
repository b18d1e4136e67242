// A small SVG writer for the report's figures: grouped bar charts (one group
// per workload, one bar per config, as in the LAB paper's Figs. 4-6) and
// grouped stacked bars (Fig. 7's energy breakdown). Output is a pure function
// of the input (fixed number formatting, no ids from counters or time), so the
// same data gives byte-identical SVG. No SystemC, no dependencies.
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace tlmgpu::sweep {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

struct BarChart {
  std::string title, y_label;
  std::vector<std::string> groups; // x axis: workloads (+ "Average")
  std::vector<std::string> series; // one bar per series in each group: configs
  std::vector<std::string> stack;  // stacked components; empty = one value per bar
  // values[group][series][component] (component 0 when `stack` is empty);
  // NaN (kMissing) = no bar.
  std::vector<std::vector<std::vector<double>>> values;
  double reference = kMissing; // dashed horizontal line, e.g. 1.0 = baseline
  bool label_bars = false;     // series name under every bar (stacked charts)
};

std::string render_svg(const BarChart& chart);

// "&<>\"'" escaped for XML/HTML text and attributes.
std::string xml_escape(const std::string& s);

// Fixed "%.<digits>g" formatting (locale-independent enough for digits).
std::string format_number(double v, int digits = 4);

// The axis maximum and tick step for data up to `max`: 1, 2, 2.5 or 5 x 10^k
// steps, 4 to 8 of them.
struct Axis {
  double max, step;
};
Axis nice_axis(double max);

} // namespace tlmgpu::sweep
