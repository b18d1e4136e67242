// The SystemC kernel's set-up and the one sc_start() of a process
// (declared in include/tlmgpu/sim/context.hpp).
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"

#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdlib>

using namespace sc_core;

namespace tlmgpu {

void init_kernel_time() {
  static bool done = false;
  if (done) return;
  done = true;
  sc_set_time_resolution(1, SC_FS);
}

void prepare_kernel(const PlatformSpec& p) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  sc_report_handler::set_actions(SC_ERROR, SC_THROW);
  sc_report_handler::set_actions(SC_FATAL, SC_THROW);
  init_kernel_time();
  tlm_utils::tlm_quantumkeeper::set_global_quantum(
      Clock(p.sm.clock_mhz).cycles(p.sim.quantum_cycles));
}

void simulate() {
  try {
    sc_start();
  } catch (const sc_report& r) {
    throw SimError(std::string("simulation stopped: ") + r.get_msg());
  }
}

} // namespace tlmgpu
