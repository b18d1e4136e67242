// System tests of the LAB's AT path (models/sm/sm_lab.cpp): LAB packets are
// AT requests through the SM's LD/ST port behind a bounded injection queue
// (lab.inject_queue, stalls counted in lab.icnt_fail), and every ordering
// point (kernel end, device fence, CTA barrier with flush_on_barrier) waits
// for L2's replies. Each TEST_CASE is its own process (CTest).
#include "fence_publish_helper.hpp"
#include "graph_test_helpers.hpp"
#include "next_kernel_helper.hpp"
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::test;

namespace {

// A LAB stat summed over the SMs (the L1 has a `forwarded` too); `tree` is
// stats.json's total (stats as objects) or a kernel's stats (plain numbers).
double lab(const nlohmann::json& tree, const char* stat) {
  double s = 0;
  if (!tree.contains("gpu")) return 0;
  for (auto& [name, group] : tree.at("gpu").items()) {
    if (name.rfind("sm_", 0) != 0 || !group.contains("lab") || !group.at("lab").contains(stat))
      continue;
    const auto& v = group.at("lab").at(stat);
    s += v.is_number() ? v.get<double>() : v.value("value", 0.0);
  }
  return s;
}
double lab(const RunResult& r, const char* stat) {
  return lab(r.stats["total"], stat);
}

// An AT run that passed its CPU check (a LAB left non-empty by a flush is a
// SimError, rc 1) and sent LAB packets.
RunResult lab_at(const std::string& platform, const std::string& workload,
                 std::map<std::string, std::string> args, std::vector<std::string> sets) {
  RunResult r = run(platform, workload, TimingMode::AT, std::move(args), std::move(sets));
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  CHECK(r.stats["check"] == "passed");
  CHECK(lab(r, "packets") > 0);
  return r;
}

const std::vector<std::string> kSer64 = {"lab.entries=64", "lab.variant=serialization_only"};

} // namespace

// ---------------------------------------------------------------- workloads --

TEST_CASE("lab at: histogram through LAB-8 matches the CPU and its kernel ends after the "
          "flush replies") {
  RunResult r = lab_at("titanv", "histogram", {{"n", "65536"}}, {"lab.entries=8"});
  // 256 bins = 8 lines fit LAB-8: only the kernel-end flush sends.
  CHECK(lab(r, "capacity_evictions") == 0);
  CHECK(lab(r, "flush_packets") == lab(r, "packets"));
  CHECK(lab(r, "flushes") > 0);
  // The flush's replies were counted inside the kernel: it waited for them.
  const auto& k = r.stats["kernels"][0]["stats"];
  CHECK(lab(k, "flush_cycles") >= lab(k, "flushes"));
  CHECK(lab(k, "flush_cycles") > 0);
}

TEST_CASE("lab at: histogram through a serialization-only LAB-64 matches the CPU") {
  RunResult r = lab_at("titanv", "histogram", {{"n", "65536"}}, kSer64);
  CHECK(lab(r, "packets") == lab(r, "forwarded")); // one packet per request, no flush
  CHECK(lab(r, "flush_packets") == 0);
}

TEST_CASE("lab at: pagerank through LAB-8 matches the CPU on as20graph") {
  RunResult r = lab_at("titanv", "pagerank", {{"input", data("as20graph.txt")}}, {"lab.entries=8"});
  CHECK(lab(r, "capacity_evictions") > 0); // evictions travel as AT requests too
  CHECK(lab(r, "flush_packets") > 0);
}

TEST_CASE("lab at: pagerank through a serialization-only LAB-64 matches the CPU on as20graph") {
  RunResult r = lab_at("titanv", "pagerank", {{"input", data("as20graph.txt")}}, kSer64);
  CHECK(lab(r, "packets") == lab(r, "forwarded"));
}

// ------------------------------------------------------------ back-pressure --

TEST_CASE("lab at: a 64K-bin histogram thrashing LAB-8 stalls on injection and still matches") {
  // 2048 lines of bins through 8 entries: nearly every request evicts, one
  // request per cycle, while the port drains one packet per cycle at best.
  RunResult r = lab_at("tiny", "histogram", {{"n", "32768"}, {"bins", "65536"}},
                       {"lab.entries=8", "lab.inject_queue=2"});
  CHECK(lab(r, "capacity_evictions") > 1000);
  CHECK(lab(r, "icnt_fail") > 0);
}

TEST_CASE("lab at: a serialization-only LAB stalls on injection at the default queue") {
  RunResult r = lab_at("tiny", "histogram", {{"n", "32768"}}, kSer64);
  CHECK(lab(r, "icnt_fail") > 0);
}

// -------------------------------------------------------- ordering points --

namespace {

// 64 lines of bins buffered in LAB-64: a 64-packet kernel-end flush burst
// per SM, and the copy kernel starts as soon as the kernel has ended.
void next_kernel_sees_flush(const std::vector<std::string>& extra) {
  std::vector<std::string> sets = {"lab.entries=64"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  const PlatformSpec p = load_platform(platform_path("tiny"), sets);
  const NextKernelResult r = histogram_then_copy(p, TimingMode::AT, 2048);
  uint32_t wrong = 0;
  for (size_t b = 0; b < r.copied.size(); ++b)
    wrong += r.copied[b] != r.expected || r.hist[b] != r.expected;
  CHECK(wrong == 0);
  CHECK(lab(r.run.stats["total"], "flush_packets") > 0);
}

// Returns the words the reader saw wrong.
uint32_t fence_publish_wrong(TimingMode mode, const std::vector<std::string>& extra) {
  const uint32_t lines = 128;
  std::vector<std::string> sets = {"lab.entries=128", "xbar.buffer_flits=16"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  const PlatformSpec p = load_platform(platform_path("tiny"), sets);
  const FencePublishResult r = fence_publish(p, mode, lines);
  CHECK(lab(r.run.stats["total"], "flush_evictions") >= lines); // the fence flushed them
  return r.wrong;
}

void fence_publishes_lab_updates(TimingMode mode) {
  const uint32_t lines = 128;
  // A 16-flit crossbar buffer keeps most of the fence's 128 packets in the
  // writer SM (its injection queue), where a fence that did not wait would
  // let the flag overtake them. With the default 256 flits they would sit in
  // the L2 slice's FIFO ahead of the reader's loads and hide that mistake.
  const PlatformSpec p =
      load_platform(platform_path("tiny"), {"lab.entries=128", "xbar.buffer_flits=16"});
  REQUIRE(p.sm.count >= 2);
  const FencePublishResult r = fence_publish(p, mode, lines);
  CHECK(r.wrong == 0);
  CHECK(lab(r.run.stats["total"], "flush_evictions") >= lines); // the fence flushed them
}

// Warp 0 of one CTA adds 3 to every word of 64 lines (buffered), then both
// warps meet at a barrier; warp 1 then reads the lines from L2 (its L1 holds
// no copy). With lab.flush_on_barrier the barrier flushes the LAB and warp 0
// arrives only once the packets are acknowledged.
struct BarrierArgs {
  Addr data, out;
  uint32_t lines;
};
WarpTask barrier_kernel(Warp& w, BarrierArgs a) {
  const Lanes<uint64_t> lane = (w.thread_idx() % 32u).as<uint64_t>();
  const Mask m = w.active();
  if (w.warp_in_cta() == 0)
    for (uint32_t l = 0; l < a.lines; ++l)
      co_await w.red<uint32_t>(AtomicOp::Add, address_of<uint32_t>(a.data, lane + 32 * l),
                               Lanes<uint32_t>(3u), m, MemOrder::Commutative, Scope::Device);
  co_await w.barrier();
  if (w.warp_in_cta() == 1)
    for (uint32_t l = a.lines; l-- > 0;) {
      Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.data, lane + 32 * l), m);
      co_await w.store<uint32_t>(address_of<uint32_t>(a.out, lane + 32 * l), v, m);
    }
}

} // namespace

TEST_CASE("lab at: the next kernel reads every update of a 64-line kernel-end flush") {
  next_kernel_sees_flush({});
}
TEST_CASE("lab at: ANBF's free kernel-end flush is complete before the next kernel") {
  next_kernel_sees_flush({"lab.variant=no_flush_cost"});
}

TEST_CASE("lab: a device fence publishes LAB updates to another SM: functional") {
  fence_publishes_lab_updates(TimingMode::Functional);
}
TEST_CASE("lab: a device fence publishes LAB updates to another SM: lt") {
  fence_publishes_lab_updates(TimingMode::LT);
}
TEST_CASE("lab at: a device fence publishes LAB updates to another SM") {
  fence_publishes_lab_updates(TimingMode::AT);
}

// Ordering-point mutation (issue 11): a LAB stage that passes the fence on
// before its flush reached L2 lets the reader see stale words. at only: on
// the blocking path of functional and lt the flush's data lands within the
// fence's call, so no other SM can run in between (the ordering is then only
// a matter of the fence's answer time).
// (The same run without the mutation is "a device fence publishes LAB
// updates to another SM" above.)
TEST_CASE("mutation: a LAB that forwards the fence before draining breaks publication (at)") {
  CHECK(fence_publish_wrong(TimingMode::AT, {"lab.inject_fault=fence_before_drain"}) > 0);
}

TEST_CASE("lab at: a CTA barrier with flush_on_barrier publishes LAB updates to the CTA") {
  const uint32_t lines = 64;
  const PlatformSpec p =
      load_platform(platform_path("tiny"), {"lab.entries=64", "lab.flush_on_barrier=true"});
  std::vector<uint32_t> out;
  ProgramResult res = run_host_program(p, TimingMode::AT, 1, [&](HostModule& h) {
    BarrierArgs a{h.malloc(lines * 128), h.malloc(lines * 128), lines};
    h.memset(a.data, 0, lines * 128);
    h.memset(a.out, 0, lines * 128);
    h.launch(
        {"barrier", {1, 1, 1}, {64, 1, 1}, 0, 32, [a](Warp& w) { return barrier_kernel(w, a); }});
    h.synchronize();
    out = h.download<uint32_t>(a.out, lines * 32);
  });
  uint32_t wrong = 0;
  for (uint32_t v : out)
    wrong += v != 3;
  CHECK(wrong == 0);
  CHECK(lab(res.stats["total"], "flush_cycles") > 0);
}
