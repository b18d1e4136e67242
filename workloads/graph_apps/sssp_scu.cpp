// SSSP on the SCU: the rounds of sssp_scu.hpp.
#include "workloads/graph_apps/sssp_scu.hpp"

#include "models/host/host_module.hpp"
#include "models/iru/iru_module.hpp"
#include "models/scu/scu_module.hpp"
#include "workloads/graph_apps/edge_frontier.hpp"

#include <algorithm>

namespace tlmgpu::graph_apps {
namespace {

// One round's arrays (`in` and `out` swap between rounds).
struct Round {
  DeviceCsr g;
  Addr weights = 0; // the arcs' weights (all 1 for an unweighted graph)
  Addr dist = 0, lookup = 0, in = 0, out = 0;
  Addr index = 0, count = 0, cost = 0;             // per frontier vertex
  Addr edges = 0, wfront = 0, scost = 0, keep = 0; // per edge-frontier element
  uint32_t n = 0;                                  // elements of the kernel's input
};

WarpTask sssp_prepare(Warp& w, Round a) {
  const Mask m = first_threads(w, a.n);
  if (m.empty()) co_return;
  const Lanes<uint64_t> i = w.global_thread_id();
  const Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, i), m);
  Lanes<uint32_t> lo, degree;
  co_await csr_row(w, a.g, v, m, lo, degree);
  const Lanes<uint32_t> d = co_await w.load<uint32_t>(address_of<uint32_t>(a.dist, v), m);
  // v is in this frontier because its lookup entry named a position last
  // round; nobody reads lookup until the contraction, so its owner clears it.
  co_await w.store<uint32_t>(address_of<uint32_t>(a.lookup, v), Lanes<uint32_t>(kInf), m);
  co_await w.compute(1);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.index, i), lo, m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.count, i), degree, m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.cost, i), d, m);
}

WarpTask sssp_contract(Warp& w, Round a) {
  const Mask m = first_threads(w, a.n);
  if (m.empty()) co_return;
  const Lanes<uint64_t> i = w.global_thread_id();
  const Lanes<uint32_t> u = co_await w.load<uint32_t>(address_of<uint32_t>(a.edges, i), m);
  const Lanes<uint32_t> wt = co_await w.load<uint32_t>(address_of<uint32_t>(a.wfront, i), m);
  // iscu: the ISCU wrote whole path costs (no source-cost frontier).
  Lanes<uint32_t> sc(0u);
  if (a.scost) sc = co_await w.load<uint32_t>(address_of<uint32_t>(a.scost, i), m);
  co_await w.compute(2);
  const Lanes<uint32_t> c = path_cost(sc, wt);
  const Lanes<uint32_t> prev =
      co_await w.atomic<uint32_t>(AtomicOp::Min, address_of<uint32_t>(a.dist, u), c, m);
  const Mask better = m & (prev > c);
  if (better.any())
    co_await w.store<uint32_t>(address_of<uint32_t>(a.lookup, u), i.as<uint32_t>(), better);
}

WarpTask sssp_select(Warp& w, Round a) {
  const Mask m = first_threads(w, a.n);
  if (m.empty()) co_return;
  const Lanes<uint64_t> i = w.global_thread_id();
  const Lanes<uint32_t> u = co_await w.load<uint32_t>(address_of<uint32_t>(a.edges, i), m);
  const Lanes<uint32_t> owner = co_await w.load<uint32_t>(address_of<uint32_t>(a.lookup, u), m);
  const Lanes<uint32_t> won =
      select(owner == i.as<uint32_t>(), Lanes<uint32_t>(1u), Lanes<uint32_t>(0u));
  co_await w.store<uint32_t>(address_of<uint32_t>(a.keep, i), won, m);
}

// scu-filter-group: the grouping table (keyed by the line of dist a vertex
// falls in) and the gather lists of the expansion and the contraction.
struct Grouping {
  ScuHash hash;
  Addr expand_order = 0, contract_order = 0;
};

// A generate-group op over `c`'s elements (its unfiltered output), keyed by
// the line of dist: the gather list `order` that `c` then applies.
void group_by_dist(ScuModule& scu, const DeviceMemory& mem, ScuCommand& c, const Grouping& gr,
                   Addr dist, Addr order) {
  ScuCommand g = c;
  g.apply = 0;
  g.group = g.generate = true;
  g.group_target = dist;
  g.hash = gr.hash;
  g.out = order;
  scu.execute(g, mem);
  c.order = order;
}

// The contraction of `ne` edge-frontier elements and the SCU's compaction
// of the next node frontier (into a.out); returns its length.
uint32_t contract(HostModule& h, ScuModule& scu, const Round& a, uint64_t ne,
                  const LaunchFn& launch, const Grouping* gr) {
  Round c = a;
  c.n = uint32_t(ne);
  launch("sssp_contract", ne, [c](Warp& w) { return sssp_contract(w, c); });
  h.synchronize();
  launch("sssp_select", ne, [c](Warp& w) { return sssp_select(w, c); });
  h.synchronize();
  ScuCommand dc;
  dc.op = ScuOp::Data;
  dc.n = ne;
  dc.data = a.edges;
  dc.mask = a.keep;
  dc.out = a.out;
  dc.out_capacity = a.g.n;
  if (gr) group_by_dist(scu, h.gpu().device_memory, dc, *gr, a.dist, gr->contract_order);
  return uint32_t(scu.execute(dc, h.gpu().device_memory));
}

} // namespace

void check_scu_version(SimContext& ctx, const std::string& version, bool iscu) {
  const bool filter = version == "scu-filter" || version == "scu-filter-group" || version == "iscu";
  if ((version == "scu" || filter) && !ScuModule::of(ctx))
    throw ConfigError("workload argument version: " + version +
                      " needs a platform with an SCU (a block of type scu, e.g. "
                      "examples/scu/gtx980-scu.json)");
  // The filter's unit is the platform's (scu.filter_unit): each version
  // names the one it measures, so a run cannot report the other's numbers.
  const std::string& unit = ctx.platform.scu.filter_unit;
  if (version == "iscu" &&
      (unit != "iru" || !IruControl::of(ctx) || !IruControl::of(ctx)->enabled()))
    throw ConfigError("workload argument version: iscu needs a platform whose SCU filters in "
                      "the IRU (scu.filter_unit = iru, blocks of type iru, iru.enabled; e.g. "
                      "examples/iscu/gtx980-iscu.json)");
  if ((version == "scu-filter" || version == "scu-filter-group") && unit != "hash")
    throw ConfigError("workload argument version: " + version +
                      " filters with a table in memory, but this platform's SCU filters in the "
                      "IRU (scu.filter_unit = iru)" +
                      (iscu ? ": use version=iscu" : ": use scu.filter_unit = hash"));
}

std::vector<uint32_t> sssp_on_scu(HostModule& h, ScuModule& scu, const DeviceCsr& g, ScuSsspRun& r,
                                  const LaunchFn& launch) {
  const DeviceMemory& mem = h.gpu().device_memory;
  std::vector<uint32_t> init(g.n, kInf), first(g.n, 0);
  init[r.source] = 0;
  first[0] = r.source;
  // A vertex joins a round's frontier at most once (one lookup winner), so
  // n and m bound the node and edge frontiers (and the filter vector).
  const uint64_t arcs = std::max<uint32_t>(g.m, 1);
  Round a{g,
          g.weights ? g.weights : h.upload(std::vector<uint32_t>(arcs, 1u), "unit_weights"),
          h.upload(init, "dist"),
          h.upload(std::vector<uint32_t>(g.n, kInf), "lookup"),
          h.upload(first, "frontier_a"),
          h.malloc(4ull * g.n, "frontier_b"),
          h.malloc(4ull * g.n, "index"),
          h.malloc(4ull * g.n, "count"),
          h.malloc(4ull * g.n, "cost"),
          h.malloc(4 * arcs, "edge_frontier"),
          h.malloc(4 * arcs, "weight_frontier"),
          h.malloc(4 * arcs, "source_cost"),
          h.malloc(4 * arcs, "keep"),
          1};
  Addr fvec = 0;
  ScuHash hash;
  if (r.iscu) a.scost = 0; // the ISCU writes whole path costs
  if (r.filter && !r.iscu) {
    // (ID, best cost) entries: 16 ways, or as many as one line holds; by
    // default as many entries as vertices. It persists across rounds: an
    // arc no cheaper than one already passed to the GPU (this round or an
    // earlier one) cannot lower a distance.
    hash.entry_bytes = 8;
    hash.ways = std::min<uint32_t>(16, h.context().net.line_bytes / 8);
    hash.sets =
        r.hash_sets ? r.hash_sets : std::max<uint32_t>(1, (g.n + hash.ways - 1) / hash.ways);
    hash.base = h.malloc(hash.bytes(), "scu_filter_hash");
    h.memset(hash.base, 0xff, hash.bytes());
    fvec = h.malloc(4 * arcs, "filter_vector");
  }
  Grouping grouping;
  if (r.group) {
    // 32-byte entries (tag + 7 positions), as many as one line holds; one
    // entry per line of dist.
    const uint32_t line = h.context().net.line_bytes;
    grouping.hash.entry_bytes = 32;
    grouping.hash.ways = std::max<uint32_t>(1, line / 32);
    const uint64_t lines = (4ull * g.n + line - 1) / line;
    grouping.hash.sets =
        uint32_t(std::max<uint64_t>(1, (lines + grouping.hash.ways - 1) / grouping.hash.ways));
    grouping.hash.base = h.malloc(grouping.hash.bytes(), "scu_group_hash");
    h.memset(grouping.hash.base, 0xff, grouping.hash.bytes());
    grouping.expand_order = h.malloc(4 * arcs, "expand_order");
    grouping.contract_order = h.malloc(4ull * g.n, "contract_order");
  }
  while (a.n) {
    if (r.rounds == r.max_rounds) {
      r.converged = false;
      break;
    }
    ++r.rounds;
    launch("sssp_prepare", a.n, [a](Warp& w) { return sssp_prepare(w, a); });
    h.synchronize();
    ScuCommand ex; // the expansions: arcs of the frontier vertices
    ex.op = ScuOp::AccessExpansion;
    ex.n = a.n;
    ex.index = a.index;
    ex.count = a.count;
    ex.out_capacity = arcs;
    if (r.iscu) {
      // One operation: the IRU partitions keep the cheapest copy of each
      // head (min_u32 on the cost) and the SCU writes (head, cost) pairs.
      ex.data = g.col_indices;
      ex.filter = ScuFilter::BestCost;
      ex.cost = a.weights;
      ex.cost_add = a.cost;
      ex.out = a.edges;
      ex.cost_out = a.wfront;
      const uint64_t ne = scu.execute(ex, mem);
      if (!ne) break;
      a.n = contract(h, scu, a, ne, launch, nullptr);
      std::swap(a.in, a.out);
      continue;
    }
    if (r.filter) {
      ScuCommand f = ex;
      f.data = g.col_indices;
      f.filter = ScuFilter::BestCost;
      f.hash = hash;
      f.cost = a.weights;
      f.cost_add = a.cost;
      f.generate = true;
      f.out = fvec;
      scu.execute(f, mem);
      ex.apply = fvec;
    }
    ex.data = g.col_indices;
    if (r.group) group_by_dist(scu, mem, ex, grouping, a.dist, grouping.expand_order);
    ex.out = a.edges;
    const uint64_t ne = scu.execute(ex, mem);
    if (!ne) break; // every arc filtered: no distance can fall
    ex.data = a.weights;
    ex.out = a.wfront;
    scu.execute(ex, mem);
    ScuCommand rep = ex; // the source's cost once per arc
    rep.op = ScuOp::Replication;
    rep.index = 0;
    rep.data = a.cost;
    rep.out = a.scost;
    scu.execute(rep, mem);
    a.n = contract(h, scu, a, ne, launch, r.group ? &grouping : nullptr);
    std::swap(a.in, a.out);
  }
  return h.download<uint32_t>(a.dist, g.n);
}

} // namespace tlmgpu::graph_apps
