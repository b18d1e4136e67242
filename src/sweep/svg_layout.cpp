// Chart geometry and the y axis (svg_layout.hpp).
#include "src/sweep/svg_layout.hpp"

#include <algorithm>
#include <cmath>

namespace tlmgpu::sweep {
namespace {

constexpr double kLeft = 64, kRight = 16, kTop = 36, kPlotH = 220;
constexpr double kBar = 14;            // a bar's preferred width
constexpr double kMinBar = 8;          // narrower, and the groups wrap into rows instead
constexpr double kMinLabelledBar = 12; // with its name under it (rotated, font-size 9)
constexpr double kGap = 1.5;           // between groups, in bars
constexpr double kRowGap = 16;         // between rows
constexpr double kCharW = 6.2;         // average glyph width at font-size 11, for layout only

double group_width(std::size_t nseries, double bar) {
  return double(nseries) * bar + kGap * bar;
}

} // namespace

double ChartLayout::plot_left() const {
  return kLeft;
}
double ChartLayout::plot_height() const {
  return kPlotH;
}
double ChartLayout::plot_top(std::size_t row) const {
  return kTop + double(row) * (kPlotH + bar_label_h + 24 + kRowGap);
}
double ChartLayout::plot_bottom(std::size_t row) const {
  return plot_top(row) + kPlotH;
}
double ChartLayout::label_y(std::size_t row) const {
  return plot_bottom(row) + bar_label_h + 16;
}
double ChartLayout::group_left(std::size_t g) const {
  return kLeft + slot * double(g % per_row);
}
double ChartLayout::bar_left(std::size_t g, std::size_t s, std::size_t nseries) const {
  return group_left(g) + (slot - double(nseries) * bar_w) / 2 + double(s) * bar_w;
}

ChartLayout layout_chart(const BarChart& c) {
  ChartLayout l;
  const std::size_t ns = std::max<std::size_t>(c.series.size(), 1);
  const std::size_t ng = std::max<std::size_t>(c.groups.size(), 1);
  const double max_plot = kMaxFigureWidth - kLeft - kRight;
  const double min_bar = c.label_bars ? kMinLabelledBar : kMinBar;
  if (double(ng) * group_width(ns, min_bar) <= max_plot) {
    l.per_row = ng;
    l.plot_w = std::clamp(double(ng) * group_width(ns, kBar), 360.0, max_plot);
  } else {
    // As many groups per row as fit at the narrowest bars, spread evenly
    // over the rows (11 groups in rows of 6 and 5, not 10 and 1).
    const std::size_t fit =
        std::max<std::size_t>(1, std::size_t(max_plot / group_width(ns, min_bar)));
    l.rows = (ng + fit - 1) / fit;
    l.per_row = (ng + l.rows - 1) / l.rows;
    l.plot_w = max_plot;
  }
  l.slot = l.plot_w / double(l.per_row);
  // Few groups get wider bars (up to 2x), keeping the gap between groups.
  l.bar_w = std::min(2 * kBar, l.slot / (double(ns) + kGap));

  double longest_series = 0;
  for (const std::string& s : c.series)
    longest_series = std::max(longest_series, double(s.size()));
  l.bar_label_h = c.label_bars ? longest_series * kCharW * 0.8 + 8 : 0;
  l.width = kLeft + l.plot_w + kRight;

  // Legend entries wrap into rows across the chart's width.
  const std::vector<std::string>& legend = c.stack.empty() ? c.series : c.stack;
  double lx = kLeft, ly = l.label_y(l.rows - 1) + 24;
  for (const std::string& name : legend) {
    const double w = 18 + double(name.size()) * kCharW + 14;
    if (lx + w > l.width - kRight && lx > kLeft) lx = kLeft, ly += 18;
    l.legend.emplace_back(lx, ly);
    lx += w;
  }
  l.height = ly + 14;
  return l;
}

double bar_total(const std::vector<double>& comps) {
  double t = 0;
  for (double c : comps) {
    if (std::isnan(c)) return kMissing;
    t += c;
  }
  return comps.empty() ? kMissing : t;
}

ChartScale scale_chart(const BarChart& c) {
  const double ref = std::isnan(c.reference) ? 0 : c.reference;
  std::vector<double> totals;
  for (const auto& g : c.values)
    for (const auto& bar : g)
      if (const double t = bar_total(bar); std::isfinite(t)) totals.push_back(t);
  double tallest = ref;
  for (double t : totals)
    tallest = std::max(tallest, t);
  // Headroom: a bar at the top stays visible.
  if (totals.empty()) return {nice_axis(tallest * 1.04), false};

  std::vector<double> sorted = totals;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double limit = kClipFactor * std::max(sorted[sorted.size() / 2], ref);
  if (!(limit > 0) || tallest <= limit) return {nice_axis(tallest * 1.04), false};
  double kept = ref;
  for (double t : totals)
    if (t <= limit) kept = std::max(kept, t);
  const Axis axis = nice_axis(kept * 1.04);
  return {axis, tallest > axis.max};
}

} // namespace tlmgpu::sweep
