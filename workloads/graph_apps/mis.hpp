// `mis`: Luby-style maximal independent set (Pannotia mis) in push form:
// atomicMin(&min_array[nbr], prio) per edge, as the LAB paper profiles it.
// See mis.cpp and workloads/graph_apps/README.md.
#pragma once

#include "workloads/workload.hpp"

namespace tlmgpu {

WorkloadEntry mis_workload();

} // namespace tlmgpu
