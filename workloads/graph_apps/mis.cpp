// `mis`: Luby's maximal independent set with random priorities, as Pannotia's
// mis benchmark, with the neighbour minimum pushed by atomics (the LAB paper's
// `atomicMin(&min_array[nbr], val)`). State per vertex: 0 undecided, 1 in the
// set, 2 out. Each round:
//   mis_push:   an undecided vertex a neighbour removed last round (removed[v]
//               != 0) becomes out; every other undecided vertex v does
//               atomicMin(&min_array[u], prio[v]) for each neighbour u (RED.MIN
//               u32, commutative, device scope: result unused) and raises the
//               "work left" flag. No flag: the set is maximal, stop.
//   mis_select: an undecided vertex whose priority is below min_array (the
//               smallest undecided neighbour priority) joins the set and marks
//               its neighbours removed with atomicOr(&removed[u], 1) (RED.OR,
//               commutative, device); every undecided vertex resets min_array.
// Joiners are local minima, hence never adjacent; a vertex leaves only when a
// neighbour joined; the loop ends when nobody is undecided: maximal.
//
// Races: min_array and removed are written only by atomics within a kernel
// and read or reset by their owner in the other kernel; state only by its
// owner. Removal goes through its own array rather than state so that no
// vertex reads a word another thread is writing in the same kernel.
#include "workloads/graph_apps/mis.hpp"

#include "models/host/host_module.hpp"
#include "workloads/graph_apps/clr.hpp"
#include "workloads/graph_apps/cpu_references.hpp"
#include "workloads/graph_apps/graph_app.hpp"

namespace tlmgpu {
namespace graph_apps {
namespace {

constexpr uint32_t kUndecided = 0, kIn = 1, kOut = 2;

struct MisArgs {
  DeviceCsr g;
  Addr prio = 0, state = 0, min_array = 0, removed = 0, flag = 0;
};

WarpTask push_atomic(Warp& w, AtomicOp op, Addr base, Lanes<uint32_t> dst, Lanes<uint32_t> value,
                     Mask m) {
  co_await w.red<uint32_t>(op, address_of<uint32_t>(base, dst), value, m, MemOrder::Commutative,
                           Scope::Device);
}

// The undecided lanes of this warp's vertices (loads state).
WarpTask load_undecided(Warp& w, const MisArgs& a, Mask& m) {
  m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> s =
      co_await w.load<uint32_t>(address_of<uint32_t>(a.state, my_vertex(w)), m);
  co_await w.compute(2);
  m &= s == Lanes<uint32_t>(kUndecided);
}

WarpTask mis_push(Warp& w, MisArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  Mask m;
  co_await load_undecided(w, a, m);
  if (m.empty()) co_return;
  const Lanes<uint32_t> r = co_await w.load<uint32_t>(address_of<uint32_t>(a.removed, v), m);
  co_await w.compute(2);
  const Mask out = m & (r != Lanes<uint32_t>(0u));
  if (out.any())
    co_await w.store<uint32_t>(address_of<uint32_t>(a.state, v), Lanes<uint32_t>(kOut), out);
  m &= ~out;
  if (m.empty()) co_return;
  // Work left: one flag write per warp (control, not data: Relaxed).
  co_await w.red<uint32_t>(AtomicOp::Max, Lanes<Addr>(a.flag), Lanes<uint32_t>(1u),
                           Mask::lane(m.first()), MemOrder::Relaxed, Scope::Device);
  const Lanes<uint32_t> p = co_await w.load<uint32_t>(address_of<uint32_t>(a.prio, v), m);
  co_await for_each_edge(w, a.g, v, m, false,
                         [min_array = a.min_array, p](Warp& ww, EdgeLanes e, Mask em) {
                           return push_atomic(ww, AtomicOp::Min, min_array, e.dst, p, em);
                         });
}

WarpTask mis_select(Warp& w, MisArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  Mask m;
  co_await load_undecided(w, a, m);
  if (m.empty()) co_return;
  const Lanes<uint32_t> p = co_await w.load<uint32_t>(address_of<uint32_t>(a.prio, v), m);
  const Lanes<uint32_t> mn = co_await w.load<uint32_t>(address_of<uint32_t>(a.min_array, v), m);
  co_await w.compute(3);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.min_array, v), Lanes<uint32_t>(kInf), m);
  const Mask join = m & (p < mn);
  if (join.empty()) co_return;
  co_await w.store<uint32_t>(address_of<uint32_t>(a.state, v), Lanes<uint32_t>(kIn), join);
  co_await for_each_edge(
      w, a.g, v, join, false, [removed = a.removed](Warp& ww, EdgeLanes e, Mask em) {
        return push_atomic(ww, AtomicOp::Or, removed, e.dst, Lanes<uint32_t>(1u), em);
      });
}

class MisWorkload : public GraphApp {
public:
  explicit MisWorkload(const WorkloadArgs& a) : GraphApp("mis", a, true) {}

protected:
  void run(SimContext& ctx, HostModule& h, const DeviceCsr& g) override {
    prio_ = random_priorities(g.n, ctx.seed);
    MisArgs a;
    a.g = g;
    a.prio = h.upload(prio_, "prio");
    a.state = h.malloc(uint64_t(g.n) * 4, "state");
    a.min_array = h.malloc(uint64_t(g.n) * 4, "min_array");
    a.removed = h.malloc(uint64_t(g.n) * 4, "removed");
    a.flag = make_flag(h);
    h.memset(a.state, 0, uint64_t(g.n) * 4);
    h.memset(a.min_array, 0xff, uint64_t(g.n) * 4); // kInf
    h.memset(a.removed, 0, uint64_t(g.n) * 4);
    converged_ = false;
    for (uint64_t r = 1; r <= iteration_cap(); ++r) {
      clear_flag(h, a.flag);
      launch_per_vertex(h, "mis_push", [a](Warp& w) { return mis_push(w, a); });
      h.synchronize();
      if (!read_flag(h, a.flag)) {
        converged_ = true;
        break;
      }
      launch_per_vertex(h, "mis_select", [a](Warp& w) { return mis_select(w, a); });
      iterations_ = r;
    }
    h.synchronize();
    const std::vector<uint32_t> state = h.download<uint32_t>(a.state, g.n);
    in_set_.resize(g.n);
    for (uint32_t v = 0; v < g.n; ++v)
      in_set_[v] = state[v] == kIn ? 1 : 0;
  }

  // Independent and maximal, from the definitions; then identical to the
  // greedy set in increasing priority order, which is what Luby's rounds with
  // fixed distinct priorities select (catches a wrong but maximal set).
  std::string verify() override {
    if (std::string e = check_mis(graph_, in_set_, [this](uint32_t v) { return vertex_label(v); });
        !e.empty())
      return e;
    const std::vector<uint32_t> ref = cpu_greedy_mis(graph_, prio_);
    return first_mismatch(in_set_, ref, "membership");
  }

  // Flipping any vertex breaks the check: a member removed has no member
  // neighbour (not maximal), a non-member added has one (not independent).
  void corrupt() override {
    if (!in_set_.empty()) in_set_[0] ^= 1u;
  }

  void write_result(const std::filesystem::path& file) override {
    write_vertex_values(file, "in_set (1 = in the maximal independent set, 0 = not)",
                        [this](uint32_t v) { return std::to_string(in_set_[v]); });
  }

  std::string extra_summary() const override {
    uint64_t k = 0;
    for (uint32_t x : in_set_)
      k += x;
    return ", " + std::to_string(k) + " vertices in the set";
  }

private:
  std::vector<uint32_t> prio_, in_set_;
};

} // namespace
} // namespace graph_apps

WorkloadEntry mis_workload() {
  WorkloadInfo info{
      "mis",
      "maximal independent set (Pannotia mis, Luby, push): atomicMin of random priorities "
      "per edge, local minima join",
      graph_apps::graph_args()};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<graph_apps::MisWorkload>(a); }};
}

} // namespace tlmgpu
