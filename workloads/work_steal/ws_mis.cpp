// `ws-mis`: the sRSP paper's MIS (Pannotia's Luby maximal independent set)
// on work-stealing queues, in pull form. State per vertex: 0 undecided,
// 1 in the set, 2 out. Round k reads the states of the previous round and
// writes this round's into the other buffer: an undecided vertex with a
// neighbour in the set goes out; one whose priority is below every
// undecided neighbour's joins (local minima, as `mis`); the others stay
// undecided and raise the flag. With fixed priorities this converges to the
// greedy MIS by increasing priority, which the check compares with, after
// independence and maximality (workloads/graph_apps/cpu_references.hpp).
#include "models/host/host_module.hpp"
#include "workloads/graph_apps/clr.hpp"
#include "workloads/graph_apps/cpu_references.hpp"
#include "workloads/work_steal/ws_app.hpp"
#include "workloads/work_steal/ws_workloads.hpp"

namespace tlmgpu {
namespace {

using namespace graph_apps;
using namespace work_steal;

constexpr uint32_t kUndecided = 0, kIn = 1, kOut = 2;

struct WsMisArgs : RoundBuffers {
  DeviceCsr g;
  Addr prio = 0;
};

WarpTask ws_mis_pull(Warp& w, WsMisArgs a, Lanes<uint32_t> v, Mask m) {
  const Lanes<uint32_t> s = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, v), m);
  const Mask open = m & (s == Lanes<uint32_t>(kUndecided));
  Lanes<uint32_t> state = s;
  Mask blocked, not_min;
  if (open.any()) {
    const Lanes<uint32_t> p = co_await w.load<uint32_t>(address_of<uint32_t>(a.prio, v), open);
    co_await for_each_edge(w, a.g, v, open, false,
                           [&blocked, &not_min, a, p](Warp& wk, EdgeLanes e, Mask em) -> WarpTask {
                             const Lanes<uint32_t> su =
                                 co_await wk.load<uint32_t>(address_of<uint32_t>(a.in, e.dst), em);
                             const Lanes<uint32_t> pu = co_await wk.load<uint32_t>(
                                 address_of<uint32_t>(a.prio, e.dst), em);
                             co_await wk.compute(2);
                             em.for_each([&](unsigned i) {
                               if (su[i] == kIn) blocked |= Mask::lane(i);
                               if (su[i] == kUndecided && pu[i] < p[i]) not_min |= Mask::lane(i);
                             });
                           });
    state = select(open & blocked, Lanes<uint32_t>(kOut),
                   select(open & ~not_min, Lanes<uint32_t>(kIn), s));
  }
  co_await w.store<uint32_t>(address_of<uint32_t>(a.out, v), state, m);
  const Mask left = open & ~blocked & not_min;
  if (left.any())
    co_await w.red<uint32_t>(AtomicOp::Max, Lanes<Addr>(a.flag), Lanes<uint32_t>(1u),
                             Mask::lane(left.first()), MemOrder::Relaxed, Scope::Device);
}

class WsMis : public WsGraphApp {
public:
  explicit WsMis(const WorkloadArgs& a) : WsGraphApp("ws_mis", a, false) {}

protected:
  void run(SimContext& ctx, HostModule& h, const DeviceCsr& g) override {
    prio_ = random_priorities(g.n, ctx.seed);
    WsMisArgs a;
    a.g = g;
    a.prio = h.upload(prio_, "prio");
    const std::vector<uint32_t> zeros(g.n, kUndecided);
    a.in = h.upload(zeros, "state_a");
    a.out = h.upload(zeros, "state_b");
    run_rounds(h, "ws_mis_pull", a, ws_mis_pull);
    const std::vector<uint32_t> state = h.download<uint32_t>(a.in, g.n);
    in_set_.assign(g.n, 0);
    for (uint32_t v = 0; v < g.n; ++v)
      in_set_[v] = state[v] == kIn ? 1 : 0;
  }

  std::string verify() override {
    if (std::string e = check_mis(graph_, in_set_, [this](uint32_t v) { return vertex_label(v); });
        !e.empty())
      return e;
    return first_mismatch(in_set_, cpu_greedy_mis(graph_, prio_), "membership");
  }
  // Flipping any vertex breaks independence or maximality.
  void corrupt() override {
    if (!in_set_.empty()) in_set_[0] ^= 1u;
  }
  void write_result(const std::filesystem::path& f) override {
    write_vertex_values(f, "in_set (1 = in the maximal independent set, 0 = not)",
                        [this](uint32_t v) { return std::to_string(in_set_[v]); });
  }
  std::string extra_summary() const override {
    uint64_t k = 0;
    for (uint32_t x : in_set_)
      k += x;
    return ", " + std::to_string(k) + " in the set" + ws_summary();
  }

private:
  std::vector<uint32_t> prio_, in_set_;
};

} // namespace

WorkloadEntry ws_mis_workload() {
  WorkloadInfo info{"ws-mis",
                    "maximal independent set (Luby, pull, double-buffered) on work-stealing "
                    "queues, the sRSP paper's MIS; scenario baseline/steal-only/scope-only/rsp",
                    work_steal::ws_args()};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<WsMis>(a); }};
}

} // namespace tlmgpu
