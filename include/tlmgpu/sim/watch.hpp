// Checks that run between slices of the simulation (the deadlock watchdog,
// models/gpu/gpu_watchdog.cpp). While any is registered, simulate() runs
// sc_start in slices of the shortest period and calls every check after
// each slice, outside every SystemC process. Nothing is added to the
// kernel's event queue and no process is created, so the order of events,
// every result and the time the simulation ends are exactly those of one
// sc_start(): a watchdog thread with a timed wait did move AT cycles
// (histogram on titanv, 11,997 -> 11,993), because SystemC's timed-event
// queue does not keep equal times in their order when another entry joins.
// A check stops the run by throwing (SimError).
#pragma once

#include <systemc>

#include <functional>

namespace tlmgpu {

void add_sim_check(const void* owner, const sc_core::sc_time& every, std::function<void()> check);
void remove_sim_check(const void* owner);

} // namespace tlmgpu
