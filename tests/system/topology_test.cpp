// Platforms that compose (issue 12): a JSON-only variant that puts a probe
// on every L2-to-DRAM link keeps every workload checked and the probes see
// exactly what DRAM serves; a topology count changes the modules built.
#include "run_helpers.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

const char* const kProbed = "examples/topology/tiny-dram-probes.json";

void check_probed(const std::string& workload, TimingMode mode,
                  std::map<std::string, std::string> args = {}) {
  RunResult r = run(kProbed, workload, mode, std::move(args));
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  const auto& gpu = r.stats["total"]["gpu"];
  double tapped = 0, dram = 0;
  int taps = 0;
  for (auto& [k, v] : gpu.items()) {
    if (k.rfind("tap_", 0) == 0) tapped += v["requests"]["value"].get<double>(), ++taps;
    if (k.rfind("dram_", 0) == 0)
      dram += v["reads"]["value"].get<double>() + v["writes"]["value"].get<double>();
  }
  CHECK(taps == 2);
  CHECK(tapped > 0);
  CHECK(tapped == dram);
}

} // namespace

TEST_CASE("topology variant with link probes: histogram at") {
  check_probed("histogram", TimingMode::AT, {{"n", "8192"}});
}
TEST_CASE("topology variant with link probes: histogram lt") {
  check_probed("histogram", TimingMode::LT, {{"n", "8192"}});
}
TEST_CASE("topology variant with link probes: histogram functional") {
  check_probed("histogram", TimingMode::Functional, {{"n", "8192"}});
}
TEST_CASE("topology variant with link probes: histogram-shared at") {
  check_probed("histogram-shared", TimingMode::AT, {{"n", "8192"}});
}
TEST_CASE("topology variant with link probes: pagerank at") {
  check_probed("pagerank", TimingMode::AT, {{"input", "gen:rmat?scale=8&ef=8&seed=1"}});
}
TEST_CASE("topology variant with link probes: bfs lt") {
  check_probed("bfs", TimingMode::LT, {{"input", "gen:rmat?scale=8&ef=8&seed=1"}});
}
TEST_CASE("topology variant with link probes: sssp lt") {
  check_probed("sssp", TimingMode::LT, {{"input", "gen:rmat?scale=8&ef=8&seed=1"}});
}
TEST_CASE("topology variant with link probes: bc lt") {
  check_probed("bc", TimingMode::LT, {{"input", "gen:rmat?scale=7&ef=8&seed=1"}});
}
TEST_CASE("topology variant with link probes: cca lt") {
  check_probed("cca", TimingMode::LT, {{"input", "gen:rmat?scale=8&ef=8&seed=1"}});
}
TEST_CASE("topology variant with link probes: clr lt") {
  check_probed("clr", TimingMode::LT, {{"input", "gen:rmat?scale=8&ef=8&seed=1"}});
}
TEST_CASE("topology variant with link probes: mis lt") {
  check_probed("mis", TimingMode::LT, {{"input", "gen:rmat?scale=8&ef=8&seed=1"}});
}
TEST_CASE("topology variant with link probes: bwc at") {
  check_probed("bwc", TimingMode::AT, {{"N", "1"}, {"H", "8"}, {"W", "8"}});
}
TEST_CASE("topology variant with link probes: logreg lt") {
  check_probed("logreg", TimingMode::LT);
}
TEST_CASE("topology variant with link probes: stream at") {
  check_probed("stream", TimingMode::AT);
}
TEST_CASE("topology variant with link probes: random-traffic at") {
  check_probed("random-traffic", TimingMode::AT);
}

TEST_CASE("a topology count changes the instantiated modules") {
  RunResult r = run("tiny", "histogram", TimingMode::AT, {{"n", "4096"}},
                    {"topology.blocks.sm.count=1", "topology.blocks.xbar.ports.in=1"});
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  const auto& gpu = r.stats["total"]["gpu"];
  CHECK(gpu.contains("sm_0"));
  CHECK_FALSE(gpu.contains("sm_1"));
  CHECK(gpu["xbar"].contains("request_packets"));
  CHECK(gpu["sm_0"]["l1"]["requests"]["value"].get<double>() > 0);
}

TEST_CASE("a topology's SM stages: a probe ahead of the LAB, by configuration") {
  RunResult r = run("tiny", "histogram", TimingMode::AT, {{"n", "4096"}},
                    {"lab.entries=32", "topology.blocks.sm.stages=probe, lab"});
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  const auto& sm = r.stats["total"]["gpu"]["sm_0"];
  REQUIRE(sm.contains("probe"));
  REQUIRE(sm.contains("lab"));
  // The probe sees what the LD/ST unit sends: every global request, plus
  // the ordering points (fences, the kernel-end release) that travel the path.
  CHECK(sm["probe"]["requests"]["value"].get<double>() >=
        sm["global_requests"]["value"].get<double>());
}
