// `histogram` and `histogram-shared`: the LAB paper's Listing 1 and its
// shared-memory variant on generated pixels (seeded) or the real digits
// images, checked bin by bin against a CPU histogram.
#include "workloads/histogram/histogram.hpp"

#include "models/host/host_module.hpp"
#include "workloads/histogram/histogram_kernels.hpp"
#include "workloads/ml/digits.hpp"

#include "tlmgpu/memory_budget.hpp"

#include <bit>
#include <filesystem>
#include <random>
#include <sstream>

namespace tlmgpu {

namespace {

class HistogramWorkload : public Workload {
public:
  HistogramWorkload(const WarpTaskFactory& kernel, bool shared, const WorkloadArgs& a)
      : kernel_(kernel), shared_(shared) {
    n_ = a.u64("n", 1, 1ull << 32);
    bins_ = uint32_t(a.u64("bins", 1, 1u << 20));
    block_ = uint32_t(a.u64("block", 1, 1u << 20));
    grid_ = uint32_t(a.u64("grid", 0, 1u << 30));
    input_ = a.str("input");
    racy_ = a.u64("racy", 0, 1) != 0;
    if (input_ != "gen" && input_.rfind("digits:", 0) != 0)
      throw ConfigError(
          "workload argument input: expected 'gen' or 'digits:<path to digits.csv.gz>', got '" +
          input_ + "'");
    // The pixels on the host and in device memory (input=gen; a digits file
    // is bounded by its reader), and the bins in both and in the check.
    if (input_ == "gen")
      check_memory(sat_add(sat_mul(n_, 8), uint64_t(bins_) * 24),
                   std::string("workload ") + (shared_ ? "histogram-shared" : "histogram") +
                       " (n=" + std::to_string(n_) + ")");
  }

  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    make_pixels(ctx.seed); // before simulation: a bad input file is an error, not a half run
    host_ = std::make_unique<HostModule>("host", ctx, gpu);
    host_->program = [this, &ctx](HostModule& h) { program(ctx, h); };
  }
  bool finished() const override { return host_ && host_->finished(); }

  std::string check(SimContext& ctx, GpuModule&, std::ostream& out) override {
    std::vector<uint64_t> ref(bins_, 0);
    for (uint32_t p : pixels_)
      ++ref[p < bins_ ? p : p % bins_]; // generated pixels are bins already: no division
    std::string error;
    for (uint32_t b = 0; b < bins_ && error.empty(); ++b)
      if (result_[b] != ref[b])
        error = "bin " + std::to_string(b) + ": device " + std::to_string(result_[b]) +
                ", CPU reference " + std::to_string(ref[b]);
    FileWriter file = ctx.result_file("histogram.txt");
    std::ostream& f = file.stream();
    f << "# bin count (" << (shared_ ? "histogram-shared" : "histogram") << ", n=" << pixels_.size()
      << ")\n";
    for (uint32_t b = 0; b < bins_; ++b)
      f << b << " " << result_[b] << "\n";
    file.close();
    out << (shared_ ? "histogram-shared" : "histogram") << ": " << pixels_.size() << " pixels into "
        << bins_ << " bins, grid " << grid_used_ << " x " << block_
        << (racy_ ? " (racy kernel)" : "") << ", result in "
        << ctx.result_path("histogram.txt").string() << "\n";
    return error;
  }

private:
  void make_pixels(uint64_t seed) {
    if (input_ == "gen") {
      std::mt19937_64 rng(seed);
      pixels_.resize(n_);
      // Uniform, as the LAB benchmark's random ints. A mask when bins is a
      // power of two (the same values as %, without a 64-bit division per
      // pixel: issue 13's functional floor counts this loop's time).
      const uint64_t mask = std::has_single_bit(bins_) ? bins_ - 1 : 0;
      if (mask)
        for (auto& p : pixels_)
          p = uint32_t(rng() & mask);
      else
        for (auto& p : pixels_)
          p = uint32_t(rng() % bins_);
      return;
    }
    try {
      ml::DigitsData d = ml::read_digits(input_.substr(7));
      pixels_.assign(d.pixels.begin(), d.pixels.end());
    } catch (const std::exception& e) { // a bad input is the user's error, like a bad config
      throw ConfigError(std::string("workload argument input: ") + e.what());
    }
  }

  void program(SimContext& ctx, HostModule& h) {
    HistogramArgs a;
    a.n = pixels_.size();
    a.bins = bins_;
    a.racy = racy_;
    a.pixels = h.upload(pixels_, "pixels");
    a.hist = h.malloc(uint64_t(bins_) * 4, "hist");
    h.memset(a.hist, 0, uint64_t(bins_) * 4);
    const PlatformSpec& p = ctx.platform;
    grid_used_ =
        grid_ ? grid_
              : uint32_t(std::min<uint64_t>((a.n + block_ - 1) / block_, uint64_t(p.sm.count) * 4));
    KernelLaunch k;
    k.name = shared_ ? "histogram_shared" : "histogram";
    k.grid = {grid_used_, 1, 1};
    k.block = {block_, 1, 1};
    k.shared_bytes = shared_ ? bins_ * 4 : 0;
    k.body = [a, this](Warp& w) { return kernel_(w, a); };
    h.launch(std::move(k));
    h.synchronize();
    result_ = h.download<uint32_t>(a.hist, bins_);
  }

  WarpTaskFactory kernel_;
  bool shared_;
  uint64_t n_;
  uint32_t bins_, block_, grid_, grid_used_ = 0;
  std::string input_;
  bool racy_;
  std::vector<uint32_t> pixels_, result_;
  std::unique_ptr<HostModule> host_;
};

std::vector<WorkloadArg> histogram_args() {
  return {
      {"n", "1048576", "pixels (input=gen)"},
      {"bins", "256", "histogram bins (the LAB paper also uses 8192)"},
      {"input", "gen", "'gen' (seeded uniform pixels) or 'digits:<path>' (real 8x8 digit images)"},
      {"block", "256", "threads per block"},
      {"grid", "0", "blocks (0 = min(n / block, 4 per SM)); the kernel is grid-stride"},
      {"racy", "0", "1 = non-atomic read-modify-write: a wrong kernel the check must catch"}};
}

} // namespace

WorkloadEntry histogram_workload() {
  WorkloadInfo info{"histogram",
                    "LAB paper Listing 1: one device-scope commutative atomicAdd per pixel",
                    histogram_args()};
  return {info, [](const WorkloadArgs& a) {
            return std::make_unique<HistogramWorkload>(histogram_kernel, false, a);
          }};
}

WorkloadEntry histogram_shared_workload() {
  WorkloadInfo info{"histogram-shared",
                    "per-CTA shared-memory sub-histograms, then one device atomic per bin per CTA",
                    histogram_args()};
  return {info, [](const WorkloadArgs& a) {
            return std::make_unique<HistogramWorkload>(histogram_shared_kernel, true, a);
          }};
}

} // namespace tlmgpu
