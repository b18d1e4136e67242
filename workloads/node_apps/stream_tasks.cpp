// STREAM on the task runtime (seed-004 §6.1): arrays a, b, c in tiles, each
// tile a GPU_WRITE DataBlock whose key is its tile index (so tile i of every
// array hashes to GPU i mod G); per iteration the four kernels, one GPU task
// per tile, a global barrier after each (the driver waits for the tiles).
// Bandwidth = bytes / best time over iterations 1.. (the first is excluded).
//
// version=uvm is the reference's UVM baseline (streamShared.cu, seed-004
// §6.1): the arrays are managed memory (models/uvm) initialised on the
// host; the host thread launches tile i's kernel on GPU i mod G (32-thread
// blocks), then synchronizes every GPU after each kernel. A kernel touches
// its tile's pages of its arrays: those elsewhere fault and migrate to its
// GPU (pages shared by two tiles on different GPUs move every kernel).
//
// Each GPU task also has its real kernel (stream_tile_kernel) for a node
// whose GPUs are the full GPU model (gpu_model.kind = full): the same
// arithmetic on the tile's doubles in device memory, `block` threads per
// block, grid-stride.
#include "models/node/node_gpu_module.hpp"
#include "workloads/node_apps/node_app.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>

namespace tlmgpu {
namespace {

constexpr double kScalar = 3.0;
const char* kKernels[4] = {"copy", "scale", "add", "triad"};

// Kernel k over `n` doubles of its operands v (dependency order, the last
// one written), as apply() below; `wrong` adds 1 to every result (fault=wrong).
WarpTask stream_tile_kernel(Warp& w, int k, Addr v0, Addr v1, Addr v2, uint64_t n, bool wrong) {
  const uint64_t stride = w.grid_threads();
  const Addr out = k < 2 ? v1 : v2;
  for (Lanes<uint64_t> i = w.global_thread_id();; i += Lanes<uint64_t>(stride)) {
    const Mask m = w.active() & (i < Lanes<uint64_t>(n));
    if (m.empty()) co_return;
    const Lanes<double> x = co_await w.load<double>(address_of<double>(v0, i), m);
    Lanes<double> y(0.0);
    if (k >= 2) y = co_await w.load<double>(address_of<double>(v1, i), m);
    if (k != 0) co_await w.compute(1);
    Lanes<double> r = k == 0   ? x
                      : k == 1 ? Lanes<double>(kScalar) * x
                      : k == 2 ? x + y
                               : x + Lanes<double>(kScalar) * y;
    if (wrong) r = r + Lanes<double>(1.0);
    co_await w.store<double>(address_of<double>(out, i), r, m);
  }
}

class StreamTasks : public NodeApp {
public:
  explicit StreamTasks(const WorkloadArgs& a)
      : n_(a.u64("n", 1, uint64_t(1) << 34)), tile_(a.u64("tile", 1, uint64_t(1) << 34)),
        ntimes_(a.u64("ntimes", 2, 1000)), block_(uint32_t(a.u64("block", 1, 1024))) {
    const std::string data = a.str("data"), version = a.str("version"), fault = a.str("fault");
    if (fault != "none" && fault != "wrong")
      throw ConfigError("--arg fault=" + fault + ": expected none or wrong");
    wrong_ = fault == "wrong";
    if (data != "auto" && data != "real" && data != "none")
      throw ConfigError("--arg data=" + data + ": expected auto, real or none");
    if (version != "tasks" && version != "uvm")
      throw ConfigError("--arg version=" + version + ": expected tasks or uvm");
    uvm_ = version == "uvm";
    real_ = data == "real" || (data == "auto" && 3 * 8 * n_ <= (uint64_t(256) << 20));
  }

  void program(NodeDriver& d) override {
    best_.assign(4, std::numeric_limits<double>::infinity());
    cold_.assign(4, 0);
    if (uvm_) return program_uvm(d);
    rt::Runtime& rt = d.rt;
    const uint64_t nt = (n_ + tile_ - 1) / tile_;
    for (int arr = 0; arr < 3; ++arr)
      for (uint64_t i = 0; i < nt; ++i) {
        const uint64_t len = std::min(tile_, n_ - i * tile_);
        const rt::Guid g = rt.create_db(8 * len, rt::DbType::Write, rt::MergeOp::Copy, i, real_);
        if (real_) fill(rt.db(g).host, arr == 0 ? 1.0 : arr == 1 ? 2.0 : 0.0);
        tiles_[arr].push_back(g);
      }
    for (uint64_t it = 0; it < ntimes_; ++it)
      for (int k = 0; k < 4; ++k) {
        const double t0 = d.now_seconds();
        std::vector<rt::TaskId> ids;
        for (uint64_t i = 0; i < nt; ++i)
          ids.push_back(d.add(task(k, i)));
        d.wait_all(ids);
        record(it, k, d.now_seconds() - t0);
      }
    seconds_ = d.now_seconds();
  }

  void program_uvm(NodeDriver& d) {
    const uint32_t G = d.rt.gpus();
    for (int arr = 0; arr < 3; ++arr) {
      arrays_[arr] = d.uvm().allocate(8 * n_);
      if (real_) values_[arr].assign(n_, arr == 0 ? 1.0 : arr == 1 ? 2.0 : 0.0);
    }
    const uint64_t nt = (n_ + tile_ - 1) / tile_;
    for (uint64_t it = 0; it < ntimes_; ++it)
      for (int k = 0; k < 4; ++k) {
        const double t0 = d.now_seconds();
        for (uint64_t i = 0; i < nt; ++i)
          d.issue(uint32_t(i % G), uvm_kernel(d.uvm(), k, i, uint32_t(i % G)));
        for (uint32_t g = 0; g < G; ++g)
          d.synchronize(g);
        record(it, k, d.now_seconds() - t0);
      }
    seconds_ = d.now_seconds();
  }

  std::string check(rt::Runtime& rt, std::ostream& out) override {
    for (int k = 0; k < 4; ++k)
      out << "  " << kKernels[k] << ": " << std::fixed << std::setprecision(1) << mbps(k)
          << " MB/s (best of iterations 1.." << ntimes_ - 1 << ")\n";
    if (!real_) {
      out << "  data: none (timing only; --arg data=real to check values)\n";
      return "";
    }
    auto value = [&](int arr, uint64_t j) {
      if (uvm_) return values_[arr][j];
      const std::vector<uint8_t>& h = rt.db(tiles_[arr][j / tile_]).host;
      double v;
      std::memcpy(&v, h.data() + 8 * (j % tile_), 8);
      return v;
    };
    double a = 1, b = 2, c = 0;
    for (uint64_t it = 0; it < ntimes_; ++it) {
      c = a;
      b = kScalar * c;
      c = a + b;
      a = b + kScalar * c;
    }
    const double want[3] = {a, b, c};
    for (int arr = 0; arr < 3; ++arr)
      for (uint64_t j = 0; j < n_; ++j) {
        const double v = value(arr, j);
        if (std::fabs(v - want[arr]) > 1e-8 * std::fabs(want[arr])) {
          std::ostringstream e;
          e << "array "
            << "abc"[arr] << " element " << j << ": " << v << ", expected " << want[arr];
          return e.str();
        }
      }
    out << "  values: every element of a, b, c equals the closed form after " << ntimes_
        << " iterations\n";
    return "";
  }

  std::string full_gpu_refusal() const override {
    if (uvm_) return "version=uvm runs managed-memory waves, not task kernels";
    if (!real_) return "data=none (the full GPU model computes on real bytes; --arg data=real)";
    return "";
  }

  nlohmann::json metrics() const override {
    nlohmann::json m = {
        {"seconds", seconds_}, {"tiles", (n_ + tile_ - 1) / tile_}, {"n", n_}, {"tile", tile_}};
    for (int k = 0; k < 4; ++k) {
      m[std::string(kKernels[k]) + "_mbps"] = mbps(k);
      m[std::string(kKernels[k]) + "_best_s"] = best_[k];
      m[std::string(kKernels[k]) + "_first_mbps"] =
          cold_.empty() || cold_[k] <= 0 ? 0 : bytes(k) / cold_[k] / 1e6;
    }
    return m;
  }

private:
  static void fill(std::vector<uint8_t>& h, double v) {
    for (size_t j = 0; j < h.size() / 8; ++j)
      std::memcpy(h.data() + 8 * j, &v, 8);
  }
  double bytes(int k) const { return (k < 2 ? 16.0 : 24.0) * double(n_); }
  double mbps(int k) const {
    return best_.empty() || !std::isfinite(best_[k]) ? 0 : bytes(k) / best_[k] / 1e6;
  }
  // Iteration 0 (the cold one: fills, or first-touch migrations) is kept apart.
  void record(uint64_t it, int k, double seconds) {
    if (it == 0)
      cold_[k] = seconds;
    else
      best_[k] = std::min(best_[k], seconds);
  }

  // Tile i of kernel k on GPU `gpu`, on managed memory: one wave that
  // faults on the tile's pages of its arrays that are elsewhere, then
  // streams them from HBM with 32-thread blocks (streamShared.cu).
  rt::StreamOp uvm_kernel(uvm::ManagedMemory& mm, int k, uint64_t i, uint32_t gpu) {
    static const int deps[4][3] = {{0, 2, -1}, {2, 1, -1}, {0, 1, 2}, {1, 2, 0}};
    const uint64_t lo = i * tile_, len = std::min(tile_, n_ - lo);
    rt::StreamOp op;
    op.kind = rt::OpKind::Kernel;
    op.waves = [this, &mm, k, lo, len, gpu, done = false](rt::Wave& w, double now) mutable {
      if (done) return false;
      done = true;
      uvm::Faults f(gpu, mm.gpus(), now);
      for (int x : deps[k])
        if (x >= 0) {
          const uint64_t first = mm.entry_of(arrays_[x], 8 * lo);
          mm.touch(f, arrays_[x], first, mm.entry_of(arrays_[x], 8 * (lo + len) - 1) - first + 1);
        }
      mm.service(f, now);
      uvm::add_to_wave(f, mm.spec().page_bytes, 0, w);
      w.work = cost(k, len, 32);
      return true;
    };
    if (real_)
      op.effect = [this, k, lo, len] {
        std::vector<uint8_t*> v;
        for (int x : deps[k])
          if (x >= 0) v.push_back(reinterpret_cast<uint8_t*>(values_[x].data() + lo));
        apply(k, v, len);
      };
    return op;
  }

  static rt::KernelCost cost(int k, uint64_t len, uint32_t block) {
    return {(k < 2 ? 16 : 24) * len, (k == 0 ? 0 : k == 3 ? 2 : 1) * len, block};
  }
  // Kernel k over `n` elements of its operands (in dependency order, the
  // last one written).
  static void apply(int k, const std::vector<uint8_t*>& v, size_t n) {
    auto at = [&](int x, size_t j) { return reinterpret_cast<double*>(v[size_t(x)]) + j; };
    for (size_t j = 0; j < n; ++j) {
      if (k == 0) *at(1, j) = *at(0, j);
      if (k == 1) *at(1, j) = kScalar * *at(0, j);
      if (k == 2) *at(2, j) = *at(0, j) + *at(1, j);
      if (k == 3) *at(2, j) = *at(0, j) + kScalar * *at(1, j);
    }
  }

  // The real kernel of tile `len` of kernel k (full GPU model).
  std::shared_ptr<const NodeKernel> device_kernel(int k, uint64_t len,
                                                  const std::string& name) const {
    auto nk = std::make_shared<NodeKernel>();
    nk->launch = [k, len, name, block = block_, wrong = wrong_](const std::vector<Addr>& b) {
      KernelLaunch l;
      l.name = name;
      l.grid = {uint32_t(std::min<uint64_t>((len + block - 1) / block, 65535)), 1, 1};
      l.block = {block, 1, 1};
      const Addr v0 = b[0], v1 = b[1], v2 = b.size() > 2 ? b[2] : 0;
      l.body = [k, v0, v1, v2, len, wrong](Warp& w) {
        return stream_tile_kernel(w, k, v0, v1, v2, len, wrong);
      };
      return l;
    };
    return nk;
  }

  // deps: copy (a,c), scale (c,b), add (a,b,c), triad (b,c,a); the last one
  // is written. One-thread blocks by default, as the ARTS STREAM
  // (THREADSPERBLOCK 1).
  rt::TaskSpec task(int k, uint64_t i) const {
    static const int deps[4][3] = {{0, 2, -1}, {2, 1, -1}, {0, 1, 2}, {1, 2, 0}};
    rt::TaskSpec t;
    t.name = std::string(kKernels[k]) + "[" + std::to_string(i) + "]";
    for (int x : deps[k])
      if (x >= 0) t.deps.push_back({tiles_[x][i], rt::Mode::Normal});
    t.paramc = (k == 1 || k == 3) ? 2 : 1; // len (+ scalar): closures of 64/72/88/96 B
    const uint64_t len = std::min(tile_, n_ - i * tile_);
    t.cost = cost(k, len, block_);
    t.kernel = device_kernel(k, len, t.name);
    t.body = [k](rt::Views& v) {
      std::vector<uint8_t*> p;
      for (std::vector<uint8_t>* x : v)
        p.push_back(x->data());
      apply(k, p, v[0]->size() / 8);
    };
    return t;
  }

  uint64_t n_, tile_, ntimes_;
  uint32_t block_;
  bool real_ = true, uvm_ = false, wrong_ = false;
  std::vector<rt::Guid> tiles_[3];
  uint32_t arrays_[3] = {0, 0, 0}; // version=uvm: managed allocations
  std::vector<double> values_[3];  // version=uvm, real data: the arrays' contents
  std::vector<double> best_, cold_;
  double seconds_ = 0;
};

} // namespace

NodeAppEntry stream_tasks_entry() {
  return {{"stream-tasks",
           "STREAM copy/scale/add/triad over tiles on the task runtime (GPU_WRITE blocks, a "
           "barrier per kernel; seed-004 §6.1); version=uvm for the UVM baseline",
           {{"n", "2000000", "doubles per array (the reference's 15.26 MiB)"},
            {"tile", "262144", "doubles per tile (one DataBlock per tile and array)"},
            {"ntimes", "10", "iterations (the first is excluded from the bandwidth)"},
            {"data", "auto", "real | none | auto (real when the arrays fit 256 MiB)"},
            {"block", "1",
             "threads per block of the GPU tasks (the ARTS STREAM's 1): the kernel-time model's "
             "eff(block), the full GPU model's launch"},
            {"fault", "none",
             "none | wrong: the real kernels write value + 1 (gpu_model.kind = full; the check "
             "must fail)"},
            {"version", "tasks",
             "tasks (the runtime's tiles) or uvm (managed arrays, tile i on GPU i mod G, "
             "32-thread blocks, a device synchronize per kernel)"}}},
          [](const WorkloadArgs& a) { return std::make_unique<StreamTasks>(a); }};
}

} // namespace tlmgpu
