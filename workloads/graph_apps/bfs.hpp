#pragma once

#include "workloads/graph/csr_graph.hpp"
#include "workloads/workload.hpp"

#include <cstdint>
#include <vector>

namespace tlmgpu {
WorkloadEntry bfs_workload();

namespace graph_apps {
// BFS depths from `source` by a CPU FIFO queue (kInf = unreachable): the
// reference of every BFS workload (bfs, bfs-frontier).
std::vector<uint32_t> cpu_bfs(const graph::CsrGraph& g, uint32_t source);
} // namespace graph_apps
} // namespace tlmgpu
