// System tests of the scoped L1 (l1.atomic_mode = scoped, models/l1 README
// "Scoped"): random traffic (loads, stores, atomics and reds on shared
// lines, every value checked) in functional, lt and at, with the sFIFO
// overflowing; a device fence publishes what another SM wrote; the next
// kernel reads what the previous one left in the sFIFO (the kernel end is a
// system release). litmus-mp and the injected faults: tests/cli/scoped_gpu.sh.
#include "fence_publish_helper.hpp"
#include "next_kernel_helper.hpp"
#include "run_helpers.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

std::vector<std::string> scoped_with(std::vector<std::string> more) {
  more.insert(more.begin(), "l1.atomic_mode=scoped");
  return more;
}

void random_traffic(TimingMode mode, std::vector<std::string> sets = {}) {
  RunResult r = run("tiny", "random-traffic", mode, {{"requests", "3000"}, {"footprint", "8192"}},
                    scoped_with(std::move(sets)));
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  CHECK(r.stats["check"] == "passed");
  const auto& total = r.stats["total"];
  CHECK(sum_stat(total, "sfifo_overflows") > 0);
  CHECK(sum_stat(total, "sfifo_drains") > 0);
  CHECK(sum_stat(total, "stall_net_wakeups") == 0);
}

} // namespace

TEST_CASE("scoped l1: random traffic matches its reference: functional") {
  random_traffic(TimingMode::Functional);
}
TEST_CASE("scoped l1: random traffic matches its reference: lt") {
  random_traffic(TimingMode::LT);
}
TEST_CASE("scoped l1: random traffic matches its reference: at") {
  random_traffic(TimingMode::AT);
}
TEST_CASE("scoped l1: random traffic matches its reference: at, 2 MSHRs of 2, sFIFO of 1") {
  random_traffic(TimingMode::AT,
                 {"l1.mshr_entries=2", "l1.mshr_max_merge=2", "l1.sfifo_entries=1"});
}

namespace {

void next_kernel_reads_stores(TimingMode mode) {
  PlatformSpec p = load_platform(platform_path("tiny"), scoped_with({}));
  const NextKernelResult r = histogram_then_copy(p, mode);
  for (size_t b = 0; b < r.copied.size(); ++b) {
    CHECK(r.copied[b] == r.expected);
    CHECK(r.hist[b] == r.expected);
  }
  CHECK(sum_stat(r.run.stats["total"], "sfifo_lines_flushed") > 0);
}

void fence_publishes(TimingMode mode) {
  PlatformSpec p = load_platform(platform_path("tiny"), scoped_with({}));
  REQUIRE(p.sm.count >= 2);
  const FencePublishResult r = fence_publish(p, mode, 4);
  CHECK(r.wrong == 0);
  CHECK(sum_stat(r.run.stats["total"], "scoped_acquires") > 0);
}

} // namespace

TEST_CASE("scoped l1: the next kernel reads what the sFIFO held: lt") {
  next_kernel_reads_stores(TimingMode::LT);
}
TEST_CASE("scoped l1: the next kernel reads what the sFIFO held: at") {
  next_kernel_reads_stores(TimingMode::AT);
}
TEST_CASE("scoped l1: a device fence publishes another SM's writes: functional") {
  fence_publishes(TimingMode::Functional);
}
TEST_CASE("scoped l1: a device fence publishes another SM's writes: lt") {
  fence_publishes(TimingMode::LT);
}
TEST_CASE("scoped l1: a device fence publishes another SM's writes: at") {
  fence_publishes(TimingMode::AT);
}
