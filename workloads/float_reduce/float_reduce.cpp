#include "workloads/float_reduce/float_reduce.hpp"

#include "models/host/host_module.hpp"
#include "tlmgpu/memory_budget.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

namespace tlmgpu {

WarpTask float_reduce_kernel(Warp& w, FloatReduceArgs a) {
  const uint64_t stride = w.grid_threads();
  for (Lanes<uint64_t> i = w.global_thread_id();; i += Lanes<uint64_t>(stride)) {
    const Mask m = w.active() & (i < Lanes<uint64_t>(a.n));
    if (m.empty()) co_return;
    const Lanes<float> v = co_await w.load<float>(address_of<float>(a.values, i), m);
    co_await w.compute(2); // the word index i % addresses
    co_await w.red<float>(AtomicOp::Add,
                          address_of<float>(a.sums, i % Lanes<uint64_t>(a.addresses)), v, m,
                          a.order, Scope::Device);
  }
}

namespace {

class FloatReduceWorkload : public Workload {
public:
  explicit FloatReduceWorkload(const WorkloadArgs& a) {
    n_ = a.u64("n", 1, 1ull << 28);
    addresses_ = uint32_t(a.u64("addresses", 1, 1u << 20));
    block_ = uint32_t(a.u64("block", 1, 1024));
    grid_ = uint32_t(a.u64("grid", 0, 1u << 30));
    decades_ = uint32_t(a.u64("decades", 0, 30));
    mixed_signs_ = a.u64("signs", 0, 1) != 0;
    data_seed_ = a.u64("data_seed", 0, UINT64_MAX);
    const std::string order = a.str("order");
    if (order == "relaxed")
      order_ = MemOrder::Relaxed;
    else if (order == "commutative")
      order_ = MemOrder::Commutative;
    else
      throw ConfigError("workload 'float-reduce' argument order: expected relaxed or "
                        "commutative, got '" +
                        order + "'");
    // The values on the host and in device memory; per address the result,
    // its device copy and the check's three sums.
    check_memory(sat_add(sat_mul(n_, 8), uint64_t(addresses_) * 36),
                 "workload float-reduce (n=" + std::to_string(n_) + ")");
  }

  // The values come from data_seed, not from --seed: --seed then changes only
  // what the run injects (jitter.*), so a different output hash under a
  // different seed means a different order, never different inputs.
  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    std::mt19937_64 rng(data_seed_);
    values_.resize(n_);
    for (float& v : values_) {
      // A decimal exponent uniform in [-decades, decades] from 53 random bits
      // (not a <random> distribution: the same values with every library).
      const double e = (double(rng() >> 11) * 0x1p-53 * 2.0 - 1.0) * decades_;
      v = float(std::pow(10.0, e));
      if (mixed_signs_ && (rng() & 1)) v = -v;
    }
    host_ = std::make_unique<HostModule>("host", ctx, gpu);
    host_->program = [this, &ctx](HostModule& h) { program(ctx, h); };
  }
  bool finished() const override { return host_ && host_->finished(); }
  std::string check(SimContext& ctx, GpuModule&, std::ostream& out) override;

private:
  void program(SimContext& ctx, HostModule& h) {
    FloatReduceArgs a;
    a.n = n_;
    a.addresses = addresses_;
    a.order = order_;
    a.values = h.upload(values_, "values");
    a.sums = h.malloc(uint64_t(addresses_) * 4, "sums");
    h.memset(a.sums, 0, uint64_t(addresses_) * 4);
    grid_used_ = grid_ ? grid_
                       : uint32_t(std::min<uint64_t>((n_ + block_ - 1) / block_,
                                                     uint64_t(ctx.platform.sm.count) * 4));
    KernelLaunch k;
    k.name = "float_reduce";
    k.grid = {grid_used_, 1, 1};
    k.block = {block_, 1, 1};
    k.body = [a](Warp& w) { return float_reduce_kernel(w, a); };
    h.launch(std::move(k));
    h.synchronize();
    result_ = h.download<float>(a.sums, addresses_);
  }

  uint64_t n_ = 0, data_seed_ = 1;
  uint32_t addresses_ = 4, block_ = 256, grid_ = 0, grid_used_ = 0, decades_ = 8;
  bool mixed_signs_ = true;
  MemOrder order_ = MemOrder::Relaxed;
  std::vector<float> values_, result_;
  std::unique_ptr<HostModule> host_;
};

std::string FloatReduceWorkload::check(SimContext& ctx, GpuModule&, std::ostream& out) {
  // Each sum is a chain of m float additions onto 0 in some order; summing in
  // any order errs by at most (m - 1) u sum|x| (Higham, eq. 4.4, u = 2^-24),
  // so that with 2 terms of slack is the tolerance. The reference is a double
  // sum, exact to far below it.
  std::vector<double> ref(addresses_, 0.0), abs_sum(addresses_, 0.0);
  std::vector<uint64_t> terms(addresses_, 0);
  for (uint64_t i = 0; i < n_; ++i) {
    ref[i % addresses_] += values_[i];
    abs_sum[i % addresses_] += std::fabs(double(values_[i]));
    ++terms[i % addresses_];
  }
  std::string error;
  double max_ratio = 0;
  for (uint32_t k = 0; k < addresses_; ++k) {
    const double err = std::fabs(double(result_[k]) - ref[k]);
    const double tol = double(terms[k] + 1) * 0x1p-24 * abs_sum[k];
    if (tol > 0) max_ratio = std::max(max_ratio, err / tol);
    if (!(err <= tol) && error.empty()) {
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "sums[%u]: device %.9g, CPU reference %.12g, error %.3g > tolerance %.3g", k,
                    double(result_[k]), ref[k], err, tol);
      error = buf;
    }
  }
  const auto path = ctx.result_path("float-reduce.txt");
  FileWriter file = ctx.result_file("float-reduce.txt");
  std::ostream& f = file.stream();
  f << "# float-reduce n=" << n_ << " addresses=" << addresses_ << " decades=" << decades_
    << " data_seed=" << data_seed_ << "\n# address sum bits\n";
  for (uint32_t k = 0; k < addresses_; ++k) {
    char line[80];
    std::snprintf(line, sizeof line, "%u %.9g 0x%08x\n", k, double(result_[k]),
                  std::bit_cast<uint32_t>(result_[k]));
    f << line;
  }
  file.close();
  out << "float-reduce: " << n_ << " values (10^-" << decades_ << "..10^" << decades_
      << (mixed_signs_ ? ", mixed signs" : "") << ") into " << addresses_ << " words, grid "
      << grid_used_ << " x " << block_ << "; max error/tolerance " << max_ratio << "; result in "
      << path.string() << "\n";
  return error;
}

} // namespace

WorkloadEntry float_reduce_workload() {
  WorkloadInfo info{
      "float-reduce",
      "order-sensitive float atomicAdd (red) of values over many decades into a few words",
      {{"n", "4096", "values"},
       {"addresses", "4", "words the values are summed into (value i goes to word i % addresses)"},
       {"block", "256", "threads per block"},
       {"grid", "0", "blocks (0 = min(n / block, 4 per SM)); the kernel is grid-stride"},
       {"decades", "8", "values have magnitudes 10^-decades .. 10^decades (log-uniform)"},
       {"signs", "1", "1 = random signs, 0 = all positive"},
       {"order", "relaxed", "memory order of the reds: relaxed (CUDA atomicAdd) or commutative"},
       {"data_seed", "1", "seed of the values (independent of --seed)"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<FloatReduceWorkload>(a); }};
}

} // namespace tlmgpu
