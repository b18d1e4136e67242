// The SM's cycle loop: issue, or find why nothing issued and when
// something next may (idle), and wait for that cycle or an event; lt keeps
// local time with a quantum keeper. Same class as sm_module.cpp; split only
// to keep files small.
#include "models/sm/sm_module.hpp"
#include "tlmgpu/invariant.hpp"

#include <tlm_utils/tlm_quantumkeeper.h>

#include <algorithm>

using namespace sc_core;

namespace tlmgpu {

// Which masks a slot belongs to, from its state (refresh and check_masks).
std::array<bool, WarpMasks::kSets> SmModule::mask_bits(const WarpSlot& w) {
  const bool live = w.valid && !w.exited;
  const WarpInstr* p = live ? w.warp->pending() : nullptr;
  std::array<bool, WarpMasks::kSets> in{};
  in[WarpMasks::Valid] = w.valid;
  in[WarpMasks::Memory] = w.valid && (w.outstanding > 0 || w.exited);
  in[WarpMasks::Barrier] = w.valid && w.at_barrier;
  in[WarpMasks::Global] = p && is_global_memory(p->kind);
  in[WarpMasks::Candidate] = live && !w.at_barrier && w.outstanding == 0;
  return in;
}

void SmModule::refresh(uint32_t slot) {
  const auto in = mask_bits(warps_[slot]);
  for (uint8_t set = 0; set < WarpMasks::kSets; ++set)
    masks_.set(WarpMasks::Set(set), slot, in[set]);
}

void SmModule::check_masks() const {
  for (uint32_t slot = 0; slot < warps_.size(); ++slot) {
    const auto in = mask_bits(warps_[slot]);
    for (uint8_t set = 0; set < WarpMasks::kSets; ++set)
      TLMGPU_CHECK(masks_.test(WarpMasks::Set(set), slot) == in[set] && "warp masks out of step");
  }
}

// A cycle in which no warp issued: why (judged from the warps' state now),
// and the next cycle something may issue (~0: only an event can wake the
// SM). One pass over the warp slots for both.
SmModule::Idle SmModule::idle(Cycle now) {
  Cycle next = ~Cycle{0};
  bool mem = false, bar = false, any = false, lsu = false, gate = false;
  const bool open = lsu_open();
  const bool lt = ctx_.mode == TimingMode::LT;
  if (scan_by_masks()) {
    // The loop below, answered by the masks: the same flags and the same
    // earliest ready cycle, visiting only the warps that may issue.
    any = masks_.any(WarpMasks::Valid);
    mem = masks_.any(WarpMasks::Memory);
    bar = masks_.any(WarpMasks::Barrier);
    lsu = !open && masks_.any(WarpMasks::Global);
    masks_.for_each_candidate(WarpMasks::kAll, open, [&](uint32_t slot) {
      next = std::min(next, std::max(warps_[slot].ready_at, now + 1));
    });
    // lt: an exited warp frees its slot once its writes are acknowledged
    // (retire_exited); the scan below wakes for that, so this does too.
    if (lt && exited_waiting_ > 0)
      for (const WarpSlot& w : warps_)
        if (w.valid && w.exited) next = std::min(next, std::max(w.writes_done, now + 1));
  } else {
    for (const WarpSlot& w : warps_) {
      if (!w.valid) continue;
      any = true;
      mem = mem || w.outstanding > 0 || w.exited;
      bar = bar || w.at_barrier;
      if (w.exited) { // lt: it frees its slot once its writes are acknowledged
        if (lt) next = std::min(next, std::max(w.writes_done, now + 1));
        continue;
      }
      // A warp the issue gate holds wakes when it opens. The gate is asked
      // only about a warp that could issue otherwise, as in issue_cycle(): one
      // at a barrier or waiting for memory has issued its pending instruction,
      // and a gate may act on what it is told (mark the warp as stopped).
      if (gate_ && !w.at_barrier && w.outstanding == 0 && gated(w, *w.warp->pending()) &&
          gate_->check(gate_warp(uint32_t(&w - warps_.data())), *w.warp->pending(), false) ==
              IssueGate::Verdict::Wait) {
        gate = true;
        continue;
      }
      // A warp waiting for the LD/ST unit wakes on an acknowledgement (AT).
      if (!open && is_global_memory(w.warp->pending()->kind)) {
        lsu = true;
        continue;
      }
      if (!w.at_barrier && w.outstanding == 0) next = std::min(next, std::max(w.ready_at, now + 1));
    }
  }
  for (Cycle b : sched_busy_until_)
    if (b > now) next = std::min(next, b);
  // A full LD/ST queue (sm.lsu_queue) is a reason of its own: its stall
  // counter exists only when the queue is bounded.
  Counter* lsu_why = stall_lsu_queue_ && !lsu_port_.can_send() ? stall_lsu_queue_ : &stall_lsu_;
  Counter* why = !any   ? &stall_idle_
                 : gate ? stall_gate_
                 : lsu  ? lsu_why
                 : mem  ? &stall_memory_
                 : bar  ? &stall_barrier_
                        : &stall_scoreboard_;
  return {why, next};
}

// The loop of lt and functional runs, a SystemC thread (lt keeps local
// time with a quantum keeper). at runs the same body as calendar steps
// (at_step, below).
void SmModule::run() {
  tlm_utils::tlm_quantumkeeper qk;
  qk.reset();
  bool waited = false;        // LT: an access waited at a busy resource since the last sync
  bool shared_waited = false; // ... at one other SMs use too (WaitTally)
  uint64_t sent_by_sync = 0;  // LT: global_requests_ at the last sync
  for (;;) {
    if (live_ctas_ == 0) {
      // Catch up with the kernel first, then re-check: a CTA may have arrived
      // while we synced (waiting on work_ right away could miss its notify).
      if (qk.get_local_time() != SC_ZERO_TIME) {
        qk.sync();
        continue;
      }
      wait(work_);
      continue;
    }
    const Cycle now = ctx_.mode == TimingMode::LT ? clk_.at(qk.get_current_time()) : clk_.now();
    lt_now_ = now;
    const bool lt = ctx_.mode == TimingMode::LT;
    if (lt) WaitTally::take(), WaitTally::take_shared(); // only our own accesses count
    const bool issued = issue_cycle(now);
    if (lt) {
      waited = WaitTally::take() > 0 || waited;
      shared_waited = WaitTally::take_shared() > 0 || shared_waited;
    }
    if (live_ctas_ == 0) continue;
    if (!ctx_.timed()) {
      // No time passes, so yield now and then: a warp spinning on a flag that
      // another SM sets must let that SM's thread run.
      if (!issued)
        wait(response_);
      else if (++functional_steps_ % 64 == 0)
        wait(sc_core::SC_ZERO_TIME);
      continue;
    }
    ++active_cycles_;
    const Idle why = issued ? Idle{nullptr, now + 1} : idle(now);
    Counter* stall = why.stall;
    if (stall) ++*stall;
    const Cycle next = why.next;
    Cycle woke = next;
    if (ctx_.mode == TimingMode::LT && next == ~Cycle{0}) {
      // Only an issue gate's opening can wake the SM: catch up with the
      // kernel first (the gate may open meanwhile), then wait for it.
      TLMGPU_CHECK(gate_ && "LT: every warp waits for an event that cannot come");
      if (qk.get_local_time() != SC_ZERO_TIME) {
        qk.sync();
        continue;
      }
      wait(response_);
      count_skipped(stall, now, clk_.now());
      continue;
    }
    if (ctx_.mode == TimingMode::LT) {
      qk.set(clk_.cycles(next) - sc_time_stamp());
      // A busy resource: let the SMs behind us book it at their times before
      // we take more of it (docs/timing.md, "Contention syncs"), once we are
      // lt_busy_quantum cycles ahead or sent lt_busy_requests since the last
      // sync (a burst, e.g. every SM's first loads at a kernel's start, would
      // otherwise be booked whole before any SM behind us books one).
      const uint64_t sent = global_requests_.value() - sent_by_sync;
      const bool quantum_end = qk.need_sync();
      const bool contended =
          !quantum_end && waited &&
          ((ctx_.lt_busy_quantum && qk.get_local_time() >= clk_.cycles(ctx_.lt_busy_quantum)) ||
           (shared_waited && ctx_.lt_busy_requests && sent >= ctx_.lt_busy_requests &&
            qk.get_local_time() > SC_ZERO_TIME));
      if (quantum_end || contended) {
        if (contended) ++lt_contention_syncs_;
        qk.sync();
        waited = shared_waited = false;
        sent_by_sync = global_requests_.value();
      }
    }
    count_skipped(stall, now, woke);
  }
}

// The cycles after `last` up to `woke` (exclusive) were skipped: they
// stalled for the reason `last` gave.
void SmModule::count_skipped(Counter* stall, Cycle last, Cycle woke) {
  if (!stall || woke <= last + 1) return;
  *stall += woke - last - 1;
  active_cycles_ += woke - last - 1;
}

// at: the SM's loop is not a SystemC thread but a step on the calendar,
// run at the cycle idle() asks for or at once when wake() is called (a
// response, a write acknowledgement, room in the LD/ST queue, an issue
// gate opening, a new CTA). A step of an earlier wait that a wake-up
// overtook is dropped by its generation number. Why (issue 13): each
// thread wait was a timed notification in SystemC's heap, a wake-up a
// delta notification and a context switch; as steps, the SMs of one time
// run in the order they were scheduled, so at's order no longer depends
// on SystemC's heap (docs/timing.md, "at"). lt and functional keep run().
void SmModule::wake() {
  if (!at_timer_) {
    response_.notify(SC_ZERO_TIME);
    return;
  }
  // One pass now is enough: several wake-ups before it runs (responses of
  // one cycle) would each find their generation taken and do nothing.
  if (at_woken_ == at_gen_) return;
  at_woken_ = at_gen_;
  const uint64_t gen = at_gen_;
  at_timer_->schedule(SC_ZERO_TIME, [this, gen] { at_step(gen); });
}

void SmModule::at_schedule(Cycle at) {
  const uint64_t gen = at_gen_;
  at_timer_->schedule(clk_.until(at), [this, gen] { at_step(gen); });
}

// One pass of run()'s loop for at: the cycles since the last pass stalled
// for the reason it gave, then issue or find why not and when next.
void SmModule::at_step(uint64_t gen) {
  if (gen != at_gen_) return; // superseded by an earlier wake-up
  ++at_gen_;
  if (at_waiting_) {
    at_waiting_ = false;
    count_skipped(at_stall_, at_last_, std::max(clk_.now(), at_last_ + 1));
  }
  if (live_ctas_ == 0) return;
  const Cycle now = clk_.now();
  lt_now_ = now;
  const bool issued = issue_cycle(now);
  if (live_ctas_ == 0) return;
  ++active_cycles_;
  const Idle why = issued ? Idle{nullptr, now + 1} : idle(now);
  if (why.stall) ++*why.stall;
  at_stall_ = why.stall;
  at_last_ = now;
  at_waiting_ = true;
  if (why.next != ~Cycle{0}) at_schedule(why.next);
}

} // namespace tlmgpu
