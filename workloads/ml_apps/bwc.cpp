// `bwc`: the weight-gradient (backward-filter) convolution of the LAB paper's
// BWC benchmark and the DAB paper's ResNet layers, in the shape of cuDNN's
// atomic algorithm (bwd_filter algo 0): the reduction over (n, p, q) is cut
// into tiles, each thread multiplies and sums one tile for one dW element in a
// register, then adds the partial sum into dW with a device-scope commutative
// float atomicAdd whose result is unused (red.global.add.f32).
#include "models/host/host_module.hpp"
#include "tlmgpu/params.hpp"
#include "workloads/ml_apps/ml_apps.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

namespace tlmgpu {

namespace {

struct BwcArgs {
  Addr x = 0, dy = 0, dw = 0;    // float X[N][C][H][W], dY[N][K][P][Q], dW[K][C][R][S]
  uint64_t n, c, h, w, k, r, s;  // shapes
  uint64_t p, q, pad, stride;    // output size, zero padding, stride
  uint64_t tile = 64, tiles = 1; // reduction terms per thread; tiles per dW element
};

// Thread t owns dW element e = t % E and reduction tile j = t / E. Consecutive
// lanes take consecutive dW elements, so one red instruction writes up to 32
// distinct words of a few lines, and CTAs whose ids are congruent modulo
// E / blockDim write the same section of dW, as in the DAB paper's layers.
WarpTask bwc_kernel(Warp& w, BwcArgs a) {
  using L64 = Lanes<uint64_t>;
  const uint64_t e_count = a.k * a.c * a.r * a.s, l_count = a.n * a.p * a.q;
  const L64 t = w.global_thread_id();
  const Mask m = w.active() & (t < L64(e_count * a.tiles));
  if (m.empty()) co_return;
  const L64 e = t % L64(e_count), j = t / L64(e_count);
  const L64 fs = e % L64(a.s), fr = (e / L64(a.s)) % L64(a.r);
  const L64 fc = (e / L64(a.s * a.r)) % L64(a.c), fk = e / L64(a.s * a.r * a.c);
  co_await w.compute(12); // the divisions and moduli above
  Lanes<float> acc(0.0f);
  for (uint64_t it = 0; it < a.tile; ++it) {
    const L64 i = j * L64(a.tile) + L64(it);
    const Mask mi = m & (i < L64(l_count));
    if (mi.empty()) break;
    const L64 n = i / L64(a.p * a.q), p = (i / L64(a.q)) % L64(a.p), q = i % L64(a.q);
    // Input row/column of this term; signed because padding can push it below 0.
    const Lanes<int64_t> hi =
        (p * L64(a.stride) + fr).as<int64_t>() - Lanes<int64_t>(int64_t(a.pad));
    const Lanes<int64_t> wi =
        (q * L64(a.stride) + fs).as<int64_t>() - Lanes<int64_t>(int64_t(a.pad));
    const Mask inside = mi & (hi >= Lanes<int64_t>(0)) & (hi < Lanes<int64_t>(int64_t(a.h))) &
                        (wi >= Lanes<int64_t>(0)) & (wi < Lanes<int64_t>(int64_t(a.w)));
    // Incremental (n, p, q) stepping, two addresses, the padding test, the FMA
    // and the loop branch of the compiled kernel.
    co_await w.compute(10);
    if (inside.empty()) continue; // a padding-only step loads nothing
    const L64 dy_idx = ((n * L64(a.k) + fk) * L64(a.p) + p) * L64(a.q) + q;
    const L64 x_idx = select(
        inside, ((n * L64(a.c) + fc) * L64(a.h) + hi.as<uint64_t>()) * L64(a.w) + wi.as<uint64_t>(),
        L64(0));
    const Lanes<float> dy = co_await w.load<float>(address_of<float>(a.dy, dy_idx), inside);
    const Lanes<float> x = co_await w.load<float>(address_of<float>(a.x, x_idx), inside);
    inside.for_each([&](unsigned l) { acc[l] += dy[l] * x[l]; });
  }
  co_await w.red<float>(AtomicOp::Add, address_of<float>(a.dw, e), acc, m, MemOrder::Commutative,
                        Scope::Device);
}

// Uniform in [-1, 1) with 24 random bits: exact in float and independent of
// the standard library's distribution implementation.
float uniform_pm1(std::mt19937_64& rng) {
  return float(rng() >> 40) * 0x1p-23f - 1.0f;
}

class BwcWorkload : public Workload {
public:
  explicit BwcWorkload(const WorkloadArgs& v) {
    const uint64_t big = 1u << 16;
    a_.n = v.u64("N", 1, big), a_.c = v.u64("C", 1, big), a_.h = v.u64("H", 1, big);
    a_.w = v.u64("W", 1, big), a_.k = v.u64("K", 1, big), a_.r = v.u64("R", 1, 64);
    a_.s = v.u64("S", 1, 64), a_.pad = v.u64("pad", 0, 64), a_.stride = v.u64("stride", 1, 64);
    a_.tile = v.u64("tile", 1, 1u << 20);
    block_ = uint32_t(v.u64("block", 1, 1024));
    corrupt_ = v.u64("corrupt", 0, 1) != 0;
    if (a_.h + 2 * a_.pad < a_.r || a_.w + 2 * a_.pad < a_.s)
      throw ConfigError("workload bwc: the filter (R=" + std::to_string(a_.r) +
                        ", S=" + std::to_string(a_.s) + ") is larger than the padded input");
    a_.p = (a_.h + 2 * a_.pad - a_.r) / a_.stride + 1;
    a_.q = (a_.w + 2 * a_.pad - a_.s) / a_.stride + 1;
    // Host vectors and device buffers of this many floats must stay allocatable.
    const double limit = double(1u << 30);
    if (double(a_.n) * a_.c * a_.h * a_.w > limit || double(a_.n) * a_.k * a_.p * a_.q > limit ||
        double(a_.k) * a_.c * a_.r * a_.s > limit)
      throw ConfigError("workload bwc: a tensor would exceed 2^30 floats (4 GiB)");
    a_.tiles = (a_.n * a_.p * a_.q + a_.tile - 1) / a_.tile;
  }

  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    std::mt19937_64 rng(ctx.seed);
    x_.resize(a_.n * a_.c * a_.h * a_.w);
    dy_.resize(a_.n * a_.k * a_.p * a_.q);
    for (float& f : x_)
      f = uniform_pm1(rng);
    for (float& f : dy_)
      f = uniform_pm1(rng);
    host_ = std::make_unique<HostModule>("host", ctx, gpu);
    host_->program = [this](HostModule& h) { program(h); };
  }
  bool finished() const override { return host_ && host_->finished(); }

  std::string check(SimContext& ctx, GpuModule&, std::ostream& out) override;

private:
  void program(HostModule& h) {
    BwcArgs a = a_;
    const uint64_t e_count = a.k * a.c * a.r * a.s;
    a.x = h.upload(x_, "X");
    a.dy = h.upload(dy_, "dY");
    a.dw = h.malloc(e_count * 4, "dW");
    h.memset(a.dw, 0, e_count * 4); // beta = 0: dW is the gradient of this batch
    KernelLaunch k;
    k.name = "bwc_bwd_filter";
    grid_ = uint32_t((e_count * a.tiles + block_ - 1) / block_);
    k.grid = {grid_, 1, 1};
    k.block = {block_, 1, 1};
    k.body = [a](Warp& w) { return bwc_kernel(w, a); };
    h.launch(std::move(k));
    h.synchronize();
    result_ = h.download<float>(a.dw, e_count);
  }

  BwcArgs a_;
  uint32_t block_ = 256, grid_ = 0;
  bool corrupt_ = false;
  std::vector<float> x_, dy_, result_;
  std::unique_ptr<HostModule> host_;
};

std::string BwcWorkload::check(SimContext& ctx, GpuModule&, std::ostream& out) {
  const uint64_t e_count = a_.k * a_.c * a_.r * a_.s;
  if (corrupt_) result_[e_count / 2] = ml_apps::flip_exponent_bit(result_[e_count / 2]);
  // Each device sum is a tree of height at most tile (the in-register chain,
  // plus the product's own rounding) + tiles (the atomic chain onto 0), in
  // whatever order the memory system applied the atomics. Floating-point
  // summation in any such order is within h * u * sum|terms| (Higham, eq. 4.4;
  // u = 2^-24), so that, with 2 terms of slack, is the per-element tolerance.
  const double bound = double(a_.tile + a_.tiles + 2) * 0x1p-24;
  std::string error;
  double max_abs = 0, max_ratio = 0;
  for (uint64_t e = 0; e < e_count; ++e) {
    const uint64_t s = e % a_.s, r = (e / a_.s) % a_.r, c = (e / (a_.s * a_.r)) % a_.c;
    const uint64_t k = e / (a_.s * a_.r * a_.c);
    double ref = 0, abs_sum = 0;
    for (uint64_t n = 0; n < a_.n; ++n)
      for (uint64_t p = 0; p < a_.p; ++p) {
        const int64_t hi = int64_t(p * a_.stride + r) - int64_t(a_.pad);
        if (hi < 0 || hi >= int64_t(a_.h)) continue;
        const float* dy = &dy_[((n * a_.k + k) * a_.p + p) * a_.q];
        const float* x = &x_[((n * a_.c + c) * a_.h + uint64_t(hi)) * a_.w];
        for (uint64_t q = 0; q < a_.q; ++q) {
          const int64_t wi = int64_t(q * a_.stride + s) - int64_t(a_.pad);
          if (wi < 0 || wi >= int64_t(a_.w)) continue;
          const double t = double(dy[q]) * double(x[wi]);
          ref += t;
          abs_sum += std::fabs(t);
        }
      }
    const double err = std::fabs(double(result_[e]) - ref), tol = bound * abs_sum;
    max_abs = std::max(max_abs, err);
    if (tol > 0) max_ratio = std::max(max_ratio, err / tol);
    if (!(err <= tol) && error.empty()) {
      char buf[256];
      std::snprintf(buf, sizeof buf,
                    "dW[%llu][%llu][%llu][%llu]: device %.9g, CPU reference %.12g, error %.3g > "
                    "tolerance %.3g",
                    (unsigned long long)k, (unsigned long long)c, (unsigned long long)r,
                    (unsigned long long)s, double(result_[e]), ref, err, tol);
      error = buf;
    }
  }
  const auto path = ctx.result_path("bwc.txt");
  FileWriter file = ctx.result_file("bwc.txt");
  std::ostream& f = file.stream();
  f << "# bwc dW[k][c][r][s]: K=" << a_.k << " C=" << a_.c << " R=" << a_.r << " S=" << a_.s
    << " (N=" << a_.n << " H=" << a_.h << " W=" << a_.w << " pad=" << a_.pad
    << " stride=" << a_.stride << " seed=" << ctx.seed << ")\n# k c r s value\n";
  char line[128];
  for (uint64_t e = 0; e < e_count; ++e) {
    std::snprintf(line, sizeof line, "%llu %llu %llu %llu %.9g\n",
                  (unsigned long long)(e / (a_.s * a_.r * a_.c)),
                  (unsigned long long)((e / (a_.s * a_.r)) % a_.c),
                  (unsigned long long)((e / a_.s) % a_.r), (unsigned long long)(e % a_.s),
                  double(result_[e]));
    f << line;
  }
  file.close();
  out << "bwc: NCHW=" << a_.n << "," << a_.c << "," << a_.h << "," << a_.w << " KCRS=" << a_.k
      << "," << a_.c << "," << a_.r << "," << a_.s << " PQ=" << a_.p << "x" << a_.q << ", "
      << a_.tiles << " atomics per dW element, grid " << grid_ << " x " << block_
      << (corrupt_ ? " (corrupt=1)" : "") << "; max |error| " << max_abs << ", max error/tolerance "
      << max_ratio << "; result in " << path.string() << "\n";
  return error;
}

} // namespace

WorkloadEntry bwc_workload() {
  WorkloadInfo info{
      "bwc",
      "backward-filter convolution: per-tile partial sums into dW with commutative float atomicAdd",
      {{"N", "2", "batch"},
       {"C", "3", "input channels"},
       {"H", "16", "input height"},
       {"W", "16", "input width"},
       {"K", "4", "output channels (filters)"},
       {"R", "3", "filter height"},
       {"S", "3", "filter width"},
       {"pad", "0", "zero padding on each side (ResNet 3x3 layers: 1)"},
       {"stride", "1", "convolution stride"},
       {"tile", "64", "(n,p,q) terms each thread sums before its one atomicAdd"},
       {"block", "256", "threads per block"},
       {"corrupt", "0", "test hook: 1 = flip one device result before the check (must fail)"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<BwcWorkload>(a); }};
}

} // namespace tlmgpu
