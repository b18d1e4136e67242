// Sweep results and the report's arithmetic: markers and resume, merging
// stats.json "metrics" (with the simulated.cycles fallback), CSV, the
// normalisation and averaging rules of the LAB paper's figures, and the SVG
// writer's determinism.
#include "src/sweep/report_data.hpp"
#include "src/sweep/report_html.hpp"
#include "src/sweep/sweep_results.hpp"
#include "sweep_results_fixture.hpp"
#include "tlmgpu/manifest.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <fstream>
#include <unistd.h>

using namespace tlmgpu::sweep;
using tlmgpu::sweep::test::results;
namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

struct TempDir {
  fs::path root;
  TempDir() {
    static std::atomic<int> counter{0};
    root = fs::temp_directory_path() / ("tlmgpu_sweep_report_test_" + std::to_string(::getpid()) +
                                        "_" + std::to_string(counter++));
    fs::create_directories(root);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

} // namespace

TEST_CASE("sweep report: normalise per input, mean over inputs, Average over workloads",
          "[sweep]") {
  // W1: L/B = 0.5 on input a and 1.0 on b -> 0.75; W2: 200/100 = 2 -> Average 1.375.
  auto v = [](const std::string& c, const std::string& w, const std::string& in) {
    if (w == "W2") return c == "B" ? 100.0 : 200.0;
    if (in == "a") return c == "B" ? 1000.0 : 500.0;
    return c == "B" ? 40.0 : 40.0;
  };
  const BarChart ch = metric_chart(results(v), "p", "cycles", true);
  REQUIRE(ch.groups == std::vector<std::string>{"W1", "W2", "Average"});
  REQUIRE(ch.series == std::vector<std::string>{"B", "L"});
  CHECK(ch.values[0][0][0] == Approx(1.0));
  CHECK(ch.values[0][1][0] == Approx(0.75));
  CHECK(ch.values[1][1][0] == Approx(2.0));
  CHECK(ch.values[2][1][0] == Approx(1.375));
  CHECK(ch.values[2][0][0] == Approx(1.0));

  // Raw (not divided by the baseline): mean of raw values.
  const BarChart raw = metric_chart(results(v), "p", "cycles", false);
  CHECK(raw.values[0][1][0] == Approx(270.0));

  // A point whose baseline failed does not count; nothing left -> missing,
  // and Average averages only the workloads that have a value.
  auto broken = [&](const std::string& c, const std::string& w, const std::string& in) {
    if (c == "B" && w == "W2") return std::nan("");
    return v(c, w, in);
  };
  const BarChart b = metric_chart(results(broken), "p", "cycles", true);
  CHECK(std::isnan(b.values[1][1][0]));
  CHECK(b.values[2][1][0] == Approx(0.75));
  // Another platform has no points at all.
  CHECK(std::isnan(metric_chart(results(v), "q", "cycles", true).values[0][0][0]));
}

TEST_CASE("sweep report: energy stack is normalised to the baseline's total", "[sweep]") {
  auto v = [](const std::string& c, const std::string&, const std::string&) {
    return c == "B" ? 100.0 : 50.0;
  };
  const BarChart ch =
      stacked_chart(results(v, true), "p", {"energy_pj_l1", "energy_pj_noc"}, "energy_pj_total");
  REQUIRE(ch.stack.size() == 2);
  CHECK(ch.values[0][0][0] == Approx(0.25));  // B: l1 = 25 / 100
  CHECK(ch.values[0][1][0] == Approx(0.125)); // L: 12.5 / 100
  CHECK(ch.values[0][1][1] == Approx(0.0));   // absent component counts as 0
  CHECK(ch.values[2][1][0] == Approx(0.125));
}

TEST_CASE("sweep report: the units' and static energy are stacked only where a point has them",
          "[sweep]") {
  auto v = [](const std::string& c, const std::string&, const std::string&) {
    return c == "B" ? 100.0 : 50.0;
  };
  ojson r = results(v, true);
  for (const char* m : {"energy_pj_scu", "energy_pj_static"})
    r["metrics"].push_back(m);
  for (ojson& row : r["points"]) {
    row["metrics"]["energy_pj_scu"] = 0.0;
    row["metrics"]["energy_pj_static"] = row["config"] == "L" ? 5.0 : 0.0;
  }
  CHECK(nonzero_metric(r, "energy_pj_static"));
  CHECK_FALSE(nonzero_metric(r, "energy_pj_scu"));
  CHECK_FALSE(nonzero_metric(r, "energy_pj_iru")); // not a metric at all
  r["points"][3]["status"] = "failed";             // L's points: only passed ones count
  r["points"][4]["status"] = "failed";
  r["points"][5]["status"] = "failed";
  CHECK_FALSE(nonzero_metric(r, "energy_pj_static"));
}

TEST_CASE("sweep report: Fig. 9 roles come from the configs' overrides", "[sweep]") {
  auto cfg = [](std::string label, ojson set) {
    return ojson{{"label", label}, {"set", set}, {"timing", ""}};
  };
  const ojson configs =
      ojson::array({cfg("B", ojson::object()), cfg("L8", {{"lab.entries", "8"}}),
                    cfg("L64", {{"lab.entries", "64"}}), cfg("Inf", {{"lab.infinite", "true"}}),
                    cfg("Ser", {{"lab.entries", "64"}, {"lab.variant", "serialization_only"}}),
                    cfg("Anbf", {{"lab.entries", "64"}, {"lab.variant", "no_flush_cost"}}),
                    cfg("Phi", {{"l1.atomic_mode", "phi"}})});
  // Normalised times: L8 0.6, L64 0.4, Inf 0.1 (not a finite size), Ser 0.9,
  // Anbf 0.35, Phi 0.2 (not a LAB): same on every workload and input.
  auto v = [](const std::string& c, const std::string&, const std::string&) {
    if (c == "B") return 100.0;
    if (c == "L8") return 60.0;
    if (c == "L64") return 40.0;
    if (c == "Inf") return 10.0;
    if (c == "Ser") return 90.0;
    return c == "Anbf" ? 35.0 : 20.0;
  };
  const BarChart ch = serialization_chart(results(v, false, configs), "p");
  REQUIRE(ch.series == std::vector<std::string>{"min: Ser", "avg: finite LAB sizes",
                                                "max: best finite LAB size", "L64", "ANBF: Anbf"});
  REQUIRE(ch.groups == std::vector<std::string>{"W1", "W2", "Average"});
  for (const auto& g : ch.values) {
    CHECK(g[0][0] == Approx(0.9));
    CHECK(g[1][0] == Approx(0.5));
    CHECK(g[2][0] == Approx(0.4));
    CHECK(g[3][0] == Approx(0.4));
    CHECK(g[4][0] == Approx(0.35));
  }
  // Without a serialization-only config there is nothing to isolate.
  ojson no_ser = configs;
  no_ser.erase(4);
  CHECK(serialization_chart(results(v, false, no_ser), "p").series.empty());
  // The page draws it only when the roles exist.
  CHECK(render_report(results(v, false, configs)).find("cf. Fig. 9") != std::string::npos);
  CHECK(render_report(results(v, false, no_ser)).find("cf. Fig. 9") == std::string::npos);
}

// A spec on tiny with baseline B and one histogram workload labelled `label`.
static SweepSpec tiny_spec(std::vector<SweepConfig> configs, const std::string& label,
                           std::vector<uint64_t> seeds) {
  SweepSpec spec;
  spec.file = "s.json";
  spec.name = "t";
  spec.timing = "lt";
  spec.baseline = "B";
  spec.platforms = spec.platform_args = {"tiny"};
  spec.configs = std::move(configs);
  spec.workloads = {{label, "histogram", {}, {""}, {""}}};
  spec.seeds = std::move(seeds);
  return spec;
}

// What a run's commit leaves (tlmgpu/result_dir.hpp): a manifest of its files.
static void seal(const fs::path& dir) {
  tlmgpu::write_manifest(dir, tlmgpu::scan_directory(dir));
}

TEST_CASE("sweep results: markers, merge, CSV", "[sweep]") {
  TempDir t;
  const SweepSpec spec =
      tiny_spec({{"B", {}, "", {}}, {"L", {{"lab.entries", "8"}}, "", {}}}, "H, \"x\"", {1});
  const std::vector<Point> pts = expand(spec);
  REQUIRE(pts.size() == 2);
  for (const Point& p : pts)
    fs::create_directories(t.root / p.dir);

  // Point 0 passed with metrics; point 1 has only simulated.cycles, and its
  // marker is from other arguments (an older spec): it is pending.
  std::ofstream(t.root / pts[0].dir / "stats.json")
      << R"({"check": "passed", "metrics": {"cycles": 10, "dram_bytes": 2.5, "name": "x"}})";
  seal(t.root / pts[0].dir);
  Outcome ok{"passed", 0, 0, 1.5, ""};
  write_marker(t.root / pts[0].dir, pts[0].args, ok);
  CHECK(point_done(t.root / pts[0].dir, pts[0].args));
  CHECK_FALSE(point_done(t.root / pts[0].dir, pts[1].args));
  std::ofstream(t.root / pts[1].dir / "stats.json")
      << R"({"check": "failed", "simulated": {"cycles": 7}})";
  seal(t.root / pts[1].dir);
  write_marker(t.root / pts[1].dir, {"run", "old"}, ok);
  CHECK_FALSE(point_done(t.root / pts[1].dir, pts[1].args));

  ojson r = merge_results(spec, pts, t.root);
  CHECK(r["metrics"] == ojson({"cycles", "dram_bytes"}));
  CHECK(r["points"][0]["status"] == "passed");
  CHECK(r["points"][1]["status"] == "pending");
  CHECK(r["points"][1]["metrics"].empty());

  write_marker(t.root / pts[1].dir, pts[1].args, {"failed", 1, 0, 2.0, "boom"});
  CHECK_FALSE(point_done(t.root / pts[1].dir, pts[1].args));
  r = merge_results(spec, pts, t.root);
  CHECK(r["points"][1]["status"] == "failed");
  CHECK(r["points"][1]["error"] == "boom");
  CHECK(results_csv(r) ==
        "platform,config,workload,input,seed,point,status,check,exit_code,cycles,dram_bytes\n"
        "tiny,B,\"H, \"\"x\"\"\",,1,tiny/B/H_x_/s1,passed,passed,0,10,2.5\n"
        "tiny,L,\"H, \"\"x\"\"\",,1,tiny/L/H_x_/s1,failed,failed,1,7,\n");
}

TEST_CASE("sweep results: a passed marker carries the summary, stats.json may go", "[sweep]") {
  TempDir t;
  const SweepSpec spec = tiny_spec({{"B", {}, "", {}}}, "H", {1, 2});
  const std::vector<Point> pts = expand(spec);
  REQUIRE(pts.size() == 2);
  const std::string stats =
      R"({"check": "passed", "metrics": {"cycles": 12345, "ratio": 0.1, "nan": "x"},
          "total": {"big": 1}})";
  for (const Point& p : pts) {
    fs::create_directories(t.root / p.dir);
    std::ofstream(t.root / p.dir / "stats.json") << stats;
    seal(t.root / p.dir);
  }
  // Point 0: an older marker without the summary (merge reads stats.json).
  std::ofstream(t.root / pts[0].dir / "point.json")
      << ojson({{"status", "passed"}, {"exit_code", 0}, {"args", pts[0].args}}).dump();
  write_marker(t.root / pts[1].dir, pts[1].args, {"passed", 0, 0, 1.0, ""});
  const std::string before = merge_results(spec, pts, t.root).dump();

  // keep_stats = false: stats.json goes, from the manifest too.
  write_marker(t.root / pts[1].dir, pts[1].args, {"passed", 0, 0, 1.0, ""}, false);
  CHECK_FALSE(fs::exists(t.root / pts[1].dir / "stats.json"));
  CHECK(point_done(t.root / pts[1].dir, pts[1].args));
  const ojson r = merge_results(spec, pts, t.root);
  CHECK(r.dump() == before); // the same results from the marker alone
  CHECK(r["points"][1]["check"] == "passed");
  CHECK(r["points"][1]["metrics"] == ojson({{"cycles", 12345}, {"ratio", 0.1}}));

  // A marker the manifest does not vouch for (older than manifests, or
  // written by hand) is not trusted: the point runs again.
  CHECK_FALSE(point_done(t.root / pts[0].dir, pts[0].args));
}

TEST_CASE("sweep results: a point whose files changed since they were written runs again",
          "[sweep]") {
  TempDir t;
  const SweepSpec spec = tiny_spec({{"B", {}, "", {}}}, "H", {1, 2});
  const std::vector<Point> pts = expand(spec);
  for (const Point& p : pts) {
    fs::create_directories(t.root / p.dir);
    std::ofstream(t.root / p.dir / "stats.json") << R"({"check": "passed", "metrics": {"c": 1}})";
    seal(t.root / p.dir);
  }
  // Point 0: stats.json cut short after the run committed it.
  std::ofstream(t.root / pts[0].dir / "stats.json") << R"({"check": "passed", "met)";
  CHECK(write_marker(t.root / pts[0].dir, pts[0].args, {"passed", 0, 0, 1.0, ""}) == "corrupt");
  CHECK_FALSE(point_done(t.root / pts[0].dir, pts[0].args));
  // Point 1: passed, then its marker was edited.
  CHECK(write_marker(t.root / pts[1].dir, pts[1].args, {"passed", 0, 0, 1.0, ""}) == "passed");
  CHECK(point_done(t.root / pts[1].dir, pts[1].args));
  std::ofstream(t.root / pts[1].dir / "point.json", std::ios::app) << " ";
  std::string why;
  CHECK_FALSE(point_done(t.root / pts[1].dir, pts[1].args, &why));
  CHECK(why.find("point.json") != std::string::npos);
}

TEST_CASE("sweep report: SVG and HTML are deterministic and escaped", "[sweep]") {
  CHECK(nice_axis(1.0).max == Approx(1.0));
  CHECK(nice_axis(1.37).max == Approx(1.4));
  CHECK(nice_axis(7.1).max == Approx(8.0));
  CHECK(nice_axis(0).max == Approx(1.0));

  BarChart c;
  c.title = "a<b";
  c.groups = {"W&1"};
  c.series = {"B", "L"};
  c.values = {{{1.0}, {kMissing}}};
  c.reference = 1.0;
  const std::string svg = render_svg(c);
  CHECK(svg.find("<svg") == 0);
  CHECK(svg.find("a&lt;b") != std::string::npos);
  CHECK(svg.find("W&amp;1") != std::string::npos);
  CHECK(svg.find("stroke-dasharray") != std::string::npos);
  CHECK(svg == render_svg(c));

  auto v = [](const std::string& c, const std::string&, const std::string&) {
    return c == "B" ? 100.0 : 50.0;
  };
  const std::string html = render_report(results(v, true));
  CHECK(html == render_report(results(v, true)));
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("normalised execution time") != std::string::npos);
  CHECK(html.find("energy breakdown") != std::string::npos);
  CHECK(html.find("interconnect traffic") == std::string::npos); // no such metric
}

TEST_CASE("sweep report: a spec figure shows the baseline and its configs only", "[sweep]") {
  auto v = [](const std::string& c, const std::string&, const std::string&) {
    return c == "B" ? 100.0 : 50.0;
  };
  const BarChart all = metric_chart(results(v), "p", "cycles", true);
  const BarChart only = only_series(all, {"L", "nope"});
  REQUIRE(only.series == std::vector<std::string>{"L"});
  REQUIRE(only.groups == all.groups);
  CHECK(only.values[0][0][0] == Approx(0.5));

  ojson r = results(v);
  r["figures"] = ojson::array({{{"title", "capacity <64>"},
                                {"caption", "as the paper: Fig. 11"},
                                {"metric", "cycles"},
                                {"configs", {"L"}}},
                               {{"title", "traffic"},
                                {"caption", ""},
                                {"metric", "interconnect_bytes"},
                                {"configs", {"L"}}}});
  const std::string html = render_report(r);
  CHECK(html.find("capacity &lt;64&gt; (p)") != std::string::npos);
  CHECK(html.find("as the paper: Fig. 11") != std::string::npos);
  CHECK(html.find("<b>traffic</b>: no point has the metric") != std::string::npos);
}
