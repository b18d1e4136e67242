// `clr`: graph coloring as Pannotia's color benchmark does it, in the push
// form the LAB paper profiles (color1_push). Each round r:
//   clr_push:  every uncolored vertex v does atomicMax(&max_d[u], prio[v]) for
//              every neighbour u (RED.MAX u32, commutative, device scope: the
//              result is unused and the max commutes with every other update);
//   clr_color: every uncolored vertex whose priority beats max_d (the largest
//              priority among its uncolored neighbours) takes color r, then
//              resets its own max_d for the next round.
// The vertices colored in one round are local maxima, hence independent, and
// each round uses a new color, so the coloring is valid (Jones-Plassmann with
// one color per round, as Pannotia). Priorities are distinct, so the global
// maximum of the uncolored vertices wins every round: at most n rounds.
//
// Races: max_d[u] is written only by atomics in clr_push and read/reset only
// by its owner in clr_color; color[v] only by its owner. The kernel boundary
// orders the two kernels.
#include "workloads/graph_apps/clr.hpp"

#include "models/host/host_module.hpp"
#include "workloads/graph_apps/cpu_references.hpp"
#include "workloads/graph_apps/graph_app.hpp"

#include <algorithm>
#include <random>

namespace tlmgpu {
namespace graph_apps {

std::vector<uint32_t> random_priorities(uint32_t n, uint64_t seed) {
  std::vector<uint32_t> p(n);
  for (uint32_t i = 0; i < n; ++i)
    p[i] = i + 1;
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull); // not the graph generators' stream
  for (uint32_t i = n; i > 1; --i)
    std::swap(p[i - 1], p[rng() % i]); // bias < 2^-32: irrelevant
  return p;
}

namespace {

struct ClrArgs {
  DeviceCsr g;
  Addr prio = 0, color = 0, max_d = 0, flag = 0;
  uint32_t round = 0; // the color this round gives (1-based; 0 = uncolored)
};

WarpTask push_max(Warp& w, Addr max_d, Lanes<uint32_t> dst, Lanes<uint32_t> value, Mask m) {
  co_await w.red<uint32_t>(AtomicOp::Max, address_of<uint32_t>(max_d, dst), value, m,
                           MemOrder::Commutative, Scope::Device);
}

WarpTask clr_push(Warp& w, ClrArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> c = co_await w.load<uint32_t>(address_of<uint32_t>(a.color, v), m);
  co_await w.compute(2);
  m &= c == Lanes<uint32_t>(0u);
  if (m.empty()) co_return;
  const Lanes<uint32_t> p = co_await w.load<uint32_t>(address_of<uint32_t>(a.prio, v), m);
  // Lane i of every edge step is still vertex v[i], so p is the value to push.
  co_await for_each_edge(w, a.g, v, m, false, [max_d = a.max_d, p](Warp& ww, EdgeLanes e, Mask em) {
    return push_max(ww, max_d, e.dst, p, em);
  });
}

WarpTask clr_color(Warp& w, ClrArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> c = co_await w.load<uint32_t>(address_of<uint32_t>(a.color, v), m);
  co_await w.compute(2);
  m &= c == Lanes<uint32_t>(0u);
  if (m.empty()) co_return;
  const Lanes<uint32_t> p = co_await w.load<uint32_t>(address_of<uint32_t>(a.prio, v), m);
  const Lanes<uint32_t> mx = co_await w.load<uint32_t>(address_of<uint32_t>(a.max_d, v), m);
  co_await w.compute(3);
  const Mask win = m & (p > mx);
  if (win.any())
    co_await w.store<uint32_t>(address_of<uint32_t>(a.color, v), Lanes<uint32_t>(a.round), win);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.max_d, v), Lanes<uint32_t>(0u), m);
  // Someone is still uncolored: one flag write per warp (control, not data: Relaxed).
  const Mask lost = m & ~win;
  if (lost.any())
    co_await w.red<uint32_t>(AtomicOp::Max, Lanes<Addr>(a.flag), Lanes<uint32_t>(1u),
                             Mask::lane(lost.first()), MemOrder::Relaxed, Scope::Device);
}

class ClrWorkload : public GraphApp {
public:
  explicit ClrWorkload(const WorkloadArgs& a) : GraphApp("clr", a, true) {}

protected:
  void run(SimContext& ctx, HostModule& h, const DeviceCsr& g) override {
    prio_ = random_priorities(g.n, ctx.seed);
    ClrArgs a;
    a.g = g;
    a.prio = h.upload(prio_, "prio");
    a.color = h.malloc(uint64_t(g.n) * 4, "color");
    a.max_d = h.malloc(uint64_t(g.n) * 4, "max_d");
    a.flag = make_flag(h);
    h.memset(a.color, 0, uint64_t(g.n) * 4);
    h.memset(a.max_d, 0, uint64_t(g.n) * 4);
    converged_ = false;
    for (uint64_t r = 1; r <= iteration_cap(); ++r) {
      a.round = uint32_t(r);
      clear_flag(h, a.flag);
      launch_per_vertex(h, "clr_push", [a](Warp& w) { return clr_push(w, a); });
      launch_per_vertex(h, "clr_color", [a](Warp& w) { return clr_color(w, a); });
      h.synchronize();
      iterations_ = r;
      if (!read_flag(h, a.flag)) {
        converged_ = true;
        break;
      }
    }
    color_ = h.download<uint32_t>(a.color, g.n);
  }

  std::string verify() override {
    // 1. Validity, from the definition alone; 2. exactly the coloring of a
    //    CPU Jones-Plassmann replay with the same priorities (catches e.g. a
    //    vertex colored later than its round).
    if (std::string e =
            check_coloring(graph_, color_, [this](uint32_t v) { return vertex_label(v); });
        !e.empty())
      return e;
    const std::vector<uint32_t> ref = cpu_jones_plassmann(graph_, prio_);
    return first_mismatch(color_, ref, "color");
  }

  // Give one vertex with a neighbour that neighbour's color (an isolated
  // vertex cannot conflict, so an edgeless graph gets an uncolored vertex).
  void corrupt() override {
    for (uint32_t v = 0; v < graph_.num_vertices(); ++v)
      if (graph_.degree(v) > 0) {
        color_[v] = color_[graph_.neighbors(v)[0]];
        return;
      }
    if (!color_.empty()) color_[0] = 0;
  }

  void write_result(const std::filesystem::path& file) override {
    write_vertex_values(file, "color (1..colors; 0 = uncolored)",
                        [this](uint32_t v) { return std::to_string(color_[v]); });
  }

  std::string extra_summary() const override {
    uint32_t colors = 0;
    for (uint32_t c : color_)
      colors = std::max(colors, c);
    return ", " + std::to_string(colors) + " colors";
  }

private:
  std::vector<uint32_t> prio_, color_;
};

} // namespace
} // namespace graph_apps

WorkloadEntry clr_workload() {
  WorkloadInfo info{
      "clr",
      "graph coloring (Pannotia color, push): atomicMax of random priorities per edge, "
      "local maxima take the round's color",
      graph_apps::graph_args()};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<graph_apps::ClrWorkload>(a); }};
}

} // namespace tlmgpu
