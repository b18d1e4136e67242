// Shared by the graph workload system tests.
#pragma once

#include "run_helpers.hpp"

#include <catch2/catch.hpp>

namespace tlmgpu::test {

inline std::string data(const std::string& file) {
  return std::string(TLMGPU_SOURCE_DIR) + "/../shared/data/" + file;
}

// Runs a graph workload and checks what every one must satisfy: it passed
// its CPU check, launched kernels, simulated time and executed warps.
inline RunResult check_graph_run(const std::string& workload, const std::string& platform,
                                 TimingMode mode, std::map<std::string, std::string> args) {
  RunResult r = run(platform, workload, mode, std::move(args));
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  CHECK(r.stats["check"] == "passed");
  REQUIRE(r.stats["kernels"].size() >= 1);
  CHECK(r.stats["simulated"]["cycles"].get<double>() > 0);
  CHECK(sum_stat(r.stats["total"], "warp_instructions") > 0);
  return r;
}

// The workload's checker must catch a result corrupted on purpose.
inline void check_corrupt_fails(const std::string& workload) {
  RunResult r =
      run("tiny", workload, TimingMode::LT, {{"input", data("karate.mtx")}, {"corrupt", "1"}});
  INFO(r.summary);
  CHECK(r.rc == 1);
  CHECK(r.stats["check"] == "failed");
}

} // namespace tlmgpu::test
