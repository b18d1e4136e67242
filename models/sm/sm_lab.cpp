// The SM's LAB path in AT timing (same class as sm_module.cpp; split only to
// keep files small). Functional and lt keep the blocking path in sm_lsu.cpp.
// Seed-000 §1.5-1.7; models/lab/README.md "Wiring in the SM".
//
//   issue_global ──► requests (eligible line requests, FIFO)
//                      │ lab_tick(): the head enters the LAB pipeline, one per
//                      │ SM cycle; it stalls (lab.icnt_fail) while it would
//                      │ send a packet and the injection queue is full
//                      ▼
//                    LabCore::access ── the warp's request completes after lab.latency
//                      │ evictions, forwards (and flush(): every line at once)
//                      ▼
//                    inject (lab.inject_queue) ── one packet per SM cycle into
//                      │ the LD/ST port, while the port has nothing waiting
//                      │ and the L1's input queue has room
//                      ▼
//   lsu_port_ ──► L1 ──► xbar ──► L2 ──► reply: dropped, counted as an ack
//
// Ordering points (device/system fence, CTA barrier with flush_on_barrier,
// kernel end) flush, then wait until every packet queued before them has
// been acknowledged, so no partial update is in flight when another SM or
// the next kernel may read L2.
#include "models/sm/sm_module.hpp"

using namespace sc_core;

namespace tlmgpu {

SmModule::LabAt::LabAt(const LabSpec& s, StatGroup& g)
    : inject(s.inject_queue), timer("lab_timer"),
      icnt_fail(g.counter("icnt_fail", "cycles",
                          "AT: cycles the LAB's head request stalled because it would send a "
                          "packet and the injection queue (lab.inject_queue) was full")),
      flushes(g.counter("flushes", "flushes",
                        "AT: flushes that sent packets (kernel end, fences, barriers)")),
      flush_packets(g.counter("flush_packets", "requests", "AT: packets sent by flushes")),
      flush_cycles(g.counter("flush_cycles", "cycles",
                             "AT: per flush, cycles from the flush to the reply of the last packet "
                             "queued before it (summed over flushes)")) {}

bool SmModule::lab_settled() const {
  return !lab_at_ || lab_at_->inject.settled();
}

void SmModule::lab_enqueue(uint32_t slot, const LineRequest& r, const WarpInstr& in, bool write) {
  // paper_compatible: values come from the golden memory in issue order, as
  // on the blocking path (sm_lsu.cpp); the LAB's own state changes when the
  // request reaches the head of the pipeline.
  if (golden_memory)
    lab_golden(r, in, warps_[slot].warp->results());
  else if (r.access.kind == AccessKind::Atomic)
    throw SimError(std::string(name()) + ": LAB atomic with a return value but no golden memory");
  // A non-blocking red takes a write slot until it entered the LAB (the
  // LD/ST unit's queue to the LAB is bounded like its queue to the L1).
  if (write)
    note_write(warps_[slot], 1);
  else
    ++warps_[slot].outstanding;
  lab_at_->requests.push_back(LabRequest{slot, r.line, r.access, write});
  lab_kick();
}

void SmModule::lab_kick() {
  LabAt& s = *lab_at_;
  if (s.tick_pending) return;
  s.tick_pending = true;
  s.timer.schedule(clk_.until(std::max(clk_.now(), s.next_tick)), [this] { lab_tick(); });
}

void SmModule::lab_tick() {
  LabAt& s = *lab_at_;
  s.tick_pending = false;
  const Cycle now = clk_.now();
  s.next_tick = now + 1;
  if (!s.requests.empty()) {
    const LabRequest& r = s.requests.front();
    // A full queue stalls only a request that would send (GPGPU-Sim: a miss
    // whose victim finds no NoC buffer retries next cycle); hits go on. A
    // request may put at most two packets (256 B line) in the last slot.
    if (s.inject.full() && lab_->sends_on_access(r.access, r.line)) {
      ++s.icnt_fail;
    } else {
      LabOutcome out = lab_->access(r.access, r.line);
      for (const LabEviction& ev : out.evictions)
        lab_queue_packet(ev);
      if (out.forward) lab_queue_packet(*out.forward);
      const uint32_t slot = r.slot;
      const bool write = r.write;
      s.requests.pop_front();
      // An instruction's requests are adjacent (nothing else of its warp
      // enters between them): one completion event for a run of requests
      // of one warp and kind.
      ++s.entered;
      if (s.requests.empty() || s.requests.front().slot != slot ||
          s.requests.front().write != write) {
        const uint32_t n = s.entered;
        s.entered = 0;
        s.timer.schedule(clk_.until(now + ctx_.platform.lab.latency),
                         [this, slot, n, write] { lab_request_done(slot, n, write); });
      }
    }
  }
  // Injection: the LAB's packets do not overtake requests already waiting in
  // the LD/ST port, and wait while the L1 refuses requests (its input queue
  // full: the crossbar or L2 behind it is backed up).
  if (s.inject.queued() > 0 && lsu_port_.idle() &&
      l1.port.queued() < ctx_.platform.l1.input_queue) {
    GpuPayload* p = s.inject.front();
    s.inject.pop_sent();
    lsu_port_.send(*p);
  }
  if (!s.requests.empty() || s.inject.queued() > 0) lab_kick();
}

void SmModule::lab_queue_packet(const LabEviction& ev) {
  GpuPayload* p = ctx_.pool.allocate();
  GpuAccess a = partial_update_access(ev);
  a.src_sm = id;
  a.txn_id = ctx_.pool.next_txn_id();
  p->setup(tlm::TLM_READ_COMMAND, ev.line, coalescer_.line_bytes(), a);
  lab_at_->inject.push(p);
  ++*lab_packets_;
}

// Buffered requests complete at LAB latency: no response to wait for. `n`
// requests of the warp's instruction, the last one entered LAB latency ago.
void SmModule::lab_request_done(uint32_t slot, uint32_t n, bool write) {
  if (write) return writes_acked(slot, n); // the warp went on at issue
  WarpSlot& w = warps_[slot];
  w.outstanding -= n;
  if (w.outstanding > 0) return;
  w.ready_at = std::max(w.ready_at, clk_.now());
  advance(slot);
  response_.notify(SC_ZERO_TIME);
}

// flush_lab in AT: queues every buffered line; the caller's ordering point
// waits for the acks (lab_wait, lab_settled). ANBF's kernel-end flush takes
// the blocking path at no cost, as in lt: GpuModule calls it once nothing is
// in flight, the only time that path is safe in AT (models/l1/README.md,
// "Timing and ordering"), so ANBF's fences and barriers queue like others.
void SmModule::lab_flush_async(Cycle now, bool kernel_end) {
  LabAt& s = *lab_at_;
  const std::vector<LabEviction> lines = lab_->flush();
  if (lines.empty()) return;
  ++s.flushes;
  s.flush_packets += lines.size();
  if (kernel_end && !lab_->flush_costs_time()) {
    for (const LabEviction& ev : lines)
      send_lab_packet(ev, now, false);
    return;
  }
  for (const LabEviction& ev : lines)
    lab_queue_packet(ev);
  s.waits.push_back(LabWait{LabWait::FlushStat, 0, s.inject.mark(), now});
  lab_kick();
}

bool SmModule::lab_ack(Payload& t) {
  if (!lab_at_ || !lab_at_->inject.ack(static_cast<GpuPayload*>(&t))) return false;
  static_cast<GpuPayload&>(t).release();
  lab_progress();
  return true;
}

// The warp in `slot` continues (finish_fence / enter_barrier) once every LAB
// packet queued so far is acknowledged. Returns false if that is already so.
bool SmModule::lab_wait(uint32_t slot, LabWait::Kind kind) {
  LabAt& s = *lab_at_;
  if (s.inject.acked_before(s.inject.mark())) return false;
  ++warps_[slot].outstanding;
  s.waits.push_back(LabWait{kind, slot, s.inject.mark(), clk_.now()});
  return true;
}

void SmModule::lab_progress() {
  LabAt& s = *lab_at_;
  const Cycle now = clk_.now();
  // Marks only grow, so the waits are in mark order.
  while (!s.waits.empty() && s.inject.acked_before(s.waits.front().mark)) {
    const LabWait wt = s.waits.front();
    s.waits.pop_front();
    if (wt.kind == LabWait::FlushStat) {
      s.flush_cycles += now - wt.start;
      continue;
    }
    WarpSlot& w = warps_[wt.slot];
    --w.outstanding;
    w.ready_at = std::max(w.ready_at, now + 1);
    if (wt.kind == LabWait::Fence)
      finish_fence(wt.slot, now);
    else
      enter_barrier(wt.slot, now);
    response_.notify(SC_ZERO_TIME);
  }
  if (s.inject.settled()) s.settled.notify(SC_ZERO_TIME);
}

// A device/system fence whose LAB packets are acknowledged: the rest of the
// fence goes down the memory path (sm_ordering.cpp).
void SmModule::finish_fence(uint32_t slot, Cycle now) {
  send_fence(slot, now);
}

} // namespace tlmgpu
