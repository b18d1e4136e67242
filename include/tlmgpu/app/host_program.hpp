// Run a host program written in C++ on a platform, without the workload
// registry: for examples and tests that bring their own kernels. Like
// run_simulation, it may be called once per process.
#pragma once

#include "models/host/host_module.hpp"

#include <functional>

namespace tlmgpu {

struct ProgramResult {
  nlohmann::json stats; // {"total": ..., "kernels": [...]}, as in stats.json
  uint64_t cycles = 0;  // simulated core cycles at the end
};

ProgramResult run_host_program(const PlatformSpec& platform, TimingMode mode, uint64_t seed,
                               const std::function<void(HostModule&)>& program);

} // namespace tlmgpu
