// `sssp`: Bellman-Ford single-source shortest paths in the style of
// Pannotia's sssp (relax into a second distance array with atomicMin, then
// copy back), restricted to the vertices whose distance changed in the last
// round. Each round is two kernels:
//   sssp_relax:  active vertices push dist[v] + w to next[u] with a
//                commutative device-scope atomicMin (result unused: `red`);
//   sssp_update: every vertex takes next[v] if it is smaller, marks itself
//                active for the next round and raises the device flag.
// The host stops when a round changes nothing. Distances are checked exactly
// against a CPU Dijkstra; unweighted graphs use weight 1.
#include "workloads/graph_apps/sssp.hpp"

#include "models/host/host_module.hpp"
#include "workloads/graph_apps/graph_app.hpp"

#include <cstdio>
#include <functional>
#include <queue>

namespace tlmgpu {
namespace {

using namespace graph_apps;

struct SsspArgs {
  DeviceCsr g;
  Addr dist = 0, next = 0, active = 0, flag = 0;
};

WarpTask sssp_relax(Warp& w, SsspArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> act = co_await w.load<uint32_t>(address_of<uint32_t>(a.active, v), m);
  co_await w.compute(2);
  m &= act != Lanes<uint32_t>(0u);
  if (m.empty()) co_return;
  // dist is only written by sssp_update, so it is stable during this kernel.
  const Lanes<uint32_t> dv = co_await w.load<uint32_t>(address_of<uint32_t>(a.dist, v), m);
  co_await for_each_edge(w, a.g, v, m, true, [a, dv](Warp& wk, EdgeLanes e, Mask em) -> WarpTask {
    // Saturating add: a path longer than 2^32 - 2 stays "very far", never wraps.
    const Lanes<uint32_t> nd = Lanes<uint32_t>::generate([&](unsigned i) {
      const uint64_t s = uint64_t(dv[i]) + e.weight[i];
      return s >= kInf ? kInf - 1 : uint32_t(s);
    });
    co_await wk.compute(2);
    co_await wk.red<uint32_t>(AtomicOp::Min, address_of<uint32_t>(a.next, e.dst), nd, em,
                              MemOrder::Commutative, Scope::Device);
  });
}

WarpTask sssp_update(Warp& w, SsspArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  const Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> d = co_await w.load<uint32_t>(address_of<uint32_t>(a.dist, v), m);
  const Lanes<uint32_t> nd = co_await w.load<uint32_t>(address_of<uint32_t>(a.next, v), m);
  co_await w.compute(2);
  const Mask improved = m & (nd < d);
  // Each thread writes only its own vertex; the flag gets the same value from
  // every writer.
  co_await w.store<uint32_t>(address_of<uint32_t>(a.active, v),
                             select(improved, Lanes<uint32_t>(1u), Lanes<uint32_t>(0u)), m);
  if (improved.empty()) co_return;
  co_await w.store<uint32_t>(address_of<uint32_t>(a.dist, v), nd, improved);
  co_await w.store<uint32_t>(Lanes<Addr>(a.flag), Lanes<uint32_t>(1u), improved);
}

// Independent reference: Dijkstra with a binary heap, 64-bit sums.
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

class Sssp : public GraphApp {
public:
  explicit Sssp(const WorkloadArgs& a) : GraphApp("sssp", a, false, true) {
    source_ = pick_source(a);
  }

protected:
  void run(SimContext&, HostModule& h, const DeviceCsr& g) override {
    std::vector<uint32_t> init(g.n, kInf), active(g.n, 0);
    init[source_] = 0;
    active[source_] = 1;
    SsspArgs a{g, h.upload(init, "dist"), h.upload(init, "next"), h.upload(active, "active"),
               make_flag(h)};
    for (;;) {
      if (iterations_ == iteration_cap()) {
        converged_ = false;
        break;
      }
      clear_flag(h, a.flag);
      launch_per_vertex(h, "sssp_relax", [a](Warp& w) { return sssp_relax(w, a); });
      launch_per_vertex(h, "sssp_update", [a](Warp& w) { return sssp_update(w, a); });
      h.synchronize(); // the kernel boundary orders relax before update
      ++iterations_;
      if (!read_flag(h, a.flag)) break;
    }
    dist_ = h.download<uint32_t>(a.dist, g.n);
  }
  void start_reference() override {
    reference_ = std::async(std::launch::async, [this] { return cpu_dijkstra(graph_, source_); });
  }
  std::string verify() override {
    std::vector<uint64_t> ref = reference_.get();
    std::vector<uint32_t> r32(ref.size());
    for (size_t v = 0; v < ref.size(); ++v)
      r32[v] = ref[v] >= kInf ? kInf : uint32_t(ref[v]);
    for (uint64_t d : ref)
      if (d != ~uint64_t(0) && d >= kInf - 1)
        return "a distance exceeds 2^32 - 2 (32-bit distances)";
    return first_mismatch(dist_, r32, "distance");
  }
  void corrupt() override { dist_[source_] ^= 1; }
  void write_result(const std::filesystem::path& f) override {
    write_vertex_values(f,
                        "distance (shortest path weight from vertex " + vertex_label(source_) +
                            weight_units() + "; inf = unreachable)",
                        [this](uint32_t v) { return fmt(dist_[v]); });
  }
  std::string extra_summary() const override {
    uint64_t reached = 0;
    for (uint32_t d : dist_)
      reached += d != kInf;
    std::string s = source_summary(source_) + ", " + std::to_string(reached) + " vertices reached";
    if (graph_.weight_scale != 1) s += weight_units();
    if (graph_.raised_weights)
      s += ", " + std::to_string(graph_.raised_weights) + " positive weights below 1 raised to 1";
    if (graph_.negated_weights)
      s += ", " + std::to_string(graph_.negated_weights) + " negative weights made positive";
    return s;
  }

private:
  // Fixed-point weights (fractional file values): distances are in the same
  // scaled units.
  std::string weight_units() const {
    if (graph_.weight_scale == 1) return "";
    char b[64];
    std::snprintf(b, sizeof b, ", weights = file values x %g", graph_.weight_scale);
    return b;
  }

  std::future<std::vector<uint64_t>> reference_;
  uint32_t source_ = 0;
  std::vector<uint32_t> dist_;
};

} // namespace

WorkloadEntry sssp_workload() {
  WorkloadInfo info{"sssp",
                    "Bellman-Ford SSSP (Pannotia style); commutative device atomicMin per edge",
                    graph_args({source_arg(), weights_arg()})};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<Sssp>(a); }};
}

} // namespace tlmgpu
