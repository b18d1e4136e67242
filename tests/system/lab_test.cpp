// System tests of the LAB wired into the SM (issue 5, first step).
#include "next_kernel_helper.hpp"
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"
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
  // Each SM flushes when it runs out of CTAs (notes §1.7), not all at the
  // kernel end: with 80 SMs finishing at different times, most flush while
  // others still run (at most all but the one retiring the last CTA).
  if (mode != TimingMode::Functional) {
    CHECK(sum_stat(total, "flushes_before_kernel_end") > 40);
    CHECK(sum_stat(total, "flushes_before_kernel_end") <= 79);
  }
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

TEST_CASE("the next kernel reads every update the LAB buffered (kernel end flushes)") {
  PlatformSpec p =
      load_platform(platform_path("tiny"), {"lab.entries=8", "l1.bytes=3072", "l1.ways=6"});
  const NextKernelResult r = histogram_then_copy(p, TimingMode::AT);
  for (uint32_t v : r.copied)
    CHECK(v == r.expected);
}
