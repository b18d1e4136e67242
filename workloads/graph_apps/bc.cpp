// `bc`: Brandes betweenness centrality, thread per vertex and level
// synchronous as the GPU BC codes the LAB paper runs (kernels per BFS level).
// Per source s:
//   bc_forward(d):  every vertex v at depth d, for each neighbour u still at
//                   depth inf: atomicAdd(&sigma[u], sigma[v])  (RED.ADD f32,
//                   commutative, device);
//   bc_discover(d): every vertex still at inf whose sigma became > 0 is on
//                   level d + 1: depth = d + 1, raise the flag. No flag: done.
//   bc_backward(L): for L = max depth .. 1, every vertex u at depth L adds its
//                   final delta to bc[u] and, for each neighbour v at depth
//                   L - 1, atomicAdd(&delta[v], sigma[v] / sigma[u] * (1 +
//                   delta[u]))  (RED.ADD f32, commutative, device).
// Why two forward kernels: Pannotia-style BC sets depth[u] inside the edge
// loop with a plain store other threads race to read; here depth is never
// written in a kernel that reads a neighbour's depth, so the only in-kernel
// sharing is the float atomics (the seed's "atomicAdd on sigma/rho").
// sigma/delta of the level being read were completed by the previous kernel
// (kernel boundaries are release/acquire points), the level being written is
// written only by atomics, bc[u] and depth[v] only by their owner.
// Floats: sigma is exact up to 2^24 paths; sums of positive terms in any order
// stay within a small relative error of the double reference (tolerance in
// verify()). Undirected graphs: every pair is counted from both ends, as in
// the Brandes sum over sources (not halved).
#include "workloads/graph_apps/bc.hpp"

#include "models/host/host_module.hpp"
#include "workloads/graph_apps/graph_app.hpp"

#include <algorithm>
#include <cmath>

namespace tlmgpu {
namespace graph_apps {

std::vector<uint32_t> bc_sources(const graph::CsrGraph& g, uint32_t k) {
  const uint32_t n = uint32_t(g.num_vertices());
  std::vector<uint32_t> s;
  if (k == 0 || k >= n) {
    for (uint32_t v = 0; v < n; ++v)
      s.push_back(v);
    return s;
  }
  for (uint32_t i = 0; i < k; ++i) {
    uint32_t v = uint32_t(uint64_t(i) * n / k), tries = 0;
    while (g.degree(v) == 0 && ++tries < n)
      v = (v + 1) % n;
    if (std::find(s.begin(), s.end(), v) == s.end()) s.push_back(v);
  }
  return s;
}

namespace {

// A relative error well above float accumulation over the degrees and depths
// of the test graphs (observed below 1e-6) and far below a wrong result.
constexpr double kRelTol = 1e-4;

struct BcArgs {
  DeviceCsr g;
  Addr depth = 0, sigma = 0, delta = 0, bc = 0, flag = 0;
  uint32_t level = 0;
};

WarpTask forward_edge(Warp& w, BcArgs a, Lanes<float> sv, EdgeLanes e, Mask em) {
  const Lanes<uint32_t> du = co_await w.load<uint32_t>(address_of<uint32_t>(a.depth, e.dst), em);
  co_await w.compute(2);
  const Mask child = em & (du == Lanes<uint32_t>(kInf));
  if (child.any())
    co_await w.red<float>(AtomicOp::Add, address_of<float>(a.sigma, e.dst), sv, child,
                          MemOrder::Commutative, Scope::Device);
}

WarpTask bc_discover(Warp& w, BcArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  const Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> d = co_await w.load<uint32_t>(address_of<uint32_t>(a.depth, v), m);
  co_await w.compute(2);
  const Mask unseen = m & (d == Lanes<uint32_t>(kInf));
  if (unseen.empty()) co_return;
  const Lanes<float> s = co_await w.load<float>(address_of<float>(a.sigma, v), unseen);
  co_await w.compute(2);
  const Mask found = unseen & (s > Lanes<float>(0.0f));
  if (found.empty()) co_return;
  co_await w.store<uint32_t>(address_of<uint32_t>(a.depth, v), Lanes<uint32_t>(a.level + 1), found);
  // Another level follows (control flag, one per warp: Relaxed).
  co_await w.red<uint32_t>(AtomicOp::Max, Lanes<Addr>(a.flag), Lanes<uint32_t>(1u),
                           Mask::lane(found.first()), MemOrder::Relaxed, Scope::Device);
}

// The lanes of this warp's vertices at depth a.level.
WarpTask on_level(Warp& w, const BcArgs& a, Mask& m) {
  m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> d =
      co_await w.load<uint32_t>(address_of<uint32_t>(a.depth, my_vertex(w)), m);
  co_await w.compute(2);
  m &= d == Lanes<uint32_t>(a.level);
}

WarpTask bc_forward(Warp& w, BcArgs a) {
  Mask m;
  co_await on_level(w, a, m);
  if (m.empty()) co_return;
  const Lanes<uint32_t> v = my_vertex(w);
  const Lanes<float> sv = co_await w.load<float>(address_of<float>(a.sigma, v), m);
  co_await for_each_edge(w, a.g, v, m, false, [a, sv](Warp& ww, EdgeLanes e, Mask em) {
    return forward_edge(ww, a, sv, e, em);
  });
}

WarpTask backward_edge(Warp& w, BcArgs a, Lanes<float> coef, EdgeLanes e, Mask em) {
  const Lanes<uint32_t> dv = co_await w.load<uint32_t>(address_of<uint32_t>(a.depth, e.dst), em);
  co_await w.compute(2);
  const Mask parent = em & (dv == Lanes<uint32_t>(a.level - 1));
  if (parent.empty()) co_return;
  const Lanes<float> sv = co_await w.load<float>(address_of<float>(a.sigma, e.dst), parent);
  co_await w.compute(1);
  co_await w.red<float>(AtomicOp::Add, address_of<float>(a.delta, e.dst), sv * coef, parent,
                        MemOrder::Commutative, Scope::Device);
}

WarpTask bc_backward(Warp& w, BcArgs a) {
  Mask m;
  co_await on_level(w, a, m);
  if (m.empty()) co_return;
  const Lanes<uint32_t> u = my_vertex(w);
  const Lanes<float> su = co_await w.load<float>(address_of<float>(a.sigma, u), m);
  const Lanes<float> du = co_await w.load<float>(address_of<float>(a.delta, u), m);
  const Lanes<float> b = co_await w.load<float>(address_of<float>(a.bc, u), m);
  co_await w.compute(6); // add, reciprocal, multiply
  co_await w.store<float>(address_of<float>(a.bc, u), b + du, m);
  const Lanes<float> coef = (Lanes<float>(1.0f) + du) / select(m, su, Lanes<float>(1.0f));
  co_await for_each_edge(w, a.g, u, m, false, [a, coef](Warp& ww, EdgeLanes e, Mask em) {
    return backward_edge(ww, a, coef, e, em);
  });
}

class BcWorkload : public GraphApp {
public:
  explicit BcWorkload(const WorkloadArgs& a)
      : GraphApp("bc", a, true), sources_(bc_sources(graph_, checked_sources(a))) {}

protected:
  // More sources than vertices was silently taken as "all"; a count is
  // checked against what it counts.
  uint32_t checked_sources(const WorkloadArgs& a) const {
    const uint64_t k = a.u64("sources", 0, 1u << 31);
    if (k > graph_.num_vertices())
      throw ConfigError("workload argument sources: " + std::to_string(k) + " is more than the " +
                        std::to_string(graph_.num_vertices()) +
                        " vertices of the graph (0 = every vertex)");
    return uint32_t(k);
  }

  void run(SimContext&, HostModule& h, const DeviceCsr& g) override {
    const uint64_t bytes = uint64_t(g.n) * 4;
    BcArgs a;
    a.g = g;
    a.depth = h.malloc(bytes, "depth");
    a.sigma = h.malloc(bytes, "sigma");
    a.delta = h.malloc(bytes, "delta");
    a.bc = h.malloc(bytes, "bc");
    a.flag = make_flag(h);
    h.memset(a.bc, 0, bytes);
    for (uint32_t s : sources_)
      if (!run_source(h, a, s)) break;
    bc_ = h.download<float>(a.bc, g.n);
  }

  // One source: forward levels until none is discovered, then backward.
  // False when max_iters stopped it.
  bool run_source(HostModule& h, BcArgs a, uint32_t s) {
    const uint64_t bytes = uint64_t(a.g.n) * 4;
    h.memset(a.depth, 0xff, bytes); // kInf
    h.memset(a.sigma, 0, bytes);
    h.memset(a.delta, 0, bytes);
    const uint32_t zero = 0;
    const float one = 1.0f;
    h.copy_to_device(a.depth + uint64_t(s) * 4, &zero, 4);
    h.copy_to_device(a.sigma + uint64_t(s) * 4, &one, 4);
    uint32_t d = 0;
    for (;; ++d) {
      if (d >= iteration_cap()) return converged_ = false;
      a.level = d;
      clear_flag(h, a.flag);
      launch_per_vertex(h, "bc_forward", [a](Warp& w) { return bc_forward(w, a); });
      launch_per_vertex(h, "bc_discover", [a](Warp& w) { return bc_discover(w, a); });
      h.synchronize();
      ++iterations_;
      if (!read_flag(h, a.flag)) break;
    }
    for (uint32_t l = d; l >= 1; --l, ++iterations_) { // d = the deepest level
      a.level = l;
      launch_per_vertex(h, "bc_backward", [a](Warp& w) { return bc_backward(w, a); });
    }
    h.synchronize(); // before the next source's memsets
    return true;
  }

  std::string verify() override {
    const uint32_t n = uint32_t(graph_.num_vertices());
    if (bc_.size() != n) return "bc: device result has the wrong size";
    std::vector<double> ref(n, 0.0), sigma(n), delta(n);
    std::vector<uint32_t> depth(n), order;
    for (uint32_t s : sources_) { // Brandes (2001), unweighted, in double
      std::fill(depth.begin(), depth.end(), kInf);
      std::fill(sigma.begin(), sigma.end(), 0.0);
      std::fill(delta.begin(), delta.end(), 0.0);
      order.assign(1, s);
      depth[s] = 0;
      sigma[s] = 1.0;
      for (size_t i = 0; i < order.size(); ++i) {
        const uint32_t v = order[i];
        for (uint32_t u : graph_.neighbors(v)) {
          if (depth[u] == kInf) depth[u] = depth[v] + 1, order.push_back(u);
          if (depth[u] == depth[v] + 1) sigma[u] += sigma[v];
        }
      }
      for (size_t i = order.size(); i-- > 1;) { // reverse BFS order, s (first) excluded
        const uint32_t u = order[i];
        for (uint32_t v : graph_.neighbors(u))
          if (depth[v] + 1 == depth[u]) delta[v] += sigma[v] / sigma[u] * (1.0 + delta[u]);
        ref[u] += delta[u];
      }
    }
    for (uint32_t v = 0; v < n; ++v)
      if (!(std::abs(double(bc_[v]) - ref[v]) <= kRelTol * std::max(std::abs(ref[v]), 1.0)))
        return "bc of vertex " + vertex_label(v) + ": device " + fmt(bc_[v]) + ", CPU reference " +
               std::to_string(ref[v]) + " (relative tolerance 1e-4)";
    return "";
  }

  // Move the largest value by 1% + 1: beyond the tolerance whatever its size.
  void corrupt() override {
    if (bc_.empty()) return;
    float& x = *std::max_element(bc_.begin(), bc_.end());
    x = x * 1.01f + 1.0f;
  }

  void write_result(const std::filesystem::path& file) override {
    write_vertex_values(file,
                        "betweenness (sum over the sources of the Brandes dependency, not halved)",
                        [this](uint32_t v) { return fmt(bc_[v]); });
  }

  std::string extra_summary() const override {
    constexpr size_t kShown = 8;
    std::string s = ", " + std::to_string(sources_.size()) + " sources (";
    for (size_t i = 0; i < sources_.size() && i < kShown; ++i)
      s += (i ? " " : "") + vertex_label(sources_[i]);
    return s + (sources_.size() > kShown ? " ...)" : ")");
  }

private:
  std::vector<uint32_t> sources_;
  std::vector<float> bc_;
};

} // namespace
} // namespace graph_apps

WorkloadEntry bc_workload() {
  WorkloadInfo info{
      "bc",
      "Brandes betweenness centrality: level-synchronous BFS with float atomicAdd on "
      "sigma, backward float atomicAdd of dependencies",
      graph_apps::graph_args({{"sources", "4",
                               "BFS sources, evenly spaced over the vertex ids "
                               "(skipping isolated ones); 0 = all vertices (exact BC)"}})};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<graph_apps::BcWorkload>(a); }};
}

} // namespace tlmgpu
