#include "workloads/stream/stream.hpp"

#include "models/host/host_module.hpp"

#include "tlmgpu/config.hpp"
#include "tlmgpu/memory_budget.hpp"

#include <random>

namespace tlmgpu {

WarpTask stream_kernel(Warp& w, StreamArgs a) {
  const uint64_t stride = w.grid_threads();
  for (Lanes<uint64_t> i = w.global_thread_id();; i += Lanes<uint64_t>(stride)) {
    const Mask m = w.active() & (i < Lanes<uint64_t>(a.n));
    if (m.empty()) co_return;
    const Lanes<uint32_t> x = co_await w.load<uint32_t>(address_of<uint32_t>(a.x, i), m);
    const Lanes<Addr> yj = address_of<uint32_t>(a.y, i * Lanes<uint64_t>(a.stride));
    Lanes<uint32_t> y(0u);
    if (a.axpy) y = co_await w.load<uint32_t>(yj, m);
    co_await w.compute(1); // one multiply(-add)
    co_await w.store<uint32_t>(yj, Lanes<uint32_t>(a.a) * x + y, m);
  }
}

namespace {

class StreamWorkload : public Workload {
public:
  explicit StreamWorkload(const WorkloadArgs& a) {
    n_ = a.u64("n", 1, 1ull << 32);
    scalar_ = uint32_t(a.u64("a", 0, 0xffffffffu));
    block_ = uint32_t(a.u64("block", 1, 1u << 20));
    grid_ = uint32_t(a.u64("grid", 0, 1u << 30));
    stride_ = uint32_t(a.u64("stride", 1, 1024));
    const std::string op = a.str("op");
    if (op != "axpy" && op != "scale")
      throw ConfigError("workload argument op: expected 'axpy' or 'scale', got '" + op + "'");
    axpy_ = op == "axpy";
    // Host x, y, the result and the check's reference, and the device copies
    // of x and y: 8 + 16 x stride bytes per element.
    check_memory(sat_mul(n_, 8 + 16 * uint64_t(stride_)),
                 "workload stream (n=" + std::to_string(n_) +
                     ", stride=" + std::to_string(stride_) + ")");
  }

  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    std::mt19937_64 rng(ctx.seed);
    x_.resize(n_);
    y_.resize(n_ * stride_);
    for (auto& v : x_)
      v = uint32_t(rng());
    for (auto& v : y_)
      v = uint32_t(rng());
    host_ = std::make_unique<HostModule>("host", ctx, gpu);
    host_->program = [this, &ctx](HostModule& h) { program(ctx, h); };
  }
  bool finished() const override { return host_ && host_->finished(); }

  std::string check(SimContext&, GpuModule&, std::ostream& out) override {
    out << "stream: y = " << scalar_ << " * x" << (axpy_ ? " + y" : "") << " over " << n_
        << " u32, stride " << stride_ << ", grid " << grid_used_ << " x " << block_ << "\n";
    std::vector<uint32_t> ref = y_;
    for (uint64_t i = 0; i < n_; ++i)
      ref[i * stride_] = scalar_ * x_[i] + (axpy_ ? y_[i * stride_] : 0u);
    for (uint64_t j = 0; j < ref.size(); ++j)
      if (result_[j] != ref[j])
        return "y[" + std::to_string(j) + "]: device " + std::to_string(result_[j]) +
               ", CPU reference " + std::to_string(ref[j]);
    return "";
  }

private:
  void program(SimContext& ctx, HostModule& h) {
    StreamArgs a;
    a.n = n_;
    a.a = scalar_;
    a.axpy = axpy_;
    a.stride = stride_;
    a.x = h.upload(x_, "x");
    a.y = h.upload(y_, "y");
    grid_used_ = grid_ ? grid_
                       : uint32_t(std::min<uint64_t>((n_ + block_ - 1) / block_,
                                                     uint64_t(ctx.platform.sm.count) * 4));
    KernelLaunch k;
    k.name = "stream";
    k.grid = {grid_used_, 1, 1};
    k.block = {block_, 1, 1};
    k.body = [a](Warp& w) { return stream_kernel(w, a); };
    h.launch(std::move(k));
    h.synchronize();
    result_ = h.download<uint32_t>(a.y, y_.size());
  }

  uint64_t n_;
  uint32_t scalar_, block_, grid_, stride_, grid_used_ = 0;
  bool axpy_ = true;
  std::vector<uint32_t> x_, y_, result_;
  std::unique_ptr<HostModule> host_;
};

} // namespace

WorkloadEntry stream_workload() {
  WorkloadInfo info{"stream",
                    "y[i] = a * x[i] (+ y[i]) over u32 arrays: streaming loads and stores, no "
                    "atomics (op=scale: where a write-allocate L1 costs time)",
                    {{"n", "262144", "elements"},
                     {"op", "axpy", "axpy: y = a * x + y; scale: y = a * x (y is never read)"},
                     {"stride", "1", "y index = i * stride (> 1: stores write sectors partly)"},
                     {"a", "3", "the scalar a"},
                     {"block", "256", "threads per block"},
                     {"grid", "0",
                      "blocks (0 = min(n / block, 4 per SM)); the kernel is "
                      "grid-stride"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<StreamWorkload>(a); }};
}

} // namespace tlmgpu
