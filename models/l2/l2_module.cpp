#include "models/l2/l2_module.hpp"
#include "models/hlrc/hlrc_fabric_module.hpp"
#include "tlmgpu/invariant.hpp"

#include "tlmgpu/sim/line_payloads.hpp"
#include "tlmgpu/sim/lt_fill.hpp"

#include <bit>

using namespace sc_core;

namespace tlmgpu {

// In LT the table only remembers each line's ready cycle, and its entries
// are counted in call order, not at a time: lt_mshr_ holds the capacity.
// Capped there, a fill refused an entry would lose its ready cycle and later
// accesses to its line would not wait for the data.
static size_t lt_table_entries(const SimContext& ctx, const L2Spec& spec) {
  return ctx.mode == TimingMode::LT ? std::max<size_t>(spec.mshr_entries, 1 << 16)
                                    : spec.mshr_entries;
}

L2Module::L2Module(sc_module_name n, SimContext& ctx, const L2Spec& spec, uint32_t slice,
                   StatGroup& parent)
    : sc_module(n), port("port", spec.input_queue, target_hooks()),
      mem(
          "mem", 4, [this](Payload& t) { on_mem_response(t); }, [this] { drain_to_mem(); }),
      ctx_(ctx), spec_(spec), slice_(slice), clk_(spec.clock_mhz), stats_(parent, basename()),
      core_(spec, stats_), mshr_(lt_table_entries(ctx, spec), spec.mshr_max_merge),
      lt_mshr_(spec.mshr_entries),
      requests_(stats_.counter("requests", "requests", "requests accepted from the crossbar")),
      stall_mshr_full_(
          stats_.counter("stall_mshr_full", "cycles", "request stalled: no free MSHR")),
      stall_merge_full_(stats_.counter("stall_merge_full", "cycles",
                                       "request stalled: MSHR entry has max merges")),
      mshr_merges_(stats_.counter("mshr_merges", "requests", "misses merged into a pending MSHR")),
      wb_sent_(stats_.counter("dram_writes_sent", "requests", "write-backs sent to DRAM")),
      latency_(stats_.average("latency", "cycles",
                              "L2 cycles; LT: arrival to response incl. misses; AT: hits only "
                              "(pipeline + atomic unit)")) {
  core_.set_timed(ctx.timed());
  if (spec.set_index == "partition" && ctx.net.slices > 1)
    core_.index_sets_by_partition(ctx.net.interleave_bytes, ctx.net.slices);
  // LT: SMs call in an order unrelated to time (temporal decoupling), so the
  // pipeline books intervals; AT keeps busy-until order (its blocking calls
  // are flushes and LAB packets; its atomic unit is an in-order queue).
  const Booking booking = ctx.mode == TimingMode::LT ? Booking::TimeOrder : Booking::CallOrder;
  pipe_.set_booking(booking);
  core_.set_booking(booking); // the atomic unit, likewise
  if (ctx.net.coherence == AtomicProtocol::Hlrc) hlrc_init();
  port.publish(stats_);
  mem.publish(stats_);
}

TargetPort::Hooks L2Module::target_hooks() {
  TargetPort::Hooks h;
  h.b_transport = [this](Payload& t, sc_time& d) { b_transport(t, d); };
  h.debug = [this](Payload& t) { return debug(t); };
  h.on_request = [this] { kick(); };
  return h;
}

// ---------------------------------------------------------------- LT mode --

void L2Module::lt_write_back(const Writeback& wb, Cycle at) {
  // A blocking packet in AT (LAB/PHI flush) can evict a dirty line whose AT
  // fill is still in flight: that fill read DRAM before these bytes, so they
  // must be laid over it on arrival, as write_back() does.
  if (ctx_.at() && mshr_.pending(wb.line)) overlay_.note(wb);
  // In AT, an older write-back of the line may still be on its way to DRAM;
  // applied now, this one would be overwritten by it on arrival. It queues
  // behind it instead (while simulating: after the end nothing runs the
  // queue, and nothing is in flight any more).
  if (ctx_.at() && sc_get_status() == SC_RUNNING && in_flight_.holds(wb.line))
    return write_back(wb);
  GpuPayload* p = make_write_back_payload(ctx_.pool, wb, spec_.line_bytes, spec_.sector_bytes, 0);
  sc_time d = ctx_.timed() ? clk_.until(at) : SC_ZERO_TIME;
  mem.b_transport(*p, d); // occupies the channel; nobody waits for it
  ++wb_sent_;
  p->release();
}

// Fetches missing sectors from DRAM now (functionally) and returns the cycle
// the data is back. Later accesses to the line during the fetch see the MSHR's
// ready cycle and wait for it: LT's stand-in for MSHR merging.
Cycle L2Module::lt_fill(Addr line, uint32_t sectors, Cycle start) {
  return lt_fill_line(
      ctx_, clk_, mem, core_, mshr_, line, sectors, spec_.line_bytes, 0, start,
      [this](const Writeback& wb, Cycle at) { lt_write_back(wb, at); },
      ctx_.at() ? &in_flight_ : nullptr);
}

// LT's MSHR capacity: a miss arriving at `at` while every entry holds a fill
// in flight waits until one comes back, and its own fill starts then (AT's
// head request stalls for it). A slice is called by every SM out of time
// order, so the entries are booked over time (CapacityBooking), not counted
// at the call.
Cycle L2Module::lt_mshr_slot(Cycle at) {
  const Cycle free = lt_mshr_.earliest(at);
  stall_mshr_full_ += lt_mshr_waits_.add(at, free);
  return free;
}

void L2Module::b_transport(Payload& t, sc_time& delay) {
  GpuAccess& a = access_of(t);
  const Addr line = t.get_address();
  ++requests_;
  const bool timed = ctx_.timed();
  const Cycle arrival = timed ? clk_.at_or_after(sc_time_stamp() + delay) : 0;
  if (timed) { // nothing arrives before the kernel's time any more
    pipe_.retire(clk_.now());
    core_.retire(clk_.now());
    lt_mshr_.retire(clk_.now());
    lt_mshr_waits_.retire(clk_.now());
  }
  const Cycle start = timed ? pipe_.acquire(arrival, 1) : 0;
  // The MSHR table belongs to the AT path in AT mode: the blocking path (used
  // there for flushes and LAB packets) must not touch its entries.
  if (ctx_.mode == TimingMode::LT) mshr_.drop_expired(start);
  Cycle data_ready = start;
  if (auto r = mshr_.ready_of(line); r && *r > start && a.kind != AccessKind::Store) {
    data_ready = *r; // the line is still on its way from DRAM
    ++mshr_merges_;
  }
  a.serviced_by = GpuAccess::Level::L2;
  Cycle hold = hlrc_blocking_resolve(a, line, data_ready); // hLRC: owner recalled first
  // LT: waiting for the line's previous owner is waiting at a busy resource
  // (an owner, not a queue: see L1Module::lt_hlrc_local).
  if (ctx_.mode == TimingMode::LT) WaitTally::add(hold, false);
  for (int tries = 0;; ++tries) {
    L2Outcome out = serve(a, line, t, data_ready, hold, tries > 0, data_ready);
    if (out.writeback) lt_write_back(*out.writeback, data_ready);
    if (out.hit) {
      Cycle done = data_ready + hold + spec_.latency + out.extra_cycles;
      if (timed) {
        latency_.sample(double(done - arrival));
        delay = clk_.cycles(done) - sc_time_stamp();
      }
      break;
    }
    TLMGPU_CHECK(tries < 2 && "L2 access still misses after its fill");
    const bool lt = ctx_.mode == TimingMode::LT;
    const Cycle issue = lt ? lt_mshr_slot(data_ready + hold) : data_ready + hold;
    data_ready = lt_fill(line, out.fetch_sectors, issue);
    if (lt) lt_mshr_.book(issue, data_ready);
    hold = 0;
    a.serviced_by = GpuAccess::Level::Dram;
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

L2Outcome L2Module::serve(GpuAccess& a, Addr line, Payload& t, Cycle now, Cycle hold, bool replay,
                          Cycle arrival) {
  // hLRC: the request is performed once the line is back from its previous
  // owner (`hold`), so its atomic unit slots are booked from then on. Booked
  // from `now`, LT's same-cycle requests for one line (every SM's, in call
  // order) queued their atomics behind each other at the arrival cycle and
  // each grant paid for all the earlier ones again on top of its hold.
  const Cycle at = now + hold;
  if (!hlrc_ || !a.is_rmw())
    return core_.access(a, line, t.get_data_ptr(), t.get_byte_enable_ptr(), at, replay);
  L2Outcome out = core_.grant(a, line, t.get_data_ptr(), at, replay);
  if (out.hit) { // the reply carries the line: the requester owns it from its arrival
    const Cycle leave = ctx_.timed() ? at + spec_.latency + out.extra_cycles : 0;
    if (!hlrc_channel_) hlrc_channel_ = &HlrcFabric::of(ctx_).channel();
    registry_.grant(line, a.src_sm, hlrc_channel_->grant_arrival(leave));
    ++*hlrc_grants_;
    hlrc_wait_->sample(double(now + hold - std::min(arrival, now + hold)));
  }
  return out;
}

unsigned L2Module::debug(Payload& t) {
  unsigned n = mem.debug(t);
  if (t.is_write())
    core_.debug_write(t.get_address(), t.get_data_ptr(), t.get_data_length());
  else
    core_.debug_overlay(t.get_address(), t.get_data_ptr(), t.get_data_length());
  return n;
}

// ---------------------------------------------------------------- AT mode --

void L2Module::kick() {
  if (step_pending_ || (!port.has_request() && resume_q_.empty())) return;
  step_pending_ = true;
  timer_.schedule(clk_.until(std::max(clk_.now(), next_step_)), [this] { step(); });
}

// One request enters the slice pipeline per L2 cycle. A request that cannot
// get an MSHR stays at the head of the input queue, so the queue fills and the
// crossbar sees END_REQ withheld: backpressure, not loss.
void L2Module::step() {
  step_pending_ = false;
  // hLRC: requests released by an answered recall go first, in their order.
  const bool resume = !resume_q_.empty();
  if (!resume && !port.has_request()) return;
  const Cycle now = clk_.now();
  next_step_ = now + 1;
  if (resume) {
    const Parked p = resume_q_.front();
    if (attempt(*p.t, p.arrival, true)) resume_q_.pop_front();
  } else if (attempt(port.front(), now, false)) {
    port.pop();
  }
  if (port.has_request() || !resume_q_.empty()) {
    step_pending_ = true;
    timer_.schedule(clk_.until(next_step_), [this] { step(); });
  }
}

// `arrival`: the cycle the request first reached the slice (before a park);
// `resumed`: it was counted then.
bool L2Module::attempt(Payload& t, Cycle arrival, bool resumed) {
  GpuAccess& a = access_of(t);
  const Addr line = t.get_address();
  const Cycle now = clk_.now();
  Cycle hold = 0;
  if (!hlrc_gate(t, line, now, arrival, hold)) { // parked behind a recall
    if (!resumed) ++requests_;
    return true;
  }
  if (mshr_.pending(line) && a.kind != AccessKind::Store) {
    // Keep per-line order behind the outstanding miss.
    MshrOutcome m = mshr_.add(line, &t);
    if (m == MshrOutcome::MergeFull) return ++stall_merge_full_, false;
    ++mshr_merges_;
    if (!resumed) ++requests_;
    return true;
  }
  const AtServed s = at_serve(t, now, hold, false, arrival);
  if (s.answered) {
    if (!resumed) ++requests_;
    a.serviced_by = GpuAccess::Level::L2;
    latency_.sample(double(s.latency));
    return true;
  }
  if (mshr_.add(line, &t) == MshrOutcome::NoEntry) return ++stall_mshr_full_, false;
  if (!resumed) ++requests_;
  a.serviced_by = GpuAccess::Level::Dram;
  send_to_mem(make_fill_payload(ctx_.pool, line, s.fetch_sectors, spec_.line_bytes, 0));
  return true;
}

// What one AT request does at the slice, said once for a request from the
// input queue (attempt) and a waiter replayed by a fill (on_mem_response):
// serve() decides, a victim goes to DRAM, a hit is answered after the hLRC
// hold and the access latency, a miss names the sectors to fetch.
L2Module::AtServed L2Module::at_serve(Payload& t, Cycle now, Cycle hold, bool replay,
                                      Cycle arrival) {
  const L2Outcome out = serve(access_of(t), t.get_address(), t, now, hold, replay, arrival);
  if (out.writeback) write_back(*out.writeback);
  if (!out.hit) return {false, out.fetch_sectors, 0};
  const Cycle latency = hold + spec_.latency + out.extra_cycles;
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  port.respond(t, clk_.cycles(latency));
  return {true, 0, latency};
}

void L2Module::write_back(const Writeback& wb) {
  if (mshr_.pending(wb.line)) overlay_.note(wb);
  in_flight_.sent(wb);
  send_to_mem(make_write_back_payload(ctx_.pool, wb, spec_.line_bytes, spec_.sector_bytes, 0));
}

void L2Module::send_to_mem(GpuPayload* p) {
  if (p->is_write()) ++wb_sent_;
  to_mem_.push_back(p);
  drain_to_mem();
}

void L2Module::drain_to_mem() {
  while (!to_mem_.empty() && mem.can_send()) {
    mem.send(*to_mem_.front());
    to_mem_.pop_front();
  }
}

void L2Module::on_mem_response(Payload& r) {
  auto& p = static_cast<GpuPayload&>(r);
  if (p.is_read()) {
    const Addr line = p.get_address();
    overlay_.apply(line, p.data());
    if (auto wb = core_.fill(line, p.access().sector_mask, p.data())) write_back(*wb);
    // Replay the waiters in arrival order; one that wanted other sectors
    // misses again and starts a new fetch.
    for (Payload* w : mshr_.release(line)) {
      const Cycle now = clk_.now();
      // hLRC: an earlier waiter may just have been granted the line.
      Cycle hold = 0;
      if (!hlrc_gate(*w, line, now, now, hold)) continue; // parked behind a recall
      const AtServed s = at_serve(*w, now, hold, true, now);
      if (s.answered) continue;
      const bool first = !mshr_.pending(line);
      mshr_.add(line, w); // cannot be refused: the entry was just freed
      if (first)
        send_to_mem(make_fill_payload(ctx_.pool, line, s.fetch_sectors, spec_.line_bytes, 0));
    }
  }
  if (p.is_write()) in_flight_.landed(p.get_address());
  p.release();
  kick(); // a freed MSHR may unblock the head of the queue
}

} // namespace tlmgpu
