#include "workloads/conv_bwd_filter/conv_core.hpp"

#include "tlmgpu/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tlmgpu::conv {

void Shape::validate(const std::string& who) const {
  if (h + 2 * pad < r || w + 2 * pad < s)
    throw ConfigError(who + ": the filter (R=" + std::to_string(r) + ", S=" + std::to_string(s) +
                      ") is larger than the padded input");
  // Host vectors and device buffers of this many words must stay allocatable.
  const double limit = double(1u << 30);
  if (double(n) * c * h * w > limit || double(n) * k * p() * q() > limit ||
      double(k) * c * r * s > limit)
    throw ConfigError(who + ": a tensor would exceed 2^30 words (4 GiB)");
}

const std::vector<Layer>& resnet_layers() {
  // DAB Table III at batch 16, stride 1; the 3x3 layers keep H x W, so pad 1.
  // The paper gives n = 18 for every layer 2, n = 1 for cnv2_3 ("every CTA
  // writes the same addresses") and m = 4 for cnv3_3 ("every 4 CTAs write the
  // same set of addresses", read as 4 CTAs per region as in seed-001 §10.6).
  static const std::vector<Layer> layers = {
      {"cnv2_1", {16, 256, 56, 56, 64, 1, 1, 1, 0}, 0, 0},
      {"cnv2_2", {16, 64, 56, 56, 64, 3, 3, 1, 1}, 18, 0},
      {"cnv2_3", {16, 64, 56, 56, 256, 1, 1, 1, 0}, 1, 0},
      {"cnv3_1", {16, 512, 28, 28, 128, 1, 1, 1, 0}, 0, 0},
      {"cnv3_2", {16, 128, 28, 28, 128, 3, 3, 1, 1}, 18, 0},
      {"cnv3_3", {16, 128, 28, 28, 512, 1, 1, 1, 0}, 0, 4},
      {"cnv4_1", {16, 1024, 14, 14, 256, 1, 1, 1, 0}, 0, 0},
      {"cnv4_2", {16, 256, 14, 14, 256, 3, 3, 1, 1}, 18, 0},
      {"cnv4_3", {16, 256, 14, 14, 1024, 1, 1, 1, 0}, 0, 0},
  };
  return layers;
}

const Layer* find_layer(const std::string& name) {
  for (const Layer& l : resnet_layers())
    if (name == l.name) return &l;
  return nullptr;
}

std::string layer_names() {
  std::string s;
  for (const Layer& l : resnet_layers())
    s += (s.empty() ? "" : ", ") + std::string(l.name);
  return s;
}

Mapping default_mapping(const Layer* layer, const Shape& s, uint64_t block) {
  Mapping map;
  map.block = block;
  // Unknown n: regions of 8 elements per thread, which is what the paper's
  // one known case has (cnv2_2: 36864 / 18 = 2048 = 8 x 256 threads).
  const uint64_t by_size = std::max<uint64_t>(1, s.elements() / (8 * block));
  map.regions = layer && layer->regions ? layer->regions : by_size;
  // Unknown m: one slice per image of the batch (at the layer's own batch 16,
  // also when `scale` shrinks N, so the CTAs and reds stay the layer's).
  map.m = layer ? (layer->m ? layer->m : layer->shape.n) : s.n;
  return map;
}

std::vector<float> make_f32(std::mt19937_64& rng, uint64_t count, uint32_t spread) {
  std::vector<float> v(count);
  for (float& f : v) {
    const uint64_t bits = rng();
    const float mant = 1.0f + float(bits >> 41) * 0x1p-23f; // 23 bits: exact
    const int e = int((bits >> 8) % (2 * uint64_t(spread) + 1)) - int(spread);
    f = std::ldexp(mant, e);
    if (bits & 1) f = -f;
  }
  return v;
}

std::vector<uint32_t> make_u32(std::mt19937_64& rng, uint64_t count) {
  std::vector<uint32_t> v(count);
  for (uint32_t& u : v)
    u = uint32_t(rng() >> 32);
  return v;
}

namespace {

std::string where(const Shape& s, uint64_t e) {
  return "dW[" + std::to_string(e / (s.s * s.r * s.c)) + "][" +
         std::to_string((e / (s.s * s.r)) % s.c) + "][" + std::to_string((e / s.s) % s.r) + "][" +
         std::to_string(e % s.s) + "]";
}

} // namespace

CheckResult check_f32(const Shape& s, const Mapping& map, const std::vector<float>& x,
                      const std::vector<float>& dy, const std::vector<float>& result) {
  // Each device word is m partial sums added onto 0 in whatever order the
  // memory system applied the reds, each partial an FMA chain over at most
  // max_slice terms: a summation tree of height at most max_slice + m. Any
  // such tree is within h * u * sum|terms| of the exact sum (Higham,
  // Accuracy and Stability, eq. 4.4; u = 2^-24), for every order, so the
  // check never depends on scheduling; +2 covers the second-order term. The
  // products of two floats are exact in double, and the double sum's own
  // error is 2^-29 times smaller than the bound.
  const double bound = double(map.max_slice(s) + map.m + 2) * 0x1p-24;
  CheckResult c;
  for (uint64_t e = 0; e < s.elements(); ++e) {
    double ref = 0, abs_sum = 0;
    for_each_term(s, e, 0, s.positions(), [&](uint64_t d, uint64_t xi) {
      const double t = double(dy[d]) * double(x[xi]);
      ref += t;
      abs_sum += std::fabs(t);
    });
    const double err = std::fabs(double(result[e]) - ref), tol = bound * abs_sum;
    c.max_abs = std::max(c.max_abs, err);
    if (tol > 0) c.max_ratio = std::max(c.max_ratio, err / tol);
    if (err <= tol) continue;
    if (c.mismatches++ == 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    ": device %.9g, CPU reference %.12g, error %.3g > tolerance %.3g",
                    double(result[e]), ref, err, tol);
      c.error = where(s, e) + buf;
    }
  }
  return c;
}

CheckResult check_u32(const Shape& s, const std::vector<uint32_t>& x,
                      const std::vector<uint32_t>& dy, const std::vector<uint32_t>& result) {
  CheckResult c;
  for (uint64_t e = 0; e < s.elements(); ++e) {
    uint32_t ref = 0;
    for_each_term(s, e, 0, s.positions(), [&](uint64_t d, uint64_t xi) { ref += dy[d] * x[xi]; });
    if (result[e] == ref) continue;
    if (c.mismatches++ == 0)
      c.error = where(s, e) + ": device " + std::to_string(result[e]) + ", CPU reference " +
                std::to_string(ref) + " (u32 sums must match exactly in any order)";
  }
  return c;
}

} // namespace tlmgpu::conv
