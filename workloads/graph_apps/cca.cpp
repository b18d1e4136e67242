// `cca`: connected components by union-find hooking with atomicMin, after
// ECL-CC (Jaiganesh and Burtscher, HPDC'18) and Shiloach-Vishkin. parent[]
// starts as the identity; every tree's root is its smallest vertex, since
// parents only ever decrease (parent[x] <= x). Each round is two kernels:
//   cc_hook:     for each edge (v, u) with u < v, find both roots and hook
//                the larger under the smaller with atomicMin(&parent[hi],
//                lo). The old value says whether hi was still a root; if
//                not, another thread hooked it first and the lane retries
//                from the new parent (ECL-CC's retry loop). The result is
//                used, so the order is Relaxed, not commutative.
//   cc_compress: label[v] = root of v, written into a second array so that
//                no thread writes what another reads (pointer jumping).
// The arrays swap and the host repeats while a round hooked anything; with
// the retry loop the second round finds every edge inside one tree. Labels
// are checked as a partition against a CPU BFS labelling.
#include "workloads/graph_apps/cca.hpp"

#include "models/host/host_module.hpp"
#include "workloads/graph_apps/graph_app.hpp"

#include <deque>
#include <numeric>
#include <unordered_map>

namespace tlmgpu {
namespace {

using namespace graph_apps;

struct CcArgs {
  DeviceCsr g;
  Addr parent = 0, label = 0, flag = 0;
};

// Replaces each lane's x (lanes in m) with the root of its tree. Parent
// pointers only move towards the root, so a concurrent hook never breaks
// the walk; it just may end at a root that is hooked a moment later.
WarpTask find_root(Warp& w, Addr parent, Lanes<uint32_t>* x, Mask m) {
  while (m.any()) {
    const Lanes<uint32_t> p = co_await w.load<uint32_t>(address_of<uint32_t>(parent, *x), m);
    co_await w.compute(2);
    m &= p != *x;
    *x = select(m, p, *x);
  }
}

WarpTask cc_hook(Warp& w, CcArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  const Mask m = vertex_mask(w, a.g.n);
  co_await for_each_edge(w, a.g, v, m, false, [a](Warp& wk, EdgeLanes e, Mask em) -> WarpTask {
    Mask live = em & (e.dst < e.src); // each undirected edge once
    Lanes<uint32_t> x = e.src, y = e.dst;
    while (live.any()) {
      co_await find_root(wk, a.parent, &x, live);
      co_await find_root(wk, a.parent, &y, live);
      co_await wk.compute(3);
      live &= x != y;
      if (live.empty()) break;
      const Lanes<uint32_t> lo =
          Lanes<uint32_t>::generate([&](unsigned i) { return std::min(x[i], y[i]); });
      const Lanes<uint32_t> hi =
          Lanes<uint32_t>::generate([&](unsigned i) { return std::max(x[i], y[i]); });
      const Lanes<uint32_t> old =
          co_await wk.atomic<uint32_t>(AtomicOp::Min, address_of<uint32_t>(a.parent, hi), lo, live,
                                       MemOrder::Relaxed, Scope::Device);
      const Mask hooked = live & (old == hi);
      if (hooked.any())
        co_await wk.store<uint32_t>(Lanes<Addr>(a.flag), Lanes<uint32_t>(1u), hooked);
      live &= old != hi; // hi had been hooked elsewhere: retry from there
      x = lo;
      y = old;
    }
  });
}

WarpTask cc_compress(Warp& w, CcArgs a) {
  const Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  Lanes<uint32_t> r = my_vertex(w);
  co_await find_root(w, a.parent, &r, m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.label, my_vertex(w)), r, m);
}

// Independent reference: BFS from each unlabelled vertex.
std::vector<uint32_t> cpu_components(const graph::CsrGraph& g) {
  std::vector<uint32_t> comp(g.num_vertices(), kInf);
  uint32_t next = 0;
  for (uint32_t s = 0; s < g.num_vertices(); ++s) {
    if (comp[s] != kInf) continue;
    std::deque<uint32_t> q{s};
    comp[s] = next;
    while (!q.empty()) {
      const uint32_t u = q.front();
      q.pop_front();
      for (uint32_t x : g.neighbors(u))
        if (comp[x] == kInf) comp[x] = next, q.push_back(x);
    }
    ++next;
  }
  return comp;
}

class Cca : public GraphApp {
public:
  explicit Cca(const WorkloadArgs& a) : GraphApp("cca", a, true) {}

protected:
  void run(SimContext&, HostModule& h, const DeviceCsr& g) override {
    std::vector<uint32_t> ident(g.n);
    std::iota(ident.begin(), ident.end(), 0u);
    CcArgs a{g, h.upload(ident, "parent"), h.malloc(uint64_t(g.n) * 4, "label"), make_flag(h)};
    for (;;) {
      if (iterations_ == iteration_cap()) {
        converged_ = false;
        break;
      }
      clear_flag(h, a.flag);
      launch_per_vertex(h, "cc_hook", [a](Warp& w) { return cc_hook(w, a); });
      launch_per_vertex(h, "cc_compress", [a](Warp& w) { return cc_compress(w, a); });
      h.synchronize();
      ++iterations_;
      std::swap(a.parent, a.label); // the compressed forest is the next round's parent
      if (!read_flag(h, a.flag)) break;
    }
    label_ = h.download<uint32_t>(a.parent, g.n);
  }
  // Same partition: vertices share a device label exactly when they share a
  // reference component.
  std::string verify() override {
    const std::vector<uint32_t> ref = cpu_components(graph_);
    std::unordered_map<uint32_t, uint32_t> by_label, by_comp; // -> first vertex seen
    for (uint32_t v = 0; v < ref.size(); ++v) {
      const uint32_t u = by_label.emplace(label_[v], v).first->second;
      if (ref[u] != ref[v])
        return "vertices " + vertex_label(u) + " and " + vertex_label(v) + " share device label " +
               std::to_string(label_[v]) + " but are not connected";
      const uint32_t c = by_comp.emplace(ref[v], v).first->second;
      if (label_[c] != label_[v])
        return "vertices " + vertex_label(c) + " and " + vertex_label(v) +
               " are connected but have device labels " + std::to_string(label_[c]) + " and " +
               std::to_string(label_[v]);
    }
    components_ = by_comp.size();
    return "";
  }
  // Give a vertex with a neighbour a label no one else has (splits its
  // component); on a graph without edges merge vertices 0 and 1 instead.
  void corrupt() override {
    for (uint32_t v = 0; v < label_.size(); ++v)
      if (graph_.degree(v) > 0) {
        label_[v] = uint32_t(label_.size());
        return;
      }
    if (label_.size() > 1) label_[0] = label_[1];
  }
  void write_result(const std::filesystem::path& f) override {
    write_vertex_values(f, "component (the smallest CSR index in the component)",
                        [this](uint32_t v) { return fmt(label_[v]); });
  }
  std::string extra_summary() const override {
    return components_ ? ", " + std::to_string(components_) + " components" : "";
  }

private:
  std::vector<uint32_t> label_;
  size_t components_ = 0;
};

} // namespace

WorkloadEntry cca_workload() {
  WorkloadInfo info{"cca",
                    "connected components, ECL-CC style hooking; device atomicMin with retry",
                    graph_args()};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<Cca>(a); }};
}

} // namespace tlmgpu
