// The deadlock watchdog (issue 19 item 7). A run whose requests stop moving
// used to end in one of two ways: with no event left, sc_start returned and
// run.cpp reported what the SMs waited for; but with anything still ticking
// (a stage that polls for an answer that never comes, a retry loop) the
// simulated time advanced forever and the run hung. This thread watches a
// kernel while it runs: when neither an SM issued an instruction nor any
// port accepted or answered a request for sim.watchdog_cycles core cycles,
// it stops the run with what waits on what (GpuModule::waits).
//
// It only reads counters, and it waits on an event (not a time) between
// kernels, so it changes no result and does not keep a finished simulation
// alive. Its cost is one wake-up per quarter of the window.
#include "models/gpu/gpu_module.hpp"

#include "tlmgpu/sim/clock.hpp"

using namespace sc_core;

namespace tlmgpu {

uint64_t GpuModule::progress_mark() const {
  uint64_t m = g_port_activity + ctas_retired_;
  for (const SmModule* sm : sms)
    m += sm->issued();
  return m;
}

void GpuModule::watchdog() {
  const uint64_t window = ctx_.platform.sim.watchdog_cycles;
  const Clock core(ctx_.platform.sm.clock_mhz);
  // Checked four times per window, so a stall is found within 1.25 windows.
  const uint64_t step = std::max<uint64_t>(1, window / 4);
  for (;;) {
    while (!running_)
      wait(watchdog_wake_);
    uint64_t mark = progress_mark();
    Cycle since = core.at(sc_time_stamp());
    while (running_) {
      wait(core.cycles(step), watchdog_wake_);
      if (!running_) break;
      const uint64_t now_mark = progress_mark();
      const Cycle now = core.at(sc_time_stamp());
      if (now_mark != mark) {
        mark = now_mark, since = now;
        continue;
      }
      if (now - since < window) continue;
      throw SimError(
          "watchdog: kernel '" + kernel_.name + "' made no progress for " +
          std::to_string(now - since) +
          " core cycles (sim.watchdog_cycles = " + std::to_string(window) + ") at cycle " +
          std::to_string(now) + ", " + std::to_string(dispatcher_->dispatched()) + "/" +
          std::to_string(dispatcher_->num_ctas()) + " CTAs placed; what waits:" + waits());
    }
  }
}

} // namespace tlmgpu
