#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tlmgpu {

// One line about one kernel (cycles, time, IPC, atomics, ATGR, hit rates,
// traffic) computed from its stats.json section.
std::string summarize_kernel(const nlohmann::json& kernel, double core_mhz);

} // namespace tlmgpu
