#include "workloads/graph/generators.hpp"

#include "tlmgpu/memory_budget.hpp"

#include <numeric>
#include <sstream>

namespace tlmgpu::graph {

namespace {

// Weights come from their own stream so that turning weights on or off does
// not change the graph's structure for the same seed.
constexpr uint64_t kWeightStream = 0x9e3779b97f4a7c15ull;

[[noreturn]] void reject(const std::string& source, const std::string& problem) {
  throw GraphSpecError(source + ": " + problem);
}

void check_vertices(const std::string& source, uint64_t n, const GraphBuildOptions& options) {
  if (n > options.max_vertices)
    reject(source, std::to_string(n) + " vertices exceed the limit of " +
                       limit_text(options.max_vertices, options));
  check_memory(sat_mul(n, kBytesPerVertex), source + ": " + std::to_string(n) + " vertices");
}

// Generators know their size before generating: the estimate is exact in
// the arcs, so a budget error names the spec and its bytes.
void check_arcs(const std::string& source, uint64_t arcs, const GraphBuildOptions& options) {
  if (arcs > options.max_edges)
    reject(source, std::to_string(arcs) + " arcs exceed the limit of " +
                       limit_text(options.max_edges, options));
  check_memory(sat_mul(arcs, kBytesPerArc), source + ": " + std::to_string(arcs) + " arcs");
}

class WeightSource {
public:
  WeightSource(uint64_t seed, Weight max_weight) : rng_(seed ^ kWeightStream), max_(max_weight) {}
  Weight next() { return max_ == 0 ? 1 : static_cast<Weight>(1 + rng_.below(max_)); }

private:
  DeterministicRng rng_;
  Weight max_;
};

// Undirected generators emit each edge as two arcs with one weight.
void add_undirected(EdgeList& list, VertexId u, VertexId v, WeightSource& weights) {
  const Weight w = weights.next();
  list.edges.push_back({u, v, w});
  list.edges.push_back({v, u, w});
}

EdgeList start_list(std::string name, std::string source, uint64_t n, Weight max_weight) {
  EdgeList list;
  list.name = std::move(name);
  list.source = std::move(source);
  list.num_vertices = n;
  list.weighted = max_weight != 0;
  return list;
}

} // namespace

uint64_t DeterministicRng::below(uint64_t bound) {
  // Values below 2^64 mod bound would make the low residues more likely.
  const uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const uint64_t x = next();
    if (x >= threshold) return x % bound;
  }
}

CsrGraph generate_rmat(const RmatParams& p, const GraphBuildOptions& options) {
  check_limits(options);
  std::ostringstream spec;
  spec << "gen:rmat?scale=" << p.scale << "&ef=" << p.edge_factor << "&a=" << p.a << "&b=" << p.b
       << "&c=" << p.c << "&permute=" << p.permute << "&seed=" << p.seed
       << "&wmax=" << p.max_weight;
  const std::string source = spec.str();
  if (p.scale > 31) reject(source, "scale above 31");
  const uint64_t n = uint64_t{1} << p.scale;
  check_vertices(source, n, options);
  if (p.edge_factor > (options.max_edges >> p.scale)) // the product could overflow
    reject(source, "edge_factor x 2^scale arcs exceed the limit of " +
                       limit_text(options.max_edges, options));
  check_arcs(source, p.edge_factor * n, options);
  if (!(p.a >= 0 && p.b >= 0 && p.c >= 0 && p.a + p.b + p.c <= 1 && p.a + p.b > 0 && p.a + p.b < 1))
    reject(source, "need a, b, c >= 0, 0 < a + b < 1 and a + b + c <= 1");

  EdgeList list = start_list("rmat", source, n, p.max_weight);
  const uint64_t m = p.edge_factor * n;
  list.edges.reserve(m);
  // Graph500 reference (kronecker_generator.m): the row bit is 1 with
  // probability c + d, the column bit then depends on the row bit.
  const double ab = p.a + p.b, c_norm = p.c / (1 - ab), a_norm = p.a / ab;
  DeterministicRng rng(p.seed);
  WeightSource weights(p.seed, p.max_weight);
  for (uint64_t e = 0; e < m; ++e) {
    uint64_t u = 0, v = 0;
    for (unsigned bit = 0; bit < p.scale; ++bit) {
      const bool row = rng.uniform01() > ab;
      const bool col = rng.uniform01() > (row ? c_norm : a_norm);
      u |= uint64_t{row} << bit;
      v |= uint64_t{col} << bit;
    }
    list.edges.push_back({static_cast<VertexId>(u), static_cast<VertexId>(v), weights.next()});
  }
  if (p.permute) {
    std::vector<VertexId> perm(n);
    std::iota(perm.begin(), perm.end(), VertexId{0});
    for (uint64_t i = n; i > 1; --i)
      std::swap(perm[i - 1], perm[rng.below(i)]);
    for (Edge& e : list.edges) {
      e.src = perm[e.src];
      e.dst = perm[e.dst];
    }
  }
  return build_csr(std::move(list), options);
}

CsrGraph generate_uniform(uint64_t n, uint64_t m, uint64_t seed, Weight max_weight,
                          const GraphBuildOptions& options) {
  check_limits(options);
  const std::string source = "gen:uniform?n=" + std::to_string(n) + "&m=" + std::to_string(m) +
                             "&seed=" + std::to_string(seed) +
                             "&wmax=" + std::to_string(max_weight);
  if (n == 0) reject(source, "n must be at least 1");
  check_vertices(source, n, options);
  check_arcs(source, m, options);
  EdgeList list = start_list("uniform", source, n, max_weight);
  list.edges.reserve(m);
  DeterministicRng rng(seed);
  WeightSource weights(seed, max_weight);
  for (uint64_t e = 0; e < m; ++e) {
    const auto u = static_cast<VertexId>(rng.below(n));
    const auto v = static_cast<VertexId>(rng.below(n));
    list.edges.push_back({u, v, weights.next()});
  }
  return build_csr(std::move(list), options);
}

CsrGraph generate_grid(uint64_t w, uint64_t h, uint64_t seed, Weight max_weight,
                       const GraphBuildOptions& options) {
  check_limits(options);
  const std::string source = "gen:grid?w=" + std::to_string(w) + "&h=" + std::to_string(h) +
                             "&seed=" + std::to_string(seed) +
                             "&wmax=" + std::to_string(max_weight);
  if (w == 0 || h == 0) reject(source, "w and h must be at least 1");
  if (w > options.max_vertices || h > options.max_vertices / w)
    reject(source,
           "w x h exceeds the limit of " + limit_text(options.max_vertices, options) + " vertices");
  check_arcs(source, 2 * ((w - 1) * h + w * (h - 1)), options);
  EdgeList list = start_list("grid", source, w * h, max_weight);
  list.undirected = true;
  list.edges.reserve(2 * ((w - 1) * h + w * (h - 1)));
  WeightSource weights(seed, max_weight);
  for (uint64_t y = 0; y < h; ++y)
    for (uint64_t x = 0; x < w; ++x) {
      const auto v = static_cast<VertexId>(y * w + x);
      if (x + 1 < w) add_undirected(list, v, v + 1, weights);
      if (y + 1 < h) add_undirected(list, v, static_cast<VertexId>(v + w), weights);
    }
  return build_csr(std::move(list), options);
}

CsrGraph generate_ba(uint64_t n, uint64_t k, uint64_t seed, Weight max_weight,
                     const GraphBuildOptions& options) {
  check_limits(options);
  const std::string source = "gen:ba?n=" + std::to_string(n) + "&k=" + std::to_string(k) +
                             "&seed=" + std::to_string(seed) +
                             "&wmax=" + std::to_string(max_weight);
  if (k == 0 || n <= k) reject(source, "need k >= 1 and n > k");
  check_vertices(source, n, options);
  const uint64_t edges = k * (k + 1) / 2 + (n - k - 1) * k;
  check_arcs(source, 2 * edges, options);
  EdgeList list = start_list("ba", source, n, max_weight);
  list.undirected = true;
  list.edges.reserve(2 * edges);
  DeterministicRng rng(seed);
  WeightSource weights(seed, max_weight);
  // Every edge endpoint once: a uniform pick from it is a degree-weighted pick.
  std::vector<VertexId> endpoints;
  endpoints.reserve(2 * edges);
  for (VertexId u = 0; u <= k; ++u)
    for (VertexId v = 0; v < u; ++v) {
      add_undirected(list, u, v, weights);
      endpoints.push_back(u);
      endpoints.push_back(v);
    }
  std::vector<char> chosen(n, 0);
  std::vector<VertexId> targets;
  for (auto v = static_cast<VertexId>(k + 1); v < n; ++v) {
    targets.clear();
    while (targets.size() < k) {
      const VertexId t = endpoints[rng.below(endpoints.size())];
      if (!chosen[t]) {
        chosen[t] = 1;
        targets.push_back(t);
      }
    }
    // Endpoints are appended after all k picks, as in the BA model where the
    // new vertex's edges do not bias its own choices.
    for (VertexId t : targets) {
      chosen[t] = 0;
      add_undirected(list, v, t, weights);
      endpoints.push_back(v);
      endpoints.push_back(t);
    }
  }
  return build_csr(std::move(list), options);
}

} // namespace tlmgpu::graph
