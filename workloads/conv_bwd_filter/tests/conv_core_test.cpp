// Unit tests of conv-bwd-filter's core, without SystemC: the Table III
// shapes, the CTA -> region mapping, and the checks against a CPU emulation
// of the kernel's arithmetic applied in several atomic orders, including a
// wrong result each check must reject.
#include "workloads/conv_bwd_filter/conv_core.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <type_traits>

using namespace tlmgpu::conv;

namespace {

// The partial sums the kernel's CTAs compute (FMA chains over each slice),
// added onto 0 in the CTA order `order`, as the reds would in some schedule.
template <class T>
std::vector<T> emulate(const Shape& s, const Mapping& map, const std::vector<T>& x,
                       const std::vector<T>& dy, const std::vector<uint64_t>& order) {
  std::vector<T> dw(s.elements(), T(0));
  const uint64_t rs = map.region_size(s);
  for (uint64_t cta : order) {
    const uint64_t first = map.region_of(cta) * rs, j = map.slice_of(cta);
    for (uint64_t e = first; e < std::min(s.elements(), first + rs); ++e) {
      T acc = T(0);
      for_each_term(s, e, map.slice_begin(s, j), map.slice_end(s, j), [&](uint64_t d, uint64_t xi) {
        if constexpr (std::is_same_v<T, float>)
          acc = std::fma(dy[d], x[xi], acc);
        else
          acc += dy[d] * x[xi];
      });
      dw[e] += acc;
    }
  }
  return dw;
}

std::vector<uint64_t> cta_order(const Mapping& map, bool reverse) {
  std::vector<uint64_t> o(map.ctas());
  for (uint64_t i = 0; i < o.size(); ++i)
    o[i] = reverse ? o.size() - 1 - i : i;
  return o;
}

// 3x3 with padding and stride 2; 5 regions of a 72-word filter (the last
// shorter) and m = 7 slices of 2 * 4 * 3 = 24 positions (uneven).
Shape small_shape() {
  Shape s;
  s.n = 2, s.c = 2, s.h = 7, s.w = 5, s.k = 4, s.r = 3, s.s = 3, s.stride = 2, s.pad = 1;
  return s;
}
Mapping small_mapping() {
  Mapping m;
  m.regions = 5, m.m = 7, m.block = 4;
  return m;
}

} // namespace

TEST_CASE("conv: Table III layers have the paper's filter sizes and reduction lengths") {
  REQUIRE(resnet_layers().size() == 9);
  const std::map<std::string, std::pair<uint64_t, uint64_t>> want = {
      {"cnv2_1", {16384, 50176}}, {"cnv2_2", {36864, 50176}},  {"cnv2_3", {16384, 50176}},
      {"cnv3_1", {65536, 12544}}, {"cnv3_2", {147456, 12544}}, {"cnv3_3", {65536, 12544}},
      {"cnv4_1", {262144, 3136}}, {"cnv4_2", {589824, 3136}},  {"cnv4_3", {262144, 3136}}};
  for (const Layer& l : resnet_layers()) {
    INFO(l.name);
    CHECK(l.shape.elements() == want.at(l.name).first);
    CHECK(l.shape.positions() == want.at(l.name).second);
    CHECK(l.shape.p() == l.shape.h); // every Table III layer keeps H x W
  }
  CHECK(find_layer("cnv3_3") != nullptr);
  CHECK(find_layer("cnv5_1") == nullptr);
}

TEST_CASE("conv: default regions and m follow the paper where it gives them") {
  const Layer& l22 = *find_layer("cnv2_2");
  const Mapping m22 = default_mapping(&l22, l22.shape, 256);
  CHECK(m22.regions == 18); // "the filter is evenly partitioned into 18 sections"
  CHECK(m22.region_size(l22.shape) == 2048);
  CHECK(m22.per_thread(l22.shape) == 8);
  CHECK(m22.m == 16);
  CHECK(default_mapping(find_layer("cnv3_2"), find_layer("cnv3_2")->shape, 256).regions == 18);
  CHECK(default_mapping(find_layer("cnv2_3"), find_layer("cnv2_3")->shape, 256).regions == 1);
  CHECK(default_mapping(find_layer("cnv3_3"), find_layer("cnv3_3")->shape, 256).m == 4);
  // Unknown n: regions of 8 words per thread, as cnv2_2's.
  CHECK(default_mapping(find_layer("cnv4_1"), find_layer("cnv4_1")->shape, 256).regions == 128);
}

TEST_CASE("conv: every (word, position) pair belongs to exactly one CTA thread") {
  const Shape s = small_shape();
  const Mapping map = small_mapping();
  std::vector<int> seen(s.elements() * s.positions(), 0);
  for (uint64_t cta = 0; cta < map.ctas(); ++cta) {
    const uint64_t first = map.region_of(cta) * map.region_size(s);
    for (uint64_t t = 0; t < map.block; ++t)
      for (uint64_t i = 0; i < map.per_thread(s); ++i) {
        const uint64_t e = first + t + i * map.block;
        if (e >= std::min(s.elements(), first + map.region_size(s))) continue;
        for (uint64_t p = map.slice_begin(s, map.slice_of(cta));
             p < map.slice_end(s, map.slice_of(cta)); ++p)
          ++seen[e * s.positions() + p];
      }
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](int v) { return v == 1; }));
  // CTAs congruent mod n share a region: c and c + n write the same words.
  CHECK(map.region_of(3) == map.region_of(3 + map.regions));
  CHECK(map.slice_of(3) + 1 == map.slice_of(3 + map.regions));
}

TEST_CASE("conv: f32 inputs are exact floats spanning 2^-spread .. 2^(spread+1), both signs") {
  std::mt19937_64 a(5), b(5);
  const std::vector<float> v = make_f32(a, 4000, 8);
  CHECK(v == make_f32(b, 4000, 8));
  float lo = INFINITY, hi = 0;
  int negative = 0;
  for (float f : v) {
    lo = std::min(lo, std::fabs(f));
    hi = std::max(hi, std::fabs(f));
    negative += f < 0;
  }
  CHECK(lo >= 0x1p-8f);
  CHECK(lo < 0x1p-7f);
  CHECK(hi >= 0x1p8f);
  CHECK(hi < 0x1p9f);
  CHECK(negative > 1800);
  CHECK(negative < 2200);
}

TEST_CASE("conv: the f32 check passes in any atomic order and rejects a wrong word") {
  const Shape s = small_shape();
  const Mapping map = small_mapping();
  std::mt19937_64 rng(11);
  const std::vector<float> x = make_f32(rng, s.x_size(), 8), dy = make_f32(rng, s.dy_size(), 8);
  const std::vector<float> fwd = emulate(s, map, x, dy, cta_order(map, false));
  const std::vector<float> rev = emulate(s, map, x, dy, cta_order(map, true));
  // The order matters to the bits (the premise of the workload) ...
  CHECK(fwd != rev);
  // ... but both are within the tolerance.
  const CheckResult cf = check_f32(s, map, x, dy, fwd);
  CHECK(cf.error.empty());
  CHECK(cf.max_ratio < 1);
  CHECK(check_f32(s, map, x, dy, rev).error.empty());
  // One word moved by twice its tolerance is caught and named.
  std::vector<float> bad = fwd;
  const uint64_t e = 37; // k=2, c=0, r=0, s=1
  double abs_sum = 0;
  for_each_term(s, e, 0, s.positions(), [&](uint64_t d, uint64_t xi) {
    abs_sum += std::fabs(double(dy[d]) * double(x[xi]));
  });
  bad[e] = float(double(bad[e]) + 2 * double(map.max_slice(s) + map.m + 2) * 0x1p-24 * abs_sum);
  const CheckResult cb = check_f32(s, map, x, dy, bad);
  CHECK(cb.mismatches == 1);
  CHECK(cb.error.rfind("dW[2][0][0][1]: device ", 0) == 0);
}

TEST_CASE("conv: the u32 result is the same in every order and exact, off by one fails") {
  const Shape s = small_shape();
  const Mapping map = small_mapping();
  std::mt19937_64 rng(3);
  const std::vector<uint32_t> x = make_u32(rng, s.x_size()), dy = make_u32(rng, s.dy_size());
  const std::vector<uint32_t> fwd = emulate(s, map, x, dy, cta_order(map, false));
  CHECK(fwd == emulate(s, map, x, dy, cta_order(map, true)));
  CHECK(check_u32(s, x, dy, fwd).error.empty());
  std::vector<uint32_t> bad = fwd;
  bad[0] += 1;
  const CheckResult c = check_u32(s, x, dy, bad);
  CHECK(c.mismatches == 1);
  CHECK(c.error.rfind("dW[0][0][0][0]: device ", 0) == 0);
}
