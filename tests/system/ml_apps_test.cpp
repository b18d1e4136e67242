// System tests of the ML-training-like reductions (bwc, logreg): each runs
// against its CPU reference in every timing mode on tiny and in lt on titanv,
// and the corrupt=1 hook proves each checker can fail. Sizes are small so the
// whole file runs in a few seconds.
#include "run_helpers.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

// Padding and stride 2 so the bounds test and both index paths are exercised;
// tile 8 gives several atomics per dW element, so the atomic order matters.
const std::map<std::string, std::string> kBwc = {{"N", "2"},  {"C", "3"},   {"H", "12"},
                                                 {"W", "10"}, {"K", "4"},   {"R", "3"},
                                                 {"S", "3"},  {"pad", "1"}, {"tile", "8"}};
// The first 256 digits: four minibatches of 64 (eight kernels).
const std::map<std::string, std::string> kLogreg = {{"rows", "256"}, {"target", "3"}};

RunResult check_ml(const std::string& workload, const std::string& platform, TimingMode mode,
                   std::map<std::string, std::string> args) {
  RunResult r = run(platform, workload, mode, std::move(args));
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  CHECK(r.stats["check"] == "passed");
  for (const auto& k : r.stats["kernels"])
    if (mode != TimingMode::Functional) CHECK(k["cycles"].get<double>() > 0);
  return r;
}

// Device-scope commutative atomics reach the SMs' memory-op counters.
double commutative_ops(const RunResult& r) {
  double comm = 0;
  for (const auto& k : r.stats["kernels"])
    for (auto& [name, sm] : k["stats"]["gpu"].items())
      if (name.rfind("sm_", 0) == 0) comm += sm["mem_ops"]["order_commutative"].get<double>();
  return comm;
}

} // namespace

TEST_CASE("bwc matches the CPU: tiny functional") {
  check_ml("bwc", "tiny", TimingMode::Functional, kBwc);
}
TEST_CASE("bwc matches the CPU: tiny lt") {
  RunResult r = check_ml("bwc", "tiny", TimingMode::LT, kBwc);
  REQUIRE(r.stats["kernels"].size() == 1);
  // One red per warp: K*C*R*S = 108 elements x ceil(2*12*10/8) = 30 tiles = 3240 threads, 102
  // warps.
  CHECK(commutative_ops(r) == 102);
}
TEST_CASE("bwc matches the CPU: tiny at") {
  check_ml("bwc", "tiny", TimingMode::AT, kBwc);
}
TEST_CASE("bwc matches the CPU: titanv lt") {
  check_ml("bwc", "titanv", TimingMode::LT, kBwc);
}
TEST_CASE("bwc default arguments (stride 1, no padding) pass") {
  check_ml("bwc", "tiny", TimingMode::LT, {});
}

TEST_CASE("logreg matches the CPU: tiny functional") {
  check_ml("logreg", "tiny", TimingMode::Functional, kLogreg);
}
TEST_CASE("logreg matches the CPU: tiny lt") {
  RunResult r = check_ml("logreg", "tiny", TimingMode::LT, kLogreg);
  REQUIRE(r.stats["kernels"].size() == 8); // gradient + update per minibatch
  // 65 red instructions per gradient warp, 2 warps per minibatch, 4 minibatches.
  CHECK(commutative_ops(r) == 65 * 2 * 4);
}
TEST_CASE("logreg matches the CPU: tiny at") {
  check_ml("logreg", "tiny", TimingMode::AT, kLogreg);
}
TEST_CASE("logreg matches the CPU: titanv lt") {
  check_ml("logreg", "titanv", TimingMode::LT, kLogreg);
}

TEST_CASE("a corrupted bwc result is caught by the check") {
  auto args = kBwc;
  args["corrupt"] = "1";
  RunResult r = run("tiny", "bwc", TimingMode::LT, args);
  INFO(r.summary);
  CHECK(r.rc == 1);
  CHECK(r.stats["check"] == "failed");
}

TEST_CASE("a corrupted logreg weight is caught by the check") {
  auto args = kLogreg;
  args["corrupt"] = "1";
  RunResult r = run("tiny", "logreg", TimingMode::LT, args);
  INFO(r.summary);
  CHECK(r.rc == 1);
  CHECK(r.stats["check"] == "failed");
}

TEST_CASE("bwc rejects a filter larger than the padded input") {
  // Arguments are validated before elaboration: a ConfigError, no simulation.
  CHECK_THROWS_AS(run("tiny", "bwc", TimingMode::Functional, {{"H", "2"}, {"R", "3"}}),
                  ConfigError);
}
