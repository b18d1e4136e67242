// Fences as requests (issue 11: ordering points are transactions). The SM
// sends a device/system-scope fence down its memory path once the warp's
// own writes are acknowledged; every stage on the way drains what the scope
// orders and passes it on; the L1 is the last stage of the SM. Its part is
// the acquire of GPU VI protocols (drop every copy) and what its atomic
// protocol buffers: dirty bytes of a write-back L1, PHI's update-only lines,
// hLRC's owned lines. The fence's answer means all of it reached L2.
// A CTA-scope fence orders nothing at the L1 and is answered at once.
//
//   SM ── Fence(scope) ──► [stages] ──► L1 queue (in order behind earlier
//   requests) ──► write back / release / invalidate ──► answer when landed
#include "models/l1/l1_module.hpp"

using namespace sc_core;

namespace tlmgpu {

// functional / lt: the write-backs and releases take the blocking path; the
// answer comes when the last of them reaches L2.
Cycle L1Module::lt_fence(const GpuAccess& a, Cycle arrival) {
  if (a.scope == Scope::Cta) return arrival;
  if (core_.scoped() && a.fence != FenceKind::KernelEnd) return scoped_fence(a, arrival);
  return flush_and_invalidate(arrival);
}

// Scoped L1: the SM says which half of an ordered access a fence is
// (MemOrder::Release before a release access, Acquire after an acquire
// one; a fence instruction or a barrier is both). A release writes back
// every line of the sFIFO and is answered when the last write-back reached
// L2; an acquire drops the clean copies, so later loads read L2. CTA scope
// never gets here: every CTA of the SM shares this L1.
Cycle L1Module::scoped_fence(const GpuAccess& a, Cycle at) {
  Cycle landed = at;
  if (a.order != MemOrder::Acquire && !core_.scoped_skips_drain())
    for (const Writeback& wb : core_.scoped_release())
      landed = std::max(landed, lt_write_back(wb, at));
  if (a.order != MemOrder::Release && !core_.scoped_skips_invalidate()) core_.scoped_acquire();
  return landed;
}

// AT: the fence is at the head of the L1's queue, so every request the SM
// sent before it has been taken. PHI's packets go down the normal queue and
// the answer waits until every packet this L1 sent so far has landed;
// otherwise the blocking path is used, as for the kernel end.
bool L1Module::fence_attempt(Payload& t) {
  const GpuAccess& a = access_of(t);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  if (a.scope == Scope::Cta) {
    port.respond(t, SC_ZERO_TIME);
    return true;
  }
  if (core_.scoped()) {
    // Everything this L1 sent down must have landed first. Write-backs
    // (sFIFO overflows, victims): the drain below takes the blocking path and
    // could overtake them, and the answer promises they are at L2. Fills: one
    // still on its way would be installed after the invalidation, and a load
    // issued after the acquire would wait behind it and read its older data.
    if (in_flight_ != 0) return false; // woken when the last answer arrives
    const Cycle released = a.fence == FenceKind::KernelEnd ? flush_and_invalidate(clk_.now())
                                                           : scoped_fence(a, clk_.now());
    wake();
    port.respond(t, clk_.cycles(std::max(released, clk_.now())) - sc_time_stamp());
    return true;
  }
  if (core_.phi()) {
    Payload* f = &t;
    release_async([this, f] { port.respond(*f, SC_ZERO_TIME); });
    return true;
  }
  const Cycle released = flush_and_invalidate(clk_.now());
  wake(); // every line dropped: a stalled head's outcome may change
  port.respond(t, clk_.cycles(std::max(released, clk_.now())) - sc_time_stamp());
  return true;
}

} // namespace tlmgpu
