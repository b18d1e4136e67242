// `bfs`: level-synchronous breadth-first search over a level array. Round L
// launches one thread per vertex; the vertices at depth L (the frontier)
// visit their out-arcs and lower unvisited neighbours to L + 1 with a
// commutative device-scope atomicMin, raising a device flag. The host stops
// when a round discovers nothing. Depths are checked exactly against a CPU
// queue BFS.
#include "workloads/graph_apps/bfs.hpp"

#include "models/host/host_module.hpp"
#include "workloads/graph_apps/graph_app.hpp"

#include <deque>

namespace tlmgpu {
namespace {

using namespace graph_apps;

struct BfsArgs {
  DeviceCsr g;
  Addr depth = 0, flag = 0;
  uint32_t level = 0;
};

WarpTask bfs_level(Warp& w, BfsArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> d = co_await w.load<uint32_t>(address_of<uint32_t>(a.depth, v), m);
  co_await w.compute(2);
  m &= d == Lanes<uint32_t>(a.level); // the frontier: depths are final from earlier rounds
  co_await for_each_edge(w, a.g, v, m, false, [a](Warp& wk, EdgeLanes e, Mask em) -> WarpTask {
    // Test before the atomic, as GPU BFS codes do: most neighbours of a
    // frontier are already visited. A stale kInf only costs a redundant min.
    const Lanes<uint32_t> du = co_await wk.load<uint32_t>(address_of<uint32_t>(a.depth, e.dst), em);
    co_await wk.compute(1);
    const Mask fresh = em & (du == Lanes<uint32_t>(kInf));
    if (fresh.empty()) co_return;
    // Every writer this round writes L + 1: the min commutes and its result
    // is unused, so it is the LAB paper's commutative red.
    co_await wk.red<uint32_t>(AtomicOp::Min, address_of<uint32_t>(a.depth, e.dst),
                              Lanes<uint32_t>(a.level + 1), fresh, MemOrder::Commutative,
                              Scope::Device);
    co_await wk.store<uint32_t>(Lanes<Addr>(a.flag), Lanes<uint32_t>(1u), fresh);
  });
}

class Bfs : public GraphApp {
public:
  explicit Bfs(const WorkloadArgs& a) : GraphApp("bfs", a, false) { source_ = pick_source(a); }

protected:
  void run(SimContext&, HostModule& h, const DeviceCsr& g) override {
    std::vector<uint32_t> init(g.n, kInf);
    init[source_] = 0;
    BfsArgs a{g, h.upload(init, "depth"), make_flag(h), 0};
    for (;; ++a.level) {
      if (iterations_ == iteration_cap()) {
        converged_ = false;
        break;
      }
      clear_flag(h, a.flag);
      launch_per_vertex(h, "bfs_level", [a](Warp& w) { return bfs_level(w, a); });
      h.synchronize(); // kernel end: every depth and the flag are visible
      ++iterations_;
      if (!read_flag(h, a.flag)) break;
    }
    depth_ = h.download<uint32_t>(a.depth, g.n);
  }
  void start_reference() override {
    reference_ = std::async(std::launch::async, [this] { return cpu_bfs(graph_, source_); });
  }
  std::string verify() override { return first_mismatch(depth_, reference_.get(), "depth"); }
  void corrupt() override { depth_[source_] ^= 1; }
  void write_result(const std::filesystem::path& f) override {
    write_vertex_values(
        f, "depth (BFS hops from vertex " + vertex_label(source_) + "; inf = unreachable)",
        [this](uint32_t v) { return fmt(depth_[v]); });
  }
  std::string extra_summary() const override {
    uint64_t reached = 0;
    for (uint32_t d : depth_)
      reached += d != kInf;
    return source_summary(source_) + ", " + std::to_string(reached) + " vertices reached";
  }

private:
  uint32_t source_ = 0;
  std::vector<uint32_t> depth_;
  std::future<std::vector<uint32_t>> reference_;
};

} // namespace

// Independent reference: a FIFO queue over the same CSR.
std::vector<uint32_t> graph_apps::cpu_bfs(const graph::CsrGraph& g, uint32_t source) {
  std::vector<uint32_t> depth(g.num_vertices(), kInf);
  std::deque<uint32_t> q{source};
  depth[source] = 0;
  while (!q.empty()) {
    const uint32_t u = q.front();
    q.pop_front();
    for (uint32_t x : g.neighbors(u))
      if (depth[x] == kInf) depth[x] = depth[u] + 1, q.push_back(x);
  }
  return depth;
}

WorkloadEntry bfs_workload() {
  WorkloadInfo info{"bfs",
                    "level-synchronous BFS (level array); commutative device atomicMin on depths",
                    graph_args({source_arg()})};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<Bfs>(a); }};
}

} // namespace tlmgpu
