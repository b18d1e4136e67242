// LAB paper trends as assertions (seed-000 §7.7), on inputs small enough for
// CI, with generous tolerances; plus the system-level mutation test that a
// LAB which loses or double-counts one update fails the workload's check.
#include "run_helpers.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {
std::string sets(const std::vector<std::string>& s) {
  std::string a;
  for (const std::string& x : s)
    a += " --set " + x;
  return a;
}
double metric(const Cli& r, const char* name) {
  return r.stats["metrics"].value(name, -1.0);
}
Cli hist(const char* workload, const std::vector<std::string>& s) {
  Cli r = run_cli("titanv", workload, "--arg n=262144" + sets(s));
  INFO(workload << sets(s));
  REQUIRE(r.rc == 0); // exactly the CPU histogram
  return r;
}
} // namespace

TEST_CASE("trend: histogram with LAB-8 is faster and moves less traffic than baseline") {
  const Cli base = hist("histogram", {}), lab8 = hist("histogram", {"lab.entries=8"});
  CHECK(metric(lab8, "cycles") < 0.8 * metric(base, "cycles"));
  CHECK(metric(lab8, "interconnect_bytes") < 0.5 * metric(base, "interconnect_bytes"));
  CHECK(metric(lab8, "energy_pj_total") < metric(base, "energy_pj_total"));
  CHECK(metric(lab8, "atomic_miss_rate") < 0.05);
  CHECK(metric(base, "atomic_miss_rate") == 1.0);
}

TEST_CASE("trend: histogram fits LAB-8, so LAB-16..Inf add nothing") {
  const double t8 = metric(hist("histogram", {"lab.entries=8"}), "cycles");
  for (const char* size : {"lab.entries=16", "lab.entries=64", "lab.infinite=true"}) {
    const double t = metric(hist("histogram", {size}), "cycles");
    INFO(size);
    CHECK(t > 0.97 * t8); // no further gain (the L1 it takes may cost a little)
  }
}

TEST_CASE("trend: histogram-shared gains little from LAB-8: its end-of-CTA atomics only") {
  // 1 Mi pixels: with fewer, the one wave of end-of-CTA device atomics is a
  // large share of the run and the LAB's local completion shows (-15 % at
  // 256 Ki pixels); the paper's input is larger still (8.3 M).
  auto hs = [](const std::vector<std::string>& s) {
    Cli r = run_cli("titanv", "histogram-shared", "--arg n=1048576" + sets(s));
    REQUIRE(r.rc == 0);
    return metric(r, "cycles");
  };
  // The LAB merges the end-of-CTA device atomics of an SM's CTAs, which
  // at this size are still the tail of the run (4 L2 slices' atomic units):
  // LAB-8 is 0.84 of baseline in at and 0.87 in lt (paper 0.99 at 8.3 M
  // pixels). lt said 1.01 until its quantum went from 1000 to 300 cycles
  // (docs/timing.md, "The quantum"); the bounds hold both modes' values.
  const double base = hs({}), lab8 = hs({"lab.entries=8"});
  CHECK(lab8 > 0.80 * base);
  CHECK(lab8 < 1.05 * base);
}

TEST_CASE("trend: the serialization-only LAB sends every atomic to L2") {
  const Cli base = hist("histogram", {});
  const Cli ser = hist("histogram", {"lab.entries=8", "lab.variant=serialization_only"});
  CHECK(metric(ser, "atomic_miss_rate") == 1.0);
  CHECK(metric(ser, "l2_atomic_requests") >= metric(base, "l2_atomic_requests"));
}

TEST_CASE("mutation: a LAB that loses one update fails the histogram check") {
  for (const char* fault : {"lab.inject_fault=lose_update", "lab.inject_fault=double_count"}) {
    for (TimingMode m : {TimingMode::Functional, TimingMode::LT}) {
      Cli r = run_cli("tiny", "histogram", "--arg n=8192" + sets({"lab.entries=8", fault}),
                      m == TimingMode::LT ? "lt" : "functional");
      INFO(fault);
      CHECK(r.rc == 1); // the CPU comparison notices the one wrong bin
    }
  }
}

TEST_CASE("the LAB carve-out follows the Volta adaptive split per kernel") {
  // titanv: l1.carveout = volta_adaptive. Histogram uses no shared memory,
  // so L1 = 128 KB; LAB-64 takes 8 KB of it.
  auto l1_bytes = [](const Cli& r) {
    return r.stats["total"]["gpu"]["sm_0"]["l1"]["configured_bytes"]["value"].get<double>();
  };
  CHECK(l1_bytes(hist("histogram", {})) == 131072);
  CHECK(l1_bytes(hist("histogram", {"lab.entries=64"})) == 131072 - 8192);
  CHECK(l1_bytes(hist("histogram", {"lab.entries=64", "l1.carveout=fixed"})) == 32768 - 8192);
  CHECK(l1_bytes(hist("histogram", {"l1.carveout=fixed", "l1.carveout_adjust_bytes=-8192"})) ==
        24576);
}

// Serialization-only forwards every atomic to L2, so it can only save the
// warps' wait, and histogram-shared's warps do not wait for their reds: in
// at it is 0.99 of baseline. In lt it was 0.73 while the LAB's ordering
// points waited only for their own flush's packets and the kernel ended
// before L2 had the forwarded ones.
TEST_CASE("trend: the serialization-only LAB does not speed up histogram-shared (lt)") {
  const double base = metric(hist("histogram-shared", {}), "cycles");
  const double ser = metric(
      hist("histogram-shared", {"lab.entries=64", "lab.variant=serialization_only"}), "cycles");
  CHECK(ser > 0.95 * base);
}
