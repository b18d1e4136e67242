// `tlmgpu run --trace` (issue 12 item 6): the file is JSON, its kernel spans
// carry the run's kernel cycles, every track is in time order, the window
// limits it, and tracing changes no stat.
#include "run_helpers.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

const std::string kTiny = std::string(TLMGPU_SOURCE_DIR) + "/platforms/tiny.json";
const std::string kGraph = "--arg 'input=gen:rmat?scale=8&ef=8&seed=1' --set lab.entries=32";

std::string trace_file(const std::string& tag) {
  return (std::filesystem::temp_directory_path() /
          ("tlmgpu_trace_" + std::to_string(::getpid()) + "_" + tag + ".json"))
      .string();
}

nlohmann::json read(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f);
  nlohmann::json j;
  REQUIRE_NOTHROW(f >> j); // the file parses as JSON
  std::filesystem::remove(path);
  return j;
}

void check_trace(const std::string& timing) {
  const std::string path = trace_file(timing);
  const Cli traced = run_cli(kTiny, "pagerank", kGraph + " --trace " + path, timing);
  const Cli plain = run_cli(kTiny, "pagerank", kGraph, timing);
  REQUIRE(traced.rc == 0);
  CHECK(traced.stats == plain.stats); // tracing changes no stat
  const nlohmann::json t = read(path);
  const auto& events = t["traceEvents"];
  REQUIRE(events.is_array());

  // Kernel spans: one per kernel, with stats.json's cycles, lasting them.
  std::vector<nlohmann::json> spans;
  uint32_t kernel_tid = 0;
  for (const auto& e : events)
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"] == "kernels")
      kernel_tid = e["tid"];
  REQUIRE(kernel_tid != 0);
  for (const auto& e : events)
    if (e["ph"] == "X" && e["tid"] == kernel_tid) spans.push_back(e);
  const auto& kernels = traced.stats["kernels"];
  REQUIRE(spans.size() == kernels.size());
  const double mhz = 1200; // tiny's core clock
  for (size_t i = 0; i < spans.size(); ++i) {
    CHECK(spans[i]["args"]["cycles"] == kernels[i]["cycles"]);
    CHECK(std::fabs(spans[i]["dur"].get<double>() * mhz - kernels[i]["cycles"].get<double>()) <
          1.01);
  }

  // Every track in time order; counters and LAB flushes are there.
  std::map<std::string, double> last;
  size_t counters = 0, flushes = 0;
  for (const auto& e : events) {
    if (e["ph"] == "M") continue;
    const std::string track =
        e["ph"] == "C" ? "C:" + e["name"].get<std::string>() : "X:" + e["tid"].dump();
    const double ts = e["ts"];
    if (last.count(track)) CHECK(ts >= last[track]);
    last[track] = ts;
    counters += e["ph"] == "C";
    flushes += e["name"] == "lab flush";
  }
  CHECK(counters > 0);
  CHECK(flushes > 0);
}

} // namespace

TEST_CASE("trace at: JSON, kernel spans = kernel cycles, tracks in time order") {
  check_trace("at");
}
TEST_CASE("trace lt: JSON, kernel spans = kernel cycles, tracks in time order") {
  check_trace("lt");
}

TEST_CASE("trace window: only events inside START:END cycles") {
  const std::string path = trace_file("window");
  const Cli c = run_cli(
      kTiny, "histogram",
      "--arg n=8192 --trace " + path + " --trace-window 1000:2000 --trace-sample 100", "at");
  REQUIRE(c.rc == 0);
  const nlohmann::json t = read(path);
  size_t n = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "M") continue;
    ++n;
    const double start = e["ts"], end = start + e.value("dur", 0.0);
    CHECK(end >= 1000 / 1200.0 * (1 - 1e-5)); // the clock period is whole femtoseconds
    CHECK(start < 2000 / 1200.0);
  }
  CHECK(n > 0);
}
