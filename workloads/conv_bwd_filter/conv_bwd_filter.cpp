#include "workloads/conv_bwd_filter/conv_bwd_filter.hpp"

#include "models/host/host_module.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/memory_budget.hpp"
#include "workloads/ml_apps/ml_apps.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace tlmgpu {

namespace {

// One multiply-add of the compute phase: the GPU's FFMA rounds once, and the
// u32 twin wraps mod 2^32 like IMAD.
inline float mac(float acc, float a, float b) {
  return std::fma(a, b, acc);
}
inline uint32_t mac(uint32_t acc, uint32_t a, uint32_t b) {
  return acc + a * b;
}

} // namespace

// Thread t of CTA c owns the dW words first + t + i * blockDim (i <
// per_thread) of region c mod n, so a warp's red writes 32 consecutive words
// (the paper's "32 distinct addresses per warp atomic instruction"). It sums
// each word's terms over the CTA's slice of the (n, p, q) positions in a
// register, then after the CTA barrier issues its reds back to back: cuDNN's
// kernel computes first, then issues a long sequence of atomics (DAB §VI-A).
template <class T>
WarpTask conv_bwd_filter_kernel(Warp& w, ConvArgs a) {
  using L64 = Lanes<uint64_t>;
  using I64 = Lanes<int64_t>;
  const conv::Shape& s = a.shape;
  const uint64_t cta = w.cta_linear(), region = a.map.region_of(cta);
  const uint64_t first = region * a.map.region_size(s);
  const uint64_t last = std::min(s.elements(), first + a.map.region_size(s));
  const uint64_t begin = a.map.slice_begin(s, a.map.slice_of(cta));
  const uint64_t end = a.map.slice_end(s, a.map.slice_of(cta));
  const uint64_t per_thread = a.map.per_thread(s), pq = s.p() * s.q();
  const L64 tid = w.thread_idx().as<uint64_t>();
  co_await w.compute(8); // region, slice and bounds from blockIdx
  std::vector<Lanes<T>> acc(per_thread, Lanes<T>(T(0)));
  std::vector<Mask> owns(per_thread);
  for (uint64_t i = 0; i < per_thread; ++i) {
    const L64 e = L64(first + i * a.map.block) + tid;
    owns[i] = w.active() & (e < L64(last));
    if (owns[i].empty()) continue;
    const L64 fs = e % L64(s.s), fr = (e / L64(s.s)) % L64(s.r);
    const L64 fc = (e / L64(s.s * s.r)) % L64(s.c), fk = e / L64(s.s * s.r * s.c);
    co_await w.compute(8); // k, c, r, s of the word
    for (uint64_t i_pos = begin; i_pos < end; ++i_pos) {
      // The position is uniform across the warp; the filter tap is per lane.
      const uint64_t n = i_pos / pq, p = (i_pos / s.q()) % s.p(), q = i_pos % s.q();
      const I64 hi = (L64(p * s.stride) + fr).as<int64_t>() - I64(int64_t(s.pad));
      const I64 wi = (L64(q * s.stride) + fs).as<int64_t>() - I64(int64_t(s.pad));
      const Mask inside = owns[i] & (hi >= I64(0)) & (hi < I64(int64_t(s.h))) & (wi >= I64(0)) &
                          (wi < I64(int64_t(s.w)));
      co_await w.compute(4);        // position step, two addresses, the padding test
      if (inside.empty()) continue; // a padding-only step loads nothing
      const L64 dy_idx = ((L64(n * s.k) + fk) * L64(s.p()) + L64(p)) * L64(s.q()) + L64(q);
      const L64 x_idx = select(inside,
                               ((L64(n * s.c) + fc) * L64(s.h) + hi.as<uint64_t>()) * L64(s.w) +
                                   wi.as<uint64_t>(),
                               L64(0));
      const Lanes<T> dy = co_await w.load<T>(address_of<T>(a.dy, dy_idx), inside);
      const Lanes<T> x = co_await w.load<T>(address_of<T>(a.x, x_idx), inside);
      inside.for_each([&](unsigned l) { acc[i][l] = mac(acc[i][l], dy[l], x[l]); });
    }
  }
  co_await w.barrier(); // __syncthreads between the phases (DAB §III: in this workload)
  for (uint64_t i = 0; i < per_thread; ++i) {
    if (owns[i].empty()) continue;
    const L64 e = L64(first + i * a.map.block) + tid;
    co_await w.red<T>(AtomicOp::Add, address_of<T>(a.dw, e), acc[i], owns[i], a.order,
                      Scope::Device);
  }
}

template WarpTask conv_bwd_filter_kernel<float>(Warp&, ConvArgs);
template WarpTask conv_bwd_filter_kernel<uint32_t>(Warp&, ConvArgs);

namespace {

const char* kName = "conv-bwd-filter";

class ConvWorkload : public Workload {
public:
  explicit ConvWorkload(const WorkloadArgs& v) {
    layer_name_ = v.str("layer");
    layer_ = conv::find_layer(layer_name_);
    if (!layer_ && layer_name_ != "custom")
      throw ConfigError(std::string("workload '") + kName + "' argument layer: expected one of " +
                        conv::layer_names() + " or custom, got '" + layer_name_ + "'");
    scale_ = v.u64("scale", 1, 1024);
    // A layer's N, H and W are divided by scale (rounding up); a dimension
    // given explicitly is taken as it is.
    const conv::Shape base = layer_ ? layer_->shape : conv::Shape{};
    auto scaled = [&](uint64_t d) { return layer_ ? (d + scale_ - 1) / scale_ : d; };
    const uint64_t big = 1u << 16;
    s_.n = dim(v, "N", scaled(base.n), 1, big);
    s_.c = dim(v, "C", base.c, 1, big);
    s_.h = dim(v, "H", scaled(base.h), 1, big);
    s_.w = dim(v, "W", scaled(base.w), 1, big);
    s_.k = dim(v, "K", base.k, 1, big);
    s_.r = dim(v, "R", base.r, 1, 64);
    s_.s = dim(v, "S", base.s, 1, 64);
    s_.stride = dim(v, "stride", base.stride, 1, 64);
    s_.pad = dim(v, "pad", base.pad, 0, 64);
    s_.validate(std::string("workload '") + kName + "'");
    const uint64_t block = v.u64("block", 1, 1024);
    map_ = conv::default_mapping(layer_, s_, block);
    map_.regions = dim(v, "regions", map_.regions, 1, s_.elements());
    map_.m = dim(v, "m", map_.m, 1, 1u << 20);
    if (map_.ctas() > (1u << 31))
      throw ConfigError(std::string("workload '") + kName + "': m * regions exceeds 2^31 CTAs");
    const std::string type = v.str("type");
    if (type != "f32" && type != "u32")
      throw ConfigError(std::string("workload '") + kName +
                        "' argument type: expected f32 or u32, got '" + type + "'");
    u32_ = type == "u32";
    const std::string order = v.str("order");
    if (order == "relaxed")
      order_ = MemOrder::Relaxed;
    else if (order == "commutative")
      order_ = MemOrder::Commutative;
    else
      throw ConfigError(std::string("workload '") + kName +
                        "' argument order: expected relaxed or commutative, got '" + order + "'");
    spread_ = uint32_t(v.u64("spread", 0, 40)); // 2^82 products: sums stay finite
    data_seed_ = v.str("data_seed") == "seed" ? 0 : v.u64("data_seed", 0, UINT64_MAX);
    seed_from_run_ = v.str("data_seed") == "seed";
    corrupt_ = v.u64("corrupt", 0, 1) != 0;
    // x and dy on the host and in device memory; dW in device memory, read
    // back and as the check's reference (in double): 4-byte words throughout
    // except the reference.
    check_memory(sat_add(sat_mul(s_.x_size() + s_.dy_size(), 8), sat_mul(s_.elements(), 20)),
                 std::string("workload ") + kName + " (layer=" + layer_name_ +
                     ", scale=" + std::to_string(scale_) + ")");
  }

  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    if (seed_from_run_) data_seed_ = ctx.seed;
    std::mt19937_64 rng(data_seed_);
    if (u32_) {
      xu_ = conv::make_u32(rng, s_.x_size());
      dyu_ = conv::make_u32(rng, s_.dy_size());
    } else {
      xf_ = conv::make_f32(rng, s_.x_size(), spread_);
      dyf_ = conv::make_f32(rng, s_.dy_size(), spread_);
    }
    host_ = std::make_unique<HostModule>("host", ctx, gpu);
    host_->program = [this](HostModule& h) { program(h); };
  }
  bool finished() const override { return host_ && host_->finished(); }
  std::string check(SimContext& ctx, GpuModule&, std::ostream& out) override;

private:
  // "layer" (the declared default) keeps the layer's value.
  static uint64_t dim(const WorkloadArgs& v, const char* name, uint64_t from_layer, uint64_t min,
                      uint64_t max) {
    return v.str(name) == "layer" ? from_layer : v.u64(name, min, max);
  }

  template <class T>
  std::vector<T> run(HostModule& h, const std::vector<T>& x, const std::vector<T>& dy) {
    ConvArgs a;
    a.shape = s_;
    a.map = map_;
    a.order = order_;
    a.x = h.upload(x, "X");
    a.dy = h.upload(dy, "dY");
    a.dw = h.malloc(s_.elements() * 4, "dW");
    h.memset(a.dw, 0, s_.elements() * 4); // beta = 0: dW is this batch's gradient
    KernelLaunch k;
    k.name = "conv_bwd_filter";
    k.grid = {uint32_t(map_.ctas()), 1, 1};
    k.block = {uint32_t(map_.block), 1, 1};
    // The per-word accumulators live in registers, which bounds occupancy.
    k.regs_per_thread = uint32_t(std::min<uint64_t>(255, 32 + map_.per_thread(s_)));
    k.body = [a](Warp& w) { return conv_bwd_filter_kernel<T>(w, a); };
    h.launch(std::move(k));
    h.synchronize();
    return h.download<T>(a.dw, s_.elements()); // also hashed into output_hash
  }
  void program(HostModule& h) {
    if (u32_)
      resu_ = run(h, xu_, dyu_);
    else
      resf_ = run(h, xf_, dyf_);
  }

  std::string layer_name_;
  const conv::Layer* layer_ = nullptr;
  conv::Shape s_;
  conv::Mapping map_;
  uint64_t scale_ = 1, data_seed_ = 0;
  uint32_t spread_ = 8;
  bool u32_ = false, corrupt_ = false, seed_from_run_ = true;
  MemOrder order_ = MemOrder::Relaxed;
  std::vector<float> xf_, dyf_, resf_;
  std::vector<uint32_t> xu_, dyu_, resu_;
  std::unique_ptr<HostModule> host_;
};

std::string ConvWorkload::check(SimContext& ctx, GpuModule&, std::ostream& out) {
  const uint64_t e_count = s_.elements(), mid = e_count / 2;
  if (corrupt_) {
    if (u32_)
      resu_[mid] += 1;
    else
      resf_[mid] = ml_apps::flip_exponent_bit(resf_[mid]);
  }
  const conv::CheckResult c =
      u32_ ? conv::check_u32(s_, xu_, dyu_, resu_) : conv::check_f32(s_, map_, xf_, dyf_, resf_);
  const auto path = std::filesystem::path(ctx.out_dir) / "conv-bwd-filter.txt";
  std::ofstream f(path);
  f << "# conv-bwd-filter layer=" << layer_name_ << " scale=" << scale_ << " N=" << s_.n
    << " C=" << s_.c << " H=" << s_.h << " W=" << s_.w << " K=" << s_.k << " R=" << s_.r
    << " S=" << s_.s << " stride=" << s_.stride << " pad=" << s_.pad << " regions=" << map_.regions
    << " m=" << map_.m << " type=" << (u32_ ? "u32" : "f32") << " data_seed=" << data_seed_
    << "\n# k c r s value bits\n";
  char line[128];
  for (uint64_t e = 0; e < e_count; ++e) {
    const uint32_t bits = u32_ ? resu_[e] : std::bit_cast<uint32_t>(resf_[e]);
    const double value = u32_ ? double(resu_[e]) : double(resf_[e]);
    std::snprintf(line, sizeof line, "%llu %llu %llu %llu %.9g 0x%08x\n",
                  (unsigned long long)(e / (s_.s * s_.r * s_.c)),
                  (unsigned long long)((e / (s_.s * s_.r)) % s_.c),
                  (unsigned long long)((e / s_.s) % s_.r), (unsigned long long)(e % s_.s), value,
                  bits);
    f << line;
  }
  out << kName << ": " << layer_name_ << (layer_ ? " scale " + std::to_string(scale_) : "")
      << ", NCHW=" << s_.n << "," << s_.c << "," << s_.h << "," << s_.w << " KCRS=" << s_.k << ","
      << s_.c << "," << s_.r << "," << s_.s << " PQ=" << s_.p() << "x" << s_.q() << ", "
      << (u32_ ? "u32" : "f32") << "; " << map_.regions << " regions x m=" << map_.m << " = "
      << map_.ctas() << " CTAs x " << map_.block << ", " << map_.per_thread(s_)
      << " words per thread, slices of <= " << map_.max_slice(s_) << " positions"
      << (corrupt_ ? " (corrupt=1)" : "");
  if (u32_)
    out << "; " << c.mismatches << " words differ";
  else
    out << "; max |error| " << c.max_abs << ", max error/tolerance " << c.max_ratio;
  out << "; result in " << path.string() << "\n";
  return c.error;
}

} // namespace

WorkloadEntry conv_bwd_filter_workload() {
  WorkloadInfo info{
      kName,
      "cuDNN-style backward-filter convolution of a DAB ResNet layer: m*n CTAs red.add into n "
      "filter regions",
      {{"layer", "cnv2_2", "DAB Table III layer (cnv2_1 .. cnv4_3) or custom (set the dims)"},
       {"scale", "8", "divides the layer's N, H and W (rounding up); 1 = the paper's size"},
       {"N", "layer", "batch (layer = the layer's, scaled)"},
       {"C", "layer", "input channels"},
       {"H", "layer", "input height (scaled)"},
       {"W", "layer", "input width (scaled)"},
       {"K", "layer", "output channels (filters)"},
       {"R", "layer", "filter height"},
       {"S", "layer", "filter width"},
       {"stride", "layer", "convolution stride"},
       {"pad", "layer", "zero padding on each side"},
       {"regions", "layer", "n: dW regions; CTA c adds into region c mod n (layer: see README)"},
       {"m", "layer", "CTAs per region, each over 1/m of the N*P*Q positions"},
       {"block", "256", "threads per CTA"},
       {"type", "f32", "f32 (red.add.f32) or u32 (red.add.u32: exact in any order)"},
       {"order", "relaxed", "memory order of the reds: relaxed (CUDA atomicAdd) or commutative"},
       {"spread", "8", "f32 inputs are +-(1..2) * 2^e, e uniform in [-spread, spread]"},
       {"data_seed", "seed", "seed of X and dY (seed = --seed)"},
       {"corrupt", "0", "test hook: 1 = alter one device word before the check (must fail)"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<ConvWorkload>(a); }};
}

} // namespace tlmgpu
