#include "models/l1/l1_module.hpp"

#include "tlmgpu/sim/line_payloads.hpp"
#include "tlmgpu/sim/lt_fill.hpp"

#include <stdexcept>

using namespace sc_core;

namespace tlmgpu {

L1Module::L1Module(sc_module_name n, SimContext& ctx, const L1Spec& spec, uint16_t sm,
                   double clock_mhz, StatGroup& parent)
    : sc_module(n), port("port", spec.input_queue, target_hooks()),
      down(
          "down", 4, [this](Payload& t) { on_down_response(t); }, [this] { drain_down(); }),
      ctx_(ctx), spec_(spec), sm_(sm), clk_(clock_mhz), stats_(parent, basename()),
      core_(spec, stats_), mshr_(spec.mshr_entries, spec.mshr_max_merge),
      miss_queue_(std::max<size_t>(1, spec.input_queue)),
      requests_(stats_.counter("requests", "requests", "requests from the LD/ST unit")),
      stall_mshr_(
          stats_.counter("stall_mshr", "cycles",
                         "head request stalled: MSHR full or max merges (lt: a miss waiting "
                         "for a free entry; lt does not limit merges)")),
      stall_miss_queue_(stats_.counter("stall_miss_queue", "cycles",
                                       "head request stalled: miss queue to the crossbar full")),
      forwarded_(stats_.counter("forwarded", "requests", "stores and atomics sent on to L2")),
      latency_(stats_.average("latency", "cycles",
                              "LT: request to response, end to end; not sampled in AT (time is in "
                              "the SM's stall counters)")) {
  // LT: the SM calls in issue order, but a kernel-end flush comes at the
  // kernel's time, behind what the SM booked running ahead; booking intervals
  // gives the same starts as busy-until for calls in time order.
  pipe_.set_booking(ctx.mode == TimingMode::LT ? Booking::TimeOrder : Booking::CallOrder);
  pipe_.set_private(); // this SM's alone (WaitTally)
  port.publish(stats_);
  down.publish(stats_);
  if (spec.protocol() == AtomicProtocol::Hlrc) hlrc_init();
  if (!spec.rsp.empty() && spec.rsp != "none") rsp_init(); // empty: a hand-built spec
  if (spec.protocol() == AtomicProtocol::Phi)
    phi_parked_ = &stats_.counter("phi_parked", "packets",
                                  "AT: packets held back until a partial-update red of their "
                                  "line was answered by L2 (fills, forwards, write-backs, reds)");
  counters_ = stats_.counters(); // after every counter above, the core's included
  // Not in counters_: it is no count of a failed retry.
  stall_net_wakeups_ = &stats_.counter("stall_net_wakeups", "retries",
                                       "AT: a stalled head that only the safety-net timer got "
                                       "going (a missing wake-up; 0 expected)");
  SC_HAS_PROCESS(L1Module);
  SC_METHOD(stall_net_fire);
  sensitive << stall_net_;
  dont_initialize();
}

TargetPort::Hooks L1Module::target_hooks() {
  TargetPort::Hooks h;
  h.b_transport = [this](Payload& t, sc_time& d) { b_transport(t, d); };
  h.debug = [this](Payload& t) { return down.debug(t); };
  h.on_request = [this] { kick(); };
  return h;
}

// ---------------------------------------------------------------- LT mode --

Cycle L1Module::lt_write_back(const Writeback& wb, Cycle at) {
  if (wb.owned) // an owned victim: its release goes to the home, not as a store
    return hlrc_release(wb, at, HlrcRelease::Eviction);
  GpuPayload* p = make_write_back_payload(ctx_.pool, wb, spec_.line_bytes, spec_.sector_bytes, sm_);
  sc_time d = ctx_.timed() ? clk_.until(at) : SC_ZERO_TIME;
  const sc_time base = sc_time_stamp();
  down.b_transport(*p, d);
  p->release();
  return ctx_.timed() ? clk_.at_or_after(base + d) : at;
}

Cycle L1Module::lt_fetch(Addr line, uint32_t sectors, uint16_t sm, Cycle start) {
  return lt_fill_line(ctx_, clk_, down, core_, mshr_, line, sectors, spec_.line_bytes, sm, start,
                      [this](const Writeback& wb, Cycle at) { lt_write_back(wb, at); });
}

// LT's MSHR capacity: a miss that finds every entry holding a fill still in
// flight waits until the first of them is back, as AT's head request stalls
// (stall_mshr). An L1's calls come in its SM's time order, so the entries
// live at `at` are the fills in flight then. A miss to a line already being
// fetched (other sectors) rides on its entry and takes none.
Cycle L1Module::lt_mshr_slot(Addr line, Cycle at) {
  if (mshr_.pending(line)) return at;
  while (mshr_.size() >= mshr_.capacity()) {
    const std::optional<Cycle> next = mshr_.earliest_ready();
    if (!next) break; // no entry has a ready cycle: nothing frees
    if (*next > at) {
      // stall_mshr counts cycles the L1 was blocked, as AT's head stall does:
      // the union of the waits, not their sum over the requests that overlap.
      const Cycle from = std::max(at, lt_mshr_blocked_until_);
      if (*next > from) stall_mshr_ += *next - from;
      lt_mshr_blocked_until_ = std::max(lt_mshr_blocked_until_, *next);
      at = *next;
    }
    mshr_.drop_expired(at);
  }
  return at;
}

// Every access pays the L1 latency once: on a hit from the lookup, on a miss
// or a forwarded store/atomic after the answer comes back.
void L1Module::b_transport(Payload& t, sc_time& delay) {
  GpuAccess& a = access_of(t);
  const Addr line = t.get_address();
  const bool timed = ctx_.timed();
  ++requests_;
  const Cycle arrival = timed ? clk_.at_or_after(sc_time_stamp() + delay) : 0;
  if (rsp_) srsp_shortcut(a, line);  // srsp_opt: a remote step may run at cta scope
  if (a.kind == AccessKind::Fence) { // an ordering point (l1_fence_module.cpp)
    const Cycle done = lt_fence(a, arrival);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    if (timed) delay = clk_.cycles(std::max(done, arrival)) - sc_time_stamp();
    return;
  }
  if (timed) pipe_.retire(clk_.now()); // nothing arrives before the kernel's time any more
  const Cycle start = timed ? pipe_.acquire(arrival, 1) : 0;
  // The MSHR table belongs to the AT path in AT mode: the blocking path (used
  // there for flushes and LAB packets) must not touch its entries.
  if (ctx_.mode == TimingMode::LT) mshr_.drop_expired(start);
  Cycle ready = start;
  if (auto r = mshr_.ready_of(line); r && *r > start) ready = *r; // rides on a fill in flight
  auto forward = [&] {
    sc_time d = timed ? clk_.until(ready) : SC_ZERO_TIME;
    const sc_time base = sc_time_stamp();
    down.b_transport(t, d);
    ready = timed ? clk_.at_or_after(base + d) : ready;
  };
  bool sent = false; // a write-through store already sent with its fetch
  // hLRC in LT: the episode a request belongs to follows its arrival, not
  // its start, which AT's head-of-line stall may push past the grant (the
  // request still waited in the L1 for that grant, as in AT); a start past a
  // contended grant finds the line handed on (lt_hlrc_budget).
  if (hlrc_ && a.is_rmw() && ctx_.mode == TimingMode::LT) {
    if (const Cycle until = lt_hlrc_budget(line, arrival, start); until > start + 1)
      pipe_.occupy(start + 1, until); // AT's head-of-line stall
  }
  for (bool replay = false;; replay = true) {
    Step s = serve(t, replay, ready);
    ready = std::max(ready, s.not_before);
    if (s.writeback) lt_write_back(*s.writeback, ready);
    for (const Writeback& wb : s.overflow)
      lt_write_back(wb, ready);          // off the critical path
    if (s.phi_partials) phi_send(ready); // off the critical path
    if (s.kind == Step::Kind::Fetch && !replay) {
      if (ctx_.mode == TimingMode::LT) ready = lt_mshr_slot(line, ready);
      // A write-through store is offered with the fetch, not after it:
      // offered a round trip ahead of everyone else, it would book the
      // crossbar's links (BusyUntil books in offer order) and stall all SMs
      // behind it. L2 then has the store first and the fill carries it. The
      // store still completes as if it had left after the fill, as in AT.
      const Cycle issue = ready;
      Cycle write = 0; // the forward's own round trip
      if (a.kind == AccessKind::Store && !core_.write_back()) {
        ++forwarded_;
        forward();
        sent = true;
        write = ready - issue;
        ready = issue;
      }
      ready = lt_fetch(line, s.fetch_sectors, a.src_sm, ready) + write;
      continue; // served again: the fill is in the array now
    }
    if (s.kind == Step::Kind::Own) ready = lt_hlrc_own(t, arrival, ready);
    if (s.kind == Step::Kind::Done && hlrc_ && a.is_rmw() && ctx_.mode == TimingMode::LT)
      lt_hlrc_local(line, arrival);
    if (s.kind == Step::Kind::Remote) {
      ++forwarded_;
      ready = lt_remote(a, line, ready, [&](Cycle& at) {
        ready = at;
        forward();
        at = ready;
      });
    }
    if (s.kind == Step::Kind::Forward && !sent) {
      ++forwarded_;
      forward();
    }
    if (s.kind == Step::Kind::Bypass || s.kind == Step::Kind::Fetch) forward();
    if (replay && a.kind == AccessKind::Load) a.serviced_by = GpuAccess::Level::L2;
    break;
  }
  // Update-only victims of a fill or lazy store, offered when the request
  // came in (a later offer would book the links out of order, as above).
  if (core_.phi()) phi_send(start);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  if (timed) {
    const Cycle done = ready + spec_.latency;
    latency_.sample(double(done - arrival));
    delay = clk_.cycles(done) - sc_time_stamp();
  }
}

Cycle L1Module::flush_and_invalidate(Cycle from) {
  const Cycle at = std::max(from, ctx_.timed() ? clk_.now() : 0);
  Cycle released = at;
  if (hlrc_)
    for (const Writeback& wb : core_.give_up_all())
      released = std::max(released, hlrc_release(wb, at, HlrcRelease::Flush));
  if (core_.phi()) {
    if (ctx_.at() && !phi_settled())
      throw std::logic_error(std::string(name()) +
                             ": flush_and_invalidate with PHI packets in flight (wait for "
                             "phi_settled(), or use release_async)");
    core_.phi_flush();
    released = std::max(released, phi_send(at, true));
  }
  for (const Writeback& wb : core_.flush())
    lt_write_back(wb, clk_.now());
  core_.invalidate_all();
  if (rsp_) rsp_->predictor.clear(); // srsp_opt: a kernel boundary (seed-002 §2.6)
  return released;
}

bool L1Module::idle() const {
  return in_flight_ == 0 && to_down_.empty() && !port.has_request();
}

// ---------------------------------------------------------------- AT mode --

void L1Module::finish(Payload& t, Cycle extra) {
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  port.respond(t, clk_.cycles(spec_.latency + extra));
}

// Returns false when the request must stay at the head of the queue (stall).
bool L1Module::attempt(Payload& t, bool replay) {
  GpuAccess& a = access_of(t);
  if (rsp_ && !replay) srsp_shortcut(a, t.get_address());               // l1_srsp_opt_module.cpp
  if (rsp_ && !replay && rsp_blocked(a, t.get_address())) return false; // l1_rsp_module.cpp
  if (a.kind == AccessKind::Fence) return fence_attempt(t);             // l1_fence_module.cpp
  const Addr line = t.get_address();
  // A replayed waiter was already accepted; only new requests see the limit.
  if (!replay && to_down_.size() >= miss_queue_) return ++stall_miss_queue_, false;
  // Anything touching a line with a fill in flight waits behind it, so a store
  // forwarded now cannot be overtaken by the (older) fill data.
  if (mshr_.pending(line)) {
    MshrOutcome m = mshr_.add(line, &t);
    if (m == MshrOutcome::MergeFull) return ++stall_mshr_, false;
    return true;
  }
  const Step s = serve(t, replay || &t == counted_head_, clk_.now());
  // A remote atomic takes the blocking path (at_remote): its write-backs
  // too, or the atomic would overtake them.
  const bool blocking = s.kind == Step::Kind::Remote;
  if (s.writeback && blocking) lt_write_back(*s.writeback, clk_.now());
  if (s.writeback && !blocking) write_back(*s.writeback); // before the request and PHI's partials
  for (const Writeback& wb : s.overflow)
    blocking ? void(lt_write_back(wb, clk_.now())) : write_back(wb);
  if (s.phi_partials) phi_send(clk_.now());
  switch (s.kind) {
  case Step::Kind::Done:
    finish(t, 0);
    return true;
  case Step::Kind::Own:
    return hlrc_own(t);
  case Step::Kind::Remote:
    ++forwarded_;
    return at_remote(t);
  case Step::Kind::Forward:
    ++forwarded_;
    [[fallthrough]];
  case Step::Kind::Bypass:
    send_down(t);
    return true;
  case Step::Kind::Fetch:
    break;
  }
  // Miss: fetch the missing sectors; the request waits in the MSHR.
  if (mshr_.add(line, &t) == MshrOutcome::NoEntry) {
    counted_head_ = &t;
    return ++stall_mshr_, false;
  }
  a.serviced_by = GpuAccess::Level::L2;
  send_down(*make_fill_payload(ctx_.pool, line, s.fetch_sectors, spec_.line_bytes, sm_));
  return true;
}

void L1Module::write_back(const Writeback& wb) {
  if (wb.owned) { // an owned victim: its release goes to the home, not as a store
    hlrc_release(wb, clk_.now(), HlrcRelease::Eviction);
    return;
  }
  if (mshr_.pending(wb.line)) overlay_.note(wb);
  GpuPayload* p = make_write_back_payload(ctx_.pool, wb, spec_.line_bytes, spec_.sector_bytes, sm_);
  if (core_.phi()) return send_tracked(*p, false); // fences and the kernel end wait for it
  send_down(*p);
}

void L1Module::send_down(Payload& p) {
  ++in_flight_;
  if (rsp_ && rsp_->line_lock) rsp_sent(p.get_address()); // sRSP's line lock waits for it
  if (core_.phi() && !phi_tracker_.admit(&p, p.get_address())) return ++*phi_parked_, void();
  to_down_.push_back(&p);
  drain_down();
}

void L1Module::drain_down() {
  while (!to_down_.empty() && down.can_send()) {
    down.send(*to_down_.front());
    to_down_.pop_front();
  }
  if (port.has_request()) wake(); // the miss queue may have room now
}

void L1Module::on_down_response(Payload& r) {
  // Everything below runs in the crossbar's first delta of an edge (wake()).
  const Waker outer = std::exchange(waker_, Waker::ThisEdge);
  struct Restore {
    Waker& w;
    Waker v;
    ~Restore() { w = v; }
  } restore{waker_, outer};
  --in_flight_;
  if (core_.scoped() && in_flight_ == 0) wake(); // a scoped fence waits for this (fence_attempt)
  if (rsp_ && rsp_->line_lock) rsp_landed(r.get_address());
  if (rsp_ && in_flight_ == 0) rsp_->fabric->quiet_changed(); // a remote atomic waits for all
  if (phi_landed(r)) return;
  GpuAccess& a = access_of(r);
  if (a.kind == AccessKind::Eviction) {
    r.release();
    return;
  }
  // hLRC: the answer to an atomic is an ownership grant.
  if (hlrc_ && a.is_rmw()) return hlrc_on_grant(r);
  if (a.kind != AccessKind::Fill) { // a forwarded request of the SM's
    finish(r, 0);
    return;
  }
  auto& fill = static_cast<GpuPayload&>(r);
  const Addr line = fill.get_address();
  overlay_.apply(line, fill.data());
  if (auto wb = core_.fill(line, a.sector_mask, fill.data())) write_back(*wb);
  if (core_.phi()) phi_send(clk_.now()); // an update-only victim of the fill
  fill.release();
  // Replay waiters in arrival order; each is handled as if it just arrived
  // (a load wanting other sectors starts a new fetch and re-queues the rest).
  std::vector<Payload*> waiters = mshr_.release(line);
  for (size_t i = 0; i < waiters.size(); ++i) {
    if (mshr_.pending(line)) { // an earlier waiter started a new fetch: keep order
      for (; i < waiters.size(); ++i)
        mshr_.add(line, waiters[i]);
      break;
    }
    if (!attempt(*waiters[i], true))
      throw std::logic_error(std::string(name()) + ": L1 replay refused");
  }
  wake(); // an MSHR entry (and its merge slots) freed
}

} // namespace tlmgpu
