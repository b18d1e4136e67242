// Where the parts of a bar chart go (svg_plot.cpp draws them), kept apart
// from the drawing so the geometry can be tested without a browser:
//
//   title                                   [axis cut at X: ... ]
//   +--------------------------------------------------+  row 0
//   | y ticks | [bars] [bars] ... [bars]               |
//   |         | group 0 ...       group k-1            |
//   +--------------------------------------------------+
//   +--------------------------------------------------+  row 1 (same axis)
//   |         | group k ...       Average              |
//   +--------------------------------------------------+
//   legend (wraps)
//
// A chart is at most kMaxFigureWidth wide: groups that would need more (or
// bars thinner than a minimum) wrap into further rows, so a figure never
// runs past the page. An outlier bar does not set the axis (scale_chart).
#pragma once

#include "src/sweep/svg_plot.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace tlmgpu::sweep {

// The widest figure, in CSS pixels: the report's page (max-width 1400 px,
// 2 em margins) shows it whole in a 1,200 px wide window, and the page's
// CSS scales it down in a narrower one.
constexpr double kMaxFigureWidth = 1100;

struct ChartLayout {
  double width = 0, height = 0;
  std::size_t rows = 1, per_row = 1;             // groups g of row g / per_row
  double plot_w = 0;                             // each row's plot area, right of the y axis
  double slot = 0, bar_w = 0;                    // a group's width, a bar's width
  double bar_label_h = 0;                        // room for series names under the bars
  std::vector<std::pair<double, double>> legend; // (x, baseline y) per entry

  double plot_left() const;
  double plot_top(std::size_t row) const;    // the axis maximum's y
  double plot_bottom(std::size_t row) const; // the axis zero's y
  double plot_height() const;
  double group_left(std::size_t g) const; // left edge of group g's slot
  double bar_left(std::size_t g, std::size_t s, std::size_t nseries) const;
  double label_y(std::size_t row) const; // the group names' baseline
};
ChartLayout layout_chart(const BarChart& c);

// The y axis: up to the tallest bar, unless some bars are outliers (beyond
// kClipFactor times the median bar and the reference line): then it ends
// above the others and `clipped` says the outliers are drawn broken, with
// their value written on them.
constexpr double kClipFactor = 3;
struct ChartScale {
  Axis axis;
  bool clipped = false;
};
ChartScale scale_chart(const BarChart& c);

// The sum of a bar's components; kMissing if any is missing (or none).
double bar_total(const std::vector<double>& components);

} // namespace tlmgpu::sweep
