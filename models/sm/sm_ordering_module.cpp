// Non-blocking stores and reds (issue 11) and the ordering points that wait
// for them. A GPU's ST and RED return no value: the warp goes on once the
// LD/ST unit took them, and only ordering points (fences, a flushing
// barrier) and the warp's exit wait for their acknowledgements. Same class
// as sm_module.cpp; split to keep files small.
//
//   issue ST/RED ──► line requests ──► write slot free? ── yes ──► LD/ST port (AT)
//        │ warp goes on next cycle          │ no                     │
//        ▼                                  ▼                        ▼
//   fence / exit ◄── writes == 0 ◄──── write_backlog_ ◄──── ack: writes_acked()
//
// sm.blocking_writes chooses which writes the warp waits for instead:
// `reds` is what the papers' GPGPU-Sim baselines do (a PTX atom with an
// unused destination still waits), `all` the model before issue 11.
//
// Resources: the LD/ST unit keeps at most sm.write_slots non-blocking write
// requests in flight per SM. AT: a request that finds no slot waits in
// write_backlog_, and no global memory instruction issues while the backlog
// is non-empty or every slot is taken (in order: a load must not overtake a
// store); a stage that answers writes itself (the LAB, once a red entered
// it) frees their slots when it answers. lt: the
// slots are the acknowledgement cycles of the writes in flight; a request
// leaves the LD/ST unit no earlier than the oldest of them when all are
// taken. Functional mode has no time and nothing is ever in flight.
#include "models/sm/sm_module.hpp"

#include <algorithm>
#include <functional>

using namespace sc_core;

namespace tlmgpu {

bool SmModule::waits_for(WarpInstr::Kind k) const {
  if (k == WarpInstr::Kind::Store) return write_wait_ == WriteWait::All;
  if (k == WarpInstr::Kind::Red) return write_wait_ != WriteWait::None;
  return true; // loads and value-returning atomics
}

Cycle SmModule::cur_cycle() const {
  return ctx_.mode == TimingMode::LT ? lt_now_ : clk_.now();
}

bool SmModule::writes_pending(const WarpSlot& w) const {
  if (ctx_.at()) return w.writes > 0;
  return ctx_.mode == TimingMode::LT && w.writes_done > lt_now_;
}

bool SmModule::lsu_open() const {
  // can_send(): fewer than sm.lsu_queue requests wait to enter the path.
  return !ctx_.at() ||
         (write_backlog_.empty() && writes_in_flight_ < spec_.write_slots && lsu_port_.can_send());
}

Cycle SmModule::take_write_slot(Cycle leave) {
  auto later = std::greater<Cycle>();
  auto& heap = write_slots_lt_;
  while (!heap.empty() && heap.front() <= leave) {
    std::pop_heap(heap.begin(), heap.end(), later);
    heap.pop_back();
  }
  if (heap.size() >= spec_.write_slots) {
    ++write_slot_waits_;
    leave = std::max(leave, heap.front());
    std::pop_heap(heap.begin(), heap.end(), later);
    heap.pop_back();
  }
  return leave;
}

// lt: a posted write of warp `w` is acknowledged at `acked`; it holds a
// write slot until then.
void SmModule::note_write_lt(WarpSlot& w, Cycle acked) {
  w.writes_done = std::max(w.writes_done, acked);
  write_slots_lt_.push_back(acked);
  std::push_heap(write_slots_lt_.begin(), write_slots_lt_.end(), std::greater<Cycle>());
}

// n write requests of warp `w` now count as in flight (AT).
void SmModule::note_write(WarpSlot& w, uint32_t n) {
  w.writes += n;
  writes_in_flight_ += n;
  max_writes_in_flight_ = std::max<uint64_t>(max_writes_in_flight_, writes_in_flight_);
}

// AT: n non-blocking writes of the warp in `slot` are acknowledged (by L2,
// or by a stage that took them, such as the LAB). Waiting requests take the freed slots; a
// fence or exit waiting for the warp's writes goes on.
void SmModule::writes_acked(uint32_t slot, uint32_t n) {
  WarpSlot& w = warps_[slot];
  w.writes -= n;
  writes_in_flight_ -= n;
  while (!write_backlog_.empty() && writes_in_flight_ < spec_.write_slots) {
    GpuPayload* p = write_backlog_.front();
    write_backlog_.pop_front();
    ++writes_in_flight_;
    lsu_port_.send(*p);
  }
  wake(); // the LD/ST unit may take instructions again
  if (w.writes > 0) return;
  if (w.exited) {
    --exited_waiting_;
    free_warp(slot);
    return;
  }
  const auto then = std::exchange(w.after_writes, WarpSlot::AfterWrites::None);
  if (then == WarpSlot::AfterWrites::None) return;
  --w.outstanding;
  refresh(slot);
  const Cycle now = clk_.now();
  w.ready_at = std::max(w.ready_at, now + 1);
  if (then == WarpSlot::AfterWrites::Fence)
    fence(slot, now);
  else
    barrier(slot, now);
}

// AT: if the warp has writes in flight, the instruction at its head (a fence
// or a flushing barrier) waits for them: returns true and runs `then` from
// writes_acked. lt and functional never wait here (lt starts the fence at
// the warp's writes_done instead).
bool SmModule::wait_for_writes(uint32_t slot, WarpSlot::AfterWrites then) {
  WarpSlot& w = warps_[slot];
  if (!ctx_.at() || w.writes == 0 || skip_write_wait_) return false;
  w.after_writes = then;
  ++w.outstanding;
  refresh(slot);
  return true;
}

// lt: exited warps free their slots once their last write is acknowledged.
void SmModule::retire_exited(Cycle now) {
  for (uint32_t s = 0; s < warps_.size() && exited_waiting_ > 0; ++s) {
    WarpSlot& w = warps_[s];
    if (!w.valid || !w.exited || w.writes_done > now) continue;
    --exited_waiting_;
    free_warp(s);
  }
}

// A CTA barrier once the warp's writes are acked (where it waits for them).
// If a stage of the path orders barriers (PathStage::orders_barriers, e.g.
// the LAB with lab.flush_on_barrier) the barrier goes down the path as a
// request and the warp arrives when it is answered; otherwise at once.
void SmModule::barrier(uint32_t slot, Cycle now) {
  if (barriers_down_path_) return send_ordering(slot, now, FenceKind::Barrier);
  enter_barrier(slot, now);
}

// A fence instruction, or the release/acquire half of an ordered access.
// It orders the warp's earlier stores and reds: it waits for their
// acknowledgements (AT; lt starts it when the last one is acked).
void SmModule::ordering_point(uint32_t slot, Cycle now) {
  WarpSlot& w = warps_[slot];
  if (wait_for_writes(slot, WarpSlot::AfterWrites::Fence)) return;
  fence(slot, ctx_.mode == TimingMode::LT ? std::max(now, w.writes_done) : now);
}

// Accesses with an order are what the hardware makes of them (PTX
// st.release = fence + st; ld.acquire = ld + fence; sc and acq_rel both):
// a fence at the access's scope before it (release) and after it (acquire,
// loads and value-returning atomics only). sm.inject_fault = relaxed_orders
// drops both, for the tests that must catch it.
bool SmModule::releases(const WarpInstr& in) const {
  return !relaxed_orders_ && (in.order == MemOrder::Release || in.order == MemOrder::AcqRel ||
                              in.order == MemOrder::SeqCst);
}

bool SmModule::acquires(const WarpInstr& in) const {
  return !relaxed_orders_ &&
         (in.kind == WarpInstr::Kind::Load || in.kind == WarpInstr::Kind::Atomic) &&
         (in.order == MemOrder::Acquire || in.order == MemOrder::AcqRel ||
          in.order == MemOrder::SeqCst);
}

// issue() of a global memory instruction: true if a half of its ordering
// sequence issued instead of the access.
bool SmModule::ordered_step(uint32_t slot, Cycle now) {
  using O = WarpSlot::Ordered;
  WarpSlot& w = warps_[slot];
  const WarpInstr& in = *w.warp->pending();
  if (w.ordered == O::None && releases(in)) {
    w.ordered = O::Release;
  } else if (w.ordered == O::Acquire) {
    w.ordered = O::Acquiring;
  } else {
    return false;
  }
  ordering_point(slot, now);
  return true;
}

// advance(): the current step of an ordered access finished. Returns true
// when the instruction is complete (the coroutine may go on).
bool SmModule::ordered_done(WarpSlot& w) {
  using O = WarpSlot::Ordered;
  switch (w.ordered) {
  case O::Release: // the fence before it: the access issues next
    w.ordered = O::Access;
    return false;
  case O::None:
  case O::Access:
    if (w.warp->pending() && is_global_memory(w.warp->pending()->kind) &&
        acquires(*w.warp->pending())) {
      w.ordered = O::Acquire; // the fence after it issues next
      return false;
    }
    w.ordered = O::None;
    return true;
  case O::Acquire:
  case O::Acquiring:
    w.ordered = O::None;
    return true;
  }
  return true;
}

// A fence once the warp's writes are acked: the ordering point itself.
void SmModule::fence(uint32_t slot, Cycle now) {
  WarpSlot& w = warps_[slot];
  w.ready_at = now + (ctx_.timed() ? spec_.fence_latency : 0);
  if (w.warp->pending()->scope == Scope::Cta) return advance(slot);
  send_ordering(slot, now, FenceKind::Fence);
}

// The fence travels down the memory path as a request (AccessKind::Fence):
// what the L1 and its protocol buffer (dirty bytes, PHI lines, hLRC owned
// lines) reaches L2 before the answer, and the L1 drops its copies (the
// acquire of GPU VI protocols). The warp goes on at the answer.
GpuPayload* SmModule::fence_payload(Scope scope, FenceKind kind, uint32_t slot, MemOrder order) {
  GpuAccess a;
  a.kind = AccessKind::Fence;
  a.fence = kind;
  a.scope = scope;
  a.order = order;
  a.src_sm = id;
  a.src_warp = uint16_t(slot);
  a.src_cta = slot == kNoWarp ? 0 : ctas_[warps_[slot].cta_slot].cta;
  a.txn_id = ctx_.pool.next_txn_id();
  GpuPayload* p = ctx_.pool.allocate();
  p->setup(tlm::TLM_READ_COMMAND, 0, coalescer_.line_bytes(), a);
  return p;
}

// The kernel end's release, sent once this SM has no CTA left and none will
// come (GpuModule), so no write of this SM is in flight. A traffic
// generator that drives the path itself (lsu()) has no LD/ST port: its L1
// is flushed directly.
Cycle SmModule::kernel_end_release(Cycle at) {
  if (released_) return at;
  released_ = true;
  if (external_lsu_) return l1.flush_and_invalidate(at);
  GpuPayload* p = fence_payload(Scope::System, FenceKind::KernelEnd, kNoWarp);
  if (ctx_.at()) {
    mark_in_flight(*p, InFlight{kNoWarp, 0, 0, false});
    kernel_end_pending_ = true;
    lsu_port_.send(*p);
    return at;
  }
  sc_time d = ctx_.timed() ? clk_.until(at) : SC_ZERO_TIME;
  const sc_time base = sc_time_stamp();
  lsu_port_.b_transport(*p, d);
  p->release();
  return ctx_.timed() ? clk_.at_or_after(base + d) : at;
}

// A warp's fence or barrier as a request down the path; the warp goes on
// (fence) or arrives at the barrier when it is answered.
void SmModule::send_ordering(uint32_t slot, Cycle now, FenceKind kind) {
  WarpSlot& w = warps_[slot];
  const bool barrier = kind == FenceKind::Barrier;
  // Which half of an ordered access this is (Release before it, Acquire
  // after it), so a protocol that treats them apart (drain vs invalidate)
  // can; a fence instruction carries its own order, a barrier orders both.
  using O = WarpSlot::Ordered;
  const MemOrder order = barrier                     ? MemOrder::SeqCst
                         : w.ordered == O::Release   ? MemOrder::Release
                         : w.ordered == O::Acquiring ? MemOrder::Acquire
                                                     : w.warp->pending()->order;
  const WarpInstr& in = *w.warp->pending();
  GpuPayload* p = fence_payload(barrier ? Scope::Cta : in.scope, kind, slot, order);
  // The half of a remote-scope-promoted access names that access's line
  // (when its lanes touch one), so an L1 protocol policy can order the half
  // as it orders the access (the remote flag and the address of a fence say
  // nothing else; a fence instruction or a barrier has neither).
  if (!barrier && w.ordered != O::None && in.remote && in.mask.any()) {
    const Addr line = coalescer_.line_of(in.addr[in.mask.first()]);
    bool one_line = true;
    in.mask.for_each(
        [&](unsigned l) { one_line = one_line && coalescer_.line_of(in.addr[l]) == line; });
    if (one_line) {
      p->set_address(line);
      p->access().remote = true;
    }
  }
  if (ctx_.at()) {
    mark_in_flight(*p, InFlight{slot, 0, 0, false, barrier, !barrier});
    ++w.outstanding;
    refresh(slot);
    lsu_port_.send(*p);
    return;
  }
  sc_time d = ctx_.timed() ? clk_.until(now) : SC_ZERO_TIME;
  const sc_time base = sc_time_stamp();
  lsu_port_.b_transport(*p, d);
  const Cycle answered = ctx_.timed() ? clk_.at_or_after(base + d) : now;
  p->release();
  if (barrier) return enter_barrier(slot, std::max(now, answered));
  w.ready_at = std::max(w.ready_at, answered);
  advance(slot);
}

} // namespace tlmgpu
