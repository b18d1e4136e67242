// Time in cycles of a block's own clock (house style rule 9): latencies are
// integers in the platform; this is the one place that turns them into sc_time.
#pragma once

#include "tlmgpu/types.hpp"

#include <systemc>

#include <cstring>
#include <type_traits>

namespace tlmgpu {

// sc_time_stamp() inline: the library's function is an out-of-line call
// that only reads the context's time, and AT asks for the time on every
// step (issue 13: the calls were 1.7 % of the AT histogram's instructions).
inline const sc_core::sc_time& sim_now() {
  return sc_core::sc_get_curr_simcontext()->time_stamp();
}

// sc_time from a count of resolution steps, inline. The library's
// sc_time::from_value is an out-of-line call that re-checks the time
// resolution on every use, and AT makes one per hop (issue 13: 3.8 M calls,
// 1.6 % of the AT histogram's instructions). sc_time is a single 64-bit
// count of resolution steps (asserted here; checked against from_value by
// the unit test [clock]), so the count is written into one directly; the
// resolution is fixed before any module runs (SimContext sets it).
inline sc_core::sc_time time_from_ticks(uint64_t ticks) {
  static_assert(sizeof(sc_core::sc_time) == sizeof(uint64_t) &&
                std::is_standard_layout_v<sc_core::sc_time>);
  sc_core::sc_time t;
  std::memcpy(static_cast<void*>(&t), &ticks, sizeof ticks);
  return t;
}

class Clock {
public:
  // The kernel's time resolution is set to 1 fs by the simulation context, so
  // a period is an exact integer number of resolution steps and cycle
  // arithmetic below is integer arithmetic (no drift over long runs).
  explicit Clock(double mhz)
      : period_(1e6 / mhz, sc_core::SC_PS), ticks_(period_.value() ? period_.value() : 1) {}
  sc_core::sc_time cycles(Cycle n) const { return time_from_ticks(ticks_ * n); }
  // Cycle count at an absolute time, rounded down (a request arriving mid-cycle
  // is handled in that cycle).
  Cycle at(const sc_core::sc_time& t) const { return t.value() / ticks_; }
  // Smallest cycle whose start is at or after t.
  Cycle at_or_after(const sc_core::sc_time& t) const { return (t.value() + ticks_ - 1) / ticks_; }
  Cycle now() const { return at(sim_now()); }
  // Absolute time of the start of cycle c, as a delay from now (>= 0).
  sc_core::sc_time until(Cycle c) const {
    sc_core::sc_time abs = cycles(c), now = sim_now();
    return abs > now ? abs - now : sc_core::SC_ZERO_TIME;
  }
  const sc_core::sc_time& period() const { return period_; }

private:
  sc_core::sc_time period_;
  uint64_t ticks_;
};

} // namespace tlmgpu
