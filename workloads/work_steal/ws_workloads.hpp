// The work-stealing workloads (sRSP paper, seed-002 §4): registered by
// workloads/registry.cpp.
#pragma once

#include "workloads/workload.hpp"

namespace tlmgpu {
WorkloadEntry ws_pagerank_workload();
WorkloadEntry ws_sssp_workload();
WorkloadEntry ws_clr_workload();
WorkloadEntry ws_mis_workload();
} // namespace tlmgpu
