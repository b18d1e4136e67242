// STREAM on the task runtime (seed-004 §6.1): arrays a, b, c in tiles, each
// tile a GPU_WRITE DataBlock whose key is its tile index (so tile i of every
// array hashes to GPU i mod G); per iteration the four kernels, one GPU task
// per tile, a global barrier after each (the driver waits for the tiles).
// Bandwidth = bytes / best time over iterations 1.. (the first is excluded).
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

class StreamTasks : public NodeApp {
public:
  explicit StreamTasks(const WorkloadArgs& a)
      : n_(a.u64("n", 1, uint64_t(1) << 34)), tile_(a.u64("tile", 1, uint64_t(1) << 34)),
        ntimes_(a.u64("ntimes", 2, 1000)) {
    const std::string data = a.str("data");
    if (data != "auto" && data != "real" && data != "none")
      throw ConfigError("--arg data=" + data + ": expected auto, real or none");
    real_ = data == "real" || (data == "auto" && 3 * 8 * n_ <= (uint64_t(256) << 20));
  }

  void program(NodeDriver& d) override {
    rt::Runtime& rt = d.rt;
    const uint64_t nt = (n_ + tile_ - 1) / tile_;
    for (int arr = 0; arr < 3; ++arr)
      for (uint64_t i = 0; i < nt; ++i) {
        const uint64_t len = std::min(tile_, n_ - i * tile_);
        const rt::Guid g = rt.create_db(8 * len, rt::DbType::Write, rt::MergeOp::Copy, i, real_);
        if (real_) fill(rt.db(g).host, arr == 0 ? 1.0 : arr == 1 ? 2.0 : 0.0);
        tiles_[arr].push_back(g);
      }
    best_.assign(4, std::numeric_limits<double>::infinity());
    for (uint64_t it = 0; it < ntimes_; ++it)
      for (int k = 0; k < 4; ++k) {
        const double t0 = d.now_seconds();
        std::vector<rt::TaskId> ids;
        for (uint64_t i = 0; i < nt; ++i)
          ids.push_back(d.add(task(k, i)));
        d.wait_all(ids);
        if (it > 0) best_[k] = std::min(best_[k], d.now_seconds() - t0);
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
    double a = 1, b = 2, c = 0;
    for (uint64_t it = 0; it < ntimes_; ++it) {
      c = a;
      b = kScalar * c;
      c = a + b;
      a = b + kScalar * c;
    }
    const double want[3] = {a, b, c};
    for (int arr = 0; arr < 3; ++arr)
      for (rt::Guid g : tiles_[arr]) {
        const std::vector<uint8_t>& h = rt.db(g).host;
        for (size_t j = 0; j < h.size() / 8; ++j) {
          double v;
          std::memcpy(&v, h.data() + 8 * j, 8);
          if (std::fabs(v - want[arr]) > 1e-8 * std::fabs(want[arr])) {
            std::ostringstream e;
            e << "array "
              << "abc"[arr] << " tile " << g << " element " << j << ": " << v << ", expected "
              << want[arr];
            return e.str();
          }
        }
      }
    out << "  values: every element of a, b, c equals the closed form after " << ntimes_
        << " iterations\n";
    return "";
  }

  nlohmann::json metrics() const override {
    nlohmann::json m = {
        {"seconds", seconds_}, {"tiles", tiles_[0].size()}, {"n", n_}, {"tile", tile_}};
    for (int k = 0; k < 4; ++k) {
      m[std::string(kKernels[k]) + "_mbps"] = mbps(k);
      m[std::string(kKernels[k]) + "_best_s"] = best_[k];
    }
    return m;
  }

private:
  static void fill(std::vector<uint8_t>& h, double v) {
    for (size_t j = 0; j < h.size() / 8; ++j)
      std::memcpy(h.data() + 8 * j, &v, 8);
  }
  double mbps(int k) const {
    const double bytes = (k < 2 ? 16.0 : 24.0) * double(n_);
    return best_.empty() || !std::isfinite(best_[k]) ? 0 : bytes / best_[k] / 1e6;
  }

  // deps: copy (a,c), scale (c,b), add (a,b,c), triad (b,c,a); the last one
  // is written. One-thread blocks, as the ARTS STREAM (THREADSPERBLOCK 1).
  rt::TaskSpec task(int k, uint64_t i) const {
    static const int deps[4][3] = {{0, 2, -1}, {2, 1, -1}, {0, 1, 2}, {1, 2, 0}};
    rt::TaskSpec t;
    t.name = std::string(kKernels[k]) + "[" + std::to_string(i) + "]";
    for (int x : deps[k])
      if (x >= 0) t.deps.push_back({tiles_[x][i], rt::Mode::Normal});
    t.paramc = (k == 1 || k == 3) ? 2 : 1; // len (+ scalar): closures of 64/72/88/96 B
    const uint64_t len = std::min(tile_, n_ - i * tile_);
    t.cost = {(k < 2 ? 16 : 24) * len, (k == 0 ? 0 : k == 3 ? 2 : 1) * len, 1};
    t.body = [k](rt::Views& v) {
      const size_t n = v[0]->size() / 8;
      auto at = [&](int x, size_t j) {
        return reinterpret_cast<double*>(v[size_t(x)]->data()) + j;
      };
      for (size_t j = 0; j < n; ++j) {
        if (k == 0) *at(1, j) = *at(0, j);
        if (k == 1) *at(1, j) = kScalar * *at(0, j);
        if (k == 2) *at(2, j) = *at(0, j) + *at(1, j);
        if (k == 3) *at(2, j) = *at(0, j) + kScalar * *at(1, j);
      }
    };
    return t;
  }

  uint64_t n_, tile_, ntimes_;
  bool real_ = true;
  std::vector<rt::Guid> tiles_[3];
  std::vector<double> best_;
  double seconds_ = 0;
};

} // namespace

NodeAppEntry stream_tasks_entry() {
  return {{"stream-tasks",
           "STREAM copy/scale/add/triad over tiles on the task runtime (GPU_WRITE blocks, a "
           "barrier per kernel; seed-004 §6.1)",
           {{"n", "2000000", "doubles per array (the reference's 15.26 MiB)"},
            {"tile", "262144", "doubles per tile (one DataBlock per tile and array)"},
            {"ntimes", "10", "iterations (the first is excluded from the bandwidth)"},
            {"data", "auto", "real | none | auto (real when the arrays fit 256 MiB)"}}},
          [](const WorkloadArgs& a) { return std::make_unique<StreamTasks>(a); }};
}

} // namespace tlmgpu
