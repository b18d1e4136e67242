// The location-consistency semantics on a node (seed-004 §7.6, T-LC-1..5),
// one scenario per run (--arg test=...), each checked against what LC (or
// the strict baseline, type=write) must give:
//   min       GPUs 3, 4, 7 (or all, on fewer than 8) write gpu+1 into every
//             cell of an LC block at 0xFFFFFFFF; a min-sync gives min+1
//   latest    the same GPUs, one after the other; 'latest' keeps the copy
//             acquired last (host-serial: its value)
//   copy      'copy', host-serial: the highest GPU id wins
//             (latest and copy under the tree: its merge kernel copies, so
//             the result follows the tree order; checked to be a writer's)
//   add       every GPU runs `rounds` tasks adding 1 in NO_COPY mode (device
//             copies start at 0); the sync gives host + gpus * rounds, and a
//             second sync changes nothing
//   stale     GPU1 caches X = 0; GPU0 then writes X = 1; a later task on GPU1
//             reads X: 0 under LC (its own copy), 1 under strict (type=write);
//             after a max-sync a re-acquire reads 1 under both
//   once      an add-sync, then every GPU sweeps (gc=pre_edt tasks): the host
//             is unchanged and no copy is merged a second time
// Every GPU task also has its real kernel (below) for a node whose GPUs are
// the full GPU model; the merges stay the runtime's, so the checks then
// check LC on what the GPUs stored.
#include "workloads/node_apps/node_app.hpp"
#include "workloads/node_apps/task_kernel.hpp"

#include <cstring>
#include <sstream>

namespace tlmgpu {
namespace {

using rt::Mode;

uint32_t word(const std::vector<uint8_t>& b, size_t i) {
  uint32_t v;
  std::memcpy(&v, b.data() + 4 * i, 4);
  return v;
}
void set_all(std::vector<uint8_t>& b, uint32_t v) {
  for (size_t i = 0; i < b.size() / 4; ++i)
    std::memcpy(b.data() + 4 * i, &v, 4);
}

// The real kernels, grid-stride over the `n` u32 cells of block x: every
// cell set to `v` (fill), or loaded and stored + 1 (inc: the add test's
// NO_COPY copy starts at 0, so each task's delta is what it stores).
WarpTask cells_kernel(Warp& w, Addr x, uint64_t n, bool inc, uint32_t v) {
  for (Lanes<uint64_t> i = w.global_thread_id();; i += Lanes<uint64_t>(w.grid_threads())) {
    const Mask m = w.active() & (i < Lanes<uint64_t>(n));
    if (m.empty()) co_return;
    Lanes<uint32_t> y(v);
    if (inc) {
      y = co_await w.load<uint32_t>(address_of<uint32_t>(x, i), m);
      co_await w.compute(1);
      y += Lanes<uint32_t>(1);
    }
    co_await w.store<uint32_t>(address_of<uint32_t>(x, i), y, m);
  }
}
// The stale test's read: cell 0 of `x` into the `seen` block (one thread).
WarpTask read_kernel(Warp& w, Addr x, Addr seen) {
  const Mask m = w.active() & (w.global_thread_id() < Lanes<uint64_t>(1));
  if (m.empty()) co_return;
  const Lanes<uint32_t> y =
      co_await w.load<uint32_t>(address_of<uint32_t>(x, Lanes<uint64_t>(0)), m);
  co_await w.store<uint32_t>(address_of<uint32_t>(seen, Lanes<uint64_t>(0)), y, m);
}
// The once test's task only takes its block (so the GPU sweeps first).
WarpTask idle_kernel(Warp&) {
  co_return;
}

std::shared_ptr<const NodeKernel> fill(uint64_t n, uint32_t v) {
  return task_kernel(
      "fill", std::min<uint64_t>(n, 1024),
      [n, v](Warp& w, const std::vector<Addr>& b) { return cells_kernel(w, b[0], n, false, v); });
}

class LcSemantics : public NodeApp {
public:
  explicit LcSemantics(const WorkloadArgs& a)
      : test_(a.str("test")), type_(a.str("type")), cells_(a.u64("cells", 1, 1u << 26)),
        rounds_(a.u64("rounds", 1, 1000)) {
    static const char* tests[] = {"min", "latest", "copy", "add", "stale", "once"};
    if (std::find(std::begin(tests), std::end(tests), test_) == std::end(tests))
      throw ConfigError("--arg test=" + test_ + ": expected min, latest, copy, add, stale or once");
    if (type_ != "lc" && type_ != "write")
      throw ConfigError("--arg type=" + type_ + ": expected lc or write");
    if (type_ == "write" && test_ != "stale")
      throw ConfigError("--arg type=write: only the stale test has a strict variant");
  }

  void program(NodeDriver& d) override {
    rt::Runtime& rt = d.rt;
    gpus_ = rt.gpus();
    if (gpus_ >= 8)
      writers_ = {3, 4, 7};
    else
      for (uint32_t g = 0; g < gpus_; ++g)
        writers_.push_back(g);
    if (test_ == "stale") return stale(d);
    const rt::MergeOp op = test_ == "min"      ? rt::MergeOp::Min
                           : test_ == "latest" ? rt::MergeOp::Latest
                           : test_ == "copy"   ? rt::MergeOp::Copy
                                               : rt::MergeOp::Add;
    x_ = rt.create_db(4 * cells_, rt::DbType::Lc, op, 0, true);
    set_all(rt.db(x_).host, test_ == "min" ? 0xFFFFFFFFu : 5);
    std::vector<rt::TaskId> done;
    rt::TaskId prev = 0;
    bool chained = false;
    if (test_ == "add" || test_ == "once") {
      for (uint32_t g = 0; g < gpus_; ++g)
        for (uint64_t r = 0; r < rounds_; ++r)
          done.push_back(d.add(gpu_task(
              g, {{x_, Mode::Zero}}, {},
              [](rt::Views& v) {
                for (size_t i = 0; i < v[0]->size() / 4; ++i)
                  set(*v[0], i, word(*v[0], i) + 1);
              },
              task_kernel("inc", std::min<uint64_t>(cells_, 1024),
                          [n = cells_](Warp& w, const std::vector<Addr>& b) {
                            return cells_kernel(w, b[0], n, true, 0);
                          }))));
    } else {
      for (uint32_t g : writers_) {
        // 'latest' and 'copy': one after the other, so 'acquired last' is known
        std::vector<rt::TaskId> after;
        if (chained && test_ != "min") after.push_back(prev);
        prev = d.add(gpu_task(
            g, {{x_, Mode::Normal}}, after, [g](rt::Views& v) { set_all(*v[0], g + 1); },
            fill(cells_, g + 1)));
        chained = true;
        done.push_back(prev);
      }
    }
    d.wait(sync(d, done));
    result_ = rt.db(x_).host;
    if (test_ == "add") {
      d.wait(sync(d, {}));
      second_ = rt.db(x_).host;
    }
    if (test_ == "once") {
      // every GPU runs a task on another block; with gc=pre_edt each launch
      // sweeps its GPU first, which would merge any copy the sync had left
      const rt::Guid y = rt.create_db(64, rt::DbType::Read, rt::MergeOp::Copy, 0, true);
      std::vector<rt::TaskId> ids;
      for (uint32_t g = 0; g < gpus_; ++g)
        ids.push_back(d.add(gpu_task(g, {{y, Mode::Normal}}, {}, nullptr,
                                     task_kernel("idle", 1, [](Warp& w, const std::vector<Addr>&) {
                                       return idle_kernel(w);
                                     }))));
      d.wait_all(ids);
      second_ = rt.db(x_).host;
    }
  }

  std::string check(rt::Runtime& rt, std::ostream& out) override {
    std::ostringstream e;
    auto expect_all = [&](const std::vector<uint8_t>& b, uint32_t want, const char* what) {
      for (size_t i = 0; i < cells_; ++i)
        if (word(b, i) != want) {
          e << what << ": cell " << i << " is " << word(b, i) << ", expected " << want;
          return false;
        }
      return true;
    };
    uint32_t want = 0;
    if (test_ == "min") want = *std::min_element(writers_.begin(), writers_.end()) + 1;
    if (test_ == "copy" || test_ == "latest") want = writers_.back() + 1;
    if (test_ == "add" || test_ == "once") want = 5 + uint32_t(gpus_ * rounds_);
    if (test_ == "stale") {
      const uint32_t before = type_ == "lc" ? 0 : 1;
      if (seen_before_ != before)
        e << "the read after the write saw " << seen_before_ << ", expected " << before
          << (type_ == "lc" ? " (LC: GPU1's own stale copy)" : " (strict: the write)");
      else if (seen_after_ != 1)
        e << "the read after the sync saw " << seen_after_ << ", expected 1";
      out << "  stale: read " << seen_before_ << " before the sync, " << seen_after_ << " after\n";
      return e.str();
    }
    const bool tree_copy = (test_ == "latest" || test_ == "copy") && rt.spec().lc_sync == "tree";
    if (tree_copy) { // the tree's merge kernel copies: some writer's value, by tree order
      const uint32_t v = word(result_, 0);
      if (std::find(writers_.begin(), writers_.end(), v - 1) == writers_.end())
        e << test_ << " (tree): " << v << " is no writer's value";
    } else if (!expect_all(result_, want, test_.c_str())) {
      return e.str();
    }
    if ((test_ == "add" || test_ == "once") && !expect_all(second_, want, "after the second step"))
      return e.str();
    if (test_ == "once" && rt.stats().eviction_merges.value() != 0)
      e << "a synced copy was merged again on eviction (" << rt.stats().eviction_merges.value()
        << " eviction merges)";
    out << "  " << test_ << ": every cell " << word(result_, 0) << " after the sync ("
        << rt.stats().syncs.value() << " syncs, " << rt.stats().copies_merged.value()
        << " copies merged)\n";
    return e.str();
  }

  std::string full_gpu_refusal() const override { return ""; }

private:
  static void set(std::vector<uint8_t>& b, size_t i, uint32_t v) {
    std::memcpy(b.data() + 4 * i, &v, 4);
  }
  static rt::TaskSpec gpu_task(uint32_t g, std::vector<rt::Dep> deps, std::vector<rt::TaskId> after,
                               rt::Body body, std::shared_ptr<const NodeKernel> kernel) {
    rt::TaskSpec t;
    t.name = "gpu" + std::to_string(g);
    t.gpu_to_run_on = int(g);
    t.deps = std::move(deps);
    t.after = std::move(after);
    t.cost = {64, 0, 32};
    t.body = std::move(body);
    t.kernel = std::move(kernel);
    return t;
  }
  rt::TaskId sync(NodeDriver& d, std::vector<rt::TaskId> after) {
    rt::TaskSpec t;
    t.name = "sync";
    t.gpu = false;
    t.deps = {{x_, Mode::LcSync}};
    t.after = std::move(after);
    return d.add(std::move(t));
  }

  void stale(NodeDriver& d) {
    rt::Runtime& rt = d.rt;
    const rt::DbType type = type_ == "lc" ? rt::DbType::Lc : rt::DbType::Write;
    x_ = rt.create_db(4 * cells_, type, rt::MergeOp::Max, 0, true);
    const rt::Guid seen = rt.create_db(4, rt::DbType::Write, rt::MergeOp::Copy, 1, true);
    auto read_into = [](rt::Views& v) { set(*v[1], 0, word(*v[0], 0)); };
    const auto read = task_kernel(
        "read", 1, [](Warp& w, const std::vector<Addr>& b) { return read_kernel(w, b[0], b[1]); });
    const uint32_t other = gpus_ > 1 ? 1 : 0;
    const rt::TaskId p = d.add(gpu_task(other, {{x_, Mode::Normal}, {seen, Mode::Normal}}, {},
                                        read_into, read)); // GPU1 caches X = 0
    const rt::TaskId a = d.add(gpu_task(
        0, {{x_, Mode::Normal}}, {p}, [](rt::Views& v) { set_all(*v[0], 1); }, fill(cells_, 1)));
    const rt::TaskId b =
        d.add(gpu_task(other, {{x_, Mode::Normal}, {seen, Mode::Normal}}, {a}, read_into, read));
    d.wait(b);
    seen_before_ = word(rt.db(seen).host, 0);
    rt::TaskId after = b;
    if (type == rt::DbType::Lc) after = sync(d, {b});
    const rt::TaskId c = d.add(
        gpu_task(other, {{x_, Mode::Normal}, {seen, Mode::Normal}}, {after}, read_into, read));
    d.wait(c);
    seen_after_ = word(rt.db(seen).host, 0);
  }

  std::string test_, type_;
  uint64_t cells_, rounds_;
  uint32_t gpus_ = 0;
  std::vector<uint32_t> writers_;
  rt::Guid x_ = 0;
  std::vector<uint8_t> result_, second_;
  uint32_t seen_before_ = 0, seen_after_ = 0;
};

} // namespace

NodeAppEntry lc_semantics_entry() {
  return {{"lc-semantics",
           "location-consistency scenarios on a node, each checked (seed-004 §7.6 T-LC-1..5)",
           {{"test", "min", "min | latest | copy | add | stale | once"},
            {"type", "lc", "stale only: lc, or write (the strict baseline)"},
            {"cells", "16", "u32 cells of the block"},
            {"rounds", "2", "add/once: tasks per GPU"}}},
          [](const WorkloadArgs& a) { return std::make_unique<LcSemantics>(a); }};
}

} // namespace tlmgpu
