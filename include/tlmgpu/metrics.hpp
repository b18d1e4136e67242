// Run-level metrics: a flat name -> number view of one stats section (a
// kernel's epoch or the run's total), computed only from the stats
// themselves plus the platform (for the energy model). stats.json carries
// them as "metrics" (run) and kernels[i]["metrics"]; the run summary and
// `tlmgpu sweep` read them, so every consumer agrees on one definition.
#pragma once

#include "tlmgpu/platform.hpp"

#include <nlohmann/json.hpp>

namespace tlmgpu {

// A stats section's "gpu" object (an empty one where it has none), by
// reference: json::value would copy the subtree, 2 M instructions for
// titanv's (issue 13). Throws, as value() does, when `section` is no object.
const nlohmann::json& gpu_section(const nlohmann::json& section);

// `gpu` is the "gpu" object of a stats section; `cycles` the section's
// kernel core cycles; `seconds` its simulated time, over which static power
// is charged (a run's: the kernels and the units' operations between them).
// Metric names and meanings: docs/metrics.md.
nlohmann::json compute_metrics(const nlohmann::json& gpu, double cycles, const PlatformSpec& p,
                               double seconds);

// The run's device-busy core cycles, the `cycles` of its metrics: its
// kernels' plus the operations of the units the host programs between
// them (the SCU's, which run serially with the kernels, in the SCU's clock
// converted to the core's), so a run that moves work from kernels to such
// a unit is timed as a whole. Equals kernel_cycles where no unit is placed.
double run_cycles(const nlohmann::json& gpu, const PlatformSpec& p);

// The run's area metrics (area_*: the die, the units placed, their share).
void add_area_metrics(nlohmann::json& m, const nlohmann::json& gpu, const PlatformSpec& p);

// Per-access LAB energy (pJ) for the platform's LAB: {read, write}.
std::pair<double, double> lab_access_energy(const PlatformSpec& p);

} // namespace tlmgpu
