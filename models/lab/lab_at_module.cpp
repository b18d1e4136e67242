// The LAB stage in AT timing (same class as lab_module.cpp; split to keep files small).
//
//   up_ ──► at_accept ─┬─ eligible ──► requests_ (FIFO)
//                      │                 │ at_tick(): the head enters the LAB
//                      │                 │ pipeline, one per SM cycle; it stalls
//                      │                 │ (lab.icnt_fail) while it would send a
//                      │                 │ packet and inject_ is full. Its answer
//                      │                 ▼ goes up lab.latency cycles later.
//                      │               LabCore ── evictions, forwards, flushes
//                      │                 ▼
//                      │               inject_ ── one packet per SM cycle, only
//                      │                 │        while down_ has nothing waiting
//                      ├─ fence ──► flush, wait (waits_) until L2 acked every
//                      │            packet queued before it, then on to the L1
//                      └─ other ───────► down_ ──► L1 ... replies go back up
//
// Packet replies are dropped and counted as acknowledgements (LabInjection
// numbers them, so a fence waits for exactly the packets queued before it).
#include "models/lab/lab_module.hpp"

#include <utility>

using namespace sc_core;

namespace tlmgpu {

void LabGpuState::try_release_anbf() {
  if (anbf_held.size() < stages.size()) return;
  for (LabModule* s : stages)
    if (!s->settled()) return;
  const std::vector<LabModule*> held = std::move(anbf_held);
  anbf_held.clear();
  for (LabModule* s : held)
    s->anbf_release();
}

void LabModule::at_take() {
  while (up_.has_request()) {
    Payload& t = up_.front();
    up_.pop();
    at_accept(t);
  }
}

void LabModule::at_accept(Payload& t) {
  GpuAccess& a = access_of(t);
  if (a.kind == AccessKind::Fence) return at_fence(t);
  if (absorbs(t, a)) {
    // The golden memory sees lanes in arrival (issue) order; the LAB's own
    // state changes when the request reaches the head of the pipeline.
    golden_rmw(a, t.get_address());
    requests_.push_back(&t);
    return at_kick();
  }
  if (a.kind == AccessKind::Store) golden_store(t);
  if (a.kind == AccessKind::Load) {
    Tracked golden;
    if (golden_load(t, golden)) golden_loads_pending_.emplace(&t, std::move(golden));
  }
  down_.send(t);
}

void LabModule::at_fence(Payload& t) {
  const GpuAccess& a = access_of(t);
  if (!drains(a)) return down_.send(t);
  const bool kernel_end = a.fence == FenceKind::KernelEnd;
  if (kernel_end) kernel_end_arrives();
  if (kernel_end && !core_.flush_costs_time()) { // ANBF: wait for every LAB (lab_module.hpp)
    anbf_fence_ = &t;
    gpu_.anbf_held.push_back(this);
    return gpu_.try_release_anbf();
  }
  const std::vector<LabEviction> lines = core_.flush();
  if (!core_.empty()) throw SimError(std::string(name()) + ": LAB not empty after its flush");
  if (!lines.empty()) {
    ++*flushes_;
    *flush_packets_ += lines.size();
    for (const LabEviction& ev : lines)
      inject_.push(packet(ev));
    at_kick();
  }
  if (fence_early_) { // mutation: on towards the L1 ahead of the flush's packets
    if (kernel_end) gpu_.drained();
    return down_.send(t);
  }
  waits_.push_back(Wait{&t, inject_.mark(), clk_.now(), !lines.empty(), kernel_end});
  at_progress();
}

void LabModule::at_kick() {
  if (tick_pending_) return;
  tick_pending_ = true;
  timer_.schedule(clk_.until(std::max(clk_.now(), next_tick_)), [this] { at_tick(); });
}

void LabModule::at_tick() {
  tick_pending_ = false;
  const Cycle now = clk_.now();
  next_tick_ = now + 1;
  if (!requests_.empty()) {
    Payload& t = *requests_.front();
    const GpuAccess& a = access_of(t);
    // A full queue stalls only a request that would send (GPGPU-Sim: a miss
    // whose victim finds no NoC buffer retries next cycle); hits go on. A
    // request may put at most two packets (256 B line) in the last slot.
    if (inject_.full() && core_.sends_on_access(a, t.get_address())) {
      ++*icnt_fail_;
    } else {
      LabOutcome out = core_.access(a, t.get_address());
      for (const LabEviction& ev : out.evictions)
        inject_.push(packet(ev));
      if (out.forward) inject_.push(packet(*out.forward));
      requests_.pop_front();
      t.set_response_status(tlm::TLM_OK_RESPONSE);
      up_.respond(t, clk_.until(now + spec_.latency));
    }
  }
  // Injection: packets do not overtake requests already waiting for the L1,
  // and wait while the L1 refuses requests (its input queue is full).
  if (inject_.queued() > 0 && down_.idle()) {
    GpuPayload* p = inject_.front();
    inject_.pop_sent();
    down_.send(*p);
  }
  if (!requests_.empty() || inject_.queued() > 0) at_kick();
}

void LabModule::at_response(Payload& t) {
  auto& p = static_cast<GpuPayload&>(t);
  if (inject_.ack(&p)) { // a packet's reply: dropped, an acknowledgement
    p.release();
    return at_progress();
  }
  if (!golden_loads_pending_.empty())
    if (auto it = golden_loads_pending_.find(&t); it != golden_loads_pending_.end()) {
      overlay(t, it->second);
      golden_loads_pending_.erase(it);
    }
  up_.respond(t, SC_ZERO_TIME);
}

// Marks only grow, so the waits are in mark order.
void LabModule::at_progress() {
  const Cycle now = clk_.now();
  while (!waits_.empty() && inject_.acked_before(waits_.front().mark)) {
    const Wait w = waits_.front();
    waits_.pop_front();
    if (w.flushed) {
      *flush_cycles_ += now - w.start;
      trace_flush(clk_.cycles(w.start), clk_.cycles(now));
    }
    if (w.kernel_end) gpu_.drained();
    down_.send(*w.fence); // behind everything forwarded before it
  }
  if (!gpu_.anbf_held.empty() && settled()) gpu_.try_release_anbf();
}

// ANBF's free kernel-end flush: every LAB holds its release and nothing is in
// flight, so the blocking path is safe; the packets land at once.
void LabModule::anbf_release() {
  const std::vector<LabEviction> lines = core_.flush();
  if (!lines.empty()) {
    ++*flushes_;
    *flush_packets_ += lines.size();
  }
  for (const LabEviction& ev : lines)
    lt_send(ev, SC_ZERO_TIME);
  gpu_.drained();
  Payload* f = std::exchange(anbf_fence_, nullptr);
  down_.send(*f);
}

} // namespace tlmgpu
