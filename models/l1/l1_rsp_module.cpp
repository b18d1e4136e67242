// Remote scope promotion in the scoped L1, bRSP (l1.rsp = brsp; seed-002
// §1.7, Orr et al.; models/l1/README.md "Remote scope promotion"). A
// work-group that synchronises at CTA scope keeps its data in its own L1
// (dirty, in the sFIFO) and its view of memory there (never invalidated); a
// remote atomic of another SM must reach both, and bRSP does not know which
// L1 it is, so it reaches every one:
//
//   rem_acq, rem_ar ─► Flush ─► every other L1: drain the sFIFO, ack when its
//                               write-backs landed (P4); the requester drains
//                               its own too
//   all three       ─► the atomic at L2
//                   ─► Invalidate ─► every other L1: flash invalidation (dirty
//                                    bytes, their own writes, stay)
//   The SM's own fences around the atomic (release half before rem_rel and
//   rem_ar, acquire half after rem_acq and rem_ar) drain and invalidate the
//   requester's L1 as for any device-scope atomic.
//
// The lock: bRSP locks every L1 during the operation, and the models/scoped
// README shows bRSP's remote release is unsafe unless L also stays locked
// at L2 until the last invalidation ack (an owner that refetches L could
// enter with stale data before its invalidation arrives). The operation
// itself is one uninterrupted call chain on the blocking path: no other
// request reaches any L1 or L2, L included, between the first flush and the
// last ack, which is both locks' guarantee. In functional and lt that is
// all it takes. In AT requests interleave, so the operation first takes
// RspFabric's lock of every L1 at its queue head (other L1s' heads then
// wait) and waits until no L1 has anything in flight: no fill can land
// after its invalidation, no queued write-back can be overtaken by its
// flush (P3, P4), and the blocking path meets no AT state in flight.
// sRSP takes the same path with the fabric's Line scope: the lock of its
// line only (README "The lock in AT").
#include "models/l1/l1_module.hpp"
#include "tlmgpu/invariant.hpp"

#include <utility>

namespace tlmgpu {

void L1Module::rsp_init() {
  Rsp r;
  r.fabric = &ctx_.shared<RspFabric>("rsp", [] { return std::make_unique<RspFabric>(); });
  r.skip_flush = spec_.inject_fault == "skip_remote_flush";
  r.skip_invalidate = spec_.inject_fault == "skip_remote_invalidate";
  r.blind_shortcut = spec_.inject_fault == "blind_shortcut";
  r.ops = &stats_.counter("rsp_remote_ops", "instructions",
                          "remote atomics this L1 performed (line requests)");
  r.flush_msgs = &stats_.counter("rsp_flush_msgs", "messages",
                                 "Flush messages sent to other L1s (remote acquires)");
  r.inv_msgs = &stats_.counter("rsp_inv_msgs", "messages",
                               "Invalidate messages sent to other L1s (remote releases)");
  r.flush_acks = &stats_.counter("rsp_flush_acks", "messages",
                                 "Flush messages this L1 answered (sFIFO drained)");
  r.inv_acks = &stats_.counter("rsp_inv_acks", "messages",
                               "Invalidate messages this L1 answered (flash invalidation)");
  r.lines_flushed = &stats_.counter("rsp_lines_flushed", "lines",
                                    "dirty lines written back for another L1's remote acquire");
  r.cycles = &stats_.counter("rsp_cycles", "cycles",
                             "cycles remote atomics spent, flushes and invalidations included");
  r.stall_lock = &stats_.counter("rsp_stall_lock", "cycles",
                                 "AT: head request stalled by bRSP's lock of every L1 (another "
                                 "L1's remote atomic, or its own waiting for every L1 to be "
                                 "quiet); 0 with srsp, which locks a line only");
  r.under_lock = &stats_.counter(
      "rsp_served_under_lock", "requests",
      "AT: requests other than remote atomics this L1 took from its queue while another L1 "
      "held a remote operation's lock (brsp: 0, every L1 waits; srsp: other lines go on)");
  r.l1s_flushed = &stats_.average("rsp_l1s_flushed", "L1s",
                                  "other L1s a remote acquire made write back (brsp: every "
                                  "one; srsp: those holding a marker), per remote acquire");
  r.l1s_invalidated = &stats_.average("rsp_l1s_invalidated", "L1s",
                                      "other L1s a remote operation flash-invalidated at once "
                                      "(brsp: every one; srsp: PA-TBL overflows only), per op");
  r.srsp = spec_.selective_rsp();
  r.opt = spec_.rsp == "srsp_opt";
  if (r.srsp) {
    r.promoted = &stats_.counter("srsp_promoted_acquires", "instructions",
                                 "cta-scope acquires the PA-TBL promoted: performed at L2, then "
                                 "this L1 flash-invalidated (a remote release's deferred work)");
    r.flush_hits = &stats_.counter("rsp_flush_hits", "messages",
                                   "SelFlush messages this L1 acked positively: its LR-TBL held "
                                   "the line's marker and it drained its sFIFO to it");
  }
  if (r.opt) srsp_opt_stats(r);
  if (r.srsp) {
    r.stall_line = &stats_.counter(
        "rsp_stall_line", "cycles",
        "AT: head request stalled on sRSP's line lock: its line is locked by another L1's "
        "remote operation (parked), or it is this L1's own remote operation or promoted "
        "acquire waiting for the lock and for its line to be quiet");
    r.stall_flush = &stats_.counter(
        "rsp_stall_flush", "cycles",
        "AT: head request held because a waiting remote acquire will SelFlush this L1 (its "
        "LR-TBL holds the line's marker): its write-backs in flight land first (P4)");
    r.parked_reqs = &stats_.counter(
        "rsp_lock_parked", "requests",
        "AT: requests that found their line locked by another L1's remote operation or "
        "promoted acquire and waited (each counted once)");
  }
  r.line_lock = r.srsp && ctx_.at();
  r.fabric->set_scope(r.srsp ? RspFabric::Scope::Line : RspFabric::Scope::EveryL1);
  r.fabric->attach(
      sm_, [this](const RspMessage& m) { return rsp_respond(m); },
      [this] { return in_flight_ == 0; }, [this] { wake(); },
      [this](Addr line) { return core_.srsp_marks(line); },
      [this](Addr line) { return rsp_->busy.count(line) != 0; });
  rsp_ = r;
}

Cycle L1Module::lt_remote(const GpuAccess& a, Addr line, Cycle ready,
                          const std::function<void(Cycle&)>& perform) {
  Rsp& r = *rsp_;
  if (r.srsp) return srsp_remote(a, line, ready, perform);
  ++*r.ops;
  const Cycle start = ready;
  RspMessage m;
  m.from_sm = sm_;
  m.sync_line = line;
  // Before the atomic reads L: what an owner released at CTA scope before
  // its write of L is in its L1 only.
  if (acquires(a.order) && !r.skip_flush) {
    const RspFabric::Result res = rsp_send(m, RspMessage::Kind::Flush, ready);
    r.l1s_flushed->sample(double(res.messages));
    Cycle own = ready; // and this L1's own sFIFO, beside them
    for (const Writeback& wb : core_.scoped_release())
      own = std::max(own, lt_write_back(wb, ready));
    ready = std::max(res.acked, own);
  }
  perform(ready);
  // After the atomic: an owner that acquires L at CTA scope must not find
  // copies older than what a remote release published; after a remote
  // acquire, bRSP invalidates every L1 too (Orr et al.).
  if (!r.skip_invalidate) {
    const RspFabric::Result res = rsp_send(m, RspMessage::Kind::Invalidate, ready);
    r.l1s_invalidated->sample(double(res.messages));
    ready = res.acked;
  }
  if (ctx_.timed()) *r.cycles += ready - start;
  return ready;
}

RspFabric::Result L1Module::rsp_send(RspMessage m, RspMessage::Kind kind, Cycle at) {
  Rsp& r = *rsp_;
  m.kind = kind;
  m.at = at;
  const bool flush = kind == RspMessage::Kind::Flush || kind == RspMessage::Kind::SelFlush;
  const RspFabric::Result res = r.fabric->broadcast(m);
  *(flush ? r.flush_msgs : r.inv_msgs) += res.messages;
  return res;
}

// The ack leaves after one L1 access and, for a flush, once every write-back
// it sent reached L2 (P4: acking earlier would let the requester read L2
// before the owner's data is there). The messages' own hops are not timed.
Cycle L1Module::rsp_respond(const RspMessage& m) {
  Rsp& r = *rsp_;
  if (r.srsp) return srsp_respond(m);
  const Cycle at = m.at + (ctx_.timed() ? spec_.latency : 0);
  Cycle acked = at;
  if (m.kind == RspMessage::Kind::Flush) {
    ++*r.flush_acks;
    for (const Writeback& wb : core_.scoped_release()) {
      acked = std::max(acked, lt_write_back(wb, at));
      ++*r.lines_flushed;
    }
  } else {
    ++*r.inv_acks;
    core_.scoped_acquire();
  }
  return acked;
}

// AT, at the queue head. Replays (MSHR waiters of a fill) are never held:
// they were accepted before. One path for both protocols; the fabric's lock
// scope decides what a lock covers and what its holder waits for.
bool L1Module::rsp_blocked(const GpuAccess& a, Addr line) {
  if (!ctx_.at()) return false;
  Rsp& r = *rsp_;
  RspFabric& f = *r.fabric;
  const bool promoted = srsp_promoted(a, line);
  const bool op = (a.remote && a.is_rmw()) || promoted;
  // A SelInv (or a flash invalidation) while the head waits can make it a
  // promoted acquire or stop it being one: its place in the queue stays.
  if (r.parked == &a && op) {
    r.parked = nullptr;
    r.asked = true;
  } else if (r.asked && !op) {
    r.asked = false;
    r.parked = &a;
  }
  if (!op) {
    // A parked request takes its turn in the line's queue (FIFO with the
    // remote operations, so a stream of thieves cannot starve the owner)
    // and lets go once taken (rsp_accepted).
    if (r.parked == &a) return f.holds(sm_, line) ? false : (++*r.stall_line, true);
    // A fence is no access to a line: only bRSP's lock of every L1 holds it.
    const bool to_line = a.kind != AccessKind::Fence || !r.line_lock;
    if (to_line && f.locked_by_other(sm_, line)) {
      if (!r.line_lock) return ++*r.stall_lock, true;
      r.parked = &a;
      ++*r.parked_reqs;
      f.ask(sm_, line, false); // woken when it is handed over
      return ++*r.stall_line, true;
    }
    // A remote acquire holding its lock will drain this L1 up to its
    // marker: what this L1 already sent must land first, so it sends
    // nothing new meanwhile.
    if (r.line_lock && f.flush_pending(sm_, [this](Addr l) { return core_.srsp_marks(l); }))
      return ++*r.stall_flush, true;
    return false;
  }
  // sRSP: this L1's previous operation on the line holds it until its last
  // ack; the next one queues behind whoever asked meanwhile (woken at unlock).
  if (r.line_lock && !r.asked && r.held.count(line) != 0) return ++*r.stall_line, true;
  if (!std::exchange(r.asked, true)) // woken when it is handed over
    f.ask(sm_, line, a.remote && acquires(a.order) && !r.skip_flush);
  // A promoted acquire flash-invalidates this L1: no fill of its own may
  // still be on its way (as for a scoped fence, l1_fence_module.cpp).
  if (f.holds(sm_, line) && f.ready(sm_, line) && (!promoted || in_flight_ == 0)) return false;
  ++*(r.line_lock ? r.stall_line : r.stall_lock);
  return true;
}

// AT: the lock is held and what it waits for is quiet. The whole operation
// runs now on the blocking path; the SM gets the answer when its last ack
// is in. bRSP lets go of every L1 at once: what the operation did is
// already in every L1 and at L2. sRSP keeps L locked until the last ack,
// so other requests to L wait for the operation's duration (seed-002 §2.5).
bool L1Module::at_remote(Payload& t) {
  const Cycle now = clk_.now();
  const Addr line = t.get_address();
  const Cycle done = lt_remote(access_of(t), line, now, [&](Cycle& at) {
    sc_core::sc_time d = clk_.until(at);
    const sc_core::sc_time base = sc_core::sc_time_stamp();
    down.b_transport(t, d);
    at = clk_.at_or_after(base + d);
  });
  Rsp& r = *rsp_;
  r.asked = false;
  r.fabric->ran(sm_);
  if (r.line_lock)
    rsp_unlock_at(line, done);
  else
    r.fabric->unlock(sm_, line);
  finish(t, done - now);
  return true;
}

void L1Module::rsp_accepted(const GpuAccess& a, Addr line) {
  Rsp& r = *rsp_;
  if (!ctx_.at()) return;
  if (r.parked == &a) { // its turn came: let the line go to the next in line
    r.parked = nullptr;
    r.fabric->ran(sm_);
    r.fabric->unlock(sm_, line);
    return;
  }
  if (!(a.remote && a.is_rmw()) && r.fabric->held_by_other(sm_)) ++*r.under_lock;
}

void L1Module::rsp_sent(Addr line) {
  ++rsp_->busy[line];
}

void L1Module::rsp_landed(Addr line) {
  Rsp& r = *rsp_;
  const auto it = r.busy.find(line);
  TLMGPU_CHECK(it != r.busy.end() && "an answer to a request the L1 did not count");
  if (--it->second != 0) return;
  r.busy.erase(it);
  r.fabric->quiet_changed(line); // a remote operation on it may run
}

// The line stays locked until the last ack; a later operation of this L1
// on the line waits for that (rsp_blocked) and queues as anyone.
void L1Module::rsp_unlock_at(Addr line, Cycle at) {
  ++rsp_->held[line];
  timer_.schedule(clk_.until(at), [this, line] {
    Rsp& r = *rsp_;
    if (--r.held[line] != 0) return;
    r.held.erase(line);
    r.fabric->unlock(sm_, line);
  });
}

} // namespace tlmgpu
