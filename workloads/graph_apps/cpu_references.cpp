#include "workloads/graph_apps/cpu_references.hpp"

#include <cmath>
#include <queue>
#include <sstream>

namespace tlmgpu::graph_apps {

// Pull formulation in double precision.
std::vector<double> cpu_pagerank(const graph::CsrGraph& g, uint64_t rounds) {
  const size_t n = g.num_vertices();
  std::vector<double> rank(n, 1.0 / double(n)), next(n);
  for (uint64_t it = 0; it < rounds; ++it) {
    std::fill(next.begin(), next.end(), 0.0);
    for (uint32_t v = 0; v < n; ++v)
      for (uint32_t u : g.neighbors(v))
        next[u] += rank[v] / g.degree(v);
    for (size_t v = 0; v < n; ++v)
      rank[v] = (1 - kPageRankDamping) / double(n) + kPageRankDamping * next[v];
  }
  return rank;
}

std::vector<uint64_t> cpu_dijkstra(const graph::CsrGraph& g, uint32_t source) {
  const uint64_t inf = ~uint64_t(0);
  std::vector<uint64_t> dist(g.num_vertices(), inf);
  using Item = std::pair<uint64_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  dist[source] = 0;
  pq.push({0, source});
  while (!pq.empty()) {
    auto [d, u] = pq.top();
    pq.pop();
    if (d != dist[u]) continue;
    auto nb = g.neighbors(u);
    for (size_t i = 0; i < nb.size(); ++i) {
      const uint64_t nd = d + (g.has_weights() ? g.neighbor_weights(u)[i] : 1u);
      if (nd < dist[nb[i]]) dist[nb[i]] = nd, pq.push({nd, nb[i]});
    }
  }
  return dist;
}

std::vector<uint32_t> distances32(const std::vector<uint64_t>& ref, std::string& err) {
  constexpr uint32_t kInf32 = 0xffffffffu;
  std::vector<uint32_t> r32(ref.size());
  err.clear();
  for (size_t v = 0; v < ref.size(); ++v) {
    r32[v] = ref[v] >= kInf32 ? kInf32 : uint32_t(ref[v]);
    if (ref[v] != ~uint64_t(0) && ref[v] >= kInf32 - 1)
      err = "a distance exceeds 2^32 - 2 (32-bit distances)";
  }
  return r32;
}

std::string check_ranks(const std::vector<float>& device, const std::vector<double>& ref,
                        double rel_l1, double& l1,
                        const std::function<std::string(uint32_t)>& label) {
  if (device.size() != ref.size()) return "rank: device result has the wrong size";
  double sum = 0;
  l1 = 0;
  for (size_t v = 0; v < ref.size(); ++v) {
    if (!std::isfinite(device[v])) {
      std::ostringstream s;
      s << "rank of vertex " << label(uint32_t(v)) << " is " << device[v];
      return s.str();
    }
    l1 += std::abs(double(device[v]) - ref[v]);
    sum += ref[v];
  }
  if (l1 <= rel_l1 * sum) return "";
  size_t worst = 0;
  for (size_t v = 0; v < ref.size(); ++v)
    if (std::abs(device[v] - ref[v]) > std::abs(device[worst] - ref[worst])) worst = v;
  std::ostringstream s;
  s << "L1 error " << l1 << " exceeds " << rel_l1 << " x sum of ranks " << sum
    << "; largest at vertex " << label(uint32_t(worst)) << ": device " << device[worst]
    << ", CPU reference " << ref[worst];
  return s.str();
}

} // namespace tlmgpu::graph_apps
