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
//
// version=edge-frontier and iru: the thesis' frontier SSSP (Davidson et
// al., seed-003 §1.4) with the contraction of Fig. 5.9, but without the
// near-far split (delta = infinity: every improved vertex joins the next
// frontier at once; the far pile only defers work, it changes no distance).
// Each round:
//   sssp_expand:   each frontier vertex v clears lookup[v], reserves its
//                  out-arcs in the edge frontier and writes (u, dist[v] + w);
//   sssp_contract: prev = atomicMin(dist[u], cost); if prev > cost,
//                  lookup[u] = pos (Fig. 5.9; with the IRU the element comes
//                  from load_iru(edge, weight, pos), and min_u32 merging
//                  keeps the cheapest of equal destinations with its pos);
//   sssp_select:   the one position left in lookup[u] appends u to the next
//                  frontier (the thesis' lookup-table filter: the racing
//                  plain stores leave exactly one writer's position).
//
// version=gpu-merrill: the same rounds as the thesis' GPU baseline
// (merrill.hpp): sssp_merrill_expand gathers lists CTA-, warp- and scan-
// based, sssp_contract as above, sssp_merrill_select appends the winners
// with a CTA scan and one atomicAdd per CTA (cta_scan.hpp).
//
// version=scu and scu-filter: the same rounds with the compactions on the
// stream compaction unit, scu-filter with its unique-best-cost filter on the
// expansion, scu-filter-group also grouping the expansion's and the next
// frontier's vertices by the line of dist they touch (Fig. 4.10), iscu with
// that filter in the IRU partitions (sssp_scu.hpp);
// they need a platform with an SCU (iscu: scu.filter_unit = iru).
#include "workloads/graph_apps/sssp.hpp"

#include "models/host/host_module.hpp"
#include "models/iru/iru_types.hpp"
#include "models/scu/scu_module.hpp"
#include "workloads/graph_apps/cpu_references.hpp"
#include "workloads/graph_apps/cta_scan.hpp"
#include "workloads/graph_apps/edge_frontier.hpp"
#include "workloads/graph_apps/graph_app.hpp"
#include "workloads/graph_apps/merrill.hpp"
#include "workloads/graph_apps/sssp_scu.hpp"

#include <cstdio>
#include <functional>

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
    const Lanes<uint32_t> nd = path_cost(dv, e.weight);
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

// The frontier version's state (one round's arrays; `in` and `out` swap).
struct FrontierArgs {
  DeviceCsr g;
  Addr dist = 0, lookup = 0, in = 0, out = 0, count = 0;
  Addr edges = 0, costs = 0, edge_count = 0; // the edge and weight frontiers
  uint32_t n_in = 0;                         // vertices in `in`
  ContractSource src;                        // the contraction's elements
};

WarpTask sssp_expand(Warp& w, FrontierArgs a) {
  const Lanes<uint64_t> i = w.global_thread_id();
  const Mask m = first_threads(w, a.n_in);
  if (m.empty()) co_return;
  const Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, i), m);
  const Lanes<uint32_t> dv = co_await w.load<uint32_t>(address_of<uint32_t>(a.dist, v), m);
  // v is in this frontier because its lookup entry named a position last
  // round; nobody reads lookup in this kernel, so its owner clears it here.
  co_await w.store<uint32_t>(address_of<uint32_t>(a.lookup, v), Lanes<uint32_t>(kInf), m);
  co_await expand_arcs(
      w, a.g, v, m, a.edge_count, true, dv,
      [a](Warp& wk, EdgeLanes e, Lanes<uint32_t> slot, Lanes<uint32_t> dist, Mask em) -> WarpTask {
        co_await wk.compute(2);
        co_await wk.store<uint32_t>(address_of<uint32_t>(a.edges, slot), e.dst, em);
        co_await wk.store<uint32_t>(address_of<uint32_t>(a.costs, slot), path_cost(dist, e.weight),
                                    em);
      });
}

WarpTask sssp_contract(Warp& w, FrontierArgs a) {
  ContractElement e;
  co_await take_element(w, a.src, e, kIruSecondary | kIruPosition);
  if (e.active.empty()) co_return;
  const Lanes<uint32_t> prev = co_await w.atomic<uint32_t>(
      AtomicOp::Min, address_of<uint32_t>(a.dist, e.edge), e.weight, e.active);
  const Mask better = e.active & (prev > e.weight);
  if (better.any())
    co_await w.store<uint32_t>(address_of<uint32_t>(a.lookup, e.edge), e.pos, better);
}

WarpTask sssp_select(Warp& w, FrontierArgs a) {
  const Lanes<uint64_t> i = w.global_thread_id();
  const Mask m = first_threads(w, a.src.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> u = co_await w.load<uint32_t>(address_of<uint32_t>(a.edges, i), m);
  const Lanes<uint32_t> owner = co_await w.load<uint32_t>(address_of<uint32_t>(a.lookup, u), m);
  const Mask won = m & (owner == i.as<uint32_t>());
  if (won.empty()) co_return;
  Lanes<uint32_t> slot;
  co_await reserve(w, a.count, Lanes<uint32_t>(1u), won, slot);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.out, slot), u, won);
}

// gpu-merrill: sssp_select with scan-based compaction; every warp of the
// CTA takes part in the scan, with or without elements.
WarpTask sssp_select_scan(Warp& w, FrontierArgs a) {
  const CtaScanLayout s = CtaScanLayout::of(w);
  co_await cta_scan_init(w, s);
  const Lanes<uint64_t> i = w.global_thread_id();
  const Mask m = first_threads(w, a.src.n);
  Lanes<uint32_t> u(0u);
  Mask won;
  if (m.any()) {
    u = co_await w.load<uint32_t>(address_of<uint32_t>(a.edges, i), m);
    const Lanes<uint32_t> owner = co_await w.load<uint32_t>(address_of<uint32_t>(a.lookup, u), m);
    won = m & (owner == i.as<uint32_t>());
  }
  co_await cta_append(w, s, a.count, a.out, u, won);
}

class Sssp : public GraphApp {
public:
  explicit Sssp(const WorkloadArgs& a) : GraphApp("sssp", a, false, true) {
    source_ = pick_source(a);
    version_ =
        edge_frontier_version(a, {"scu", "scu-filter", "scu-filter-group", "iscu", "gpu-merrill"});
    hash_sets_ = uint32_t(a.u64("hash_sets", 0, 1u << 26));
  }

  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    check_scu_version(ctx, version_, true);
    iru_.elaborate(ctx, version_, block_);
    GraphApp::elaborate(ctx, gpu);
  }

protected:
  void run(SimContext& ctx, HostModule& h, const DeviceCsr& g) override {
    if (version_.rfind("scu", 0) == 0 || version_ == "iscu") return run_scu(ctx, h, g);
    if (version_ != "gpu") return run_frontier(ctx, h, g);
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
    if (std::string p = iru_.problem(); !p.empty()) return p;
    std::string err;
    const std::vector<uint32_t> r32 = distances32(ref, err);
    return err.empty() ? first_mismatch(dist_, r32, "distance") : err;
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
    std::string s = source_summary(source_) + iru_.summary(version_) + ", " +
                    std::to_string(reached) + " vertices reached";
    if (graph_.weight_scale != 1) s += weight_units();
    if (graph_.raised_weights)
      s += ", " + std::to_string(graph_.raised_weights) + " positive weights below 1 raised to 1";
    if (graph_.negated_weights)
      s += ", " + std::to_string(graph_.negated_weights) + " negative weights made positive";
    return s;
  }

private:
  void run_frontier(SimContext& ctx, HostModule& h, const DeviceCsr& g) {
    std::vector<uint32_t> init(g.n, kInf), first(g.n, 0);
    init[source_] = 0;
    first[0] = source_;
    // Every vertex joins a round's frontier at most once (one lookup
    // winner), so n and m bound the node and edge frontiers.
    const uint64_t arcs = 4ull * std::max<uint32_t>(g.m, 1);
    FrontierArgs a{g,
                   h.upload(init, "dist"),
                   h.upload(std::vector<uint32_t>(g.n, kInf), "lookup"),
                   h.upload(first, "frontier_a"),
                   h.malloc(4ull * g.n, "frontier_b"),
                   h.malloc(4, "count"),
                   h.malloc(arcs, "edge_frontier"),
                   h.malloc(arcs, "weight_frontier"),
                   h.malloc(4, "edge_count"),
                   1,
                   {}};
    while (a.n_in) {
      if (iterations_ == iteration_cap()) {
        converged_ = false;
        break;
      }
      ++iterations_;
      h.memset(a.edge_count, 0, 4);
      const bool merrill = version_ == "gpu-merrill";
      const uint32_t width = ctx.platform.sm.warp_size;
      if (merrill) {
        MerrillLevel ml{g,      0, a.in,    a.out,  a.count, a.edges, a.edge_count,
                        a.n_in, 0, a.costs, a.dist, a.lookup};
        launch_threads(
            h, "sssp_merrill_expand", a.n_in, [ml](Warp& w) { return merrill_expand(w, ml); },
            merrill_shared_bytes(block_, width));
      } else {
        launch_threads(h, "sssp_expand", a.n_in, [a](Warp& w) { return sssp_expand(w, a); });
      }
      h.synchronize();
      const uint32_t ne = h.download<uint32_t>(a.edge_count, 1)[0];
      if (!ne) break;
      a.src = iru_.arm(ctx, h, {a.dist, 4, a.edges, a.costs, ne, IruMerge::MinU32, {}, {}});
      launch_threads(h, "sssp_contract", ne, [a](Warp& w) { return sssp_contract(w, a); });
      h.synchronize();
      iru_.finish(ctx);
      h.memset(a.count, 0, 4);
      if (merrill)
        launch_threads(
            h, "sssp_merrill_select", ne, [a](Warp& w) { return sssp_select_scan(w, a); },
            CtaScanLayout::of(block_, width).bytes());
      else
        launch_threads(h, "sssp_select", ne, [a](Warp& w) { return sssp_select(w, a); });
      h.synchronize();
      a.n_in = h.download<uint32_t>(a.count, 1)[0];
      std::swap(a.in, a.out);
    }
    dist_ = h.download<uint32_t>(a.dist, g.n);
  }

  void run_scu(SimContext& ctx, HostModule& h, const DeviceCsr& g) {
    ScuSsspRun r;
    r.source = source_;
    r.filter = version_ != "scu";
    r.group = version_ == "scu-filter-group";
    r.iscu = version_ == "iscu";
    r.hash_sets = hash_sets_;
    r.max_rounds = iteration_cap();
    dist_ = sssp_on_scu(h, *ScuModule::of(ctx), g, r,
                        [&](const std::string& k, uint64_t n, std::function<WarpTask(Warp&)> b) {
                          launch_threads(h, k, n, std::move(b));
                        });
    iterations_ = r.rounds;
    converged_ = r.converged;
  }

  // Fixed-point weights (fractional file values): distances are in the same
  // scaled units.
  std::string weight_units() const {
    if (graph_.weight_scale == 1) return "";
    char b[64];
    std::snprintf(b, sizeof b, ", weights = file values x %g", graph_.weight_scale);
    return b;
  }

  std::future<std::vector<uint64_t>> reference_;
  uint32_t source_ = 0, hash_sets_ = 0;
  std::vector<uint32_t> dist_;
  std::string version_;
  IruContractions iru_;
};

} // namespace

WorkloadEntry sssp_workload() {
  WorkloadInfo info{"sssp",
                    "Bellman-Ford SSSP (Pannotia style); commutative device atomicMin per edge",
                    graph_args({source_arg(),
                                weights_arg(),
                                {"version", "gpu",
                                 "gpu (Bellman-Ford per vertex) | edge-frontier (expansion, "
                                 "contraction per arc, lookup filter) | iru (its contraction on "
                                 "the IRU) | scu (its compactions on the SCU) | scu-filter (scu "
                                 "with the best-cost filter in memory) | scu-filter-group "
                                 "(and grouping by the line of dist, the thesis' enhanced SCU, "
                                 "Fig. 4.10) | iscu (that filter in "
                                 "the IRU partitions) | gpu-merrill (the thesis' GPU baseline: "
                                 "cooperative gathering, scan-based compaction)"},
                                {"hash_sets", "0",
                                 "scu-filter(-group): sets of the filter table (0 = vertices / "
                                 "ways)"}})};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<Sssp>(a); }};
}

} // namespace tlmgpu
