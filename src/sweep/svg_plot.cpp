// Grouped (and stacked) bar charts as inline SVG. Layout in pixels:
//
//   title
//   +-------------------------------------------+
//   | y ticks |  [bars][bars]..  [bars]          |
//   |         |  group 1   ...   Average         |
//   +-------------------------------------------+
//   legend (wraps)
#include "src/sweep/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace tlmgpu::sweep {
namespace {

// Qualitative palettes: Tableau 10 for configs, Okabe-Ito for energy parts.
const char* const kSeriesColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
const char* const kStackColours[] = {"#e69f00", "#56b4e9", "#009e73", "#f0e442",
                                     "#0072b2", "#d55e00", "#cc79a7", "#999999"};

constexpr double kLeft = 64, kRight = 16, kTop = 36, kPlotH = 220, kBar = 14;
constexpr double kCharW = 6.2; // average glyph width at font-size 11, for layout only

std::string px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string colour(const char* const* palette, std::size_t n, std::size_t i) {
  return palette[i % n];
}

double bar_total(const std::vector<double>& comps) {
  double t = 0;
  for (double c : comps) {
    if (std::isnan(c)) return kMissing;
    t += c;
  }
  return comps.empty() ? kMissing : t;
}

void text(std::ostringstream& os, double x, double y, const std::string& s,
          const char* anchor = "middle", const std::string& extra = "") {
  os << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" text-anchor=\"" << anchor << "\""
     << extra << ">" << xml_escape(s) << "</text>\n";
}

} // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string format_number(double v, int digits) {
  if (std::isnan(v)) return "n/a";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

Axis nice_axis(double max) {
  if (!(max > 0) || !std::isfinite(max)) return {1, 0.25};
  const double mag = std::pow(10.0, std::floor(std::log10(max / 4)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    const double step = m * mag;
    const double top = std::ceil(max / step - 1e-9) * step;
    if (top / step <= 8) return {top, step};
  }
  return {max, max / 4};
}

std::string render_svg(const BarChart& c) {
  const std::size_t ns = std::max<std::size_t>(c.series.size(), 1);
  const double group_w = double(ns) * kBar + kBar * 1.5;
  double longest_series = 0;
  for (const std::string& s : c.series)
    longest_series = std::max(longest_series, double(s.size()));
  const double bar_label_h = c.label_bars ? longest_series * kCharW * 0.8 + 8 : 0;
  const double plot_w = std::max(360.0, double(c.groups.size()) * group_w);
  const double width = kLeft + plot_w + kRight;

  // Legend entries wrap into rows across the chart's width.
  const std::vector<std::string>& legend = c.stack.empty() ? c.series : c.stack;
  std::vector<std::pair<double, double>> legend_pos;
  double lx = kLeft, ly = kTop + kPlotH + 24 + bar_label_h + 16;
  for (const std::string& name : legend) {
    const double w = 18 + double(name.size()) * kCharW + 14;
    if (lx + w > width - kRight && lx > kLeft) lx = kLeft, ly += 18;
    legend_pos.emplace_back(lx, ly);
    lx += w;
  }
  const double height = ly + 14;

  double max = std::isnan(c.reference) ? 0 : c.reference;
  for (const auto& g : c.values)
    for (const auto& bar : g)
      if (double t = bar_total(bar); !std::isnan(t)) max = std::max(max, t);
  const Axis axis = nice_axis(max * 1.04); // headroom: a bar at the top stays visible
  auto y_of = [&](double v) { return kTop + kPlotH - v / axis.max * kPlotH; };

  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(width) << "\" height=\""
     << px(height) << "\" viewBox=\"0 0 " << px(width) << " " << px(height)
     << "\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">\n";
  os << "<title>" << xml_escape(c.title) << "</title>\n";
  text(os, width / 2, 18, c.title, "middle", " font-size=\"13\" font-weight=\"bold\"");

  // Grid and y axis.
  for (int i = 0; i * axis.step <= axis.max + axis.step * 1e-6; ++i) {
    const double v = i * axis.step;
    const double y = y_of(v);
    os << "<line x1=\"" << px(kLeft) << "\" x2=\"" << px(kLeft + plot_w) << "\" y1=\"" << px(y)
       << "\" y2=\"" << px(y) << "\" stroke=\"#ddd\"/>\n";
    text(os, kLeft - 6, y + 4, format_number(v, 3), "end");
  }
  os << "<line x1=\"" << px(kLeft) << "\" x2=\"" << px(kLeft) << "\" y1=\"" << px(kTop)
     << "\" y2=\"" << px(kTop + kPlotH) << "\" stroke=\"#333\"/>\n";
  os << "<line x1=\"" << px(kLeft) << "\" x2=\"" << px(kLeft + plot_w) << "\" y1=\""
     << px(kTop + kPlotH) << "\" y2=\"" << px(kTop + kPlotH) << "\" stroke=\"#333\"/>\n";
  const double mid = kTop + kPlotH / 2;
  text(os, 16, mid, c.y_label, "middle", " transform=\"rotate(-90 16 " + px(mid) + ")\"");

  // Bars, group by group.
  // Few groups get wider bars (up to 2x), keeping a 1.5-bar gap between groups.
  const double slot = plot_w / double(std::max<std::size_t>(c.groups.size(), 1));
  const double bw = std::min(2 * kBar, slot / (double(ns) + 1.5));
  for (std::size_t g = 0; g < c.groups.size(); ++g) {
    const double x0 = kLeft + slot * double(g) + (slot - double(ns) * bw) / 2;
    for (std::size_t s = 0; s < c.series.size(); ++s) {
      const double x = x0 + double(s) * bw;
      const std::vector<double> bar =
          g < c.values.size() && s < c.values[g].size() ? c.values[g][s] : std::vector<double>{};
      const double total = bar_total(bar);
      if (std::isnan(total)) {
        text(os, x + bw / 2, kTop + kPlotH - 3, "-", "middle", " fill=\"#999\"");
      } else {
        double base = 0;
        for (std::size_t k = 0; k < bar.size(); ++k) {
          const double top = base + bar[k];
          const std::string fill = c.stack.empty()
                                       ? colour(kSeriesColours, std::size(kSeriesColours), s)
                                       : colour(kStackColours, std::size(kStackColours), k);
          const std::string what =
              c.stack.empty() ? "" : " " + c.stack[std::min(k, c.stack.size() - 1)];
          os << "<rect x=\"" << px(x) << "\" y=\"" << px(y_of(top)) << "\" width=\"" << px(bw - 1)
             << "\" height=\"" << px(y_of(base) - y_of(top)) << "\" fill=\"" << fill << "\"><title>"
             << xml_escape(c.groups[g] + " / " + c.series[s] + what) << ": "
             << format_number(bar[k]) << "</title></rect>\n";
          base = top;
        }
      }
      if (c.label_bars) {
        const double bx = x + bw / 2, by = kTop + kPlotH + 8;
        text(os, bx, by, c.series[s], "end",
             " font-size=\"9\" transform=\"rotate(-60 " + px(bx) + " " + px(by) + ")\"");
      }
    }
    text(os, kLeft + slot * (double(g) + 0.5), kTop + kPlotH + bar_label_h + 16, c.groups[g]);
  }

  if (!std::isnan(c.reference)) {
    const double y = y_of(c.reference);
    os << "<line x1=\"" << px(kLeft) << "\" x2=\"" << px(kLeft + plot_w) << "\" y1=\"" << px(y)
       << "\" y2=\"" << px(y) << "\" stroke=\"#000\" stroke-dasharray=\"4 3\"/>\n";
  }

  for (std::size_t i = 0; i < legend.size(); ++i) {
    const auto [x, y] = legend_pos[i];
    const std::string fill = c.stack.empty() ? colour(kSeriesColours, std::size(kSeriesColours), i)
                                             : colour(kStackColours, std::size(kStackColours), i);
    os << "<rect x=\"" << px(x) << "\" y=\"" << px(y - 9) << "\" width=\"12\" height=\"12\" fill=\""
       << fill << "\"/>\n";
    text(os, x + 16, y + 1, legend[i], "start");
  }
  os << "</svg>\n";
  return os.str();
}

} // namespace tlmgpu::sweep
