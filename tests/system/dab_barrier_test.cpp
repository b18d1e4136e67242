// DAB's barrier rule (notes seed-001 pitfall P5; models/atomic_buffer/README.md,
// "Barriers"): under a token order (GWAT, GTAR, SRR) the warps sharing a
// scheduler buffer take turns at their reds in logical order, and the token
// waits for its holder, also at a barrier. A CTA whose token holder reaches a
// barrier before its next red, while a CTA-mate on the same buffer needs the
// token for a red before that barrier, can never finish. The model does not
// skip the holder (skipping a barrier-blocked warp would make the order depend
// on when the barrier's other arrivals came, notes P5), so such a kernel is
// DAB-incompatible; the run must end with a report of who waits on what,
// never hang. The same kernel with every red before the barrier runs through.
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace tlmgpu;
using namespace tlmgpu::test;
using Catch::Matchers::Contains;

namespace {

// One CTA of 8 warps on tiny-dab (4 schedulers: buffer b holds warps b and
// b + 4). With `crossed`, warp 0 (the first token holder of buffer 0) waits
// at the barrier before its red while warp 4 wants its red first; every other
// warp reds, then waits at the barrier.
WarpTask barrier_reds(Warp& w, Addr counter, bool crossed) {
  const Mask m = w.active();
  const Lanes<Addr> at = address_of<uint32_t>(counter, Lanes<uint64_t>(0));
  if (crossed && w.warp_in_cta() == 0) {
    co_await w.barrier();
    co_await w.red<uint32_t>(AtomicOp::Add, at, Lanes<uint32_t>(1u), m);
    co_return;
  }
  co_await w.red<uint32_t>(AtomicOp::Add, at, Lanes<uint32_t>(1u), m);
  co_await w.barrier();
}

struct Outcome {
  std::string error; // empty: the program finished
  uint32_t count = 0;
};

Outcome run_barrier(TimingMode mode, bool crossed) {
  const PlatformSpec p =
      load_platform(platform_path("examples/dab/tiny-dab.json"), {"sim.watchdog_cycles=20000"});
  Outcome o;
  try {
    run_host_program(p, mode, 1, [&](HostModule& h) {
      const Addr counter = h.malloc(128);
      h.memset(counter, 0, 128);
      h.launch({"barrier_reds", {1, 1, 1}, {256, 1, 1}, 0, 32, [counter, crossed](Warp& w) {
                  return barrier_reds(w, counter, crossed);
                }});
      h.synchronize();
      o.count = h.download<uint32_t>(counter, 1)[0];
    });
  } catch (const SimError& e) {
    o.error = e.what();
  }
  return o;
}

void check_report(const std::string& e) {
  INFO(e);
  CHECK_THAT(e, Contains("at a barrier"));           // warp 0 and the six others
  CHECK_THAT(e, Contains("held by the issue gate")); // warp 4 at its red
  CHECK_THAT(e, Contains("token: CTA 0 warp 0"));    // the holder
  CHECK_THAT(e, Contains("dab flush:"));             // the GPU-wide flush state
}

} // namespace

TEST_CASE("dab barrier rule: a token holder at a barrier is reported, not a hang, lt", "[dab]") {
  check_report(run_barrier(TimingMode::LT, true).error);
}
TEST_CASE("dab barrier rule: a token holder at a barrier is reported, not a hang, at", "[dab]") {
  check_report(run_barrier(TimingMode::AT, true).error);
}
TEST_CASE("dab barrier rule: reds before the barrier in every warp run through, at", "[dab]") {
  const Outcome o = run_barrier(TimingMode::AT, false);
  CHECK(o.error.empty());
  CHECK(o.count == 8 * 32);
}
