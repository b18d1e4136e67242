// GPUDet end to end (models/gpudet, notes seed-001 §4): within one quantum a
// warp's loads see its own buffered stores (forwarding), and racing stores
// of every warp to the same words resolve to the highest global warp id
// (the commit's Z-test), in every timing mode. The workloads of the CLI
// test never read their own stores back, so this is where forwarding is
// seen at system level; no_forwarding shows the check can fail.
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

struct Args {
  Addr own, race, out;
};

// Warp g stores g + 1 into its own 32 words and g into the 32 shared race
// words, loads its own words back (still in its store buffer: nothing is
// committed before the quantum ends) and stores what it read plus 1.
WarpTask forward_and_race(Warp& w, Args a) {
  const uint64_t g = w.global_warp();
  const Lanes<uint64_t> lane = (w.thread_idx() % 32u).as<uint64_t>();
  const Lanes<uint64_t> mine = lane + Lanes<uint64_t>(32 * g);
  const Mask m = w.active();
  co_await w.store<uint32_t>(address_of<uint32_t>(a.own, mine), Lanes<uint32_t>(uint32_t(g + 1)),
                             m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.race, lane), Lanes<uint32_t>(uint32_t(g)), m);
  const Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.own, mine), m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.out, mine), v + Lanes<uint32_t>(1u), m);
}

struct Outcome {
  uint32_t wrong_out = 0, wrong_race = 0;
  double forwarded = 0;
};

Outcome run_gpudet(TimingMode mode, std::vector<std::string> sets = {}) {
  constexpr uint32_t ctas = 8, warps = ctas * 2;
  const PlatformSpec p = load_platform(platform_path("examples/dab/tiny-gpudet.json"), sets);
  std::vector<uint32_t> out, race;
  ProgramResult r = run_host_program(p, mode, 1, [&](HostModule& h) {
    Args a{h.malloc(warps * 128), h.malloc(128), h.malloc(warps * 128)};
    h.memset(a.own, 0, warps * 128);
    h.memset(a.race, 0, 128);
    h.memset(a.out, 0, warps * 128);
    h.launch(
        {"fwd", {ctas, 1, 1}, {64, 1, 1}, 0, 32, [a](Warp& w) { return forward_and_race(w, a); }});
    h.synchronize();
    out = h.download<uint32_t>(a.out, warps * 32);
    race = h.download<uint32_t>(a.race, 32);
  });
  Outcome o;
  for (size_t i = 0; i < out.size(); ++i)
    o.wrong_out += out[i] != i / 32 + 2;
  for (uint32_t v : race)
    o.wrong_race += v != warps - 1;
  o.forwarded = sum_stat(r.stats["total"], "forwarded_loads");
  return o;
}

} // namespace

TEST_CASE("gpudet: loads see the warp's own stores, racing stores go to the last warp, at") {
  const Outcome o = run_gpudet(TimingMode::AT);
  CHECK(o.wrong_out == 0);
  CHECK(o.wrong_race == 0);
  CHECK(o.forwarded > 0);
}
TEST_CASE("gpudet: loads see the warp's own stores, racing stores go to the last warp, lt") {
  const Outcome o = run_gpudet(TimingMode::LT);
  CHECK(o.wrong_out == 0);
  CHECK(o.wrong_race == 0);
  CHECK(o.forwarded > 0);
}
TEST_CASE("gpudet: loads see the warp's own stores, racing stores go to the last warp, "
          "functional") {
  const Outcome o = run_gpudet(TimingMode::Functional);
  CHECK(o.wrong_out == 0);
  CHECK(o.wrong_race == 0);
}
TEST_CASE("mutation: gpudet without forwarding lets a warp read memory from before its stores") {
  const Outcome o = run_gpudet(TimingMode::AT, {"gpudet.inject_fault=no_forwarding"});
  CHECK(o.wrong_out > 0);
  CHECK(o.wrong_race == 0);
}
