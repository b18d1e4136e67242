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
// enter with stale data before its invalidation arrives). Here, in
// functional and lt, the whole remote operation is one uninterrupted call
// chain: no other request reaches any L1 or L2, L included, between the
// first flush and the last ack, which is both locks' guarantee by
// construction. AT, where requests interleave, needs them built: rsp_init
// refuses it.
#include "models/l1/l1_module.hpp"

namespace tlmgpu {

namespace {

bool acquires(MemOrder o) {
  return o == MemOrder::Acquire || o == MemOrder::AcqRel || o == MemOrder::SeqCst;
}

} // namespace

void L1Module::rsp_init() {
  if (ctx_.at())
    throw ConfigError("l1.rsp = " + spec_.rsp +
                      " is modelled in functional and lt timing only: in at the synchronisation "
                      "variable's L2 lock would have to be built (models/l1/README.md)");
  Rsp r;
  r.fabric = &ctx_.shared<RspFabric>("rsp", [] { return std::make_unique<RspFabric>(); });
  r.skip_flush = spec_.inject_fault == "skip_remote_flush";
  r.skip_invalidate = spec_.inject_fault == "skip_remote_invalidate";
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
                             "lt: cycles remote atomics spent, flushes and invalidations included");
  r.fabric->attach(sm_, [this](const RspMessage& m) { return rsp_respond(m); });
  rsp_ = r;
}

Cycle L1Module::lt_remote(const GpuAccess& a, Addr line, Cycle ready,
                          const std::function<void(Cycle&)>& perform) {
  Rsp& r = *rsp_;
  ++*r.ops;
  const Cycle start = ready;
  RspMessage m;
  m.from_sm = sm_;
  m.sync_line = line;
  // Before the atomic reads L: what an owner released at CTA scope before
  // its write of L is in its L1 only.
  if (acquires(a.order) && !r.skip_flush) {
    m.kind = RspMessage::Kind::Flush;
    m.at = ready;
    const RspFabric::Result res = r.fabric->broadcast(m);
    *r.flush_msgs += res.messages;
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
    m.kind = RspMessage::Kind::Invalidate;
    m.at = ready;
    const RspFabric::Result res = r.fabric->broadcast(m);
    *r.inv_msgs += res.messages;
    ready = res.acked;
  }
  if (ctx_.timed()) *r.cycles += ready - start;
  return ready;
}

// The ack leaves after one L1 access and, for a flush, once every write-back
// it sent reached L2 (P4: acking earlier would let the requester read L2
// before the owner's data is there). The messages' own hops are not timed.
Cycle L1Module::rsp_respond(const RspMessage& m) {
  Rsp& r = *rsp_;
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

} // namespace tlmgpu
