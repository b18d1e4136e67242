// The SystemC kernel's set-up and the one sc_start() of a process
// (declared in include/tlmgpu/sim/context.hpp).
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/watch.hpp"

#include <tlm_utils/tlm_quantumkeeper.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) // gcc; clang defines it too since 15
#define TLMGPU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TLMGPU_ASAN 1
#endif
#endif

#ifdef TLMGPU_ASAN
#include <iterator>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

// LeakSanitizer and SystemC's coroutine stacks (issue 19 item 6). SystemC
// 2.3.4 allocates each thread's stack with new[] and makes its lowest page
// PROT_NONE as a guard. The threads still exist when the process exits, so
// LSan's scan of the heap at exit faults on that page ("Tracer caught
// signal 11"; SystemC issue #27, fixed in SystemC 3.0 by mmap'ed stacks).
// Sanitizer builds only: mprotect is interposed (libsystemc calls it
// through the PLT, so the executable's definition wins) to remember every
// range made PROT_NONE, and a handler registered at the first one, after
// ASan registered its leak check, so that it runs before it, makes them
// readable again at exit. No heap: the first calls come during elaboration.
namespace {
struct Guard {
  void* addr;
  size_t len;
};
Guard g_guards[1 << 14];
size_t g_guard_count = 0;

void unprotect_guards() {
  for (size_t i = 0; i < g_guard_count; ++i)
    syscall(SYS_mprotect, g_guards[i].addr, g_guards[i].len, PROT_READ | PROT_WRITE);
}
} // namespace

extern "C" int mprotect(void* addr, size_t len, int prot) {
  if (prot == PROT_NONE && g_guard_count < std::size(g_guards)) {
    if (g_guard_count == 0) std::atexit(unprotect_guards);
    g_guards[g_guard_count++] = {addr, len};
  }
  return int(syscall(SYS_mprotect, addr, len, prot));
}
#endif

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

namespace {
struct SimCheck {
  const void* owner;
  sc_time every;
  std::function<void()> check;
};
std::vector<SimCheck>& sim_checks() {
  static std::vector<SimCheck> checks;
  return checks;
}
} // namespace

void add_sim_check(const void* owner, const sc_time& every, std::function<void()> check) {
  sim_checks().push_back({owner, every, std::move(check)});
}

void remove_sim_check(const void* owner) {
  std::erase_if(sim_checks(), [owner](const SimCheck& c) { return c.owner == owner; });
}

// One sc_start(), or slices of it with the checks in between (watch.hpp).
// SC_EXIT_ON_STARVATION keeps the time at the last event (never at a
// slice's end where nothing happens), so the end time is that of one
// sc_start(); a slice then reaches at least the next event, or a gap
// between events longer than the slice would never be crossed.
void simulate() {
  try {
    if (sim_checks().empty()) return sc_start();
    sc_time slice = sim_checks().front().every;
    for (const SimCheck& c : sim_checks())
      slice = std::min(slice, c.every);
    sc_start(slice, SC_EXIT_ON_STARVATION); // elaborates and initializes
    for (;;) {
      for (const SimCheck& c : sim_checks())
        c.check();
      if (!sc_pending_activity() || sc_get_status() == SC_STOPPED) break;
      sc_start(std::max(slice, sc_time_to_pending_activity()), SC_EXIT_ON_STARVATION);
    }
  } catch (const sc_report& r) {
    throw SimError(std::string("simulation stopped: ") + r.get_msg());
  }
}

} // namespace tlmgpu
