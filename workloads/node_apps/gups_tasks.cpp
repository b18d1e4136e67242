// RandomAccess (HPCC GUPS) on the task runtime (seed-004 §6.2). The table is
// `tiles` LC blocks (xor) that update tasks take in NO_COPY mode, so each
// GPU accumulates an xor delta from zero; a final CPU task LC-syncs every
// tile into the host table. Per GPU and step, a task on that GPU generates
// the step's update values into its frontier (a GPU_WRITE block, zeroed on
// the GPU, written back), a CPU task then makes a read-only alias of it and
// one update task per tile (each scans the whole batch and xors the values
// that fall in its tile), and the next step waits for those. type=write
// makes the tiles GPU_WRITE blocks instead (the strict alternative: every
// update task writes its tile back).
//
// Values are splitmix64(k) of the global update index k and an update goes
// to entry value mod table (uniform, the HPCC intent; pitfall 2) or, with
// index=mask, to value & (table - 1) as the reference code does; either way
// the serial reference is exact whatever the schedule. As the reference
// creates update tasks only for tiles with updates, a tile no update can
// reach (index=mask) gets none.
//
// version=uvm is the reference's UVM baseline (RandomAccessShared.cu,
// seed-004 §6.2): one managed table initialised on the host; GPU g runs one
// kernel over its contiguous range of update indices, `threads` updates in
// flight at a time (a wave: one per thread), each an atomic xor on the
// table's page, which faults and migrates to g when it is elsewhere. The
// waves' pages are those of the real update indices; `sample` = k keeps one
// update in k and one page-table entry per k pages (models/uvm/README.md,
// "Sampling").
#include "workloads/node_apps/gups_kernels.hpp"
#include "workloads/node_apps/node_app.hpp"

#include <bit>
#include <cstring>
#include <sstream>

namespace tlmgpu {
namespace {

using gups::value_of;

class GupsTasks : public NodeApp {
public:
  explicit GupsTasks(const WorkloadArgs& a)
      : table_(a.u64("table", 64, uint64_t(1) << 33)), tiles_(a.u64("tiles", 1, 4096)),
        updates_(a.u64("updates", 1, uint64_t(1) << 40)),
        per_step_(a.u64("threads", 1, 1u << 24) * a.u64("per_thread", 1, 1u << 20)) {
    const std::string data = a.str("data"), type = a.str("type"), version = a.str("version"),
                      index = a.str("index");
    if (index != "mod" && index != "mask")
      throw ConfigError("--arg index=" + index + ": expected mod or mask");
    index_ = {table_, index == "mask"};
    if (version != "tasks" && version != "uvm")
      throw ConfigError("--arg version=" + version + ": expected tasks or uvm");
    uvm_ = version == "uvm";
    threads_ = a.u64("threads", 1, 1u << 24);
    sample_ = a.u64("sample", 0, 1u << 20);
    // auto: every update up to 2^26 of them, else one in a power of two
    // that leaves 64 or more sampled updates per wave
    if (sample_ == 0)
      sample_ = updates_ <= (uint64_t(1) << 26)
                    ? 1
                    : std::max<uint64_t>(1, std::bit_floor(threads_ / 64));
    if (data != "auto" && data != "real" && data != "none")
      throw ConfigError("--arg data=" + data + ": expected auto, real or none");
    if (type != "lc" && type != "write")
      throw ConfigError("--arg type=" + type + ": expected lc or write");
    if (tiles_ > table_) throw ConfigError("--arg tiles: more tiles than table entries");
    lc_ = type == "lc";
    real_ = data == "real" ||
            (data == "auto" && table_ <= (uint64_t(1) << 22) && updates_ <= (uint64_t(1) << 24));
  }

  void program(NodeDriver& d) override {
    if (uvm_) return program_uvm(d);
    rt::Runtime& rt = d.rt;
    tile_words_ = (table_ + tiles_ - 1) / tiles_;
    for (uint64_t t = 0; t < tiles_; ++t) {
      const uint64_t words = std::min(tile_words_, table_ - t * tile_words_);
      tile_.push_back(rt.create_db(8 * words, lc_ ? rt::DbType::Lc : rt::DbType::Write,
                                   rt::MergeOp::Xor, t, real_));
      if (real_) {
        std::vector<uint8_t>& h = rt.db(tile_.back()).host;
        for (uint64_t i = 0; i < words; ++i) {
          const uint64_t v = t * tile_words_ + i;
          std::memcpy(h.data() + 8 * i, &v, 8);
        }
      }
    }
    const uint32_t G = rt.gpus();
    uint64_t start = 0;
    for (uint32_t g = 0; g < G; ++g) {
      const uint64_t mine = updates_ / G + (g < updates_ % G ? 1 : 0);
      const rt::Guid frontier = rt.create_db(8 * std::min(per_step_, std::max<uint64_t>(mine, 1)),
                                             rt::DbType::Write, rt::MergeOp::Copy, g, real_);
      if (mine)
        step(d, g, frontier, start, start + mine, {});
      else
        ++gpus_done_;
      start += mine;
    }
    d.wait_until([&] { return gpus_done_ == G; });
    rt::TaskSpec done;
    done.name = "done";
    done.gpu = false;
    done.after = last_;
    if (lc_)
      for (rt::Guid t : tile_)
        done.deps.push_back({t, rt::Mode::LcSync});
    d.wait(d.add(std::move(done)));
    seconds_ = d.now_seconds();
  }

  std::string check(rt::Runtime& rt, std::ostream& out) override {
    out << "  " << updates_ << " updates in " << seconds_ * 1e3 << " ms: " << gups() << " GUPS\n";
    if (!real_) {
      out << "  data: none (timing only; --arg data=real to check the table)\n";
      return "";
    }
    std::vector<uint64_t> ref(table_), got = uvm_ ? uvm_table_ : std::vector<uint64_t>(table_);
    if (!uvm_)
      for (uint64_t t = 0; t < tiles_; ++t) {
        const std::vector<uint8_t>& h = rt.db(tile_[t]).host;
        std::memcpy(got.data() + t * tile_words_, h.data(), h.size());
      }
    for (uint64_t i = 0; i < table_; ++i)
      ref[i] = i;
    for (uint64_t k = 0; k < updates_; ++k) {
      const uint64_t v = value_of(k);
      ref[index_(v)] ^= v;
    }
    uint64_t errors = 0;
    for (uint64_t i = 0; i < table_; ++i)
      errors += got[i] != ref[i];
    out << "  table: " << errors << " errors in " << table_ << " entries\n";
    if (errors) return std::to_string(errors) + " table entries differ from the serial reference";
    return "";
  }

  std::string full_gpu_refusal() const override {
    if (uvm_) return "version=uvm runs managed-memory waves, not task kernels";
    if (!real_) return "data=none (the full GPU model computes on real bytes; --arg data=real)";
    return "";
  }

  nlohmann::json metrics() const override {
    nlohmann::json m = {
        {"gups", gups()}, {"seconds", seconds_}, {"updates", updates_}, {"table", table_}};
    if (uvm_) m["sample"] = sample_;
    return m;
  }

private:
  // The updates of GPU g: [lo, hi) of the global index, as the task version.
  std::pair<uint64_t, uint64_t> range(uint32_t g, uint32_t G) const {
    const uint64_t base = updates_ / G, extra = updates_ % G;
    const uint64_t lo = g * base + std::min<uint64_t>(g, extra);
    return {lo, lo + base + (g < extra ? 1 : 0)};
  }

  void program_uvm(NodeDriver& d) {
    const uint32_t G = d.rt.gpus();
    table_alloc_ = d.uvm().allocate(8 * table_, sample_);
    if (real_) {
      uvm_table_.resize(table_);
      for (uint64_t i = 0; i < table_; ++i)
        uvm_table_[i] = i;
    }
    for (uint32_t g = 0; g < G; ++g) {
      const auto [lo, hi] = range(g, G);
      if (lo < hi) d.issue(g, uvm_kernel(d.uvm(), g, lo, hi));
    }
    for (uint32_t g = 0; g < G; ++g)
      d.synchronize(g);
    seconds_ = d.now_seconds();
  }

  // GPU g's kernel over updates [lo, hi): wave after wave of `threads_`
  // updates. A wave faults on the sampled pages it touches that are
  // elsewhere; the fault-free waves after it run on in the same stretch
  // (decided when the stretch starts: nothing else moves its pages then
  // except other GPUs' faults, which the next wave sees).
  rt::StreamOp uvm_kernel(uvm::ManagedMemory& mm, uint32_t g, uint64_t lo, uint64_t hi) {
    rt::StreamOp op;
    op.kind = rt::OpKind::Kernel;
    op.waves = [this, &mm, g, lo, hi, next = lo](rt::Wave& w, double now) mutable {
      if (next >= hi) return false;
      uvm::Faults f(g, mm.gpus(), now);
      std::vector<uint64_t> pages;
      wave_pages(mm, next, hi, pages);
      for (uint64_t e : pages)
        mm.touch(f, table_alloc_, e);
      uint64_t done = std::min(threads_, hi - next);
      next += done;
      while (next < hi) {
        wave_pages(mm, next, hi, pages);
        bool local = true;
        for (uint64_t e : pages)
          local = local && mm.where(table_alloc_, e) == int(g);
        if (!local) break;
        const uint64_t n = std::min(threads_, hi - next);
        done += n;
        next += n;
      }
      mm.service(f, now);
      uvm::add_to_wave(f, mm.spec().page_bytes, 0, w);
      w.work = {64 * done, 10 * done, 32}; // a sector read-modify-write per update
      return true;
    };
    if (real_)
      op.effect = [this, lo, hi] {
        for (uint64_t k = lo; k < hi; ++k) {
          const uint64_t v = value_of(k);
          uvm_table_[index_(v)] ^= v;
        }
      };
    return op;
  }

  // The page-table entries of the sampled updates of the wave from `first`.
  void wave_pages(const uvm::ManagedMemory& mm, uint64_t first, uint64_t hi,
                  std::vector<uint64_t>& out) const {
    out.clear();
    const uint64_t end = std::min(hi, first + threads_);
    for (uint64_t k = first; k < end; k += sample_)
      out.push_back(mm.entry_of(table_alloc_, 8 * index_(value_of(k))));
  }

  double gups() const { return seconds_ > 0 ? double(updates_) / seconds_ / 1e9 : 0; }

  // One step of GPU g over updates [lo, hi) from `lo`, after `prev` tasks.
  void step(NodeDriver& d, uint32_t g, rt::Guid frontier, uint64_t lo, uint64_t hi,
            std::vector<rt::TaskId> prev) {
    const uint64_t count = std::min(per_step_, hi - lo);
    rt::TaskSpec gen;
    gen.name = "random" + std::to_string(g);
    gen.gpu_to_run_on = int(g);
    gen.deps = {{frontier, rt::Mode::Zero}};
    gen.after = std::move(prev);
    gen.cost = {8 * count, 10 * count, 32};
    gen.body = [lo, count](rt::Views& v) {
      for (uint64_t k = 0; k < count; ++k) {
        const uint64_t x = value_of(lo + k);
        std::memcpy(v[0]->data() + 8 * k, &x, 8);
      }
    };
    gen.kernel = task_kernel(gen.name, std::min(threads_, count),
                             [lo, count](Warp& w, const std::vector<Addr>& b) {
                               return gups::generate(w, b[0], lo, count);
                             });
    const rt::TaskId made = d.rt.add_task(std::move(gen));
    // the alias and the update tasks exist only once the values do
    rt::TaskSpec spawn;
    spawn.name = "spawn" + std::to_string(g);
    spawn.gpu = false;
    spawn.after = {made};
    spawn.body = [this, &d, g, frontier, lo, hi, count](rt::Views&) {
      rt::Runtime& rt = d.rt;
      const rt::Guid alias = rt.create_db(8 * count, rt::DbType::Read, rt::MergeOp::Copy, g, real_);
      if (real_) {
        const std::vector<uint8_t>& f = rt.db(frontier).host;
        rt.db(alias).host.assign(f.begin(), f.begin() + std::ptrdiff_t(8 * count));
      }
      std::vector<rt::TaskId> updates;
      for (uint64_t t = 0; t < tiles_; ++t)
        if (reachable(t)) updates.push_back(rt.add_task(update(t, alias, count)));
      if (lo + count < hi) {
        step(d, g, frontier, lo + count, hi, updates);
      } else {
        last_.insert(last_.end(), updates.begin(), updates.end());
        ++gpus_done_;
      }
    };
    d.rt.add_task(std::move(spawn));
    d.notify();
  }

  // The entries of tile t an update can reach.
  uint64_t reachable(uint64_t t) const {
    const uint64_t base = t * tile_words_;
    return index_.reachable_below(base + tile_words_) - index_.reachable_below(base);
  }

  rt::TaskSpec update(uint64_t t, rt::Guid alias, uint64_t count) const {
    rt::TaskSpec u;
    u.name = "update" + std::to_string(t);
    u.deps = {{tile_[t], lc_ ? rt::Mode::Zero : rt::Mode::Normal}, {alias, rt::Mode::Normal}};
    u.paramc = 2;
    // a scan of the batch, and a read-modify-write sector for each own
    // update (the tile's share of the reachable entries)
    const uint64_t mine =
        uint64_t(double(count) * double(reachable(t)) / double(index_.reachable_below(table_)));
    u.cost = {8 * count + 64 * mine, count, 32};
    const uint64_t base = t * tile_words_, words = tile_words_;
    const uint64_t own = std::min(words, table_ - base);
    const gups::Index index = index_;
    u.kernel = task_kernel(u.name, std::min(threads_, count),
                           [count, base, own, index](Warp& w, const std::vector<Addr>& b) {
                             return gups::update(w, b[0], b[1], count, base, own, index);
                           });
    u.body = [base, words, index](rt::Views& v) {
      const size_t n = v[1]->size() / 8, own = v[0]->size() / 8;
      for (size_t k = 0; k < n; ++k) {
        uint64_t x;
        std::memcpy(&x, v[1]->data() + 8 * k, 8);
        const uint64_t i = index(x);
        if (i < base || i >= base + std::min<uint64_t>(words, own)) continue;
        uint64_t cur;
        std::memcpy(&cur, v[0]->data() + 8 * (i - base), 8);
        cur ^= x;
        std::memcpy(v[0]->data() + 8 * (i - base), &cur, 8);
      }
    };
    return u;
  }

  uint64_t table_, tiles_, updates_, per_step_, tile_words_ = 0, threads_ = 0, sample_ = 1;
  bool lc_ = true, real_ = true, uvm_ = false;
  gups::Index index_;
  uint32_t table_alloc_ = 0;        // version=uvm: the managed table
  std::vector<uint64_t> uvm_table_; // version=uvm, real data: its contents
  std::vector<rt::Guid> tile_;
  std::vector<rt::TaskId> last_;
  uint32_t gpus_done_ = 0;
  double seconds_ = 0;
};

} // namespace

NodeAppEntry gups_tasks_entry() {
  return {{"gups-tasks",
           "RandomAccess (GUPS) on the task runtime: LC xor tiles in NO_COPY mode, collapsed "
           "by a final LC sync (seed-004 §6.2); type=write for the strict alternative, "
           "version=uvm for the UVM baseline",
           {{"table", "4096", "table entries (u64; the paper's 167772160 = 1.25 GiB)"},
            {"tiles", "8", "tiles of the table (one DataBlock each)"},
            {"updates", "16384", "updates in all (the paper's 16 x table)"},
            {"threads", "5120", "threads per GPU step (160 blocks x 32)"},
            {"per_thread", "1024",
             "updates per thread per step (the paper's 1024; the code's "
             "16384)"},
            {"type", "lc", "lc (LC tiles, xor sync) or write (GPU_WRITE tiles)"},
            {"index", "mod",
             "where an update value goes: mod (value mod table, uniform, the HPCC intent) or "
             "mask (value & (table - 1), the reference code; a table that is not a power of two "
             "then reaches only some entries, tiles 0, 1, 6, 7 of the paper's 8; pitfall 2)"},
            {"data", "auto", "real | none | auto (real up to 4 Mi entries and 16 Mi updates)"},
            {"version", "tasks",
             "tasks (the task runtime) or uvm (one managed table, a kernel per GPU over its "
             "range of updates; `threads` updates in flight per wave)"},
            {"sample", "0",
             "version=uvm: simulate one update in this many and one page-table entry per this "
             "many pages (0 = auto: 1 up to 2^26 updates, else threads/64 rounded down to a "
             "power of two)"}}},
          [](const WorkloadArgs& a) { return std::make_unique<GupsTasks>(a); }};
}

} // namespace tlmgpu
