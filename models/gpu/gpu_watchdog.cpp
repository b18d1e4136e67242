// The deadlock watchdog (issue 19 item 7). A run whose requests stop moving
// used to end in one of two ways: with no event left, sc_start returned and
// run.cpp reported what the SMs waited for; but with anything still ticking
// (a stage that polls for an answer that never comes, a retry loop) the
// simulated time advanced forever and the run hung. This check runs between
// slices of the simulation (tlmgpu/sim/watch.hpp: no event, no process, so
// no result changes) and watches a kernel while it runs: when neither an SM
// issued an instruction nor a CTA retired nor any port accepted or answered
// a request for sim.watchdog_cycles core cycles, it stops the run with what
// waits on what (GpuModule::waits).
#include "models/gpu/gpu_module.hpp"

#include "tlmgpu/sim/clock.hpp"

namespace tlmgpu {

uint64_t GpuModule::progress_mark() const {
  uint64_t m = g_port_activity + ctas_retired_;
  for (const SmModule* sm : sms)
    m += sm->issued();
  return m;
}

void GpuModule::watchdog_check() {
  if (!running_) return;
  // In lt an SM runs a quantum of its work at once and then waits a quantum:
  // a window shorter than two quanta would see a working SM as stuck.
  const uint64_t window = std::max<uint64_t>(ctx_.platform.sim.watchdog_cycles,
                                             2 * uint64_t(ctx_.platform.sim.quantum_cycles));
  const Cycle now = Clock(ctx_.platform.sm.clock_mhz).now();
  const uint64_t mark = progress_mark();
  if (watch_kernel_ != kernels_run_ || mark != watch_mark_) { // a new kernel, or it moved
    watch_kernel_ = kernels_run_, watch_mark_ = mark, watch_since_ = now;
    return;
  }
  if (now - watch_since_ < window) return;
  throw SimError("watchdog: kernel '" + kernel_.name + "' made no progress for " +
                 std::to_string(now - watch_since_) + " core cycles (sim.watchdog_cycles = " +
                 std::to_string(ctx_.platform.sim.watchdog_cycles) +
                 ", at least 2 LT quanta) at cycle " + std::to_string(now) + ", " +
                 std::to_string(dispatcher_->dispatched()) + "/" +
                 std::to_string(dispatcher_->num_ctas()) + " CTAs placed; what waits:" + waits());
}

} // namespace tlmgpu
