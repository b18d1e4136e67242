// The IRU partitions on a platform (examples/iru/tiny-iru.json: two
// partitions joined by a ring, each prefetching through joins in front of
// its two L2 slices): warps take replies from the partitions' device
// windows and write what they got; the host checks that every element came
// out exactly once with its secondary word and position (or merged, per
// index), in all three timing modes.
#include "models/host/host_module.hpp"
#include "models/iru/iru_module.hpp"
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"
#include "tlmgpu/simt/warp.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <map>
#include <random>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

struct TakeArgs {
  Addr window0, out_idx, out_sec, out_pos;
  uint32_t window_bytes, partitions;
};

// One load_iru per warp, by hand (window line 0, then 1 and 2), spread
// over the partitions by warp; every lane writes what it got.
WarpTask take(Warp& w, TakeArgs a) {
  const uint64_t gw = w.global_warp();
  const Addr win = a.window0 + (gw % a.partitions) * a.window_bytes;
  const Lanes<uint64_t> slot = Lanes<uint64_t>(gw * 32) + lane_index().as<uint64_t>();
  const Mask m = w.active();
  const auto idx = co_await w.load<uint32_t>(address_of<uint32_t>(win, lane_index()), m);
  const auto sec = co_await w.load<uint32_t>(address_of<uint32_t>(win + 128, lane_index()), m);
  const auto pos = co_await w.load<uint32_t>(address_of<uint32_t>(win + 256, lane_index()), m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.out_idx, slot), idx, m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.out_sec, slot), sec, m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.out_pos, slot), pos, m);
}

uint32_t f32(float x) {
  return std::bit_cast<uint32_t>(x);
}
float as_f32(uint32_t b) {
  return std::bit_cast<float>(b);
}

struct Outcome {
  std::vector<uint32_t> in_idx, in_sec; // the arrays configured
  std::vector<uint32_t> idx, sec, pos;  // what each lane got
  uint32_t lanes = 0;
  uint64_t remaining = 0;
  nlohmann::json gpu;
};

// n elements with indices in [0, range) (so duplicates), secondary words
// from `secondary(i)`, taken by ceil(n / 32) + 1 warps (the extra one must
// come back all inactive).
Outcome run_iru(TimingMode mode, uint32_t n, uint32_t range, std::optional<IruMerge> merge,
                const std::function<uint32_t(uint32_t)>& secondary) {
  const PlatformSpec p = load_platform(platform_path("examples/iru/tiny-iru.json"));
  std::mt19937 rng(42);
  Outcome o;
  std::vector<uint32_t>&idx = o.in_idx, &sec = o.in_sec;
  for (uint32_t i = 0; i < n; ++i)
    idx.push_back(rng() % range), sec.push_back(secondary(i));
  const uint32_t warps = (n + 31) / 32 + 1, lanes = warps * 32;
  o.lanes = lanes;
  const ProgramResult r = run_host_program(p, mode, 1, [&](HostModule& h) {
    IruControl* iru = IruControl::of(h.context());
    REQUIRE(iru);
    IruConfig c;
    c.target = h.malloc(4ull * range, "target");
    c.indices = h.upload(idx, "indices");
    c.secondary = h.upload(sec, "secondary");
    c.n = n, c.merge = merge;
    TakeArgs a{iru->window(0),
               h.malloc(4ull * lanes),
               h.malloc(4ull * lanes),
               h.malloc(4ull * lanes),
               uint32_t(iru->window(1) - iru->window(0)),
               iru->partitions()};
    REQUIRE(iru->configure(c, h.gpu().device_memory));
    h.launch(KernelLaunch{
        "take", {warps, 1, 1}, {32, 1, 1}, 0, 16, [a](Warp& w) { return take(w, a); }});
    h.synchronize();
    o.idx = h.download<uint32_t>(a.out_idx, lanes);
    o.sec = h.download<uint32_t>(a.out_sec, lanes);
    o.pos = h.download<uint32_t>(a.out_pos, lanes);
    o.remaining = iru->remaining();
  });
  o.gpu = r.stats["total"]["gpu"];
  return o;
}

double stat(const nlohmann::json& gpu, const std::string& block, const std::string& name) {
  return gpu[block][name]["value"].get<double>();
}

void exactly_once(TimingMode mode) {
  const uint32_t n = 3000;
  Outcome o = run_iru(mode, n, 5000, IruMerge::None, [](uint32_t i) { return i * 10 + 1; });
  const uint32_t lanes = o.lanes;
  std::vector<bool> seen(n, false);
  uint32_t active = 0;
  for (uint32_t l = 0; l < lanes; ++l) {
    if (o.idx[l] == kIruInactive) {
      CHECK(o.pos[l] == kIruInactive);
      continue;
    }
    ++active;
    REQUIRE(o.pos[l] < n);
    REQUIRE(!seen[o.pos[l]]); // once
    seen[o.pos[l]] = true;
    REQUIRE(o.idx[l] == o.in_idx[o.pos[l]]); // the pair stays intact
    REQUIRE(o.sec[l] == o.pos[l] * 10 + 1);
  }
  CHECK(active == n);
  CHECK(o.remaining == 0);
  // Inactive lanes only in the last warps: the extra warp and the one that
  // took the short end.
  uint32_t warps_with_holes = 0;
  for (uint32_t w = 0; w < lanes / 32; ++w)
    warps_with_holes += o.idx[w * 32 + 31] == kIruInactive;
  CHECK(warps_with_holes <= 2);
  const double requests = stat(o.gpu, "iru_0", "requests") + stat(o.gpu, "iru_1", "requests");
  CHECK(requests == lanes / 32);
  CHECK(stat(o.gpu, "iru_0", "ring_packets") + stat(o.gpu, "iru_1", "ring_packets") > 0);
  CHECK(stat(o.gpu, "iru_0", "lines_read") > 0);
  CHECK(stat(o.gpu, "iru_1", "lines_read") > 0);
}

// Per-index minima (min_u32) or sums (add_f32) of the secondary words are
// what the baseline would compute, whatever was merged.
void merged(TimingMode mode, IruMerge m) {
  const uint32_t n = 4000, range = 600;
  auto w = [m](uint32_t i) { return m == IruMerge::AddF32 ? f32(float(i % 7 + 1)) : i % 97 + 3; };
  Outcome o = run_iru(mode, n, range, m, w);
  const uint32_t lanes = o.lanes;
  std::map<uint32_t, double> want, got;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t x = o.in_idx[i];
    const double v = m == IruMerge::AddF32 ? as_f32(o.in_sec[i]) : double(o.in_sec[i]);
    want[x] = want.count(x) ? (m == IruMerge::AddF32 ? want[x] + v : std::min(want[x], v)) : v;
  }
  uint32_t active = 0;
  for (uint32_t l = 0; l < lanes; ++l) {
    const uint32_t x = o.idx[l];
    if (x == kIruInactive) continue;
    ++active;
    const double v = m == IruMerge::AddF32 ? as_f32(o.sec[l]) : double(o.sec[l]);
    got[x] = got.count(x) ? (m == IruMerge::AddF32 ? got[x] + v : std::min(got[x], v)) : v;
  }
  REQUIRE(got.size() == want.size());
  for (auto& [x, v] : want)
    REQUIRE(got[x] == Approx(v));
  const double merges = stat(o.gpu, "iru_0", "merged") + stat(o.gpu, "iru_1", "merged");
  CHECK(merges > 0);
  CHECK(active + merges == n); // each element handed out or merged, once
  CHECK(o.remaining == 0);
}

} // namespace

TEST_CASE("iru: every element exactly once with its pair: functional", "[iru]") {
  exactly_once(TimingMode::Functional);
}
TEST_CASE("iru: every element exactly once with its pair: lt", "[iru]") {
  exactly_once(TimingMode::LT);
}
TEST_CASE("iru: every element exactly once with its pair: at", "[iru]") {
  exactly_once(TimingMode::AT);
}
TEST_CASE("iru: min_u32 merges keep the per-index minima: lt", "[iru]") {
  merged(TimingMode::LT, IruMerge::MinU32);
}
TEST_CASE("iru: min_u32 merges keep the per-index minima: at", "[iru]") {
  merged(TimingMode::AT, IruMerge::MinU32);
}
TEST_CASE("iru: add_f32 merges keep per-index sums: functional", "[iru]") {
  merged(TimingMode::Functional, IruMerge::AddF32);
}
TEST_CASE("iru: add_f32 merges keep per-index sums: at", "[iru]") {
  merged(TimingMode::AT, IruMerge::AddF32);
}

// A platform that cannot hold the IRU is one error naming the key, before
// anything runs.
TEST_CASE("iru: a misconfigured IRU platform is one clear error", "[iru]") {
  const auto nothing = [](HostModule&) {};
  auto fails = [&](const std::vector<std::string>& sets) {
    try {
      run_host_program(load_platform(platform_path("examples/iru/tiny-iru.json"), sets),
                       TimingMode::LT, 1, nothing);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(fails({"iru.bypass_l2=true"}), Catch::Contains("iru.bypass_l2"));
  CHECK_THAT(fails({"iru.sets=1001"}), Catch::Contains("iru.sets"));
}
