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

using VertexLabel = std::function<std::string(uint32_t)>;

// Colors (0 = uncolored): "" when every vertex has a color and no edge joins
// two of the same, else the first offence.
std::string check_coloring(const graph::CsrGraph& g, const std::vector<uint32_t>& color,
                           const VertexLabel& label);
// Jones-Plassmann with one color per round: in round r every uncolored
// vertex whose priority beats all its uncolored neighbours' takes color r.
std::vector<uint32_t> cpu_jones_plassmann(const graph::CsrGraph& g,
                                          const std::vector<uint32_t>& prio);

// Membership (1 = in the set): "" when it is independent and maximal.
std::string check_mis(const graph::CsrGraph& g, const std::vector<uint32_t>& in_set,
                      const VertexLabel& label);
// The greedy MIS by increasing priority (what Luby's rounds with fixed
// priorities, local minima joining, converge to). prio: a permutation of 1..n.
std::vector<uint32_t> cpu_greedy_mis(const graph::CsrGraph& g, const std::vector<uint32_t>& prio);

} // namespace tlmgpu::graph_apps
