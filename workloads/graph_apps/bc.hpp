// `bc`: Brandes betweenness centrality from a deterministic set of sources:
// level-synchronous BFS counting shortest paths (float atomicAdd on sigma),
// then backward dependency accumulation (float atomicAdd on delta). See bc.cpp
// and workloads/graph_apps/README.md.
#pragma once

#include "workloads/graph/csr_graph.hpp"
#include "workloads/workload.hpp"

#include <cstdint>
#include <vector>

namespace tlmgpu {

WorkloadEntry bc_workload();

namespace graph_apps {

// The sources `bc` uses: k vertices evenly spaced over 0..n-1 (vertex
// floor(i * n / k), moved forward to the next vertex with an edge so that no
// source is isolated; duplicates dropped); k = 0 means every vertex (exact
// betweenness). Deterministic: independent of the seed.
std::vector<uint32_t> bc_sources(const graph::CsrGraph& g, uint32_t k);

} // namespace graph_apps
} // namespace tlmgpu
