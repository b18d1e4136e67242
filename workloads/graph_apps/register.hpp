// Registration hook for the graph-analytics workloads (BFS, SSSP, PageRank,
// CCA, CLR, MIS, BC). Each workload file adds its entries here.
#pragma once

#include "workloads/workload.hpp"

#include <vector>

namespace tlmgpu {
void append_graph_workloads(std::vector<WorkloadEntry>& out);
} // namespace tlmgpu
