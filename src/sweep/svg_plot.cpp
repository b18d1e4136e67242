// Grouped (and stacked) bar charts as inline SVG; where each part goes is
// svg_layout.cpp's (rows of groups, the axis and its clipping).
#include "src/sweep/svg_plot.hpp"

#include "src/sweep/svg_layout.hpp"

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

std::string px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string colour(const char* const* palette, std::size_t n, std::size_t i) {
  return palette[i % n];
}

void text(std::ostringstream& os, double x, double y, const std::string& s,
          const char* anchor = "middle", const std::string& extra = "") {
  os << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" text-anchor=\"" << anchor << "\""
     << extra << ">" << xml_escape(s) << "</text>\n";
}

void line(std::ostringstream& os, double x1, double x2, double y1, double y2, const char* stroke,
          const char* extra = "") {
  os << "<line x1=\"" << px(x1) << "\" x2=\"" << px(x2) << "\" y1=\"" << px(y1) << "\" y2=\""
     << px(y2) << "\" stroke=\"" << stroke << "\"" << extra << "/>\n";
}

// An outlier bar cut at the axis top: a white slanted band just below the
// top says "broken", and its value is written down the bar (vertical, so
// it fits a narrow bar; a white halo keeps it legible on any colour).
void broken_bar(std::ostringstream& os, double x, double w, double top, double value) {
  os << "<polygon points=\"" << px(x) << "," << px(top + 9) << " " << px(x + w) << ","
     << px(top + 4) << " " << px(x + w) << "," << px(top + 8) << " " << px(x) << "," << px(top + 13)
     << "\" fill=\"#fff\"/>\n";
  const double tx = x + w / 2 + 3, ty = top + 16;
  text(os, tx, ty, format_number(value, 3), "end",
       " class=\"clipped\" font-size=\"9\" font-weight=\"bold\" stroke=\"#fff\" "
       "stroke-width=\"3\" paint-order=\"stroke\" transform=\"rotate(-90 " +
           px(tx) + " " + px(ty) + ")\"");
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
  const ChartLayout l = layout_chart(c);
  const ChartScale sc = scale_chart(c);
  const Axis& axis = sc.axis;
  const std::size_t ns = std::max<std::size_t>(c.series.size(), 1);
  const double left = l.plot_left(), right = left + l.plot_w;

  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(l.width) << "\" height=\""
     << px(l.height) << "\" viewBox=\"0 0 " << px(l.width) << " " << px(l.height)
     << "\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">\n";
  os << "<title>" << xml_escape(c.title) << "</title>\n";
  text(os, l.width / 2, 18, c.title, "middle", " font-size=\"13\" font-weight=\"bold\"");
  if (sc.clipped)
    text(os, right, l.plot_top(0) - 8,
         "axis cut at " + format_number(axis.max, 3) + ": taller bars are broken, value on them",
         "end", " font-size=\"10\" fill=\"#555\"");

  for (std::size_t row = 0; row < l.rows; ++row) {
    const double top = l.plot_top(row), bottom = l.plot_bottom(row);
    auto y_of = [&](double v) {
      return bottom - std::min(v, axis.max) / axis.max * (bottom - top);
    };
    // Grid and y axis.
    for (int i = 0; i * axis.step <= axis.max + axis.step * 1e-6; ++i) {
      const double v = i * axis.step;
      line(os, left, right, y_of(v), y_of(v), "#ddd");
      text(os, left - 6, y_of(v) + 4, format_number(v, 3), "end");
    }
    line(os, left, left, top, bottom, "#333");
    line(os, left, right, bottom, bottom, "#333");
    const double mid = (top + bottom) / 2;
    text(os, 16, mid, c.y_label, "middle", " transform=\"rotate(-90 16 " + px(mid) + ")\"");

    const std::size_t first = row * l.per_row;
    const std::size_t last = std::min(c.groups.size(), first + l.per_row);
    for (std::size_t g = first; g < last; ++g) {
      for (std::size_t s = 0; s < c.series.size(); ++s) {
        const double x = l.bar_left(g, s, ns), bw = l.bar_w;
        const std::vector<double> bar =
            g < c.values.size() && s < c.values[g].size() ? c.values[g][s] : std::vector<double>{};
        const double total = bar_total(bar);
        if (std::isnan(total)) {
          text(os, x + bw / 2, bottom - 3, "-", "middle", " fill=\"#999\"");
        } else {
          double base = 0;
          for (std::size_t k = 0; k < bar.size() && base < axis.max; ++k) {
            const double up = base + bar[k];
            const std::string fill = c.stack.empty()
                                         ? colour(kSeriesColours, std::size(kSeriesColours), s)
                                         : colour(kStackColours, std::size(kStackColours), k);
            const std::string what =
                c.stack.empty() ? "" : " " + c.stack[std::min(k, c.stack.size() - 1)];
            os << "<rect x=\"" << px(x) << "\" y=\"" << px(y_of(up)) << "\" width=\"" << px(bw - 1)
               << "\" height=\"" << px(y_of(base) - y_of(up)) << "\" fill=\"" << fill
               << "\"><title>" << xml_escape(c.groups[g] + " / " + c.series[s] + what) << ": "
               << format_number(bar[k]) << "</title></rect>\n";
            base = up;
          }
          if (total > axis.max) broken_bar(os, x, bw - 1, top, total);
        }
        if (c.label_bars) {
          const double bx = x + bw / 2, by = bottom + 8;
          text(os, bx, by, c.series[s], "end",
               " font-size=\"9\" transform=\"rotate(-60 " + px(bx) + " " + px(by) + ")\"");
        }
      }
      text(os, l.group_left(g) + l.slot / 2, l.label_y(row), c.groups[g], "middle",
           " class=\"group\"");
    }

    if (!std::isnan(c.reference) && c.reference <= axis.max)
      line(os, left, right, y_of(c.reference), y_of(c.reference), "#000",
           " stroke-dasharray=\"4 3\"");
  }

  const std::vector<std::string>& legend = c.stack.empty() ? c.series : c.stack;
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const auto [x, y] = l.legend[i];
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
