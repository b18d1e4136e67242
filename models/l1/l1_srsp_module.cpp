// sRSP in the scoped L1 (l1.rsp = srsp; seed-002 §2; models/l1/README.md
// "Remote scope promotion"). The owner's cta-scope releases leave an LR-TBL
// marker in its sFIFO (l1_core_srsp.cpp), so a remote operation need not
// reach every L1:
//
//   cta-scope release of L (atomic, or a store with release order)
//        ─► LR[L] = a new sFIFO entry; the atomic itself is performed at L2
//   rem_acq, rem_ar ─► SelFlush(L) ─► every other L1 (srsp_opt: the
//                      predicted owner first); those whose LR-TBL holds L
//                      drain the sFIFO up to the marker, write back and drop
//                      line L (P1), ack when the write-backs landed (P4);
//                      the others ack at once (a negative ack)
//   all three       ─► the atomic at L2
//   rem_rel, rem_ar ─► SelInv(L) ─► every other L1 and this one: L into the
//                      PA-TBL (full: l1.pa_full), drop line L
//   cta-scope acquire of L with a PA-TBL hit (or lazy overflow) ─► performed
//                      at L2, then this L1 flash-invalidates (the PA-TBL
//                      empties): the remote release's deferred invalidation
//   The SM's own fences around a remote atomic drain (release half) and
//   invalidate (acquire half) the requester's own L1, as for bRSP.
//
// The L2 line lock (P2, P3): in functional and lt the remote operation, and a
// promoted acquire, is one uninterrupted call chain on the blocking path, so
// no request reaches L (or anything) between the first SelFlush and the last
// SelInv ack. In AT both take the lock of L only (RspFabric's Line scope,
// l1_rsp_module.cpp): other requests to L are parked at their queue heads,
// the operation runs once no request to L is in flight anywhere (P3) and
// the marker holders are quiet (P4), and L stays locked until its last ack.
#include "models/l1/l1_module.hpp"
#include "tlmgpu/invariant.hpp"

namespace tlmgpu {

bool L1Module::srsp_promoted(const GpuAccess& a, Addr line) const {
  return rsp_->srsp && !a.remote && a.scope == Scope::Cta && acquires(a.order) &&
         (a.kind == AccessKind::Load || a.is_rmw()) && core_.srsp_promotes(line);
}

void L1Module::srsp_release(const GpuAccess& a, Addr line, Step& s) {
  if (!rsp_->srsp || a.remote || a.scope != Scope::Cta || !releases(a.order)) return;
  if (auto wb = core_.srsp_mark(line)) s.overflow.push_back(std::move(*wb));
}

Cycle L1Module::srsp_remote(const GpuAccess& a, Addr line, Cycle ready,
                            const std::function<void(Cycle&)>& perform) {
  Rsp& r = *rsp_;
  if (!a.remote) { // a cta-scope acquire the PA-TBL promotes (seed-002 §2.3 c, d)
    ++*r.promoted;
    perform(ready);
    core_.scoped_acquire(); // flash invalidation; empties the PA-TBL
    return ready;
  }
  ++*r.ops;
  TLMGPU_CHECK(!r.line_lock || r.busy.count(line) == 0); // P3 at the requester too
  const Cycle start = ready;
  RspMessage m;
  m.from_sm = sm_;
  m.sync_line = line;
  // Before the atomic reads L: the owner's writes before its latest
  // cta-scope release of L are in its sFIFO, ahead of the marker. This L1's
  // own marker needs no flush: its dirty bytes are visible here.
  if (acquires(a.order) && !r.skip_flush) {
    const RspFabric::Result res = srsp_selflush(m, ready);
    r.l1s_flushed->sample(double(res.positives));
    ready = res.acked;
  }
  perform(ready);
  // After the atomic: any L1's next cta-scope acquire of L must not find
  // copies older than what this release published. This L1 too (a
  // same-SM owner), without a message.
  uint32_t heavy = 0;
  if (releases(a.order) && !r.skip_invalidate) {
    const RspFabric::Result res = rsp_send(m, RspMessage::Kind::SelInv, ready);
    heavy = res.heavy;
    Cycle own = ready;
    if (core_.srsp_pa_insert(line) && spec_.pa_full == "eager") ++heavy;
    if (auto wb = core_.atomic(line, ~0u)) own = lt_write_back(*wb, ready);
    ready = std::max(res.acked, own);
  }
  r.l1s_invalidated->sample(double(heavy));
  if (ctx_.timed()) *r.cycles += ready - start;
  return ready;
}

// The ack leaves one L1 access after the message and once the write-backs
// it caused reached L2 (P4). A SelFlush that finds no marker here is acked
// negatively and changes nothing: this L1 holds no release of L, and its
// copy of L cannot decide the atomic, which is performed at L2.
Cycle L1Module::srsp_respond(const RspMessage& m) {
  Rsp& r = *rsp_;
  const bool flush = m.kind == RspMessage::Kind::SelFlush;
  const bool holds = flush && core_.srsp_marks(m.sync_line);
  // AT's line lock (l1_rsp_module.cpp) ran the operation only once these
  // hold: no request of this L1 to L in flight (P3: a fill of L landing
  // after SelInv would install L's old value), and a SelFlush's L1 quiet
  // (P4: the drain must not overtake a write-back it already sent).
  TLMGPU_CHECK(!r.line_lock || r.busy.count(m.sync_line) == 0);
  TLMGPU_CHECK(!r.line_lock || !holds || in_flight_ == 0);
  const Cycle at = m.at + (ctx_.timed() ? spec_.latency : 0);
  Cycle acked = at;
  if (flush) {
    ++*r.flush_acks;
    if (!holds) return at;
    ++*r.flush_hits;
    for (const Writeback& wb : core_.srsp_drain_to_marker(m.sync_line)) {
      acked = std::max(acked, lt_write_back(wb, at));
      ++*r.lines_flushed;
    }
  } else {
    ++*r.inv_acks;
    if (core_.srsp_pa_insert(m.sync_line) && spec_.pa_full == "eager") r.fabric->note_heavy();
  }
  // Line L itself: its dirty bytes first (P1), then no copy of it is left.
  if (auto wb = core_.atomic(m.sync_line, ~0u)) acked = std::max(acked, lt_write_back(*wb, at));
  return acked;
}

} // namespace tlmgpu
