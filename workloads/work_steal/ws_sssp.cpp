// `ws-sssp`: the sRSP paper's SSSP (Pannotia's Bellman-Ford, pull form) on
// work-stealing queues. Each round one work-stealing kernel reads the
// distances of the previous round and writes this round's into the other
// buffer:
//   out[v] = min(in[v], min over neighbours u of in[u] + w(u, v)),
// raising a flag when out[v] < in[v]; rounds go on until a round changes
// nothing. Double buffering keeps every read within a kernel of data no one
// writes in it, so only the queues synchronise inside a kernel. The graph
// is read as undirected (each arc's reverse with the same weight), as the
// paper's road networks are. Checked against Dijkstra.
#include "workloads/work_steal/ws_workloads.hpp"

#include "models/host/host_module.hpp"
#include "workloads/graph_apps/cpu_references.hpp"
#include "workloads/work_steal/ws_app.hpp"

#include <algorithm>
#include <future>

namespace tlmgpu {
namespace {

using namespace graph_apps;
using namespace work_steal;

struct WsBfArgs : RoundBuffers {
  DeviceCsr g;
};

WarpTask ws_bf_pull(Warp& w, WsBfArgs a, Lanes<uint32_t> v, Mask m) {
  const Lanes<uint32_t> d = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, v), m);
  Lanes<uint32_t> best = d;
  co_await for_each_edge(
      w, a.g, v, m, true, [&best, in = a.in](Warp& wk, EdgeLanes e, Mask em) -> WarpTask {
        const Lanes<uint32_t> du = co_await wk.load<uint32_t>(address_of<uint32_t>(in, e.dst), em);
        co_await wk.compute(2); // add, min
        em.for_each([&](unsigned i) {
          if (du[i] != kInf) best[i] = std::min(best[i], du[i] + e.weight[i]);
        });
      });
  co_await w.store<uint32_t>(address_of<uint32_t>(a.out, v), best, m);
  Mask changed;
  m.for_each([&](unsigned i) {
    if (best[i] != d[i]) changed |= Mask::lane(i);
  });
  if (changed.any())
    co_await w.red<uint32_t>(AtomicOp::Max, Lanes<Addr>(a.flag), Lanes<uint32_t>(1u),
                             Mask::lane(changed.first()), MemOrder::Relaxed, Scope::Device);
}

class WsSssp : public WsGraphApp {
public:
  explicit WsSssp(const WorkloadArgs& a) : WsGraphApp("ws_sssp", a, true) {
    source_ = pick_source(a);
  }

protected:
  void start_reference() override {
    reference_ = std::async(std::launch::async, [this] { return cpu_dijkstra(graph_, source_); });
  }

  void run(SimContext&, HostModule& h, const DeviceCsr& g) override {
    std::vector<uint32_t> init(g.n, kInf);
    init[source_] = 0;
    WsBfArgs a;
    a.g = g;
    a.in = h.upload(init, "dist_a");
    a.out = h.upload(init, "dist_b");
    run_rounds(h, "ws_bf_pull", a, ws_bf_pull);
    dist_ = h.download<uint32_t>(a.in, g.n);
  }

  std::string verify() override {
    std::string err;
    const std::vector<uint32_t> ref = distances32(reference_.get(), err);
    return err.empty() ? first_mismatch(dist_, ref, "distance") : err;
  }
  void corrupt() override { dist_[source_] ^= 1; }
  void write_result(const std::filesystem::path& f) override {
    write_vertex_values(f,
                        "distance (shortest path weight from vertex " + vertex_label(source_) +
                            "; inf = unreachable)",
                        [this](uint32_t v) { return fmt(dist_[v]); });
  }
  std::string extra_summary() const override { return source_summary(source_) + ws_summary(); }

private:
  uint32_t source_ = 0;
  std::vector<uint32_t> dist_;
  std::future<std::vector<uint64_t>> reference_;
};

} // namespace

WorkloadEntry ws_sssp_workload() {
  WorkloadInfo info{"ws-sssp",
                    "Bellman-Ford SSSP (pull, double-buffered) on work-stealing queues, the sRSP "
                    "paper's SSSP; scenario baseline/steal-only/scope-only/rsp",
                    work_steal::ws_args({graph_apps::source_arg(), graph_apps::weights_arg()})};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<WsSssp>(a); }};
}

} // namespace tlmgpu
