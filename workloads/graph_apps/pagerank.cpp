// `pagerank`: push-style PageRank as in Pannotia's pagerank: each round,
//   pr_push:   every vertex v adds rank[v] / outdeg(v) to next[u] of each
//              out-neighbour u with a float atomicAdd (commutative order,
//              device scope; the result is unused, so it is a `red`);
//   pr_update: rank[v] = (1 - d) / n + d * next[v]; next[v] = 0.
// A fixed number of rounds (`iterations`), damping d = 0.85. As in Pannotia,
// the rank of vertices without out-arcs is not redistributed (the ranks then
// sum to less than 1). Float atomics add in whatever order the memory system
// applies them, so the check is an L1 bound against a double-precision CPU
// reference with the same rounds: sum |device - ref| <= kRelL1 * sum ref.
//
// version=edge-frontier and iru split pr_push into the thesis' phases
// (seed-003 §1.5): pr_expand writes rank[v] / outdeg(v) into a weight
// frontier at each arc's CSR position, and pr_contract adds one element per
// thread into next (Fig. 5.10). Every vertex is active, so the edge
// frontier is col_indices itself and the expansion can run one thread per
// arc (its tail from a per-arc array): load-balanced as the thesis'
// expansion, where pr_push leaves a hub's whole list to one lane. With the IRU (version=iru) the
// contraction takes its elements from load_iru, which merges equal
// destinations by a float add before they reach L2.
//
// version=scu, scu-group and iscu put the expansion on the stream
// compaction unit (seed-003 §2.7, thesis Figs. 4.7 and 6.4): pr_prepare
// writes each vertex's out-degree and share rank / outdeg; scu: two SCU
// operations, the edge frontier (access expansion of the arcs) and the
// weight frontier (the shares replicated per arc); scu-group: a
// generate-group operation first, whose gather list both apply (arcs into
// the same line of `next` together); iscu: one operation whose arcs the IRU
// partitions merge by head, adding their shares (filtering as a reduction,
// notes P16). Then pr_contract adds each element into next.
//
// version=gpu-merrill is the thesis' GPU-only baseline for the SCU and
// ISCU (seed-003 §1.5: Geil et al.'s expansion, "load balanced as in
// BFS"): merrill_expand over the list of all vertices writes the edge
// frontier and each arc's share with CTA-, warp- and scan-based gathering
// (merrill.hpp), then pr_contract adds each element into next.
#include "workloads/graph_apps/pagerank.hpp"

#include "models/host/host_module.hpp"
#include "models/iru/iru_types.hpp"
#include "models/scu/scu_module.hpp"
#include "workloads/graph_apps/cpu_references.hpp"
#include "workloads/graph_apps/edge_frontier.hpp"
#include "workloads/graph_apps/graph_app.hpp"
#include "workloads/graph_apps/merrill.hpp"
#include "workloads/graph_apps/sssp_scu.hpp"

#include <cmath>
#include <numeric>
#include <sstream>

namespace tlmgpu {
namespace {

using namespace graph_apps;

constexpr double kDamping = kPageRankDamping;
// Float rounding: each rank is a sum of up to deg(v) float terms plus the
// update, repeated every round. Measured L1 errors (10 rounds, karate,
// as20graph, rmat scale 10) are 2e-7 to 6e-7 of the sum, so 1e-5 leaves more
// than an order of magnitude of margin; a lost or doubled contribution on a
// hub is far above it. The IRU's merge adds some terms in the IRU first (a
// different order, the same number of float adds), which stays within it.
constexpr double kRelL1 = 1e-5;

struct PrArgs {
  DeviceCsr g;
  Addr rank = 0, next = 0;
  float base = 0, damping = 0;
  Addr weights = 0, tails = 0; // edge-frontier, iru: the weight frontier, each arc's tail
  ContractSource src;          // pr_contract's elements
};

WarpTask pr_push(Warp& w, PrArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  const Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<float> r = co_await w.load<float>(address_of<float>(a.rank, v), m);
  co_await for_each_edge(w, a.g, v, m, false, [a, r](Warp& wk, EdgeLanes e, Mask em) -> WarpTask {
    // rank / degree: the division is loop-invariant, hoisted by the compiler.
    const Lanes<float> share = r / e.degree.as<float>();
    co_await wk.red<float>(AtomicOp::Add, address_of<float>(a.next, e.dst), share, em,
                           MemOrder::Commutative, Scope::Device);
  });
}

WarpTask pr_expand(Warp& w, PrArgs a) {
  const Lanes<uint64_t> e = w.global_thread_id();
  const Mask m = first_threads(w, a.g.m);
  if (m.empty()) co_return;
  const Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.tails, e), m);
  const Lanes<float> r = co_await w.load<float>(address_of<float>(a.rank, v), m);
  const Lanes<uint32_t> lo = co_await w.load<uint32_t>(address_of<uint32_t>(a.g.row_offsets, v), m);
  const Lanes<uint32_t> hi =
      co_await w.load<uint32_t>(address_of<uint32_t>(a.g.row_offsets, v + Lanes<uint32_t>(1u)), m);
  co_await w.compute(2);
  // The same float division as pr_push.
  co_await w.store<float>(address_of<float>(a.weights, e), r / (hi - lo).as<float>(), m);
}

// Fig. 5.10, PR_Contract: with the IRU, merged lanes are inactive and the
// weight of a lane that got an element is the sum of its merged ones.
WarpTask pr_contract(Warp& w, PrArgs a) {
  ContractElement e;
  co_await take_element(w, a.src, e, kIruSecondary);
  if (e.active.empty()) co_return;
  co_await w.red<float>(AtomicOp::Add, address_of<float>(a.next, e.edge),
                        e.weight.map([](uint32_t b) { return from_bits<float>(b); }), e.active,
                        MemOrder::Commutative, Scope::Device);
}

WarpTask pr_update(Warp& w, PrArgs a) {
  const Lanes<uint32_t> v = my_vertex(w);
  const Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<float> s = co_await w.load<float>(address_of<float>(a.next, v), m);
  co_await w.compute(2); // fma
  co_await w.store<float>(address_of<float>(a.rank, v),
                          Lanes<float>(a.base) + Lanes<float>(a.damping) * s, m);
  co_await w.store<float>(address_of<float>(a.next, v), Lanes<float>(0.0f), m);
}

// version=scu: the thesis' preparationGPU (Fig. 4.7): every vertex's
// out-degree (the count vector; row_offsets is the index vector) and its
// share rank / outdeg (the vector the SCU replicates per arc).
WarpTask pr_prepare(Warp& w, PrArgs a, Addr count, Addr share) {
  const Lanes<uint32_t> v = my_vertex(w);
  const Mask m = vertex_mask(w, a.g.n);
  if (m.empty()) co_return;
  const Lanes<float> r = co_await w.load<float>(address_of<float>(a.rank, v), m);
  Lanes<uint32_t> lo, degree;
  co_await csr_row(w, a.g, v, m, lo, degree);
  co_await w.compute(1);
  co_await w.store<uint32_t>(address_of<uint32_t>(count, v), degree, m);
  // The same float division as pr_push (a vertex without arcs is never
  // replicated, so its infinite share is never read).
  co_await w.store<float>(address_of<float>(share, v), r / degree.as<float>(), m);
}

class PageRank : public GraphApp {
public:
  explicit PageRank(const WorkloadArgs& a) : GraphApp("pagerank", a, false) {
    rounds_ = a.u64("iterations", 1, 1u << 20);
    version_ = edge_frontier_version(a, {"scu", "scu-group", "iscu", "gpu-merrill"});
    group_sets_ = uint32_t(a.u64("group_sets", 0, 1u << 26));
    contract_iru_ = iscu_contract_on_iru(a, version_);
    // The default cap of the convergence kernels (vertices + 1) means
    // nothing for a fixed round count and was below it on graphs of fewer
    // than 9 vertices; an explicit cap below the rounds asked for is a
    // contradiction, reported before the run.
    if (max_iters_ == 0) max_iters_ = rounds_;
    if (max_iters_ < rounds_)
      throw ConfigError("workload pagerank: max_iters=" + std::to_string(max_iters_) +
                        " is below iterations=" + std::to_string(rounds_));
  }

  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    if ((version_ == "scu" || version_ == "scu-group") && !ScuModule::of(ctx))
      throw ConfigError("workload argument version: " + version_ +
                        " needs a platform with an SCU (a block of type scu, e.g. "
                        "examples/scu/gtx980-scu.json)");
    if (version_ == "iscu") check_scu_version(ctx, version_, true);
    iru_.elaborate(ctx, version_, block_, contract_iru_);
    GraphApp::elaborate(ctx, gpu);
  }

protected:
  void run(SimContext& ctx, HostModule& h, const DeviceCsr& g) override {
    std::vector<float> init(g.n, float(1.0 / g.n));
    PrArgs a{g,
             h.upload(init, "rank"),
             h.malloc(uint64_t(g.n) * 4, "next"),
             float((1 - kDamping) / g.n),
             float(kDamping),
             0,
             0,
             {}};
    h.memset(a.next, 0, uint64_t(g.n) * 4);
    if (version_ != "gpu") a.weights = h.malloc(4ull * std::max<uint32_t>(g.m, 1), "weights");
    if (version_ != "gpu" && version_ != "gpu-merrill") { // the per-arc expansions' tails
      std::vector<uint32_t> tails(std::max<uint32_t>(g.m, 1), 0);
      for (uint32_t v = 0; v < g.n; ++v)
        for (uint64_t e = graph_.row_offsets[v]; e < graph_.row_offsets[v + 1]; ++e)
          tails[e] = v;
      a.tails = h.upload(tails, "arc_tails");
    }
    for (uint64_t it = 0; it < rounds_; ++it) {
      // Kernel boundaries order push before update before the next push.
      if (version_ == "gpu")
        launch_per_vertex(h, "pr_push", [a](Warp& w) { return pr_push(w, a); });
      else if (version_ == "scu" || version_ == "scu-group" || version_ == "iscu")
        expand_on_scu(ctx, h, a);
      else if (version_ == "gpu-merrill")
        expand_merrill(ctx, h, a);
      else
        expand_contract(ctx, h, a);
      launch_per_vertex(h, "pr_update", [a](Warp& w) { return pr_update(w, a); });
      ++iterations_;
    }
    h.synchronize();
    rank_ = h.download<float>(a.rank, g.n);
    // Every arc has a slot in the edge frontier: the expansion's
    // reservations must add up to m (a lost list would otherwise show only
    // as a rank error).
    if (merrill_.edge_count) {
      const uint32_t slots = h.download<uint32_t>(merrill_.edge_count, 1)[0];
      if (slots != g.m)
        problem_ = "gpu-merrill: the expansion reserved " + std::to_string(slots) +
                   " edge-frontier slots, expected " + std::to_string(g.m);
    }
  }
  void start_reference() override {
    reference_ = std::async(std::launch::async, [this] { return cpu_pagerank(graph_, rounds_); });
  }
  std::string verify() override {
    const std::vector<double> ref = reference_.get();
    if (std::string p = iru_.problem(); !p.empty()) return p;
    if (!problem_.empty()) return problem_;
    return check_ranks(rank_, ref, kRelL1, l1_, [this](uint32_t v) { return vertex_label(v); });
  }
  void corrupt() override { rank_[rank_.size() / 2] += 0.5f; }
  void write_result(const std::filesystem::path& f) override {
    write_vertex_values(f, "rank (after " + std::to_string(iterations_) + " rounds, damping 0.85)",
                        [this](uint32_t v) { return fmt(rank_[v]); });
  }
  std::string extra_summary() const override {
    std::ostringstream s;
    s << iru_.summary(version_) << ", L1 error vs CPU " << l1_ << " (bound " << kRelL1 << " x sum)";
    return s.str();
  }

private:
  // The IRU's merge (add_f32) sums equal destinations' weights on the way.
  void expand_contract(SimContext& ctx, HostModule& h, PrArgs a) {
    launch_threads(h, "pr_expand", a.g.m, [a](Warp& w) { return pr_expand(w, a); });
    h.synchronize(); // the IRU reads the weight frontier from L2 once armed
    if (!a.g.m) return;
    a.src =
        iru_.arm(ctx, h, {a.next, 4, a.g.col_indices, a.weights, a.g.m, IruMerge::AddF32, {}, {}});
    launch_threads(h, "pr_contract", a.g.m, [a](Warp& w) { return pr_contract(w, a); });
    h.synchronize();
    iru_.finish(ctx);
  }

  // The thesis' PageRank on the SCU (Fig. 4.7): the expansion is two SCU
  // operations, the edge frontier (access expansion of the arcs) and the
  // weight frontier (each vertex's share replicated per arc); scu-group
  // first builds a gather list that puts arcs into the same line of `next`
  // together (generate-group), and both operations apply it, so a warp of
  // pr_contract adds into fewer lines.
  void expand_on_scu(SimContext& ctx, HostModule& h, PrArgs a) {
    if (!scu_.count) {
      const uint64_t arcs = std::max<uint32_t>(a.g.m, 1);
      scu_.count = h.malloc(4ull * a.g.n, "count");
      scu_.share = h.malloc(4ull * a.g.n, "share");
      scu_.edges = h.malloc(4 * arcs, "edge_frontier");
      if (version_ == "scu-group") {
        // 32-byte entries (tag + 7 arcs), as many as one line holds; by
        // default one entry per line of `next`.
        scu_.hash.entry_bytes = 32;
        scu_.hash.ways = std::max<uint32_t>(1, h.context().net.line_bytes / 32);
        const uint64_t lines =
            (4ull * a.g.n + h.context().net.line_bytes - 1) / h.context().net.line_bytes;
        scu_.hash.sets =
            group_sets_
                ? group_sets_
                : uint32_t(std::max<uint64_t>(1, (lines + scu_.hash.ways - 1) / scu_.hash.ways));
        scu_.hash.base = h.malloc(scu_.hash.bytes(), "scu_group_hash");
        h.memset(scu_.hash.base, 0xff, scu_.hash.bytes());
        scu_.order = h.malloc(4 * arcs, "group_order");
      }
    }
    const Addr count = scu_.count, share = scu_.share;
    launch_per_vertex(h, "pr_prepare",
                      [a, count, share](Warp& w) { return pr_prepare(w, a, count, share); });
    h.synchronize();
    if (!a.g.m) return;
    ScuModule& scu = *ScuModule::of(ctx);
    const DeviceMemory& mem = h.gpu().device_memory;
    ScuCommand ex;
    ex.op = ScuOp::AccessExpansion;
    ex.n = a.g.n;
    ex.index = a.g.row_offsets;
    ex.count = count;
    ex.data = a.g.col_indices;
    ex.out_capacity = a.g.m;
    if (scu_.order) {
      ScuCommand gen = ex;
      gen.group = gen.generate = true;
      gen.group_target = a.next;
      gen.hash = scu_.hash;
      gen.out = scu_.order;
      scu.execute(gen, mem);
      ex.order = scu_.order;
    }
    ex.out = scu_.edges;
    if (version_ == "iscu") {
      // One operation (notes P16): the arcs' heads go to the IRU partitions
      // with their source's share; equal heads are merged by a float add,
      // and the SCU writes (head, summed share) pairs.
      ex.filter = ScuFilter::Sum;
      ex.cost_add = share;
      ex.cost_out = a.weights;
    }
    const uint64_t ne = scu.execute(ex, mem);
    if (version_ != "iscu") {
      ScuCommand rep = ex;
      rep.op = ScuOp::Replication;
      rep.index = 0;
      rep.data = share;
      rep.out = a.weights;
      scu.execute(rep, mem);
    }
    a.src = {scu_.edges, a.weights, uint32_t(ne), {}};
    if (contract_iru_) // load_iru groups the (head, sum) pairs by the line of next
      a.src = iru_.arm(ctx, h, {a.next, 4, scu_.edges, a.weights, ne, IruMerge::AddF32, {}, {}});
    launch_threads(h, "pr_contract", ne, [a](Warp& w) { return pr_contract(w, a); });
    h.synchronize();
    if (contract_iru_) iru_.finish(ctx);
  }

  // The thesis' GPU baseline: all vertices are the frontier of a
  // load-balanced expansion that writes the edge frontier and the shares
  // (the weight frontier) at slots the CTAs reserve on a counter; then one
  // contraction thread per arc.
  void expand_merrill(SimContext& ctx, HostModule& h, PrArgs a) {
    if (!merrill_.all) {
      std::vector<uint32_t> all(std::max<uint32_t>(a.g.n, 1));
      std::iota(all.begin(), all.end(), 0u);
      merrill_.all = h.upload(all, "all_vertices");
      merrill_.edges = h.malloc(4ull * std::max<uint32_t>(a.g.m, 1), "edge_frontier");
      merrill_.edge_count = h.malloc(4, "edge_count");
    }
    MerrillLevel m;
    m.g = a.g;
    m.in = merrill_.all;
    m.edges = merrill_.edges;
    m.edge_count = merrill_.edge_count;
    m.n = a.g.n;
    m.costs = a.weights;
    m.rank = a.rank;
    h.memset(m.edge_count, 0, 4);
    launch_threads(
        h, "pr_merrill_expand", m.n, [m](Warp& w) { return merrill_expand(w, m); },
        merrill_shared_bytes(block_, ctx.platform.sm.warp_size));
    if (!a.g.m) return;
    a.src = {merrill_.edges, a.weights, a.g.m, {}};
    launch_threads(h, "pr_contract", a.g.m, [a](Warp& w) { return pr_contract(w, a); });
  }

  struct MerrillArrays {
    Addr all = 0, edges = 0, edge_count = 0;
  } merrill_;
  std::string problem_;
  struct ScuArrays {
    Addr count = 0, share = 0, edges = 0, order = 0;
    ScuHash hash;
  } scu_;
  uint32_t group_sets_ = 0;
  bool contract_iru_ = false;
  uint64_t rounds_ = 10;
  std::string version_;
  IruContractions iru_;
  std::future<std::vector<double>> reference_;
  double l1_ = 0;
  std::vector<float> rank_;
};

} // namespace

WorkloadEntry pagerank_workload() {
  WorkloadInfo info{"pagerank",
                    "push PageRank (Pannotia style); commutative device float atomicAdd per edge",
                    graph_args({{"iterations", "10", "PageRank rounds (fixed; damping 0.85)"},
                                {"version", "gpu",
                                 "gpu (pr_push per vertex) | edge-frontier (expansion, then a "
                                 "contraction per arc) | iru (its contraction on the IRU) | "
                                 "scu (its expansion on the SCU) | scu-group (scu with the "
                                 "arcs grouped by the line of their target) | iscu (one SCU "
                                 "operation whose arcs the IRU partitions merge by head, "
                                 "adding their shares) | gpu-merrill (the thesis' GPU "
                                 "baseline: a load-balanced expansion as BFS's, then the "
                                 "contraction)"},
                                {"group_sets", "0",
                                 "scu-group: sets of the grouping table (0 = lines of the "
                                 "rank array / ways)"},
                                contract_arg()})};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<PageRank>(a); }};
}

} // namespace tlmgpu
