// Several devices in one simulation (issue 12 item 4): a node of two tiny
// GPUs runs a different checked workload on each; each GPU has its own
// memory and stats subtree; same seed, identical stats.
#include "run_helpers.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

const std::string kNode = std::string(TLMGPU_SOURCE_DIR) + "/platforms/node-tiny-x2.json";
const std::string kTiny = std::string(TLMGPU_SOURCE_DIR) + "/platforms/tiny.json";
const std::string kGraph = "'gen:rmat?scale=8&ef=8&seed=1'";

Cli run_node(const std::string& timing) {
  return run_cli(kNode, "histogram,pagerank", "--arg gpu0.n=8192 --arg gpu1.input=" + kGraph,
                 timing);
}

void check_node(const Cli& c) {
  REQUIRE(c.rc == 0);
  REQUIRE(c.stats["devices"].size() == 2);
  CHECK(c.stats["check"] == "passed");
  CHECK(c.stats["devices"][0]["workload"] == "histogram");
  CHECK(c.stats["devices"][1]["workload"] == "pagerank");
  for (int i = 0; i < 2; ++i) {
    CHECK(c.stats["devices"][i]["check"] == "passed");
    CHECK(c.stats["devices"][i]["kernels"].size() >= 1);
  }
  CHECK(c.stats["devices"][1]["kernels"].size() == 20); // 10 rounds x (push, update)
  const auto& total = c.stats["total"];
  // Each GPU's SMs reached memory: as line requests, or (functional, a plain
  // GPU: sim.functional_memory=auto) straight on the memory image.
  for (const char* d : {"device_0", "device_1"}) {
    const auto& sm = total[d]["gpu"]["sm_0"];
    const double direct =
        sm.contains("direct_instructions") ? sm["direct_instructions"]["value"].get<double>() : 0;
    CHECK(sm["global_requests"]["value"].get<double>() + direct > 0);
  }
}

// lt and functional: a GPU of the node behaves exactly as alone.
void check_independent(const std::string& timing) {
  const Cli node = run_node(timing);
  check_node(node);
  const Cli hist = run_cli(kTiny, "histogram", "--arg n=8192", timing);
  const Cli pr = run_cli(kTiny, "pagerank", "--arg input=" + kGraph, timing);
  CHECK(node.stats["total"]["device_0"]["gpu"] == hist.stats["total"]["gpu"]);
  CHECK(node.stats["total"]["device_1"]["gpu"] == pr.stats["total"]["gpu"]);
  CHECK(node.stats["devices"][0]["kernels"] == hist.stats["kernels"]);
  CHECK(node.stats["devices"][1]["kernels"] == pr.stats["kernels"]);
}

} // namespace

TEST_CASE("2-GPU node at: both workloads check, stats per device, same seed identical") {
  const Cli a = run_node("at"), b = run_node("at");
  check_node(a);
  CHECK(a.stats == b.stats);
}

TEST_CASE("2-GPU node lt: each GPU's stats equal the same GPU run alone") {
  check_independent("lt");
}

TEST_CASE("2-GPU node functional: each GPU's stats equal the same GPU run alone") {
  check_independent("functional");
}
