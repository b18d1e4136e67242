// System tests of the conv-bwd-filter workload on tiny: f32 and u32 pass
// their CPU checks in functional and lt, the u32 result (exact in any order)
// is bit-identical across timing modes and platforms, and corrupt=1 proves
// both checks can fail. A cnv2_2-shaped layer with 16 channels keeps the
// paper's 18 regions and m = 16 and runs in about a second.
#include "run_helpers.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

// cnv2_2 at scale 8 (N=2, 7x7, 3x3 pad 1) with C = K = 16: 2304 words in 18
// regions of 128, 288 CTAs of 64 threads, 2 words per thread. The reds are
// commutative so that the order counter tells them from the (relaxed) loads.
std::map<std::string, std::string> small(const std::string& type) {
  return {{"layer", "cnv2_2"}, {"C", "16"},    {"K", "16"},
          {"block", "64"},     {"type", type}, {"order", "commutative"}};
}

void check_passes(const std::string& type, TimingMode mode) {
  RunResult r = run("tiny", "conv-bwd-filter", mode, small(type));
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  CHECK(r.stats["check"] == "passed");
  REQUIRE(r.stats["kernels"].size() == 1);
  if (mode != TimingMode::Functional) CHECK(r.stats["kernels"][0]["cycles"].get<double>() > 0);
  CHECK(r.summary.find("18 regions x m=16 = 288 CTAs x 64, 2 words per thread") !=
        std::string::npos);
  if (mode == TimingMode::Functional) return;
  // Every warp issues one red per word it owns: 288 CTAs x 2 warps x 2.
  double reds = 0;
  for (auto& [name, sm] : r.stats["kernels"][0]["stats"]["gpu"].items())
    if (name.rfind("sm_", 0) == 0) reds += sm["mem_ops"]["order_commutative"].get<double>();
  CHECK(reds == 288 * 2 * 2);
}

std::string args_of(const std::map<std::string, std::string>& m) {
  std::string s;
  for (const auto& [k, v] : m)
    s += " --arg " + k + "=" + v;
  return s;
}

} // namespace

TEST_CASE("conv-bwd-filter workload f32 matches the CPU: tiny functional") {
  check_passes("f32", TimingMode::Functional);
}
TEST_CASE("conv-bwd-filter workload f32 matches the CPU: tiny lt") {
  check_passes("f32", TimingMode::LT);
}
TEST_CASE("conv-bwd-filter workload u32 matches the CPU: tiny functional") {
  check_passes("u32", TimingMode::Functional);
}
TEST_CASE("conv-bwd-filter workload u32 matches the CPU: tiny lt") {
  check_passes("u32", TimingMode::LT);
}

TEST_CASE("conv-bwd-filter workload u32 result is the same in every mode and on any SM count") {
  // The output hash covers the downloaded dW: integer sums do not depend on
  // the order the reds were applied in, so functional, lt and at on 2 SMs
  // and lt on 3 SMs (other CTAs share an SM) must agree bit for bit.
  const std::string a = args_of(small("u32"));
  const std::string tiny = platform_path("tiny");
  const Cli f = run_cli(tiny, "conv-bwd-filter", a, "functional");
  const Cli l = run_cli(tiny, "conv-bwd-filter", a, "lt");
  const Cli t = run_cli(tiny, "conv-bwd-filter", a, "at");
  const Cli v = run_cli(tiny, "conv-bwd-filter", a + " --set sm.count=3", "lt");
  for (const Cli* c : {&f, &l, &t, &v}) {
    REQUIRE(c->rc == 0);
    CHECK(c->stats["check"] == "passed");
  }
  CHECK(f.stats["output_hash"] == l.stats["output_hash"]);
  CHECK(f.stats["output_hash"] == t.stats["output_hash"]);
  CHECK(f.stats["output_hash"] == v.stats["output_hash"]);
}

TEST_CASE("conv-bwd-filter workload: a corrupted word is caught by the f32 and u32 checks") {
  for (const char* type : {"f32", "u32"}) {
    auto args = small(type);
    args["corrupt"] = "1";
    // One process may simulate once: the run itself is the real binary.
    const Cli c = run_cli(platform_path("tiny"), "conv-bwd-filter", args_of(args), "functional");
    INFO(type);
    CHECK(c.rc == 1);
    CHECK(c.stats["check"] == "failed");
  }
}

TEST_CASE("conv-bwd-filter workload rejects an unknown layer and a bad type") {
  CHECK_THROWS_AS(run("tiny", "conv-bwd-filter", TimingMode::Functional, {{"layer", "cnv5_1"}}),
                  ConfigError);
  CHECK_THROWS_AS(run("tiny", "conv-bwd-filter", TimingMode::Functional, {{"type", "f16"}}),
                  ConfigError);
}
