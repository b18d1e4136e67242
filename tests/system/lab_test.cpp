// System tests of the LAB wired into the SM (issue 5, first step).
#include "run_helpers.hpp"
#include "tlmgpu/sim/host_program.hpp"
#include "workloads/histogram/histogram_kernels.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::test;

// LAB-8 takes 1 KB from Titan V's 32 KB L1: 62 of its 64 ways.
static const std::vector<std::string> kLab8 = {"lab.entries=8", "l1.bytes=31744", "l1.ways=62"};

static void histogram_with_lab(TimingMode mode) {
  RunResult r = run("titanv", "histogram", mode, {{"n", "65536"}}, kLab8);
  INFO(r.summary);
  REQUIRE(r.rc == 0); // exactly the CPU histogram
  const auto& total = r.stats["total"];
  CHECK(sum_stat(total, "hits") > 0);
  // 256 bins = 8 lines: they fit LAB-8, so nothing is evicted during the
  // kernel and the kernel-end flush sends at most 8 lines per SM.
  CHECK(sum_stat(total, "capacity_evictions") == 0);
  CHECK(sum_stat(total, "packets") <= 80 * 8);
  CHECK(sum_stat(total, "packets") > 0);
}
TEST_CASE("histogram through LAB-8 matches the CPU: functional") {
  histogram_with_lab(TimingMode::Functional);
}
TEST_CASE("histogram through LAB-8 matches the CPU: lt") {
  histogram_with_lab(TimingMode::LT);
}
TEST_CASE("histogram through LAB-8 matches the CPU: at") {
  histogram_with_lab(TimingMode::AT);
}

TEST_CASE("LAB-8 keeps histogram's atomics off the interconnect") {
  // Without a LAB every atomic line request is at least one request flit, so
  // request flits >= atomic_requests (one run per process: the bound stands
  // in for the baseline run). With LAB-8 the atomics merge in the SMs and
  // only the kernel-end flush crosses the crossbar.
  RunResult lab = run("titanv", "histogram", TimingMode::LT, {{"n", "65536"}}, kLab8);
  REQUIRE(lab.rc == 0);
  const double request_flits = sum_stat(lab.stats["total"], "request_flits");
  const double atomic_requests = sum_stat(lab.stats["total"], "atomic_requests");
  CHECK(request_flits < atomic_requests / 4);
}

struct CopyArgs {
  Addr from, to;
  uint32_t n;
};
static WarpTask copy_kernel(Warp& w, CopyArgs a) {
  const Lanes<uint64_t> i = w.global_thread_id();
  const Mask m = w.active() & (i < Lanes<uint64_t>(a.n));
  if (m.empty()) co_return;
  Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.from, i), m);
  co_await w.store<uint32_t>(address_of<uint32_t>(a.to, i), v, m);
}

TEST_CASE("the next kernel reads every update the LAB buffered (kernel end flushes)") {
  PlatformSpec p =
      load_platform(platform_path("tiny"), {"lab.entries=8", "l1.bytes=3072", "l1.ways=6"});
  const uint32_t n = 4096, bins = 64;
  std::vector<uint32_t> px(n);
  for (uint32_t i = 0; i < n; ++i)
    px[i] = (i * 7) % bins;
  std::vector<uint32_t> copied;
  run_host_program(p, TimingMode::AT, 1, [&](HostModule& h) {
    HistogramArgs a;
    a.pixels = h.upload(px);
    a.hist = h.malloc(bins * 4);
    a.n = n;
    a.bins = bins;
    h.memset(a.hist, 0, bins * 4);
    h.launch({"histogram", {4, 1, 1}, {128, 1, 1}, 0, 32, [a](Warp& w) {
                return histogram_kernel(w, a);
              }});
    CopyArgs c{a.hist, h.malloc(bins * 4), bins};
    h.launch({"copy", {1, 1, 1}, {64, 1, 1}, 0, 32, [c](Warp& w) { return copy_kernel(w, c); }});
    h.synchronize();
    copied = h.download<uint32_t>(c.to, bins);
  });
  for (uint32_t b = 0; b < bins; ++b)
    CHECK(copied[b] == n / bins);
}
