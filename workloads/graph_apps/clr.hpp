// `clr`: Pannotia-style graph coloring (Jones-Plassmann / Luby rounds) with
// the push kernel the LAB paper profiles (color1_push: atomicMax(&max_d[nbr],
// value) per edge). See clr.cpp and workloads/graph_apps/README.md.
#pragma once

#include "workloads/workload.hpp"

#include <cstdint>
#include <vector>

namespace tlmgpu {

WorkloadEntry clr_workload();

namespace graph_apps {

// The random vertex priorities of clr and mis: a seeded permutation of 1..n,
// so priorities are distinct (the vertex with the globally extreme priority
// always wins, which guarantees progress every round) and never 0 (clr's
// reset value of max_d). Fisher-Yates over std::mt19937_64, whose sequence
// the standard fixes, so every platform gets the same priorities.
std::vector<uint32_t> random_priorities(uint32_t n, uint64_t seed);

} // namespace graph_apps
} // namespace tlmgpu
