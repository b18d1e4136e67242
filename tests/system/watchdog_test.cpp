// The deadlock watchdog (issue 19 item 7, models/gpu/gpu_watchdog.cpp): a
// memory-path stage that swallows every request and never answers, while a
// process of its own keeps polling (so simulated time keeps advancing and
// SystemC never runs out of events). At 1fed1c1 such a run never ended;
// now it stops after sim.watchdog_cycles without progress and the error
// says what waits on what: the SM's warps waiting for memory and the ports
// holding unanswered requests.
#include "run_helpers.hpp"
#include "tlmgpu/sim/path_stage.hpp"

#include <catch2/catch.hpp>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

using namespace tlmgpu;
using namespace tlmgpu::test;
using Catch::Matchers::Contains;

namespace {

class BlackHole : public PathStage {
public:
  BlackHole(sc_core::sc_module_name n, const StageContext&) : PathStage(n), up("up"), down("down") {
    up.register_b_transport(this, &BlackHole::b_transport);
    up.register_nb_transport_fw(this, &BlackHole::fw);
    up.register_transport_dbg(this, &BlackHole::dbg);
    down.register_nb_transport_bw(this, &BlackHole::bw);
    SC_HAS_PROCESS(BlackHole);
    SC_THREAD(poll);
  }
  tlm::tlm_target_socket<>& upstream() override { return up; }
  tlm::tlm_initiator_socket<>& downstream() override { return down; }

private:
  // lt/functional: the caller blocks for good; at: accepted, never answered.
  void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) { sc_core::wait(never_); }
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload&, tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph == tlm::BEGIN_REQ) ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return up->nb_transport_bw(t, ph, d);
  }
  unsigned dbg(tlm::tlm_generic_payload& t) { return down->transport_dbg(t); }
  // "Is my answer there yet?" every 100 ns, forever: time never stops.
  void poll() {
    for (;;)
      sc_core::wait(100, sc_core::SC_NS);
  }

  tlm_utils::simple_target_socket<BlackHole> up;
  tlm_utils::simple_initiator_socket<BlackHole> down;
  sc_core::sc_event never_;
};

void register_black_hole() {
  register_stage({"black_hole", "test: swallows every request and polls forever",
                  [](const char* name, const StageContext& c) -> std::unique_ptr<PathStage> {
                    return std::make_unique<BlackHole>(name, c);
                  }});
}

std::string stuck_run(TimingMode mode) {
  register_black_hole();
  try {
    run("tiny", "histogram", mode, {{"n", "4096"}},
        {"sm.stages=black_hole", "sim.watchdog_cycles=20000"});
  } catch (const SimError& e) {
    return e.what();
  }
  return "(the run ended without an error)";
}

} // namespace

TEST_CASE("watchdog: a stage that never answers ends the run with a report (lt)", "[watchdog]") {
  const std::string e = stuck_run(TimingMode::LT);
  CHECK_THAT(e, Contains("watchdog: kernel 'histogram' made no progress"));
  CHECK_THAT(e, Contains("sim.watchdog_cycles = 20000"));
  CHECK_THAT(e, Contains("waiting for memory"));
  CHECK_THAT(e, Contains("blocking calls not returned")); // lt: the call into the stage
}

TEST_CASE("watchdog: a stage that never answers ends the run with a report (at)", "[watchdog]") {
  const std::string e = stuck_run(TimingMode::AT);
  CHECK_THAT(e, Contains("watchdog: kernel 'histogram' made no progress"));
  CHECK_THAT(e, Contains("waiting for memory"));
  CHECK_THAT(e, Contains("unanswered")); // at: the SM's requests into the stage
}
