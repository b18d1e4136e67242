// CPU references that more than one graph workload checks against: the
// push kernels (pagerank, sssp) and their work-stealing pull forms
// (workloads/work_steal) compute the same thing, so they share one
// independent reference each. Both read only the input graph.
#pragma once

#include "workloads/graph/csr_graph.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tlmgpu::graph_apps {

inline constexpr double kPageRankDamping = 0.85;

// PageRank in double precision, `rounds` rounds from 1/n, damping 0.85; the
// rank of vertices without out-arcs is not redistributed (as Pannotia).
std::vector<double> cpu_pagerank(const graph::CsrGraph& g, uint64_t rounds);

// Dijkstra with a binary heap and 64-bit sums (weight 1 when unweighted);
// unreachable vertices are ~0.
std::vector<uint64_t> cpu_dijkstra(const graph::CsrGraph& g, uint32_t source);

// Dijkstra's distances as the kernels' 32-bit ones (kInf = unreachable);
// err names a distance a 32-bit kernel cannot hold.
std::vector<uint32_t> distances32(const std::vector<uint64_t>& ref, std::string& err);

// Float ranks against the double reference: "" when the L1 error
// sum |device - ref| is at most rel_l1 x sum ref, else a message naming the
// vertex with the largest error (label(v) names it). l1 gets the error.
std::string check_ranks(const std::vector<float>& device, const std::vector<double>& ref,
                        double rel_l1, double& l1,
                        const std::function<std::string(uint32_t)>& label);

} // namespace tlmgpu::graph_apps
