// Breadth-first search on the task runtime (seed-004 §6.3): the graph in
// `parts` block partitions (GPU_READ blocks holding each partition's CSR),
// each partition's levels a block of its own: LC (min) in variant=lc, synced
// every `k` levels, or GPU_WRITE in variant=partition (written back by every
// task). Per level, one GPU task per partition with a non-empty frontier:
// it lowers the level of each frontier vertex in its copy of the levels
// (label-correcting: a vertex whose copy already holds a level <= this one
// is not expanded) and writes the neighbours it reached to its output block
// (the reference's per-GPU next-frontier buffer, sorted and put to the
// host); the driver splits them by partition, without duplicates, into the
// next level's frontier blocks. Stale LC copies expand vertices again (the
// k-level algorithm's redundant work); after the last level an LC sync
// collapses every partition, and the levels must equal a serial BFS.
// Each level task also has its real kernel (bfs_kernels.hpp) for a node
// whose GPUs are the full GPU model; the LC merges of its copies stay the
// runtime's, so the check then checks the GPUs' levels under LC semantics.
#include "workloads/node_apps/bfs_kernels.hpp"
#include "workloads/node_apps/node_app.hpp"

#include "workloads/graph/csr_graph.hpp"
#include "workloads/graph/readers.hpp"
#include "workloads/graph_apps/bfs.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace tlmgpu {
namespace {

constexpr uint32_t kInf = 0xffffffffu;

uint32_t get(const std::vector<uint8_t>& b, size_t i) {
  uint32_t v;
  std::memcpy(&v, b.data() + 4 * i, 4);
  return v;
}
void put(std::vector<uint8_t>& b, size_t i, uint32_t v) {
  std::memcpy(b.data() + 4 * i, &v, 4);
}

class BfsTasks : public NodeApp {
public:
  explicit BfsTasks(const WorkloadArgs& a)
      : parts_(uint32_t(a.u64("parts", 1, 1024))), k_(a.u64("k", 1, 1000)) {
    variant_ = a.str("variant");
    if (variant_ != "lc" && variant_ != "partition")
      throw ConfigError("--arg variant=" + variant_ + ": expected lc or partition");
    try {
      graph_ = graph::load_graph(a.str("input"), graph::GraphBuildOptions::simple_undirected());
    } catch (const std::exception& e) {
      throw ConfigError("workload argument input: " + std::string(e.what()));
    }
    const uint64_t n = graph_.num_vertices();
    if (n == 0) throw ConfigError("workload argument input: the graph has no vertices");
    if (parts_ > n) throw ConfigError("--arg parts: more partitions than vertices");
    if (a.str("root") == "auto") {
      for (uint32_t v = 1; v < n; ++v)
        if (graph_.degree(v) > graph_.degree(root_)) root_ = v;
    } else {
      root_ = uint32_t(a.u64("root", 0, n - 1));
    }
  }

  void program(NodeDriver& d) override {
    rt::Runtime& rt = d.rt;
    const uint32_t n = uint32_t(graph_.num_vertices());
    const bool lc = variant_ == "lc";
    for (uint32_t p = 0; p < parts_; ++p) {
      lo_.push_back(uint32_t(uint64_t(n) * p / parts_));
    }
    lo_.push_back(n);
    for (uint32_t p = 0; p < parts_; ++p) {
      const uint32_t rows = lo_[p + 1] - lo_[p];
      const uint32_t e0 = graph_.row_offsets[lo_[p]], e1 = graph_.row_offsets[lo_[p + 1]];
      const rt::Guid g =
          rt.create_db(4 * (rows + 1 + (e1 - e0)), rt::DbType::Read, rt::MergeOp::Copy, p, true);
      std::vector<uint8_t>& h = rt.db(g).host;
      for (uint32_t r = 0; r <= rows; ++r)
        put(h, r, graph_.row_offsets[lo_[p] + r] - e0);
      for (uint32_t e = e0; e < e1; ++e)
        put(h, rows + 1 + (e - e0), graph_.col_indices[e]);
      graph_db_.push_back(g);
      const rt::Guid v = rt.create_db(4 * rows, lc ? rt::DbType::Lc : rt::DbType::Write,
                                      rt::MergeOp::Min, p, true);
      std::fill(rt.db(v).host.begin(), rt.db(v).host.end(), 0xff);
      visited_.push_back(v);
    }
    std::vector<std::vector<uint32_t>> frontier(parts_);
    frontier[part_of(root_)].push_back(root_);
    for (uint32_t level = 0;; ++level) {
      std::vector<rt::TaskId> ids;
      std::vector<rt::Guid> outs;
      for (uint32_t p = 0; p < parts_; ++p) {
        if (frontier[p].empty()) continue;
        ids.push_back(d.add(expand(rt, p, level, frontier[p], outs)));
      }
      if (ids.empty()) break;
      d.wait_all(ids);
      levels_ = level + 1;
      for (auto& f : frontier)
        f.clear();
      for (rt::Guid o : outs) {
        const std::vector<uint8_t>& b = rt.db(o).host;
        for (uint32_t i = 0, c = get(b, 0); i < c; ++i) {
          const uint32_t u = get(b, 1 + i);
          frontier[part_of(u)].push_back(u);
        }
      }
      for (auto& f : frontier) {
        std::sort(f.begin(), f.end());
        f.erase(std::unique(f.begin(), f.end()), f.end());
      }
      if (lc && (level + 1) % k_ == 0) d.wait(sync(d));
    }
    if (lc) d.wait(sync(d));
    seconds_ = d.now_seconds();
  }

  std::string check(rt::Runtime& rt, std::ostream& out) override {
    const std::vector<uint32_t> ref = graph_apps::cpu_bfs(graph_, root_);
    uint32_t deepest = 0;
    for (uint32_t p = 0; p < parts_; ++p) {
      const std::vector<uint8_t>& h = rt.db(visited_[p]).host;
      for (uint32_t v = lo_[p]; v < lo_[p + 1]; ++v) {
        const uint32_t got = get(h, v - lo_[p]);
        if (got != ref[v]) {
          std::ostringstream e;
          e << "vertex " << v << ": level "
            << (got == kInf ? std::string("inf") : std::to_string(got)) << ", the serial BFS says "
            << (ref[v] == kInf ? std::string("inf") : std::to_string(ref[v]));
          return e.str();
        }
        if (ref[v] != kInf) deepest = std::max(deepest, ref[v]);
      }
    }
    out << "  bfs " << variant_ << " from " << root_ << ": " << levels_ << " levels run ("
        << deepest + 1 << " in a serial BFS), " << expansions_ << " expansions, "
        << rt.stats().syncs.value() << " LC syncs, " << seconds_ * 1e3 << " ms\n";
    return "";
  }

  std::string full_gpu_refusal() const override { return ""; }

  nlohmann::json metrics() const override {
    return {{"seconds", seconds_}, {"levels", levels_}, {"expansions", expansions_}};
  }

private:
  uint32_t part_of(uint32_t v) const {
    return uint32_t(std::upper_bound(lo_.begin(), lo_.end(), v) - lo_.begin()) - 1;
  }

  rt::TaskSpec expand(rt::Runtime& rt, uint32_t p, uint32_t level,
                      const std::vector<uint32_t>& front, std::vector<rt::Guid>& outs) {
    uint64_t reach = 0;
    for (uint32_t v : front)
      reach += graph_.degree(v);
    const rt::Guid f = rt.create_db(4 * front.size(), rt::DbType::Read, rt::MergeOp::Copy, p, true);
    for (size_t i = 0; i < front.size(); ++i)
      put(rt.db(f).host, i, front[i]);
    const rt::Guid o = rt.create_db(4 * (1 + reach), rt::DbType::Write, rt::MergeOp::Copy, p, true);
    outs.push_back(o);
    rt::TaskSpec t;
    t.name = "bfs" + std::to_string(p);
    t.deps = {{visited_[p], rt::Mode::Normal},
              {graph_db_[p], rt::Mode::Normal},
              {f, rt::Mode::Normal},
              {o, rt::Mode::Zero}};
    t.paramc = 2;
    t.cost = {8 * front.size() + 8 * reach, reach, 32};
    const uint32_t base = lo_[p], rows = lo_[p + 1] - lo_[p];
    const uint64_t nf = front.size();
    t.kernel = task_kernel(t.name, std::min(nf, bfs::kMaxThreads),
                           [this, nf, base, rows, level](Warp& w, const std::vector<Addr>& b) {
                             return bfs::expand(w, b[0], b[1], b[2], b[3], nf, base, rows, level,
                                                &expansions_);
                           });
    t.body = [this, level, base, rows](rt::Views& v) {
      std::vector<uint8_t>& seen = *v[0];
      const std::vector<uint8_t>& g = *v[1];
      const std::vector<uint8_t>& fr = *v[2];
      std::vector<uint8_t>& out = *v[3];
      uint32_t count = 0;
      for (size_t i = 0; i < fr.size() / 4; ++i) {
        const uint32_t x = get(fr, i) - base;
        if (get(seen, x) <= level) continue; // already at this level or nearer
        put(seen, x, level);
        ++expansions_;
        for (uint32_t e = get(g, x); e < get(g, x + 1); ++e)
          put(out, 1 + count++, get(g, rows + 1 + e));
      }
      put(out, 0, count);
    };
    return t;
  }

  rt::TaskId sync(NodeDriver& d) {
    rt::TaskSpec t;
    t.name = "lc-sync";
    t.gpu = false;
    for (rt::Guid v : visited_)
      t.deps.push_back({v, rt::Mode::LcSync});
    return d.add(std::move(t));
  }

  uint32_t parts_;
  uint64_t k_;
  std::string variant_;
  graph::CsrGraph graph_;
  uint32_t root_ = 0;
  std::vector<uint32_t> lo_;
  std::vector<rt::Guid> graph_db_, visited_;
  uint32_t levels_ = 0;
  uint64_t expansions_ = 0;
  double seconds_ = 0;
};

} // namespace

NodeAppEntry bfs_tasks_entry() {
  return {{"bfs-tasks",
           "level-synchronous BFS over graph partitions on the task runtime: LC levels (min) "
           "synced every k levels, or strict partitions (seed-004 §6.3)",
           {{"input", "gen:rmat?scale=12&ef=16&seed=1", "graph file or generator (undirected)"},
            {"parts", "8", "block partitions of the vertices"},
            {"root", "auto", "source vertex (auto: the most out-arcs)"},
            {"variant", "lc", "lc (LC levels, min-synced) or partition (GPU_WRITE levels)"},
            {"k", "2", "lc: sync every k levels"}}},
          [](const WorkloadArgs& a) { return std::make_unique<BfsTasks>(a); }};
}

} // namespace tlmgpu
