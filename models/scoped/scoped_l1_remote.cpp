// ScopedL1: remote operations as requester (seed-002 §2.3 f-h, §1.7) and
// the responder side of selective and broadcast flushes and invalidations.
// Rules P1-P7 of seed-002 §2.8 are marked where they are kept.
#include "models/scoped/scoped_system.hpp"

#include <algorithm>
#include <stdexcept>

namespace tlmgpu::scoped {

void ScopedL1::block() {
  if (blocked_++ == 0) blocked_since_ = sys_.loop().now();
}

void ScopedL1::unblock() {
  if (--blocked_ == 0) sys_.stats().cu_blocked_cycles.inc(sys_.loop().now() - blocked_since_);
  changed_.notify();
}

Task<uint32_t> ScopedL1::remote_op(SyncOp op) {
  auto& st = sys_.stats();
  (op.order == Order::Acq ? st.rem_acq : op.order == Order::Rel ? st.rem_rel : st.rem_ar).inc();
  if (op.order == Order::Relaxed)
    throw std::invalid_argument("a remote operation needs acquire or release order");
  // srsp_opt same-CU shortcut (§2.6.1): the local-modifier runs here, so
  // the wg operation (with its PA-TBL check) is enough.
  if (sys_.protocol() == Protocol::SrspOpt && lr_.lookup(key_of(op.addr))) {
    st.same_cu_shortcuts.inc();
    op.remote = false;
    op.scope = Scope::Wg;
    co_return co_await wg_op(op);
  }
  uint64_t t0 = sys_.loop().now();
  co_await admit(line_of(op.addr));
  uint32_t old;
  if (sys_.protocol() == Protocol::Brsp)
    old = co_await brsp_op(op);
  else if (op.order == Order::Rel)
    old = co_await srsp_release(op);
  else
    old = co_await srsp_acquire(op, op.order == Order::AcqRel);
  st.remote_cycles.inc(sys_.loop().now() - t0);
  co_return old;
}

Task<void> ScopedL1::selflush_all(Addr line, std::vector<uint32_t> targets, uint32_t& positives,
                                  int32_t& positive_from) {
  uint32_t acks = 0;
  for (uint32_t t : targets)
    sys_.spawner().spawn([](ScopedL1* self, uint32_t t, Addr line, uint32_t* acks, uint32_t* pos,
                            int32_t* from) -> Task<void> {
      auto& s = self->sys_;
      co_await s.hop(self->id_, t, Msg::SelFlushReq);
      bool hit = co_await s.l1(t).on_selflush(line);
      co_await s.hop(t, self->id_, Msg::SelFlushAck);
      if (hit) {
        ++*pos;
        *from = int32_t(t);
      }
      ++*acks;
      self->changed_.notify();
    }(this, t, line, &acks, &positives, &positive_from));
  co_await until(changed_, [&] { return acks == targets.size(); });
}

Task<void> ScopedL1::selinv_all(Addr line) {
  uint32_t acks = 0, n = sys_.cus();
  for (uint32_t t = 0; t < n; ++t)
    sys_.spawner().spawn([](ScopedL1* self, uint32_t t, Addr line, uint32_t* acks) -> Task<void> {
      auto& s = self->sys_;
      // The requester is one of "all L1s" (§2.3 g): no message to itself.
      if (t != self->id_) co_await s.hop(self->id_, t, Msg::SelInvReq);
      co_await s.l1(t).on_selinv(line);
      if (t != self->id_) co_await s.hop(t, self->id_, Msg::SelInvAck);
      ++*acks;
      self->changed_.notify();
    }(this, t, line, &acks));
  co_await until(changed_, [&] { return acks == n; });
}

Task<void> ScopedL1::selinv_then_unlock(Addr line) {
  // P3: L stays locked at L2 until every PA-TBL holds it. The mutation
  // no_selinv_acks lets go first.
  if (sys_.mut().no_selinv_acks) co_await l2_unlock(line);
  co_await selinv_all(line);
  if (!sys_.mut().no_selinv_acks) co_await l2_unlock(line);
}

// rem_acq (also_release = false) and rem_ar (true), §2.3 f and h.
Task<uint32_t> ScopedL1::srsp_acquire(SyncOp op, bool also_release) {
  Addr line = line_of(op.addr), key = key_of(op.addr);
  const auto& mut = sys_.mut();
  block();
  if (!mut.late_lock) co_await l2_lock(line); // P2: lock before anyone invalidates L
  std::vector<uint32_t> targets;
  bool unicast = false;
  if (sys_.protocol() == Protocol::SrspOpt) {
    auto p = predictor_.find(key);
    if (p != predictor_.end() && p->second != id_) {
      targets.push_back(p->second);
      unicast = true;
    }
  }
  if (!unicast)
    for (uint32_t t = 0; t < sys_.cus(); ++t)
      if (t != id_) targets.push_back(t);
  uint32_t positives = 0;
  int32_t from = -1;
  if (mut.no_selflush) targets.clear();
  // rem_ar flushes its own L1 too (§2.3 h; here before the selective
  // flushes rather than beside them: same messages, a little more latency).
  if (also_release) co_await flush();
  co_await selflush_all(line, targets, positives, from);
  if (unicast && positives == 0) {
    // Misfire: the predicted owner no longer holds the release; ask the rest.
    sys_.stats().predictor_misfires.inc();
    std::vector<uint32_t> rest;
    for (uint32_t t = 0; t < sys_.cus(); ++t)
      if (t != id_ && t != targets[0]) rest.push_back(t);
    co_await selflush_all(line, rest, positives, from);
  } else if (unicast) {
    sys_.stats().predictor_hits.inc();
  }
  if (sys_.protocol() == Protocol::SrspOpt && from >= 0 && uint32_t(from) != id_) {
    if (!predictor_.count(key) && predictor_.size() >= sys_.spec().predictor_entries) {
      predictor_.erase(predictor_lru_.front());
      predictor_lru_.erase(predictor_lru_.begin());
    }
    predictor_lru_.erase(std::remove(predictor_lru_.begin(), predictor_lru_.end(), key),
                         predictor_lru_.end());
    predictor_lru_.push_back(key);
    predictor_[key] = uint32_t(from);
  }
  sys_.stats().l1s_flushed.inc(positives + (also_release ? 1 : 0));
  if (mut.late_lock) co_await l2_lock(line);
  co_await writeback_and_drop(line); // P5
  uint32_t old = co_await l2_atomic(op, false);
  if (also_release)
    co_await selinv_then_unlock(line);
  else
    co_await l2_unlock(line);
  co_await invalidate_all(InvCause::RemoteSelf);
  sys_.stats().l1s_invalidated.inc();
  unblock();
  co_return old;
}

// rem_rel, §2.3 g.
Task<uint32_t> ScopedL1::srsp_release(SyncOp op) {
  Addr line = line_of(op.addr);
  co_await flush();
  sys_.stats().l1s_flushed.inc();
  co_await writeback_and_drop(line);           // P5
  uint32_t old = co_await l2_atomic(op, true); // store and lock in one step (P3)
  co_await selinv_then_unlock(line);
  co_await invalidate_line(line, true);
  co_return old;
}

// bRSP (§1.7): every L1 is flushed (and, for acquires, locked) before the
// atomic and invalidated after it.
Task<uint32_t> ScopedL1::brsp_op(SyncOp op) {
  const bool lock_all = op.acquires();
  const uint32_t n = sys_.cus();
  uint32_t acks = 0;
  if (lock_all) {
    block();
    co_await until(changed_, [&] { return cu_fetches_ == 0; });
    for (uint32_t t = 0; t < n; ++t)
      if (t != id_)
        sys_.spawner().spawn([](ScopedL1* self, uint32_t t, uint32_t* acks) -> Task<void> {
          auto& s = self->sys_;
          co_await s.hop(self->id_, t, Msg::BcastFlushReq);
          co_await s.l1(t).on_bcast_flush();
          co_await s.hop(t, self->id_, Msg::BcastFlushAck);
          ++*acks;
          self->changed_.notify();
        }(this, t, &acks));
  }
  co_await flush();
  if (lock_all) co_await until(changed_, [&] { return acks == n - 1; });
  sys_.stats().l1s_flushed.inc(lock_all ? n : 1);
  co_await writeback_and_drop(line_of(op.addr));
  // A remote release keeps L locked at L2 until every L1 is invalidated:
  // without it (bRSP as seed-002 §1.7 states it, mutation brsp_open_release)
  // an owner that refetches L between the store and the invalidation enters
  // with stale data (litmus release_refetch), the race P3 names for sRSP.
  const bool lock_release = !lock_all && !sys_.mut().brsp_open_release;
  uint32_t old = co_await l2_atomic(op, lock_release);
  acks = 0;
  for (uint32_t t = 0; t < n; ++t)
    if (t != id_)
      sys_.spawner().spawn(
          [](ScopedL1* self, uint32_t t, uint32_t* acks, bool unlock) -> Task<void> {
            auto& s = self->sys_;
            co_await s.hop(self->id_, t, Msg::BcastInvReq);
            co_await s.l1(t).on_bcast_inv(unlock);
            co_await s.hop(t, self->id_, Msg::BcastInvAck);
            ++*acks;
            self->changed_.notify();
          }(this, t, &acks, lock_all));
  co_await invalidate_all(InvCause::RemoteSelf);
  co_await until(changed_, [&] { return acks == n - 1; });
  if (lock_release) co_await l2_unlock(line_of(op.addr));
  sys_.stats().l1s_invalidated.inc(n);
  if (lock_all) unblock();
  co_return old;
}

Task<bool> ScopedL1::on_selflush(Addr line) {
  ++busy_[line]; // the CU waits for line L while this runs (§2.10)
  auto hit = lr_.lookup(key_of(line));
  (hit ? sys_.stats().lr_hits : sys_.stats().lr_misses).inc();
  if (hit && !sys_.mut().no_drain_to_marker) co_await drain_to(*hit);
  // P1: the line's dirty bytes reach L2 before the ack; P4: so does every
  // write-back already travelling (an overflow pop, an eviction).
  co_await invalidate_line(line, !sys_.mut().early_ack);
  if (--busy_[line] == 0) busy_.erase(line);
  changed_.notify();
  co_return hit.has_value();
}

Task<void> ScopedL1::on_selinv(Addr line) {
  ++busy_[line];
  if (!sys_.mut().no_pa_insert) {
    Addr key = key_of(line);
    if (!pa_.insert(key)) {
      sys_.stats().pa_overflows.inc();
      if (sys_.spec().pa_full == "eager") {
        co_await invalidate_all(InvCause::PaOverflow);
        pa_.insert(key);
      } else {
        pa_.set_overflowed();
      }
    }
    sys_.stats().pa_inserts.inc();
  }
  co_await invalidate_line(line, !sys_.mut().early_ack);
  if (--busy_[line] == 0) busy_.erase(line);
  changed_.notify();
}

Task<void> ScopedL1::on_bcast_flush() {
  block();
  co_await until(changed_, [&] { return cu_fetches_ == 0; });
  co_await flush();
}

Task<void> ScopedL1::on_bcast_inv(bool unlock) {
  co_await invalidate_all(InvCause::Broadcast);
  if (unlock) unblock();
}

} // namespace tlmgpu::scoped
