// System tests of the SM, kernels and host (issue: SM with warp coroutines).
// Each TEST_CASE is its own process (CTest), so each may simulate once.
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

#include <numeric>

using namespace tlmgpu;
using namespace tlmgpu::test;

static void check_histogram(const std::string& workload, const std::string& platform,
                            TimingMode mode, const std::string& n) {
  RunResult r = run(platform, workload, mode, {{"n", n}});
  INFO(r.summary);
  REQUIRE(r.rc == 0);
  REQUIRE(r.stats["kernels"].size() == 1);
  const auto& total = r.stats["total"];
  CHECK(sum_stat(total, "warp_instructions") > 0);
  if (mode != TimingMode::Functional) CHECK(r.stats["kernels"][0]["cycles"].get<double>() > 0);
}

TEST_CASE("histogram matches the CPU: titanv functional") {
  check_histogram("histogram", "titanv", TimingMode::Functional, "100000");
}
TEST_CASE("histogram matches the CPU: titanv lt") {
  check_histogram("histogram", "titanv", TimingMode::LT, "100000");
}
TEST_CASE("histogram matches the CPU: titanv at") {
  check_histogram("histogram", "titanv", TimingMode::AT, "100000");
}
TEST_CASE("histogram matches the CPU: tiny functional") {
  check_histogram("histogram", "tiny", TimingMode::Functional, "20000");
}
TEST_CASE("histogram matches the CPU: tiny lt") {
  check_histogram("histogram", "tiny", TimingMode::LT, "20000");
}
TEST_CASE("histogram matches the CPU: tiny at") {
  check_histogram("histogram", "tiny", TimingMode::AT, "20000");
}
TEST_CASE("histogram-shared matches the CPU: titanv functional") {
  check_histogram("histogram-shared", "titanv", TimingMode::Functional, "100000");
}
TEST_CASE("histogram-shared matches the CPU: titanv lt") {
  check_histogram("histogram-shared", "titanv", TimingMode::LT, "100000");
}
TEST_CASE("histogram-shared matches the CPU: titanv at") {
  check_histogram("histogram-shared", "titanv", TimingMode::AT, "100000");
}
TEST_CASE("histogram-shared matches the CPU: tiny functional") {
  check_histogram("histogram-shared", "tiny", TimingMode::Functional, "20000");
}
TEST_CASE("histogram-shared matches the CPU: tiny lt") {
  check_histogram("histogram-shared", "tiny", TimingMode::LT, "20000");
}
TEST_CASE("histogram-shared matches the CPU: tiny at") {
  check_histogram("histogram-shared", "tiny", TimingMode::AT, "20000");
}

TEST_CASE("histogram reads the real digits images") {
  RunResult r =
      run("tiny", "histogram", TimingMode::LT,
          {{"input", "digits:" + std::string(TLMGPU_SOURCE_DIR) + "/../shared/data/digits.csv.gz"},
           {"bins", "17"}});
  INFO(r.summary);
  CHECK(r.rc == 0);
}

TEST_CASE("a racy histogram (no atomics) is caught by the check") {
  RunResult r = run("tiny", "histogram", TimingMode::LT, {{"n", "20000"}, {"racy", "1"}});
  CHECK(r.rc == 1);
  CHECK(r.stats["check"] == "failed");
}

TEST_CASE("histogram per-kernel stats: ATGR, atomics by order and scope, traffic") {
  RunResult r = run("tiny", "histogram", TimingMode::AT, {{"n", "8192"}});
  REQUIRE(r.rc == 0);
  const auto& k = r.stats["kernels"][0]["stats"]["gpu"];
  double atomic_req = 0, global_req = 0, comm = 0;
  for (auto& [name, sm] : k.items()) {
    if (name.rfind("sm_", 0) != 0) continue;
    atomic_req += sm["atomic_requests"].get<double>();
    global_req += sm["global_requests"].get<double>();
    comm += sm["mem_ops"]["order_commutative"].get<double>();
  }
  // Per warp: one coalesced load (1 line request) and one red to 32 random
  // bins of 256 (8 lines, split further where lanes share a word): about 9.6
  // atomic requests per load request, so ATGR is about 0.9.
  CHECK(atomic_req / global_req > 0.85);
  CHECK(atomic_req / global_req < 0.95);
  CHECK(comm == 8192 / 32);
  CHECK(k["xbar"]["request_flits"].get<double>() > 0);
}

// --- kernels written for these tests --------------------------------------

struct ReduceArgs {
  Addr in, total;
  uint32_t n;
};
// Tree reduction of blockDim elements per CTA in shared memory with barriers,
// then one device atomicAdd of the CTA's sum.
static WarpTask block_reduce(Warp& w, ReduceArgs a) {
  const uint32_t bt = uint32_t(w.block_dim().count());
  const Lanes<uint64_t> gid = w.global_thread_id();
  const Lanes<uint32_t> tid = w.thread_idx();
  const Mask in_range = w.active() & (gid < Lanes<uint64_t>(a.n));
  Lanes<uint32_t> v = co_await w.load<uint32_t>(address_of<uint32_t>(a.in, gid), in_range);
  co_await w.shared_store<uint32_t>(address_of<uint32_t>(0, tid),
                                    select(in_range, v, Lanes<uint32_t>(0u)), w.active());
  co_await w.barrier();
  for (uint32_t s = bt / 2; s > 0; s /= 2) {
    const Mask m = w.active() & (tid < Lanes<uint32_t>(s));
    if (m.any()) {
      Lanes<uint32_t> x = co_await w.shared_load<uint32_t>(address_of<uint32_t>(0, tid), m);
      Lanes<uint32_t> y =
          co_await w.shared_load<uint32_t>(address_of<uint32_t>(0, tid + Lanes<uint32_t>(s)), m);
      co_await w.shared_store<uint32_t>(address_of<uint32_t>(0, tid), x + y, m);
    }
    co_await w.barrier();
  }
  const Mask first = w.active() & (tid == Lanes<uint32_t>(0u));
  if (first.any()) {
    Lanes<uint32_t> sum = co_await w.shared_load<uint32_t>(Lanes<Addr>(0), first);
    co_await w.atomic<uint32_t>(AtomicOp::Add, Lanes<Addr>(a.total), sum, first);
  }
}

static void reduction(TimingMode mode) {
  const uint32_t n = 5000;
  std::vector<uint32_t> data(n);
  std::iota(data.begin(), data.end(), 1u);
  uint32_t device = 0;
  run_host_program(load_platform(platform_path("tiny")), mode, 1, [&](HostModule& h) {
    ReduceArgs a{h.upload(data), h.malloc(4), n};
    h.memset(a.total, 0, 4);
    KernelLaunch k{"block_reduce", {(n + 255) / 256, 1, 1}, {256, 1, 1}, 256 * 4, 32, [a](Warp& w) {
                     return block_reduce(w, a);
                   }};
    h.launch(std::move(k));
    h.synchronize();
    device = h.download<uint32_t>(a.total, 1)[0];
  });
  CHECK(device == uint64_t(n) * (n + 1) / 2);
}
TEST_CASE("block reduction (barrier + shared memory + atomics): functional") {
  reduction(TimingMode::Functional);
}
TEST_CASE("block reduction (barrier + shared memory + atomics): lt") {
  reduction(TimingMode::LT);
}
TEST_CASE("block reduction (barrier + shared memory + atomics): at") {
  reduction(TimingMode::AT);
}

struct MessageArgs {
  Addr data, flag, seen;
  bool fence;
};
// CTA 0 publishes data then raises a flag (release); CTA 1 first reads the
// data (so its L1 holds the old line), waits for the flag with device-scope
// atomics, then (acquire fence) reads the data again.
static WarpTask message_passing(Warp& w, MessageArgs a) {
  const Mask one = Mask::lane(0);
  if (w.cta_linear() == 0) {
    co_await w.compute(200); // let the consumer prime its L1 first
    co_await w.store<uint32_t>(Lanes<Addr>(a.data), Lanes<uint32_t>(42u), one);
    co_await w.fence(Scope::Device);
    co_await w.atomic<uint32_t>(AtomicOp::Exch, Lanes<Addr>(a.flag), Lanes<uint32_t>(1u), one,
                                MemOrder::Release, Scope::Device);
    co_return;
  }
  co_await w.load<uint32_t>(Lanes<Addr>(a.data), one); // primes the L1 with the old value
  for (;;) {
    Lanes<uint32_t> f =
        co_await w.atomic<uint32_t>(AtomicOp::Add, Lanes<Addr>(a.flag), Lanes<uint32_t>(0u), one,
                                    a.fence ? MemOrder::Acquire : MemOrder::Relaxed, Scope::Device);
    if (f[0] == 1) break;
    co_await w.compute(20);
  }
  if (a.fence) co_await w.fence(Scope::Device);
  Lanes<uint32_t> d = co_await w.load<uint32_t>(Lanes<Addr>(a.data), one);
  co_await w.store<uint32_t>(Lanes<Addr>(a.seen), d, one);
}

static uint32_t message_passing_run(TimingMode mode, bool fence) {
  uint32_t seen = 0;
  run_host_program(load_platform(platform_path("tiny")), mode, 1, [&](HostModule& h) {
    MessageArgs a{h.malloc(4), h.malloc(4), h.malloc(4), fence};
    for (Addr x : {a.data, a.flag, a.seen})
      h.memset(x, 0, 4);
    KernelLaunch k{"message_passing",
                   {2, 1, 1},
                   {32, 1, 1},
                   0,
                   32,
                   [a](Warp& w) { return message_passing(w, a); }};
    h.launch(std::move(k));
    h.synchronize();
    seen = h.download<uint32_t>(a.seen, 1)[0];
  });
  return seen;
}
TEST_CASE("message passing with a device fence never reads stale data: lt") {
  CHECK(message_passing_run(TimingMode::LT, true) == 42);
}
TEST_CASE("message passing with a device fence never reads stale data: at") {
  CHECK(message_passing_run(TimingMode::AT, true) == 42);
}
TEST_CASE("message passing with a device fence never reads stale data: functional") {
  CHECK(message_passing_run(TimingMode::Functional, true) == 42);
}
// The mutation: without the acquire fence (and with a relaxed spin: an
// acquire atomic drops the L1's copies itself) the consumer's L1 still holds
// the old line, so the stale value shows. If this ever reads 42 the L1 is not
// keeping real copies and the test above proves nothing.
TEST_CASE("message passing without the fence reads the stale L1 copy (test can fail)") {
  CHECK(message_passing_run(TimingMode::LT, false) == 0);
}

static std::string error_of(const std::function<void(HostModule&)>& program) {
  try {
    run_host_program(load_platform(platform_path("tiny")), TimingMode::LT, 1, program);
  } catch (const SimError& e) {
    return e.what();
  }
  return "";
}

static WarpTask touch(Warp& w, Addr a) {
  co_await w.store<uint32_t>(address_of<uint32_t>(a, w.thread_idx()), Lanes<uint32_t>(7u),
                             w.active());
}

TEST_CASE("a block larger than the platform allows is refused") {
  std::string e = error_of([](HostModule& h) {
    Addr a = h.malloc(4);
    h.launch({"big", {1, 1, 1}, {2048, 1, 1}, 0, 32, [a](Warp& w) { return touch(w, a); }});
  });
  CHECK_THAT(e, Catch::Contains("max_threads_per_block"));
}

TEST_CASE("shared memory over the limit is refused") {
  std::string e = error_of([](HostModule& h) {
    Addr a = h.malloc(4);
    h.launch({"greedy", {1, 1, 1}, {32, 1, 1}, 200000, 32, [a](Warp& w) { return touch(w, a); }});
  });
  CHECK_THAT(e, Catch::Contains("shared memory"));
}

TEST_CASE("an out-of-bounds device address names the warp, lane and address") {
  std::string e = error_of([](HostModule& h) {
    Addr a = h.malloc(64); // 16 words, the warp writes 32
    h.launch({"oob", {1, 1, 1}, {32, 1, 1}, 0, 32, [a](Warp& w) { return touch(w, a); }});
    h.synchronize();
  });
  CHECK_THAT(e, Catch::Contains("warp 0") && Catch::Contains("lane 16") &&
                    Catch::Contains("outside every device allocation"));
}
