// The report's figures as geometry, without a browser (issue 18 item 5):
// a figure fits the page width however many workloads and configs a sweep
// has (groups wrap into rows), every group is drawn inside it, an outlier is
// cut at the axis with its value written on it instead of flattening every
// other bar, and an input no bar counts is named on the page.
// tests/cli/report_browser.sh checks the same in Chromium when it is there.
#include "src/sweep/report_data.hpp"
#include "src/sweep/report_html.hpp"
#include "src/sweep/svg_layout.hpp"
#include "sweep_results_fixture.hpp"

#include <catch2/catch.hpp>

#include <regex>

using namespace tlmgpu::sweep;
using tlmgpu::sweep::test::results;
using ojson = nlohmann::ordered_json;

namespace {

BarChart chart(std::size_t groups, std::size_t series, double value = 1.0) {
  BarChart c;
  c.reference = 1.0;
  for (std::size_t s = 0; s < series; ++s)
    c.series.push_back("config-" + std::to_string(s));
  for (std::size_t g = 0; g < groups; ++g) {
    c.groups.push_back("W" + std::to_string(g));
    c.values.emplace_back(series, std::vector<double>{value});
  }
  return c;
}

double attr(const std::string& tag, const char* name) {
  const std::regex re(std::string(" ") + name + "=\"([-0-9.]+)\"");
  std::smatch m;
  REQUIRE(std::regex_search(tag, m, re));
  return std::stod(m[1]);
}

// Every element `<tag ...>` of the SVG (its opening tag).
std::vector<std::string> tags(const std::string& svg, const std::string& tag) {
  std::vector<std::string> out;
  const std::regex re("<" + tag + " [^>]*>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator();
       ++it)
    out.push_back(it->str());
  return out;
}

// The SVG's width, and checks that every bar and group label lies inside it
// and every group is labelled exactly once.
double check_inside(const BarChart& c) {
  const std::string svg = render_svg(c);
  const double width = attr(tags(svg, "svg").at(0), "width");
  for (const std::string& r : tags(svg, "rect")) {
    CHECK(attr(r, "x") >= 0);
    CHECK(attr(r, "x") + attr(r, "width") <= width);
  }
  for (const std::string& g : c.groups) {
    const std::regex label("<text ([^>]*) class=\"group\">" + g + "</text>");
    auto it = std::sregex_iterator(svg.begin(), svg.end(), label);
    REQUIRE(it != std::sregex_iterator());
    const double x = attr(it->str(), "x"), half = 6.2 * double(g.size()) / 2;
    CHECK(x - half >= 0);
    CHECK(x + half <= width);
    CHECK(++it == std::sregex_iterator());
  }
  return width;
}

} // namespace

TEST_CASE("sweep report: a figure fits the page, groups wrap into rows", "[sweep]") {
  // The LAB paper's matrix: 12 workloads + Average, 15 configs. One row
  // would be 13 x 15 bars of 14 px plus gaps: over 3,000 px.
  const BarChart wide = chart(13, 15);
  const ChartLayout l = layout_chart(wide);
  CHECK(l.width <= kMaxFigureWidth);
  CHECK(l.rows == 2);
  CHECK(l.per_row == 7); // 7 and 6, not 12 and 1
  CHECK(l.bar_w >= 8);
  CHECK(check_inside(wide) <= kMaxFigureWidth);
  // Rows stack: the second row's plot starts below the first's labels.
  CHECK(l.plot_top(1) > l.label_y(0));
  CHECK(l.height > l.label_y(1));

  // A few groups keep the old single-row layout with wide bars.
  const ChartLayout small = layout_chart(chart(3, 2));
  CHECK(small.rows == 1);
  CHECK(small.bar_w == Approx(28));
  check_inside(chart(3, 2));

  // Bars named underneath (the energy stack) wrap sooner: their names must
  // not run into each other. 11 groups x 9 configs fit one row at 8 px.
  BarChart named = chart(11, 9);
  named.label_bars = true;
  CHECK(layout_chart(named).rows == 2);
  CHECK(layout_chart(named).bar_w >= 12);
  CHECK(layout_chart(chart(11, 9)).rows == 1);
  check_inside(named);

  // Many configs in one group, many groups of one config: still inside.
  CHECK(check_inside(chart(1, 200)) <= kMaxFigureWidth);
  CHECK(check_inside(chart(100, 1)) <= kMaxFigureWidth);
  CHECK(layout_chart(chart(40, 1)).rows == 1); // 40 bars of 8 px and their gaps fit
  CHECK(layout_chart(chart(100, 1)).rows == 2);
}

TEST_CASE("sweep report: an outlier is cut at the axis with its value on it", "[sweep]") {
  BarChart c = chart(4, 5);
  c.values[2][3][0] = 18.2; // hLRC at 18x on one workload
  const ChartScale s = scale_chart(c);
  CHECK(s.clipped);
  CHECK(s.axis.max == Approx(1.2)); // the other bars (1.0) and the reference set it
  const std::string svg = render_svg(c);
  CHECK(svg.find("class=\"clipped\"") != std::string::npos);
  CHECK(svg.find(">18.2</text>") != std::string::npos);
  CHECK(svg.find("axis cut at 1.2") != std::string::npos);
  // No bar rises above the plot; a bar at 1.0 keeps most of the plot's height.
  const ChartLayout l = layout_chart(c);
  double tallest = 0;
  for (const std::string& r : tags(svg, "rect"))
    if (r.find("width=\"12\"") == std::string::npos) { // not a legend swatch
      CHECK(attr(r, "y") >= l.plot_top(0) - 1e-6);
      if (attr(r, "height") < l.plot_height() - 1) tallest = std::max(tallest, attr(r, "height"));
    }
  CHECK(tallest == Approx(l.plot_height() / 1.2).margin(0.2));

  // Spread without an outlier (0.5 .. 2.5): the axis covers every bar.
  BarChart spread = chart(4, 5);
  for (std::size_t g = 0; g < 4; ++g)
    spread.values[g][g][0] = 0.5 + 0.5 * double(g + 1);
  CHECK_FALSE(scale_chart(spread).clipped);
  CHECK(scale_chart(spread).axis.max >= 2.5);
  CHECK(render_svg(spread).find("axis cut") == std::string::npos);

  // A stacked bar is cut too, its total written on it.
  BarChart stacked = chart(3, 2);
  stacked.stack = {"l1", "l2"};
  for (auto& g : stacked.values)
    for (auto& bar : g)
      bar = {0.4, 0.5};
  stacked.values[1][1] = {6.0, 4.0};
  CHECK(scale_chart(stacked).clipped);
  CHECK(render_svg(stacked).find(">10</text>") != std::string::npos);
}

TEST_CASE("sweep report: an input no bar counts is named on the page", "[sweep]") {
  // W1's input b failed everywhere; W2 passed without cycles; in another
  // sweep the baseline failed on W1/a while L passed.
  auto v = [](const std::string&, const std::string& w, const std::string& in) {
    return w == "W1" && in == "b" ? std::nan("") : 100.0;
  };
  ojson r = results(v);
  for (ojson& row : r["points"])
    if (row["workload"] == "W2") row["metrics"].erase("cycles");
  const std::vector<MissingInput> m = missing_inputs(r, "p");
  REQUIRE(m.size() == 2);
  CHECK(m[0].workload == "W1");
  CHECK(m[0].input == "b");
  CHECK(m[0].why == "none of its 2 points passed (2 failed)");
  CHECK(m[1].workload == "W2");
  CHECK(m[1].why == "its 2 passed points report no cycles");
  const std::string html = render_report(r);
  CHECK(html.find("Not in the figures") != std::string::npos);
  CHECK(html.find("<b>W1</b>, input <code>b</code>: none of its 2 points passed") !=
        std::string::npos);

  auto no_base = [](const std::string& c, const std::string& w, const std::string& in) {
    return c == "B" && w == "W1" && in == "a" ? std::nan("") : 100.0;
  };
  const std::vector<MissingInput> nb = missing_inputs(results(no_base), "p");
  REQUIRE(nb.size() == 1);
  CHECK(nb[0].input == "a");
  CHECK(nb[0].why.find("baseline config B") != std::string::npos);

  // Everything counted: nothing named.
  auto all = [](const std::string&, const std::string&, const std::string&) { return 1.0; };
  CHECK(missing_inputs(results(all), "p").empty());
  CHECK(render_report(results(all)).find("Not in the figures") == std::string::npos);
}
