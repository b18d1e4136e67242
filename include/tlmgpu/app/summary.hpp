#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tlmgpu {

// One line about one kernel (cycles, time, IPC, atomics, ATGR, hit rates,
// traffic) computed from its stats.json section.
std::string summarize_kernel(const nlohmann::json& kernel, double core_mhz);

// One line about the run's whole energy (dynamic, the units', static) and
// the units' area, from the run's metrics; empty when the platform places no
// unit and charges no static power (the kernel lines say everything then).
std::string summarize_units(const nlohmann::json& metrics);

} // namespace tlmgpu
