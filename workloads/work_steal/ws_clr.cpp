// `ws-clr`: the sRSP paper's CLR (Pannotia's graph coloring) on
// work-stealing queues, in pull form. Round r reads the colors of the
// previous round and writes this round's into the other buffer: a colored
// vertex keeps its color; an uncolored one whose priority beats every
// uncolored neighbour's takes color r (Jones-Plassmann, one color per round,
// as `clr`); the others stay uncolored and raise the flag. Double buffering
// keeps every read within a kernel of data no one writes in it. Checked for
// validity and against the CPU Jones-Plassmann replay with the same
// priorities (workloads/graph_apps/cpu_references.hpp).
#include "models/host/host_module.hpp"
#include "workloads/graph_apps/clr.hpp"
#include "workloads/graph_apps/cpu_references.hpp"
#include "workloads/work_steal/ws_app.hpp"
#include "workloads/work_steal/ws_workloads.hpp"

#include <algorithm>

namespace tlmgpu {
namespace {

using namespace graph_apps;
using namespace work_steal;

struct WsClrArgs : RoundBuffers {
  DeviceCsr g;
  Addr prio = 0;
};

WarpTask ws_clr_pull(Warp& w, WsClrArgs a, Lanes<uint32_t> v, Mask m) {
  const Lanes<uint32_t> c = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, v), m);
  const Mask open = m & (c == Lanes<uint32_t>(0u));
  Lanes<uint32_t> color = c;
  Mask lost;
  if (open.any()) {
    const Lanes<uint32_t> p = co_await w.load<uint32_t>(address_of<uint32_t>(a.prio, v), open);
    co_await for_each_edge(
        w, a.g, v, open, false, [&lost, a, p](Warp& wk, EdgeLanes e, Mask em) -> WarpTask {
          const Lanes<uint32_t> cu =
              co_await wk.load<uint32_t>(address_of<uint32_t>(a.in, e.dst), em);
          const Lanes<uint32_t> pu =
              co_await wk.load<uint32_t>(address_of<uint32_t>(a.prio, e.dst), em);
          co_await wk.compute(2);
          em.for_each([&](unsigned i) {
            if (cu[i] == 0 && pu[i] > p[i]) lost |= Mask::lane(i);
          });
        });
    color = select(open & ~lost, Lanes<uint32_t>(a.round), c);
  }
  co_await w.store<uint32_t>(address_of<uint32_t>(a.out, v), color, m);
  const Mask left = open & lost;
  if (left.any())
    co_await w.red<uint32_t>(AtomicOp::Max, Lanes<Addr>(a.flag), Lanes<uint32_t>(1u),
                             Mask::lane(left.first()), MemOrder::Relaxed, Scope::Device);
}

class WsClr : public WsGraphApp {
public:
  explicit WsClr(const WorkloadArgs& a) : WsGraphApp("ws_clr", a, false) {}

protected:
  void run(SimContext& ctx, HostModule& h, const DeviceCsr& g) override {
    prio_ = random_priorities(g.n, ctx.seed);
    WsClrArgs a;
    a.g = g;
    a.prio = h.upload(prio_, "prio");
    const std::vector<uint32_t> zeros(g.n, 0u);
    a.in = h.upload(zeros, "color_a");
    a.out = h.upload(zeros, "color_b");
    run_rounds(h, "ws_clr_pull", a, ws_clr_pull);
    color_ = h.download<uint32_t>(a.in, g.n);
  }

  std::string verify() override {
    if (std::string e =
            check_coloring(graph_, color_, [this](uint32_t v) { return vertex_label(v); });
        !e.empty())
      return e;
    return first_mismatch(color_, cpu_jones_plassmann(graph_, prio_), "color");
  }
  void corrupt() override {
    if (!color_.empty()) color_[0] = 0;
  }
  void write_result(const std::filesystem::path& f) override {
    write_vertex_values(f, "color (1-based; the round that colored the vertex)",
                        [this](uint32_t v) { return std::to_string(color_[v]); });
  }
  std::string extra_summary() const override {
    const uint32_t colors = color_.empty() ? 0 : *std::max_element(color_.begin(), color_.end());
    return ", " + std::to_string(colors) + " colors" + ws_summary();
  }

private:
  std::vector<uint32_t> prio_, color_;
};

} // namespace

WorkloadEntry ws_clr_workload() {
  WorkloadInfo info{"ws-clr",
                    "graph coloring (Jones-Plassmann, pull, double-buffered) on work-stealing "
                    "queues, the sRSP paper's CLR; scenario baseline/steal-only/scope-only/rsp",
                    work_steal::ws_args()};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<WsClr>(a); }};
}

} // namespace tlmgpu
