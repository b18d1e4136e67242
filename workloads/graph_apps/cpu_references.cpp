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

std::string check_coloring(const graph::CsrGraph& g, const std::vector<uint32_t>& color,
                           const VertexLabel& label) {
  const uint32_t n = uint32_t(g.num_vertices());
  if (color.size() != n) return "color: device result has the wrong size";
  for (uint32_t v = 0; v < n; ++v) {
    if (color[v] == 0) return "vertex " + label(v) + " is uncolored";
    for (uint32_t u : g.neighbors(v))
      if (color[u] == color[v])
        return "edge " + label(v) + "-" + label(u) + ": both ends have color " +
               std::to_string(color[v]);
  }
  return "";
}

std::vector<uint32_t> cpu_jones_plassmann(const graph::CsrGraph& g,
                                          const std::vector<uint32_t>& prio) {
  const uint32_t n = uint32_t(g.num_vertices());
  std::vector<uint32_t> ref(n, 0);
  uint32_t left = n;
  for (uint32_t r = 1; left > 0; ++r) {
    std::vector<uint32_t> win;
    for (uint32_t v = 0; v < n; ++v) {
      if (ref[v]) continue;
      bool max = true;
      for (uint32_t u : g.neighbors(v))
        max = max && (ref[u] != 0 || prio[u] < prio[v]);
      if (max) win.push_back(v);
    }
    for (uint32_t v : win)
      ref[v] = r;
    left -= uint32_t(win.size());
  }
  return ref;
}

std::string check_mis(const graph::CsrGraph& g, const std::vector<uint32_t>& in_set,
                      const VertexLabel& label) {
  const uint32_t n = uint32_t(g.num_vertices());
  if (in_set.size() != n) return "mis: device result has the wrong size";
  for (uint32_t v = 0; v < n; ++v) {
    bool member_neighbour = false;
    for (uint32_t u : g.neighbors(v)) {
      if (in_set[v] && in_set[u])
        return "not independent: adjacent vertices " + label(v) + " and " + label(u) +
               " are both in the set";
      member_neighbour = member_neighbour || in_set[u];
    }
    if (!in_set[v] && !member_neighbour)
      return "not maximal: vertex " + label(v) + " is out of the set and has no neighbour in it";
  }
  return "";
}

std::vector<uint32_t> cpu_greedy_mis(const graph::CsrGraph& g, const std::vector<uint32_t>& prio) {
  const uint32_t n = uint32_t(g.num_vertices());
  std::vector<uint32_t> order(n), ref(n, 0), blocked(n, 0);
  for (uint32_t v = 0; v < n; ++v)
    order[prio[v] - 1] = v; // priorities are a permutation of 1..n
  for (uint32_t v : order) {
    if (blocked[v]) continue;
    ref[v] = 1;
    for (uint32_t u : g.neighbors(v))
      blocked[u] = 1;
  }
  return ref;
}

} // namespace tlmgpu::graph_apps
