// System tests of the memory hierarchy below the SM (issue: foundation).
#include "run_helpers.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

using namespace tlmgpu;
using namespace tlmgpu::test;

static void check_random_traffic(const std::string& platform, TimingMode mode,
                                 std::map<std::string, std::string> args = {}) {
  RunResult r = run(platform, "random-traffic", mode, std::move(args));
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  CHECK(r.stats["check"] == "passed");
  const auto& total = r.stats["total"];
  CHECK(sum_stat(total, "mismatches") == 0);
  CHECK(sum_stat(total, "issued") > 0);
  CHECK(sum_stat(total, "issued") == sum_stat(total, "completed"));
  CHECK(sum_stat(total, "stall_net_wakeups") == 0); // AT: no missed wake-up of a stalled L1
  // Every block kept counters: the traffic reached L1, crossbar, L2 and DRAM.
  CHECK(sum_stat(total, "loads") > 0);
  CHECK(sum_stat(total, "request_flits") > 0);
  CHECK(sum_stat(total, "atomic_lane_ops") > 0);
  CHECK(sum_stat(total, "reads") > 0);
}

TEST_CASE("random traffic checks out: tiny, functional") {
  check_random_traffic("tiny", TimingMode::Functional);
}
TEST_CASE("random traffic checks out: tiny, lt") {
  check_random_traffic("tiny", TimingMode::LT);
}
TEST_CASE("random traffic checks out: tiny, at") {
  check_random_traffic("tiny", TimingMode::AT);
}
TEST_CASE("random traffic checks out: titanv, functional") {
  check_random_traffic("titanv", TimingMode::Functional, {{"requests", "500"}});
}
TEST_CASE("random traffic checks out: titanv, lt") {
  check_random_traffic("titanv", TimingMode::LT, {{"requests", "500"}});
}
TEST_CASE("random traffic checks out: titanv, at") {
  check_random_traffic("titanv", TimingMode::AT, {{"requests", "500"}});
}

TEST_CASE("random traffic checks out with a write-back, write-allocate L1 (at)") {
  RunResult r = run("tiny", "random-traffic", TimingMode::AT, {},
                    {"l1.write_policy=\"write_back\"", "l1.write_allocate=true"});
  INFO(r.summary);
  CHECK(r.rc == 0);
  CHECK(sum_stat(r.stats["total"], "writebacks") > 0);
}

TEST_CASE("the random-traffic checker can fail") {
  RunResult r = run("tiny", "random-traffic", TimingMode::LT, {{"inject_fault", "1"}});
  CHECK(r.rc == 1);
  CHECK(r.stats["check"] == "failed");
}

static void check_latency(TimingMode mode) {
  RunResult r = run("titanv", "latency", mode);
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  const auto& p = r.stats["total"]["latency_probe"];
  // Table I of the LAB paper: 28 / 148 / 248 cycles end to end. DRAM runs at
  // 850 MHz, so a crossing between clock domains may round by a cycle or two.
  CHECK(p["l1_hit"]["value"].get<double>() == 28);
  CHECK(p["l2_hit"]["value"].get<double>() == 148);
  CHECK(p["dram"]["value"].get<double>() >= 246);
  CHECK(p["dram"]["value"].get<double>() <= 250);
  CHECK(p["dram_row_hit"]["value"].get<double>() < p["dram"]["value"].get<double>());
}

TEST_CASE("unloaded latencies equal the platform's: lt") {
  check_latency(TimingMode::LT);
}
TEST_CASE("unloaded latencies equal the platform's: at") {
  check_latency(TimingMode::AT);
}

TEST_CASE("AT under saturation shows backpressure and loses nothing") {
  // 2 SMs with 64 requests in flight each against one small DRAM channel.
  RunResult r = run("tiny", "random-traffic", TimingMode::AT,
                    {{"outstanding", "64"}, {"requests", "4000"}, {"footprint", "65536"}});
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  const auto& total = r.stats["total"];
  CHECK(sum_stat(total, "backpressured") > 0);
  CHECK(sum_stat(total, "end_req_waits") > 0);
  CHECK(sum_stat(total, "issued") == 8000);
  CHECK(sum_stat(total, "completed") == 8000);
  CHECK(sum_stat(total, "unexpected_responses") == 0);
  CHECK(sum_stat(total, "stall_miss_queue") + sum_stat(total, "stall_mshr") > 0);
  CHECK(sum_stat(total, "stall_net_wakeups") == 0); // every stalled L1 head woken by an event
}

TEST_CASE("AT: a load stalled for an MSHR entry is counted once") {
  // One MSHR entry per L1: loads wait at the head of the L1 queue for most
  // cycles. The retries count as stall cycles, not as more loads or misses.
  RunResult r = run("tiny", "stream", TimingMode::AT, {}, {"l1.mshr_entries=1"});
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  CHECK(r.stats["check"] == "passed");
  for (const char* sm : {"sm_0", "sm_1"}) {
    const auto& s = r.stats["total"]["gpu"][sm];
    INFO(sm);
    const double loads = s["loads"]["value"].get<double>();
    CHECK(loads > 0);
    CHECK(s["l1"]["stall_mshr"]["value"].get<double>() > 10 * loads); // it did stall
    CHECK(s["l1"]["loads"]["value"].get<double>() == loads);
    CHECK(s["l1"]["load_misses"]["value"].get<double>() <= loads);
    // The stalled head slept until a fill freed the entry (no missed wake-up).
    CHECK(s["l1"]["stall_net_wakeups"]["value"].get<double>() == 0);
  }
}
