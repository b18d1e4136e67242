// L1Module, AT: when the head of the request queue is tried (step) and how a
// stalled head sleeps until something can unblock it (wake). The request
// handling itself is attempt() in l1_module.cpp.
#include "models/l1/l1_module.hpp"
#include "tlmgpu/invariant.hpp"

#include <utility>

using namespace sc_core;

namespace tlmgpu {

void L1Module::kick() {
  if (step_pending_ || !port.has_request()) return;
  schedule_step(std::max(clk_.now(), next_step_));
}

void L1Module::schedule_step(Cycle at) {
  step_pending_ = true;
  pending_at_ = at;
  const uint64_t gen = ++step_gen_; // a step superseded by an earlier one is dropped
  timer_.schedule(clk_.until(at), [this, gen] {
    if (gen == step_gen_) step();
  });
}

// Stalled head. A head that cannot go on (miss queue full, MSHR table full or
// its entry at max merges, hLRC without an MSHR entry) used to be retried
// every cycle: one timed event per stalled cycle and L1, which made stalled
// runs (hLRC histogram) several times slower in host time. Now it sleeps
// until wake(), called by everything that can change what attempt() sees:
// a response (fill, grant, PHI red answered: MSHR entries and merge slots
// freed, parked packets released), drain_down (the miss queue shrinks), a
// PHI fence (release_async drops lines) and an hLRC recall (gives a line up).
//
// The stats stay those of a retry every cycle: what a failed step added to
// this L1's counters (the stall counter) is recorded, and the cycles slept
// add it in bulk on the next retry. That is exact only while every slept
// cycle would have failed the same way, so the head sleeps only after a
// failure that repeated the previous one's increments (a first failure may
// have side effects, e.g. PHI partials sent; it retries next cycle as before).
//
// Timing: a retry every cycle ran in the cycle's first delta, so a wake from
// a later delta (drain_down after END_REQ, the SM, the hLRC fabric) retries
// at the next edge. A response from the crossbar arrives in the first delta
// of an edge, the same delta as that retry; it retries at this edge
// (Waker::ThisEdge). The order of same-delta processes is SystemC's, so AT
// cycle counts of stalled runs moved by <1% when this came in.
//
// Safety net: a missed wake-up source would only delay the retry instead of
// hanging, because a sleeping head is retried at least every
// kStallNetCycles. The stat stall_net_wakeups counts net retries that
// succeeded: 0 means no wake-up was missed (tests check it).
void L1Module::wake() {
  if (!stalled_ || in_step_) return kick();
  woken_ = true;
  const sc_time t = sim_now();
  Cycle at = clk_.at_or_after(t);
  if (clk_.cycles(at) == t && waker_ == Waker::NextEdge) ++at;
  at = std::max(at, next_step_);
  if (step_pending_ && pending_at_ <= at) return;
  schedule_step(at);
}

void L1Module::stall_net_fire() {
  if (!stalled_ || step_pending_) return;
  net_step_ = true;
  schedule_step(std::max(clk_.now(), next_step_));
}

void L1Module::step() {
  step_pending_ = false;
  if (!port.has_request()) return;
  const Cycle now = clk_.now();
  next_step_ = now + 1;
  if (stalled_) { // the cycles slept, each failing as the last retry did
    TLMGPU_CHECK(now > stall_cycle_);
    const uint64_t slept = now - stall_cycle_ - 1;
    if (slept != 0)
      for (size_t i = 0; i < counters_.size(); ++i)
        counters_[i]->inc(slept * stall_delta_[i]);
  }
  stall_before_.resize(counters_.size());
  for (size_t i = 0; i < counters_.size(); ++i)
    stall_before_[i] = counters_[i]->value();
  in_step_ = true;
  const bool ok = attempt(port.front(), false);
  if (ok) {
    if (rsp_) rsp_accepted(access_of(port.front()), port.front().get_address());
    port.pop();
    ++requests_;
    counted_head_ = nullptr;
  }
  if (core_.phi()) phi_send(now); // update-only victims of a lazy store
  in_step_ = false;
  const bool by_net = std::exchange(net_step_, false);
  bool steady = false;
  if (ok) {
    if (stalled_ && by_net && !woken_) ++*stall_net_wakeups_;
    stall_net_.cancel();
  } else {
    for (size_t i = 0; i < counters_.size(); ++i)
      stall_before_[i] = counters_[i]->value() - stall_before_[i];
    steady = stalled_ && stall_before_ == stall_delta_;
    stall_delta_.swap(stall_before_);
    stall_cycle_ = now;
  }
  stalled_ = !ok;
  if (!port.has_request()) return;
  if (!stalled_ || !steady) return kick();
  woken_ = false; // asleep until wake() or the net
  stall_net_.cancel();
  stall_net_.notify(clk_.until(now + kStallNetCycles));
}

} // namespace tlmgpu
