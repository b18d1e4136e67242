// `bfs-frontier`: queue-based BFS in the thesis' phase structure (seed-003
// §1.3, §2.7): each level expands the vertex frontier into an edge frontier
// and contracts that into the next vertex frontier. A vertex joins a
// frontier once: the thread that wins atomicCAS(depth[u], inf, L + 1) keeps
// it. Versions (`version=`):
//   gpu  one kernel per level expands in SIMT lanes and appends winners to
//        the next frontier with atomicAdd on a counter (the baseline);
//   scu  GPU `prepare` (index, count per frontier vertex), SCU access-
//        expansion compaction (the edge frontier), GPU `contract` (the CAS,
//        a keep flag per edge), SCU data compaction (the next frontier);
//        needs a platform with an SCU (examples/scu/);
//   scu-filter  scu with the expansion filtered inline by the SCU's unique
//        filter (a hash table in device memory, through L2);
//   iscu  scu-filter on the ISCU (scu.filter_unit = iru, examples/iscu/): the
//        IRU partitions filter the expansion within each operation, no
//        table in memory;
//   edge-frontier  GPU `bfs_expand` writes the edge frontier (expand_arcs:
//        warp-cooperative for long lists), GPU `bfs_contract` claims one element
//        per thread and appends the winners (the thesis' phases, seed-003
//        §1.3, without the SCU);
//   iru  edge-frontier with bfs_contract's elements from load_iru (thesis
//        Fig. 5.8, reorder only; `--set iru.merge=min_u32` also drops equal
//        destinations, which the CAS would refuse anyway); needs an IRU;
//   gpu-merrill  the thesis' GPU baseline (merrill.hpp): CTA-, warp-
//        and scan-based gathering in the expansion, compaction by CTA
//        scans with one atomicAdd per CTA in both kernels.
// Depths are checked exactly against a CPU queue BFS.
#include "workloads/graph_apps/bfs_frontier.hpp"

#include "workloads/graph_apps/bfs.hpp"

#include "models/host/host_module.hpp"
#include "models/iru/iru_module.hpp"
#include "models/scu/scu_module.hpp"
#include "workloads/graph_apps/edge_frontier.hpp"
#include "workloads/graph_apps/graph_app.hpp"
#include "workloads/graph_apps/merrill.hpp"
#include "workloads/graph_apps/sssp_scu.hpp"

namespace tlmgpu {
namespace {

using namespace graph_apps;

struct Level {
  DeviceCsr g;
  Addr depth = 0, in = 0, out = 0, count = 0, index = 0, degree = 0, keep = 0;
  uint32_t n = 0, level = 0;      // n: elements of `in`
  Addr edges = 0, edge_count = 0; // edge-frontier, iru: the edge frontier
  ContractSource src;             // bfs_contract's elements
};

// Visits u at depth L + 1 if nobody has: returns the lanes that won it.
WarpOp<Lanes<uint32_t>> claim(Warp& w, const Level& a, const Lanes<uint32_t>& u, Mask m) {
  return w.atomic_cas<uint32_t>(address_of<uint32_t>(a.depth, u), Lanes<uint32_t>(kInf),
                                Lanes<uint32_t>(a.level + 1), m);
}

// Lanes that win u append it to the next frontier (`out`).
WarpTask claim_append(Warp& w, const Level& a, const Lanes<uint32_t>& u, Mask m) {
  const Lanes<uint32_t> old = co_await claim(w, a, u, m);
  const Mask won = m & (old == Lanes<uint32_t>(kInf));
  if (won.empty()) co_return;
  const Lanes<uint32_t> slot =
      co_await w.atomic<uint32_t>(AtomicOp::Add, Lanes<Addr>(a.count), Lanes<uint32_t>(1u), won);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.out, slot), u, won);
}

// gpu: lane i expands in[i]; winners append themselves to `out`.
WarpTask expand_contract(Warp& w, Level a) {
  const Mask m = first_threads(w, a.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> v =
      co_await w.load<uint32_t>(address_of<uint32_t>(a.in, w.global_thread_id()), m);
  co_await for_each_edge(w, a.g, v, m, false, [a](Warp& wk, EdgeLanes e, Mask em) -> WarpTask {
    co_await claim_append(wk, a, e.dst, em);
  });
}

// edge-frontier, iru, step 1: lane i writes in[i]'s out-arcs into `edges`.
WarpTask expand_edges(Warp& w, Level a) {
  const Mask m = first_threads(w, a.n);
  if (m.empty()) co_return;
  const Lanes<uint32_t> v =
      co_await w.load<uint32_t>(address_of<uint32_t>(a.in, w.global_thread_id()), m);
  co_await expand_arcs(
      w, a.g, v, m, a.edge_count, false, v,
      [a](Warp& wk, EdgeLanes e, Lanes<uint32_t> slot, Lanes<uint32_t>, Mask em) -> WarpTask {
        co_await wk.store<uint32_t>(address_of<uint32_t>(a.edges, slot), e.dst, em);
      });
}

// edge-frontier, iru, step 2 (Fig. 5.8): one edge-frontier element per thread.
WarpTask contract_edges(Warp& w, Level a) {
  ContractElement e;
  co_await take_element(w, a.src, e, kIruIndex);
  if (e.active.any()) co_await claim_append(w, a, e.edge, e.active);
}

// scu, step 1: the CSR row start and degree of each frontier vertex.
WarpTask prepare(Warp& w, Level a) {
  const Mask m = first_threads(w, a.n);
  if (m.empty()) co_return;
  const Lanes<uint64_t> i = w.global_thread_id();
  const Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, i), m);
  Lanes<uint32_t> lo, degree;
  co_await csr_row(w, a.g, v, m, lo, degree);
  co_await w.compute(1);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.index, i), lo, m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.degree, i), degree, m);
}

// iscu with contract=iru: the same claim on an element from load_iru, its
// flag at the element's original position (the IRU reorders, and merges
// nothing here: every position gets its flag).
WarpTask contract_iru(Warp& w, Level a) {
  ContractElement e;
  co_await take_element(w, a.src, e, kIruIndex | kIruPosition);
  if (e.active.empty()) co_return;
  const Lanes<uint32_t> old = co_await claim(w, a, e.edge, e.active);
  const Lanes<uint32_t> won =
      select(old == Lanes<uint32_t>(kInf), Lanes<uint32_t>(1u), Lanes<uint32_t>(0u));
  co_await w.store<uint32_t>(address_of<uint32_t>(a.keep, e.pos), won, e.active);
}

// scu, step 3: lane i claims edge-frontier element i; keep[i] = it won.
WarpTask contract(Warp& w, Level a) {
  const Mask m = first_threads(w, a.n);
  if (m.empty()) co_return;
  const Lanes<uint64_t> i = w.global_thread_id();
  const Lanes<uint32_t> u = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, i), m);
  const Lanes<uint32_t> old = co_await claim(w, a, u, m);
  const Lanes<uint32_t> won =
      select(old == Lanes<uint32_t>(kInf), Lanes<uint32_t>(1u), Lanes<uint32_t>(0u));
  co_await w.store<uint32_t>(address_of<uint32_t>(a.keep, i), won, m);
}

class BfsFrontier : public GraphApp {
public:
  explicit BfsFrontier(const WorkloadArgs& a) : GraphApp("bfs-frontier", a, false) {
    source_ = pick_source(a);
    version_ = edge_frontier_version(a, {"scu", "scu-filter", "iscu", "gpu-merrill"});
    filter_ = version_ == "scu-filter" || version_ == "iscu";
    scu_ = version_ == "scu" || filter_;
    hash_sets_ = uint32_t(a.u64("hash_sets", 0, 1u << 26));
    contract_iru_ = iscu_contract_on_iru(a, version_);
  }

  // Before the simulation starts: version=scu needs an SCU on the platform.
  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    check_scu_version(ctx, version_, true);
    iru_.elaborate(ctx, version_, block_, contract_iru_);
    GraphApp::elaborate(ctx, gpu);
  }

protected:
  void run(SimContext& ctx, HostModule& h, const DeviceCsr& g) override {
    ScuModule* scu = scu_ ? ScuModule::of(ctx) : nullptr;
    std::vector<uint32_t> init(g.n, kInf);
    init[source_] = 0;
    const uint64_t edges = std::max<uint32_t>(g.m, 1);
    // A vertex enters a frontier once: n entries bound either frontier.
    std::vector<uint32_t> first(g.n, 0);
    first[0] = source_;
    Level a{g,
            h.upload(init, "depth"),
            h.upload(first, "frontier_a"),
            h.malloc(4ull * g.n, "frontier_b"),
            h.malloc(4, "count"),
            0,
            0,
            0,
            1,
            0,
            0,
            0,
            {}};
    Addr edge_frontier = 0;
    if (scu) {
      a.index = h.malloc(4ull * g.n, "index");
      a.degree = h.malloc(4ull * g.n, "degree");
      edge_frontier = h.malloc(4 * edges, "edge_frontier");
      a.keep = h.malloc(4 * edges, "keep");
    }
    if (version_ == "edge-frontier" || version_ == "iru" || version_ == "gpu-merrill") {
      a.edges = h.malloc(4 * edges, "edge_frontier");
      a.edge_count = h.malloc(4, "edge_count");
    }
    if (filter_ && version_ == "scu-filter") {
      // The expansion's unique filter (its own table, seed-003 P13): 16-way
      // sets, by default as many entries as vertices.
      hash_.sets = hash_sets_ ? hash_sets_ : std::max<uint32_t>(1, (g.n + 15) / 16);
      hash_.base = h.malloc(hash_.bytes(), "scu_filter_hash");
      h.memset(hash_.base, 0xff, hash_.bytes());
    }
    for (; a.n; ++a.level) {
      if (iterations_ == iteration_cap()) {
        converged_ = false;
        break;
      }
      if (scu)
        a.n = level_scu(ctx, h, *scu, a, edge_frontier);
      else if (version_ == "gpu-merrill")
        a.n = level_merrill(ctx, h, a);
      else if (a.edges)
        a.n = level_edges(ctx, h, a);
      else
        a.n = level_gpu(h, a);
      std::swap(a.in, a.out);
      ++iterations_;
    }
    depth_ = h.download<uint32_t>(a.depth, g.n);
  }

  void start_reference() override {
    reference_ = std::async(std::launch::async, [this] { return cpu_bfs(graph_, source_); });
  }
  std::string verify() override {
    const std::vector<uint32_t> ref = reference_.get();
    if (std::string p = iru_.problem(); !p.empty()) return p;
    return first_mismatch(depth_, ref, "depth");
  }
  void corrupt() override { depth_[source_] ^= 1; }
  void write_result(const std::filesystem::path& f) override {
    write_vertex_values(
        f, "depth (BFS hops from vertex " + vertex_label(source_) + "; inf = unreachable)",
        [this](uint32_t v) { return fmt(depth_[v]); });
  }
  std::string extra_summary() const override {
    return source_summary(source_) + iru_.summary(version_);
  }

private:
  uint32_t level_gpu(HostModule& h, const Level& a) {
    h.memset(a.count, 0, 4);
    launch_threads(h, "bfs_expand_contract", a.n, [a](Warp& w) { return expand_contract(w, a); });
    h.synchronize();
    return h.download<uint32_t>(a.count, 1)[0];
  }
  uint32_t level_edges(SimContext& ctx, HostModule& h, Level a) {
    h.memset(a.edge_count, 0, 4);
    launch_threads(h, "bfs_expand", a.n, [a](Warp& w) { return expand_edges(w, a); });
    h.synchronize();
    const uint32_t ne = h.download<uint32_t>(a.edge_count, 1)[0];
    if (!ne) return 0;
    // No merge named: the platform's iru.merge (none by default, as the
    // thesis' BFS: reorder only).
    a.src = iru_.arm(ctx, h, {a.depth, 4, a.edges, 0, ne, {}, {}, {}});
    h.memset(a.count, 0, 4);
    launch_threads(h, "bfs_contract", ne, [a](Warp& w) { return contract_edges(w, a); });
    h.synchronize();
    iru_.finish(ctx);
    return h.download<uint32_t>(a.count, 1)[0];
  }
  // gpu-merrill: both kernels reserve their output per CTA on a counter
  // the host zeroes and reads back, as edge-frontier does.
  uint32_t level_merrill(SimContext& ctx, HostModule& h, const Level& a) {
    MerrillLevel m{a.g, a.depth, a.in, a.out, a.count, a.edges, a.edge_count, a.n, a.level};
    const uint32_t smem = merrill_shared_bytes(block_, ctx.platform.sm.warp_size);
    h.memset(a.edge_count, 0, 4);
    launch_threads(
        h, "bfs_merrill_expand", m.n, [m](Warp& w) { return merrill_expand(w, m); }, smem);
    h.synchronize();
    m.n = h.download<uint32_t>(a.edge_count, 1)[0];
    if (!m.n) return 0;
    h.memset(a.count, 0, 4);
    launch_threads(
        h, "bfs_merrill_contract", m.n, [m](Warp& w) { return merrill_contract(w, m); }, smem);
    h.synchronize();
    return h.download<uint32_t>(a.count, 1)[0];
  }
  uint32_t level_scu(SimContext& ctx, HostModule& h, ScuModule& scu, Level a, Addr edge_frontier) {
    launch_threads(h, "bfs_prepare", a.n, [a](Warp& w) { return prepare(w, a); });
    h.synchronize();
    ScuCommand ex;
    ex.op = ScuOp::AccessExpansion;
    ex.n = a.n;
    ex.data = a.g.col_indices;
    ex.index = a.index;
    ex.count = a.degree;
    ex.out = edge_frontier;
    ex.out_capacity = std::max<uint32_t>(a.g.m, 1);
    if (filter_) {
      // Inline unique filtering (the thesis' enhanced BFS): a vertex already
      // in an edge frontier, this level or an earlier one, is not expanded
      // again; the CAS in `contract` stays the exact check. iscu: no table
      // (hash_ stays empty), the IRU drops duplicates of this expansion.
      ex.filter = ScuFilter::Unique;
      ex.hash = hash_;
      ex.fresh = first_expansion_; // the ISCU's remembered IDs (iru.filter_residue)
      first_expansion_ = false;
    }
    const uint64_t ne = scu.execute(ex, h.gpu().device_memory);
    if (!ne) return 0;
    Level c = a;
    c.in = edge_frontier;
    c.n = uint32_t(ne);
    if (contract_iru_) {
      // Reorder only (no merge): every position must get its keep flag.
      c.src = iru_.arm(ctx, h, {a.depth, 4, edge_frontier, 0, ne, IruMerge::None, {}, {}});
      launch_threads(h, "bfs_contract", c.n, [c](Warp& w) { return contract_iru(w, c); });
      h.synchronize();
      iru_.finish(ctx);
    } else {
      launch_threads(h, "bfs_contract", c.n, [c](Warp& w) { return contract(w, c); });
      h.synchronize();
    }
    ScuCommand dc;
    dc.op = ScuOp::Data;
    dc.n = ne;
    dc.data = edge_frontier;
    dc.mask = a.keep;
    dc.out = a.out;
    dc.out_capacity = a.g.n;
    return uint32_t(scu.execute(dc, h.gpu().device_memory));
  }

  uint32_t source_ = 0, hash_sets_ = 0;
  std::string version_;
  bool filter_ = false, scu_ = false, contract_iru_ = false;
  bool first_expansion_ = true; // the next SCU expansion starts the traversal
  IruContractions iru_;
  ScuHash hash_;
  std::vector<uint32_t> depth_;
  std::future<std::vector<uint32_t>> reference_;
};

} // namespace

WorkloadEntry bfs_frontier_workload() {
  WorkloadInfo info{
      "bfs-frontier",
      "queue-based BFS, expansion and contraction phases (seed-003): version=gpu "
      "(atomic queue), scu (compactions on the stream compaction unit; scu-filter, iscu: the "
      "expansion filtered in memory or in the IRU), edge-frontier (expansion "
      "and contraction kernels), iru (the contraction on the IRU) or gpu-merrill (the thesis' "
      "GPU baseline: cooperative gathering, scan-based compaction)",
      graph_args(
          {source_arg(),
           {"version", "gpu", "gpu | scu | scu-filter | iscu | edge-frontier | iru | gpu-merrill"},
           {"hash_sets", "0", "scu-filter: sets of the 16-way filter table (0 = vertices / 16)"},
           contract_arg()})};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<BfsFrontier>(a); }};
}

} // namespace tlmgpu
