// `ws-pagerank`: the sRSP paper's PRK (Pannotia's PageRank, pull form) on
// work-stealing queues. Each round:
//   ws_pr_pull     (work stealing) every vertex v sums contrib[u] over its
//                  neighbours u and writes rank[v] = (1 - d) / n + d * sum;
//   ws_pr_contrib  (one thread per vertex) contrib[v] = rank[v] / deg(v).
// The graph is read as undirected, so v's in-neighbours are its neighbours.
// Each vertex's output is written by whichever warp took its task; nothing
// else is shared inside a kernel, so the scenario changes only how the
// queues synchronise, not the result. Checked against the double-precision
// CPU PageRank (workloads/graph_apps/cpu_references.hpp) with the same L1
// bound as `pagerank`; hubs make the pull kernel's tasks uneven, which is
// what stealing balances.
#include "workloads/work_steal/ws_workloads.hpp"

#include "models/host/host_module.hpp"
#include "workloads/graph_apps/cpu_references.hpp"
#include "workloads/graph_apps/edge_frontier.hpp"
#include "workloads/work_steal/ws_app.hpp"

#include <future>
#include <sstream>

namespace tlmgpu {
namespace {

using namespace graph_apps;
using namespace work_steal;

constexpr double kRelL1 = 1e-5; // as `pagerank` (pagerank.cpp says why)

struct WsPrArgs {
  DeviceCsr g;
  Addr rank = 0, contrib = 0;
  float base = 0, damping = 0;
};

WarpTask ws_pr_pull(Warp& w, WsPrArgs a, Lanes<uint32_t> v, Mask m) {
  Lanes<float> sum(0.0f);
  co_await for_each_edge(
      w, a.g, v, m, false, [&sum, c = a.contrib](Warp& wk, EdgeLanes e, Mask em) -> WarpTask {
        const Lanes<float> x = co_await wk.load<float>(address_of<float>(c, e.dst), em);
        em.for_each([&](unsigned i) { sum[i] += x[i]; });
      });
  co_await w.compute(2); // fma
  co_await w.store<float>(address_of<float>(a.rank, v),
                          Lanes<float>(a.base) + Lanes<float>(a.damping) * sum, m);
}

WarpTask ws_pr_contrib(Warp& w, WsPrArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  const Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<float> r = co_await w.load<float>(address_of<float>(a.rank, v), m);
  Lanes<uint32_t> lo, degree;
  co_await csr_row(w, a.g, v, m, lo, degree);
  co_await w.compute(2);
  // A vertex without arcs is nobody's neighbour: its share is never read.
  const Lanes<float> share = Lanes<float>::generate(
      [&](unsigned i) { return degree[i] ? r[i] / float(degree[i]) : 0.0f; });
  co_await w.store<float>(address_of<float>(a.contrib, v), share, m);
}

class WsPageRank : public WsGraphApp {
public:
  explicit WsPageRank(const WorkloadArgs& a) : WsGraphApp("ws_pagerank", a, false) {
    rounds_ = a.u64("iterations", 1, 1u << 20);
    if (max_iters_ == 0) max_iters_ = rounds_;
    if (max_iters_ < rounds_)
      throw ConfigError("workload ws-pagerank: max_iters=" + std::to_string(max_iters_) +
                        " is below iterations=" + std::to_string(rounds_));
  }

protected:
  void start_reference() override {
    reference_ = std::async(std::launch::async, [this] { return cpu_pagerank(graph_, rounds_); });
  }

  void run(SimContext&, HostModule& h, const DeviceCsr& g) override {
    const std::vector<float> init(g.n, float(1.0 / g.n));
    WsPrArgs a{g, h.upload(init, "rank"), h.malloc(uint64_t(g.n) * 4, "contrib"),
               float((1 - kPageRankDamping) / g.n), float(kPageRankDamping)};
    launch_per_vertex(h, "ws_pr_contrib", [a](Warp& w) { return ws_pr_contrib(w, a); });
    for (uint64_t it = 0; it < rounds_; ++it) {
      launch_tasks(h, "ws_pr_pull",
                   [a](Warp& w, Lanes<uint32_t> v, Mask m) { return ws_pr_pull(w, a, v, m); });
      launch_per_vertex(h, "ws_pr_contrib", [a](Warp& w) { return ws_pr_contrib(w, a); });
      iterations_ = it + 1;
    }
    h.synchronize();
    rank_ = h.download<float>(a.rank, g.n);
  }

  std::string verify() override {
    return check_ranks(rank_, reference_.get(), kRelL1, l1_,
                       [this](uint32_t v) { return vertex_label(v); });
  }
  void corrupt() override { rank_[rank_.size() / 2] += 0.5f; }
  void write_result(const std::filesystem::path& f) override {
    write_vertex_values(f, "rank (after " + std::to_string(iterations_) + " rounds, damping 0.85)",
                        [this](uint32_t v) { return fmt(rank_[v]); });
  }
  std::string extra_summary() const override {
    std::ostringstream s;
    s << ws_summary() << ", L1 error vs CPU " << l1_ << " (bound " << kRelL1 << " x sum)";
    return s.str();
  }

private:
  uint64_t rounds_ = 10;
  std::vector<float> rank_;
  std::future<std::vector<double>> reference_;
  double l1_ = 0;
};

} // namespace

WorkloadEntry ws_pagerank_workload() {
  WorkloadInfo info{"ws-pagerank",
                    "PageRank (pull) on work-stealing queues, the sRSP paper's PRK; scenario "
                    "baseline/steal-only/scope-only/rsp",
                    work_steal::ws_args({{"iterations", "10", "PageRank rounds"}})};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<WsPageRank>(a); }};
}

} // namespace tlmgpu
